# SPDX-License-Identifier: MIT
# profgraph-hostile.sh - call graphs of small hostile profiles made now.
#
# Edges: 40 functions calling each other in every pair (1,560 edges that
# pprof's cutoffs all keep) and a chain of 80 with every forward call
# (long edges) are laid out in seconds, not hours: the graph keeps the
# 200 heaviest edges and its legend says how many went; the report lays
# out one such graph per sample type in seconds too.
# Names: character references ("&lt;", "&#27;"), markup, control bytes
# (ESC, BEL, DEL), bidi and noncharacters reach the DOT as visible text
# (no raw control byte) with "&" escaped where Graphviz would decode a
# reference; the SVG is XML (xmllint) and draws each name as the DOT
# shows it.  Normal names with "&" ("operator&&") stay as pprof writes them.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
# Graphviz's library keeps what it loads (see the file) from LeakSanitizer.
export LSAN_OPTIONS="suppressions=$PROFCONV_SRCDIR/tests/graphviz-lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
PROFGRAPH=$CMD/profgraph
use_caps
LIMIT_S=60

# gen.py pairs N TYPES | dag N | names NAME...: a pprof profile on stdout.
cat >"$TMP/gen.py" <<'PY'
import sys


def varint(n):
    out = bytearray()
    while True:
        b, n = n & 0x7f, n >> 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def field(tag, wt, v):
    if wt == 0:
        return varint(tag << 3) + varint(v)
    return varint(tag << 3 | 2) + varint(len(v)) + v


def packed(tag, vals):
    return field(tag, 2, b''.join(varint(v) for v in vals))


def profile(names, stacks, types):
    strings = [b'']

    def s(x):
        strings.append(x if isinstance(x, bytes) else x.encode())
        return len(strings) - 1
    out = b''
    for t, u in types:
        out += field(1, 2, field(1, 0, s(t)) + field(2, 0, s(u)))
    for st, vals in stacks:
        out += field(2, 2, packed(1, [i + 1 for i in st]) + packed(2, vals))
    out += field(3, 2, field(1, 0, 1) + field(2, 0, 0x1000) +
                 field(3, 0, 0x100000) + field(5, 0, s('prog')))
    for i in range(len(names)):
        out += field(4, 2, field(1, 0, i + 1) + field(2, 0, 1) +
                     field(3, 0, 0x1000 + 16 * i) +
                     field(4, 2, field(1, 0, i + 1)))
    for i, n in enumerate(names):
        out += field(5, 2, field(1, 0, i + 1) + field(2, 0, s(n)))
    for x in strings:
        out += field(6, 2, x)
    return out


mode, args = sys.argv[1], sys.argv[2:]
types = [('space', 'bytes')]
if mode == 'pairs':
    n, nt = int(args[0]), int(args[1])
    names = [b'f%d' % i for i in range(n)]
    types = [('t%d' % k, 'bytes') for k in range(nt)]
    stacks = [([j, i], [1] * nt) for i in range(n) for j in range(n) if i != j]
elif mode == 'dag':
    n = int(args[0])
    names = [b'f%d' % i for i in range(n)]
    stacks = [(list(range(k, -1, -1)), [1000]) for k in range(n)]
    stacks += [([j, i], [1000]) for i in range(n) for j in range(i + 2, n)]
else:
    names = [a.encode('utf-8', 'surrogateescape') for a in args]
    stacks = [([i], [100 + i]) for i in range(len(names))]
    stacks += [([i + 1, i], [50]) for i in range(len(names) - 1)]
sys.stdout.buffer.write(profile(names, stacks, types))
PY
gen() { python3 "$TMP/gen.py" "$@"; }

# edges NAME: the edges of DOT file NAME, nodelets' too.
edges() { grep -c ' -> N' "$1"; }

