#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tree-canon.py dot|callgrind FILE - a call tree's DOT or callgrind file
in a form that does not depend on the order of tied nodes.

go tool pprof -call_tree orders nodes that tie on everything it sorts by
(entropy score or flat value, name, flat) as Go's map iteration leaves
them, which changes from run to run: the same profile gives files that
differ in node numbers, in callgrind's name compression, relative
addresses and " [I/N]" suffixes.  This prints what is left when those
are taken out: for DOT, the legend, each node by its attributes (its
nodelets with it) and each edge by the attributes of its ends; for
callgrind, each cost line with its object, file, function and absolute
address, and each call with its callee's file, name (no suffix) and
address; sorted.  Two files that differ only in the order of ties print
the same; any other difference shows.
"""
import re
import sys

NODE = re.compile(r'^(N\d+) \[(.*)\]$')
NODELET = re.compile(r'^(N\d+)_(\d+) \[(.*)\]$')
EDGE = re.compile(r'^(N\d+(?:_\d+)?) -> (N\d+(?:_\d+)?) \[(.*)\]$')


def dot(lines):
    key, out, lets = {}, [], {}
    for line in lines:
        m = NODE.match(line)
        if m:
            key[m.group(1)] = re.sub(r' id="node\d+"', '', m.group(2))
    for line in lines:
        m = NODELET.match(line)
        if m:
            attrs = re.sub(r' id="N\d+_\d+"', '', m.group(3))
            lets.setdefault(m.group(1), []).append(attrs)
            continue
        m = EDGE.match(line)
        if m:
            a, b = m.group(1), m.group(2)
            if '_' in b:    # a node's nodelet edge
                lets.setdefault(a, []).append('edge ' + m.group(3))
                continue
            out.append('edge %s -> %s [%s]' % (key[a], key[b], m.group(3)))
        elif not NODE.match(line):
            out.append(line)
    for n, k in key.items():
        out.append('node %s {%s}' % (k, ' | '.join(sorted(lets.get(n, [])))))
    return sorted(out)


def callgrind(lines):
    names = [{}, {}, {}]
    cur = ['', '', '']
    # Addresses, the calls' too, are relative to the node before.
    prev, here, out, node = None, None, [], None

    def name(kind, text):
        m = re.match(r'^\((\d+)\)(?: (.*))?$', text)
        if m is None:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind][m.group(1)]

    def addr(text):
        if text == '*':
            return prev
        if text[0] in '+-':
            return prev + int(text)
        return int(text, 16)

    callee = None
    for line in lines:
        for kind, tag in enumerate(('ob=', 'fl=', 'fn=')):
            if line.startswith(tag):
                cur[kind] = name(kind, line[3:])
                break
        else:
            if line.startswith('cfl='):
                callee = [name(1, line[4:])]
            elif line.startswith('cfn='):
                callee.append(re.sub(r' \[\d+/\d+\]$', '', name(2, line[4:])))
            elif line.startswith('calls='):
                f = line.split()
                callee += [addr(f[1]), f[2]]
            elif line.startswith('* * '):
                out.append('call %s %s' % (node, callee + [line[4:]]))
            elif re.match(r'^(0x[0-9a-f]+|[-+]\d+|\*) ', line):
                f = line.split()
                if here is not None:
                    prev = here
                here = addr(f[0])
                node = '%s|%s|%s|%#x|%s' % (cur[0], cur[1], cur[2], here,
                                            f[1])
                out.append('cost %s %s' % (node, f[2]))
            else:
                out.append(line)
    return sorted(out)


def main():
    lines = open(sys.argv[2], encoding='utf-8').read().split('\n')
    for line in (dot if sys.argv[1] == 'dot' else callgrind)(lines):
        print(line)


main()
