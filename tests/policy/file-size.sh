# SPDX-License-Identifier: MIT
# file-size.sh - no .c or .h file under lib/ or cmd/ is over 1,000 lines
# (issue #41: a file past that is split along its section comments),
# lib/profconv.h, the public header, excepted.  The check runs on the
# tree, then on a copy with a file grown past the limit, which it must
# refuse.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

MAX_LINES=1000

# check ROOT: one line per file under ROOT breaking the rule.
check() {
	root=$1
	[ "$(find "$root"/lib -name '*.c' | wc -l)" -gt 40 ] ||
		echo "no library sources under $root/lib"
	# One wc for all: a process a file took a quarter of a minute.
	wc -l "$root"/lib/*.[ch] "$root"/lib/*/*.[ch] "$root"/cmd/*.[ch] \
	    2>/dev/null | awk -v root="$root/" -v max="$MAX_LINES" '
	NF == 2 && index($2, root) == 1 {
		rel = substr($2, length(root) + 1)
		if (rel != "lib/profconv.h" && $1 > max)
			print rel ": " $1 " lines, over " max \
			    ": split it along its section comments"
	}'
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "files over $MAX_LINES lines"
fi

# The check itself: a copy of lib/ and cmd/ with a file of each grown.
mkdir -p "$TMP/copy"
copy_sources "$TMP/copy" lib cmd
for f in lib/view/rows.c cmd/options.c; do
	awk 'BEGIN { for (i = 0; i < 1001; i++) print "/* grown */" }' >>"$TMP/copy/$f"
	check "$TMP/copy" | grep -q "^$f: .* over $MAX_LINES" ||
		fail "$f grown past $MAX_LINES lines is not refused"
done
finish
