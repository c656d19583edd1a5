# SPDX-License-Identifier: MIT
# first-screen-webdriver.sh - a deep flame graph opens on the frames
# that carry the weight (issue 30 item 6).  tests/screen/deep.c under
# jemalloc (stacks of 128 frames, the weight 5 frames deep, a 1-pixel
# tower above) drawn by profflame and opened in headless Chromium at
# 1200x800: the screenshot of the first screen must be mostly frame
# colours, the root frame and the details line in view; an icicle graph
# and a graph that fits the window open at the top.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

need_webdriver
command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_jemalloc	# not tcmalloc: gperftools keeps 32 frames
export LC_ALL=C

cc -O0 -g -fno-omit-frame-pointer -o "$TMP/deep" "$PROFCONV_SRCDIR/tests/screen/deep.c" ||
	fail "cannot build deep.c"
LD_PRELOAD=$LIBJE MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/dj \
	"$TMP/deep" 2 2>/dev/null || fail "deep under jemalloc failed"
heap=$(ls "$TMP"/dj.*.heap | sort -V | tail -n 1)
[ -f "$heap" ] || fail "jemalloc wrote no dump"
"$CMD/profflame" --svg -o "$TMP/deep.svg" "$heap" 2>/dev/null || fail "profflame --svg"
"$CMD/profflame" --svg --inverted -o "$TMP/icicle.svg" "$heap" 2>/dev/null ||
	fail "profflame --svg --inverted"
LD_PRELOAD=$LIBJE MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/sh \
	"$TMP/deep" 2 3 2>/dev/null || fail "shallow run failed"
"$CMD/profflame" --svg -o "$TMP/shallow.svg" "$(ls "$TMP"/sh.*.heap | sort -V | tail -n 1)" \
	2>/dev/null || fail "profflame --svg (shallow)"
# The picture is deeper than the window: the test means something.
h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$TMP/deep.svg")
[ "${h:-0}" -gt 1600 ] || fail "the deep graph is $h pixels tall, not over 1600"

cat >"$TMP/drive.py" <<'PY'
import os, struct, sys, zlib
import webdriver
from selenium.webdriver.common.by import By

def pixels(png):
    """(width, height, rows of RGB tuples) of an 8-bit PNG, decoded here."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and lace == 0, (depth, ctype)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(0, w, 2)])
        prev = line
    return w, h, rows

def frame_share(d):
    """The share of the screen in frame colours: saturated pixels (the
    background runs from #eeeeee to #eeeeb0, text is black)."""
    w, h, rows = pixels(d.get_screenshot_as_png())
    n = sum(1 for r in rows[::2] for p in r if max(p) - min(p) > 100)
    return n / (len(rows[::2]) * len(rows[0]))

def first_screen(d, path, what):
    d.get("file://" + path)
    webdriver.no_console_errors(d, what)
    root = [g for g in d.find_elements(By.CSS_SELECTOR, "#frames > g")
            if g.get_attribute("data-d") == "0"][0]
    r = d.execute_script("var b = arguments[0].getBoundingClientRect();"
                         "return [b.top, b.bottom, window.innerHeight, window.scrollY,"
                         " document.getElementById('details').getBoundingClientRect().bottom];",
                         root.find_element(By.TAG_NAME, "rect"))
    return r, frame_share(d)

deep, icicle, shallow = sys.argv[1:4]
with webdriver.session(1200, 800) as d:
    (top, bottom, inner, scrolled, details), share = first_screen(d, deep, "deep")
    print("deep: root at %.0f..%.0f of %d, scrolled %d, %.1f%% frame colours" % (
        top, bottom, inner, scrolled, 100 * share))
    assert 0 <= top and bottom <= inner, "the root frame is not on the first screen"
    assert details <= inner, "the details line is not on the first screen"
    assert share > 0.10, "the first screen is background: %.2f%% frames" % (100 * share)
    (top, bottom, inner, scrolled, _), share = first_screen(d, icicle, "icicle")
    print("icicle: scrolled %d, %.1f%% frame colours" % (scrolled, 100 * share))
    assert scrolled == 0 and top < inner and share > 0.10, "the icicle graph does not open on its root"
    (top, bottom, inner, scrolled, _), share = first_screen(d, shallow, "shallow")
    print("shallow: scrolled %d, %.1f%% frame colours" % (scrolled, 100 * share))
    assert scrolled == 0 and bottom <= inner, "a graph that fits scrolled"
PY
webdriver "$TMP/drive.py" "$TMP/deep.svg" "$TMP/icicle.svg" "$TMP/shallow.svg" ||
	fail "the first screen of the deep flame graph"
finish
