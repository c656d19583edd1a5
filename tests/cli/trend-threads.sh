# SPDX-License-Identifier: MIT
# trend-threads.sh - proftrend --by-thread on a real jemalloc series made
# now by tests/producers/threadleak.c: three named threads allocate
# through one function, hold(); worker-2 leaks 8 KiB a step, worker-1
# holds 1 MiB flat, churner comes and goes.  Checks:
#   - --by-thread: the one suspect is worker-2's row, "thread N
#     (worker-2): hold", in the table and the JSON (thread, thread_name);
#     --by stack: the suspect's stack has worker-2's thread at its root;
#   - without --by-thread, hold is one row, not split;
#   - each thread's row holds, in the first and the last dump, what go
#     tool pprof -top -tagfocus thread=N gives hold in those dumps
#     converted by profconv text2pb --threads;
#   - -o: the suspects' profile is worker-2's growth, as go tool pprof
#     -tagfocus sees it;
#   - the SVG names worker-2's row;
#   - a series without thread labels is refused: exit 2, one line naming
#     the first file.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pprof-top-lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
use_go
export LC_ALL=C
TREND=$CMD/proftrend
STEPS=10
use_jemalloc

je_producer -f threadleak $STEPS
ls "$TMP"/je/je.*.m*.heap >"$TMP/dumps" 2>/dev/null
[ "$(wc -l <"$TMP/dumps")" = $STEPS ] ||
	{ fail "jemalloc wrote $(wc -l <"$TMP/dumps") dumps, not $STEPS"; finish; }
first=$(ls "$TMP"/je/je.*.m0.heap)
last=$(ls "$TMP"/je/je.*.m$((STEPS - 1)).heap)

# one_error WHAT: stderr has one line that is not a warning (the
# symbolizer may add one about libraries without symbols).
one_error() {
	[ "$(grep -vc ': warning: ' "$TMP/err")" = 1 ] ||
		fail "$1: not one line: $(cat "$TMP/err")"
}

# --- per thread: worker-2 alone leaks ------------------------------------
run 1 "$TREND" --by-thread "$TMP"/je/je.*.heap
grep -q '^1 suspect in ' "$TMP/out" || fail "--by-thread: not 1 suspect: $(head -n 1 "$TMP/out")"
# A row: numbers, grew, verdict, sparkline, then the name (with spaces).
grep -E '^ .*[0-9]+/[0-9]+ +leak +[^ ]+  ' "$TMP/out" >"$TMP/leaks"
grep -Eq '  thread [0-9]+ \(worker-2\): hold$' "$TMP/leaks" && [ "$(wc -l <"$TMP/leaks")" = 1 ] ||
	fail "--by-thread: the leak is not worker-2's hold: $(cat "$TMP/leaks")"
run 1 "$TREND" --by-thread --json "$TMP"/je/je.*.heap
cp "$TMP/out" "$TMP/threads.json"
python3 - "$TMP/threads.json" <<'EOF' >"$TMP/rows" || fail "--by-thread --json"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["rows"]
assert doc["suspects"] == 1, doc["suspects"]
sus = [r for r in rows if r["suspect"]]
assert len(sus) == 1 and sus[0]["thread_name"] == "worker-2", sus
for r in rows:
    assert isinstance(r["thread"], int), r
    want = "thread %d (%s): hold" % (r["thread"], r["thread_name"])
    assert r["name"] == want, (r["name"], want)
    # thread, first value, last value
    print(r["thread"], r["thread_name"], r["values"][0], r["values"][-1])
names = sorted(r["thread_name"] for r in rows)
assert names == ["churner", "worker-2"], names
EOF
w2=$(awk '$2 == "worker-2" { print $1 }' "$TMP/rows")

# Rows by stack: worker-2's thread is the suspect's root.
run 1 "$TREND" --by-thread --by stack --wide "$TMP"/je/je.*.heap
grep -E '^ .*[0-9]+/[0-9]+ +leak +[^ ]+  ' "$TMP/out" |
	sed 's/.*[0-9]\/[0-9]* *leak *[^ ]*  //' >"$TMP/leaks"
