# SPDX-License-Identifier: MIT
# profgraph-webdriver.sh - profgraph's SVG opened from file:// in headless
# Chromium through WebDriver, driven with real pointer events: the graph
# is drawn (every node of the DOT is in the page, inside the window), the
# wheel zooms around the pointer, a drag pans, a double click goes back,
# and the console stays free of errors.  The profile is made now by the
# C++ producer of profgraph.sh under tcmalloc.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
# Graphviz's library keeps what it loads (see the file) from LeakSanitizer.
export LSAN_OPTIONS="suppressions=$PROFCONV_SRCDIR/tests/graphviz-lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
[ -e /usr/include/gperftools/heap-profiler.h ] || skip "libgoogle-perftools-dev missing"
"$BIN/profgraph" --svg "$TMP/no-such-file" 2>&1 | grep -q 'built without' &&
	skip "profgraph cannot draw SVG (built without libgvc)"

g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/graph" \
    "$PROFCONV_SRCDIR/tests/producers/graph.cc" -ltcmalloc ||
	skip "cannot build tests/producers/graph.cc with tcmalloc"
HEAPPROFILE=$TMP/run "$TMP/graph" 2000 1 >/dev/null 2>&1 || fail "producer failed"
"$PROFCONV" symbolize -o "$TMP/g.pb.gz" "$TMP/run.0001.heap" 2>/dev/null || fail "symbolize"
"$BIN/profgraph" --dot "$TMP/g.pb.gz" >"$TMP/g.dot" || fail "profgraph --dot"
"$BIN/profgraph" "$TMP/g.pb.gz" -o "$TMP/g.svg" || fail "profgraph (SVG)"
# Boxes the DOT asks for: nodes, nodelets and the legend.
boxes=$(grep -cE '^N[0-9A-Za-z_]+ \[label' "$TMP/g.dot")
boxes=$((boxes + 1))

cat >"$TMP/drive.py" <<'PY'
import os, re, sys
sys.path.insert(0, os.path.join(os.environ["PROFCONV_SRCDIR"], "tests/cli"))
import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

svg, boxes, shot = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def transform(d):
    t = d.find_element(By.ID, "viewport").get_attribute("transform") or ""
    m = re.match(r"translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)", t)
    return tuple(float(x) for x in m.groups()) if m else (0.0, 0.0, 1.0)

def box(el):
    return el.rect["x"], el.rect["y"], el.rect["width"], el.rect["height"]

with webdriver.session(1200, 900) as d:
    d.get("file://" + svg)
    webdriver.no_console_errors(d, "load")
    nodes = d.find_elements(By.CSS_SELECTOR, "g.node")
    assert len(nodes) == boxes, "%d boxes drawn, the DOT has %d" % (len(nodes), boxes)
    # The whole graph fits the window on load.
    g = d.find_element(By.ID, "graph0")
    x, y, w, h = box(g)
    assert w > 100 and h > 100, "graph drawn %s" % ((x, y, w, h),)
    assert x >= -1 and y >= -1 and x + w <= 1201 and y + h <= 901, \
        "graph outside the window: %s" % ((x, y, w, h),)
    d.save_screenshot(shot)
    title = [n for n in nodes if "Buffer" in n.get_attribute("textContent")]
    assert title, "no Buffer node"
    target = title[0]
    before = box(target)
    # Zoom in with the wheel over a node: it grows and stays under the
    # pointer.
    for _ in range(3):
        ActionChains(d).scroll_from_origin(
            ScrollOrigin.from_element(target), 0, -100).perform()
    tx, ty, s = transform(d)
    assert s > 1.3, "wheel did not zoom in: scale %s" % s
    after = box(target)
    assert after[2] > before[2] * 1.3, "node not larger: %s -> %s" % (before, after)
    cx0, cy0 = before[0] + before[2] / 2, before[1] + before[3] / 2
    cx1, cy1 = after[0] + after[2] / 2, after[1] + after[3] / 2
    assert abs(cx1 - cx0) < before[2] and abs(cy1 - cy0) < before[3] * 2, \
        "zoom did not keep the node under the pointer: %s -> %s" % ((cx0, cy0), (cx1, cy1))
    # Drag to pan: everything moves by the drag.
    legend = d.find_element(By.CSS_SELECTOR, "g.cluster")
    lx, ly = box(legend)[:2]
    ActionChains(d).move_to_element_with_offset(g, 5, 5).click_and_hold() \
        .move_by_offset(120, 80).release().perform()
    nx, ny = box(legend)[:2]
    assert abs((nx - lx) - 120) < 3 and abs((ny - ly) - 80) < 3, \
        "drag moved by %s, not (120, 80)" % ((nx - lx, ny - ly),)
    # Double click: back to the whole graph.
    ActionChains(d).double_click(g).perform()
    assert transform(d) == (0.0, 0.0, 1.0), "double click: %s" % (transform(d),)
    webdriver.no_console_errors(d, "after zoom and pan")
    print("%d boxes; wheel zoom x%.2f, drag and reset work" % (len(nodes), s))
PY
webdriver "$TMP/drive.py" "$TMP/g.svg" "$boxes" "$TMP/shot.png" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${PROFGRAPH_SHOT:-}" ] && cp "$TMP/shot.png" "$PROFGRAPH_SHOT"
finish
