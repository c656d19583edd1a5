# SPDX-License-Identifier: MIT
# report-webdriver.sh - profconv report's page as a person uses it, in
# headless Chromium through WebDriver (real clicks), opened from file://:
# no console error (a CSP violation is one) and no alert, the tabs
# switch, the top table sorts on a click of a header, the embedded flame
# graph zooms on a click of a frame and the call graph's script runs;
# on a profile whose names are markup, the names show as text, the page
# and its pictures run only their own scripts, and no alert fires; a
# flame graph of 8 MB (past Chromium's 2 MB limit on URLs) is drawn.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v cc >/dev/null 2>&1 || skip "no C compiler"
[ -e /usr/include/gperftools/heap-profiler.h ] || skip "libgoogle-perftools-dev missing"
export LC_ALL=C

cc -O1 -g -fno-omit-frame-pointer -o "$TMP/leaky" \
    "$PROFCONV_SRCDIR/examples/leaky.c" -ltcmalloc || skip "cannot build examples/leaky.c"
HEAPPROFILE=$TMP/leaky "$TMP/leaky" 20000 2>/dev/null || fail "leaky failed"
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
run 0 "$PROFCONV" report "$heap" -o "$TMP/one.html"

printf '%s\n' '<script>alert(1)</script>' ']]>end' '</svg><script>alert(2)</script>' \
    '</iframe><img src=x onerror=alert(3)>' >"$TMP/names"
n=0
while IFS= read -r name; do
	n=$((n + 1))
	printf 'main;%s %d\n' "$name" $((n * 100))
done <"$TMP/names" >"$TMP/h.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/h.folded" \
    "$TMP/h.pb" || fail "cannot write h.pb"
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
import os, sys, time
sys.path.insert(0, os.path.join(os.environ["PROFCONV_SRCDIR"], "tests/cli"))
import webdriver
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoAlertPresentException

page, hostile, names_file, shot, big = sys.argv[1:6]


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
    assert "ROUTINE" in d.find_element(By.ID, "source").get_attribute("textContent")
    webdriver.no_console_errors(d, "after the clicks")
    no_alert(d, "after the clicks")
    d.save_screenshot(shot)

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
    "$TMP/big.html" \
    >"$TMP/drive.out" 2>&1 || fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${REPORT_SCREENSHOT-}" ] && cp "$TMP/report.png" "$REPORT_SCREENSHOT"
finish
