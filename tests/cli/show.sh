# SPDX-License-Identifier: MIT
# show.sh - the dump and the summary of real Go profiles.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cpu=$DATA/go/cpu.pb.gz
mem=$DATA/go/mem.pb.gz

run 0 "$PROFCONV" show "$cpu"
expect_out_has '^sample types: samples/count cpu/nanoseconds\[default\]$'
expect_out_has '^period: 10000000 cpu/nanoseconds$'
expect_out_has '^samples: [0-9]+$'
expect_out_has '^locations: [0-9]+$'
expect_out_has '^mappings: [0-9]+$'
cp "$TMP/out" "$TMP/dump1"

# Standard input and a decompressed copy give the very same dump.
gzip -dc "$cpu" >"$TMP/cpu.pb"
run 0 "$PROFCONV" show - <"$TMP/cpu.pb"
cmp -s "$TMP/out" "$TMP/dump1" || fail "dump of raw stdin differs from gz file"

run 0 "$PROFCONV" show --summary --top 3 "$mem"
expect_out_has '^total alloc_space/bytes: [0-9]+ \[default\]$'
expect_out_has '^top 3 stacks by alloc_space'
expect_out_has '^top 3 functions by alloc_space'
expect_out_has 'gowork\.allocLarge'

# The summary's total equals the sum of the dump's sample values.
run 0 "$PROFCONV" show "$mem"
sum=$(awk '/^samples:/ {s=1; next} /^locations:/ {s=0}
	s && $1 ~ /^-?[0-9]+$/ {t += $2} END {print t}' "$TMP/out")
run 0 "$PROFCONV" show -s "$mem"
grep -q "^total alloc_space/bytes: $sum " "$TMP/out" ||
	fail "summary total is not the sum of samples ($sum)"
finish
