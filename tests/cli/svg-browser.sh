# SPDX-License-Identifier: MIT
# svg-browser.sh - profflame's SVG in a real browser (headless Chromium),
# on the quick start's profile (examples/leaky.c under tcmalloc, made now):
#  1. a screenshot shows every wide frame in its fill colour at its place;
#  2. opened from a file:// URL with ?s=REGEX&x=START&y=DEPTH, the
#     embedded script zooms on that frame and searches (--dump-dom);
#  3. in a page that loads the SVG in an <iframe> (over a loopback HTTP
#     server), real click, mouseover and search calls zoom, show details,
#     reset, highlight and count the matched share.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_browser
export LC_ALL=C

# The quick start's profile, as examples/run.sh makes it.
leaky_dumps
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
mkdir "$TMP/www"
svg=$TMP/www/leaky.svg
"$CMD/profflame" -t inuse_space "$heap" >"$TMP/leaky.folded" 2>/dev/null || fail "folded"
"$CMD/profflame" --svg -t inuse_space --colors mem --title "leaky: in use" "$heap" \
    -o "$svg" 2>/dev/null || fail "profflame --svg"
svgcheck tree "$svg" "$TMP/leaky.folded" >/dev/null || fail "the SVG does not draw the folded stacks"
total=$(awk '{ s += $NF } END { print s }' "$TMP/leaky.folded")
remember=$(awk '/;remember / { s += $NF } END { print s }' "$TMP/leaky.folded")
[ "${remember:-0}" -gt 0 ] || fail "no remember() stack in the profile"
# The share "Matched:" should show for remember (one decimal), and its
# value with thousands separators.
share=$(awk -v a="$remember" -v t="$total" 'BEGIN { printf "%.1f", 100 * a / t }')
grouped=$(printf '%s' "$remember" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta')
read -r rs rd <<EOF
$(python3 - "$svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    t = g.find(ns + "title")
    if t is not None and t.text.startswith("remember ("):
        print(g.get("data-s"), g.get("data-d"))
PY
)
EOF
[ -n "$rs" ] || fail "no remember frame in the SVG"

# 1. The picture as Chromium paints it.
height=$(sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$svg")
browser --force-device-scale-factor=1 --window-size=1200,"$height" \
    --screenshot="$TMP/leaky.png" "file://$svg" >/dev/null
[ -s "$TMP/leaky.png" ] || fail "no screenshot: $(tail -n 3 "$TMP/chrome.err")"
[ -s "$TMP/leaky.png" ] && { n=$(svgcheck png "$TMP/leaky.png" "$svg") ||
	fail "the screenshot does not show the frames"; }
echo "screenshot: ${n:-0} frames seen in their colours" >&2

# The same with another font, background and name type: what a person
# sees changes with them.
variant=$TMP/www/variant.svg
"$CMD/profflame" --svg -t inuse_space --bgcolors '#203040' --fontsize 16 \
    --fontwidth 0.65 --fonttype monospace --nametype 'Allocated by:' "$heap" \
    -o "$variant" 2>/dev/null || fail "profflame --svg (variant)"
svgcheck tree "$variant" "$TMP/leaky.folded" >/dev/null || fail "the variant does not draw the folded stacks"
vheight=$(sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$variant")
browser --force-device-scale-factor=1 --window-size=1200,"$vheight" \
    --screenshot="$TMP/variant.png" "file://$variant" >/dev/null
[ -s "$TMP/variant.png" ] && { n=$(svgcheck png "$TMP/variant.png" "$variant") ||
	fail "the variant's screenshot does not show its frames or background"; }

# 2. From a file:// URL: zoom on remember and search for it, in a window
# as wide as the picture (the script lays frames out to the window's width).
browser --virtual-time-budget=3000 --window-size=1200,"$height" --dump-dom \
    "file://$svg?s=remember&x=$rs&y=$rd" >"$TMP/dom.svg"
svgcheck dom "$TMP/dom.svg" >"$TMP/dom.txt" || fail "the dumped DOM does not parse"
check() { grep -Eq -- "$2" "$TMP/$1" || fail "$1: no line /$2/"; }
check dom.txt '^frame remember [0-9]+ - rgb\(230,0,230\) 10\.0 1180\.0$'
check dom.txt '^frame handle_request [0-9]+ parent [^ ]+ 10\.0 1180\.0$'
check dom.txt '^frame make_request_buffer [0-9]+ hide '
check dom.txt "^matched - Matched: $share% \\($grouped bytes\\)$"
check dom.txt '^unzoom - Reset Zoom$'
check dom.txt '^search show Reset Search$'

# 3. Events in a page that embeds the picture.
cat >"$TMP/www/embed.html" <<'HTML'
<!DOCTYPE html>
<html><body><pre id="result">not run</pre>
<iframe id="pic" src="leaky.svg" width="1200" height="400"></iframe>
<iframe id="variant" src="variant.svg" width="1200" height="400"></iframe>
<script>
window.addEventListener("load", function () {
	var pic = document.getElementById("pic");
	var win = pic.contentWindow, doc = pic.contentDocument, out = [];
	function state(tag) {
		Array.prototype.forEach.call(doc.getElementById("frames").children, function (g) {
			var t = g.querySelector("title").textContent, r = g.querySelector("rect");
			out.push([tag, t.slice(0, t.lastIndexOf(" (")), g.getAttribute("class") || "-",
			    r.getAttribute("fill"), r.getAttribute("x"), r.getAttribute("width"),
			    g.querySelector("text").textContent || "-"].join(" "));
		});
		["details", "matched", "unzoom", "search"].forEach(function (id) {
			var e = doc.getElementById(id);
			out.push([tag, id, e.getAttribute("class") || "-", e.textContent.trim() || "-"].join(" "));
		});
	}
	function frame(name) {
		return Array.prototype.filter.call(doc.getElementById("frames").children, function (g) {
			return g.querySelector("title").textContent.indexOf(name + " (") === 0;
		})[0];
	}
	function click(el) {
		el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
	}
	try {
		state("load");
		frame("make_request_buffer").querySelector("rect").dispatchEvent(
		    new MouseEvent("mouseover", { bubbles: true }));
		state("hover");
		click(frame("make_request_buffer").querySelector("text"));
		state("zoom");
		click(doc.getElementById("unzoom"));
		state("reset");
		win.flamegraph.search("^remember$");
		state("search");
		click(doc.getElementById("search"));
		state("unsearch");
		doc = document.getElementById("variant").contentDocument;
		frame("make_request_buffer").querySelector("rect").dispatchEvent(
		    new MouseEvent("mouseover", { bubbles: true }));
		state("variant");
	} catch (e) {
		out.push("error " + e);
	}
	document.getElementById("result").textContent = out.join("\n");
});
</script></body></html>
HTML
serve "$TMP/www"
browser --virtual-time-budget=5000 --dump-dom "http://127.0.0.1:$PORT/embed.html" |
	python3 -c 'import html, re, sys; m = re.search(r"<pre id=\"result\">(.*?)</pre>", sys.stdin.read(), re.S); print(html.unescape(m.group(1)) if m else "no result")' \
	>"$TMP/page.txt"
grep -q '^error' "$TMP/page.txt" && fail "the page script failed: $(grep '^error' "$TMP/page.txt")"
check page.txt '^hover details - Function: make_request_buffer \([0-9,]+ bytes, [0-9.]+%\)$'
check page.txt '^zoom make_request_buffer - [^ ]+ 10\.0 1180\.0 make_request_buffer$'
check page.txt '^zoom main parent [^ ]+ 10\.0 1180\.0 main$'
check page.txt '^zoom remember hide '
check page.txt '^zoom unzoom - Reset Zoom$'
check page.txt '^reset unzoom hide Reset Zoom$'
check page.txt "^search matched - Matched: $share% \\($grouped bytes\\)\$"
check page.txt '^search remember - rgb\(230,0,230\) '
check page.txt '^unsearch search - Search$'
check page.txt '^variant details - Allocated by: make_request_buffer \([0-9,]+ bytes, [0-9.]+%\)$'
# After the reset every frame is where it was at load, label included.
sed -n 's/^load //p' "$TMP/page.txt" | grep -v '^details\|^matched\|^unzoom\|^search' >"$TMP/load.txt"
sed -n 's/^reset //p' "$TMP/page.txt" | grep -v '^details\|^matched\|^unzoom\|^search' >"$TMP/reset.txt"
[ -s "$TMP/load.txt" ] && cmp -s "$TMP/load.txt" "$TMP/reset.txt" ||
	fail "Reset Zoom does not restore the frames: $(diff "$TMP/load.txt" "$TMP/reset.txt" | head -n 4)"
# The static picture and the script lay frames out alike.
python3 - "$svg" "$TMP/load.txt" <<'PY' || fail "the script's layout differs from the SVG's"
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
want = []
for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    t, r = g.find(ns + "title"), g.find(ns + "rect")
    if t is None or r is None:
        continue
    want.append((t.text[:t.text.rindex(" (")], r.get("x"), r.get("width"), g.find(ns + "text").text or "-"))
got = [tuple(l.split(" ")[i] for i in (0, 3, 4, 5)) for l in open(sys.argv[2]).read().split("\n") if l]
sys.exit(0 if want == got else 1)
PY
finish
