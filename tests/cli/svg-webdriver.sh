# SPDX-License-Identifier: MIT
# svg-webdriver.sh - profflame's SVG driven as a person drives it: real
# pointer moves and clicks through WebDriver (headless Chromium), on the
# quick start's profile made now.  Hovering a frame shows its details,
# clicking it zooms (its rect then spans the picture), Reset Zoom undoes
# it, the search button asks for a pattern and highlights the matches, and
# the console stays free of errors throughout.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
export LC_ALL=C

leaky_dumps
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
svg=$TMP/leaky.svg
"$CMD/profflame" --svg -t inuse_space "$heap" -o "$svg" 2>/dev/null || fail "profflame --svg"

cat >"$TMP/drive.py" <<'PY'
import os, sys
import webdriver
from selenium.webdriver.common.by import By

svg = sys.argv[1]
with webdriver.session(1200, 900) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    frames = d.find_elements(By.CSS_SELECTOR, "#frames > g")
    assert frames, "no frames"
    def named(name):
        for g in frames:
            t = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
            if t.startswith(name + " ("):
                return g, t
        raise AssertionError("no frame " + name)
    g, title = named("make_request_buffer")
    rect = g.find_element(By.TAG_NAME, "rect")
    webdriver.hover(d, rect)
    details = d.find_element(By.ID, "details").get_attribute("textContent")
    assert "make_request_buffer" in details, "hover: details say %r" % details
    full = float(d.find_element(By.CSS_SELECTOR, "#frames > g rect").get_attribute("width"))
    before = float(rect.get_attribute("width"))
    rect.click()
    after = float(rect.get_attribute("width"))
    assert after > before, "click did not zoom (%s -> %s)" % (before, after)
    d.find_element(By.ID, "unzoom").click()
    again = float(rect.get_attribute("width"))
    assert abs(again - before) < 0.5, "reset zoom: %s, was %s" % (again, before)
    d.find_element(By.ID, "search").click()
    alert = d.switch_to.alert
    alert.send_keys("^remember$")
    alert.accept()
    matched = d.find_element(By.ID, "matched").get_attribute("textContent")
    assert "Matched:" in matched, "search: %r" % matched
    webdriver.no_console_errors(d, "after the clicks")
    print("hover, zoom, reset and search work; %s" % matched.strip())
PY
webdriver "$TMP/drive.py" "$svg" >"$TMP/drive.out" 2>&1 || fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
