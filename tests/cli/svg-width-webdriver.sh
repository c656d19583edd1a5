# SPDX-License-Identifier: MIT
# svg-width-webdriver.sh - profflame's SVG follows the window's width and
# labels frames with pprof's short names.  A C++ program with classes in
# nested namespaces (tests/producers/namespaces.py writes it: V8's and
# LLVM's kind of names) runs now under tcmalloc's heap profiler; its flame graph is opened from file:// in headless Chromium
# through WebDriver in a 1,800 px and a 1,000 px window (and resized from
# one to the other): the picture and its root frame fill the width, the
# title and the search button move with it, labels are re-cut to the new
# widths, screenshots are not blank; labels show pprof's short names
# ("Heap::AllocateExternalBackingStore"), the tooltips (titles) the full
# ones ("v8::internal::alpha::Heap::AllocateExternalBackingStore"); the same file in
# an <img> (no script) is drawn at its own 1,200 px.  The short names are
# those go tool pprof gives the same profile's call graph boxes.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
need_tcmalloc

python3 "$PROFCONV_SRCDIR/tests/producers/namespaces.py" >"$TMP/ns.cc" || fail "namespaces.py"
g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/ns" "$TMP/ns.cc" -Wl,--no-as-needed -ltcmalloc ||
	skip "cannot build the namespaces producer with tcmalloc"
HEAPPROFILE=$TMP/run "$TMP/ns" 1 >/dev/null 2>&1 || fail "producer failed"
set -- "$TMP"/run.*.heap
eval "last=\${$#}"
"$PROFCONV" symbolize -o "$TMP/g.pb.gz" "$last" 2>/dev/null || fail "symbolize"
"$CMD/profflame" --svg "$TMP/g.pb.gz" -o "$TMP/f.svg" || fail "profflame --svg"
grep -q 'width="1200"' "$TMP/f.svg" || fail "the file is not laid out 1,200 px wide"
grep -q 'data-n="' "$TMP/f.svg" || fail "no frame has a short name"
printf '<!DOCTYPE html><html><body style="margin:0"><img id="pic" src="f.svg"></body></html>\n' \
	>"$TMP/img.html"

