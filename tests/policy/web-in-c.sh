# SPDX-License-Identifier: MIT
# web-in-c.sh - no CSS is written in C under lib/: no string literal
# holds a rule ("sel { prop: value; }") or a list of declarations
# ("prop: value;"), and no C file writes an HTML <style> element (the
# pages' skeletons in lib/page/*.html do); the SVG pictures' one
# <style type="text/css"> (SVG markup, as their <rect> and <text>) is
# written by one line, in lib/write/svg_web.c, around a file's text.
# Style sheets are files (lib/*/*.css), embedded by build-aux/embed.sh;
# the headers it makes are not looked at.
# The check runs on the tree, then on a copy with CSS put back in C.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# check ROOT: one line per fault under ROOT/lib.
check() {
	files=$(ls "$1"/lib/*.[ch] "$1"/lib/*/*.[ch] |
	    grep -v '\.\(css\|js\|html\)\.h$')
	[ "$(echo "$files" | wc -l)" -gt 40 ] || echo "no library sources under $1/lib"
	# shellcheck disable=SC2086
	grep -nE '"([^"\\]|\\.)*[{]([^"\\]|\\.)*[a-z-]+: ?([^"\\]|\\.)*;' $files |
	    sed 's/$/ (a CSS rule)/'
	# shellcheck disable=SC2086
	grep -nE '"[[:space:]]*[a-z-]+: [^"]*;[[:space:]]*"' $files |
	    sed 's/$/ (CSS declarations)/'
	# shellcheck disable=SC2086
	grep -n -i '<style' $files | while IFS= read -r hit; do
		case $hit in
		"$1"/lib/write/svg_web.c:*'	fputs("<style type=\"text/css\">\n", fp);') ;;
		*) echo "$hit (a <style> element)" ;;
		esac
	done
	# The one line allowed is there once, not twice.
	n=$(grep -c -i '<style' "$1/lib/write/svg_web.c")
	[ "$n" -eq 1 ] || echo "$1/lib/write/svg_web.c: $n <style> lines, not 1"
}

cd "$PROFCONV_SRCDIR" || exit 1
check . >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	cat "$TMP/hits" >&2
	fail "CSS in C string literals under lib/ (put it in a .css file)"
fi

# The same check must see CSS put back: a rule, a table of declarations
# and <style> elements, in C files of report/ and write/.
mkdir -p "$TMP/tree"
cp -R lib "$TMP/tree/lib"
printf 'static const char r[] = "h1 { font-size: 1.2em; }\\n";\n' \
    >>"$TMP/tree/lib/report/report.c"
printf 'static const char *d[] = { "td.v", "text-align: right;" };\n' \
    >>"$TMP/tree/lib/report/listhtml.c"
printf 'static const char s[] = "<style>\\n";\n' \
    >>"$TMP/tree/lib/report/report_data.c"
# and the SVG writers' own <style>, as they wrote it before svg_web.c.
printf '\tfputs("<style type=\\"text/css\\">\\n", fp);\n' \
    >>"$TMP/tree/lib/report/trendsvg.c"
# and a second one in svg_web.c, where one is allowed.
grep 'fputs("<style' lib/write/svg_web.c >>"$TMP/tree/lib/write/svg_web.c"
check "$TMP/tree" | sed "s|^$TMP/tree/|./|" >"$TMP/all"
for want in 'report/report.c:.*(a CSS rule)' \
    'report/listhtml.c:.*(CSS declarations)' \
    'report/report_data.c:.*(a <style> element)' \
    'report/trendsvg.c:.*(a <style> element)' \
    'write/svg_web.c: 2 <style> lines, not 1'; do
	grep -q "$want" "$TMP/all" || fail "the check missed: $want"
done
[ "$(wc -l <"$TMP/all")" -eq 5 ] || { cat "$TMP/all" >&2; fail "the check saw more than the five"; }
finish
