# SPDX-License-Identifier: MIT
# list-webdriver.sh - profconv list --html as a person sees it, in headless
# Chromium through WebDriver, on a heap profile made now by a C++ program
# whose function is named grab<script> (with --demangle templates), whose
# source holds a <script> element in a comment, and which inlines a
# helper: the page loads with no console error, runs no script (no
# element, no alert), shows the hostile name and line as text, shades
# the value cells, nests the inlined line, and its numbers are the text
# listing's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_webdriver
need_tcmalloc
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
export LC_ALL=C
mkdir -p "$TMP/src" "$TMP/heap"
cat >"$TMP/src/web.cc" <<'CC'
#include <cstdlib>
#include <cstring>

struct script {};
static void *kept[4096];

__attribute__((always_inline)) static inline void *
helper(size_t n)
{
	void *p = malloc(n);
	memset(p, 0, n);
	return p;
}

template <class T> __attribute__((noinline)) void *
grab(int i)
{
	// <script>alert("src")</script>
	void *p = malloc(64 + (size_t)(i & 7));
	kept[(i + 2048) & 4095] = helper(32);
	return p;
}

int
main()
{
	for (int i = 0; i < 2048; i++)
		kept[i] = grab<script>(i);
	return kept[5] != NULL ? 0 : 1;
}
CC
(cd "$TMP/src" && g++ -O1 -g -fno-omit-frame-pointer -o ../web web.cc \
    -ltcmalloc) || skip "cannot build the page's program"
HEAPPROFILE=$TMP/heap/w "$TMP/web" 2>/dev/null || fail "run failed"
"$PROFCONV" symbolize -o "$TMP/w.pb.gz" "$TMP/heap/w.0001.heap" 2>/dev/null ||
	fail "symbolize"
# The sources are read beneath a source root: the program's directory.
run 0 "$PROFCONV" list --source-path "$TMP/src" --demangle templates \
    -o "$TMP/list.html" --html 'grab' "$TMP/w.pb.gz"
run 0 "$PROFCONV" list --source-path "$TMP/src" --demangle templates 'grab' "$TMP/w.pb.gz"
grep -q '^ROUTINE ======================== grab<script> in ' "$TMP/out" ||
	fail "text listing: $(grep ROUTINE "$TMP/out")"
# The value of the malloc line and the inlined helper's, from the text.
want=$(awk '$3 ~ /^[0-9]+:/ && /void \*p = malloc\(64/ {print $1}' "$TMP/out")
want_inl=$(awk '$3 == "+" && $4 == "helper" {print $1; exit}' "$TMP/out")
[ -n "$want" ] && [ -n "$want_inl" ] || fail "text listing lacks the rows: $(cat "$TMP/out")"
grep -q '<script>' "$TMP/list.html" && fail "a raw <script> in the page"

cat >"$TMP/drive.py" <<'PY'
import os, sys
import webdriver
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoAlertPresentException

page, want, want_inl, shot = sys.argv[1:5]
with webdriver.session(1200, 900) as d:
    d.get("file://" + page)
    webdriver.no_console_errors(d, "load")
    try:
        d.switch_to.alert
        raise AssertionError("the page raised an alert")
    except NoAlertPresentException:
        pass
    assert not d.find_elements(By.TAG_NAME, "script"), "a script element"
    csp = d.find_element(By.CSS_SELECTOR,
        'meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert "default-src 'none'" in csp, csp
    h2 = [e.text for e in d.find_elements(By.TAG_NAME, "h2")]
    assert any(t.startswith("grab<script> in ") for t in h2), h2
    rows = d.find_elements(By.CSS_SELECTOR, "table.src tr")
    src = [r for r in rows if 'alert("src")' in r.text]
    assert src and '<script>alert("src")</script>' in src[0].text, "no hostile line"
    line = [r for r in rows if "void *p = malloc(64" in r.text]
    assert line, "no malloc line"
    flat = line[0].find_elements(By.CSS_SELECTOR, "td.v")[0]
    assert flat.text == want, "flat %r, text listing says %r" % (flat.text, want)
    bg = flat.value_of_css_property("background-color")
    assert bg.startswith("rgba(220, 40, 20") and not bg.endswith(", 0)"), bg
    inl = d.find_elements(By.CSS_SELECTOR, "tr.inl")
    assert inl, "no inlined row"
    first = inl[0]
    assert "helper" in first.find_element(By.CSS_SELECTOR, "span.fn").text
    assert first.find_elements(By.CSS_SELECTOR, "td.v")[0].text == want_inl
    pad = float(first.find_element(By.CSS_SELECTOR, "td.s")
                .value_of_css_property("padding-left").rstrip("px"))
    top = float(line[0].find_element(By.CSS_SELECTOR, "td.s")
                .value_of_css_property("padding-left").rstrip("px"))
    assert pad > top, "inlined row not indented (%s vs %s)" % (pad, top)
    d.save_screenshot(shot)
    webdriver.no_console_errors(d, "at the end")
PY
webdriver "$TMP/drive.py" "$TMP/list.html" "$want" "$want_inl" "$TMP/list.png" ||
	fail "the HTML listing in the browser"
[ -n "${LIST_SCREENSHOT-}" ] && cp "$TMP/list.png" "$LIST_SCREENSHOT"
finish
