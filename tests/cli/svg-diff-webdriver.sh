# SPDX-License-Identifier: MIT
# svg-diff-webdriver.sh - the differential SVG as a person sees it, in
# headless Chromium through WebDriver, on two heap dumps of one process
# made now (tests/producers/diffpair.c: 2.8 MiB freed, 98 KiB leaked, a
# new path, a parent whose two children grew).  Hovering a frame shows its
# pprof-form title "CHANGE (P%) | BEFORE -> AFTER | NAME" in the details
# line (the freed cache: its decrease, 2,867,200 -> 0); clicking a frame
# zooms on it and Reset Zoom undoes it; a search matches by the frame's
# name, not its title; the screenshot shows each wide frame's fill in its
# place, red and blue among them, and the legend's swatches; the console
# stays free of errors.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v cc >/dev/null 2>&1 || skip "no C compiler"
need_tcmalloc
export LC_ALL=C

cc -O1 -g -fno-omit-frame-pointer -o "$TMP/diffpair" \
    "$PROFCONV_SRCDIR/tests/producers/diffpair.c" -ltcmalloc ||
	skip "cannot build tests/producers/diffpair.c"
HEAPPROFILE=$TMP/dp "$TMP/diffpair" 2>/dev/null || fail "diffpair failed"
svg=$TMP/diff.svg
"$CMD/profflame" --svg -t inuse_space --base "$TMP/dp.0001.heap" "$TMP/dp.0002.heap" \
    -o "$svg" 2>/dev/null || fail "profflame --svg --base"

cat >"$TMP/drive.py" <<'PY'
import os, re, sys
import webdriver
from selenium.webdriver.common.by import By

svg, png = sys.argv[1], sys.argv[2]
PPROF = re.compile(r"^Function: [-+]?[0-9,]+ bytes \([-+][0-9.]+%\) \| [0-9,]+ \u2192 [0-9,]+ \| (.+)$")
with webdriver.session(1200, 900) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    frames = d.find_elements(By.CSS_SELECTOR, "#frames > g")
    assert frames, "no frames"
    def named(name):
        for g in frames:
            t = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
            if t.endswith(" | " + name):
                return g, t
        raise AssertionError("no frame " + name)
    for name, has in (("cache_fill", "| 2,867,200 \u2192 0 |"), ("leak_more", "+100,352 bytes"),
                      ("parent_work", "+40,960 bytes"), ("fresh_path", "| 0 \u2192 65,536 |")):
        g, title = named(name)
        webdriver.hover(d, g.find_element(By.TAG_NAME, "rect"))
        details = d.find_element(By.ID, "details").get_attribute("textContent")
        m = PPROF.match(details)
        assert m and m.group(1) == name, "hover %s: details say %r" % (name, details)
        assert details == "Function: " + title, "hover %s: %r, title %r" % (name, details, title)
        assert has in details, "hover %s: %r lacks %r" % (name, details, has)
    g, _ = named("parent_work")
    rect = g.find_element(By.TAG_NAME, "rect")
    before = float(rect.get_attribute("width"))
    rect.click()
    after = float(rect.get_attribute("width"))
    assert after > before, "click did not zoom (%s -> %s)" % (before, after)
    label = g.find_element(By.TAG_NAME, "text").get_attribute("textContent")
    assert label == "parent_work", "zoomed label %r" % label
    d.find_element(By.ID, "unzoom").click()
    again = float(rect.get_attribute("width"))
    assert abs(again - before) < 0.5, "reset zoom: %s, was %s" % (again, before)
    d.execute_script("window.flamegraph.search('^cache_fill$')")
    matched = d.find_element(By.ID, "matched").get_attribute("textContent")
    assert matched.startswith("Matched: ") and not matched.startswith("Matched: 0.0%"), \
        "search by name: %r" % matched
    d.execute_script("window.flamegraph.resetSearch()")
    webdriver.no_console_errors(d, "after hover, zoom and search")
    d.save_screenshot(png)
    print("hover, zoom and search work; %s" % matched.strip())
PY
webdriver "$TMP/drive.py" "$svg" "$TMP/shot.png" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
# Every wide frame's fill is where the SVG puts it.
n=$(svgcheck png "$TMP/shot.png" "$svg") || fail "the screenshot does not show the frames' fills"
[ "${n:-0}" -ge 5 ] || fail "only ${n:-0} frames checked in the screenshot"
# Red (grew) and blue (shrank, freed) are both on the screen, and the
# legend's four swatches.
python3 - "$TMP/shot.png" "$PROFCONV_SRCDIR/tests/cli" <<'PY' || fail "the screenshot lacks red, blue or the legend"
import sys
sys.path.insert(0, sys.argv[2])
import webdriver
m = webdriver.svgcheck()
w, h, bpp, rows = m.png_pixels(sys.argv[1])
red = blue = purple = 0
for row in rows:
    for x in range(0, w * bpp, bpp):
        r, g, b = row[x], row[x + 1], row[x + 2]
        if r == 255 and g == b and g < 230:
            red += 1
        elif b == 255 and r == g and r < 230:
            blue += 1
        elif (r, g, b) == (170, 80, 220):
            purple += 1
print("red %d blue %d purple %d pixels" % (red, blue, purple), file=sys.stderr)
sys.exit(0 if red > 100 and blue > 100 and purple > 50 else 1)
PY
finish
