# SPDX-License-Identifier: MIT
# massif.sh - Valgrind massif files made now (tests/producers/heapuse.c at
# -O0 and -O2 with its inline chain, heapuse.cc, and runs with other
# options) convert, for the peak, the last and every detailed snapshot, to
# profiles whose total is the snapshot's mem_heap_B and whose stacks equal
# the heap tree's, read independently (massif-stacks.awk); the detailed
# snapshots are those ms_print lists; go tool pprof, profdiff and profflame
# open the files.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v valgrind >/dev/null 2>&1 || skip "valgrind missing (Debian: valgrind)"
command -v ms_print >/dev/null 2>&1 || skip "ms_print missing (Debian: valgrind)"
HTFOLD=$(built tests/htfold)
[ -x "$HTFOLD" ] || skip "tests/htfold not built"
SRC=$PROFCONV_SRCDIR/tests/producers
AWK_STACKS=$PROFCONV_SRCDIR/tests/cli/massif-stacks.awk

gcc -g -O0 -o "$TMP/hu0" "$SRC/heapuse.c" &&
gcc -g -O2 -o "$TMP/hu2" "$SRC/heapuse.c" &&
g++ -g -O2 -o "$TMP/hucc" "$SRC/heapuse.cc" ||
	{ fail "cannot build the producers"; finish; }

# massif NAME PROGRAM OPTIONS...
massif() {
	name=$1 prog=$2
	shift 2
	(cd "$TMP" && valgrind --tool=massif --massif-out-file="$TMP/$name.ms" \
	    "$@" "./$prog" 300 >"$TMP/$name.log" 2>&1) ||
		{ fail "massif $name failed"; sed 's/^/  /' "$TMP/$name.log" >&2; }
}
massif hu0 hu0
massif hu0t hu0 --threshold=0 --detailed-freq=1
massif hu2 hu2 --threshold=0
massif hucc hucc
massif depth hu2 --depth=2 --time-unit=ms --stacks=yes
massif pages hu0 --pages-as-heap=yes
# memcheck's xtree memory report: massif's format, a snapshot per event.
(cd "$TMP" && valgrind --tool=memcheck --xtree-memory=full \
    --xtree-memory-file="$TMP/xtree.ms" ./hu0 300 >"$TMP/xtree.log" 2>&1) ||
	fail "memcheck --xtree-memory failed"

