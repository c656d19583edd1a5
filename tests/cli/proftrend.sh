# SPDX-License-Identifier: MIT
# proftrend.sh - leak suspects in real heap dumps made now by
# tests/trend/patterns.c, which dumps after each of its phases: a steady
# leak (64 KiB a phase), a slow leak (6 KiB a phase), memory that grows
# and is freed, a sawtooth, a cache filled once, and churn.  Under
# gperftools (HeapProfilerDump) and jemalloc (mallctl "prof.dump",
# unpadded sequence numbers) exactly the two leaks must be suspects.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
TREND=$CMD/proftrend
PROFDIFF=$CMD/profdiff
src=$PROFCONV_SRCDIR/tests/trend/patterns.c
PHASES=12
KiB=1024
tc_found=0 je_found=0

# The table's sparklines in ASCII, whatever the user's locale.
export LC_ALL=C

# suspects FILE: the names of the leak rows of a table (verdict, then
# sparkline, then name), sorted.
suspects() {
	awk 'NF > 2 && $(NF - 2) == "leak" { print $NF }' "$1" | sort
}

# row NAME: the table row of NAME (exact numbers: run with --bytes).
row() {
	awk -v n="$1" '$NF == n' "$TMP/out"
}

# snapshot_lines FILE: the lines after the table's "N snapshots of TYPE"
# heading (--snapshots: one per snapshot; else the summary).
snapshot_lines() {
	awk 'f { print } /^[0-9]+ snapshots of / { f = 1 }' "$1"
}

want_leaks() {	# want_leaks WHAT: the suspects are exactly the two leaks
	printf 'slow_leak\nsteady_leak\n' >"$TMP/want-suspects"
	suspects "$TMP/out" | diff -u "$TMP/want-suspects" - >&2 ||
		fail "$1: suspects are not exactly the two leaks"
	for f in grow_then_free sawtooth; do
		[ -n "$(row $f)" ] || fail "$1: no row for $f"
	done
	[ -z "$(row fill_cache)" ] || fail "$1: the cache filled once changed"
}

# jsoncheck FILE: Go parses proftrend's JSON and prints its rows.
have_go=0
if command -v go >/dev/null 2>&1; then
	have_go=1
	go_env
	export GOFLAGS=
	jsoncheck() {
		go run "$PROFCONV_SRCDIR/tests/trend/jsoncheck.go" <"$1"
	}
else
	echo "go not installed: JSON is checked with grep only" >&2
fi

