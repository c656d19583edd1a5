# SPDX-License-Identifier: MIT
# trend-twins.sh - two rows of the same shape get the same verdict, on
# real programs: perl growing a hash of strings and, in lockstep through
# another sub, an array of arrays (records.pl twins), under jemalloc,
# rows by stack.  From proftrend --json, every pair of rows whose series,
# each scaled by its own peak, differ by less than TOL at every snapshot
# (both peaks well above the noise floor) has one verdict; and there is
# such a pair (the structures' stacks), so the check cannot pass empty.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (the checks)"
command -v perl >/dev/null 2>&1 || skip "no perl"
use_jemalloc

# twins JSON WHAT: the check on one run.
twins() {
	python3 - "$1" <<'PY' >"$TMP/problems" 2>&1 ||
import json, sys
TOL = 0.05	# of each row's peak, at every snapshot
doc = json.load(open(sys.argv[1]))
floor = doc["rule"]["noise_floor"]
rows = [r for r in doc["rows"] if max(r["values"]) >= 64 * floor]
pairs = 0
for i, a in enumerate(rows):
    pa = max(a["values"])
    for b in rows[i + 1:]:
        pb = max(b["values"])
        if max(abs(x / pa - y / pb) for x, y in zip(a["values"], b["values"])) >= TOL:
            continue
        pairs += 1
        if a["verdict"] != b["verdict"]:
            print("same shape, verdicts %s and %s: %s | %s" % (a["verdict"],
                  b["verdict"], a["name"][-60:], b["name"][-60:]))
if pairs == 0:
    print("no two rows of the same shape among %d" % len(rows))
PY
		fail "$2: checking the pairs"
	while read -r line; do
		fail "$2: $line"
	done <"$TMP/problems"
}

# A sample every KiB: the two arenas' rows by function (Perl_more_sv,
# Perl_more_bodies) are twins within 4.3% when every allocation is
# recorded; a sample every 4 KiB scatters them past TOL in some runs,
# and then the check finds no pair to compare.
mkdir "$TMP/je"
LD_PRELOAD=$LIBJE MALLOC_CONF=prof:true,lg_prof_sample:10,prof_accum:true,lg_prof_interval:20,prof_prefix:$TMP/je/je \
	perl "$PROFCONV_SRCDIR/tests/trend/programs/records.pl" twins 40 ||
	fail "perl under jemalloc failed"
run 1 "$CMD/proftrend" --by stack --json "$TMP"/je/je.*.heap
twins "$TMP/out" "perl twins by stack"
# By function too: the rows are other sums of the same stacks.
run 1 "$CMD/proftrend" --json "$TMP"/je/je.*.heap
cp "$TMP/out" "$TMP/fn.json"
twins "$TMP/fn.json" "perl twins by function"
finish
