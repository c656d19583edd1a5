# SPDX-License-Identifier: MIT
# trend-svg-check.py - checks of proftrend's SVG (--svg) against proftrend's
# own JSON of the same series (--json, the oracle for totals, rows and
# verdicts), used by tests/cli/trend-svg.sh.  Every command exits 1 with
# "trend-svg-check: ..." lines on a fault.
#
#   sums SVG JSON TOP MODE
#       SVG parses as XML; at every drawn snapshot the bands' values add
#       up to the snapshot's total, which is the JSON's; the bands are the
#       JSON's first TOP rows, in order, with their figures and verdicts,
#       then "other"; the peak mark is at the first snapshot with the
#       largest total; the drawn snapshots are all of them, or (more than
#       500) 500 with the first, the last and the peak among them; each
#       band's area lies on the one below, and the stack's height at every
#       drawn snapshot is in proportion to its total; the x axis is MODE
#       (order or time).  Prints how many snapshots are drawn.
#   names SVG NAMES
#       the bands' names, read back from the XML, are the lines of NAMES
#       (UTF-8, escaped as "\xNN"), with the characters XML cannot hold
#       as U+FFFD.
#   points SVG
#       print "x y r g b" for a point inside each band thick enough to
#       hit (and each legend swatch): where the screenshot must show the
#       band's fill.
#   png PNG POINTS
#       the screenshot shows each colour of POINTS at its place.
#   pprof FOLDED OUT TIME
#       svg-check.py's pprof FOLDED OUT, with time_nanos TIME (field 9).
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
faults = []


def fault(msg):
    faults.append(msg)
    if len(faults) < 20:
        print("trend-svg-check: " + msg, file=sys.stderr)


def done():
    sys.exit(1 if faults else 0)


class Band:
    pass


