# SPDX-License-Identifier: MIT
# man-options.sh - every long option a command's --help lists is in its
# man page, and every command has a man page.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# check_page PAGE HELP-COMMAND...
check_page() {
	page=$MANDIR/$1
	shift
	[ -f "$page" ] || { fail "missing man page $page"; return; }
	"$@" --help >"$TMP/help" || { fail "$* --help failed"; return; }
	# Option lines only: "  -x, --long ..." or "  --long ...".
	for opt in $(grep -E '^ +(-[A-Za-z0-9], )?--[a-z]' "$TMP/help" |
	    grep -Eo -- '--[a-z][a-z0-9-]*' | sort -u); do
		name=${opt#--}
		grep -Eq -- "Fl -$name( |$)|Fl -$name Ns" "$page" ||
			fail "$1 does not document $opt"
	done
}

all_tools
for tool in $ALL_TOOLS; do
	check_page "$tool.1" "$CMD/$tool"
done
for sub in $(subcommands); do
	check_page "profconv-$sub.1" "$PROFCONV" "$sub"
done
finish
