# SPDX-License-Identifier: MIT
# help.sh - every command's --help goes to stdout and exits 0, and every
# option it lists is in the command's man page.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 0 "$PROFCONV" --help
expect_out_has '^usage: profconv '
expect_out_has '^  show '
[ -s "$TMP/err" ] && fail "--help wrote to stderr"
run 0 "$PROFCONV" -h
expect_out_has '^usage: profconv '
run 0 "$PROFCONV" show --help
expect_out_has '^usage: profconv show '
for tool in profdiff profflame proftrend profgraph; do
	run 0 "$BIN/$tool" --help
	expect_out_has "^usage: $tool "
	[ -s "$TMP/err" ] && fail "$tool --help wrote to stderr"
done

# man_has_options MAN CMD...: each long option CMD's --help lists (as the
# bash completion reads them) is an ".Fl -NAME" of MAN.
man_has_options() {
	man=$PROFCONV_SRCDIR/man/$1
	shift
	"$@" --help >"$TMP/help" 2>&1 || fail "$*: --help failed"
	sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' "$TMP/help" |
		sort -u >"$TMP/opts"
	[ -s "$TMP/opts" ] || fail "$*: no option read from --help"
	while read -r o; do
		grep -Eq "(^|[ \"])Fl -$o( |\$)|^\.It Fl [a-zA-Z] , Fl -$o( |\$)" "$man" ||
			fail "${man##*/}: no .Fl -$o, which $* --help lists"
	done <"$TMP/opts"
}
for c in show merge text2pb symbolize list report record; do
	man_has_options "profconv-$c.1" "$PROFCONV" "$c"
done
for tool in profdiff profflame proftrend profgraph; do
	man_has_options "$tool.1" "$BIN/$tool"
done
finish