# --- gperftools: HEAPPROFILE and HeapProfilerDump ----------------------------
if [ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so ] || ldconfig -p | grep -q libtcmalloc.so; then
	tc_found=1
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat-tc" "$src" \
		-Wl,--no-as-needed -ltcmalloc || fail "cannot build patterns with tcmalloc"
	HEAPPROFILE=$TMP/tc "$TMP/pat-tc" $PHASES 2>/dev/null ||
		fail "patterns under tcmalloc failed"
	# PHASES dumps and one more at exit.
	n=$(ls "$TMP"/tc.*.heap | wc -l)
	[ "$n" = $((PHASES + 1)) ] || fail "tcmalloc wrote $n dumps"
	first=$TMP/tc.0001.heap
	last=$(ls "$TMP"/tc.*.heap | tail -n 1)
	head -n 1 "$first" | grep -q '^heap profile: *\([0-9]*\): *\([0-9]*\) \[ *\1: *\2\]' ||
		fail "the first dump has frees: it no longer tests objects/space"

	run 1 "$TREND" --bytes "$TMP"/tc.*.heap
	want_leaks tcmalloc
	# Exact numbers: the heap profiler records every allocation.
	# The dump at exit repeats the last phase: one interval did not grow.
	row steady_leak | grep -Eq "^ +$((64 * KiB)) +$((64 * KiB * PHASES)) +$((64 * KiB * PHASES)) +$((64 * KiB * (PHASES - 1))) +[0-9]+ +$((PHASES - 1))/$PHASES +leak +[^ ]+ +steady_leak$" ||
		fail "tcmalloc steady_leak: $(row steady_leak)"
	row slow_leak | grep -Eq "^ +$((6 * KiB)) +$((6 * KiB * PHASES)) +$((6 * KiB * PHASES)) +$((6 * KiB * (PHASES - 1))) +[0-9]+ +$((PHASES - 1))/$PHASES +leak +[^ ]+ +slow_leak$" ||
		fail "tcmalloc slow_leak: $(row slow_leak)"
	row grow_then_free | grep -Eq "^ +$((128 * KiB)) +0 +[0-9]+ +-$((128 * KiB)) .* 5/$PHASES +transient +[^ ]+ +grow_then_free$" ||
		fail "tcmalloc grow_then_free: $(row grow_then_free)"
	# The table first: the suspects' count, then the header; the
	# snapshots summarized after it (issue 30 item 6).
	sed -n 1p "$TMP/out" | grep -q '^2 suspects in [0-9]* rows that changed (judged over [a-z ]*)$' ||
		fail "tcmalloc: the first line is not the suspects' count: $(sed -n 1p "$TMP/out")"
	sed -n 3p "$TMP/out" | grep -Eq '^ +First +Last +Peak +Growth .* Name$' ||
		fail "tcmalloc: the table's header is not the third line: $(sed -n 3p "$TMP/out")"
	[ "$(wc -l <"$TMP/out")" -le 12 ] ||
		fail "tcmalloc: $(wc -l <"$TMP/out") lines for 4 rows and 13 snapshots"
	snapshot_lines "$TMP/out" >"$TMP/summary"
	grep -q "^  first  *1 .*/tc\\.0001\\.heap$" "$TMP/summary" ||
		fail "tcmalloc: the first snapshot is not tc.0001.heap: $(cat "$TMP/summary")"
	awk -v f="$last" '$1 == "last" && $2 == n && $NF == f' n=$((PHASES + 1)) \
		"$TMP/summary" | grep -q . ||
		fail "tcmalloc: the last snapshot is not the dump at exit: $(cat "$TMP/summary")"
	# The peak is the snapshot with the largest total, as --snapshots
	# lists them (and tags it).
	run 1 "$TREND" --bytes --snapshots "$TMP"/tc.*.heap
	snapshot_lines "$TMP/out" >"$TMP/all"
	[ "$(wc -l <"$TMP/all")" = $((PHASES + 1)) ] ||
		fail "tcmalloc --snapshots: $(wc -l <"$TMP/all") lines, not $((PHASES + 1))"
	peak=$(sort -k2,2nr -k1,1n "$TMP/all" | awk 'NR == 1 { print $1 }')
	[ "$(grep -c '\[peak\]' "$TMP/all")" = 1 ] &&
		grep -q "^ *$peak .*\[peak\]" "$TMP/all" ||
		fail "tcmalloc --snapshots: snapshot $peak is not the one tagged peak"
	grep -Eq "^  (first, )?peak(, last)? +$peak " "$TMP/summary" ||
		fail "tcmalloc: the summary's peak is not snapshot $peak: $(cat "$TMP/summary")"

	# The order of the arguments does not matter; --no-sort keeps it.
	ls "$TMP"/tc.*.heap | sort -r >"$TMP/reversed"
	run 1 "$TREND" --bytes --snapshots "$TMP"/tc.*.heap
	cp "$TMP/out" "$TMP/sorted"
	run 1 "$TREND" --bytes --snapshots $(cat "$TMP/reversed")
	cmp -s "$TMP/out" "$TMP/sorted" || fail "tcmalloc: argument order changes the table"
	run 0 "$TREND" --no-sort $(cat "$TMP/reversed")
	[ -z "$(suspects "$TMP/out")" ] || fail "tcmalloc: reversed series has suspects"

	# JSON: the same rows, the fields issue 11 names.
	run 1 "$TREND" --json "$TMP"/tc.*.heap
	cp "$TMP/out" "$TMP/tc.json"
	for k in snapshots rows file inuse_bytes inuse_objects name first_bytes \
	    last_bytes growth_bytes slope_bytes grew_intervals intervals suspect; do
		grep -q "\"$k\":" "$TMP/tc.json" || fail "tcmalloc JSON has no \"$k\""
	done
	if [ $have_go = 1 ]; then
		jsoncheck "$TMP/tc.json" >"$TMP/jrows" || fail "Go cannot parse the JSON"
		[ "$(sed -n 1p "$TMP/jrows")" = "snapshots $((PHASES + 1))" ] ||
			fail "JSON: $(sed -n 1p "$TMP/jrows")"
		sed -n 's/^suspect //p' "$TMP/jrows" | sort |
			diff -u "$TMP/want-suspects" - >&2 || fail "JSON suspects differ"
	fi

	# -o: last minus first, suspects only, which go tool pprof opens.
	run 1 "$TREND" -q -o "$TMP/sus.pb.gz" "$TMP"/tc.*.heap
	[ -s "$TMP/out" ] && fail "-q printed something"
	"$PROFCONV" show -s "$TMP/sus.pb.gz" >"$TMP/sus.txt" || fail "cannot read -o output"
	want=$((64 * KiB * (PHASES - 1) + 6 * KiB * (PHASES - 1)))
	grep -q "^total inuse_space/bytes: $want" "$TMP/sus.txt" ||
		fail "-o: in-use growth is not $want: $(grep inuse_space "$TMP/sus.txt")"
	if [ $have_go = 1 ]; then
		go tool pprof -top -sample_index=inuse_space "$TMP/sus.pb.gz" \
			>"$TMP/top" 2>"$TMP/top.err" || fail "go tool pprof cannot open -o output"
		grep -q ' steady_leak$' "$TMP/top" && grep -q ' slow_leak$' "$TMP/top" ||
			fail "go tool pprof: leaks not in -o output: $(cat "$TMP/top")"
		grep -Eq ' (grow_then_free|sawtooth|churn|fill_cache)$' "$TMP/top" &&
			fail "go tool pprof: non-leaks in -o output"
	fi

	# profdiff of the first (objects/space) and last dump: the New/Freed table.
	run 1 "$PROFDIFF" --bytes "$first" "$last"
	grep -Eq '^ +New +Freed +Delta objs +Alloc bytes +Freed bytes +Delta bytes +Name$' "$TMP/out" ||
		fail "profdiff first last: no New/Freed table: $(head -n 1 "$TMP/out")"
	grep -Eq "^ +$((64 * (PHASES - 1))) +0 +$((64 * (PHASES - 1))) +$((64 * KiB * (PHASES - 1))) +0 +$((64 * KiB * (PHASES - 1))) +steady_leak$" "$TMP/out" ||
		fail "profdiff first last: steady_leak row: $(grep steady "$TMP/out")"
	grep -Eq "^ +[0-9]+ +[0-9]+ +-32 +[0-9]+ +[0-9]+ +-$((128 * KiB)) +grow_then_free$" "$TMP/out" ||
		fail "profdiff first last: grow_then_free row: $(grep grow_then "$TMP/out")"
	# ... and merge takes them too: objects/space gets the in-use values.
	run 0 "$PROFCONV" merge -o "$TMP/fl.pb.gz" "$first" "$last"
	space() { "$PROFCONV" show -s "$1" | sed -n "s/^total $2\/bytes: \([0-9]*\).*/\1/p"; }
	want=$(($(space "$first" space) + $(space "$last" inuse_space)))
	[ "$(space "$TMP/fl.pb.gz" space)" = "$want" ] ||
		fail "merge first last: space is not $want"
