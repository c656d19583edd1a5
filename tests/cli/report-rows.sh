# SPDX-License-Identifier: MIT
# report-rows.sh - the Explore tab's top table, as the page's own script
# draws it, equals show --summary's function rows, without a browser:
# node runs the script of the page on its data (report-rows.js) for a
# real profile made now (tests/producers/alloc.c under jemalloc), as it
# is, under --focus and --ignore, and for another sample type.  The same
# rows, values and order; the table's total is show's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v node >/dev/null 2>&1 || skip "no node (the page's script)"
use_jemalloc
je_alloc_pb

# same_rows WHAT OPTION...: the page of report OPTIONS against show
# --summary OPTIONS, by function.
same_rows() {
	what=$1
	shift
	"$PROFCONV" report --quiet -n 1000 -o "$TMP/page.html" "$@" "$PB" \
	    2>"$TMP/err" || { fail "$what: report: $(cat "$TMP/err")"; return; }
	node "$PROFCONV_SRCDIR/tests/cli/report-rows.js" "$TMP/page.html" \
	    function >"$TMP/page" 2>"$TMP/err" ||
		{ fail "$what: the page's script: $(cat "$TMP/err")"; return; }
	"$PROFCONV" show --summary -n 1000 "$@" "$PB" >"$TMP/sum" 2>/dev/null ||
		{ fail "$what: show --summary"; return; }
	# show's rows: flat flat% cum cum% NAME (NAME may hold blanks).
	awk '/^top [0-9]+ functions/ { f = 1; next } /^[a-z]/ { f = 0 }
	    f { flat = $1; cum = $3; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ /, "")
	        printf "%s\t%s\t%s\n", flat, cum, $0 }' "$TMP/sum" >"$TMP/show"
	grep -v '^by	\|^total	' "$TMP/page" >"$TMP/page.rows"
	[ -s "$TMP/show" ] || { fail "$what: no function rows in show --summary"; return; }
	if ! cmp -s "$TMP/show" "$TMP/page.rows"; then
		diff -u "$TMP/show" "$TMP/page.rows" | head -n 20 >&2
		fail "$what: the Explore tab's rows are not show --summary's"
	fi
	# The total the table's shares are of: the one show --summary
	# gives for the type shown.
	total=$(sed -n 's/^total\t//p' "$TMP/page")
	grep -q "^total [^ ]*: $total\( \[default\]\)\{0,1\}$" "$TMP/sum" ||
		fail "$what: the page's total $total is none of show's"
}

same_rows "the whole profile"
same_rows "--focus" --focus grow
same_rows "--ignore" --ignore grow
same_rows "alloc_space" -t alloc_space
finish
