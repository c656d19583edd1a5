# SPDX-License-Identifier: MIT
# report-diff-webdriver.sh - the Explore tab of profconv report --base
# OLD NEW, in headless Chromium through WebDriver (real clicks and
# keys, from file://), on the first and last dumps of the quick start's
# leaky program under tcmalloc (report.sh's pair): for every sample type
# the table's base and current of each function are profdiff --json's
# values of that type, its change and the change in percent of the
# base's total follow; a focus typed into the page gives profdiff
# --focus's; the flame graph's root holds both totals, a frame's
# tooltip is pprof's "+N unit (+P%) | base -> cur | name" with its
# values, a frame that grew is red and its depth follows the change on
# the scale of the largest one drawn; a click on a header sorts; no
# console error.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
export LC_ALL=C

leaky_dumps 200000
first=$(ls "$TMP"/leaky.*.heap | sort | head -n 1)
last=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)
[ "$first" != "$last" ] || fail "one dump only"
run 0 "$PROFCONV" report --base "$first" "$last" -o "$TMP/diff.html"
PROFDIFF=$(dirname "$PROFCONV")/profdiff
# profdiff exits 1 when the profiles differ.
"$PROFDIFF" --json "$first" "$last" >"$TMP/all.json" 2>/dev/null
[ $? -eq 1 ] || fail "profdiff --json"
"$PROFDIFF" --json --focus remember "$first" "$last" >"$TMP/focus.json" \
    2>/dev/null
[ $? -eq 1 ] || fail "profdiff --json --focus"

cat >"$TMP/drive.py" <<'PY'
import json, os, re, sys
import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

tmp = sys.argv[1]


def profdiff(name, t):
    """profdiff --json's rows of type T: {name: (base, cur)}, and the
    base's and the current total."""
    d = json.load(open(os.path.join(tmp, name)))
    rows = {r["name"]: (r["values"][t]["base"], r["values"][t]["cur"])
            for r in d["rows"]}
    return rows, d["before"][t], d["after"][t]


def table(d):
    out = {}
    for r in d.find_elements(By.CSS_SELECTOR, "#live-top tbody tr"):
        td = r.find_elements(By.TAG_NAME, "td")
        v = [float(td[k].get_attribute("data-v")) for k in range(4)]
        out[td[4].get_attribute("textContent")] = (
            int(v[0]), int(v[1]), int(v[2]), td[3].get_attribute(
                "textContent"))
    return out


def check(d, what, file, t):
    want, bt, ct = profdiff(file, t)
    got = table(d)
    assert want, "%s: profdiff has no rows" % what
    for name, (b, c) in want.items():
        if b == 0 and c == 0:
            continue
        assert name in got, "%s: no row %r in %r" % (what, name, list(got))
        gb, gc, gd, gp = got[name]
        assert (gb, gc) == (b, c), "%s %s: page %d -> %d, profdiff %d -> %d" % (
            what, name, gb, gc, b, c)
        assert gd == c - b, "%s %s: change %d" % (what, name, gd)
        p = 100.0 * (c - b) / bt
        assert abs(float(gp.rstrip("%")) - p) < 0.006, \
            "%s %s: %s, %.4f%% expected" % (what, name, gp, p)
    for name, (gb, gc, gd, gp) in got.items():
        if name in want or name == "[no stack]":
            continue
        assert gb == 0 and gc == 0, "%s: row %r not in profdiff" % (what, name)
    g = d.find_element(By.ID, "live-flame")
    assert int(float(g.get_attribute("data-base"))) == bt and \
        int(float(g.get_attribute("data-cur"))) == ct, \
        "%s: flame root %s -> %s, profdiff %d -> %d" % (
            what, g.get_attribute("data-base"), g.get_attribute("data-cur"),
            bt, ct)
    return want, bt


