#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""dot-legend.py GOLDEN OURS - are a pprof -dot golden and profgraph --dot
the same graph, but for the filter lines of the legend?

Normalization: the "Active filters:" block of the legend box (the line
itself and the indented "   name=value" lines under it, each ending in
DOT's left-justified line break, a literal \\l) is cut from both files.
pprof lists -hide, -tagfocus, -tagignore ... there; profgraph lists only
some of its filters.  Everything else (nodes, edges, values, colours,
the total) must be byte-identical.  Exit 0 when equal, 1 when not.
"""
import difflib
import re
import sys

FILTERS = re.compile(r"Active filters:\\l(?:   [^\\]*\\l)*")


def load(path):
    with open(path, encoding="utf-8") as f:
        return FILTERS.sub("", f.read())


golden, ours = load(sys.argv[1]), load(sys.argv[2])
if golden == ours:
    sys.exit(0)
sys.stderr.writelines(difflib.unified_diff(
    golden.splitlines(True), ours.splitlines(True), "pprof", "profgraph", n=0))
sys.exit(1)
