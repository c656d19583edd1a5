# SPDX-License-Identifier: MIT
# first-mistakes.sh - two command lines of a first run are refused with a
# word on what to do: a pprof writer without -o whose standard output is
# a terminal (script(1) gives it one), as gzip refuses, and the program
# named before the profile, as jeprof takes them.  Both exit 2.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$TMP" || exit 1
M=$DATA/go/mem.pb.gz
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 2 [1: 2] @ 0x10\n' >s.heap

# The program first: one line on where binaries come from, and the hint.
prog=$(command -v true)
[ -n "$prog" ] && [ -f "$prog" ] || prog=/bin/sh
run 2 "$PROFCONV" symbolize "$prog" s.heap
expect_err "profconv symbolize: expected one INPUT, the profile; '$prog' is a program, and binaries are found from the profile's mappings (--search-path or --sysroot to look elsewhere)
Try 'profconv symbolize --help'."
[ -s "$TMP/out" ] && fail "symbolize PROG HEAP wrote to stdout"
run 2 "$PROFCONV" text2pb "$prog" s.heap
expect_err "profconv text2pb: expected one input file, the profile; '$prog' is a program, and --symbolize finds binaries from the profile's mappings (profconv symbolize --search-path or --sysroot to look elsewhere)
Try 'profconv text2pb --help'."
# The commands that draw a profile, as "jeprof PROG HEAP" is typed.
run 2 "$PROFCONV" show "$prog" s.heap
expect_err "profconv show: expected one FILE, the profile; '$prog' is a program, and binaries are found from the profile's mappings (--search-path or --sysroot to look elsewhere)
Try 'profconv show --help'."
for c in profflame profgraph; do
	run 2 "$CMD/$c" "$prog" s.heap
	grep -q "^$c: expected one IN, the profile; '$prog' is a program, and binaries are found from the profile's mappings (--search-path or --sysroot to look elsewhere)\$" "$TMP/err" ||
		fail "$c PROG HEAP: $(cat "$TMP/err")"
done
run 2 "$PROFCONV" show s.heap s.heap
expect_err "profconv show: expected one FILE
Try 'profconv show --help'."
# Two profiles, or a missing first file, keep the plain message.
run 2 "$PROFCONV" symbolize s.heap s.heap
expect_err "profconv symbolize: expected one INPUT
Try 'profconv symbolize --help'."
run 2 "$PROFCONV" text2pb no-such-prog s.heap
expect_err "profconv text2pb: expected one input file
Try 'profconv text2pb --help'."

command -v script >/dev/null 2>&1 || skip "script (util-linux) is not installed"
# on_tty COMMAND: run it with a terminal as stdin, stdout and stderr;
# what the terminal showed goes to $TMP/tty, the exit status to $TMP/rc.
on_tty() {
	script -qec "sh -c '$1; echo rc=\$?'" /dev/null >"$TMP/tty" 2>&1 </dev/null
}
for sub in "text2pb $M" "symbolize s.heap" "merge s.heap s.heap"; do
	name="profconv ${sub%% *}"
	on_tty "\"$PROFCONV\" $sub"
	tr -d '\r' <"$TMP/tty" >"$TMP/got"
	printf '%s\n' "$name: not writing a pprof profile to a terminal: use -o FILE or a pipe" \
	    "Try '$name --help'." rc=2 >"$TMP/want"
	diff -u "$TMP/want" "$TMP/got" >&2 || fail "$name to a terminal"
	# --no-compress is no less binary.
	on_tty "\"$PROFCONV\" $sub --no-compress"
	grep -q "not writing a pprof profile to a terminal" "$TMP/tty" ||
		fail "$name --no-compress wrote to a terminal"
	# A pipe or -o FILE under the same terminal are written.
	on_tty "\"$PROFCONV\" $sub | gzip -dc | wc -c >out.n"
	grep -q "rc=0" "$TMP/tty" && [ "$(cat out.n)" -gt 0 ] ||
		fail "$name to a pipe: $(cat "$TMP/tty")"
	rm -f o.pb.gz
	on_tty "\"$PROFCONV\" $sub -o o.pb.gz"
	grep -q "rc=0" "$TMP/tty" && [ -s o.pb.gz ] ||
		fail "$name -o FILE: $(cat "$TMP/tty")"
done
# "-o -" asks for standard output, as gzip -c does: written.
on_tty "\"$PROFCONV\" text2pb -o - $M"
grep -aq "not writing" "$TMP/tty" && fail "-o - refused"
tail -c 6 "$TMP/tty" | grep -aq "rc=0" || fail "-o - to a terminal failed"

finish