def parse(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print("trend-svg-check: %s: not well-formed XML: %s" % (path, e), file=sys.stderr)
        sys.exit(1)
    if root.tag != NS + "svg":
        fault("root element is %s" % root.tag)
    group = root.find(".//%sg[@id='bands']" % NS)
    snaps = root.find(".//%sg[@id='snapshots']" % NS)
    if group is None or snaps is None:
        fault("no <g id='bands'> or <g id='snapshots'>")
        done()
    bands = []
    for g in group:
        b = Band()
        title = g.find(NS + "title").text or ""
        b.name = title[:title.rfind(" (")]
        b.cls = g.get("class").split()
        b.other = "other" in b.cls
        b.v = [int(x) for x in g.get("data-v").split(",")]
        b.attr = g.attrib
        b.fill = g.find(NS + "path").get("fill")
        pts = [tuple(float(c) for c in p.split(","))
               for p in re.findall(r"[-0-9.]+,[-0-9.]+", g.find(NS + "path").get("d"))]
        k = len(b.v)
        b.top, b.bottom = pts[:k], list(reversed(pts[k:]))
        if len(pts) != 2 * k:
            fault("band %r: %d points for %d snapshots" % (b.name, len(pts), k))
        bands.append(b)
    drawn = [(int(t.get("data-i")), int(t.get("data-total")), float(t.get("data-x")), t.text)
             for t in snaps]
    return root, bands, drawn


def xml_text(s):
    """S as XML can hold it: the control characters as U+FFFD."""
    return "".join("\ufffd" if (ord(c) < 0x20 and c not in "\t\n\r") or c in "\ufffe\uffff"
                   else c for c in s)


def cmd_sums(args):
    root, bands, drawn = parse(args[0])
    data = json.load(open(args[1], encoding="utf-8"))
    top, mode = int(args[2]), args[3]
    totals = [s["inuse_bytes"] for s in data["snapshots"]]
    n = len(totals)
    rows = data["rows"][:top]
    # The drawn snapshots.
    idx = [d[0] for d in drawn]
    if idx != sorted(set(idx)):
        fault("drawn snapshots not in increasing order")
    peak = max(range(n), key=lambda i: (totals[i], -i))
    want = min(n, 500)
    if len(idx) != want:
        fault("%d snapshots drawn of %d, expected %d" % (len(idx), n, want))
    for must in (0, n - 1, peak):
        if must not in idx:
            fault("snapshot %d (first, last or peak) not drawn" % must)
    # Sums: the bands make each drawn snapshot's total, the JSON's.
    for k, (i, total, x, name) in enumerate(drawn):
        if total != totals[i]:
            fault("snapshot %d: total %d, JSON says %d" % (i, total, totals[i]))
        s = sum(b.v[k] for b in bands)
        if s != totals[i]:
            fault("snapshot %d: bands add up to %d, total is %d" % (i, s, totals[i]))
        if any(b.v[k] < 0 for b in bands):
            fault("snapshot %d: a negative band" % i)
    # The bands: the table's first rows, then other.
    if len(bands) != len(rows) + 1 or not bands[-1].other:
        fault("%d bands for %d rows: expected the rows and one 'other' last" % (len(bands), len(rows)))
    for b, r in zip(bands, rows):
        if b.other or b.name != xml_text(r["name"]):
            fault("band %r is not row %r" % (b.name, r["name"]))
            continue
        for key, attr in (("first_bytes", "data-first"), ("last_bytes", "data-last"),
                          ("growth_bytes", "data-growth"), ("grew_intervals", "data-grew"),
                          ("intervals", "data-intervals")):
            if int(b.attr[attr]) != r[key]:
                fault("band %r: %s %s, JSON %s" % (b.name, attr, b.attr[attr], r[key]))
        verdict = r.get("verdict", "leak" if r["suspect"] else "-")
        if b.attr["data-verdict"] != verdict:
            fault("band %r: verdict %s, JSON %s" % (b.name, b.attr["data-verdict"], verdict))
        vals = [r["values"][i] for i in idx]
        if b.v != vals:
            fault("band %r: values differ from the JSON's" % b.name)
    # The peak mark.
    mark = root.find(".//%sg[@id='peak']" % NS)
    if mark is None or int(mark.get("data-i")) != peak:
        fault("peak mark at %s, the largest total is snapshot %d" %
              (None if mark is None else mark.get("data-i"), peak))
    # Geometry: each band sits on the one below; heights follow totals.
    base = bands[0].bottom[0][1] if bands else 0
    for k in range(len(drawn)):
        for j, b in enumerate(bands):
            below = bands[j - 1].top[k] if j else (b.bottom[k][0], base)
            if b.bottom[k] != below:
                fault("band %r at snapshot %d: lower edge %r, band below %r" %
                      (b.name, drawn[k][0], b.bottom[k], below))
            if b.top[k][0] != drawn[k][2]:
                fault("band %r: x %s, snapshot x %s" % (b.name, b.top[k][0], drawn[k][2]))
    kp = idx.index(peak) if peak in idx else 0
    full = base - bands[-1].top[kp][1]
    for k, (i, total, x, name) in enumerate(drawn):
        h = base - bands[-1].top[k][1]
        want_h = full * total / totals[peak] if totals[peak] else 0
        if abs(h - want_h) > 0.25:
            fault("snapshot %d: stack %.1f px high, %.1f expected" % (i, h, want_h))
    axis = root.find(".//%stext[@id='xaxis']" % NS)
    if axis is None or axis.get("data-mode") != mode:
        fault("x axis mode %s, expected %s" % (None if axis is None else axis.get("data-mode"), mode))
    print(len(drawn))
    done()


def cmd_names(args):
    root, bands, drawn = parse(args[0])
    want = []
    for line in open(args[1], "rb").read().split(b"\n"):
        if not line:
            continue
        s = line.decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
        want.append(xml_text(s))
    got = [b.name for b in bands if not b.other]
    for w in want:
        if w not in got:
            fault("no band named %r (bands: %r)" % (w, got))
    done()


def cmd_points(args):
    root, bands, drawn = parse(args[0])
    peak = root.find(".//%sg[@id='peak']" % NS)
    px = float(peak.find(NS + "line").get("x1"))
    for b in bands:
        rgb = re.findall(r"\d+", b.fill)
        best = None
        for k in range(1, len(drawn) - 1):
            x = b.top[k][0]
            thick = b.bottom[k][1] - b.top[k][1]
            # Not by the peak's line, nor within 4 px of the chart's
            # ends (where snapshots crowd on an allocation axis, the
            # edge of the area is antialiased).
            if abs(x - px) < 4 or thick < 10 or \
                    x > b.top[-1][0] - 4 or x < b.top[0][0] + 4:
                continue
            if best is None or thick > best[0]:
                best = (thick, x, (b.top[k][1] + b.bottom[k][1]) / 2)
        if best:
            print(int(best[1]) - 1, int(best[2]), *rgb)
    for item in root.find(".//%sg[@id='legend']" % NS):
        r = item.find(NS + "rect")
        print(int(float(r.get("x"))) + 6, int(float(r.get("y"))) + 6,
              *re.findall(r"\d+", r.get("fill")))


def svgcheck():
    """svg-check.py, beside this file, as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "svgcheck", os.path.join(os.path.dirname(os.path.abspath(__file__)), "svg-check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cmd_pprof(args):
    mod = svgcheck()
    mod.cmd_pprof(args[:2])
    with open(args[1], "ab") as f:
        f.write(mod.varint(9 << 3) + mod.varint(int(args[2])))


def cmd_png(args):
    w, h, bpp, rows = svgcheck().png_pixels(args[0])
    n = 0
    for line in open(args[1]):
        x, y, r, g, b = (int(v) for v in line.split())
        if x >= w or y >= h:
            fault("point %d,%d outside the %dx%d screenshot" % (x, y, w, h))
            continue
        got = tuple(rows[y][x * bpp:x * bpp + 3])
        if got != (r, g, b):
            fault("pixel %d,%d is rgb%r, expected rgb(%d,%d,%d)" % (x, y, got, r, g, b))
        n += 1
    if n == 0:
        fault("no point to check")
    print(n)
    done()


if __name__ == "__main__":
    {"sums": cmd_sums, "names": cmd_names, "points": cmd_points,
     "png": cmd_png, "pprof": cmd_pprof}[sys.argv[1]](sys.argv[2:])
