# SPDX-License-Identifier: MIT
# report-width-webdriver.sh - the report page's flame graphs fill the
# window's width, in headless Chromium through WebDriver, opened from
# file://, on the quick start's leaky program run now under tcmalloc.
# In a 1,800 px and a 1,000 px window, and resized from the one to the
# other: the Flame graph tab's frame and the picture in it, and the
# Explore tab's flame graph, are the page's width (its margins aside)
# within a few px, their root frame ends at their right edge; the page,
# the frame and the Explore tab's box have no horizontal scroll bar; the
# screenshot at 1,800 px has the root frame's colour at the right end
# of the flame area; no console error.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
export LC_ALL=C

leaky_dumps 200000
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
run 0 "$PROFCONV" report "$heap" -o "$TMP/one.html"

cat >"$TMP/drive.py" <<'PY'
import os, sys, time
import webdriver
from selenium.webdriver.common.by import By

page, shots = sys.argv[1], sys.argv[2]
svgcheck = webdriver.svgcheck()

def tab(d, name):
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="%s"]' % name).click()
    time.sleep(0.3)

PAGE = """
var b = document.body, cs = getComputedStyle(b), de = document.documentElement;
return {client: de.clientWidth, scroll: de.scrollWidth,
        left: parseFloat(cs.marginLeft), right: parseFloat(cs.marginRight)};
"""

def content(d):
    """The page's width for its content: its left and right edge."""
    p = d.execute_script(PAGE)
    assert p["scroll"] <= p["client"], \
        "the page scrolls sideways: %d px in %d" % (p["scroll"], p["client"])
    return p["left"], p["client"] - p["right"]

def flame_tab(d, W, shot):
    tab(d, "flame")
    left, right = content(d)
    fr = d.find_element(By.CSS_SELECTOR, "iframe.flame")
    r = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", fr)
    assert abs(r["left"] - left) < 3 and abs(r["right"] - right) < 3, \
        "flame frame %.0f..%.0f in a page of %.0f..%.0f (window %d)" % (
            r["left"], r["right"], left, right, W)
    d.switch_to.frame(fr)
    s = d.execute_script("""
        var de = document.documentElement, root = null;
        document.querySelectorAll('#frames > g').forEach(function (g) {
            if (g.getAttribute('data-d') === '0') root = g.querySelector('rect');
        });
        return {w: +de.getAttribute('width'), client: de.clientWidth,
                scroll: de.scrollWidth,
                rx: +root.getAttribute('x'), rw: +root.getAttribute('width'),
                ry: +root.getAttribute('y'), fill: root.getAttribute('fill')};""")
    d.switch_to.default_content()
    assert abs(s["w"] - s["client"]) < 2 and abs(s["w"] - (r["width"] - 2)) < 2, \
        "picture %s px in a frame of %s (window %d)" % (s["w"], r["width"], W)
    assert s["scroll"] <= s["client"], "the frame scrolls sideways"
    assert abs(s["rx"] + s["rw"] - (s["w"] - 10)) < 2, \
        "root frame ends at %.1f of %s" % (s["rx"] + s["rw"], s["w"])
    if shot is None:
        return s
    # The root frame's row on screen; its right end's colour.
    d.execute_script("window.scrollTo(0, arguments[0])",
                     max(0, r["top"] + d.execute_script("return scrollY") +
                         s["ry"] - 300))
    time.sleep(0.3)
    r = d.execute_script("return arguments[0].getBoundingClientRect().toJSON()", fr)
    d.save_screenshot(shot)
    w, h, bpp, rows = svgcheck.png_pixels(shot)
    assert w == W, "screenshot %d px wide, not %d" % (w, W)
    y = int(r["top"] + 1 + s["ry"] + 6)
    x = int(r["left"] + 1 + s["rx"] + s["rw"] - 4)
    assert 0 <= y < h and x < w, "root frame off the screen (%d, %d)" % (x, y)
    want = tuple(int(v) for v in s["fill"][4:-1].split(","))
    got = tuple(rows[y][x * bpp:x * bpp + 3])
    assert max(abs(a - b) for a, b in zip(got, want)) <= 8, \
        "at (%d, %d), the flame area's right end: %r, not the root's %r" % (
            x, y, got, want)
    return s

def live_tab(d, W):
    tab(d, "live")
    left, right = content(d)
    s = d.execute_script("""
        var b = document.getElementById('live-flame-box'),
            g = document.getElementById('live-flame');
        var br = b.getBoundingClientRect(), gr = g.getBoundingClientRect();
        var w = 0;
        g.querySelectorAll('rect').forEach(function (r) {
            w = Math.max(w, +r.getAttribute('x') + +r.getAttribute('width'));
        });
        return {bl: br.left, br: br.right, gw: gr.width, client: b.clientWidth,
                scroll: b.scrollWidth, attr: +g.getAttribute('width'), right: w};""")
    assert abs(s["bl"] - left) < 3 and abs(s["br"] - right) < 3, \
        "Explore box %.0f..%.0f in a page of %.0f..%.0f (window %d)" % (
            s["bl"], s["br"], left, right, W)
    assert abs(s["gw"] - s["client"]) < 2 and s["attr"] == round(s["gw"]), \
        "Explore flame %s px in a box of %s (window %d)" % (s["gw"], s["client"], W)
    assert s["scroll"] <= s["client"], "the Explore flame scrolls sideways"
    assert s["attr"] - 2 < s["right"] <= s["attr"], \
        "Explore flame's frames end at %.1f of %s" % (s["right"], s["attr"])
    return s

with webdriver.session(1800, 900) as d:
    d.get("file://" + page)
    webdriver.no_console_errors(d, "load")
    wide = flame_tab(d, 1800, shots + "-1800.png")
    lwide = live_tab(d, 1800)
    d.set_window_size(1000, 900)
    time.sleep(0.5)
    narrow = flame_tab(d, 1000, None)
    lnarrow = live_tab(d, 1000)
    assert narrow["w"] < wide["w"] - 700 and lnarrow["attr"] < lwide["attr"] - 700, \
        "resized: %s, %s" % (narrow["w"], lnarrow["attr"])
    webdriver.no_console_errors(d, "resize")
    print("1800: flame %s, Explore %s; resized to 1000: %s, %s" % (
        wide["w"], lwide["attr"], narrow["w"], lnarrow["attr"]))

with webdriver.session(1000, 900) as d:
    d.get("file://" + page + "#live")
    webdriver.no_console_errors(d, "load")
    live_tab(d, 1000)
    flame_tab(d, 1000, shots + "-1000.png")
    webdriver.no_console_errors(d, "tabs")
PY
webdriver "$TMP/drive.py" "$TMP/one.html" "$TMP/shot" ||
	fail "the flame graphs do not follow the window's width"

finish
