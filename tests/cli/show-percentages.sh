# SPDX-License-Identifier: MIT
# show-percentages.sh - the shares profconv show --summary prints under
# filters are go tool pprof's: of the whole profile before any filter
# (pprof computes its total before focus, ignore, hide and show apply),
# or with --relative-percentages of what the filters keep, as pprof's
# -relative_percentages.  On heap profiles of tests/producers/cache.cc
# made now under tcmalloc: each function's (flat%, cum%) pair of show's
# functions table equals one of go tool pprof -top's, the same number of
# them, and the line naming the whole total gives pprof's sum.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_pprof
make_cache

# ours_pairs FILE, pprof_pairs FILE: the sorted "flat% cum%" pairs of
# show's functions table or of pprof's -top rows, one a line, with two
# decimals (pprof writes 0% and 100% without).
ours_pairs() {
	awk '/^top [0-9]+ functions/ { s = 1; next } /^top / { s = 0 }
	    s { printf "%.2f %.2f\n", $2, $4 }' "$1" | sort
}
pprof_pairs() {
	awk '/^ *flat  flat%/ { s = 1; next } s { printf "%.2f %.2f\n", $2, $5 }' "$1" |
	    sort
}

# check NAME "PPROF FLAGS" "SHOW FLAGS"
check() {
	# shellcheck disable=SC2086
	go tool pprof -top -nodefraction=0 -nodecount=100000 $2 "$CACHE1" \
	    >"$TMP/pprof" 2>"$TMP/pprof.err" ||
		{ fail "$1: go tool pprof: $(head -n 3 "$TMP/pprof.err")"; return; }
	# shellcheck disable=SC2086
	run 0 "$PROFCONV" show --summary --top 100000 $3 "$CACHE1"
	ours_pairs "$TMP/out" >"$TMP/ours.pairs"
	pprof_pairs "$TMP/pprof" >"$TMP/pprof.pairs"
	[ -s "$TMP/pprof.pairs" ] || fail "$1: pprof printed no rows"
	diff -u "$TMP/pprof.pairs" "$TMP/ours.pairs" >&2 ||
		fail "$1: show's shares differ from go tool pprof -top $2"
}

check "no filter" "" ""
grep -q "^percentages of " "$TMP/out" &&
	fail "no filter: a line naming the whole total, with nothing filtered"
whole=$(go tool pprof -raw "$CACHE1" 2>/dev/null |
	awk '/^Samples:/ { s = 1; getline; next } /^Locations/ { s = 0 }
	    s && $1 ~ /^[0-9]+$/ { t += $4 } END { print t + 0 }')
# Each of these takes whole samples away (show: those with no frame it
# keeps); hide only frames, so the total stays and no line is printed.
for f in focus:fill_doubles ignore:fill_ints show:fill_ints hide:fill_ints; do
	check "--${f%%:*}" "-${f%%:*}=${f#*:}" "--${f%%:*} ${f#*:}"
	[ "${f%%:*}" = hide ] || sed -n "s/^percentages of \([0-9]*\) inuse_space\/bytes: every sample's magnitude, before filters$/\1/p" \
	    "$TMP/out" | grep -qx "$whole" ||
		fail "--${f%%:*}: no line naming the whole total $whole: $(grep '^percentages' "$TMP/out")"
	check "--relative-percentages --${f%%:*}" \
	    "-relative_percentages -${f%%:*}=${f#*:}" \
	    "--relative-percentages --${f%%:*} ${f#*:}"
	grep -q "^percentages of " "$TMP/out" &&
		fail "--relative-percentages --${f%%:*}: a line naming the whole total"
done

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