[ "$(wc -l <"$TMP/leaks")" = 1 ] && grep -q "^thread $w2 (worker-2);.*;worker2_step;hold\$" "$TMP/leaks" ||
	fail "--by-thread --by stack: the leak is $(cat "$TMP/leaks")"

# --- without --by-thread: one row for hold ----------------------------------
# hold's one row holds worker-2's leak under the churner's sawtooth: its
# lows still rise, so it is a leak too (exit 1).
run 1 "$TREND" --json "$TMP"/je/je.*.heap
python3 - "$TMP/out" <<'EOF' || fail "without --by-thread, hold is split"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["name"] for r in rows].count("hold") == 1, rows
assert not any(r["name"].startswith("thread ") or "thread" in r for r in rows), rows
assert [r["verdict"] for r in rows if r["name"] == "hold"] == ["leak"], rows
EOF

# --- each thread's bytes against go tool pprof -tagfocus thread=N ----------
"$PROFCONV" text2pb --threads --symbolize -o "$TMP/first.pb.gz" "$first" 2>/dev/null ||
	fail "text2pb --threads $first"
"$PROFCONV" text2pb --threads --symbolize -o "$TMP/last.pb.gz" "$last" 2>/dev/null ||
	fail "text2pb --threads $last"
# go_hold PB THREAD: hold's flat in-use bytes in THREAD's samples.
go_hold() {
	pprof_flat "$1" inuse_space -tagfocus "thread=$2" |
		awk -F '\t' '$1 == "hold" { print $2 }'
}
while read -r tid tname v0 vn; do
	g0=$(go_hold "$TMP/first.pb.gz" "$tid")
	gn=$(go_hold "$TMP/last.pb.gz" "$tid")
	[ "${g0:-0}" = "$v0" ] && [ "${gn:-0}" = "$vn" ] ||
		fail "thread $tid ($tname): proftrend has $v0 then $vn, go tool pprof ${g0:-0} then ${gn:-0}"
done <"$TMP/rows"
[ -s "$TMP/rows" ] || fail "no rows to compare"

# -o: the suspects' growth is worker-2's, as pprof sees it.
run 1 "$TREND" --by-thread -o "$TMP/sus.pb.gz" "$TMP"/je/je.*.heap
sus=$(pprof_flat "$TMP/sus.pb.gz" inuse_space | awk -F '\t' '{ t += $2 } END { print t + 0 }')
grow=$(( $(go_hold "$TMP/last.pb.gz" "$w2") - $(go_hold "$TMP/first.pb.gz" "$w2") ))
[ "$sus" = "$grow" ] || fail "-o: the suspects hold $sus bytes, worker-2 grew by $grow"

# The SVG names worker-2's row.
run 1 "$TREND" --by-thread --svg -o "$TMP/t.svg" "$TMP"/je/je.*.heap
grep -q "thread $w2 (worker-2): hold" "$TMP/t.svg" || fail "--svg: no row of worker-2"

# --- no thread labels: refused -----------------------------------------------
"$PROFCONV" text2pb -o "$TMP/plain0.pb.gz" "$first" 2>/dev/null || fail "text2pb $first"
"$PROFCONV" text2pb -o "$TMP/plain1.pb.gz" "$last" 2>/dev/null || fail "text2pb $last"
run 2 "$TREND" --by-thread "$TMP/plain0.pb.gz" "$TMP/plain1.pb.gz"
one_error "no thread labels"
grep -q "^proftrend: '$TMP/plain0.pb.gz' has no thread labels" "$TMP/err" ||
	fail "no thread labels: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "no thread labels: output written"
# The same files are fine without --by-thread.
"$TREND" "$TMP/plain0.pb.gz" "$TMP/plain1.pb.gz" >/dev/null 2>&1
[ $? -lt 2 ] || fail "without --by-thread, the files without labels are refused"

finish
