# SPDX-License-Identifier: MIT
# trend-verdicts.sh - proftrend's verdicts on real dumps made now by
# tests/producers/leakshapes.c (a steady leak, a small leak beside it, a
# cache that saturates, memory freed at exit, a sawtooth, a transient),
# under gperftools (HeapProfilerDump and the dump at exit) and jemalloc
# (prof.dump .m dumps and the prof_final .f dump): every row gets its
# shape's verdict and the suspects are exactly the two leaks.  Also:
# jemalloc's .u (prof_gdump) dumps are marked and ordered by the global
# sequence number, and the dumps of two processes are refused.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
TREND=$CMD/proftrend
src=$PROFCONV_SRCDIR/tests/producers/leakshapes.c
PHASES=40
found=0
export LC_ALL=C		# ASCII sparklines

# one_error WHAT: stderr has one line that is not a warning (the
# symbolizer may add one about binaries without symbols).
one_error() {
	[ "$(grep -vc ': warning: ' "$TMP/err")" = 1 ] ||
		fail "$1: not one line: $(cat "$TMP/err")"
}

# err_has TEXT: stderr has the fixed string TEXT.
err_has() {
	grep -qF -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(cat "$TMP/err")"
}

# verdict NAME: the verdict of row NAME in $TMP/out (verdict, sparkline,
# name end a row).
verdict() {
	awk -v n="$1" 'NF > 3 && $NF == n { print $(NF - 2) }' "$TMP/out"
}

