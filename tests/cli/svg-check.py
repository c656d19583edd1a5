# SPDX-License-Identifier: MIT
# svg-check.py - checks of profflame's SVG flame graphs against profflame's
# folded output (the tests' oracle for stacks and values), used by
# tests/cli/svg.sh and svg-browser.sh.  Every command exits 1 with
# "svg-check: ..." lines on a fault.
#
#   tree SVG FOLDED [--reverse] [--minwidth PX|N%] [--unit U] [--total N]
#       SVG parses as XML; every frame's title, rect and data attributes
#       agree; the tree the frames draw equals the tree of FOLDED's stacks
#       (merged from the leaf with --reverse), minus the frames narrower
#       than the minimum width and nothing else; siblings in name order.
#       With --total, widths and shares are out of N.  Prints the root's
#       value.
#   colors SVG...
#       within each file, a name has one colour, and the same in every file.
#   diff SVG DIFF-FOLDED [--negate]
#       frame colours follow flamegraph.pl's difference rules for the
#       "stack BASE CUR" lines (the SVG drawn with --self-diff
#       --diff-width cur --minwidth 0); prints the red and blue counts.
#   delta SVG BASE-FOLDED CUR-FOLDED [--width max|cur|base|delta] [--self]
#         [--negate] [--minwidth PX|N%] [--min-delta PCT]
#       a differential SVG checked frame by frame against the two
#       profiles' folded stacks: every path of either (root first) that
#       is wide enough is drawn and nothing else; each frame's width is
#       the sum over its stacks of the chosen width; its before and after
#       (title and data-b, data-c), growth and shrinkage (data-up,
#       data-down), its change and percentage of the base's total in
#       pprof's title form "CHANGE UNIT (P%) | BEFORE -> AFTER | NAME";
#       its own change (--self) counts the changes of its children too
#       narrow to draw; its fill: white under the noise floor, purple when
#       new, else red grew / blue shrank on one scale from the largest
#       |change| drawn; the root's change is the total change.  Prints
#       "RED BLUE NEW WHITE" counts.
#   frame SVG NAME
#       print "CHANGE FILL UP DOWN|TITLE" for each frame called NAME of a
#       differential SVG.
#   png PNG SVG
#       the screenshot PNG shows each wide frame's fill at its place, and
#       the background's top colour in the top left corner, its bottom
#       colour in the bottom left one.
#   dom DUMP
#       parse a chromium --dump-dom of an SVG; print "name class fill x
#       width" per frame and the matched text, for the shell to check.
#   fg OURS THEIRS FOLDED [--reverse] [--total] [--chain]
#       OURS (profflame --svg) and THEIRS (flamegraph.pl on FOLDED, with
#       the same options) draw the same frames: per stack path the same
#       fill, value, share, change, row, width and label, the same x when
#       flamegraph.pl's whole-line sort puts the stacks in our order, and
#       the same image size and background.  With --total the roots are
#       not compared (flamegraph.pl stretches its root to the total).
#       flamegraph.pl strips an annotation (_[k]...) off titles, so ours are
#       compared without it, but with --chain (where it adds _[w] and
#       strips it again).
#       Prints the number of frames compared.
#   hues SVG...
#       print "HUE NAME" per frame: which of flamegraph.pl's one-hue
#       palettes (red green blue aqua yellow purple orange; grey and light
#       for the separators; white, diff-red, diff-blue) can make its fill,
#       "?" when none can.
#   pprof FOLDED OUT
#       write FOLDED ("a;b;c 10" lines) as an uncompressed pprof profile
#       with one sample type samples/count: names exactly as given.
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
TITLE = re.compile(r"^(.*) \(([0-9,]+) (.+), ([0-9.]+)%(?:; ([-+]?[0-9.]+)%)?\)$")
DIFF_TITLE = re.compile(r"^(self )?([-+]?[0-9,]+) (.+?) \(([-+][0-9.]+)%\) \| ([0-9,]+) \u2192 ([0-9,]+) \| (.*)$")
faults = []


def fault(msg):
    faults.append(msg)
    if len(faults) < 20:
        print("svg-check: " + msg, file=sys.stderr)


def done():
    sys.exit(1 if faults else 0)


class Frame:
    pass


