# SPDX-License-Identifier: MIT
# report-webdriver.sh - profconv report's page as a person uses it, in
# headless Chromium through WebDriver (real clicks), opened from file://:
# no console error (a CSP violation is one) and no alert, the tabs
# switch, the top table sorts on a click of a header, the embedded flame
# graph zooms on a click of a frame and the call graph's script runs;
# on a profile whose names are markup, the names show as text, the page
# and its pictures run only their own scripts, and no alert fires; a
# flame graph of 8 MB (past Chromium's 2 MB limit on URLs) is drawn.
# The comparison table of a change sorts on a click (TOTAL stays last);
# the source tab is the shaded table, its style kept to itself.  Each
# tab's screenshot is looked at: not blank (pixels that are not the
# page's white), and on the flame graph the heaviest frame's colour
# where that frame is drawn.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
export LC_ALL=C

leaky_dumps 200000
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
first=$(ls "$TMP"/leaky.*.heap | sort | head -n 1)
cp "$PROFCONV_SRCDIR/examples/leaky.c" "$TMP/leaky.c"
run 0 "$PROFCONV" report --source-path "$TMP" "$heap" -o "$TMP/one.html"
run 0 "$PROFCONV" report --source-path "$TMP" --base "$first" "$heap" \
    -o "$TMP/diff.html"

printf '%s\n' '<script>alert(1)</script>' ']]>end' '</svg><script>alert(2)</script>' \
    '</iframe><img src=x onerror=alert(3)>' >"$TMP/names"
names_profile "$TMP/names"
run 0 "$PROFCONV" report --demangle none "$TMP/h.pb" -o "$TMP/h.html"
# 20,000 stacks, every frame drawn: a flame graph of several MB.
awk 'BEGIN { for (i = 0; i < 20000; i++)
    printf "main;mid%d;leaf%d %d\n", i % 100, i, 1 + i % 7 }' >"$TMP/big.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/big.folded" \
    "$TMP/big.pb" || fail "cannot write big.pb"
run 0 "$PROFCONV" report --minwidth 0 --list-top 1 "$TMP/big.pb" -o "$TMP/big.html"
[ "$(wc -c <"$TMP/big.html")" -gt 4000000 ] ||
	fail "the big page is only $(wc -c <"$TMP/big.html") bytes"

cat >"$TMP/drive.py" <<'PY'
import os, re, sys, time
import webdriver
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoAlertPresentException

page, hostile, names_file, shot, big, diff = sys.argv[1:7]
svgcheck = webdriver.svgcheck()


def screenshot(d, name):
    """The window's pixels: (width, height, bytes per pixel, rows)."""
    path = "%s.%s.png" % (shot[:-4], name)
    d.save_screenshot(path)
    return svgcheck.png_pixels(path)


def drawn(d, name, below):
    """How many pixels of the tab's screenshot, from y = BELOW down (under
    the navigation bar), are not the page's white."""
    w, h, bpp, rows = screenshot(d, name)
    white = bytes([255] * bpp)
    n = 0
    for y in range(int(below), h):
        row = bytes(rows[y])
        n += w - sum(1 for x in range(0, w * bpp, bpp) if row[x:x + bpp] == white)
    assert n > 2000, "tab %s looks blank: %d pixels drawn" % (name, n)
    return n


def no_alert(d, what):
    try:
        a = d.switch_to.alert
        raise AssertionError("%s: an alert: %r" % (what, a.text))
    except NoAlertPresentException:
        pass


def tab(d, name):
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="%s"]' % name).click()
    shown = [s.get_attribute("id") for s in
             d.find_elements(By.CSS_SELECTOR, "section.tab:not(.off)")]
    assert shown == [name], "tab %s: shown %r" % (name, shown)


def column(d, i):
    return [r.find_elements(By.TAG_NAME, "td")[i].get_attribute("textContent")
            for r in d.find_elements(By.CSS_SELECTOR, "#top-table tbody tr")]


def values(d, i):
    return [int(r.find_elements(By.TAG_NAME, "td")[i].get_attribute("data-v"))
            for r in d.find_elements(By.CSS_SELECTOR, "#top-table tbody tr")]