# --- edges -------------------------------------------------------------------------
gen pairs 40 1 >"$TMP/pairs.pb"
bounded 0 "$PROFGRAPH" --dot "$TMP/pairs.pb"
[ "$(edges "$TMP/out")" -eq 200 ] || fail "pairs: $(edges "$TMP/out") edges, not 200"
grep -qF 'Dropped 1360 edges over the limit of 200 (the lightest)\l' "$TMP/out" ||
	fail "pairs: the legend does not say what was dropped: $(grep -o 'Showing[^"]*' "$TMP/out")"

if "$PROFGRAPH" --svg "$TMP/no-such-file" 2>&1 | grep -q 'built without'; then
	echo "built without libgvc: pictures left out" >&2
	finish
fi
bounded 0 "$PROFGRAPH" --svg "$TMP/pairs.pb" -o "$TMP/pairs.svg"
grep -q '</svg>' "$TMP/pairs.svg" || fail "pairs: no SVG"
gen dag 80 >"$TMP/dag.pb"
bounded 0 "$PROFGRAPH" --svg --nodefraction 0 --edgefraction 0 "$TMP/dag.pb" -o "$TMP/dag.svg"
grep -q '</svg>' "$TMP/dag.svg" || fail "dag: no SVG"
# The report draws a graph per sample type.
gen pairs 40 4 >"$TMP/pairs4.pb"
bounded 0 "$PROFCONV" report -o "$TMP/pairs4.html" "$TMP/pairs4.pb"
[ "$(grep -o 'over the limit of 200' "$TMP/pairs4.html" | wc -l)" -ge 4 ] ||
	fail "report: not 4 bounded graphs"

# --- names -----------------------------------------------------------------------------
esc=$(printf '\033')
gen names 's&lt;t' 'a&#27;b' '<script>alert(1)</script>' \
    "esc${esc}[31mred" "$(printf 'bell\007tab\tdel\177')" \
    "$(printf 'sep\342\200\256rev')" "$(printf 'nonch\357\277\276x')" \
    'operator&&' 'x&amp;y' >"$TMP/names.pb"
run 0 "$PROFGRAPH" --dot "$TMP/names.pb"
mv "$TMP/out" "$TMP/names.dot"
LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/names.dot" &&
	fail "names: raw control bytes in the DOT: $(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$TMP/names.dot" | od -c | head)"
for want in 'label="s&amp;lt;t\n' 'label="a&amp;#27;b\n' 'label="x&amp;amp;y\n' \
    'label="operator&&\n' 'label="esc\\x1b[31mred\n' \
    'label="bell\\x07tab\\x09del\\x7f\n' 'label="sep\\u202erev\n' \
    'label="nonch\\ufffex\n'; do
	grep -qF "$want" "$TMP/names.dot" || fail "names: no $want in the DOT"
done
run 0 "$PROFGRAPH" --svg "$TMP/names.pb" -o "$TMP/names.svg"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$TMP/names.svg" 2>"$TMP/xml.err" ||
		fail "names: the SVG is not XML: $(head -n 3 "$TMP/xml.err")"
fi
# Each name is drawn as its first line in the DOT shows it.
python3 - "$TMP/names.svg" "$TMP/names.dot" <<'PY' || fail "names: the SVG draws other names"
import re, sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
drawn = {t.text for t in ET.parse(sys.argv[1]).iter(ns + 'text')}
want = []
for line in open(sys.argv[2], encoding='utf-8'):
    m = re.match(r'N\d+ \[label="((?:[^"\\]|\\.)*?)\\n', line)
    if m:
        t = m.group(1).replace('&amp;', '&')
        want.append(re.sub(r'\\(.)', r'\1', t))
bad = [w for w in want if w not in drawn]
for name in ('s&lt;t', 'a&#27;b', '<script>alert(1)</script>', 'x&amp;y',
             'operator&&', 'esc\\x1b[31mred'):
    if name not in drawn:
        bad.append(name)
if bad or len(want) != 9:
    sys.stderr.write('not drawn: %r (of %d)\n' % (bad, len(want)))
    sys.exit(1)
PY
run 0 "$PROFGRAPH" --png "$TMP/names.pb" -o "$TMP/names.png"
[ "$(head -c 4 "$TMP/names.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "names --png: not a PNG"

finish
