# SPDX-License-Identifier: MIT
"""dot-compare.py - compare profgraph's DOT with go tool pprof -dot's.

usage: dot-compare.py [--ignore-filters] PPROF.dot OURS.dot
       dot-compare.py --check OURS.dot   (parse only; print the counts)

Both files are parsed statement by statement (the two writers put one
statement per line) into the title, the legend's lines, the nodes with
their attributes, the nodelets and the edges, and compared node by node
(same ids, so the same selection and order), nodelet by nodelet and edge
by edge (label, weight, penwidth, colour, style, tooltips; the same order,
but for pprof's own ties, see settle_ties()).
pprof writes an edge into a node that left the graph because its values
cancelled out (in a diff) to the node "N0", which does not exist; such
edges are counted and left out, as profgraph leaves them out.  With
--ignore-filters, pprof's "hide=" filter line is left out of its legend
(the test asks pprof to -hide what profconv's view cuts on its own), and
the "Active filters:" line with it when no other filter is left.
The legend's "Time:" line is compared by the time it gives: pprof since
October 2024 (and profgraph) write "2006-01-02 15:04:05 MST", older ones
(Go 1.19's) "Jan 2, 2006 at 3:04pm (MST)", to the minute.
Prints "nodes N edges E nodelets K dotted D inline I" for the caller's
checks; exits 1 on the first differences (up to 20 are listed).
"""
import datetime
import re
import sys

ATTR = re.compile(r'\s*([A-Za-z_]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s\]]+)')
QUOTED = r'"(?:[^"\\]|\\.)*"'
STMT_NODE = re.compile(r'^(N[0-9A-Za-z_]+) \[(.*)\]$')
STMT_EDGE = re.compile(r'^(N[0-9A-Za-z_]+) -> (N[0-9A-Za-z_]+) \[(.*)\]$')
LEGEND = re.compile(r'^subgraph cluster_L \{ (' + QUOTED + r') \[(.*)\] \}$')
TITLE = re.compile(r'^digraph (' + QUOTED + r') \{$')


def attrs(text):
    out, pos = {}, 0
    while pos < len(text):
        m = ATTR.match(text, pos)
        if not m:
            if text[pos:].strip() == '':
                break
            raise ValueError('bad attributes at %r' % text[pos:pos + 40])
        v = m.group(2)
        out[m.group(1)] = v[1:-1] if v.startswith('"') else v
        pos = m.end()
    return out


def parse(path):
    g = {'title': None, 'legend': [], 'nodes': [], 'nodelets': [],
         'edges': [], 'n0': 0}
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if not lines or lines[-1] != '}':
        raise ValueError('%s: does not end with "}"' % path)
    for no, line in enumerate(lines[:-1], 1):
        try:
            if no == 1:
                m = TITLE.match(line)
                if not m:
                    raise ValueError('no digraph header')
                g['title'] = m.group(1)
            elif line == 'node [style=filled fillcolor="#f8f8f8"]':
                pass
            elif line.startswith('subgraph cluster_L'):
                m = LEGEND.match(line)
                if not m:
                    raise ValueError('bad legend')
                a = attrs(m.group(2))
                text = a.get('label', '')
                if not text.endswith('\\l'):
                    raise ValueError('legend does not end with \\l')
                g['legend'] = text[:-2].split('\\l')
                g['legend_attrs'] = a
            elif STMT_EDGE.match(line):
                m = STMT_EDGE.match(line)
                src, dst = m.group(1), m.group(2)
                if 'N0' in (src, dst):
                    g['n0'] += 1
                g['edges'].append((src, dst, attrs(m.group(3))))
            elif STMT_NODE.match(line):
                m = STMT_NODE.match(line)
                a = attrs(m.group(2))
                if re.fullmatch(r'N[0-9]+', m.group(1)):
                    g['nodes'].append((m.group(1), a))
                else:
                    g['nodelets'].append((m.group(1), a))
            else:
                raise ValueError('unknown statement')
        except ValueError as e:
            raise ValueError('%s:%d: %s: %.120s' % (path, no, e, line))
    return g


