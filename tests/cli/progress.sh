# SPDX-License-Identifier: MIT
# progress.sh - reading or merging that runs past a second shows one
# progress line on standard error when it is a terminal (script(1) gives
# the command one), erased when done; nothing when standard error is not
# a terminal, nor with --quiet.  The inputs are slowed with a sleep in a
# pipe or a FIFO, so no timing decides the outcome.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v script >/dev/null 2>&1 || skip "script (util-linux) is not installed"
cd "$TMP" || exit 1
awk 'BEGIN { print "heap profile: 1: 2 [ 1: 2] @ heapprofile"
	for (i = 0; i < 200000; i++)
		printf "1: 16 [1: 16] @ 0x%x 0x402000 0x403000 0x404000\n", 4198400 + i * 16 }' >big.heap
head -c 5000000 big.heap >p1
tail -c +5000001 big.heap >p2
# The second half comes 1.2 s after the first.
slow="{ cat p1; sleep 1.2; cat p2; }"
esc=$(printf '\033')

# on_tty COMMAND: run it with a terminal as stdin, stdout and stderr;
# what the terminal showed goes to $TMP/tty.
on_tty() {
	script -qec "sh -c '$1'" /dev/null >"$TMP/tty" 2>&1 </dev/null
}

on_tty "$slow | \"$PROFCONV\" show - >/dev/null"
grep -q "profconv show: reading '<stdin>': [0-9.]* MiB${esc}\[K" "$TMP/tty" ||
	fail "no reading progress on a terminal: $(od -c "$TMP/tty" | head -5)"
# The line is erased at the end: the last thing written is the erase.
[ "$(tail -c 4 "$TMP/tty" | od -An -c | tr -d ' ')" = "\r033[K" ] ||
	fail "progress line not erased: $(tail -c 20 "$TMP/tty" | od -c)"

on_tty "$slow | \"$PROFCONV\" show --quiet - >/dev/null"
[ -s "$TMP/tty" ] && fail "--quiet showed: $(od -c "$TMP/tty" | head -3)"

# Not a terminal: nothing on stderr.
sh -c "$slow | \"$PROFCONV\" show - >/dev/null 2>\"$TMP/err\""
[ -s "$TMP/err" ] && fail "progress without a terminal: $(od -c "$TMP/err" | head -3)"

# Quick work shows nothing, even on a terminal (a small file: a big one
# may take a second in a sanitizer build).
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 2 [1: 2] @ 0x10\n' >s.heap
on_tty "\"$PROFCONV\" show s.heap >/dev/null"
grep -q reading "$TMP/tty" && fail "progress for quick work"

# merge counts files; one input is a FIFO filled 2.5 s late (progress
# shows after 1 s of work, counted from when merge starts, which a loaded
# machine can delay by a good part of a second).
mkfifo fifo
on_tty "(sleep 2.5; cat s.heap >fifo) & \"$PROFCONV\" merge -o m.pb.gz s.heap fifo s.heap s.heap; wait"
grep -q "profconv merge: merging: [0-9] of 4 files${esc}\[K" "$TMP/tty" ||
	fail "no merge progress: $(od -c "$TMP/tty" | head -5)"
[ -s m.pb.gz ] || fail "merge wrote nothing"
finish
