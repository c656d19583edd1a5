# SPDX-License-Identifier: MIT
# help.sh - every command's --help goes to stdout and exits 0.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 0 "$PROFCONV" --help
expect_out_has '^usage: profconv '
expect_out_has '^  show '
[ -s "$TMP/err" ] && fail "--help wrote to stderr"
run 0 "$PROFCONV" -h
expect_out_has '^usage: profconv '
run 0 "$PROFCONV" show --help
expect_out_has '^usage: profconv show '
all_tools
for tool in $ALL_TOOLS; do
	run 0 "$CMD/$tool" --help
	expect_out_has "^usage: $tool "
	[ -s "$TMP/err" ] && fail "$tool --help wrote to stderr"
done
finish
