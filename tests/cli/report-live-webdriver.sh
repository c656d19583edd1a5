# SPDX-License-Identifier: MIT
# report-live-webdriver.sh - profconv report's Explore tab as a person
# uses it, in headless Chromium through WebDriver (real clicks and
# keys), opened from file://, on the quick start's leaky program under
# tcmalloc: for every sample type the table's rows and total are show
# --summary -t TYPE's; a focus and an ignore typed into the page give
# the totals, rows and flame graph root of show --summary --focus /
# --ignore; the table by line and by file holds go tool pprof -top
# -lines / -files' values; the icicle toggle moves the root from the
# bottom to the top; a click zooms a frame to the full width; a search
# highlights and states the matched share; the screenshot is not blank
# and shows the heaviest frame's colour where that frame is.  Names that
# are markup show as text, with no alert and no console error.  In the
# page of a series, a click on a snapshot opens its flame graph, whose
# root is show --summary's total of that file, and a click on a
# verdict's row the last snapshot's focused on its function.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
export LC_ALL=C

leaky_dumps 200000
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
run 0 "$PROFCONV" report "$heap" -o "$TMP/one.html"
# The series, and each snapshot's total for the clicks on its rows.
run 0 "$PROFCONV" report "$TMP"/leaky.*.heap -o "$TMP/series.html"
for f in "$TMP"/leaky.*.heap; do
	printf '%s %s\n' "$f" "$("$PROFCONV" show --summary "$f" 2>/dev/null |
	    sed -n 's/^total inuse_space\/bytes: \([0-9]*\).*/\1/p')"
done >"$TMP/snapshots"
"$PROFCONV" show --summary --focus '^make_request_buffer$' "$heap" >"$TMP/sum.leak" \
    2>/dev/null || fail "show --focus the leak"

# What the command-line tools say, one file each.
types="alloc_objects alloc_space inuse_objects inuse_space"
for t in $types; do
	"$PROFCONV" show --summary --sort flat -n 1000 -t $t "$heap" \
	    >"$TMP/sum.$t" 2>/dev/null || fail "show -t $t"
done
"$PROFCONV" show --summary --sort flat -n 1000 -t alloc_space --focus remember \
    "$heap" >"$TMP/sum.focus" 2>/dev/null || fail "show --focus"
"$PROFCONV" show --summary --sort flat -n 1000 -t alloc_space \
    --ignore scratch_work "$heap" >"$TMP/sum.ignore" 2>/dev/null || fail "show --ignore"
pprof=
if command -v go >/dev/null 2>&1 && go_env && go tool pprof -h >/dev/null 2>&1; then
	pprof=yes
	go tool pprof -top -lines -unit=byte -sample_index=alloc_space \
	    "$TMP/leaky" "$heap" >"$TMP/pprof.lines" 2>/dev/null ||
		fail "go tool pprof -lines"
	go tool pprof -top -files -unit=byte -sample_index=alloc_space \
	    "$TMP/leaky" "$heap" >"$TMP/pprof.files" 2>/dev/null ||
		fail "go tool pprof -files"
else
	echo "no go tool pprof: by line and by file are not compared" >&2
fi

printf '%s\n' '</script><script>alert(1)</script>' '<!--' \
    '<img src=x onerror=alert(2)>' "quote\"and'apos&amp" >"$TMP/names"
names_profile "$TMP/names"
run 0 "$PROFCONV" report --demangle none "$TMP/h.pb" -o "$TMP/h.html"

cat >"$TMP/drive.py" <<'PY'
import os, re, struct, sys, time, zlib
import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from selenium.common.exceptions import NoAlertPresentException

tmp, pprof = sys.argv[1], sys.argv[2] == "yes"
TYPES = ["alloc_objects", "alloc_space", "inuse_objects", "inuse_space"]


def show(path, t="alloc_space"):
    """show --summary's total of T and function rows {name: (flat, cum)}."""
    total, rows, on = None, {}, False
    for line in open(path):
        m = re.match(r"total (\S+)/\S+: (\d+)", line)
        if m and m.group(1) == t:
            total = int(m.group(2))
        if line.startswith("top ") and " functions " in line:
            on = True
            continue
        if on:
            f = line.split(None, 4)
            if len(f) < 5:
                break
            rows[f[4].rstrip("\n")] = (int(f[0]), int(f[2]))
    return total, rows


