# SPDX-License-Identifier: MIT
# report-threads-webdriver.sh - the page of profconv report --by-thread,
# in headless Chromium through WebDriver, on a real jemalloc series made
# now by tests/producers/threadleak.c: a click on the suspect's row
# ("thread N (worker-2): hold") opens the Explore tab's flame graph
# zoomed to worker-2's thread, focused on hold, its width worker-2's
# hold in the last snapshot (what the page's data holds for it); no
# console error.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
use_jemalloc
export LC_ALL=C
STEPS=6

je_producer threadleak $STEPS
run 0 "$PROFCONV" report --by-thread -o "$TMP/page.html" "$TMP"/je/je.*.heap

cat >"$TMP/drive.py" <<'PY'
import json, os, re, sys, time
import webdriver
from selenium.webdriver.common.by import By

page = sys.argv[1]
html = open(page, encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="live-data">(.*?)</script>',
                         html, re.S).group(1))
assert d.get("threads") is True, "the data does not say it is per thread"
# worker-2's hold in the last snapshot, from the data.
par, S, nt = d["parent"], d["strings"], len(d["types"])
n = len(par)
cum = [0] * n
for key in ("self", "pruned"):
    c = d[key][nt - 1]
    for i, v in zip(c["i"], c["v"]):
        cum[i] += v
def thread_of(i):
    while par[i] != 0:
        i = par[i]
    return S[d["func"][i]]
want = sum(cum[i] for i in range(1, n)
           if S[d["func"][i]] == "hold" and "(worker-2)" in thread_of(i))
assert want > 0, "no hold of worker-2 in the data"

with webdriver.session(1300, 900) as drv:
    drv.get("file://" + page)
    webdriver.no_console_errors(drv, "load")
    drv.find_element(By.CSS_SELECTOR, 'nav button[data-tab="verdicts"]').click()
    row = None
    for r in drv.find_elements(By.CSS_SELECTOR, "#verdict-table tbody tr"):
        if re.match(r"^thread \d+ \(worker-2\): hold$", r.find_elements(By.TAG_NAME, "td")[-1].text):
            row = r
    assert row is not None, "no row of worker-2's hold"
    row.click()
    time.sleep(0.5)
    assert drv.find_element(By.ID, "live").is_displayed(), "Explore not opened"
    focus = drv.find_element(By.ID, "live-focus").get_attribute("value")
    assert focus == "^hold$", "focus %r" % focus
    s = drv.execute_script("""
        var g = document.getElementById('live-flame'), fs = [];
        g.querySelectorAll('g.lf').forEach(function (e) {
            var r = e.querySelector('rect');
            fs.push({name: e.querySelector('title').textContent,
                     x: +r.getAttribute('x'), w: +r.getAttribute('width')});
        });
        return {zoom: document.getElementById('live').liveState.zoom,
                width: +g.getAttribute('width'), frames: fs};""")
    assert s["zoom"] != 0, "not zoomed"
    full = [f for f in s["frames"] if f["w"] > s["width"] - 2]
    names = [f["name"] for f in full]
    assert any(re.match(r"^thread \d+ \(worker-2\) \(", x) for x in names), \
        "worker-2's thread is not the full width: %r" % names
    assert not any("(worker-1)" in x or "(churner)" in x for x in
                   (f["name"] for f in s["frames"])), "other threads drawn"
    holds = [f for f in s["frames"] if f["name"].startswith("hold (")]
    assert holds, "no hold frame"
    got = int(re.match(r"hold \(([\d,]+) ", holds[0]["name"]).group(1).replace(",", ""))
    assert got == want, "hold %d, the data %d" % (got, want)
    webdriver.no_console_errors(drv, "click")
    print("worker-2's hold: %d bytes" % got)
PY
webdriver "$TMP/drive.py" "$TMP/page.html" || fail "a thread's verdict row"

finish
