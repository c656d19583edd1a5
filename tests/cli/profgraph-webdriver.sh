# SPDX-License-Identifier: MIT
# profgraph-webdriver.sh - profgraph's SVG opened from file:// in headless
# Chromium through WebDriver, driven with real pointer events: the graph
# is drawn (every node of the DOT is in the page); it opens at 1:1 (every
# node's text at least 10 px high) on the heaviest node (the largest
# flat, the one with the largest font), which is inside the window, drawn
# in the screenshot; "fit" shows it whole, key 1 comes back; the wheel
# zooms around the pointer, a drag pans, a double click fits, and the
# console stays free of errors.  The profile is made now by the
# C++ producer of profgraph.sh under tcmalloc.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
# Graphviz's library keeps what it loads (see the file) from LeakSanitizer.
export LSAN_OPTIONS="suppressions=$PROFCONV_SRCDIR/tests/graphviz-lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
need_tcmalloc
"$CMD/profgraph" --svg "$TMP/no-such-file" 2>&1 | grep -q 'built without' &&
	skip "profgraph cannot draw SVG (built without libgvc)"

g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/graph" \
    "$PROFCONV_SRCDIR/tests/producers/graph.cc" -ltcmalloc ||
	skip "cannot build tests/producers/graph.cc with tcmalloc"
HEAPPROFILE=$TMP/run "$TMP/graph" 2000 1 >/dev/null 2>&1 || fail "producer failed"
"$PROFCONV" symbolize -o "$TMP/g.pb.gz" "$TMP/run.0001.heap" 2>/dev/null || fail "symbolize"
"$CMD/profgraph" --dot "$TMP/g.pb.gz" >"$TMP/g.dot" || fail "profgraph --dot"
"$CMD/profgraph" "$TMP/g.pb.gz" -o "$TMP/g.svg" || fail "profgraph (SVG)"
# A program with about a hundred namespaced members (V8's, LLVM's names):
# a graph of 80 nodes, far wider than the window.
python3 "$PROFCONV_SRCDIR/tests/producers/namespaces.py" >"$TMP/ns.cc" || fail "namespaces.py"
g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/ns" "$TMP/ns.cc" -Wl,--no-as-needed -ltcmalloc ||
	fail "cannot build the namespaces producer"
HEAPPROFILE=$TMP/ns "$TMP/ns" 1 >/dev/null 2>&1 || fail "namespaces producer failed"
set -- "$TMP"/ns.*.heap
eval "last=\${$#}"
"$PROFCONV" symbolize -o "$TMP/ns.pb.gz" "$last" 2>/dev/null || fail "symbolize ns"
"$CMD/profgraph" "$TMP/ns.pb.gz" -o "$TMP/ns.svg" || fail "profgraph (SVG) ns"
# Boxes the DOT asks for: nodes, nodelets and the legend.
boxes=$(grep -cE '^N[0-9A-Za-z_]+ \[label' "$TMP/g.dot")
boxes=$((boxes + 1))

cat >"$TMP/drive.py" <<'PY'
import os, re, sys
import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

svg, boxes, shot, big = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def transform(d):
    t = d.find_element(By.ID, "viewport").get_attribute("transform") or ""
    m = re.match(r"translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)", t)
    return tuple(float(x) for x in m.groups()) if m else (0.0, 0.0, 1.0)

def box(el):
    return el.rect["x"], el.rect["y"], el.rect["width"], el.rect["height"]

def screenshot_box(path, box):
    """Distinct colours in the screenshot, and in BOX of it."""
    w, h, bpp, rows = webdriver.svgcheck().png_pixels(path)
    every, inside = set(), set()
    x0, y0, bw, bh = (int(v) for v in box)
    for y in range(0, h, 3):
        r = rows[y]
        for x in range(0, w, 3):
            px = bytes(r[x * bpp:x * bpp + 3])
            every.add(px)
            if x0 <= x < x0 + bw and y0 <= y < y0 + bh:
                inside.add(px)
    return w, h, every, inside

W, H = 1200, 900

def along(lo, size, c, win):
    """On one axis: a graph that fits is centred; else the node is at
    the middle, or the graph's edge at the window's."""
    if size <= win + 1:
        return abs(lo - (win - size) / 2) < 2
    return abs(c - win / 2) < 2 or abs(lo) < 2 or abs(lo + size - win) < 2

