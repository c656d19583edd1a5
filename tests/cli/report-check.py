# SPDX-License-Identifier: MIT
# report-check.py - reads a page of profconv report as a browser's parser
# does (html.parser, then each picture's SVG as XML) and checks it
# against the command-line tools' output.  Used by tests/cli/report.sh.
#
#   page PAGE SECTION...        the page parses; it has these sections, a
#                               CSP meta that forbids fetching, scripts
#                               and styles only inline, no attribute that
#                               loads anything, frames whose data-svg is
#                               percent-encoded SVG that parses as XML,
#                               with one script each; prints "ok"
#   totals PAGE SUMMARY [base]  the summary's totals are those of
#                               show --summary's output SUMMARY
#   top PAGE SUMMARY            the top table's rows (flat, cum, name)
#                               are show --summary --sort flat's
#   pre PAGE ID TEXTFILE        the <pre id=ID> holds TEXTFILE's text
#   compare PAGE JSON TYPE      the comparison table's rows and TOTAL are
#                               profdiff --json's (same order; base, cur,
#                               delta and change of TYPE, heap columns)
#   source PAGE LISTFILE        the source tab's functions and rows (flat,
#                               cum, line, text) are profconv list's text
#   flame PAGE TOTAL [diff]     the flame graph's root holds TOTAL (and is
#                               differential)
#   trend PAGE JSON             snapshots and verdict rows are proftrend
#                               --json's
#   sumtop PAGE SUMMARY         the summary's heaviest functions are the
#                               first 5 with a flat value of SUMMARY
#   names PAGE NAMESFILE        every name of NAMESFILE is shown as text
#                               in the top table, the flame graph, the
#                               call graph, the source tab's headings and
#                               the comparison table (if any), and no
#                               element came of one
#   live PAGE SUMMARY           the Explore tab's data (JSON in
#                               <script id=live-data>) parses, holds no
#                               '<', its totals per type are show
#                               --summary's and its nodes' self values
#                               add up to them, and its statement says
#                               what its dropped sums leave
#   prune FULL PRUNED [BUDGET]  PRUNED's dropped nodes and sums are those
#                               computed here from FULL's unpruned tree
#                               at PRUNED's cut (cum <= cut for every
#                               type), its kept nodes at most BUDGET
#   liveseries PAGE             a series' data: one column per snapshot,
#                               in the order of the snapshot table, its
#                               total show --summary's inuse_space of the
#                               file (run with $PROFCONV)
#   livenames PAGE NAMESFILE    every name of NAMESFILE is in the data as
#                               a string, and the data element ends where
#                               the JSON does

