# SPDX-License-Identifier: MIT
# report-threads.sh - profconv report --by-thread on a real jemalloc
# series made now by tests/producers/threadleak.c (three named threads
# and the main one allocate).  Checks, in the page's Explore data:
#   - with --by-thread the call tree's first level below the root is one
#     node per thread, "thread N (NAME)", the threads of the program and
#     no "[no thread]" (every sample has a thread label);
#   - with --no-default-suppressions, each thread's total in every
#     snapshot is what profconv show --tagroot thread gives that thread
#     in that dump; with the built-in suppressions, the threads' totals
#     still add up to the snapshot's total;
#   - without --by-thread, no node below the root is a thread.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
use_jemalloc
export LC_ALL=C
STEPS=5

je_producer threadleak $STEPS
set -- "$TMP"/je/je.*.heap
[ $# = $STEPS ] || { fail "$# dumps, not $STEPS"; finish; }

# Each dump's threads as show --tagroot thread gives them: the rows of
# the root frames (named by the thread label's value), "FILE ID CUM".
for f in "$@"; do
	"$PROFCONV" show --summary -n 100000 --tagroot thread "$f" \
	    2>/dev/null >"$TMP/show" || fail "show --tagroot thread $f"
	awk -v f="$f" '$1 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ &&
	    NF == 5 { print f, $5, $3 }' "$TMP/show"
done >"$TMP/threads"
[ -s "$TMP/threads" ] || fail "show --tagroot thread gave no thread"

# check PAGE MODE: the page's tree against $TMP/threads.
check() {
	python3 - "$1" "$2" "$TMP/threads" <<'EOF'
import json, re, sys
page, mode, want_path = sys.argv[1:4]
html = open(page, encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="live-data">(.*?)</script>', html, re.S)
assert m, "no live-data"
d = json.loads(m.group(1))
assert d["series"], "not a series"
par, S, nt = d["parent"], d["strings"], len(d["types"])
n = len(par)
cum = [[0] * nt for _ in range(n)]
for key in ("self", "pruned"):
    for k, c in enumerate(d[key]):
        for i, v in zip(c["i"], c["v"]):
            cum[i][k] += v
for i in range(n - 1, 0, -1):
    for k in range(nt):
        cum[par[i]][k] += cum[i][k]
top = {S[d["func"][i]]: cum[i] for i in range(1, n) if par[i] == 0}
thread = re.compile(r"^thread (\d+) \((.*)\)$")
if mode == "plain":
    bad = [t for t in top if thread.match(t) or t == "[no thread]"]
    assert not bad, "without --by-thread, root children %r" % bad
    sys.exit(0)
assert "[no thread]" not in top, "a [no thread] node: %r" % sorted(top)
ids = {}
for t in top:
    mt = thread.match(t)
    assert mt, "root child %r is no thread" % t
    ids[mt.group(1)] = t
names = sorted(thread.match(t).group(2) for t in top)
assert {"worker-1", "worker-2", "churner"} <= set(names), names
for k in range(nt):
    assert sum(v[k] for v in top.values()) == d["total"][k], \
        "threads of %s add to %d, not %d" % (d["types"][k]["type"],
            sum(v[k] for v in top.values()), d["total"][k])
if mode != "exact":
    sys.exit(0)
want = {}
for line in open(want_path):
    f, tid, v = line.split()
    want.setdefault(f, {})[tid] = int(v)
col = {t["type"]: k for k, t in enumerate(d["types"])}
assert sorted(col) == sorted(want), (sorted(col), sorted(want))
for f, threads in want.items():
    k = col[f]
    got = {tid: top[name][k] for tid, name in ids.items() if top[name][k] != 0}
    assert got == threads, "%s: page %r, show --tagroot thread %r" % (f, got, threads)
print("%d threads, %d snapshots" % (len(top), nt))
EOF
}

run 0 "$PROFCONV" report --by-thread --no-default-suppressions \
    -o "$TMP/exact.html" "$@"
check "$TMP/exact.html" exact || fail "--by-thread --no-default-suppressions"
run 0 "$PROFCONV" report --by-thread -o "$TMP/threads.html" "$@"
check "$TMP/threads.html" sum || fail "--by-thread"
run 0 "$PROFCONV" report -o "$TMP/plain.html" "$@"
check "$TMP/plain.html" plain || fail "without --by-thread"

finish
