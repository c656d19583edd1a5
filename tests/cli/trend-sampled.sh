# SPDX-License-Identifier: MIT
# trend-sampled.sh - under jemalloc's default sampling (a sample every
# 512 KiB), a row of one object larger than the period is judged on
# its shape, not drowned in the noise of small samples: bigkeep.c keeps
# one 1 MiB buffer near the end of its run among batches of 4 KiB
# temporaries, a dump every 1 MiB allocated.  Its row (about 1.2 MiB,
# the estimate) is a leak, the temporaries' row is not, and proftrend
# exits 1.  Counted as small samples, that row's noise (2 sqrt(rise *
# period), 1.6 MiB) hid it: "stable", and exit 0.  The buffer is
# sampled 86% of the time; a run that did not sample it is run again.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
use_jemalloc
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/bigkeep" \
    "$PROFCONV_SRCDIR/tests/producers/bigkeep.c" ||
	fail "cannot build tests/producers/bigkeep.c"

tries=0
while :; do
	tries=$((tries + 1))
	rm -rf "$TMP/d"
	mkdir "$TMP/d"
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,lg_prof_interval:20,prof_final:true,prof_prefix:$TMP/d/je" \
	    "$TMP/bigkeep" >/dev/null 2>"$TMP/run.err" ||
		fail "bigkeep under jemalloc: $(cat "$TMP/run.err")"
	set -- $(ls "$TMP"/d/je.*.heap | sort -V)
	[ $# -ge 10 ] || fail "only $# dumps"
	"$CMD/proftrend" --json "$@" >"$TMP/out" 2>"$TMP/err"
	python3 - "$TMP/out" >"$TMP/check" 2>&1 <<'PY' || fail "$(cat "$TMP/check")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["rule"]["noise_floor"] == 1 << 19, doc["rule"]
rows = {r["name"]: r for r in doc["rows"]}
if "keep_buffer" not in rows:
    print("unsampled")
    sys.exit(0)
k = rows["keep_buffer"]
assert k["values"][0] == 0 and k["values"][-1] >= 1 << 20, k["values"]
assert k["verdict"] == "leak", ("keep_buffer", k["verdict"], k["values"])
assert rows["scratch"]["verdict"] != "leak", rows["scratch"]
assert doc["suspects"] == 1, doc["suspects"]
PY
	grep -q unsampled "$TMP/check" || break
	[ $tries -lt 8 ] || fail "the buffer was not sampled in $tries runs"
done
# The table and the exit status say the same.
run 1 "$CMD/proftrend" "$@"
grep -q ' leak .* keep_buffer$' "$TMP/out" || fail "table: $(grep keep_buffer "$TMP/out")"
finish