def pprof_rows(path):
    rows = {}
    for line in open(path):
        m = re.match(r"\s*(\d+)\S*\s+\S+\s+\S+\s+(\d+)\S*\s+\S+\s+(\S.*)$", line)
        # rows of a source file (not pprof's "[module]" ones)
        if m and "/" in m.group(3):
            rows[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return rows


def no_alert(d, what):
    try:
        a = d.switch_to.alert
        raise AssertionError("%s: an alert: %r" % (what, a.text))
    except NoAlertPresentException:
        pass


def table(d):
    out = {}
    for r in d.find_elements(By.CSS_SELECTOR, "#live-top tbody tr"):
        td = r.find_elements(By.TAG_NAME, "td")
        out[td[5].get_attribute("textContent")] = (
            int(float(td[0].get_attribute("data-v"))),
            int(float(td[3].get_attribute("data-v"))))
    return out


def kept(d):
    return int(float(d.find_element(By.ID, "live-total").get_attribute("data-v")))


def root(d):
    return int(float(d.find_element(By.ID, "live-flame").get_attribute("data-root")))


def typed(d, id, text):
    e = d.find_element(By.ID, id)
    e.clear()
    e.send_keys(text + Keys.ENTER)


def frame_of(d, name):
    for g in d.find_elements(By.CSS_SELECTOR, "#live-flame g.lf"):
        if g.find_element(By.TAG_NAME, "title").get_attribute(
                "textContent").startswith(name + " ("):
            return g
    raise AssertionError("no frame %s" % name)


def png_pixels(path):
    """Width, height and a function giving (r, g, b) of a pixel of an
    8-bit RGB or RGBA PNG, as Chromium writes screenshots."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and inter == 0
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for y in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


with webdriver.session(1300, 900) as d:
    d.get("file://" + os.path.join(tmp, "one.html"))
    webdriver.no_console_errors(d, "load")
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="live"]').click()
    sel = Select(d.find_element(By.ID, "live-type"))
    # Every sample type: the totals and rows of show --summary -t TYPE.
    for k, t in enumerate(TYPES):
        sel.select_by_visible_text(t + ("/count" if "objects" in t else "/bytes"))
        total, want = show(os.path.join(tmp, "sum." + t), t)
        want = {n: v for n, v in want.items() if v != (0, 0)}
        assert kept(d) == total, "%s: kept %d, show %d" % (t, kept(d), total)
        assert table(d) == want, "%s: table %r\nshow %r" % (t, table(d), want)
        assert sum(v[0] for v in table(d).values()) == total
        assert root(d) == total, "%s: flame root %d" % (t, root(d))
    sel.select_by_visible_text("alloc_space/bytes")
    # The call graph tab shows the graph of the type switched to (one
    # frame shown, its legend naming the type, the heaviest node in it).
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="graph"]').click()
    shown = [g for g in d.find_elements(By.CSS_SELECTOR, "#graph div.graph-type")
             if g.is_displayed()]
    if d.find_elements(By.CSS_SELECTOR, "#graph iframe"):
        assert len(shown) == 1 and shown[0].get_attribute("data-type") == "1", \
            "graphs shown: %r" % [g.get_attribute("data-type") for g in shown]
        d.switch_to.frame(shown[0].find_element(By.TAG_NAME, "iframe"))
        text = d.execute_script("return document.documentElement.textContent")
        box = d.execute_script("var r = document.documentElement."
                               "getBoundingClientRect(); return [r.width, r.height]")
        d.switch_to.default_content()
        assert "alloc_space" in text and "scratch_work" in text, \
            "the graph shown is not alloc_space's"
        assert box[0] > 100 and box[1] > 100, "graph drawn at %r" % box
        d.save_screenshot(os.path.join(tmp, "graph.png"))
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="live"]').click()
    # Focus, then ignore, typed into the page.
    for what, id, rx in (("focus", "live-focus", "remember"),
                         ("ignore", "live-ignore", "scratch_work")):
        typed(d, id, rx)
        total, want = show(os.path.join(tmp, "sum." + what))
        want = {n: v for n, v in want.items() if v != (0, 0)}
        assert kept(d) == total, "%s: kept %d, show %d" % (what, kept(d), total)
        assert root(d) == total, "%s: flame root %d, show %d" % (what, root(d), total)
        assert table(d) == want, "%s: table %r\nshow %r" % (what, table(d), want)
        assert d.find_element(By.CSS_SELECTOR, "#graph p.live-whole"). \
            get_attribute("hidden") is None, "%s: the graph tab does not say" % what
        typed(d, id, "")
    total, _ = show(os.path.join(tmp, "sum.alloc_space"))
    assert kept(d) == total, "filters cleared: %d" % kept(d)
    # By line and by file: go tool pprof's values.
    by = Select(d.find_element(By.ID, "live-by"))
    for mode, f in (("line", "pprof.lines"), ("file", "pprof.files")):
        by.select_by_value(mode)
        if not pprof:
            continue
        want, got = pprof_rows(os.path.join(tmp, f)), table(d)
        assert want, "no rows in %s" % f
        for n, v in want.items():
            assert got.get(n) == v, "by %s: %r is %r in the page, %r in pprof" % (
                mode, n, got.get(n), v)
    by.select_by_value("function")
    # Sorting by a click: cum descending, then ascending.
    heads = d.find_elements(By.CSS_SELECTOR, "#live-top th")
    heads[3].click()
    cum = [v[3] for v in [tuple(int(float(td.get_attribute("data-v"))) for td in
           r.find_elements(By.TAG_NAME, "td")[:4]) for r in
           d.find_elements(By.CSS_SELECTOR, "#live-top tbody tr")]]
    assert cum == sorted(cum, reverse=True) and len(cum) >= 3, "cum: %r" % cum
    # Icicle: the root goes from the bottom to the top.
    rect = d.find_element(By.CSS_SELECTOR, '#live-flame g[data-f="0"] rect')
    y0 = float(rect.get_attribute("y"))
    d.find_element(By.ID, "live-icicle").click()
    rect = d.find_element(By.CSS_SELECTOR, '#live-flame g[data-f="0"] rect')
    y1 = float(rect.get_attribute("y"))
    assert y1 == 0 and y0 > y1, "icicle: root y %s -> %s" % (y0, y1)
    d.find_element(By.ID, "live-icicle").click()
    # Zoom: a click on remember makes it the full width.
    before = float(frame_of(d, "remember").find_element(By.TAG_NAME, "rect").
                   get_attribute("width"))
    frame_of(d, "remember").find_element(By.TAG_NAME, "rect").click()
    after = float(frame_of(d, "remember").find_element(By.TAG_NAME, "rect").
                  get_attribute("width"))
    assert before < 100 and after > 1190, "zoom: %s -> %s" % (before, after)
    d.find_element(By.ID, "live-reset").click()
    # Search: remember's frames highlighted, their share stated.
    typed(d, "live-search", "^remember$")
    _, rows = show(os.path.join(tmp, "sum.alloc_space"))
    m = d.find_element(By.ID, "live-matched")
    assert int(float(m.get_attribute("data-v"))) == rows["remember"][1], \
        "matched %s, remember's cum %d" % (m.get_attribute("data-v"), rows["remember"][1])
    want = "Matched: %.2f%%" % (100.0 * rows["remember"][1] / total)
    assert m.text == want, "%r, %r expected" % (m.text, want)
    fill = frame_of(d, "remember").find_element(By.TAG_NAME, "rect").get_attribute("fill")
    assert fill == "rgb(230,0,230)", "search colour %s" % fill
    typed(d, "live-search", "")
    # Hover: the tooltip says the value and the share.
    webdriver.hover(d, frame_of(d, "scratch_work").find_element(By.TAG_NAME, "rect"))
    tip = d.find_element(By.ID, "live-tip")
    assert tip.is_displayed() and tip.text.startswith("scratch_work ("), \
        "tooltip %r" % tip.text
    webdriver.no_console_errors(d, "after the clicks")
    no_alert(d, "after the clicks")
    # The screenshot: not blank, the heaviest frame's colour where it is.
    sel.select_by_visible_text("inuse_space/bytes")
    _, rows = show(os.path.join(tmp, "sum.inuse_space"), "inuse_space")
    heavy = max(rows, key=lambda n: (rows[n][0], n))
    g = frame_of(d, heavy)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", g)
    d.find_element(By.TAG_NAME, "body").click()  # no tooltip over it
    box = d.execute_script("var r = arguments[0].getBoundingClientRect();"
                           "return [r.left, r.top, r.width, r.height,"
                           " window.devicePixelRatio];",
                           g.find_element(By.TAG_NAME, "rect"))
    fill = g.find_element(By.TAG_NAME, "rect").get_attribute("fill")
    want = tuple(int(c) for c in re.findall(r"\d+", fill))
    shot = os.path.join(tmp, "live.png")
    d.save_screenshot(shot)
    w, h, px = png_pixels(shot)
    ratio = box[4]
    x = int((box[0] + box[2] - 4) * ratio)
    y = int((box[1] + 3) * ratio)
    got = px(x, y)
    assert all(abs(a - b) <= 3 for a, b in zip(got, want)), \
        "heaviest frame %s: %r at (%d, %d), %r expected" % (heavy, got, x, y, want)
    colours = set(px(xx, yy) for xx in range(0, w, 7) for yy in range(0, h, 7))
    assert len(colours) > 10, "a blank screenshot (%d colours)" % len(colours)

    # Names that are markup: text in the table and the flame graph.
    names = [l for l in open(os.path.join(tmp, "names"), encoding="utf-8").read().split("\n") if l]
    d.get("file://" + os.path.join(tmp, "h.html"))
    time.sleep(0.3)
    no_alert(d, "hostile load")
    webdriver.no_console_errors(d, "hostile load")
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="live"]').click()
    assert not d.find_elements(By.TAG_NAME, "img"), "an <img> in the page"
    shown = table(d)
    for n in names:
        assert n in shown, "table lacks %r: %r" % (n, list(shown))
        frame_of(d, n)
    frame_of(d, names[0]).find_element(By.TAG_NAME, "rect").click()
    no_alert(d, "hostile clicks")
    webdriver.no_console_errors(d, "hostile clicks")

    # A series: a click on a snapshot's row opens its flame graph, whose
    # root is that snapshot's total; on a verdict's row, the last
    # snapshot's focused on the row's function.
    totals = dict(l.split() for l in open(os.path.join(tmp, "snapshots")))
    d.get("file://" + os.path.join(tmp, "series.html"))
    webdriver.no_console_errors(d, "series load")
    rows = d.find_elements(By.CSS_SELECTOR, "#snapshots tbody tr")
    assert len(rows) >= 4, "%d snapshots" % len(rows)
    for k in (0, len(rows) // 2, len(rows) - 1):
        rows = d.find_elements(By.CSS_SELECTOR, "#snapshots tbody tr")
        name = rows[k].find_elements(By.TAG_NAME, "td")[1].get_attribute(
            "textContent").split(" [")[0]
        d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="trend"]').click()
        rows[k].click()
        assert d.find_element(By.ID, "live").is_displayed(), "no Explore tab"
        assert root(d) == int(totals[name]), "%s: root %d, show %s" % (
            name, root(d), totals[name])
        assert kept(d) == int(totals[name])
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="verdicts"]').click()
    leak = None
    for r in d.find_elements(By.CSS_SELECTOR, "#verdict-table tbody tr"):
        if r.find_elements(By.TAG_NAME, "td")[5].get_attribute(
                "textContent") == "make_request_buffer":
            leak = r
    assert leak is not None, "no verdict row for make_request_buffer"
    leak.click()
    total, _ = show(os.path.join(tmp, "sum.leak"), "inuse_space")
    assert root(d) == total and kept(d) == total, \
        "verdict click: root %d, show --focus %d" % (root(d), total)
    assert d.find_element(By.ID, "live-focus").get_attribute("value") == \
        "^make_request_buffer$"
    webdriver.no_console_errors(d, "series clicks")
    no_alert(d, "series clicks")
    print("types, focus, ignore, lines, files, icicle, zoom, search, "
          "screenshot, hostile names and series clicks work")
PY
webdriver "$TMP/drive.py" "$TMP" "$pprof" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${REPORT_SCREENSHOT-}" ] && cp "$TMP/live.png" "$REPORT_SCREENSHOT"
finish
