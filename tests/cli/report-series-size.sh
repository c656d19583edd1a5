# SPDX-License-Identifier: MIT
# report-series-size.sh - the page of a long series follows what it
# shows, not snapshots times stacks: 600 small dumps of one process (300
# stacks each, made now) give a page under 1.5 MB, whose snapshot table
# and Explore tab hold 500 of the snapshots (the first, the last and the
# peak among them, as proftrend --svg draws them), the Explore tab's tree
# at most 100000 values over them; the verdicts are still proftrend's
# over all 600.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3"
export LC_ALL=C
N=600
mkdir "$TMP/d"
# gperftools' heap profiles of one process: stack s holds 1..5 KiB that
# moves with the snapshot; stack 0 grows; snapshot 377 is the peak.
python3 - "$TMP/d" $N <<'PY' || fail "cannot make the dumps"
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    rows = []
    for s in range(300):
        v = 1024 + (s * 7919 + i * (s % 13)) % 4096
        v += i * 64 if s == 0 else 0
        v += 1 << 20 if i == 376 and s == 1 else 0
        rows.append((v, 0x401000 + 16 * s, 0x500000 + 16 * (s % 97),
                     0x600000 + 16 * (s % 7)))
    tot = sum(r[0] for r in rows)
    with open(os.path.join(d, "p.%04d.heap" % (i + 1)), "w") as f:
        f.write("heap profile: 300: %d [300: %d] @ heapprofile\n" % (tot, tot))
        for r in rows:
            f.write("1: %d [1: %d] @ 0x%x 0x%x 0x%x\n" % (r[0], r[0], r[1], r[2], r[3]))
PY
run 0 "$PROFCONV" report --no-symbolize "$TMP"/d/p.*.heap -o "$TMP/page.html"
size=$(wc -c <"$TMP/page.html")
[ "$size" -lt 1500000 ] || fail "the page of $N snapshots is $size bytes"
"$CMD/proftrend" --no-symbolize --json "$TMP"/d/p.*.heap >"$TMP/trend.json" 2>/dev/null
python3 - "$TMP/page.html" "$TMP/trend.json" "$TMP/d" <<'PY' >"$TMP/why" 2>&1 ||
import json, os, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
trend = json.load(open(sys.argv[2]))
d = sys.argv[3]
live = json.loads(re.search(r'id="live-data">(.*?)</script>', page, re.S).group(1))
cols = [t["type"] for t in live["types"]]
snaps = [s["file"] for s in trend["snapshots"]]
if len(snaps) != 600 or len(cols) != 500:
    sys.exit("%d columns of %d snapshots" % (len(cols), len(snaps)))
peak = os.path.join(d, "p.0377.heap")
if cols[0] != snaps[0] or cols[-1] != snaps[-1] or peak not in cols:
    sys.exit("columns %s .. %s, the peak %s among them: %s" %
             (cols[0], cols[-1], peak, peak in cols))
if cols != [s for s in snaps if s in cols]:
    sys.exit("columns out of order")
table = re.findall(r'<tr><td data-v="\d+">\d+</td><td class="name">([^<]*)</td>',
                   page.split('id="snapshots"')[1].split("</table>")[0])
if table != cols:
    sys.exit("the snapshot table holds %d rows, not the %d columns" %
             (len(table), len(cols)))
if "hold 500 of the 600 snapshots" not in page:
    sys.exit("the page does not say it holds 500 of the 600 snapshots")
values = sum(len(c["i"]) for c in live["self"]) + \
    sum(len(c["i"]) for c in live["pruned"])
if len(live["parent"]) * len(cols) > 100000 + len(cols):
    sys.exit("%d nodes over %d columns" % (len(live["parent"]), len(cols)))
m = re.search(r"Showing \d+ of (\d+) rows", page)
if not m or int(m.group(1)) != len(trend["rows"]):
    sys.exit("the page counts %s rows, proftrend %d" %
             (m and m.group(1), len(trend["rows"])))
print(values)
PY
	fail "$(cat "$TMP/why")"
finish
