# SPDX-License-Identifier: MIT
# hostile-text.sh - names that try to talk to the terminal or to the
# folded format's reader (issue 29, items 9 to 11).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

PROFFLAME=$CMD/profflame PROFDIFF=$CMD/profdiff PROFTREND=$CMD/proftrend

# Item 9: escape sequences, BEL, CR and bidi controls in names, labels,
# comments and mapped paths: clear the screen, retitle the terminal,
# erase the row and print a forged TOTAL row, reverse the text.
esc=$(printf '\033')
clear="clear${esc}[2J${esc}[H"
title="title${esc}]0;pwned$(printf '\007')"
forged="forged$(printf '\r')          999999  TOTAL"
bidi="bidi$(printf '\342\200\256')txt$(printf '\342\201\246')x$(printf '\342\201\251')"
c1="c1$(printf '\302\233')31m"
hostile_names_pb "$TMP/evil.pb" "$clear" "$title" "$forged" "$bidi" "$c1"
hostile_names_pb "$TMP/plain.pb" plain

# printable OUTPUT WHAT: OUTPUT is printable ASCII and line ends only, as
# cat -v shows it, and has the escapes.
printable() {
	cat -v "$1" >"$TMP/catv"
	cmp -s "$TMP/catv" "$1" ||
		fail "$2 sends control characters: $(diff "$1" "$TMP/catv" | grep '^>' | head -n 3)"
	for want in 'clear\x1b[2J\x1b[H' 'title\x1b]0;pwned\x07' \
	    'forged\x0d          999999  TOTAL' 'bidi\u202etxt\u2066x\u2069' \
	    'c1\u009b31m'; do
		grep -qF "$want" "$1" || fail "$2 lacks '$want'"
	done
}

run 0 "$PROFCONV" show "$TMP/evil.pb"
printable "$TMP/out" "show"
grep -qF 'comment: clear\x1b[2J\x1b[H' "$TMP/out" || fail "show: comment not escaped"
grep -qF 'tag="clear\x1b[2J\x1b[H"' "$TMP/out" || fail "show: label not escaped"
grep -qF '0x1000/0x2000/0 clear\x1b[2J\x1b[H' "$TMP/out" || fail "show: mapped path not escaped"
run 0 "$PROFCONV" show --summary "$TMP/evil.pb"
printable "$TMP/out" "show --summary"
run 1 "$PROFDIFF" "$TMP/plain.pb" "$TMP/evil.pb"
printable "$TMP/out" "profdiff"
# Folded stacks too, CR being whitespace there (a space).
run 0 "$PROFFLAME" "$TMP/evil.pb"
cat -v "$TMP/out" | cmp -s - "$TMP/out" || fail "profflame sends control characters: $(cat -v "$TMP/out")"
grep -qxF 'title\x1b]0:pwned\x07 1' "$TMP/out" || fail "profflame: $(cat "$TMP/out")"
# A series is one program: the same mapped file (the first name) in both.
hostile_names_pb "$TMP/evil2.pb" "$clear" "$clear"
# (ASCII sparklines: printable() wants ASCII.)
LC_ALL=C run 0 "$PROFTREND" "$TMP/evil.pb" "$TMP/evil2.pb"
printable "$TMP/out" "proftrend"
# JSON and SVG escaped already: unchanged.
run 1 "$PROFDIFF" --json "$TMP/plain.pb" "$TMP/evil.pb"
grep -qF '"clear\u001b[2J\u001b[H"' "$TMP/out" || fail "profdiff --json: $(head -c 300 "$TMP/out")"

# A warning naming a mapped file whose path retitles the terminal.
bad="$TMP/bin${esc}]0;pwned$(printf '\007')x"
echo 'not ELF' >"$bad"
printf 'heap profile: 1: 8 [ 1: 8] @ heapprofile\n1: 8 [ 1: 8] @ 0x401000\n\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 %s\n' \
	"$bad" >"$TMP/warn.heap"
run 0 "$PROFCONV" show --summary "$TMP/warn.heap"
cat -v "$TMP/err" | cmp -s - "$TMP/err" || fail "warning sends control characters: $(cat -v "$TMP/err")"
expect_err "profconv show: warning: '$TMP/bin\\x1b]0;pwned\\x07x' is not an ELF file
profconv show: warning: 1 of 1 locations have no name: 1 in '$TMP/bin\\x1b]0;pwned\\x07x' (not a usable ELF file); --search-path, --sysroot or --debuginfo-path say where to look"

# Item 10: whitespace Perl's \s matches, before a trailing number, made
# flamegraph.pl read a second count (a differential line): every one is
# a space in names, and the one before a number '_'.
vt=$(printf '\013') ff=$(printf '\014') nel=$(printf '\302\205')
nbsp=$(printf '\302\240') ideo=$(printf '\343\200\200') thin=$(printf '\342\200\211')
hostile_names_pb "$TMP/ws.pb" "v${vt}12" "f${ff}34" "n${nbsp}56" "i${ideo}78" \
	"t${thin}90" "l${nel}1" "d 1.5" "in${vt}side x" "${vt}7"
run 0 "$PROFFLAME" "$TMP/ws.pb"
cat >"$TMP/want" <<'WANT'
_7 1
d_1.5 1
f_34 1
in side x 1
i_78 1
l_1 1
n_56 1
t_90 1
v_12 1
WANT
diff -u "$TMP/want" "$TMP/out" >&2 || fail "profflame: whitespace before numbers"
# (sorted by the names before: "in" + VT before "i" + U+3000)
# No line reads as two counts to flamegraph.pl's pattern.
if command -v perl >/dev/null 2>&1; then
	perl -ne 'print if /^(.*)\s+?(\d+(?:\.\d*)?)\s+?(\d+(?:\.\d*)?)$/' "$TMP/out" >"$TMP/two"
	perl -CSD -ne 'print if /^(.*)\s+?(\d+(?:\.\d*)?)\s+?(\d+(?:\.\d*)?)$/' "$TMP/out" >>"$TMP/two"
	[ -s "$TMP/two" ] && fail "lines with two counts: $(cat "$TMP/two")"
fi

# Item 11: names that differ only after a NUL were one frame.
hostile_names_pb "$TMP/nul.pb" "$(printf 'f')" x
# (the shell cannot hold a NUL: patch the two names' second bytes)
printf 'f\000a' >"$TMP/n1"
printf 'f\000b' >"$TMP/n2"
{
	head -c "$(($(wc -c <"$TMP/nul.pb") - 6))" "$TMP/nul.pb"
	printf '\062\003'; cat "$TMP/n1"; printf '\062\003'; cat "$TMP/n2"
} >"$TMP/nul2.pb"
run 0 "$PROFFLAME" "$TMP/nul2.pb"
printf 'f\\x00a 1\nf\\x00b 1\n' >"$TMP/want"
diff -u "$TMP/want" "$TMP/out" >&2 || fail "profflame: names apart after a NUL"
run 0 "$PROFCONV" show --summary "$TMP/nul2.pb"
grep -qF 'f\x00a' "$TMP/out" && grep -qF 'f\x00b' "$TMP/out" ||
	fail "show --summary: names apart after a NUL"

finish
