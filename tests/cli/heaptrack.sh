# SPDX-License-Identifier: MIT
# heaptrack.sh - heaptrack data files made now (tests/producers/heapuse.c
# at -O0 and -O2, heapuse.cc) convert to profiles whose stacks and values
# equal heaptrack_print's, line by line, for each of its four flame graph
# cost types; totals equal its summary and size histogram; the same data
# plain, gzip'd and as file format 2 reads the same; go tool pprof, profdiff
# and profflame open it.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v heaptrack >/dev/null 2>&1 || skip "heaptrack missing (Debian: heaptrack)"
command -v heaptrack_print >/dev/null 2>&1 || skip "heaptrack_print missing (Debian: heaptrack)"
command -v zstd >/dev/null 2>&1 || skip "zstd missing (Debian: zstd)"
command -v perl >/dev/null 2>&1 || skip "perl missing"
HTFOLD=$(built tests/htfold)
[ -x "$HTFOLD" ] || skip "tests/htfold not built"
SRC=$PROFCONV_SRCDIR/tests/producers

gcc -g -O0 -o "$TMP/hu0" "$SRC/heapuse.c" &&
gcc -g -O2 -o "$TMP/hu2" "$SRC/heapuse.c" &&
g++ -g -O2 -o "$TMP/hucc" "$SRC/heapuse.cc" ||
	{ fail "cannot build the producers"; finish; }

# heaptrack writes NAME.zst (NAME.gz without zstd).
for p in hu0 hu2 hucc; do
	(cd "$TMP" && heaptrack -o "$TMP/$p" "./$p" 2000 >"$TMP/$p.log" 2>&1) ||
		{ fail "heaptrack ./$p failed"; sed 's/^/  /' "$TMP/$p.log" >&2; }
	[ -s "$TMP/$p.zst" ] || fail "heaptrack wrote no $p.zst"
done

# total TYPE PROFILE: profconv's total of a sample type.
total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}

