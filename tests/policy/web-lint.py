# SPDX-License-Identifier: MIT
# web-lint.py FILE.css... - each style sheet parses as CSS (tinycss2): no
# parse error, no declaration without a value, no block left open.  One
# line per fault, "FILE:LINE: what"; exit 1 if any.
import sys

import tinycss2

def faults(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.strip() and not text.rstrip().endswith("}"):
        yield 0, "the last rule's block is not closed"
    opts = {"skip_whitespace": True, "skip_comments": True}
    for rule in tinycss2.parse_stylesheet(text, **opts):
        if rule.type == "error":
            yield rule.source_line, rule.message
            continue
        if rule.type != "qualified-rule":
            continue
        if not [t for t in rule.prelude if t.type != "whitespace"]:
            yield rule.source_line, "a rule without a selector"
        for d in tinycss2.parse_declaration_list(rule.content, **opts):
            if d.type == "error":
                yield d.source_line, d.message
            elif d.type == "declaration" and not [
                    t for t in d.value
                    if t.type not in ("whitespace", "comment")]:
                yield d.source_line, "%s has no value" % d.name

bad = 0
for path in sys.argv[1:]:
    for line, what in faults(path):
        print("%s:%s: %s" % (path, line, what))
        bad = 1
sys.exit(bad)
