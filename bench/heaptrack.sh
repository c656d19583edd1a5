#!/bin/bash
# SPDX-License-Identifier: MIT
# heaptrack.sh - time profconv text2pb on a large heaptrack data file
# against heaptrack_print on the same file.
#
# usage: bench/heaptrack.sh [BUILDDIR]
#
# What it does:
#  1. Makes (once; cached in bench/out/heaptrack/) a heaptrack recording of
#     tests/producers/heapuse.c built -O2 -g and run with CHURN rounds of
#     its malloc/free loop: about CHURN allocations and as many frees, so
#     2 x CHURN event lines (heaptrack ./heapuse CHURN -> hu.zst).  Its
#     decompressed size is printed.
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds and
#     peak RSS; medians reported):
#       profconv text2pb hu.zst -o OUT
#       heaptrack_print -f hu.zst                      (its default report)
#       heaptrack_print -f hu.zst -F FG --flamegraph-cost-type peak
#  3. Checks that profconv's alloc_objects and temporary_objects totals
#     equal heaptrack_print's "calls to allocation functions" and
#     "temporary memory allocations", and that profconv's peak RSS stays
#     far below the decompressed size (the events are streamed).
#
# Environment:
#   RUNS=3           timed runs per tool (the median is reported)
#   CHURN=10000000   allocations of the churn loop
#   BENCH_OUT=DIR    where generated data and outputs go (bench/out)
#
# Exit status: 0 done, 1 error, 2 usage.
# Needs: bash, gcc, heaptrack (Debian heaptrack), zstd, /usr/bin/time.
set -euo pipefail
prog=heaptrack.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"

CHURN=${CHURN:-10000000}
command -v heaptrack >/dev/null 2>&1 || die "heaptrack not found (Debian: heaptrack)"
command -v heaptrack_print >/dev/null 2>&1 || die "heaptrack_print not found"
command -v zstd >/dev/null 2>&1 || die "zstd not found"

src=$benchdir/../tests/producers/heapuse.c
hdir=$out/heaptrack
mkdir -p "$hdir"
data=$hdir/hu.$CHURN.zst
if ! [ -s "$data" ] || ! [ "$data" -nt "$src" ]; then
	note "recording heaptrack ./heapuse $CHURN (once)"
	gcc -O2 -g -o "$hdir/heapuse" "$src" || die "cannot build heapuse"
	rm -f "$hdir/hu.$CHURN".*
	(cd "$hdir" && heaptrack -o "$hdir/hu.$CHURN" ./heapuse "$CHURN" \
	    >"$hdir/record.log" 2>&1) || die "heaptrack failed (see $hdir/record.log)"
	[ -s "$data" ] || die "heaptrack wrote no $data"
fi
size=$(zstd -dc "$data" | wc -c)
lines=$(zstd -dc "$data" | wc -l)
note "$data: $(stat -c %s "$data") bytes, $size decompressed, $lines lines"

work=$scratch
load_warning
for i in $(seq "$RUNS"); do
	timed profconv "$PROFCONV" text2pb "$data" -o "$scratch/out.pb.gz"
	timed htprint heaptrack_print -f "$data"
	timed htflame heaptrack_print -f "$data" -F "$scratch/fg" \
	    --flamegraph-cost-type peak
done

summary "$scratch/out.pb.gz" "$scratch/sum"
calls=$(sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p' "$work/htprint.out")
temps=$(sed -n 's/^temporary memory allocations: \([0-9]*\).*/\1/p' "$work/htprint.out")
[ "$(field "$scratch/sum" alloc_objects/count)" = "$calls" ] ||
	die "alloc_objects $(field "$scratch/sum" alloc_objects/count), heaptrack_print $calls"
[ "$(field "$scratch/sum" temporary_objects/count)" = "$temps" ] ||
	die "temporary_objects differ from heaptrack_print's $temps"

echo "heaptrack file: $lines lines, $size bytes decompressed; $calls allocations"
report_head
report profconv "profconv text2pb"
report htprint "heaptrack_print (default report)"
report htflame "heaptrack_print -F (peak flame graph)"
read -r s m <<<"$(ratio htprint profconv)"
echo "  heaptrack_print / profconv: time ${s}x, peak RSS ${m}x"
read -r s m <<<"$(ratio htflame profconv)"
echo "  heaptrack_print -F / profconv: time ${s}x, peak RSS ${m}x"
goal "streaming (profconv peak RSS < 1/4 of the decompressed file)" \
    "$(median 2 "$work/profconv.times") * 1024 < $size / 4"
bench_exit