# check_stacks DATA PROFILE: every cost type, stack by stack.
check_stacks() {
	for pair in allocations:alloc_objects leaked:inuse_space \
	    peak:peak_space temporary:temporary_objects; do
		cost=${pair%%:*}
		type=${pair#*:}
		heaptrack_print -f "$1" -t 0 --disable-builtin-suppressions \
		    --disable-embedded-suppressions -F "$TMP/fg" \
		    --flamegraph-cost-type "$cost" >/dev/null 2>&1 ||
			{ fail "heaptrack_print -F $1 $cost"; continue; }
		sort "$TMP/fg" >"$TMP/want"
		"$HTFOLD" "$2" "$type" | sort >"$TMP/got"
		[ -s "$TMP/want" ] || fail "$1: heaptrack_print wrote no $cost stacks"
		cmp -s "$TMP/want" "$TMP/got" || {
			fail "$1: $type stacks differ from heaptrack_print's $cost"
			diff "$TMP/want" "$TMP/got" | head -n 10 >&2
		}
		want=$(awk '{s += $NF} END {print s + 0}' "$TMP/fg")
		[ "$(total "$type" "$2")" = "$want" ] ||
			fail "$1: $type total $(total "$type" "$2"), heaptrack_print $want"
	done
}

for p in hu0 hu2 hucc; do
	f=$TMP/$p.zst
	[ -s "$f" ] || continue
	run 0 "$PROFCONV" text2pb "$f" -o "$f.pb.gz"
	[ -s "$f.pb.gz" ] || continue
	check_stacks "$f" "$f.pb.gz"

	# The summary's counts, and the size histogram's bytes.
	heaptrack_print -f "$f" -H "$TMP/hist" >"$TMP/summary" 2>&1
	calls=$(sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p' "$TMP/summary")
	temps=$(sed -n 's/^temporary memory allocations: \([0-9]*\).*/\1/p' "$TMP/summary")
	[ "$(total alloc_objects "$f.pb.gz")" = "$calls" ] ||
		fail "$p: alloc_objects $(total alloc_objects "$f.pb.gz"), heaptrack_print $calls"
	[ "$(total temporary_objects "$f.pb.gz")" = "$temps" ] ||
		fail "$p: temporary_objects $(total temporary_objects "$f.pb.gz"), heaptrack_print $temps"
	bytes=$(awk '{b += $1 * $2} END {print b + 0}' "$TMP/hist")
	[ "$(total alloc_space "$f.pb.gz")" = "$bytes" ] ||
		fail "$p: alloc_space $(total alloc_space "$f.pb.gz"), histogram $bytes"
	live=$(zstd -dc "$f" | awk '/^\+ /{n++} /^- /{n--} END {print n + 0}')
	[ "$(total inuse_objects "$f.pb.gz")" = "$live" ] ||
		fail "$p: inuse_objects $(total inuse_objects "$f.pb.gz"), the file says $live"

	# Plain and gzip'd copies read the same (the name does not matter).
	"$PROFCONV" show "$f" >"$TMP/show.zst"
	zstd -dc "$f" >"$TMP/plain"
	gzip -c "$TMP/plain" >"$TMP/copy.zst"
	for g in "$TMP/plain" "$TMP/copy.zst"; do
		"$PROFCONV" show "$g" >"$TMP/show.other" 2>&1
		cmp -s "$TMP/show.zst" "$TMP/show.other" ||
			fail "$p: $(basename "$g") reads differently"
	done

	# File format 2: strings without lengths, return addresses.
	perl -pe 's/^s [0-9a-f]+ /s /; s/^v (\S+) 3$/v $1 2/;
	    s/^i ([0-9a-f]+)/sprintf("i %x", hex($1) + 1)/e' "$TMP/plain" >"$TMP/v2"
	"$PROFCONV" text2pb "$TMP/v2" -o "$TMP/v2.pb.gz" 2>"$TMP/err" ||
		fail "$p: format 2: $(cat "$TMP/err")"
	for type in alloc_objects inuse_space peak_space temporary_objects; do
		"$HTFOLD" "$f.pb.gz" "$type" >"$TMP/a"
		"$HTFOLD" "$TMP/v2.pb.gz" "$type" >"$TMP/b"
		cmp -s "$TMP/a" "$TMP/b" || fail "$p: format 2 $type differs"
	done
done

# An inline chain of the -O2 build is one location with three lines.
"$PROFCONV" show "$TMP/hu2.zst.pb.gz" | grep -A3 ' inner .*heapuse.c' |
	grep -q ' outer .*heapuse.c' || fail "hu2: no inline chain inner/middle/outer"

# go tool pprof opens the output; the default type is inuse_space.
if command -v go >/dev/null 2>&1; then
	go_env
	for p in hu0 hucc; do
		go tool pprof -raw "$TMP/$p.zst.pb.gz" >"$TMP/raw" 2>"$TMP/err" ||
			fail "go tool pprof -raw $p: $(cat "$TMP/err")"
		grep -q '^PeriodType: space bytes' "$TMP/raw" ||
			fail "go tool pprof -raw $p: no period type"
		go tool pprof -top "$TMP/$p.zst.pb.gz" >"$TMP/top" 2>&1 ||
			fail "go tool pprof -top $p"
		grep -q '^Type: inuse_space' "$TMP/top" ||
			fail "go tool pprof -top $p: default type is not inuse_space"
	done
fi

# profdiff and profflame read heaptrack files directly.
"$CMD/profdiff" "$TMP/hu0.zst" "$TMP/hu2.zst" >"$TMP/out" 2>"$TMP/err"
[ $? -le 1 ] || fail "profdiff on heaptrack files: $(cat "$TMP/err")"
grep -q 'TOTAL' "$TMP/out" || fail "profdiff printed no table"
"$CMD/profflame" -t alloc_objects "$TMP/hu0.zst" >"$TMP/out" 2>"$TMP/err" ||
	fail "profflame on a heaptrack file: $(cat "$TMP/err")"
n=$(awk '{s += $NF} END {print s + 0}' "$TMP/out")
[ "$n" = "$(total alloc_objects "$TMP/hu0.zst.pb.gz")" ] ||
	fail "profflame alloc_objects sum $n"
grep -q 'main;churn ' "$TMP/out" || fail "profflame: no main;churn stack"
finish
