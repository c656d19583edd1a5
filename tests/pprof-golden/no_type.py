#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# no_type.py GOLDEN OURS - compare a DOT golden of pprof's internal/report
# TestSource with profconv's graph of the same profile.
#
# TestSource builds its report's options by hand: no sample type name and
# no output unit, which no command line can give (pprof and profgraph
# always name the type shown and pick a unit).  So the golden's legend
# has no "Type: NAME" line, starts (and names its box) with the
# "Duration:" line, and its values have no unit.  This leaves out of OURS
# exactly those two things, the type line and the unit after each value,
# and then wants the files byte for byte; anything else that differs
# fails.
import re
import sys


def main():
    golden = open(sys.argv[1], encoding="utf-8").read()
    ours = open(sys.argv[2], encoding="utf-8").read()
    m = re.search(r'label="Type: ([^\\"]*)\\l', ours)
    if m is None:
        sys.stderr.write("no 'Type:' line in our legend\n")
        return 1
    ours = ours.replace("Type: %s\\l" % m.group(1), "", 1)
    # The legend's box is named after its first line.
    first = re.search(r'label="([^\\"]*)\\l', ours)
    ours = ours.replace('"Type: %s" [' % m.group(1),
                        '"%s" [' % first.group(1), 1)
    u = re.search(r"Total samples = [0-9.]+([A-Za-z]+) ", ours)
    if u is not None:
        ours = re.sub(r"([0-9])%s\b" % re.escape(u.group(1)), r"\1", ours)
    if ours != golden:
        import difflib
        sys.stderr.writelines(difflib.unified_diff(
            golden.splitlines(True), ours.splitlines(True),
            "golden", "ours (normalized)"))
        return 1
    return 0


sys.exit(main())