# want_shapes WHAT: each shape's verdict, the suspects exactly the leaks,
# in the table and in the JSON (read by Python's json module).
want_shapes() {
	for pair in steady_leak:leak small_leak:leak fill_cache:saturating \
	    freed_at_exit:freed-at-exit sawtooth:periodic transient:transient; do
		name=${pair%%:*} want=${pair#*:}
		got=$(verdict "$name")
		[ "$got" = "$want" ] || fail "$1: $name is '$got', not '$want'"
	done
	awk 'NF > 3 && $(NF - 2) == "leak" { print $NF }' "$TMP/out" | sort |
		tr '\n' ' ' >"$TMP/leaks"
	[ "$(cat "$TMP/leaks")" = "small_leak steady_leak " ] ||
		fail "$1: the leaks are '$(cat "$TMP/leaks")'"
	grep -q '^2 suspects in ' "$TMP/out" || fail "$1: not 2 suspects: $(grep suspect "$TMP/out")"
}

# json_shapes WHAT: the same from --json, every row with both fields.
json_shapes() {
	python3 - "$TMP/out" <<'EOF' || fail "$1: JSON verdicts"
import json, sys
doc = json.load(open(sys.argv[1]))
want = {"steady_leak": "leak", "small_leak": "leak",
        "fill_cache": "saturating", "freed_at_exit": "freed-at-exit",
        "sawtooth": "periodic", "transient": "transient"}
names = {"leak", "saturating", "periodic", "transient", "freed-at-exit",
         "stable"}
rows = {r["name"]: r for r in doc["rows"]}
for r in doc["rows"]:
    assert r["verdict"] in names, r
    assert r["suspect"] == (r["verdict"] == "leak"), r
for name, v in want.items():
    assert rows[name]["verdict"] == v, (name, rows[name]["verdict"])
assert sorted(r["name"] for r in doc["rows"] if r["suspect"]) == \
    ["small_leak", "steady_leak"]
assert doc["suspects"] == 2
EOF
}

# --- gperftools ----------------------------------------------------------------
if [ -n "$(find_lib libtcmalloc.so.4)" ] || [ -n "$(find_lib libtcmalloc.so)" ]; then
	found=1
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/shapes-tc" "$src" \
		-Wl,--no-as-needed -ltcmalloc || fail "cannot build leakshapes with tcmalloc"
	HEAPPROFILE=$TMP/tc "$TMP/shapes-tc" $PHASES 2>/dev/null ||
		fail "leakshapes under tcmalloc failed"
	n=$(ls "$TMP"/tc.*.heap | wc -l)
	[ "$n" = $((PHASES + 1)) ] || fail "tcmalloc wrote $n dumps, not $((PHASES + 1))"
	run 1 "$TREND" "$TMP"/tc.*.heap
	want_shapes tcmalloc
	# The small leak is under 1% of the heap's growth: --min-share used
	# to hide it; now it is ignored, with a warning.
	run 1 "$TREND" --min-share 0.01 "$TMP"/tc.*.heap
	want_shapes "tcmalloc --min-share"
	err_has 'min-share is deprecated'
	run 1 "$TREND" --json "$TMP"/tc.*.heap
	json_shapes "tcmalloc JSON"
	# Sparklines: ASCII in the C locale, Unicode blocks under UTF-8.
	LC_ALL=C run 1 "$TREND" "$TMP"/tc.*.heap
	grep -q '[^ -~]' "$TMP/out" && fail "C locale: the table is not ASCII"
	if locale -a 2>/dev/null | grep -qix 'c.utf-\?8'; then
		LC_ALL=C.UTF-8 run 1 "$TREND" "$TMP"/tc.*.heap
		grep 'steady_leak$' "$TMP/out" | grep -q "$(printf '\342\226\201')" ||
			fail "UTF-8 locale: no block sparkline: $(grep steady_leak "$TMP/out")"
	fi
	# Two processes: gperftools' name for a forked child's dumps.
	cp "$TMP/tc.0003.heap" "$TMP/tc_4242.0001.heap"
	run 2 "$TREND" "$TMP/tc.0001.heap" "$TMP/tc.0002.heap" "$TMP/tc_4242.0001.heap"
	one_error "two processes"
	err_has "($TMP/tc.*.heap and $TMP/tc_4242.*.heap)"
	rm -f "$TMP/tc_4242.0001.heap"
	# Two programs under one name: the first mapping differs.
	cp "$TMP/shapes-tc" "$TMP/other-tc"
	HEAPPROFILE=$TMP/other "$TMP/other-tc" 12 2>/dev/null || fail "other program failed"
	cp "$TMP/other.0003.heap" "$TMP/tc.0099.heap"
	run 2 "$TREND" "$TMP/tc.0001.heap" "$TMP/tc.0002.heap" "$TMP/tc.0099.heap"
	one_error "two programs"
	err_has "two programs ($TMP/shapes-tc and $TMP/other-tc)"
	rm -f "$TMP/tc.0099.heap"
else
	echo "libtcmalloc not installed: gperftools part skipped" >&2
fi

# --- jemalloc --------------------------------------------------------------------
je=$(find_lib libjemalloc.so.2)
if [ -n "$je" ]; then
	found=1
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/shapes-je" "$src" ||
		fail "cannot build leakshapes"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/je \
		"$TMP/shapes-je" $PHASES 2>/dev/null || fail "leakshapes under jemalloc failed"
	ls "$TMP"/je.*.m*.heap >"$TMP/je-m" 2>/dev/null
	ls "$TMP"/je.*.f.heap >"$TMP/je-f" 2>/dev/null
	[ "$(wc -l <"$TMP/je-m")" = $PHASES ] || fail "jemalloc wrote $(wc -l <"$TMP/je-m") .m dumps"
	[ "$(wc -l <"$TMP/je-f")" = 1 ] || fail "jemalloc wrote no .f dump"
	run 1 "$TREND" "$TMP"/je.*.heap
	want_shapes jemalloc
	# The .f dump is the last snapshot and marked final: in the
	# summary after the table, and in --snapshots' list.
	tail_snap=$(tail -n 1 "$TMP/out")
	case $tail_snap in
	"  final, last "*"  $(cat "$TMP/je-f")") ;;
	*) fail "jemalloc: the summary's last snapshot is not the final dump: $tail_snap" ;;
	esac
	grep -q '^[0-9]* snapshots of inuse_space (jemalloc: 0 high-water \.u, 1 final \.f):$' "$TMP/out" ||
		fail "jemalloc: the summary does not count the final dump"
	run 1 "$TREND" --snapshots "$TMP"/je.*.heap
	tail_snap=$(tail -n 1 "$TMP/out")
	case $tail_snap in
	*"[final]  $(cat "$TMP/je-f")") ;;
	*) fail "jemalloc: the last snapshot is not the final dump: $tail_snap" ;;
	esac
	run 1 "$TREND" --json "$TMP"/je.*.heap
	json_shapes "jemalloc JSON"
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["snapshots"]; assert s[-1]["final"] and not any(x["final"] for x in s[:-1])' \
		"$TMP/out" || fail "jemalloc JSON: final flag"

	# prof_gdump: .u dumps at each new high-water mark, between the .m
	# ones; the global sequence number orders them.
	mkdir "$TMP/gd"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_gdump:true,prof_prefix:$TMP/gd/je \
		"$TMP/shapes-je" 12 2>/dev/null || fail "leakshapes with prof_gdump failed"
	ls "$TMP"/gd/je.*.u*.heap >/dev/null 2>&1 || fail "prof_gdump wrote no .u dump"
	# Newest first on the command line: the order must come from the names.
	run 1 "$TREND" --bytes --snapshots $(ls "$TMP"/gd/je.*.heap | sort -r)
	nsnap=$(ls "$TMP"/gd/je.*.heap | wc -l)
	awk 'f { print } /^[0-9]+ snapshots of / { f = 1 }' "$TMP/out" >"$TMP/gd-snaps"
	[ "$(wc -l <"$TMP/gd-snaps")" = "$nsnap" ] ||
		fail "prof_gdump: $(wc -l <"$TMP/gd-snaps") snapshot lines, not $nsnap"
	awk '{ print $NF }' "$TMP/gd-snaps" | sed 's/.*\/je\.[0-9]*\.\([0-9]*\)\..*/\1/' >"$TMP/gd-seq"
	sort -n "$TMP/gd-seq" | cmp -s - "$TMP/gd-seq" ||
		fail "prof_gdump: snapshots not in sequence order: $(tr '\n' ' ' <"$TMP/gd-seq")"
	# Each .u line says high-water; no other does.
	awk '/\.u[0-9]*\.heap$/ && !/\[high-water\]/ { print "unmarked " $NF }
	     !/\.u[0-9]*\.heap$/ && /\[high-water\]/ { print "marked " $NF }' \
		"$TMP/gd-snaps" >"$TMP/gd-bad"
	[ -s "$TMP/gd-bad" ] && fail "prof_gdump marks: $(head -n 3 "$TMP/gd-bad")"
	# Without --snapshots: the table, then a summary of a few lines
	# whose high-water line is the last .u dump.
	run 1 "$TREND" --bytes "$TMP"/gd/je.*.heap
	awk 'f { print } /^[0-9]+ snapshots of / { f = 1 }' "$TMP/out" >"$TMP/gd-sum"
	[ "$(wc -l <"$TMP/gd-sum")" -le 5 ] ||
		fail "prof_gdump: a summary of $(wc -l <"$TMP/gd-sum") lines"
	lastu=$(grep '\.u[0-9]*\.heap$' "$TMP/gd-snaps" | tail -n 1)
	nu=$(grep -c '\.u[0-9]*\.heap$' "$TMP/gd-snaps")
	grep -q "^[0-9]* snapshots of inuse_space (jemalloc: $nu high-water \\.u, 0 final \\.f):$" "$TMP/out" ||
		fail "prof_gdump: the summary does not count $nu .u dumps: $(grep 'snapshots of' "$TMP/out")"
	set -- $lastu
	awk -v n="$1" -v f="$(echo "$lastu" | awk '{ print $NF }')" \
	    '/^  [a-z, ]*high-water/ && $0 ~ " " n " " && $NF == f' "$TMP/gd-sum" | grep -q . ||
		fail "prof_gdump: the summary's high-water line is not $lastu: $(cat "$TMP/gd-sum")"
	[ "$(verdict steady_leak)" = leak ] || fail "prof_gdump: steady_leak is '$(verdict steady_leak)'"

	# Two processes: two runs' dumps in one directory.
	mkdir "$TMP/two"
	for k in 1 2; do
		LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/two/je \
			"$TMP/shapes-je" 12 2>/dev/null || fail "run $k failed"
	done
	set -- $(ls "$TMP"/two/je.*.heap | sed 's/.*\/je\.\([0-9]*\)\..*/\1/' | sort -u)
	[ $# = 2 ] || fail "expected two pids, got: $*"
	run 2 "$TREND" "$TMP"/two/je.*.heap
	one_error "two processes"
	grep -q "$TMP/two/je\\.$1\\.\\*" "$TMP/err" && grep -q "$TMP/two/je\\.$2\\.\\*" "$TMP/err" ||
		fail "two processes: the groups are not both named: $(cat "$TMP/err")"
	err_has 'two processes'
else
	echo "libjemalloc not installed: jemalloc part skipped" >&2
fi
[ $found = 1 ] || skip "neither libtcmalloc nor libjemalloc installed"
finish
