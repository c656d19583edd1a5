# SPDX-License-Identifier: MIT
# file-size.sh - no .c or .h file under lib/ or cmd/ is over 1,000 lines
# (issue #41: a file past that is split along its section comments),
# lib/profconv.h excepted.  The files below are over it and not yet
# split; each must still be over, so that the list shrinks as they are
# split and never hides a file that grew.  The check runs on the tree,
# then on copies with a file grown past the limit and with a listed file
# cut under it, which it must refuse.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

MAX_LINES=1000
# Not yet split (issue #41).
NOT_YET_SPLIT='lib/view/view.c lib/symbolize/dwarf_index.c'

# check ROOT: one line per file under ROOT breaking the rule.
check() {
	root=$1
	[ "$(ls "$root"/lib/*/*.c | wc -l)" -gt 40 ] ||
		echo "no library sources under $root/lib"
	for f in "$root"/lib/*.[ch] "$root"/lib/*/*.[ch] "$root"/cmd/*.[ch]; do
		[ -f "$f" ] || continue
		rel=${f#"$root"/}
		[ "$rel" != lib/profconv.h ] || continue
		n=$(wc -l <"$f")
		listed=false
		for x in $NOT_YET_SPLIT; do
			[ "$x" != "$rel" ] || listed=true
		done
		if [ "$n" -gt "$MAX_LINES" ] && ! $listed; then
			echo "$rel: $n lines, over $MAX_LINES: split it along its section comments"
		fi
		if [ "$n" -le "$MAX_LINES" ] && $listed; then
			echo "$rel: $n lines, no longer over $MAX_LINES: take it off the not-yet-split list"
		fi
	done
	for x in $NOT_YET_SPLIT; do
		[ -f "$root/$x" ] || echo "$x: listed as not yet split but not there"
	done
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "files over $MAX_LINES lines"
fi

# The check itself: a copy of lib/ and cmd/ with a file grown, then with a
# listed file cut.
copy() {
	rm -rf "$TMP/copy"
	mkdir -p "$TMP/copy"
	cp -R "$PROFCONV_SRCDIR/lib" "$PROFCONV_SRCDIR/cmd" "$TMP/copy/"
}
copy
for f in "$TMP"/copy/lib/*/*.c; do
	case " $NOT_YET_SPLIT " in *" ${f#"$TMP"/copy/} "*) ;; *) break ;; esac
done
awk 'BEGIN { for (i = 0; i < 1001; i++) print "/* grown */" }' >>"$f"
check "$TMP/copy" | grep -q "^${f#"$TMP"/copy/}: .* over $MAX_LINES" ||
	fail "a file grown past $MAX_LINES lines is not refused"
copy
set -- $NOT_YET_SPLIT
head -n 10 "$PROFCONV_SRCDIR/$1" >"$TMP/copy/$1"
check "$TMP/copy" | grep -q "^$1: .* no longer over" ||
	fail "a listed file cut under $MAX_LINES lines is not refused"
finish