with webdriver.session(1300, 900) as d:
    d.get("file://" + os.path.join(tmp, "diff.html"))
    webdriver.no_console_errors(d, "load")
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="live"]').click()
    sel = Select(d.find_element(By.ID, "live-type"))
    types = [o.text.split("/")[0] for o in sel.options]
    assert types == ["alloc_objects", "alloc_space", "inuse_objects",
                     "inuse_space"], types
    for k, t in enumerate(types):
        sel.select_by_index(k)
        n = len(check(d, t, "all.json", t)[0])
        assert n >= 3, "%s: %d rows" % (t, n)
    # A focus typed in the page.
    f = d.find_element(By.ID, "live-focus")
    f.clear()
    f.send_keys("remember" + Keys.ENTER)
    want, bt = check(d, "focus inuse_space", "focus.json", "inuse_space")
    f.clear()
    f.send_keys(Keys.ENTER)
    check(d, "unfocused", "all.json", "inuse_space")

    # The flame graph: tooltips in pprof's form, colours by change.
    rows, bt, ct = profdiff("all.json", "inuse_space")
    gs = d.find_elements(By.CSS_SELECTOR, "#live-flame g.lf")
    maxd = float(d.find_element(By.ID, "live-flame").get_attribute(
        "data-maxdelta"))
    assert maxd == max(abs(float(g.get_attribute("data-cur")) -
                           float(g.get_attribute("data-base"))) for g in gs)
    leaf = None
    for g in gs:
        tip = g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        m = re.match(r"^([+-]?)([\d,]+) bytes \(([+-]?[\d.]+)%\) \| ([\d,]+) "
                     "\u2192 ([\d,]+) \| (.*)$", tip)
        assert m, "tooltip %r" % tip
        b, c = int(m.group(4).replace(",", "")), int(m.group(5).replace(",", ""))
        delta = int(m.group(1) + m.group(2).replace(",", "")) if m.group(2) != "0" else 0
        assert (b, c) == (int(float(g.get_attribute("data-base"))),
                          int(float(g.get_attribute("data-cur")))), tip
        assert delta == c - b, tip
        assert abs(float(m.group(3)) - 100.0 * (c - b) / bt) < 0.006, tip
        fill = g.find_element(By.TAG_NAME, "rect").get_attribute("fill")
        r, gg, bb = map(int, re.findall(r"\d+", fill))
        if c > b > 0:
            v = int(210 * (maxd - (c - b)) / maxd)
            assert (r, gg, bb) == (255, v, v), "%s: %s" % (tip, fill)
        elif b > c > 0:
            v = int(210 * (maxd - (b - c)) / maxd)
            assert (r, gg, bb) == (v, v, 255), "%s: %s" % (tip, fill)
        elif b == c:
            assert (r, gg, bb) == (255, 255, 255), "%s: %s" % (tip, fill)
        if m.group(6) == "make_request_buffer":
            leaf = g
    assert leaf is not None, "no make_request_buffer frame"
    webdriver.hover(d, leaf.find_element(By.TAG_NAME, "rect"))
    tip = d.find_element(By.ID, "live-tip")
    assert tip.is_displayed() and tip.text.endswith(
        "| make_request_buffer"), tip.text
    b, c = rows["make_request_buffer"]
    assert tip.text.startswith("+%s bytes" % format(c - b, ",")), tip.text

    # Sorting: by base, ascending on a second click.
    ths = d.find_elements(By.CSS_SELECTOR, "#live-top th")
    ths[0].click()
    v = [float(td.get_attribute("data-v")) for td in d.find_elements(
        By.CSS_SELECTOR, "#live-top tbody tr td:first-child")]
    assert v == sorted(v, reverse=True), v
    ths[0].click()
    v = [float(td.get_attribute("data-v")) for td in d.find_elements(
        By.CSS_SELECTOR, "#live-top tbody tr td:first-child")]
    assert v == sorted(v), v
    d.save_screenshot(os.path.join(tmp, "diff.png"))
    webdriver.no_console_errors(d, "clicks")
    print("types, focus, table against profdiff, tooltips, colours and "
          "sorting work")
PY
webdriver "$TMP/drive.py" "$TMP" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${REPORT_SCREENSHOT-}" ] && cp "$TMP/diff.png" "$REPORT_SCREENSHOT"
finish
