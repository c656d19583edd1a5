# SPDX-License-Identifier: MIT
# report-live.sh - the data of profconv report's Explore tab: the call
# tree the page's script draws from.  On the quick start's leaky program
# under tcmalloc: the JSON parses, its totals per sample type are show
# --summary's and its nodes add up to them, and pprof's statement says
# what it holds; a series holds each snapshot's values, its totals show
# --summary's, in the order of the snapshot table.  On a made profile of many nodes: what --nodefraction
# and --tree-nodes drop is what this test computes from the unpruned
# tree at the page's cut, and the budget holds.  Names that are markup
# stay inside the data element (no '<' in it).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

export LC_ALL=C
CHECK=$PROFCONV_SRCDIR/tests/cli/report-check.py
check() { python3 "$CHECK" "$@" >"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "report-check $1: $(cat "$TMP/check.err")"; }

leaky_dumps 200000
heap=$(ls "$TMP"/leaky.*.heap | sort | tail -n 1)

# --- one profile: totals and the statement ------------------------------------
run 0 "$PROFCONV" report "$heap" -o "$TMP/one.html"
check page "$TMP/one.html" summary live top flame graph source
"$PROFCONV" show --summary "$heap" >"$TMP/sum" 2>/dev/null || fail "show --summary"
check live "$TMP/one.html" "$TMP/sum"
[ "$(cat "$TMP/check.out")" -ge 5 ] || fail "$(cat "$TMP/check.out") nodes"
grep -q '"Showing nodes accounting for [^"]*, 100% of [^"]* total"' \
    "$TMP/one.html" || fail "no pprof statement of the whole profile"
# The command line's filters make the tree: show --focus's totals.
run 0 "$PROFCONV" report --focus remember "$heap" -o "$TMP/f.html"
"$PROFCONV" show --summary --focus remember "$heap" >"$TMP/fsum" 2>/dev/null
check live "$TMP/f.html" "$TMP/fsum"

# --- a series: one column per snapshot ------------------------------------------
run 0 "$PROFCONV" report "$TMP"/leaky.*.heap -o "$TMP/series.html"
check page "$TMP/series.html" trend verdicts live
PROFCONV=$PROFCONV check liveseries "$TMP/series.html"
[ "$(cat "$TMP/check.out")" -ge 4 ] || fail "$(cat "$TMP/check.out") snapshots"

# --- pruning: many nodes ---------------------------------------------------------
# 3 x 40 x 25 stacks of a made profile, values spread so that some nodes
# weigh little.
awk 'BEGIN { for (a = 0; a < 3; a++) for (b = 0; b < 40; b++)
    for (c = 0; c < 25; c++)
	printf "main;a%d;b%d_%d;c%d %d\n", a, a, b, c, 1 + (a * 7 + b * 3 + c) % 50 }' \
    >"$TMP/many.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/many.folded" \
    "$TMP/many.pb" || fail "cannot write many.pb"
run 0 "$PROFCONV" report "$TMP/many.pb" -o "$TMP/full.html"
"$PROFCONV" show --summary "$TMP/many.pb" >"$TMP/msum" 2>/dev/null
check live "$TMP/full.html" "$TMP/msum"
nodes=$(cat "$TMP/check.out")
[ "$nodes" -gt 3000 ] || fail "the made profile has $nodes nodes"
run 0 "$PROFCONV" report --nodefraction 0.0005 "$TMP/many.pb" -o "$TMP/nf.html"
check live "$TMP/nf.html" "$TMP/msum"
check prune "$TMP/full.html" "$TMP/nf.html"
[ "$(cat "$TMP/check.out")" -gt 100 ] || fail "--nodefraction dropped $(cat "$TMP/check.out")"
grep -q '"Dropped [0-9]* nodes (cum \\u003c= [0-9]*)"' "$TMP/nf.html" ||
	fail "no Dropped statement"
run 0 "$PROFCONV" report --tree-nodes 500 "$TMP/many.pb" -o "$TMP/tn.html"
check live "$TMP/tn.html" "$TMP/msum"
check prune "$TMP/full.html" "$TMP/tn.html" 500
# Dropped mass is in no function's flat: each kept function's flat is
# show --summary's (at most that when some of its nodes were dropped),
# the root the total.
"$PROFCONV" show --summary -n 100000 "$TMP/many.pb" >"$TMP/mfn" 2>/dev/null ||
	fail "show --summary -n 100000"
check liveflat "$TMP/tn.html" "$TMP/full.html" "$TMP/mfn"
[ "$(cat "$TMP/check.out")" -gt 100 ] ||
	fail "$(cat "$TMP/check.out") functions kept whole"
[ "$(wc -c <"$TMP/tn.html")" -lt "$(wc -c <"$TMP/full.html")" ] ||
	fail "fewer nodes, no smaller page"
run 2 "$PROFCONV" report --nodefraction 2 "$TMP/many.pb" -o "$TMP/x.html"
run 2 "$PROFCONV" report --tree-nodes 0 "$TMP/many.pb" -o "$TMP/x.html"

# --- names that are markup stay in the data -----------------------------------
printf '%s\n' '</script><script>alert(1)</script>' '<!--' '</SCRIPT >x' \
    '<script>alert(2)</script>' "quote\"and'apos&amp" 'back\slash' \
    "$(printf 'line\342\200\250sep')" >"$TMP/names"
names_profile "$TMP/names"
run 0 "$PROFCONV" report --demangle none "$TMP/h.pb" -o "$TMP/h.html"
check page "$TMP/h.html" summary live top flame graph source
check livenames "$TMP/h.html" "$TMP/names"
"$PROFCONV" show --summary "$TMP/h.pb" >"$TMP/hsum" 2>/dev/null
check live "$TMP/h.html" "$TMP/hsum"
finish