# The short names against go tool pprof's: each is, split at "::" and
# "." as pprof splits it, the start of one of its call graph's labels.
if command -v go >/dev/null 2>&1; then
	go_env
	go tool pprof -dot -nodecount=10000 -nodefraction=0 -edgefraction=0 \
	    "$TMP/g.pb.gz" >"$TMP/go.dot" 2>/dev/null || fail "go tool pprof -dot"
	sed -n 's/.* data-n="\([^"]*\)".*/\1/p' "$TMP/f.svg" | sort -u >"$TMP/short"
	[ -s "$TMP/short" ] || fail "no short names"
	while IFS= read -r n; do
		l=$(printf '%s' "$n" | sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g; s/::/\\n/g; s/\./\\n/g')
		grep -qF "[label=\"$l\\n" "$TMP/go.dot" ||
			fail "short name '$n' is no label of go tool pprof's"
	done <"$TMP/short"
	echo "$(wc -l <"$TMP/short") short names as go tool pprof's" >&2
fi

cat >"$TMP/drive.py" <<'PY'
import os, sys
import webdriver
from selenium.webdriver.common.by import By

svg, img, shots = sys.argv[1], sys.argv[2], sys.argv[3]

def colours(path, y0, y1):
    """Distinct colours of rows Y0..Y1 of the screenshot, its width."""
    w, h, bpp, rows = webdriver.svgcheck().png_pixels(path)
    seen = set()
    for y in range(max(0, y0), min(h, y1), 2):
        r = rows[y]
        for x in range(0, w, 2):
            seen.add(bytes(r[x * bpp:x * bpp + 3]))
    return w, seen

STATE = """
var svg = document.documentElement, root = null, fs = [];
document.querySelectorAll('#frames > g').forEach(function (g) {
    var r = g.querySelector('rect'), t = g.querySelector('text');
    var f = {d: +g.getAttribute('data-d'), x: +r.getAttribute('x'),
             w: +r.getAttribute('width'), y: +r.getAttribute('y'),
             label: t.textContent, short: g.getAttribute('data-n'),
             title: g.querySelector('title').textContent};
    if (f.d === 0) root = f;
    fs.push(f);
});
return {width: svg.getBoundingClientRect().width, attr: svg.getAttribute('width'),
        client: document.documentElement.clientWidth, root: root, frames: fs,
        title: +document.getElementById('title').getAttribute('x'),
        search: document.getElementById('search').getBoundingClientRect().right};
"""

def check(d, W, shot):
    s = d.execute_script(STATE)
    assert abs(s["width"] - W) < 1, "SVG %s px wide in a %d px window" % (s["width"], W)
    r = s["root"]
    assert r["x"] <= 10.5 and abs(r["x"] + r["w"] - (W - 10)) < 1, \
        "root frame %.1f..%.1f in %d px" % (r["x"], r["x"] + r["w"], W)
    assert abs(s["title"] - W / 2) < 1, "title at %s" % s["title"]
    assert W - 130 < s["search"] <= W, "search button ends at %s" % s["search"]
    charw = float(d.execute_script(
        "return document.getElementById('frames').getAttribute('data-charw')"))
    shorts = 0
    for f in s["frames"]:
        if f["d"] == 0:
            continue
        name = f["short"] or f["title"][:f["title"].rfind(" (")]
        fits = int(f["w"] / charw + 0.01)
        if f["short"]:
            shorts += 1
            full = f["title"][:f["title"].rfind(" (")]
            assert len(full) > len(f["short"]), f
        # Cut anew for this width: the whole name when it fits.
        if len(name) <= fits - 1 and fits >= 3:
            assert f["label"] == name, "label %r for %r in %.1f px" % (f["label"], name, f["w"])
        elif f["label"]:
            assert f["label"].endswith("..") and name.startswith(f["label"][:-2]), f
    assert shorts > 0, "no short names"
    d.save_screenshot(shot)
    h = d.execute_script("return window.innerHeight")
    y = r["y"] - d.execute_script("return window.scrollY")
    w, seen = colours(shot, int(y) - 200, int(y) + 15)
    assert w == W, "screenshot %d wide" % w
    assert len(seen) > 10, "the frames' rows are blank: %d colours" % len(seen)
    return s

with webdriver.session(1800, 900) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    wide = check(d, 1800, shots + "-1800.png")
    # The tooltip is the full name, the label pprof's short one.
    full = [f for f in wide["frames"] if f["short"] == "Heap::AllocateExternalBackingStore"]
    assert len(full) == 4, "frames of Heap::AllocateExternalBackingStore: %r" % full
    f = max(full, key=lambda f: f["w"])
    assert f["label"] == f["short"], "label %r" % f["label"]
    assert f["title"].startswith("v8::internal::alpha::Heap::AllocateExternalBackingStore ("), f
    print("1800: root %.1f px; %r titled %r" % (wide["root"]["w"], f["label"], f["title"]))
    d.set_window_size(1000, 900)
    d.execute_script("window.dispatchEvent(new Event('resize'))")
    narrow = check(d, 1000, shots + "-resized.png")
    webdriver.no_console_errors(d, "resize")

with webdriver.session(1000, 900) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    check(d, 1000, shots + "-1000.png")
    # No script in an <img>: the picture as written, 1,200 px.
    d.get("file://" + img)
    w = d.execute_script("var i = document.getElementById('pic');"
                         "return i.complete ? i.naturalWidth : -1")
    assert w == 1200, "<img>: natural width %s" % w
    d.save_screenshot(shots + "-img.png")
    _, seen = colours(shots + "-img.png", 0, 300)
    assert len(seen) > 10, "<img> drawn blank"
    webdriver.no_console_errors(d, "img")
print("fills 1800 and 1000 px windows; <img> 1200 px")
PY
webdriver "$TMP/drive.py" "$TMP/f.svg" "$TMP/img.html" "$TMP/shot" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 8 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${FLAME_SHOTS:-}" ] && cp "$TMP"/shot-*.png "$FLAME_SHOTS"
finish
