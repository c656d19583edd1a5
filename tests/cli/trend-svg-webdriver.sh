# SPDX-License-Identifier: MIT
# trend-svg-webdriver.sh - proftrend's SVG driven as a person drives it,
# through WebDriver (headless Chromium) with real pointer moves, on real
# gperftools dumps made now by tests/trend/patterns.c: it renders without
# console errors; the pointer on a band shows its name, verdict and
# figures at the snapshot under it; on a legend line, that row's; the
# search button asks for a pattern, outlines the matching bands and fades
# the others, and resets; ?s= searches on load; a screenshot shows every
# band's and swatch's colour where the SVG puts it.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v cc >/dev/null 2>&1 || skip "no C compiler"
need_tcmalloc
export LC_ALL=C
CHECK=$PROFCONV_SRCDIR/tests/cli/trend-svg-check.py

cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat" \
    "$PROFCONV_SRCDIR/tests/trend/patterns.c" -Wl,--no-as-needed -ltcmalloc ||
	skip "cannot build patterns with tcmalloc"
HEAPPROFILE=$TMP/tc "$TMP/pat" 12 2>/dev/null || fail "patterns failed"
svg=$TMP/trend.svg
"$CMD/proftrend" -q --svg -o "$svg" "$TMP"/tc.*.heap
[ $? -le 1 ] || fail "proftrend --svg failed"
[ -s "$svg" ] || fail "no SVG"

cat >"$TMP/drive.py" <<'PY'
import os, re, sys
import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder

svg, shot = sys.argv[1], sys.argv[2]


def bands(d):
    out = {}
    for g in d.find_elements(By.CSS_SELECTOR, "#bands > g"):
        t = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        out[t[:t.rfind(" (")]] = g
    return out


def inside(g):
    """A point well inside band G: its thickest drawn snapshot."""
    d = g.find_element(By.TAG_NAME, "path").get_attribute("d")
    pts = [tuple(map(float, p.split(","))) for p in re.findall(r"[-0-9.]+,[-0-9.]+", d)]
    k = len(pts) // 2
    top, bottom = pts[:k], list(reversed(pts[k:]))
    j = max(range(1, k - 1), key=lambda i: bottom[i][1] - top[i][1])
    return int(top[j][0]) - 1, int((top[j][1] + bottom[j][1]) / 2)


def point_at(d, x, y):
    a = ActionBuilder(d)
    a.pointer_action.move_to_location(x, y)
    a.perform()


def text(d, id):
    return d.find_element(By.ID, id).get_attribute("textContent")


with webdriver.session(1200, 700) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    b = bands(d)
    for name in ("steady_leak", "slow_leak", "sawtooth", "other"):
        assert name in b, "no band %s: %r" % (name, list(b))
    # The pointer on a band: its name, verdict, figures, the snapshot.
    x, y = inside(b["steady_leak"])
    point_at(d, x, y)
    det = text(d, "details")
    for want in ("steady_leak", "verdict leak", "first 64.0", "grew in",
                 "at snapshot"):
        assert want in det, "hover steady_leak: %r lacks %r" % (det, want)
    cur = d.find_element(By.ID, "cursor")
    assert "hide" not in (cur.get_attribute("class") or ""), "no cursor line"
    x, y = inside(b["sawtooth"])
    point_at(d, x, y)
    det = text(d, "details")
    assert det.startswith("sawtooth"), "hover sawtooth: %r" % det
    # A legend line.
    item = d.find_element(By.CSS_SELECTOR, "#legend > g[data-band='1'] rect")
    webdriver.hover(d, item)
    det = text(d, "details")
    # The legend's second line is the second band, whichever row that
    # is (rows rank by swing).
    second = [n for n, g in bands(d).items()
              if g.get_attribute("data-band") == "1"]
    assert len(second) == 1, "no band 1: %r" % list(bands(d))
    assert det.startswith(second[0] + " ") and "verdict " in det, \
        "legend: %r is not band 1 (%s)" % (det, second[0])
    # Search: the button asks, matches are outlined, the rest faded.
    point_at(d, 5, 5)
    d.find_element(By.ID, "search").click()
    alert = d.switch_to.alert
    alert.send_keys("_leak$")
    alert.accept()
    for name, g in b.items():
        cls = g.get_attribute("class")
        want = "match" if name.endswith("_leak") else "dim"
        assert want in cls.split(), "search: %s has class %r" % (name, cls)
    m = text(d, "matched")
    assert m.startswith("Matched: 2 bands"), "matched: %r" % m
    d.find_element(By.ID, "search").click()
    for name, g in b.items():
        cls = g.get_attribute("class").split()
        assert "match" not in cls and "dim" not in cls, "reset: %s %r" % (name, cls)
    assert text(d, "matched").strip() == "", "reset: matched still says something"
    # ?s= on load.
    d.get("file://" + svg + "?s=^sawtooth$")
    b = bands(d)
    assert "match" in b["sawtooth"].get_attribute("class").split(), "?s=: no match"
    assert "dim" in b["steady_leak"].get_attribute("class").split(), "?s=: not faded"
    webdriver.no_console_errors(d, "after hover and search")
    # A plain picture for the pixels.
    d.get("file://" + svg)
    point_at(d, 1, 1)
    d.save_screenshot(shot)
    webdriver.no_console_errors(d, "reload")
    print("hover, legend, search, reset and ?s= work")
PY
webdriver "$TMP/drive.py" "$svg" "$TMP/shot.png" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
python3 "$CHECK" points "$svg" >"$TMP/points" || fail "cannot find points to check"
python3 "$CHECK" png "$TMP/shot.png" "$TMP/points" >"$TMP/checked" ||
	fail "the screenshot does not show the bands' colours"
[ "$(cat "$TMP/checked")" -ge 8 ] || fail "only $(cat "$TMP/checked") points checked"
finish
