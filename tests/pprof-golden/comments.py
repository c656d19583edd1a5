#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""comments.py GOLDEN OURS - does profconv show print the comments that
pprof -comments prints?

Normalization: of profconv show's dump, only the "comment: TEXT" lines
count, with the "comment: " prefix cut; pprof -comments prints TEXT
alone, one per line.  Exit 0 when the lists are equal, 1 when not.
"""
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    golden = f.read().splitlines()
with open(sys.argv[2], encoding="utf-8") as f:
    ours = [l[len("comment: "):] for l in f.read().splitlines()
            if l.startswith("comment: ")]
if golden == ours:
    sys.exit(0)
print("comments: pprof %r, profconv %r" % (golden, ours), file=sys.stderr)
sys.exit(1)
