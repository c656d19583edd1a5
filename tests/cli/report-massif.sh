# SPDX-License-Identifier: MIT
# report-massif.sh - profconv report of one Valgrind massif file made now
# (tests/producers/massif-leak.c: a steady leak and an allocation freed
# each round): its detailed snapshots are a series, as proftrend takes
# them, so the page is the series page and its snapshots and verdicts
# are proftrend --json's on the same file; --snapshot picks one snapshot,
# which is then a profile like any other, its totals show --summary's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v valgrind >/dev/null 2>&1 || skip "valgrind missing (Debian: valgrind)"
command -v cc >/dev/null 2>&1 || skip "no C compiler"
export LC_ALL=C
CHECK=$PROFCONV_SRCDIR/tests/cli/report-check.py
check() { python3 "$CHECK" "$@" >"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "report-check $1: $(cat "$TMP/check.err")"; }

cc -g -O1 -o "$TMP/msleak" "$PROFCONV_SRCDIR/tests/producers/massif-leak.c" ||
	{ fail "cannot build massif-leak.c"; finish; }
(cd "$TMP" && valgrind --tool=massif --time-unit=B --detailed-freq=1 \
    --massif-out-file="$TMP/leak.ms" ./msleak >/dev/null 2>&1) ||
	{ fail "massif of massif-leak failed"; finish; }

# One massif file: the series page, proftrend's figures.
run 0 "$PROFCONV" report "$TMP/leak.ms" -o "$TMP/m.html"
check page "$TMP/m.html" trend verdicts
"$CMD/proftrend" --json "$TMP/leak.ms" >"$TMP/trend.json" 2>/dev/null
[ -s "$TMP/trend.json" ] || fail "proftrend --json printed nothing"
check trend "$TMP/m.html" "$TMP/trend.json"
[ "$(cat "$TMP/check.out")" -ge 2 ] || fail "verdicts: $(cat "$TMP/check.out") rows"
n=$(grep -c '<tr><td data-v="[0-9]*">[0-9]*</td><td class="name">[^<]*leak\.ms#' \
    "$TMP/m.html")
[ "$n" -ge 40 ] || fail "$n snapshots in the page, 40 or more expected"
grep -q '<td class="name">leak</td><td class="name">leak_step</td>' \
    "$TMP/m.html" || fail "the steady leak is not a suspect in the page"
grep -q '<td class="name">leak</td><td class="name">churn</td>' \
    "$TMP/m.html" && fail "the freed allocation is called a leak"

# The Explore tab of the series: one column per detailed snapshot, in
# proftrend's order, each column's total the snapshot's bytes.
python3 - "$TMP/m.html" "$TMP/trend.json" >"$TMP/live.err" 2>&1 <<'PY' ||
import json, sys
page = open(sys.argv[1], encoding="utf-8").read()
tag = '<script type="application/json" id="live-data">'
i = page.index(tag) + len(tag)
d = json.loads(page[i:page.index("</script", i)])
t = json.load(open(sys.argv[2]))
got = [(c["type"], v) for c, v in zip(d["types"], d["total"])]
want = [(s["file"], s["inuse_bytes"]) for s in t["snapshots"]]
if len(got) != len(want) or len(want) < 40:
    sys.exit("%d columns, %d snapshots" % (len(got), len(want)))
for (gn, gv), (wn, wv) in zip(got, want):
    if not wn.endswith(gn) or gv != wv:
        sys.exit("column %s %d, proftrend %s %d" % (gn, gv, wn, wv))
PY
	fail "Explore tab of the massif series: $(cat "$TMP/live.err")"

# --snapshot: one snapshot of the file, shown as one profile.
run 0 "$PROFCONV" report --snapshot peak "$TMP/leak.ms" -o "$TMP/p.html"
check page "$TMP/p.html" summary top flame graph source
"$PROFCONV" show --summary --snapshot peak "$TMP/leak.ms" >"$TMP/sum" 2>/dev/null ||
	fail "show --summary --snapshot peak"
check totals "$TMP/p.html" "$TMP/sum"
grep -q 'id="trend"' "$TMP/p.html" && fail "--snapshot: still a series page"

# With --base, a massif file is a profile: its peak snapshot.
run 0 "$PROFCONV" report --base "$TMP/leak.ms" "$TMP/leak.ms" -o "$TMP/b.html"
check page "$TMP/b.html" summary compare top flame graph source
finish