def legend_time(line):
    """A legend line; a "Time:" line as its time to the minute."""
    if line is None or not line.startswith('Time: '):
        return line
    text = line[len('Time: '):]
    for fmt in ('%Y-%m-%d %H:%M:%S %Z', '%b %d, %Y at %I:%M%p (%Z)'):
        try:
            t = datetime.datetime.strptime(text, fmt)
            return 'Time: ' + t.strftime('%Y-%m-%d %H:%M')
        except ValueError:
            pass
    return line


def settle_ties(edges):
    """pprof orders edges by |weight|, then by names, but takes two of
    equal |weight| and opposite signs as equal: their order is then that
    of a Go map.  Such runs are put in name order on both sides."""
    def absval(e):
        return e[2].get('label', '').strip().split('\\n')[0].lstrip('-')
    out, i = [], 0
    while i < len(edges):
        j = i + 1
        while j < len(edges) and absval(edges[j]) == absval(edges[i]):
            j += 1
        run = edges[i:j]
        signs = {e[2].get('label', '').strip().startswith('-') for e in run}
        if len(signs) > 1:
            run = sorted(run, key=lambda e: e[2].get('tooltip', ''))
        out.extend(run)
        i = j
    return out


def counts(g):
    g = dict(g, edges=[e for e in g['edges'] if 'N0' not in e[:2]])
    dotted = sum(1 for e in g['edges'] if e[2].get('style') == 'dotted'
                 and not e[1].startswith('NN'))
    inline = sum(1 for e in g['edges'] if '(inline)' in e[2].get('label', ''))
    return 'nodes %d edges %d nodelets %d dotted %d inline %d' % (
        len(g['nodes']), sum(1 for e in g['edges'] if not re.search(
            r'_[0-9]+$', e[1])), len(g['nodelets']), dotted, inline)


def main(argv):
    ignore_filters = '--ignore-filters' in argv
    argv = [a for a in argv if a != '--ignore-filters']
    if len(argv) == 3 and argv[1] == '--check':
        print(counts(parse(argv[2])))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    theirs, ours = parse(argv[1]), parse(argv[2])
    diffs = []

    def differ(what, a, b):
        if a != b:
            diffs.append('%s:\n  pprof: %r\n  ours:  %r' % (what, a, b))

    legend = theirs['legend']
    if ignore_filters and 'Active filters:' in legend:
        i = legend.index('Active filters:')
        j = i + 1
        while j < len(legend) and legend[j].startswith('   '):
            j += 1
        kept = [l for l in legend[i + 1:j] if not l.startswith('   hide=')]
        legend = legend[:i] + (['Active filters:'] + kept if kept else []) + \
            legend[j:]
    differ('title', theirs['title'], ours['title'])
    for k in range(max(len(legend), len(ours['legend']))):
        differ('legend line %d' % (k + 1),
               legend_time(legend[k] if k < len(legend) else None),
               legend_time(ours['legend'][k] if k < len(ours['legend'])
                           else None))
    differ('node count', len(theirs['nodes']), len(ours['nodes']))
    for (ta, tb) in zip(theirs['nodes'], ours['nodes']):
        differ('node %s' % ta[0], ta, tb)
    differ('nodelet count', len(theirs['nodelets']), len(ours['nodelets']))
    for (ta, tb) in zip(theirs['nodelets'], ours['nodelets']):
        differ('nodelet %s' % ta[0], ta, tb)
    # Ties are settled with pprof's "N0" edges in place (they take part
    # in its sort), then those are left out.
    te = [e for e in settle_ties(theirs['edges']) if 'N0' not in e[:2]]
    oe = [e for e in settle_ties(ours['edges']) if 'N0' not in e[:2]]
    differ('edge count', len(te), len(oe))
    for (ta, tb) in zip(te, oe):
        differ('edge %s -> %s' % (ta[0], ta[1]), ta, tb)
    print(counts(ours), 'n0', theirs['n0'])
    if diffs:
        for d in diffs[:20]:
            print(d, file=sys.stderr)
        print('%d differences' % len(diffs), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except ValueError as e:
        print('dot-compare.py: %s' % e, file=sys.stderr)
        sys.exit(1)