# check FILE SNAPSHOT-OPTION NUMBER: total and stacks of snapshot NUMBER.
check() {
	"$PROFCONV" text2pb --snapshot "$2" "$1" -o "$TMP/p.pb.gz" 2>"$TMP/err" ||
		{ fail "$1 --snapshot $2: $(cat "$TMP/err")"; return; }
	heap=$(awk -v n="$3" '/^snapshot=/ {s = substr($0, 10)}
	    /^mem_heap_B=/ && s == n {print substr($0, 12)}' "$1")
	got=$("$PROFCONV" show -s "$TMP/p.pb.gz" |
	    sed -n 's/^total [a-z_]*\/[a-z]*: \([0-9]*\).*/\1/p')
	[ "$got" = "$heap" ] ||
		fail "$1 snapshot $3: total $got, mem_heap_B $heap"
	awk -v snap="$3" -f "$AWK_STACKS" "$1" | sort >"$TMP/want"
	"$HTFOLD" -m "$TMP/p.pb.gz" | sort >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || {
		fail "$1 snapshot $3: stacks differ from the heap tree"
		diff "$TMP/want" "$TMP/got" | head -n 10 >&2
	}
	"$PROFCONV" show -s "$TMP/p.pb.gz" | grep -q "^comment: massif snapshot $3 " ||
		fail "$1 --snapshot $2: the comment does not name snapshot $3"
}

for name in hu0 hu0t hu2 hucc depth pages xtree; do
	f=$TMP/$name.ms
	[ -s "$f" ] || continue
	# ms_print's list of detailed snapshots, "(peak)" marked.
	ms_print "$f" >"$TMP/msp" || { fail "ms_print $name"; continue; }
	list=$(sed -n 's/^ Detailed snapshots: \[\(.*\)\]$/\1/p' "$TMP/msp" | tr -d ' ')
	[ -n "$list" ] || { fail "$name: ms_print lists no detailed snapshot"; continue; }
	peak=$(printf '%s\n' "$list" | tr ',' '\n' | sed -n 's/(peak)//p')
	last=$(printf '%s\n' "$list" | tr ',' '\n' | tail -n 1 | sed 's/(peak)//')
	if [ -n "$peak" ]; then
		check "$f" peak "$peak"
		"$PROFCONV" text2pb "$f" -o "$TMP/default.pb.gz" &&
			"$HTFOLD" -m "$TMP/default.pb.gz" | sort | cmp -s - "$TMP/got" ||
			fail "$name: the default is not the peak snapshot"
	fi
	check "$f" last "$last"
	for n in $(printf '%s\n' "$list" | tr ',' '\n' | sed 's/(peak)//'); do
		check "$f" "$n" "$n"
	done
	# A snapshot without a tree is refused, naming it.
	empty=$(awk '/^snapshot=/ {s = substr($0, 10)} /^heap_tree=empty/ {print s; exit}' "$f")
	if [ -n "$empty" ]; then
		run 1 "$PROFCONV" text2pb --snapshot "$empty" "$f" -o "$TMP/x.pb.gz"
		expect_err "profconv text2pb: '$f': massif snapshot $empty has no heap tree ($(grep -c '^snapshot=' "$f") snapshots, $(grep -c '^heap_tree=[dp]' "$f") with a heap tree)"
		[ ! -e "$TMP/x.pb.gz" ] || fail "$name: a partial output was left"
	fi
done

# Each xtree event is named as pprof names the value.
n=0
for t in inuse_space inuse_objects alloc_space alloc_objects freed_space \
    freed_objects; do
	"$PROFCONV" show -s --snapshot $n "$TMP/xtree.ms" >"$TMP/out" 2>&1
	grep -q "^sample types: $t/" "$TMP/out" || fail "xtree snapshot $n is not $t"
	n=$((n + 1))
done

# The -O2 inline chain is one location with three lines.
"$PROFCONV" text2pb "$TMP/hu2.ms" -o "$TMP/hu2.pb.gz"
"$PROFCONV" show "$TMP/hu2.pb.gz" | grep -A3 ' inner heapuse.c:' |
	grep -q ' outer heapuse.c:' || fail "hu2: the inline chain is not folded"

# A below-threshold aggregate is a frame of its own.
"$PROFCONV" text2pb --snapshot last "$TMP/hu0.ms" -o "$TMP/b.pb.gz"
if grep -q "below massif's threshold" "$TMP/hu0.ms"; then
	"$PROFCONV" show "$TMP/hu0.ms" | grep -q "\[in [0-9]* place.*below massif's threshold" ||
		fail "hu0: no below-threshold frame"
fi

# go tool pprof, profdiff and profflame read massif output.
if command -v go >/dev/null 2>&1; then
	go_env
	"$PROFCONV" text2pb "$TMP/hucc.ms" -o "$TMP/cc.pb.gz"
	go tool pprof -top "$TMP/cc.pb.gz" >"$TMP/top" 2>"$TMP/err" ||
		fail "go tool pprof -top: $(cat "$TMP/err")"
	grep -q '^Type: inuse_space' "$TMP/top" || fail "go tool pprof: wrong type"
fi
"$CMD/profdiff" --snapshot last "$TMP/hu0.ms" "$TMP/hu2.ms" >"$TMP/out" 2>"$TMP/err"
[ $? -le 1 ] || fail "profdiff on massif files: $(cat "$TMP/err")"
"$CMD/profflame" "$TMP/hu0t.ms" >"$TMP/out" 2>"$TMP/err" ||
	fail "profflame on a massif file: $(cat "$TMP/err")"
grep -q '^main;recurse;recurse' "$TMP/out" || fail "profflame: no recursion stack"
# proftrend over one massif file: its detailed snapshots are the series;
# the steady leak is the one suspect, the freed allocation is not.
cc -g -O1 -o "$TMP/msleak" "$SRC/massif-leak.c" || fail "cannot build massif-leak.c"
(cd "$TMP" && valgrind --tool=massif --time-unit=B --detailed-freq=1 \
    --massif-out-file="$TMP/leak.ms" ./msleak >/dev/null 2>&1) ||
	fail "massif of massif-leak failed"
run 1 "$CMD/proftrend" --json "$TMP/leak.ms"
python3 - "$TMP/out" <<'PY' || fail "proftrend on one massif file: $(head -c 400 "$TMP/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["snapshots"]) >= 40, len(d["snapshots"])
assert d["snapshots"][-1]["file"].endswith("leak.ms#%d" % (len(d["snapshots"]) - 1))
sus = [r["name"] for r in d["rows"] if r["suspect"]]
assert sus == ["leak_step"], sus
assert not any(r["name"] == "churn" and r["suspect"] for r in d["rows"])
PY
# The file is read once for the whole series, not once per snapshot.
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace: no leak check in a
	# sanitizer build here (the runs above have it).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -e trace=open,openat -o "$TMP/trace" \
	    "$CMD/proftrend" --json "$TMP/leak.ms" >/dev/null 2>&1
	opens=$(grep -c 'leak\.ms"' "$TMP/trace")
	[ "$opens" -eq 1 ] || fail "proftrend opened the massif file $opens times"
else
	fail "strace missing (CI installs it)"
fi
finish
