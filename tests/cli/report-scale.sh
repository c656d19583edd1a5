# SPDX-License-Identifier: MIT
# report-scale.sh - profconv report's memory grows with what its page
# shows, not with the profile (issue 43): on a made profile whose call
# tree has a million nodes (4,000 stacks of 263 frames that part near
# the root) and whose page shows few of them (one stack holds nearly
# everything: the flame graph draws its path, the Explore tab keeps its
# 20,000 heaviest nodes), the report's peak memory stays within twice
# profflame's on the same profile (the whole tree, built before it was
# pruned, took several times that).  The Explore tab's data adds up to
# show --summary's totals and holds at most its budget of nodes.  The
# same for the report of a change (--base), against profdiff's peak.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

export LC_ALL=C
CHECK=$PROFCONV_SRCDIR/tests/cli/report-check.py
check() { python3 "$CHECK" "$@" >"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "report-check $1: $(cat "$TMP/check.err")"; }

# Stack I: main, twelve frames that spell I in bits, then c0..c249.
awk 'BEGIN { for (i = 0; i < 4000; i++) { p = "main"
	for (j = 0; j < 12; j++) p = p ";b" j "_" (int(i / 2^j) % 2)
	for (j = 0; j < 250; j++) p = p ";c" j
	printf "%s %d\n", p, i == 0 ? 10000000 : 1 + i % 7 } }' >"$TMP/deep.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/deep.folded" \
    "$TMP/deep.pb" || fail "cannot write deep.pb"

# peak [--differ] CMD...: the peak resident memory (KB) of CMD, which
# must succeed (with --differ, exit 0 or 1: profdiff's "differences").
peak() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
args, ok = sys.argv[1:], (0,)
if args[0] == "--differ":
    args, ok = args[1:], (0, 1)
r = subprocess.run(args, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
if r.returncode not in ok:
    sys.exit("%s exited %d" % (args[0], r.returncode))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}

run 0 "$PROFCONV" report "$TMP/deep.pb" -o "$TMP/deep.html"
"$PROFCONV" show --summary "$TMP/deep.pb" >"$TMP/sum" 2>/dev/null ||
	fail "show --summary"
check live "$TMP/deep.html" "$TMP/sum"
n=$(cat "$TMP/check.out")
[ "$n" -gt 263 ] && [ "$n" -le 20001 ] ||
	fail "the Explore tab holds $n nodes, not 264 to 20,001"
run 0 "$PROFCONV" report --tree-nodes 300 "$TMP/deep.pb" -o "$TMP/small.html"
check live "$TMP/small.html" "$TMP/sum"
n=$(cat "$TMP/check.out")
[ "$n" -gt 263 ] && [ "$n" -le 301 ] ||
	fail "--tree-nodes 300 kept $n nodes, not 264 to 301"

# The change to a profile of the same shape, stacks 2,000 to 5,999 (half
# of them new): its Explore tab too is pruned as it is made, and holds
# both profiles' totals.
awk 'BEGIN { for (i = 2000; i < 6000; i++) { p = "main"
	for (j = 0; j < 12; j++) p = p ";b" j "_" (int(i / 2^j) % 2)
	for (j = 0; j < 250; j++) p = p ";c" j
	printf "%s %d\n", p, 1 + i % 7 } }' >"$TMP/later.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/later.folded" \
    "$TMP/later.pb" || fail "cannot write later.pb"
"$PROFCONV" show --summary "$TMP/later.pb" >"$TMP/sum2" 2>/dev/null ||
	fail "show --summary later.pb"
run 0 "$PROFCONV" report --tree-nodes 300 -b "$TMP/deep.pb" "$TMP/later.pb" \
    -o "$TMP/change.html"
check livediff "$TMP/change.html" "$TMP/sum" "$TMP/sum2"
n=$(cat "$TMP/check.out")
[ "$n" -gt 1 ] && [ "$n" -le 301 ] ||
	fail "the change's Explore tab holds $n nodes, not 2 to 301"

# A sanitizer's shadow memory and quarantine are no measure: the same
# probe as use_caps().
use_caps
if [ "$CAP" = : ]; then
	echo "note: no peak memory under a sanitizer" >&2
else
	flame=$(peak "$CMD/profflame" "$TMP/deep.pb") || fail "profflame: $flame"
	report=$(peak "$PROFCONV" report "$TMP/deep.pb" -o "$TMP/deep2.html") ||
		fail "report: $report"
	echo "peak KB: profflame $flame, report $report"
	[ "$report" -le $((2 * flame)) ] ||
		fail "report peaks at $report KB, over twice profflame's $flame KB"
	# The change's report against profdiff's of the same two: the
	# whole tree of both, built before it was pruned, took 4.7 times.
	diff=$(peak --differ "$CMD/profdiff" "$TMP/deep.pb" "$TMP/later.pb") ||
		fail "profdiff: $diff"
	report=$(peak "$PROFCONV" report -b "$TMP/deep.pb" "$TMP/later.pb" \
	    -o "$TMP/change2.html") || fail "report -b: $report"
	echo "peak KB: profdiff $diff, report -b $report"
	[ "$report" -le $((5 * diff / 2)) ] ||
		fail "report -b peaks at $report KB, over 2.5 times profdiff's $diff KB"
fi
finish
