# SPDX-License-Identifier: MIT
# web-in-c.sh - no CSS and no HTML is written in C under lib/: no string
# literal holds a rule ("sel { prop: value; }") or a list of declarations
# ("prop: value;") or an inline style attribute (style="..."; the
# style of write/dot.c's DOT is Graphviz's), no C file writes an HTML
# <style> element, and no string literal holds an HTML tag (<td, </p>,
# <svg, ...): the pages' skeletons in lib/page/*.html do, their fragments
# written by profconv__page_put() with the values in their holes.  The
# SVG pictures' one <style type="text/css"> is written by one line, in
# lib/write/svg_web.c, around a file's text; the SVG writers write their
# <svg> and <script> (SVG markup, as their <rect> and <text>), and two
# searches name a tag to find it in a writer's output, not to write it.
# Style sheets are files (lib/*/*.css), embedded by build-aux/embed.sh;
# the headers it makes are not looked at.
# The check runs on the tree, then on a copy with CSS and HTML put back
# in C.
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
	grep -n 'style=\\"' $files | grep -v "^$1/lib/write/dot\\.c:" |
	    sed 's/$/ (a style attribute)/'
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
	html "$1" "$files"
}

# The HTML elements the pages have, and <svg> (an element of HTML too).
tags='html|head|body|div|span|p|a|table|thead|tbody|tfoot|tr|td|th|dl|dt|dd'
tags="$tags|nav|button|section|h[1-6]|iframe|script|ul|li|details"
tags="$tags|summary|pre|code|input|label|select|option|svg"

# svg_only HIT: HIT's tags are all <svg> and <script>, SVG's own.
svg_only() {
	! printf '%s\n' "$1" | grep -oiE '<(/?)[a-z][a-z0-9]*' |
	    grep -viqE '^</?(svg|script)$'
}

# html ROOT FILES: one line per string literal of FILES holding a tag.
html() {
	# shellcheck disable=SC2086
	grep -nEi '"[^"]*<(/?)('"$tags"')[ >/"]' $2 |
	    grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/[*]|[*])' |	# comments
	    while IFS= read -r hit; do
		case $hit in
		"$1"/lib/write/svg*.c:*|"$1"/lib/report/trendsvg*.c:*|\
		"$1"/lib/write/graphviz.c:*)
			# An SVG writer's <svg> and <script>, nothing else.
			svg_only "$hit" && continue ;;
		# The first <svg> tag of a writer's output, read for its size.
		"$1"/lib/report/report.c:*'= strstr(s, "<svg"), *end, *a;') continue ;;
		# Where the listing's fragment may be cut: after a routine.
		"$1"/lib/report/report_views.c:*'static const char end[] = "</section>\n";') continue ;;
		esac
		echo "$hit (an HTML tag)"
	done
}

cd "$PROFCONV_SRCDIR" || exit 1
check . >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	cat "$TMP/hits" >&2
	fail "CSS or HTML in C string literals under lib/ (put it in lib/page/)"
fi

# The same check must see CSS and HTML put back: a rule, a table of
# declarations and <style> elements, in C files of report/ and write/; a
# table cell and an <svg> search outside the SVG writers, a <div> in
# one.
mkdir -p "$TMP/tree"
copy_sources "$TMP/tree" lib
printf 'static const char r[] = "h1 { font-size: 1.2em; }\\n";\n' \
    >>"$TMP/tree/lib/report/report.c"
printf 'static const char *d[] = { "td.v", "text-align: right;" };\n' \
    >>"$TMP/tree/lib/report/listhtml.c"
printf 'static const char s[] = "<style>\\n";\n' \
    >>"$TMP/tree/lib/report/report_data.c"
printf 'static const char c[] = "<td class=\\"v\\">";\n' \
    >>"$TMP/tree/lib/report/report_views.c"
printf 'static const char *g(const char *s) { return strstr(s, "<SVG "); }\n' \
    >>"$TMP/tree/lib/report/report_data_json.c"
printf 'static const char d[] = "</svg><div>";\n' \
    >>"$TMP/tree/lib/write/svg_emit.c"
# and the SVG writers' own <style>, as they wrote it before svg_web.c.
printf '\tfputs("<style type=\\"text/css\\">\\n", fp);\n' \
    >>"$TMP/tree/lib/report/trendsvg.c"
# and an inline style, as trendsvg.c had one.
printf 'static const char t[] = "<text style=\\"text-anchor: end\\">";\n' \
    >>"$TMP/tree/lib/report/trendsvg.c"
# and a second one in svg_web.c, where one is allowed.
grep 'fputs("<style' lib/write/svg_web.c >>"$TMP/tree/lib/write/svg_web.c"
check "$TMP/tree" | sed "s|^$TMP/tree/|./|" >"$TMP/all"
for want in 'report/report.c:.*(a CSS rule)' \
    'report/listhtml.c:.*(CSS declarations)' \
    'report/report_data.c:.*(a <style> element)' \
    'report/trendsvg.c:.*(a <style> element)' \
    'write/svg_web.c: 2 <style> lines, not 1' \
    'report/report_views.c:.*"<td class=.*(an HTML tag)' \
    'report/report_data_json.c:.*"<SVG ".*(an HTML tag)' \
    'write/svg_emit.c:.*"</svg><div>".*(an HTML tag)' \
    'report/trendsvg.c:.*<text style=.*(a style attribute)'; do
	grep -q "$want" "$TMP/all" || fail "the check missed: $want"
done
[ "$(wc -l <"$TMP/all")" -eq 9 ] || { cat "$TMP/all" >&2; fail "the check saw more than the nine"; }
finish
