# SPDX-License-Identifier: MIT
# report.sh - profconv report on heap profiles made now: the quick
# start's leaky program under tcmalloc, one dump, a pair and the series.
# The page parses as a browser reads it, holds every section, fetches
# nothing (its CSP, no attribute that loads, pictures as encoded SVG that
# parses), and its figures are the command-line tools' on the same files:
# totals and the top table are show --summary's, the listing is profconv
# list's, the comparison table is profdiff's, the series is proftrend
# --json's.  Names that are markup show as text; the page's size follows
# what it shows, at most 5 MB for bench/gen-je-heap.sh's 36,000 stacks.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

need_tcmalloc
command -v cc >/dev/null 2>&1 || skip "no C compiler"
export LC_ALL=C
CHECK=$PROFCONV_SRCDIR/tests/cli/report-check.py
check() { python3 "$CHECK" "$@" >"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "report-check $1: $(cat "$TMP/check.err")"; }

mkdir -p "$TMP/src" "$TMP/heap"
cp "$PROFCONV_SRCDIR/examples/leaky.c" "$TMP/src/leaky.c"
(cd "$TMP/src" && cc -O1 -g -fno-omit-frame-pointer -o ../leaky leaky.c \
    -ltcmalloc) || skip "cannot build leaky.c with tcmalloc"
(cd "$TMP/heap" && HEAPPROFILE=$TMP/heap/leaky \
    HEAP_PROFILE_INUSE_INTERVAL=200000 "$TMP/leaky" 20000 2>/dev/null) ||
	fail "leaky failed"
set -- "$TMP"/heap/leaky.*.heap
[ $# -ge 4 ] || fail "leaky wrote $# dumps, 4 or more expected"
first=$1
eval "last=\${$#}"
SP="--source-path $TMP/src"

# --- one profile ----------------------------------------------------------
run 0 "$PROFCONV" report $SP "$last" -o "$TMP/one.html"
[ -s "$TMP/err" ] && fail "stderr: $(cat "$TMP/err")"
check page "$TMP/one.html" summary top flame graph source
"$PROFCONV" show --summary --sort flat -n 50 "$last" >"$TMP/sum" 2>/dev/null ||
	fail "show --summary"
check totals "$TMP/one.html" "$TMP/sum"
check top "$TMP/one.html" "$TMP/sum"
[ "$(cat "$TMP/check.out")" -ge 3 ] || fail "top table: $(cat "$TMP/check.out") rows"
check sumtop "$TMP/one.html" "$TMP/sum"
[ "$(cat "$TMP/check.out")" -ge 2 ] || fail "summary: $(cat "$TMP/check.out") heaviest"
total=$(sed -n 's/^total inuse_space\/bytes: \([0-9]*\).*/\1/p' "$TMP/sum")
check flame "$TMP/one.html" "$total"
# The listing is profconv list's for the five heaviest functions by flat.
rx=$(awk '/^top [0-9]+ functions/ { on = 1; next }
    on && $1 != 0 && n < 5 { printf "%s%s", (n++ ? "|" : ""), $5 }' "$TMP/sum")
"$PROFCONV" list $SP "^($rx)\$" "$last" >"$TMP/list" 2>/dev/null ||
	fail "profconv list"
grep -q 'make_request_buffer(size_t n)' "$TMP/list" ||
	fail "the source of leaky.c is not found: $(head -5 "$TMP/list")"
check source "$TMP/one.html" "$TMP/list"
[ "$(cat "$TMP/check.out")" -ge 10 ] || fail "source: $(cat "$TMP/check.out") rows"
# The view's options reach every view: -t and --focus.
run 0 "$PROFCONV" report -t alloc_space --focus remember "$last" -o "$TMP/f.html"
"$PROFCONV" show --summary --sort flat -n 50 -t alloc_space --focus remember \
    "$last" >"$TMP/fsum" 2>/dev/null || fail "show --summary --focus"
check top "$TMP/f.html" "$TMP/fsum"
check totals "$TMP/f.html" "$TMP/fsum"
grep -q '>make_request_buffer<' "$TMP/f.html" && fail "--focus: other functions shown"
ftotal=$(sed -n 's/^total alloc_space\/bytes: \([0-9]*\).*/\1/p' "$TMP/fsum")
check flame "$TMP/f.html" "$ftotal"
# A table's size follows --top.
run 0 "$PROFCONV" report -n 2 "$last" -o "$TMP/n2.html"
rows=$(sed -n '/id="top-table"/,/<\/table>/p' "$TMP/n2.html" | grep -c '<tr><td')
[ "$rows" = 2 ] || fail "--top 2: $rows rows"

# --- a pair: the change ---------------------------------------------------
run 0 "$PROFCONV" report $SP --base "$first" "$last" -o "$TMP/diff.html"
check page "$TMP/diff.html" summary compare top flame graph source
"$CMD/profdiff" -n 50 "$first" "$last" >"$TMP/profdiff" 2>/dev/null
[ -s "$TMP/profdiff" ] || fail "profdiff printed nothing"
# The comparison table's rows, signs and TOTAL are profdiff --json's.
"$CMD/profdiff" -n 50 --json "$first" "$last" >"$TMP/diff50.json" 2>/dev/null
check compare "$TMP/diff.html" "$TMP/diff50.json" inuse_space
[ "$(cat "$TMP/check.out")" -ge 3 ] || fail "comparison: $(cat "$TMP/check.out") rows"
run 0 "$PROFCONV" report -t alloc_space -n 2 --base "$first" "$last" \
    -o "$TMP/diff-a.html"
"$CMD/profdiff" -n 2 --json "$first" "$last" >"$TMP/diff2.json" 2>/dev/null
check compare "$TMP/diff-a.html" "$TMP/diff2.json" alloc_space
grep -q 'id="compare-more"' "$TMP/diff-a.html" || fail "-n 2: no note of the rows left out"
# The source tab of a change is profconv list --base's.
"$PROFCONV" list $SP --base "$first" "^($rx)\$" "$last" >"$TMP/blist" 2>/dev/null ||
	fail "profconv list --base"
check source "$TMP/diff.html" "$TMP/blist"
"$PROFCONV" show --summary "$first" >"$TMP/bsum" 2>/dev/null || fail "show base"
check totals "$TMP/diff.html" "$TMP/bsum" base
check totals "$TMP/diff.html" "$TMP/sum"
# Each type's change in the summary is the current total less the base's.
python3 - "$TMP/diff.html" "$TMP/sum" "$TMP/bsum" >"$TMP/chg.err" 2>&1 <<'PY' ||
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
def totals(path):
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^total (\w+)/\w+: (-?\d+)", open(path).read(), re.M)}
cur, base = totals(sys.argv[2]), totals(sys.argv[3])
got = {m.group(1): int(m.group(2)) for m in re.finditer(
    r'<dd class="change" data-type="(\w+)" data-v="(-?\d+)"', page)}
want = {t: cur[t] - base[t] for t in cur}
if not want or got != want:
    sys.exit("changes %r, totals give %r" % (got, want))
PY
	fail "summary's changes: $(cat "$TMP/chg.err")"
check flame "$TMP/diff.html" "$total" diff
# The JSON's totals are the table's TOTAL row.
"$CMD/profdiff" --json "$first" "$last" >"$TMP/diff.json" 2>/dev/null
python3 - "$TMP/diff.json" "$TMP/profdiff" <<'PY' || fail "profdiff --json and the page's table disagree"
import json, sys
j = json.load(open(sys.argv[1]))
tot = [l.split() for l in open(sys.argv[2]) if l.rstrip().endswith("TOTAL")][0]
new = sum(r["newCount"] for r in j["rows"])
freed = sum(r["deletedCount"] for r in j["rows"])
assert (int(tot[0]), int(tot[1])) == (new, freed), (tot, new, freed)
PY

# --- a series --------------------------------------------------------------
run 0 "$PROFCONV" report "$@" -o "$TMP/trend.html"
check page "$TMP/trend.html" trend verdicts
"$CMD/proftrend" --json "$@" >"$TMP/trend.json" 2>/dev/null
[ -s "$TMP/trend.json" ] || fail "proftrend --json printed nothing"
check trend "$TMP/trend.html" "$TMP/trend.json"
grep -q '<td class="name">leak</td><td class="name">make_request_buffer</td>' \
    "$TMP/trend.html" || fail "the leak is not a suspect in the page"

# --- names that are markup are text -----------------------------------------
printf '%s\n' '<script>alert(1)</script>' ']]>end' '</svg><script>alert(2)</script>' \
    "quote\"and'apos&amp" '</iframe><img src=x onerror=alert(3)>' \
    '</pre></section><b>bold</b>' >"$TMP/names"
names_profile "$TMP/names"
run 0 "$PROFCONV" report --demangle none --list-top 10 "$TMP/h.pb" -o "$TMP/h.html"
check page "$TMP/h.html" summary top flame graph source
check names "$TMP/h.html" "$TMP/names"
grep -q '<script>alert\|<img\|<b>' "$TMP/h.html" && fail "a name became markup"
# The same names in a comparison: the base holds a third of each.
awk '{ $NF = int($NF / 3); print }' "$TMP/h.folded" >"$TMP/h0.folded"
python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/h0.folded" \
    "$TMP/h0.pb" || fail "cannot write h0.pb"
run 0 "$PROFCONV" report --demangle none --list-top 10 --base "$TMP/h0.pb" \
    "$TMP/h.pb" -o "$TMP/hd.html"
check page "$TMP/hd.html" summary compare top flame graph source
check names "$TMP/hd.html" "$TMP/names"
grep -q '<script>alert\|<img\|<b>' "$TMP/hd.html" && fail "a name became markup"

# --- errors: one line, no page ------------------------------------------------
echo keep >"$TMP/kept.html"
run 1 "$PROFCONV" report -t nosuch "$last" -o "$TMP/kept.html"
grep -q 'nosuch' "$TMP/err" || fail "-t nosuch: $(cat "$TMP/err")"
[ "$(cat "$TMP/kept.html")" = keep ] || fail "a failed report replaced the file"
run 2 "$PROFCONV" report "$last"
run 2 "$PROFCONV" report --base "$first" "$first" "$last" -o "$TMP/x.html"

# --- bounded: 36,000 stacks of jemalloc (bench/gen-je-heap.sh) -------------
if [ -n "$(find_lib libjemalloc.so.2)" ] && command -v gcc >/dev/null 2>&1; then
	je_heap "$TMP/je.heap" 36000 >/dev/null 2>&1 || fail "gen-je-heap.sh"
	run 0 "$PROFCONV" report "$TMP/je.heap" -o "$TMP/je.html"
	size=$(wc -c <"$TMP/je.html")
	in=$(wc -c <"$TMP/je.heap")
	[ "$size" -le 5242880 ] || fail "36k stacks ($in bytes): a page of $size bytes"
	check page "$TMP/je.html" summary top flame graph source
	run 0 "$PROFCONV" report -n 10 --minwidth 2 --nodecount 20 "$TMP/je.heap" \
	    -o "$TMP/je-small.html"
	[ "$(wc -c <"$TMP/je-small.html")" -lt "$size" ] ||
		fail "less shown, no smaller page"
	echo "36k-stack jemalloc profile of $in bytes: a page of $size bytes" >&2
else
	echo "no jemalloc or gcc: the size bound is not checked" >&2
fi
finish
