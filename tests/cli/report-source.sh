# SPDX-License-Identifier: MIT
# report-source.sh - the report's Source tab leads with the program's own
# functions: a C++ program built now whose app::Pool::grow fills a
# std::vector and a std::map (their allocations happen in inlined
# stl_vector.h and stl_tree.h code), profiled under tcmalloc and reported
# from another directory, lists app::Pool::grow first and no function of
# a system header; the same program stripped gets one plain sentence; in
# headless Chromium the Source tab shows app::Pool::grow's listing first,
# and its screenshot is not blank.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_tcmalloc
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
export LC_ALL=C
mkdir -p "$TMP/proj" "$TMP/else"
cat >"$TMP/proj/pool.cc" <<'CC'
#include <map>
#include <string>
#include <vector>
namespace app {
struct Pool {
	std::vector<std::vector<char> > blocks;
	std::map<int, std::string> index;
	__attribute__((noinline)) void grow(int i)
	{
		blocks.emplace_back(4096);	// POOL_GROW_LINE
		index[i] = "block";
	}
};
}
int main()
{
	app::Pool &p = *new app::Pool;
	for (int i = 0; i < 5000; i++)
		p.grow(i);
	return p.blocks.size() == 1;
}
CC
(cd "$TMP/proj" && g++ -O2 -g -fno-omit-frame-pointer -o pool pool.cc \
    -ltcmalloc) || skip "cannot build pool.cc with tcmalloc"
cp "$TMP/proj/pool" "$TMP/proj/pool.stripped" && strip "$TMP/proj/pool.stripped" ||
	fail "strip"
cd "$TMP/else" || exit 1
HEAPPROFILE=$TMP/else/h "$TMP/proj/pool" 2>/dev/null || fail "pool failed"
HEAPPROFILE=$TMP/else/s "$TMP/proj/pool.stripped" 2>/dev/null || fail "stripped pool failed"

# The Source tab's section: its notes and its functions, in order.
source_tab() {
	python3 - "$1" <<'PY'
import html, re, sys
s = open(sys.argv[1]).read()
i = s.find('<section class="tab" id="source">')
t = s[i:s.find("</section>\n", s.find('<div id="listing">', i) if '<div id="listing">' in s[i:] else i)]
for n in re.findall(r'<p class="note"[^>]*>(.*?)</p>', t):
    print("note: " + html.unescape(n))
for h in re.findall(r"<h2[^>]*>(.*?)</h2>", t):
    print("function: " + html.unescape(h))
PY
}

run 0 "$PROFCONV" report -o "$TMP/r.html" "$TMP/else/h.0001.heap"
source_tab "$TMP/r.html" >"$TMP/tab"
first=$(sed -n 's/^function: //p' "$TMP/tab" | head -1)
case $first in
"app::Pool::grow in $TMP/proj/pool.cc") ;;
*) fail "the Source tab does not lead with app::Pool::grow: $(cat "$TMP/tab")" ;;
esac
grep -q '^function: .* in /usr/' "$TMP/tab" &&
	fail "a system header's function in the Source tab: $(grep /usr/ "$TMP/tab")"
grep -q "^note: The program's own" "$TMP/tab" ||
	fail "the note does not say the functions are the program's: $(grep note "$TMP/tab")"
grep -q 'POOL_GROW_LINE' "$TMP/r.html" || fail "app::Pool::grow's source is not shown"

# Stripped: one plain sentence, no internal expression.
run 0 "$PROFCONV" report -o "$TMP/s.html" "$TMP/else/s.0001.heap"
source_tab "$TMP/s.html" >"$TMP/stab"
grep -q '^note: No annotated source: the profile names no source file or line for its heaviest functions' "$TMP/stab" ||
	fail "stripped: $(cat "$TMP/stab")"
grep -q 'regexp\|\^(' "$TMP/stab" && fail "stripped: an internal expression: $(cat "$TMP/stab")"

# In the browser: the Source tab, its first listing app::Pool::grow's.
need_webdriver
cat >"$TMP/drive.py" <<'PY'
import os, sys, time
import webdriver
from selenium.webdriver.common.by import By
svgcheck = webdriver.svgcheck()

page, shot = sys.argv[1:3]
with webdriver.session(1200, 900) as d:
    d.get("file://" + page)
    webdriver.no_console_errors(d, "load")
    d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="source"]').click()
    time.sleep(0.3)
    h2 = [e for e in d.find_elements(By.CSS_SELECTOR, "#source h2") if e.is_displayed()]
    assert h2, "no listing shown in the Source tab"
    assert h2[0].text.startswith("app::Pool::grow in "), [e.text for e in h2]
    assert not any("/usr/" in e.text for e in h2), [e.text for e in h2]
    # The first listing is in the window, and the window is not blank.
    top = h2[0].rect["y"]
    assert top < 900, "app::Pool::grow's listing is below the window (%s)" % top
    d.save_screenshot(shot)
    w, h, bpp, rows = svgcheck.png_pixels(shot)
    white = bytes([255] * bpp)
    drawn = 0
    for y in range(h):
        row = bytes(rows[y])
        drawn += w - sum(1 for x in range(0, w * bpp, bpp) if row[x:x + bpp] == white)
    assert drawn > 2000, "the Source tab looks blank: %d pixels" % drawn
    webdriver.no_console_errors(d, "at the end")
PY
webdriver "$TMP/drive.py" "$TMP/r.html" "$TMP/source.png" ||
	fail "the Source tab in the browser"
[ -n "${SOURCE_SCREENSHOT-}" ] && cp "$TMP/source.png" "$SOURCE_SCREENSHOT"
finish