with webdriver.session(1300, 900) as d:
    d.get("file://" + page)
    webdriver.no_console_errors(d, "load")
    no_alert(d, "load")
    assert d.find_element(By.ID, "summary").is_displayed(), "summary not shown first"
    # Tabs.
    tab(d, "top")
    assert d.find_element(By.ID, "top-table").is_displayed()
    # Sort: by name (ascending), then by cum (largest first).
    heads = d.find_elements(By.CSS_SELECTOR, "#top-table th")
    heads[4].click()
    got = column(d, 4)
    assert got == sorted(got) and len(got) >= 3, "by name: %r" % got
    heads[2].click()
    cum = values(d, 2)
    assert cum == sorted(cum, reverse=True), "by cum: %r" % cum
    heads[2].click()
    assert values(d, 2) == sorted(cum), "second click: %r" % values(d, 2)
    # The flame graph zooms on a click.
    tab(d, "flame")
    d.switch_to.frame(d.find_element(By.CSS_SELECTOR, "iframe.flame"))
    frame = None
    for g in d.find_elements(By.CSS_SELECTOR, "#frames > g"):
        t = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        if t.startswith("remember ("):
            frame = g
    assert frame is not None, "no frame for remember"
    rect = frame.find_element(By.TAG_NAME, "rect")
    before = float(rect.get_attribute("width"))
    rect.click()
    after = float(rect.get_attribute("width"))
    assert after > before + 100, "no zoom: %s -> %s" % (before, after)
    assert d.find_element(By.ID, "unzoom").is_displayed(), "no Reset Zoom"
    d.switch_to.default_content()
    # The call graph's pan-and-zoom script ran (it wraps the graph).
    tab(d, "graph")
    frames = d.find_elements(By.CSS_SELECTOR, "iframe.graph")
    if frames:
        d.switch_to.frame(frames[0])
        assert d.find_elements(By.ID, "viewport"), "the graph's script did not run"
        d.switch_to.default_content()
    tab(d, "source")
    # listhtml.c's table: lines shaded by their share, the style its own.
    rows = d.find_elements(By.CSS_SELECTOR, "#listing table.src tr.hot")
    assert rows, "no shaded source line"
    bg = rows[0].find_elements(By.CSS_SELECTOR, "td.v")[0].value_of_css_property(
        "background-color")
    assert bg.startswith("rgba(220, 40, 20"), "source shading: %s" % bg
    assert d.find_element(By.CSS_SELECTOR, "#listing h2").value_of_css_property(
        "font-family") == "monospace", "the listing's own style is not applied"
    tab(d, "top")
    color = d.find_element(By.ID, "top-note").value_of_css_property("color")
    assert color == "rgba(85, 85, 85, 1)", "the listing's style leaked: %s" % color
    webdriver.no_console_errors(d, "after the clicks")
    no_alert(d, "after the clicks")

    # Every tab's screenshot holds a picture of it (the page afresh:
    # the flame graph unzoomed).
    d.get("file://" + page)
    tab(d, "top")
    heaviest = column(d, 4)[0]
    nav_h = d.find_element(By.TAG_NAME, "nav").rect["height"]
    counts = {}
    # (The call graph only when built with Graphviz: else a note.)
    for name in ("summary", "top", "flame", "graph", "source"):
        if name == "graph" and not d.find_elements(By.CSS_SELECTOR, "iframe.graph"):
            continue
        tab(d, name)
        d.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        counts[name] = drawn(d, name, nav_h + 60)
    # The flame graph: the frame of the heaviest function (the top
    # table's first row), in its colour across its width in the window.
    tab(d, "flame")
    fr = d.find_element(By.CSS_SELECTOR, "iframe.flame")
    off = fr.rect
    d.switch_to.frame(fr)
    best = None
    for g in d.find_elements(By.CSS_SELECTOR, "#frames > g"):
        r = g.find_element(By.TAG_NAME, "rect")
        t = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        if not t.startswith(heaviest + " ("):
            continue
        wd = float(r.get_attribute("width"))
        if best is None or wd > best[0]:
            best = (wd, float(r.get_attribute("x")), float(r.get_attribute("y")),
                    r.get_attribute("fill"), t)
    d.switch_to.default_content()
    assert best is not None, "no frame for %r" % heaviest
    wd, x, y, fill, title = best
    want = tuple(int(v) for v in re.findall(r"\d+", fill))
    w, h, bpp, px = screenshot(d, "flame-frame")
    # The frame's row, from its left edge to its right, at mid-height
    # (the iframe's border is 1 px).
    yy = int(off["y"] + 1 + y + 4)
    assert yy < h, "the frame %r is below the window (y %d)" % (title, yy)
    xs = [int(off["x"] + 1 + x + k) for k in range(2, int(wd) - 2)]
    hit = [xx for xx in xs if xx < w and tuple(px[yy][xx * bpp:xx * bpp + 3]) == want]
    assert len(hit) >= 0.5 * len(xs), \
        "heaviest frame %r (%s): its colour in %d of %d pixels of its row" % (
            title, fill, len(hit), len(xs))
    print("screenshots: %r; heaviest frame %r: %d of %d pixels in %s" % (
        counts, title.split(" (")[0], len(hit), len(xs), fill))
    d.save_screenshot(shot)

    # The comparison table of a change sorts on a click; TOTAL stays last.
    d.get("file://" + diff)
    webdriver.no_console_errors(d, "diff load")
    tab(d, "compare")
    counts["compare"] = drawn(d, "compare", nav_h + 60)

    def cmp_col(i, attr=None):
        out = []
        for r in d.find_elements(By.CSS_SELECTOR, "#compare-table tbody tr"):
            c = r.find_elements(By.TAG_NAME, "td")[i]
            out.append(int(c.get_attribute(attr)) if attr else
                       c.get_attribute("textContent"))
        return out
    heads = d.find_elements(By.CSS_SELECTOR, "#compare-table th")
    titles = [h.get_attribute("textContent") for h in heads]
    assert titles[:6] == ["name", "base", "current", "\u0394", "\u0394%", "state"], titles
    first_order = cmp_col(0)
    assert len(first_order) >= 2, "comparison rows: %r" % first_order
    heads[0].click()
    got = cmp_col(0)
    assert got == sorted(first_order), "by name: %r" % got
    heads[0].click()
    assert cmp_col(0) == sorted(first_order, reverse=True), "by name, again: %r" % cmp_col(0)
    for i in (1, 2, 3):
        heads[i].click()
        v = cmp_col(i, "data-v")
        assert v == sorted(v, reverse=True), "column %s: %r" % (titles[i], v)
        heads[i].click()
        assert cmp_col(i, "data-v") == sorted(v), "column %s, again" % titles[i]
    heads[5].click()
    st = cmp_col(5)
    assert st == sorted(st), "by state: %r" % st
    last = d.find_elements(By.CSS_SELECTOR, "#compare-table tr")[-1]
    assert last.find_element(By.TAG_NAME, "td").get_attribute("textContent") == "TOTAL"
    webdriver.no_console_errors(d, "comparison clicks")
    no_alert(d, "comparison clicks")

    # Hostile names: text everywhere, no script of theirs.
    names = [l for l in open(names_file, encoding="utf-8").read().split("\n") if l]
    d.get("file://" + hostile)
    time.sleep(0.5)
    no_alert(d, "hostile load")
    webdriver.no_console_errors(d, "hostile load")
    got = d.execute_script("return Array.prototype.map.call(document.scripts,"
                           " function (s) { return [s.type, s.id]; })")
    assert got == [["application/json", "live-data"], ["", ""], ["", ""]], \
        "scripts in the page: %r" % got
    assert not d.find_elements(By.TAG_NAME, "img"), "an <img> in the page"
    tab(d, "top")
    shown = column(d, 4)
    for n in names:
        assert n in shown, "top table lacks %r: %r" % (n, shown)
    tab(d, "flame")
    d.switch_to.frame(d.find_element(By.CSS_SELECTOR, "iframe.flame"))
    assert d.execute_script("return document.querySelectorAll('script').length") == 1
    titles = [t.get_attribute("textContent")
              for t in d.find_elements(By.CSS_SELECTOR, "#frames title")]
    for n in names:
        assert any(t.startswith(n + " (") for t in titles), "flame lacks %r" % n
    for g in d.find_elements(By.CSS_SELECTOR, "#frames > g")[1:3]:
        g.find_element(By.TAG_NAME, "text").click()
    d.switch_to.default_content()
    tab(d, "graph")
    tab(d, "source")
    no_alert(d, "hostile clicks")
    webdriver.no_console_errors(d, "hostile clicks")

    # A picture larger than a URL may be.
    d.get("file://" + big)
    tab(d, "flame")
    d.switch_to.frame(d.find_element(By.CSS_SELECTOR, "iframe.flame"))
    n = len(d.find_elements(By.CSS_SELECTOR, "#frames > g"))
    assert n > 20000, "big flame graph: %d frames drawn" % n
    d.switch_to.default_content()
    webdriver.no_console_errors(d, "big page")
    print("tabs, sort, zoom, hostile names and a %d-frame flame graph work" % n)
PY
webdriver "$TMP/drive.py" "$TMP/one.html" "$TMP/h.html" "$TMP/names" "$TMP/report.png" \
    "$TMP/big.html" "$TMP/diff.html" \
    >"$TMP/drive.out" 2>&1 || fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${REPORT_SCREENSHOT-}" ] && cp "$TMP/report.png" "$REPORT_SCREENSHOT"
finish