else
	echo "libtcmalloc not installed: gperftools part skipped" >&2
fi

# --- jemalloc: mallctl("prof.dump"), unpadded sequence numbers -------------
je=$(ldconfig -p | sed -n 's/.*libjemalloc.so.2 .*=> //p' | head -n 1)
if [ -n "$je" ]; then
	je_found=1
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat-je" "$src" ||
		fail "cannot build patterns"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/je \
		"$TMP/pat-je" $PHASES 2>/dev/null || fail "patterns under jemalloc failed"
	ls "$TMP"/je.*.heap >"$TMP/je-files" 2>/dev/null
	[ "$(wc -l <"$TMP/je-files")" = $PHASES ] || fail "jemalloc wrote $(wc -l <"$TMP/je-files") dumps"
	grep -q '\.m10\.heap$' "$TMP/je-files" || fail "no .m10 dump"

	run 1 "$TREND" --bytes $(cat "$TMP/je-files")
	want_leaks jemalloc
	# The snapshots in natural order (ls gave .m1 .m10 .m2 ...), and the
	# exact slope of 64 KiB a phase.
	run 1 "$TREND" --bytes --snapshots $(cat "$TMP/je-files")
	snapshot_lines "$TMP/out" | awk '{ print $NF }' >"$TMP/je-order"
	sort -V "$TMP/je-files" | diff -u - "$TMP/je-order" >&2 ||
		fail "jemalloc: snapshots not in natural order"
	row steady_leak | grep -Eq "^ +$((64 * KiB)) +$((64 * KiB * PHASES)) +$((64 * KiB * PHASES)) +$((64 * KiB * (PHASES - 1))) +$((64 * KiB)) +$((PHASES - 1))/$((PHASES - 1)) +leak +[^ ]+ +steady_leak$" ||
		fail "jemalloc steady_leak: $(row steady_leak)"

	run 1 "$TREND" --json $(cat "$TMP/je-files")
	if [ $have_go = 1 ]; then
		jsoncheck "$TMP/out" >"$TMP/jrows" || fail "Go cannot parse the jemalloc JSON"
		sed -n 's/^suspect //p' "$TMP/jrows" | sort |
			diff -u "$TMP/want-suspects" - >&2 || fail "jemalloc JSON suspects differ"
	fi
