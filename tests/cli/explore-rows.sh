# SPDX-License-Identifier: MIT
# explore-rows.sh - the report's Explore tab, checked without a browser
# (issue #41): node runs the page's own script on the page's own data
# (tests/cli/explore-rows.js stands in for the DOM), and the top table's
# rows - every function's flat and cum - equal show --summary's, for the
# default sample type, another one picked in the type selector, and a
# focus typed in.  The browser tests (tests/screen) check the same page
# in Chromium; this one runs wherever node does, in a second.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v node >/dev/null 2>&1 || skip "node not installed (Debian: nodejs)"
use_jemalloc
je_alloc_pb --threads

run 0 "$PROFCONV" report -o "$TMP/r.html" "$PB"

# rows_of OUT ARGS...: show --summary ARGS' functions as "flat cum name",
# sorted.
rows_of() {
	r_out=$1
	shift
	"$PROFCONV" show --summary --top 100000 "$@" "$PB" 2>/dev/null |
		awk '/^top [0-9]+ functions/ { on = 1; next }
		    /^top / { on = 0 }
		    on && NF >= 5 { name = $5
			for (i = 6; i <= NF; i++) name = name " " $i
			print $1 "\t" $3 "\t" name }' | LC_ALL=C sort >"$r_out"
	[ -s "$r_out" ] || fail "show --summary $*: no function rows"
}

# explore OUT FOCUS TYPE: the Explore tab's rows, sorted.
explore() {
	node "$PROFCONV_SRCDIR/tests/cli/explore-rows.js" "$TMP/r.html" \
	    function "$2" $3 2>"$TMP/node.err" | LC_ALL=C sort >"$1" ||
		fail "explore-rows.js: $(head -n 3 "$TMP/node.err")"
	grep -q '^Showing the top ' "$TMP/node.err" ||
		fail "explore-rows.js: no table note: $(head -n 3 "$TMP/node.err")"
}

explore "$TMP/page" "" ""
rows_of "$TMP/show"
cmp -s "$TMP/page" "$TMP/show" || {
	diff "$TMP/show" "$TMP/page" | head -n 20 >&2
	fail "Explore rows differ from show --summary's"
}
grep -q '	thread_work$' "$TMP/page" || fail "Explore rows: no thread_work"
cp "$TMP/page" "$TMP/page.all"

# Another type, picked in the selector (its index among the profile's).
types=$("$PROFCONV" show --summary "$PB" 2>/dev/null | sed -n 's/^sample types: //p')
i=0
for t in $types; do
	case $t in alloc_objects/*) break ;; esac
	i=$((i + 1))
done
explore "$TMP/page" "" "$i"
rows_of "$TMP/show" -t alloc_objects
cmp -s "$TMP/page" "$TMP/show" || {
	diff "$TMP/show" "$TMP/page" | head -n 20 >&2
	fail "Explore rows of alloc_objects (type $i) differ from show --summary -t alloc_objects"
}

# A focus typed in.
explore "$TMP/page" "level1|leak" ""
rows_of "$TMP/show" --focus 'level1|leak'
cmp -s "$TMP/page" "$TMP/show" || {
	diff "$TMP/show" "$TMP/page" | head -n 20 >&2
	fail "Explore rows under focus differ from show --summary --focus"
}
# The focus kept fewer functions, thread_work not among them.
[ "$(wc -l <"$TMP/page")" -lt "$(wc -l <"$TMP/page.all")" ] ||
	fail "Explore rows under focus: as many rows as without"
grep -q '	thread_work$' "$TMP/page" && fail "Explore rows under focus: thread_work kept"
finish
