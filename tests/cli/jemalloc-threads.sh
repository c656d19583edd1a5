# SPDX-License-Identifier: MIT
# jemalloc-threads.sh - every thread of a real threaded program counted
# and filterable, in our commands and in go tool pprof: made now by
# tests/producers/threadleak.c (main and three named threads) under
# LD_PRELOAD'ed libjemalloc.  text2pb --threads labels each sample with
# its thread, the main thread's 0 included: go tool pprof -tags counts
# the whole total under "thread", -tagfocus thread=N keeps thread N's
# bytes as the dump's own tN: line gives them, and so do our
# --tagfocus thread=N and --tagroot thread (no "[no thread]").
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
use_jemalloc

je_producer threadleak 4
H=$(ls "$TMP"/je/je.*.m3.heap 2>/dev/null)
[ -n "$H" ] || { fail "no dump of step 3"; finish; }
# The dump's own per-thread totals: "  tN: objects: bytes [...] name".
sed -n '/^@/q; s/^  t\([0-9][0-9]*\): [0-9]*: \([0-9]*\) .*/\1 \2/p' "$H" >"$TMP/want"
grep -q '^0 [1-9]' "$TMP/want" || { fail "the dump has no bytes in thread 0: $(cat "$TMP/want")"; finish; }
all=$(sed -n 's/^  t\*: [0-9]*: \([0-9]*\) .*/\1/p' "$H" | head -n 1)
"$PROFCONV" text2pb --threads "$H" -o "$TMP/t.pb.gz" || fail "text2pb --threads"
T=$TMP/t.pb.gz

# go tool pprof: the "thread" tag counts every byte; -tagfocus thread=N.
go tool pprof -tags -unit=B "$T" >"$TMP/tags" 2>"$TMP/tags.err" ||
	fail "go tool pprof -tags: $(cat "$TMP/tags.err")"
tot=$(sed -n 's/^ thread: Total \([0-9]*\)\(\.0*\)\{0,1\}B$/\1/p' "$TMP/tags")
[ "$tot" = "$all" ] ||
	fail "go tool pprof -tags counts ${tot:-nothing} bytes under thread, of $all: $(cat "$TMP/tags")"
while read -r uid bytes; do
	go tool pprof -top -unit=B -sample_index=inuse_space -tagfocus "thread=$uid" \
	    "$T" >"$TMP/top" 2>"$TMP/top.err"
	got=$(sed -n 's/^Showing nodes accounting for \([0-9]*\)B, .*/\1/p' "$TMP/top")
	[ "$got" = "$bytes" ] ||
		fail "go tool pprof -tagfocus thread=$uid: '${got:-nothing}', the dump's t$uid: $bytes ($(cat "$TMP/top.err"))"
	ours=$("$PROFCONV" show -s --tagfocus "thread=$uid" "$T" 2>/dev/null |
		sed -n 's/^total inuse_space\/bytes: \([0-9]*\).*/\1/p')
	[ "$ours" = "$bytes" ] ||
		fail "show --tagfocus thread=$uid: '$ours', the dump's t$uid: $bytes"
done <"$TMP/want"
"$PROFCONV" show -s -n 1000 --tagroot thread "$T" >"$TMP/root" 2>/dev/null ||
	fail "show --tagroot thread"
if grep -F '[no thread]' "$TMP/root" >&2; then
	fail "--tagroot thread files samples under [no thread]"
fi
grep -q ' 0;_start;' "$TMP/root" || fail "--tagroot thread: no stack of thread 0 from _start"
# The dump of the file shows the main thread's label as the others.
"$PROFCONV" show "$T" | grep -q '^   labels: bytes=[0-9]* thread=0 thread_name="threadleak"$' ||
	fail "the text dump does not show thread=0"

# The raw dump itself: a thread view reads its per-thread lines, in
# show, profflame and profdiff as in proftrend --by-thread.
while read -r uid bytes; do
	ours=$("$PROFCONV" show -s --tagfocus "thread=$uid" "$H" 2>/dev/null |
		sed -n 's/^total inuse_space\/bytes: \([0-9]*\).*/\1/p')
	[ "$ours" = "$bytes" ] ||
		fail "raw dump: show --tagfocus thread=$uid: '$ours', the dump's t$uid: $bytes"
	got=$("$CMD/profflame" --split-threads "$H" 2>/dev/null |
		awk -v u="thread $uid" '{ split($0, f, ";"); n = split(f[1], w, " ")
		    if (w[1] " " w[2] == u) t += $NF } END { print t + 0 }')
	[ "$got" = "$bytes" ] ||
		fail "raw dump: profflame --split-threads: thread $uid has $got, the dump's t$uid: $bytes"
done <"$TMP/want"
if "$CMD/profflame" --split-threads "$H" 2>/dev/null | grep -F '[no thread]' >&2; then
	fail "raw dump: profflame --split-threads puts samples under [no thread]"
fi
first=$(ls "$TMP"/je/je.*.m0.heap)
"$CMD/profdiff" --json --tagfocus thread=1 "$first" "$H" >"$TMP/diff.json" 2>/dev/null
[ $? -le 1 ] || fail "raw dumps: profdiff --tagfocus thread=1"
w1=$(awk '$1 == 1 {print $2}' "$TMP/want")
grep -q "\"after\":{\"inuse_objects\":[0-9]*,\"inuse_space\":$w1}" "$TMP/diff.json" ||
	fail "raw dumps: profdiff --tagfocus thread=1 does not hold thread 1's $w1 bytes"
finish