else
	echo "libjemalloc not installed: jemalloc part skipped" >&2
fi
[ $tc_found = 1 ] || [ $je_found = 1 ] || skip "neither libtcmalloc nor libjemalloc installed"

# --- bad input and the exit status -------------------------------------------
printf 'not a profile\n' >"$TMP/bad.heap"
run 2 "$TREND" "$DATA/go/mem.pb.gz" "$TMP/bad.heap"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "'$TMP/bad.heap'" "$TMP/err" ||
	fail "bad input: not one line naming the file: $(cat "$TMP/err")"
run 2 "$TREND" -o "$TMP/none.pb.gz" "$DATA/go/mem.pb.gz" "$TMP/missing.heap"
[ -e "$TMP/none.pb.gz" ] && fail "an output was written after an error"
# One profile twice: nothing changed, nothing to suspect.
run 0 "$TREND" "$DATA/go/mem.pb.gz" "$DATA/go/mem.pb.gz"
expect_out_has '^0 suspects in 0 rows that changed \(judged over [a-z ]*\)$'

# Every unreadable snapshot is reported, whatever the readers' timing:
# the first failure used to stop the readers, and the snapshots not yet
# claimed (with 8, always some) were never reported.
printf 'heap profile: 1: 8 [1: 8] @ heapprofile\n1: 8 [1: 8] @ 0xZZ\n' >"$TMP/bad1.heap"
bad="$TMP/bad1.heap"
for k in 2 3 4 5 6 7 8; do
	cp "$TMP/bad1.heap" "$TMP/bad$k.heap"
	bad="$bad $TMP/bad$k.heap"
done
# shellcheck disable=SC2086
run 2 "$CMD/proftrend" $bad
for k in 1 2 3 4 5 6 7 8; do
	grep -q "'$TMP/bad$k.heap': line 2:" "$TMP/err" ||
		fail "bad$k.heap not reported: $(cat "$TMP/err")"
done
finish
