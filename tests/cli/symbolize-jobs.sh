# SPDX-License-Identifier: MIT
# symbolize-jobs.sh - symbolizing on several threads gives the same bytes
# as on one, and one symbolizer kept over several profiles gives what a
# fresh one gives, on real jemalloc profiles of a program of 2048
# functions (bench/gen-je-heap.sh: ~8,900 unique addresses, enough for a
# binary to be split between threads); a binary changed on disk is read
# again.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v gcc >/dev/null 2>&1 || skip "no gcc"
command -v strip >/dev/null 2>&1 || skip "no binutils strip"
use_jemalloc
PROFDIFF=$CMD/profdiff
reuse=$(built tests/symbolize/reuse)
[ -x "$reuse" ] || fail "tests/symbolize/reuse not built"

# Two dumps of one process: MID after a first pass, OUT at the end.  The
# program is a copy of the shared one (lib.sh's je_heap), which this test
# replaces by a stripped one on the way.
je_heap "$TMP/warm.heap" 1 2>"$TMP/gen.err" &&
	cp -p "$JEPROG" "$TMP/prog" && cp -p "$JEPROG.sum" "$TMP/prog.sum" &&
DEPTH=6 "$PROFCONV_SRCDIR/bench/gen-je-heap.sh" "$TMP/prog" "$TMP/out.heap" \
    3000 0 "$TMP/mid.heap" 2>"$TMP/gen.err" ||
	{ cat "$TMP/gen.err" >&2; fail "cannot make the jemalloc profiles"; }

for j in 1 2 3 8; do
	run 0 "$PROFCONV" symbolize -j "$j" --no-compress -o "$TMP/out$j.pb" \
	    "$TMP/out.heap"
	cp "$TMP/err" "$TMP/summary$j"
	run 1 "$PROFDIFF" -j "$j" "$TMP/mid.heap" "$TMP/out.heap"
	mv "$TMP/out" "$TMP/diff$j"
	run 1 "$CMD/proftrend" -j "$j" --by line "$TMP/mid.heap" "$TMP/out.heap"
	mv "$TMP/out" "$TMP/trend$j"
done
grep -q 'symbolized 88[0-9][0-9] of 88[0-9][0-9] locations' "$TMP/summary1" ||
	{ cat "$TMP/summary1" >&2; fail "expected ~8,900 locations symbolized"; }
for j in 2 3 8; do
	cmp -s "$TMP/out1.pb" "$TMP/out$j.pb" ||
		fail "symbolize -j $j: not the bytes of -j 1"
	cmp -s "$TMP/summary1" "$TMP/summary$j" ||
		fail "symbolize -j $j: another summary than -j 1"
	cmp -s "$TMP/diff1" "$TMP/diff$j" || fail "profdiff -j $j: not -j 1's table"
	cmp -s "$TMP/trend1" "$TMP/trend$j" || fail "proftrend -j $j: not -j 1's table"
done
# The functions are the program's, with lines (not only symbols).
"$PROFCONV" show "$TMP/out1.pb" >"$TMP/show" || fail "show failed"
grep -q 'f[0-9][0-9][0-9][0-9] .*/f[0-7]\.c:[0-9]' "$TMP/show" ||
	fail "no f*.c lines in the symbolized profile"

# proftrend and profdiff symbolize every snapshot with one symbolizer:
# libc's separate debug file (libc6-dbg) is opened once for the series.
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	strace -f -qq -e trace=openat -o "$TMP/strace" "$CMD/proftrend" -j 2 \
	    "$TMP/mid.heap" "$TMP/out.heap" "$TMP/mid.heap" >/dev/null 2>&1
	# Our opens (O_NONBLOCK: profconv__open_regular and the finder).
	grep 'O_NONBLOCK.*= [0-9]' "$TMP/strace" | sed -n 's/.*openat([^"]*"\([^"]*\)".*/\1/p' |
	    sort | uniq -c >"$TMP/opens"
	n=$(grep -c '/usr/lib/debug/.*\.debug$' "$TMP/opens" || true)
	if [ "$n" -eq 0 ]; then
		echo "note: no separate debug file opened (libc6-dbg missing?)" >&2
	else
		# Each debug file once for the series; each binary once per
		# snapshot (its build id is checked), then twice for libdwfl
		# (the module, and its debug link read by our finder): 5, where
		# a symbolizer per snapshot opens it 9 times.
		awk '$2 ~ /^\/usr\/lib\/debug\// && $1 != 1' "$TMP/opens" | grep . >&2 &&
			fail "proftrend opened a debug file more than once for 3 snapshots"
		awk '$2 ~ /libc\.so\.6$/ && $1 > 5' "$TMP/opens" | grep . >&2 &&
			fail "proftrend opened libc.so.6 more than 5 times for 3 snapshots"
	fi
else
	fail "strace missing (CI installs it)"
fi

# One symbolizer over three runs, and a rebuilt (here: stripped) binary.
strip --strip-debug -o "$TMP/stripped" "$TMP/prog" || fail "strip failed"
for j in 1 3; do
	cp -p "$TMP/prog" "$TMP/prog.keep"
	"$reuse" "$TMP/out.heap" "$TMP/prog" "$TMP/stripped" "$j" \
	    >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "reuse -j $j"; }
	grep -qx ok "$TMP/out" || fail "reuse -j $j printed no ok"
	mv "$TMP/prog.keep" "$TMP/prog"
done
finish
