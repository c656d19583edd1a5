#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""top.py GOLDEN OURS - do a pprof text report (-text, -top) and profconv
show --summary's function rows say the same numbers?

Normalization, and nothing more:
  * pprof's header lines (Active filters, Showing nodes ..., Dropped ...)
    are dropped, except the total ("of T total");
  * pprof's sum% column and " (inline)" marks are dropped (profconv
    has neither);
  * a file name in a row keeps its base name only (profconv prints
    "file1000.src:1" where pprof prints "testdata/file1000.src:1");
  * values: profconv prints the profile's own unit (milliseconds,
    bytes, count); each is scaled to the unit pprof chose for that
    cell and rounded to as many decimals as pprof printed;
  * rows: every row pprof prints must be among profconv's with the same
    flat and cum (pprof leaves out rows under -nodefraction; profconv
    lists them all), in the same order.
Exit 0 when they agree, 1 (with the differences on stderr) when not.
"""
import re
import sys

# pprof's units, scaled to the profile's base unit (ns, bytes, count).
SCALE = {"": 1, "ns": 1, "us": 1e3, "\u00b5s": 1e3, "ms": 1e6, "s": 1e9,
         "mins": 60e9, "hrs": 3600e9, "B": 1, "kB": 1024.0,
         "MB": 1024.0 ** 2, "GB": 1024.0 ** 3, "TB": 1024.0 ** 4}
BASE = {"nanoseconds": 1, "microseconds": 1e3, "milliseconds": 1e6,
        "seconds": 1e9, "bytes": 1, "count": 1}
VALUE = re.compile(r"^(-?[0-9.]+(?:e[+-]?[0-9]+)?)([a-zA-Z\u00b5]*)$")


def name_of(s):
    s = re.sub(r" \(inline\)$", "", s.strip())
    return " ".join(t.rsplit("/", 1)[-1] if re.search(r"\.[a-z]+(:[0-9]+)?$", t)
                    else t for t in s.split(" "))


def ours_as(cell, raw, base):
    """OURS' raw value written as pprof wrote CELL."""
    m = VALUE.match(cell)
    if not m:
        return None
    digits = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    v = raw * base / SCALE.get(m.group(2), 1)
    return "%.*f%s" % (digits, v, m.group(2))


def canon(cell):
    m = VALUE.match(cell)
    return "%s%s" % (m.group(1), m.group(2)) if m else cell


def main():
    golden = open(sys.argv[1], encoding="utf-8").read().splitlines()
    ours = open(sys.argv[2], encoding="utf-8").read().splitlines()
    total, rows = None, []
    body = False
    for line in golden:
        m = re.match(r"Showing nodes accounting for .*, .* of (\S+) total", line)
        if m:
            total = m.group(1)
        if re.match(r"^ *flat +flat% +sum% +cum +cum%", line):
            body = True
            continue
        if body and line.strip():
            f = line.split(None, 5)
            rows.append((name_of(f[5]), f[0], f[3]))
    kind = None
    ours_totals, orows = [], []
    body = False
    for line in ours:
        m = re.match(r"^top [0-9]+ (?:functions|files) by (\S+)", line)
        if m:
            kind, body = m.group(1), True
            continue
        m = re.match(r"^total ([^/]+)/(\S+): (-?[0-9]+)", line)
        if m and not body:
            ours_totals.append((m.group(1), m.group(2), int(m.group(3))))
            continue
        # Under filters that took samples away, the total the shares are
        # of (pprof's "of T total") is on a line of its own.
        m = re.match(r"^percentages of (-?[0-9]+) ([^/]+)/(\S+): every "
                     r"sample's magnitude, before filters$", line)
        if m and not body:
            ours_totals.insert(0, (m.group(2), m.group(3), int(m.group(1))))
            continue
        if body and line.strip():
            f = line.split(None, 4)
            orows.append((name_of(f[4]), int(f[0]), int(f[2])))
    bad = []
    t = [x for x in ours_totals if x[0] == kind]
    if not t:
        print("top.py: no total for %s in profconv's output" % kind, file=sys.stderr)
        return 1
    base = BASE.get(t[0][1], 1)
    if total is not None and canon(total) != ours_as(total, t[0][2], base) \
            and not (total == "0" and t[0][2] == 0):
        bad.append("total: pprof %s, profconv %s (%d)" %
                   (total, ours_as(total, t[0][2], base), t[0][2]))
    byname = {r[0]: r for r in orows}
    order = []
    for name, flat, cum in rows:
        o = byname.get(name)
        if o is None:
            bad.append("row %r: not in profconv's rows" % name)
            continue
        order.append(orows.index(o))
        for what, cell, raw in (("flat", flat, o[1]), ("cum", cum, o[2])):
            if cell == "0" and raw == 0:
                continue
            if canon(cell) != ours_as(cell, raw, base):
                bad.append("row %r: %s pprof %s, profconv %s" %
                           (name, what, cell, ours_as(cell, raw, base)))
    if order != sorted(order):
        bad.append("rows in another order than pprof's")
    for b in bad:
        print("top.py: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
