# SPDX-License-Identifier: MIT
# profflame.sh - folded output is strictly well-formed, its totals equal
# the profile's, differential output covers both sides, and flamegraph.pl
# (when installed) renders it without warnings.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

FLAME=$CMD/profflame
CHECK="$PROFCONV_SRCDIR/tests/cli/folded-check.awk"
export LC_ALL=C
cpu=$DATA/go/cpu.pb.gz
mem=$DATA/go/mem.pb.gz

total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}

# Every sample type: well-formed, and the counts add up to the total.
for t in samples cpu; do
	run 0 "$FLAME" -t "$t" "$cpu"
	sum=$(awk -f "$CHECK" "$TMP/out") || fail "cpu $t: malformed folded output"
	[ "$sum" = "$(total "$t" "$cpu")" ] || fail "cpu $t: sum $sum != $(total "$t" "$cpu")"
done
for t in alloc_objects alloc_space inuse_objects inuse_space; do
	run 0 "$FLAME" -t "$t" "$mem"
	sum=$(awk -f "$CHECK" "$TMP/out") || fail "mem $t: malformed"
	[ "$sum" = "$(total "$t" "$mem")" ] || fail "mem $t: sum $sum != $(total "$t" "$mem")"
done

# The default type is the profile's default (Go: alloc_space here).
run 0 "$FLAME" "$mem"
cp "$TMP/out" "$TMP/default"
run 0 "$FLAME" -t alloc_space "$mem"
cmp -s "$TMP/out" "$TMP/default" || fail "default type is not alloc_space"

# Root first: the benchmark's stacks start in the testing package and
# end in the allocating function.
grep -q '^testing\.[^;]*;.*gowork\.BenchmarkWork;profconv\.test/gowork\.allocLarge [0-9]*$' "$TMP/out" ||
	fail "no root-first stack ending in allocLarge"

# Names granularity options stay well-formed; --lines adds file:line.
for o in --lines --addresses --no-inline --keep-allocator-frames; do
	run 0 "$FLAME" $o "$mem"
	awk -f "$CHECK" "$TMP/out" >/dev/null || fail "$o: malformed"
done
run 0 "$FLAME" --lines "$mem"
grep -q 'allocLarge work_test.go:[0-9]* ' "$TMP/out" || fail "--lines: no file:line"

# Focus and ignore.
run 0 "$FLAME" --focus 'allocSmall' "$mem"
[ "$(grep -vc allocSmall "$TMP/out")" = 0 ] || fail "--focus kept other stacks"
run 0 "$FLAME" --ignore 'allocSmall' "$mem"
grep -q allocSmall "$TMP/out" && fail "--ignore kept allocSmall"
run 2 "$FLAME" --focus '(' "$mem"
grep -q "invalid focus expression '('" "$TMP/err" || fail "bad regex not reported"

# Differential: two counts, both sides' totals.
run 0 "$FLAME" -t cpu --base "$cpu" "$cpu"
sums=$(awk -v counts=2 -f "$CHECK" "$TMP/out") || fail "differential: malformed"
t=$(total cpu "$cpu")
[ "$sums" = "$t $t" ] || fail "differential sums '$sums' != '$t $t'"

# Errors.
run 1 "$FLAME" -t nope "$cpu"
expect_err "profflame: '$cpu': profile has no sample type 'nope'"
run 2 "$FLAME"
run 1 "$FLAME" -o "$TMP/x.folded" "$TMP/missing"
[ -e "$TMP/x.folded" ] && fail "output file left behind"

# A delta profile has negative counts: refused, not silently dropped.
"$PROFCONV" merge -o "$TMP/twice.pb.gz" "$cpu" "$cpu" || fail "merge"
run 1 "$CMD/profdiff" -q -o "$TMP/neg.pb.gz" "$TMP/twice.pb.gz" "$cpu"
run 1 "$FLAME" "$TMP/neg.pb.gz"
grep -q "negative count in a stack ending in .*(a delta profile?)" "$TMP/err" || fail "negative counts not refused"

# flamegraph.pl renders it without warnings, when installed.
if command -v flamegraph.pl >/dev/null 2>&1; then
	run 0 "$FLAME" "$mem"
	flamegraph.pl <"$TMP/out" >"$TMP/out.svg" 2>"$TMP/fg.err" || fail "flamegraph.pl failed"
	[ -s "$TMP/fg.err" ] && fail "flamegraph.pl warned: $(cat "$TMP/fg.err")"
	grep -q '<svg' "$TMP/out.svg" || fail "no SVG"
else
	echo "flamegraph.pl not installed: rendering not checked" >&2
fi
finish
