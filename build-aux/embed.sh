#!/bin/sh
# SPDX-License-Identifier: MIT
# embed.sh SRCDIR HEADER - write HEADER, a C string literal of the web
# file it names without its ".h" (lib/page/report.css.h holds
# SRCDIR/lib/page/report.css), for the library to embed.  The file's host
# decides what it may not hold, checked here and nowhere else:
#   *.html       an HTML page's skeleton (lib/page/): the host itself;
#   lib/page/*   the HTML page's <style> and <script>, raw text that
#                "</style", "</script" or "<!--" would end or upset;
#   elsewhere    an SVG's: scripts in CDATA, which "]]>" would end, and
#                style sheets as XML text, where "<" and "&" are markup.
set -e
srcdir=$1
out=$2
rel=${out%.h}
src=$srcdir/$rel
[ -f "$src" ] || { echo "embed.sh: no $src" >&2; exit 1; }
refuse() {
	if grep -n -i -e "$1" "$src" >&2; then
		echo "embed.sh: $src holds \"$1\", which would end its $2" >&2
		exit 1
	fi
}
case $rel in
*.html)
	# A page's skeleton: the host itself, with its elements.
	;;
lib/page/*)
	refuse '</style' 'HTML element'
	refuse '</script' 'HTML element'
	refuse '<!--' 'HTML element' ;;
*.js)
	refuse ']]>' 'CDATA section' ;;
*)
	refuse ']]>' 'style sheet'
	refuse '<' 'style sheet (XML text)'
	refuse '&' 'style sheet (XML text)' ;;
esac
mkdir -p "$(dirname "$out")"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$src" >"$out.tmp"
mv "$out.tmp" "$out"