def frames_of(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print("svg-check: %s: not well-formed XML: %s" % (path, e), file=sys.stderr)
        sys.exit(1)
    if root.tag != NS + "svg":
        fault("%s: root element is %s" % (path, root.tag))
    group = root.find(".//%sg[@id='frames']" % NS)
    if group is None:
        fault("%s: no <g id='frames'>" % path)
        done()
    out = []
    factor = float(group.get("data-factor") or 1)
    diff = group.get("data-diff")
    total = int(group.get("data-total"))
    for g in group:
        f = Frame()
        title, rect, text = g.find(NS + "title"), g.find(NS + "rect"), g.find(NS + "text")
        if title is None or rect is None or text is None:
            fault("%s: a frame lacks title, rect or text" % path)
            continue
        f.s, f.v, f.d = int(g.get("data-s")), int(g.get("data-v")), int(g.get("data-d"))
        if diff:
            m = DIFF_TITLE.match(title.text or "")
            if not m:
                fault("%s: bad differential title %r" % (path, title.text))
                continue
            f.self = m.group(1) is not None
            f.delta = int(m.group(2).replace(",", ""))
            f.unit, f.dpct_base = m.group(3), float(m.group(4))
            f.before = int(m.group(5).replace(",", ""))
            f.after = int(m.group(6).replace(",", ""))
            f.name = m.group(7)
            f.value = f.v
            f.pct = round(100.0 * f.v / total, 2) if total else 0.0
            # flamegraph.pl's change: the own change out of the total.
            f.dpct = "%.2f" % (100.0 * f.delta / total) if total else None
            for a in ("b", "c", "up", "down"):
                setattr(f, "data_" + a, int(g.get("data-" + a)))
            f.change = g.get("data-change")
            f.title = title.text
        else:
            m = TITLE.match(title.text or "")
            if not m:
                fault("%s: bad title %r" % (path, title.text))
                continue
            f.name, f.unit = m.group(1), m.group(3)
            f.value = int(m.group(2).replace(",", ""))
            f.pct, f.dpct = float(m.group(4)), m.group(5)
        f.x, f.w = float(rect.get("x")), float(rect.get("width"))
        f.y, f.fill, f.label = float(rect.get("y")), rect.get("fill"), text.text or ""
        f.cls = g.get("class") or ""
        # The label's name when pprof's rule shortened it (the title
        # keeps the full one).
        f.short = g.get("data-n")
        if factor == 1 and f.value != f.v:
            fault("%s: title value %d != data-v %d" % (f.name, f.value, f.v))
        out.append(f)
    return root, group, out


def parent_map(frames):
    """Each frame's parent: the frame one level up whose range holds it."""
    by_depth = {}
    for f in frames:
        by_depth.setdefault(f.d, []).append(f)
    parents = {}
    for f in frames:
        if f.d == 0:
            parents[id(f)] = None
            continue
        ps = [p for p in by_depth.get(f.d - 1, []) if p.s <= f.s and f.s + f.v <= p.s + p.v]
        if len(ps) != 1:
            fault("%s (depth %d): %d parents" % (f.name, f.d, len(ps)))
            parents[id(f)] = None
        else:
            parents[id(f)] = ps[0]
    return parents


def paths_of(frames):
    parents = parent_map(frames)
    paths = {}
    for f in frames:
        p, names = f, []
        while p is not None and p.d > 0:
            names.append(p.name)
            p = parents[id(p)]
        paths[tuple(reversed(names))] = f
    return paths


def folded_tree(path, reverse):
    tree = {(): 0}
    for line in open(path, encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        frames = [] if stack == "[no stack]" else stack.split(";")
        if reverse:
            frames.reverse()
        for i in range(len(frames) + 1):
            key = tuple(frames[:i])
            tree[key] = tree.get(key, 0) + int(count)
    return tree


def cmd_tree(args):
    svg, folded = args[0], args[1]
    reverse = "--reverse" in args
    minwidth = args[args.index("--minwidth") + 1] if "--minwidth" in args else "0.1"
    unit = args[args.index("--unit") + 1] if "--unit" in args else None
    root, group, frames = frames_of(svg)
    width = float(root.get("width"))
    total = int(group.get("data-total"))
    want = folded_tree(folded, reverse)
    scale = int(args[args.index("--total") + 1]) if "--total" in args else want[()]
    if scale != total:
        fault("SVG total %d != %d" % (total, scale))
    if minwidth.endswith("%"):
        threshold = total * float(minwidth[:-1]) / 100
    else:
        threshold = float(minwidth) * total / (width - 20)
    got = paths_of(frames)
    for key, f in got.items():
        if key not in want:
            fault("drawn frame %r is no stack prefix of the folded output" % (key,))
        elif want[key] != f.v:
            fault("%r: drawn %d, folded %d" % (key, f.v, want[key]))
        if f.v < threshold:
            fault("%r: %d is narrower than the minimum %.1f" % (key, f.v, threshold))
        if unit is not None and f.unit != unit:
            fault("%r: unit %r, expected %r" % (key, f.unit, unit))
        if abs(f.pct - round(100.0 * f.v / total, 2)) > 0.0051:
            fault("%r: share %.2f%% != %d/%d" % (key, f.pct, f.v, total))
        x1 = 10 + f.s * (width - 20) / total
        x2 = 10 + (f.s + f.v) * (width - 20) / total
        if abs(f.x - x1) > 0.051 or abs(f.w - (x2 - x1)) > 0.11:
            fault("%r: rect x %.1f width %.1f, expected %.2f %.2f" % (key, f.x, f.w, x1, x2 - x1))
        name = "all" if not key else key[-1]
        if f.name != name:
            fault("%r: titled %r" % (key, f.name))
    for key, v in want.items():
        if key not in got and v >= threshold * 1.0001:
            fault("folded stack prefix %r (%d) is not drawn (minimum %.1f)" % (key, v, threshold))
    # Siblings left to right in byte order of names.
    kids = {}
    for key, f in got.items():
        if key:
            kids.setdefault(key[:-1], []).append(f)
    for key, fs in kids.items():
        order = [f.name for f in sorted(fs, key=lambda f: f.s)]
        if order != sorted(order, key=lambda n: n.encode("utf-8")):
            fault("children of %r not in name order: %r" % (key, order))
    print(want[()] if () in got and got[()].v == want[()] else -1)
    done()


def cmd_colors(args):
    seen = {}
    for path in args:
        mine = {}
        for f in frames_of(path)[2]:
            if mine.setdefault(f.name, f.fill) != f.fill:
                fault("%s: %r has colours %s and %s" % (path, f.name, mine[f.name], f.fill))
        for name, fill in mine.items():
            if seen.setdefault(name, (fill, path))[0] != fill:
                fault("%r is %s in %s but %s in %s" % (name, seen[name][0], seen[name][1], fill, path))
    done()


def cmd_diff(args):
    svg, folded, negate = args[0], args[1], "--negate" in args
    root, group, frames = frames_of(svg)
    total = int(group.get("data-total"))
    delta, maxdelta = {}, 0
    for line in open(folded, encoding="utf-8"):
        stack, base, cur = line.rstrip("\n").rsplit(" ", 2)
        key = tuple(stack.split(";"))
        d = int(cur) - int(base)
        delta[key] = delta.get(key, 0) + d
        maxdelta = max(maxdelta, abs(d))
    maxdelta = max(maxdelta, 1)
    reds = blues = 0
    for key, f in paths_of(frames).items():
        d = delta.get(key, 0) * (-1 if negate else 1)
        if d > 0:
            c = int(210 * (maxdelta - d) / maxdelta)
            want, reds = "rgb(255,%d,%d)" % (c, c), reds + 1
        elif d < 0:
            c = int(210 * (maxdelta + d) / maxdelta)
            want, blues = "rgb(%d,%d,255)" % (c, c), blues + 1
        else:
            want = "rgb(255,255,255)"
        if f.fill != want:
            fault("%r: delta %d of %d: fill %s, expected %s" % (key, d, maxdelta, f.fill, want))
        if f.delta != delta.get(key, 0):
            fault("%r: title change %d, expected %d" % (key, f.delta, delta.get(key, 0)))
    print(reds, blues)
    done()


def folded_counts(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        key = () if stack == "[no stack]" else tuple(stack.split(";"))
        out[key] = out.get(key, 0) + int(count)
    return out


def opt(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def diff_fill(change, q, maxdelta, negate):
    if change == "same":
        return "rgb(255,255,255)"
    t = abs(q) / maxdelta
    if change == "new":
        return "rgb(%d,%d,%d)" % (int(240 - 70 * t), int(215 - 135 * t), int(250 - 30 * t))
    v = -q if negate else q
    if v > 0:
        c = int(210 * (maxdelta - v) / maxdelta)
        return "rgb(255,%d,%d)" % (c, c)
    c = int(210 * (maxdelta + v) / maxdelta)
    return "rgb(%d,%d,255)" % (c, c)


def cmd_delta(args):
    svg, base_path, cur_path = args[0], args[1], args[2]
    mode, self_mode = opt(args, "--width", "max"), "--self" in args
    negate, minwidth = "--negate" in args, opt(args, "--minwidth", "0.1")
    min_delta = float(opt(args, "--min-delta", "0"))
    root, group, frames = frames_of(svg)
    base, cur = folded_counts(base_path), folded_counts(cur_path)
    stacks = set(base) | set(cur)

    def width(k):
        b, c = base.get(k, 0), cur.get(k, 0)
        return {"max": max(b, c), "cur": c, "base": b, "delta": abs(c - b)}[mode]
    # Every path (prefix of a stack) and what the stacks beneath it hold.
    tree = {}
    for k in stacks:
        b, c = base.get(k, 0), cur.get(k, 0)
        for i in range(len(k) + 1):
            t = tree.setdefault(k[:i], {"b": 0, "c": 0, "up": 0, "down": 0, "w": 0, "own": 0})
            t["b"] += b
            t["c"] += c
            t["up" if c > b else "down"] += c - b
            t["w"] += width(k)
        tree[k]["own"] += c - b
    total = int(group.get("data-total"))
    if total != tree[()]["w"]:
        fault("SVG total %d != %d, the sum of the %s widths" % (total, tree[()]["w"], mode))
    btot, ctot = sum(base.values()), sum(cur.values())
    if (int(group.get("data-before")), int(group.get("data-after"))) != (btot, ctot):
        fault("totals %s -> %s, expected %d -> %d" % (group.get("data-before"), group.get("data-after"), btot, ctot))
    width_px = float(root.get("width"))
    threshold = total * float(minwidth[:-1]) / 100 if minwidth.endswith("%") else \
        float(minwidth) * total / (width_px - 20)
    got = paths_of(frames)
    for key, t in tree.items():
        wide = t["w"] > 0 and t["w"] >= threshold
        if wide and key not in got:
            fault("path %r (width %d, %d -> %d) is not drawn" % (key, t["w"], t["b"], t["c"]))
        if not wide and key in got:
            fault("path %r (width %d) is drawn, narrower than %.2f" % (key, t["w"], threshold))
    for key in got:
        if key not in tree:
            fault("drawn frame %r is in neither profile" % (key,))
    ref = btot if btot else ctot
    floor = max(1, math.ceil(abs(ref) * min_delta / 100)) if min_delta > 0 else 1
    # A frame's own change: its stacks' and that of its children not drawn.
    hidden = {}
    for k, t in tree.items():
        if k and k not in got:
            hidden[k[:-1]] = hidden.get(k[:-1], 0) + t["c"] - t["b"]
    qs = {}
    for key, f in got.items():
        if key not in tree:
            continue
        t = tree[key]
        qs[key] = t["own"] + hidden.get(key, 0) if self_mode else t["c"] - t["b"]
    maxdelta = max([1] + [abs(q) for q in qs.values()])
    counts = {"red": 0, "blue": 0, "new": 0, "white": 0}
    for key, f in got.items():
        if key not in tree:
            continue
        t, q = tree[key], qs[key]
        what = []
        if f.v != t["w"]:
            what.append("width %d, expected %d" % (f.v, t["w"]))
        if (f.before, f.after, f.data_b, f.data_c) != (t["b"], t["c"], t["b"], t["c"]):
            what.append("before/after %d->%d (data %d->%d), expected %d->%d" %
                        (f.before, f.after, f.data_b, f.data_c, t["b"], t["c"]))
        if (f.data_up, f.data_down) != (t["up"], t["down"]):
            what.append("up/down %d/%d, expected %d/%d" % (f.data_up, f.data_down, t["up"], t["down"]))
        if f.delta != q or f.self != self_mode:
            what.append("change %s%d, expected %d" % ("self " if f.self else "", f.delta, q))
        if ref and abs(f.dpct_base - 100.0 * q / abs(ref)) > 0.0051:
            what.append("change %.2f%% of before, expected %.2f%%" % (f.dpct_base, 100.0 * q / abs(ref)))
        change = "same" if abs(q) < floor or q == 0 else "new" if t["b"] == 0 else \
            "gone" if t["c"] == 0 else "grew" if q > 0 else "shrank"
        if f.change != change:
            what.append("judged %s, expected %s" % (f.change, change))
        want = diff_fill(change, q, maxdelta, negate)
        if f.fill != want:
            what.append("fill %s, expected %s (change %d of %d)" % (f.fill, want, q, maxdelta))
        counts["white" if change == "same" else "new" if change == "new" else
               "red" if (q > 0) != negate else "blue"] += 1
        if what:
            fault("%r: %s" % (key, "; ".join(what)))
    if () in got and not self_mode and got[()].delta != ctot - btot:
        fault("root change %d != total change %d" % (got[()].delta, ctot - btot))
    print(counts["red"], counts["blue"], counts["new"], counts["white"])
    done()


def cmd_frame(args):
    root, group, frames = frames_of(args[0])
    for f in frames:
        if f.name == args[1]:
            print("%s %s %d %d|%s" % (f.change, f.fill, f.data_up, f.data_down, f.title))
    done()


def png_pixels(path):
    """Decode an 8-bit RGB or RGBA, non-interlaced PNG (what chromium writes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fault("%s: not a PNG" % path)
        done()
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        fault("%s: PNG kind %d/%d/%d not handled" % (path, depth, ctype, interlace))
        done()
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def cmd_png(args):
    w, h, bpp, rows = png_pixels(args[0])
    checked = 0
    for f in frames_of(args[1])[2]:
        if f.w < 20:
            continue
        # A point inside the rectangle, clear of the label's glyphs.
        x, y = int(f.x + f.w - 4), int(f.y + 2)
        if x >= w or y >= h:
            fault("frame %r at %d,%d is outside the %dx%d screenshot" % (f.name, x, y, w, h))
            continue
        px = tuple(rows[y][x * bpp:x * bpp + 3])
        want = tuple(int(v) for v in re.findall(r"\d+", f.fill))
        if px != want:
            fault("frame %r: pixel %d,%d is rgb%r, fill is %s" % (f.name, x, y, px, f.fill))
        checked += 1
    if checked == 0:
        fault("no frame wide enough to check")
    root = ET.parse(args[1]).getroot()
    stops = [s.get("stop-color") for s in root.iter(NS + "stop")]
    for (x, y), stop in zip(((1, 1), (1, int(float(root.get("height"))) - 2)), stops):
        px = tuple(rows[y][x * bpp:x * bpp + 3])
        want = tuple(int(stop[i:i + 2], 16) for i in (1, 3, 5))
        if px != want:
            fault("background at %d,%d is rgb%r, not %s" % (x, y, px, stop))
    print(checked)
    done()


def cmd_dom(args):
    text = open(args[0], encoding="utf-8").read()
    text = re.sub(r"<!DOCTYPE[^>]*>", "", text)
    root = ET.fromstring(text)
    group = root.find(".//%sg[@id='frames']" % NS)
    for g in group:
        rect = g.find(NS + "rect")
        name = TITLE.match(g.find(NS + "title").text).group(1)
        print("frame", name.replace(" ", "_"), g.get("data-d"), g.get("class") or "-",
              rect.get("fill"), rect.get("x"), rect.get("width"))
    for tid in ("matched", "unzoom", "search"):
        t = root.find(".//%stext[@id='%s']" % (NS, tid))
        print(tid, t.get("class") or "-", (t.text or "").strip() or "-")


FG_TITLE = re.compile(r"^(.*) \(([0-9,]+) (.+), ([0-9.]+)%(?:; ([-+]?[0-9.]+)%)?\)$")
ANNOTATION = re.compile(r"_\[[kwij]\]$")


def fg_frames(path):
    """flamegraph.pl's frames: <g> with title, rect and text, no data-*."""
    text = re.sub(r"<!DOCTYPE[^>]*>", "", open(path, encoding="utf-8").read())
    root = ET.fromstring(text)
    group = root.find(".//%sg[@id='frames']" % NS)
    out = []
    for g in group:
        f = Frame()
        m = FG_TITLE.match(g.find(NS + "title").text)
        if not m:
            fault("flamegraph.pl title %r not understood" % g.find(NS + "title").text)
            continue
        rect = g.find(NS + "rect")
        f.name, f.value = m.group(1), int(m.group(2).replace(",", ""))
        f.pct, f.dpct = float(m.group(4)), m.group(5)
        f.x, f.w = float(rect.get("x")), float(rect.get("width"))
        f.y, f.h = float(rect.get("y")), float(rect.get("height"))
        f.fill, f.label = rect.get("fill"), g.find(NS + "text").text or ""
        out.append(f)
    # Depth from the row: the root's row is the lowest (or, inverted, the
    # highest) and rows are one frame height apart.
    ys = sorted({f.y for f in out})
    step = ys[1] - ys[0] if len(ys) > 1 else 1
    base = [f for f in out if f.name == "all"][0].y
    for f in out:
        f.d = int(round(abs(f.y - base) / step))
    # Values in width order: start from x.
    width = float(root.get("width"))
    total = [f for f in out if f.name == "all"][0].w
    for f in out:
        f.s, f.v = f.x, f.w
    return root, out


def fg_paths(frames):
    by_depth = {}
    for f in frames:
        by_depth.setdefault(f.d, []).append(f)
    paths = {}
    for f in frames:
        names, p = [], f
        while p.d > 0:
            names.append(p.name)
            # Coordinates are rounded to 0.1 px: the parent is the frame
            # one row down that holds the centre most deeply.
            c = p.x + p.w / 2
            ps = sorted((min(c - q.x, q.x + q.w - c), id(q), q) for q in by_depth.get(p.d - 1, [])
                        if q.x - 0.06 <= c <= q.x + q.w + 0.06)
            ps = [t[2] for t in ps[-1:]]
            if len(ps) != 1:
                fault("flamegraph.pl frame %r (depth %d): %d parents" % (p.name, p.d, len(ps)))
                break
            p = ps[0]
        paths[tuple(reversed(names))] = f
    return paths


def same_order(folded, reverse):
    lines = []
    for line in open(folded, encoding="utf-8"):
        parts = line.rstrip("\n").split(" ")
        stack, counts = " ".join(p for p in parts if not re.match(r"^[0-9]+$", p)), [p for p in parts if re.match(r"^[0-9]+$", p)]
        frames = stack.split(";")
        if reverse:
            frames.reverse()
        lines.append((frames, ";".join(frames) + " " + " ".join(counts)))
    perl = [f for f, _ in sorted(lines, key=lambda t: t[1].encode("utf-8"))]
    ours = sorted((f for f, _ in lines), key=lambda fs: [n.encode("utf-8") for n in fs])
    return perl == ours


def background(root):
    return [s.get("stop-color") for s in root.iter(NS + "stop")]


def cmd_fg(args):
    ours_path, theirs_path, folded = args[0], args[1], args[2]
    reverse, total = "--reverse" in args, "--total" in args
    strip = (lambda n: n) if "--chain" in args else (lambda n: ANNOTATION.sub("", n))
    oroot, ogroup, ours = frames_of(ours_path)
    troot, theirs = fg_frames(theirs_path)
    # A differential graph of ours has two more rows above the frames,
    # the subtitle's and the legend's, of twice the font size each; its
    # changes keep their sign with --negate, flamegraph.pl's flip.
    extra = 0.0
    if ogroup.get("data-diff"):
        fs = float(re.search(r"font-size: ([0-9.]+)px", "".join(
            t.text or "" for t in oroot.iter(NS + "style"))).group(1))
        extra = 4 * fs
        if "--negate" in args:
            for f in ours:
                f.dpct = None if f.dpct is None else "%.2f" % -float(f.dpct)
    for attr in ("width", "height"):
        if abs(float(oroot.get(attr)) - (extra if attr == "height" else 0) - float(troot.get(attr))) > 1e-9:
            fault("image %s %s, flamegraph.pl's %s" % (attr, oroot.get(attr), troot.get(attr)))
    if background(oroot) != background(troot):
        fault("background %r, flamegraph.pl's %r" % (background(oroot), background(troot)))
    xs = same_order(folded, reverse)
    mine = {tuple(strip(n) for n in k): f for k, f in paths_of(ours).items()}
    theirs = fg_paths(theirs)
    if set(mine) != set(theirs):
        fault("frames only we draw: %r; only flamegraph.pl: %r" %
              (sorted(set(mine) - set(theirs))[:5], sorted(set(theirs) - set(mine))[:5]))
    n = 0
    for key in sorted(set(mine) & set(theirs)):
        a, b = mine[key], theirs[key]
        if total and not key:
            continue
        n += 1
        what = []
        if a.fill != b.fill:
            what.append("fill %s, flamegraph.pl's %s" % (a.fill, b.fill))
        if a.value != b.value and key:
            what.append("value %d, flamegraph.pl's %d" % (a.value, b.value))
        if abs(a.pct - b.pct) > 0.0101 and key:
            what.append("share %.2f, flamegraph.pl's %.2f" % (a.pct, b.pct))
        # (flamegraph.pl gives its root no change; ours has one.)
        if key and ((a.dpct is None) != (b.dpct is None) or (a.dpct is not None and abs(float(a.dpct) - float(b.dpct)) > 0.0101)):
            what.append("change %s, flamegraph.pl's %s" % (a.dpct, b.dpct))
        if abs(a.y - extra - b.y) > 0.051 or abs(a.w - b.w) > 0.11:
            what.append("row %.1f width %.1f, flamegraph.pl's %.1f %.1f" % (a.y, a.w, b.y, b.w))
        if xs and abs(a.x - b.x) > 0.051:
            what.append("x %.1f, flamegraph.pl's %.1f" % (a.x, b.x))
        # (flamegraph.pl does not shorten names as pprof does.)
        if key and not ANNOTATION.search(a.name) and a.short is None and a.label != b.label:
            what.append("label %r, flamegraph.pl's %r" % (a.label, b.label))
        if what:
            fault("%r: %s" % (key, "; ".join(what)))
    print(n)
    done()


# flamegraph.pl's one-hue palettes, as functions of their number v.
HUES = {
    "red": lambda v: (200 + int(55 * v), 50 + int(80 * v), 50 + int(80 * v)),
    "green": lambda v: (50 + int(60 * v), 200 + int(55 * v), 50 + int(60 * v)),
    "blue": lambda v: (80 + int(60 * v), 80 + int(60 * v), 205 + int(50 * v)),
    "aqua": lambda v: (50 + int(60 * v), 165 + int(55 * v), 165 + int(55 * v)),
    "yellow": lambda v: (175 + int(55 * v), 175 + int(55 * v), 50 + int(20 * v)),
    "purple": lambda v: (190 + int(65 * v), 80 + int(60 * v), 190 + int(65 * v)),
    "orange": lambda v: (190 + int(65 * v), 90 + int(65 * v), 0),
}


def hue_of(fill, table):
    rgb = tuple(int(x) for x in re.findall(r"\d+", fill))
    if rgb == (160, 160, 160):
        return "grey"
    if rgb == (200, 200, 200):
        return "light"
    if rgb == (255, 255, 255):
        return "white"
    for name, colours in table.items():
        if rgb in colours:
            return name
    if rgb[0] == 255 and rgb[1] == rgb[2]:
        return "diff-red"
    if rgb[2] == 255 and rgb[0] == rgb[1]:
        return "diff-blue"
    return "?"


def cmd_hues(args):
    table = {name: {f(i / 20000) for i in range(20000)} for name, f in HUES.items()}
    for path in args:
        for f in frames_of(path)[2]:
            print(hue_of(f.fill, table), f.name)
    done()


def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, payload):
    if isinstance(payload, int):
        return varint(num << 3) + varint(payload)
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def cmd_pprof(args):
    strings, funcs, out = [""], {}, bytearray()

    def sid(s):
        if s not in strings:
            strings.append(s)
        return strings.index(s)
    out += field(1, field(1, sid("samples")) + field(2, sid("count")))
    for line in open(args[0], encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        locs = []
        for name in stack.split(";"):
            if name not in funcs:
                funcs[name] = len(funcs) + 1
            locs.append(funcs[name])
        ids = b"".join(varint(i) for i in reversed(locs))
        out += field(2, field(1, ids) + field(2, varint(int(count))))
    for name, i in funcs.items():
        out += field(4, field(1, i) + field(4, field(1, i) + field(2, 1)))
        out += field(5, field(1, i) + field(2, sid(name)) + field(3, sid(name)))
    for s in strings:
        out += field(6, s.encode("utf-8"))
    open(args[1], "wb").write(out)


if __name__ == "__main__":
    {"tree": cmd_tree, "colors": cmd_colors, "diff": cmd_diff, "delta": cmd_delta, "frame": cmd_frame, "png": cmd_png,
     "dom": cmd_dom, "fg": cmd_fg, "pprof": cmd_pprof, "hues": cmd_hues}[sys.argv[1]](sys.argv[2:])