import html.parser
import json
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fault(msg):
    sys.stderr.write("report-check: %s\n" % msg)
    sys.exit(1)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections = []
        self.scripts = []
        self.iframes = []
        self.metas = []
        self.tags = []
        self.stack = []
        self.text = {}          # element id -> text
        self.rows = {}          # table id -> rows of cells
        self.table = None
        self.row = None
        self.cell = None
        self.ids = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "section":
            self.sections.append(a.get("id"))
        elif tag == "script":
            self.scripts.append(a)
        elif tag == "iframe":
            self.iframes.append(a)
        elif tag == "meta":
            self.metas.append(a)
        elif tag == "table":
            self.table = a.get("id")
            self.rows[self.table] = []
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = [a, ""]
        if a.get("id") and tag not in ("input", "br", "meta"):
            self.ids.append([a["id"], ""])
            self.stack.append(tag)
        elif self.ids and tag not in ("br", "meta", "iframe", "input"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows[self.table].append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
            if len(self.stack) < len(self.ids):
                i, t = self.ids.pop()
                self.text[i] = t

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        for e in self.ids:
            e[1] += data


def load(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    p.close()
    return p


def frame_svg(p, cls):
    for f in p.iframes:
        if cls in f.get("class", "").split():
            if "src" in f:
                fault("frame %s has a src: %r" % (cls, f["src"][:60]))
            text = urllib.parse.unquote(f.get("data-svg", ""), errors="strict")
            try:
                return ET.fromstring(text.encode("utf-8")), text
            except ET.ParseError as e:
                fault("frame %s: the SVG does not parse: %s" % (cls, e))
    return None, None


def cmd_page(args):
    p = load(args[0])
    for s in args[1:]:
        if s not in p.sections:
            fault("no section %s (sections: %r)" % (s, p.sections))
    csp = [m.get("content", "") for m in p.metas
           if m.get("http-equiv", "").lower() == "content-security-policy"]
    if len(csp) != 1:
        fault("%d CSP metas" % len(csp))
    pol = {d.split()[0]: d.split()[1:] for d in csp[0].split(";") if d.strip()}
    if pol.get("default-src") != ["'none'"]:
        fault("default-src is %r" % pol.get("default-src"))
    for d, v in pol.items():
        for src in v:
            if src not in ("'none'", "'unsafe-inline'", "blob:"):
                fault("CSP %s allows %s" % (d, src))
    if any(d in pol for d in ("connect-src", "img-src", "font-src",
                              "media-src", "object-src")):
        fault("CSP allows fetching: %r" % pol)
    if pol.get("frame-src", ["blob:"]) != ["blob:"]:
        fault("frame-src %r" % pol.get("frame-src"))
    # Inline scripts only: the page's and the Explore tab's, and the
    # Explore tab's data, which does not run.
    code = [s for s in p.scripts if s.get("type") != "application/json"]
    data = [s for s in p.scripts if s.get("type") == "application/json"]
    if not 1 <= len(code) <= 2 or any(code) or \
            any(d != {"type": "application/json", "id": "live-data"}
                for d in data) or len(data) != len(code) - 1:
        fault("scripts: %r (inline scripts and the live data expected)" %
              p.scripts)
    for tag, a in p.tags:
        for k, v in a.items():
            if k in ("src", "href", "action", "data", "srcset", "poster"):
                fault("<%s %s=%r> would fetch" % (tag, k, v[:60]))
            if k.startswith("on"):
                fault("<%s %s> runs script" % (tag, k))
    for f in p.iframes:
        cls = f.get("class", "").split()[-1]
        root, text = frame_svg(p, cls)
        if root.tag != SVG + "svg":
            fault("frame %s: root %s" % (cls, root.tag))
        n = len(root.findall(".//%sscript" % SVG))
        if n != 1:
            fault("frame %s: %d scripts" % (cls, n))
        for e in root.iter():
            for k in e.attrib:
                if k.lower().startswith("on"):
                    fault("frame %s: %s has %s" % (cls, e.tag, k))
    print("ok")


def summary_totals(path):
    t = {}
    for line in open(path):
        m = re.match(r"total ([^/]+)/\S+: (-?\d+)", line)
        if m:
            t[m.group(1)] = int(m.group(2))
    if not t:
        fault("no totals in %s" % path)
    return t


def cmd_totals(args):
    p = load(args[0])
    want = summary_totals(args[1])
    cls = "base-total" if len(args) > 2 else "total"
    got = {}
    for tag, a in p.tags:
        if tag == "dd" and a.get("class") == cls:
            got[a["data-type"]] = int(a["data-v"])
    if got != want:
        fault("%s: page %r, show --summary %r" % (cls, got, want))
    print(len(got))


def summary_rows(path):
    """show --summary's function rows: (flat, cum, name), in order."""
    rows = []
    on = False
    for line in open(path):
        if line.startswith("top ") and " functions " in line:
            on = True
            continue
        if on:
            f = line.split(None, 4)
            if len(f) < 5:
                break
            rows.append((int(f[0]), int(f[2]), f[4].rstrip("\n")))
    return rows


def table_rows(p, tid):
    """A top table's rows as (flat, cum, name)."""
    return [(int(r[0][0]["data-v"]), int(r[2][0]["data-v"]), r[4][1])
            for r in p.rows.get(tid, [])[1:]]


def cmd_top(args):
    p = load(args[0])
    want = summary_rows(args[1])
    got = table_rows(p, "top-table")
    if not want:
        fault("no functions in %s" % args[1])
    if got != want:
        fault("top table %r\nshow --summary %r" % (got[:5], want[:5]))
    print(len(got))


def cmd_sumtop(args):
    """The summary's heaviest functions: the first 5 rows of show
    --summary --sort flat with a flat value, in order."""
    p = load(args[0])
    want = [r for r in summary_rows(args[1]) if r[0] != 0][:5]
    got = table_rows(p, "summary-top")
    if not want or got != want:
        fault("summary's heaviest %r\nshow --summary %r" % (got, want))
    print(len(got))


def cmd_pre(args):
    p = load(args[0])
    got = p.text.get(args[1])
    want = open(args[2], encoding="utf-8").read()
    if got is None:
        fault("no <pre id=%s>" % args[1])
    if got != want:
        fault("<pre id=%s> differs from %s:\n%s\n---\n%s" %
              (args[1], args[2], got[:800], want[:800]))
    print(len(got.splitlines()))


def cmd_compare(args):
    p = load(args[0])
    j = json.load(open(args[1]))
    t = args[2]
    heap = ["newCount", "deletedCount", "countDelta", "allocatedSize",
            "freedSize", "sizeDelta"] if j["kind"] == "heap" else []

    def want_row(r):
        v = r["values"][t]
        return ([r["name"], v["base"], v["cur"], v["delta"], v["change"]] +
                [r[k] for k in heap])

    def got_row(r):
        n = [int(c[0]["data-v"]) for c in r[1:4]]
        return ([r[0][1]] + n + [r[5][1]] +
                [int(c[0]["data-v"]) for c in r[6:]])
    rows = p.rows.get("compare-table")
    if not rows:
        fault("no comparison table")
    head = [c[1] for c in rows[0]]
    if len(head) != 6 + len(heap):
        fault("comparison header %r" % head)
    got = [got_row(r) for r in rows[1:]]
    want = [want_row(r) for r in j["rows"]] + [want_row(j["total"])]
    if got != want:
        fault("comparison %r\nprofdiff --json %r" % (got[:4], want[:4]))
    for r in rows[1:]:
        pct = float(r[4][0]["data-v"])
        d, b = int(r[3][0]["data-v"]), float(j["before"][t])
        if b != 0 and abs(pct - 100.0 * d / b) > 1e-3 * max(1, abs(pct)):
            fault("%s: delta%% %r, %d of %r" % (r[0][1], pct, d, b))
    print(len(got))


class Listing(html.parser.HTMLParser):
    """The source tab: [(heading, [[flat, cum, line, text, cls]...])]."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.on = 0             # depth of <section> inside id=source
        self.routines = []
        self.h2 = None
        self.row = None
        self.cell = None
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and (self.on or a.get("id") == "source"):
            self.on += 1
        if not self.on:
            return
        self.tags.append(tag)
        if tag == "h2":
            self.h2 = ""
        elif tag == "tr" and self.routines:
            self.row = [a.get("class", "")]
        elif tag == "td" and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if not self.on:
            return
        if tag == "section":
            self.on -= 1
        elif tag == "h2":
            self.routines.append((self.h2, []))
            self.h2 = None
        elif tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if len(self.row) == 5:
                self.routines[-1][1].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.h2 is not None:
            self.h2 += data
        if self.cell is not None:
            self.cell += data


def cmd_source(args):
    lp = Listing()
    lp.feed(open(args[0], encoding="utf-8").read())
    lp.close()
    if "script" in lp.tags:
        fault("a script in the source tab")
    want = []
    for line in open(args[1], encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"ROUTINE =+ (.*)$", line)
        if m:
            want.append((m.group(1), []))
            continue
        m = re.match(r"No source information for (.*)$", line)
        if m:
            want.append((m.group(1), []))
            continue
        m = re.match(r" *(\S+) +(\S+) +(\d+):(.*)$", line)
        if m and want:
            want[-1][1].append(list(m.groups()))
    got = []
    for name, rows in lp.routines:
        out = []
        for cls, flat, cum, n, text in rows:
            # Inlined rows name the function and place first; the
            # comparison takes the numbers and a line's own text.
            out.append([flat, cum, n, text if cls.startswith("line") else
                        None])
        got.append((name, out))
    if [g[0] for g in got] != [w[0] for w in want]:
        fault("source functions %r, profconv list %r" %
              ([g[0] for g in got], [w[0] for w in want]))
    for (name, g), (_, w) in zip(got, want):
        if len(g) != len(w):
            fault("%s: %d rows, profconv list %d" % (name, len(g), len(w)))
        for a, b in zip(g, w):
            if a[:3] != b[:3] or (a[3] is not None and a[3] != b[3]):
                fault("%s: row %r, profconv list %r" % (name, a, b))
    print(sum(len(g) for _, g in got))


def cmd_flame(args):
    p = load(args[0])
    root, _ = frame_svg(p, "flame")
    if root is None:
        fault("no flame graph frame")
    frames = root.find(".//%sg[@id='frames']" % SVG)
    first = frames[0]
    diff = len(args) > 2
    if diff != (frames.get("data-diff") is not None):
        fault("differential: %r" % frames.get("data-diff"))
    v = int(first.get("data-c" if diff else "data-v"))
    if v != int(args[1]):
        fault("flame root %d, expected %s" % (v, args[1]))
    print(len(frames))


def cmd_trend(args):
    p = load(args[0])
    j = json.load(open(args[1]))
    snaps = [(s["file"], s["inuse_bytes"]) for s in j["snapshots"]]
    got = [(r[1][1], int(r[2][0]["data-v"])) for r in p.rows["snapshots"][1:]]
    if got != snaps:
        fault("snapshots %r, proftrend %r" % (got, snaps))
    want = [(r["name"], r["first_bytes"], r["last_bytes"], r["growth_bytes"],
             r["verdict"]) for r in j["rows"]][:50]
    got = [(r[5][1], int(r[0][0]["data-v"]), int(r[1][0]["data-v"]),
            int(r[2][0]["data-v"]), r[4][1]) for r in p.rows["verdict-table"][1:]]
    if got != want:
        fault("verdicts %r\nproftrend %r" % (got, want))
    print(len(got))


def cmd_names(args):
    p = load(args[0])
    names = [l for l in open(args[1], encoding="utf-8").read().split("\n") if l]
    shown = [r[4][1] for r in p.rows.get("top-table", [])[1:]]
    fl, _ = frame_svg(p, "flame")
    titles = [t.text or "" for t in fl.iter(SVG + "title")]
    gr, gtext = frame_svg(p, "graph")
    for n in names:
        if n not in shown:
            fault("top table lacks %r (has %r)" % (n, shown))
        # "name (value, share)"; differential: "change | before → after | name"
        if not any(t.startswith(n + " (") or t.endswith(" | " + n)
                   for t in titles):
            fault("flame graph lacks %r" % n)
        if gr is not None and not any(n in (t.text or "") for t in gr.iter(SVG + "text")):
            fault("call graph lacks %r" % n)
    if "compare-table" in p.rows:
        cmp = [r[0][1] for r in p.rows["compare-table"][1:]]
        for n in names:
            if n not in cmp:
                fault("comparison table lacks %r (has %r)" % (n, cmp))
    lp = Listing()
    lp.feed(open(args[0], encoding="utf-8").read())
    lp.close()
    heads = [h for h, _ in lp.routines]
    for n in names:
        if n not in heads:
            fault("source tab lacks %r (has %r)" % (n, heads))
    for tag, a in p.tags:
        if tag not in ("html", "head", "meta", "title", "style", "body", "h1",
                       "nav", "button", "section", "dl", "dt", "dd", "p",
                       "table", "thead", "tbody", "tfoot", "tr", "th", "td",
                       "iframe", "pre", "script", "div", "label", "select",
                       "option", "input", "span", "h2", "svg", "button"):
            fault("an element <%s> in the page" % tag)
    print(len(names))


LIVE = '<script type="application/json" id="live-data">'


def live_data(path):
    s = open(path, encoding="utf-8").read()
    i = s.find(LIVE)
    if i < 0:
        fault("%s: no live data" % path)
    j = s.find("</script", i)
    raw = s[i + len(LIVE):j]
    if "<" in raw:
        fault("%s: '<' in the live data" % path)
    try:
        return json.loads(raw)
    except ValueError as e:
        fault("%s: the live data does not parse: %s" % (path, e))


def tree(d):
    n = len(d["parent"])
    nt = len(d["types"])
    self = [[0] * n for _ in range(nt)]
    for t in range(nt):
        for i, v in zip(d["self"][t]["i"], d["self"][t]["v"]):
            self[t][i] = v
    cum = [list(s) for s in self]
    for t in range(nt):
        for i, v in zip(d["pruned"][t]["i"], d["pruned"][t]["v"]):
            cum[t][i] += v
    for i in range(n - 1, 0, -1):
        if not 0 <= d["parent"][i] < i:
            fault("node %d: parent %d" % (i, d["parent"][i]))
        for t in range(nt):
            cum[t][d["parent"][i]] += cum[t][i]
    return n, nt, self, cum


def cmd_live(args):
    d = live_data(args[0])
    want = summary_totals(args[1])
    got = {t["type"]: v for t, v in zip(d["types"], d["total"])}
    if got != want:
        fault("live totals %r, show --summary %r" % (got, want))
    n, nt, self, cum = tree(d)
    for t in range(nt):
        if cum[t][0] != d["total"][t]:
            fault("type %d: the nodes hold %d of %d" %
                  (t, cum[t][0], d["total"][t]))
        shown = d["total"][t] - d["dropped"]["sum"][t]
        stm = d["statement"][t]
        m = re.match(r"Showing nodes accounting for (\S+), (\S+) of (\S+) "
                     r"total$", stm[0])
        if not m:
            fault("statement %r" % stm[0])
        pct = 100.0 * shown / d["total"][t] if d["total"][t] else 0
        if abs(float(m.group(2).rstrip("%")) - pct) > 0.006:
            fault("statement %r: %.4f%% expected" % (stm[0], pct))
        if d["dropped"]["nodes"] > 0:
            if len(stm) != 2 or not stm[1].startswith(
                    "Dropped %d node" % d["dropped"]["nodes"]):
                fault("statement %r, %d dropped" % (stm, d["dropped"]["nodes"]))
    print(n)


def cmd_livediff(args):
    """A change's live data (PAGE BASE-SUMMARY CUR-SUMMARY): its first
    half of types is the base's totals, its second the profile's, and
    its nodes add up to them; prints how many nodes it holds."""
    d = live_data(args[0])
    if not d["diff"]:
        fault("%s: not a change's data" % args[0])
    nt = len(d["types"]) // 2
    halves = (d["types"][:nt], d["total"][:nt]), (d["types"][nt:], d["total"][nt:])
    for path, (types, totals) in zip(args[1:3], halves):
        want = summary_totals(path)
        got = {t["type"]: v for t, v in zip(types, totals)}
        for t, v in got.items():
            if want.get(t, 0) != v:
                fault("live total %s %d, %s says %r" % (t, v, path, want.get(t)))
    n, nt2, self, cum = tree(d)
    for t in range(nt2):
        if cum[t][0] != d["total"][t]:
            fault("column %d: the nodes hold %d of %d" %
                  (t, cum[t][0], d["total"][t]))
    print(n)


def cmd_prune(args):
    full = live_data(args[0])
    d = live_data(args[1])
    if full["dropped"]["nodes"] != 0:
        fault("the full tree dropped %d nodes" % full["dropped"]["nodes"])
    n, nt, self, cum = tree(full)
    f = d["fraction"]
    share = [max([abs(cum[t][i]) / abs(full["total"][t])
                  for t in range(nt) if full["total"][t]] or [0])
             for i in range(n)]
    drop = [i for i in range(1, n) if share[i] <= f * (1 + 1e-9)]
    sums = [sum(self[t][i] for i in drop) for t in range(nt)]
    if d["dropped"]["nodes"] != len(drop) or d["dropped"]["sum"] != sums:
        fault("dropped %d nodes, %r; computed %d, %r at %g" %
              (d["dropped"]["nodes"], d["dropped"]["sum"], len(drop), sums, f))
    if len(d["parent"]) != n - len(drop):
        fault("%d nodes kept of %d less %d" % (len(d["parent"]), n, len(drop)))
    cut = [int(f * abs(full["total"][t])) for t in range(nt)]
    if d["dropped"]["cut"] != cut:
        fault("cut %r, expected %r" % (d["dropped"]["cut"], cut))
    if len(args) > 2 and len(d["parent"]) - 1 > int(args[2]):
        fault("%d nodes, budget %s" % (len(d["parent"]) - 1, args[2]))
    print(len(drop))


def fn_flat(d, t):
    """Flat by function as the page's table sums it: self only."""
    n, nt, self, cum = tree(d)
    flat, count = {}, {}
    for i in range(1, n):
        name = d["strings"][d["func"][i]]
        flat[name] = flat.get(name, 0) + self[t][i]
        count[name] = count.get(name, 0) + 1
    return flat, count


def cmd_liveflat(args):
    """PAGE FULL SUMMARY: every function of the pruned PAGE has
    show --summary's flat when none of its nodes in the unpruned FULL
    was dropped, at most that when some were; the root holds the
    total."""
    d = live_data(args[0])
    full = live_data(args[1])
    want = {}
    infn = False
    for line in open(args[2]):
        if line.startswith("top ") and " functions " in line:
            infn = True
            continue
        m = re.match(r"\s*(-?\d+)\s+\S+%\s+(-?\d+)\s+\S+%\s(.*)$", line)
        if infn and m:
            want[m.group(3)] = int(m.group(1))
    if not want:
        fault("no functions in %s" % args[2])
    n, nt, self, cum = tree(d)
    if d["dropped"]["nodes"] == 0:
        fault("nothing was dropped")
    t = d["default"]
    if cum[t][0] != d["total"][t]:
        fault("root %d, total %d" % (cum[t][0], d["total"][t]))
    flat, count = fn_flat(d, t)
    _, fcount = fn_flat(full, t)
    whole = 0
    for name, v in flat.items():
        if name not in want:
            fault("%r not in show --summary" % name)
        if count[name] == fcount[name]:
            whole += 1
            if v != want[name]:
                fault("%r: flat %d in the page, %d in show" %
                      (name, v, want[name]))
        elif v > want[name]:
            fault("%r (partly dropped): flat %d > show's %d" %
                  (name, v, want[name]))
    print(whole)


def cmd_liveseries(args):
    import os
    import subprocess
    d = live_data(args[0])
    p = load(args[0])
    snaps = [re.sub(r" \[(high-water|final)\]", "", r[1][1])
             for r in p.rows.get("snapshots", [])[1:]]
    labels = [t["type"] for t in d["types"]]
    if not d["series"] or labels != snaps or len(snaps) < 2:
        fault("columns %r, snapshots %r" % (labels, snaps))
    n, nt, self, cum = tree(d)
    for k, path in enumerate(labels):
        out = subprocess.run([os.environ["PROFCONV"], "show", "--summary",
                              path], capture_output=True, text=True).stdout
        m = re.search(r"^total inuse_space/bytes: (\d+)", out, re.M)
        if not m or int(m.group(1)) != d["total"][k] or \
                cum[k][0] != d["total"][k]:
            fault("%s: total %d, nodes %d, show %r" %
                  (path, d["total"][k], cum[k][0], m and m.group(1)))
    print(len(labels))


def cmd_livenames(args):
    d = live_data(args[0])
    names = [l for l in open(args[1], encoding="utf-8").read().split("\n") if l]
    for n in names:
        if n not in d["strings"]:
            fault("live data lacks %r" % n)
    print(len(names))


if __name__ == "__main__":
    {"page": cmd_page, "totals": cmd_totals, "top": cmd_top, "sumtop": cmd_sumtop, "pre": cmd_pre,
     "compare": cmd_compare, "source": cmd_source, "flame": cmd_flame,
     "trend": cmd_trend, "names": cmd_names, "live": cmd_live,
     "prune": cmd_prune, "liveflat": cmd_liveflat, "liveseries": cmd_liveseries,
     "livenames": cmd_livenames,
     "livediff": cmd_livediff}[sys.argv[1]](sys.argv[2:])