def opening(d, path, shot, big):
    """It opens at 1:1 (a point of Graphviz's a point of CSS, 4/3 px) on
    the heaviest node, the largest flat, which is the biggest box."""
    global W, H
    d.get("file://" + path)
    webdriver.no_console_errors(d, "load " + path)
    # The window's inside (the session's size is the outside).
    W, H = d.execute_script("return [window.innerWidth, window.innerHeight]")
    heavy = d.find_elements(By.CSS_SELECTOR, "g.node.heaviest")
    assert len(heavy) == 1, "%d nodes marked heaviest" % len(heavy)
    heavy = heavy[0]
    tx, ty, s = transform(d)
    assert abs(s - 96 / 72) < 1e-6, "opens at scale %s, not 1:1" % s
    sizes = d.execute_script("""
        return Array.from(document.querySelectorAll('g.node text')).map(
            t => [t.closest('g.node').id, t.getBoundingClientRect().height,
                  +t.getAttribute('font-size')]);""")
    biggest = max(sizes, key=lambda x: x[2])
    assert biggest[0] == heavy.get_attribute("id"), \
        "heaviest %s, the largest font is %s's" % (heavy.get_attribute("id"), biggest)
    small = min(sizes, key=lambda x: x[1])
    # An 8 pt label at 1:1 is 10.7 px; its box a little taller.
    assert small[1] >= 10, "smallest node text %.1f px high: %s" % (small[1], small)
    hx, hy, hw, hh = box(heavy)
    assert hx >= 0 and hy >= 0 and hx + hw <= W and hy + hh <= H, \
        "heaviest node outside the window: %s" % ((hx, hy, hw, hh),)
    g = d.find_element(By.ID, "graph0")
    x, y, w, h = box(g)
    if big:
        assert w > 2 * W, "graph %s: the test needs a wider one" % ((w, h),)
    assert along(x, w, hx + hw / 2, W), "across: graph %s, node %s" % ((x, w), (hx, hw))
    assert along(y, h, hy + hh / 2, H), "down: graph %s, node %s" % ((y, h), (hy, hh))
    d.save_screenshot(shot)
    sw, sh, every, inside = screenshot_box(shot, (hx, hy, hw, hh))
    assert len(every) > 20, "screenshot nearly blank: %d colours" % len(every)
    assert len(inside) > 3, "the heaviest node's box is blank in the screenshot"
    # The box shows pprof's short name, the tooltip the full one.
    tip = d.execute_script("return arguments[0].querySelector('a').getAttributeNS("
                           "'http://www.w3.org/1999/xlink', 'title')", heavy) or ""
    text = " ".join(t.get_attribute("textContent") for t in
                    heavy.find_elements(By.TAG_NAME, "text"))
    print("%s opens 1:1 on %s: %r, tooltip %r, text >= %.1f px" % (
        os.path.basename(path), heavy.get_attribute("id"), text, tip, small[1]))
    return heavy, (hx, hy, hw, hh), text, tip

with webdriver.session(W, H) as d:
    heavy, at, text, tip = opening(d, big, shot + "-big.png", True)
    assert text.startswith("Heap AllocateExternalBackingStore "), "heaviest box reads %r" % text
    assert tip.startswith("v8::internal::alpha::Heap::AllocateExternalBackingStore ("), \
        "heaviest tooltip %r" % tip
    heavy, at, text, tip = opening(d, svg, shot, False)
    (hx, hy, hw, hh) = at
    nodes = d.find_elements(By.CSS_SELECTOR, "g.node")
    assert len(nodes) == boxes, "%d boxes drawn, the DOT has %d" % (len(nodes), boxes)
    g = d.find_element(By.ID, "graph0")
    # Fit is one click away.
    d.find_element(By.ID, "fit").click()
    x, y, w, h = box(g)
    assert w > 100 and h > 100, "graph drawn %s" % ((x, y, w, h),)
    assert x >= -1 and y >= -1 and x + w <= W + 1 and y + h <= H + 1, \
        "fit: graph outside the window: %s" % ((x, y, w, h),)
    assert abs(w - W) < 2 or abs(h - H) < 2, "fit does not fill the window: %s" % ((w, h),)
    fitted = transform(d)
    # And 1:1 one key away, back on the heaviest node.
    ActionChains(d).send_keys("1").perform()
    assert abs(transform(d)[2] - 96 / 72) < 1e-6, "key 1: %s" % (transform(d),)
    assert box(heavy) == (hx, hy, hw, hh), "key 1: %s, not %s" % (box(heavy), (hx, hy, hw, hh))
    ActionChains(d).send_keys("f").perform()
    assert transform(d) == fitted, "key f: %s, not %s" % (transform(d), fitted)
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
    assert s > fitted[2] * 1.3, "wheel did not zoom in: scale %s" % s
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
    assert transform(d) == fitted, "double click: %s" % (transform(d),)
    webdriver.no_console_errors(d, "after zoom and pan")
    print("%d boxes; wheel zoom x%.2f, drag and fit work" % (len(nodes), s / fitted[2]))
PY
webdriver "$TMP/drive.py" "$TMP/g.svg" "$boxes" "$TMP/shot.png" "$TMP/ns.svg" >"$TMP/drive.out" 2>&1 ||
	fail "$(tail -n 5 "$TMP/drive.out")"
cat "$TMP/drive.out" >&2
[ -n "${PROFGRAPH_SHOT:-}" ] && cp "$TMP/shot.png" "$PROFGRAPH_SHOT" &&
	cp "$TMP/shot.png-big.png" "$PROFGRAPH_SHOT.big.png"
finish
