#!/bin/sh
# SPDX-License-Identifier: MIT
# record.sh - the overhead of "profconv record" (issue 44) on an
# allocation-heavy program: the program's own time for its loop (it
# prints it), median of RUNS runs, under preloaded jemalloc without
# profiling, under profconv record (jemalloc, default sampling, with the
# helper's thread polling), and under heaptrack; plus record's own time
# after the program (symbolize, report, verdicts).  Load average first
# and last: the machine is shared.
# Usage: bench/record.sh BUILDDIR [OPS_MILLIONS] [RUNS]
set -eu
B=${1:?usage: bench/record.sh BUILDDIR [OPS_MILLIONS] [RUNS]}
OPS=${2:-20}
RUNS=${3:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=$SRC/bench/out/record
rm -rf "$OUT" && mkdir -p "$OUT"
LIBJE=$(ldconfig -p | awk '$1 == "libjemalloc.so.2" {print $NF; exit}')
[ -n "$LIBJE" ] || { echo "no libjemalloc.so.2" >&2; exit 77; }
export PROFCONV_RECORD_HELPER=${PROFCONV_RECORD_HELPER:-$B/cmd/.libs/profconv-record.so}

cat >"$OUT/churn.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define NOINLINE __attribute__((noinline))
static void *slots[4096];
static NOINLINE void *get(size_t n) { return malloc(n); }
int main(int argc, char **argv)
{
	long ops = atol(argv[1]) * 1000000L, i;
	unsigned s = 1;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < ops; i++) {
		unsigned k;
		s = s * 1103515245u + 12345u;
		k = (s >> 8) % 4096;
		free(slots[k]);
		slots[k] = get(16 + (s >> 20) % 2048);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
EOC
cc -O2 -g -fno-omit-frame-pointer -o "$OUT/churn" "$OUT/churn.c"

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ops: ${OPS}M malloc+free, runs: $RUNS (median, seconds of the loop)"

for i in $(seq "$RUNS"); do "$OUT/churn" "$OPS"; done | median >"$OUT/glibc"
for i in $(seq "$RUNS"); do LD_PRELOAD=$LIBJE "$OUT/churn" "$OPS"; done | median >"$OUT/je"
for i in $(seq "$RUNS"); do
	mkdir -p "$OUT/prof$i"
	LD_PRELOAD=$LIBJE MALLOC_CONF="prof:true,prof_accum:true,prof_final:true,prof_prefix:$OUT/prof$i/churn" \
	    "$OUT/churn" "$OPS"
done | median >"$OUT/prof"
for i in $(seq "$RUNS"); do
	rm -rf "$OUT/rec$i"
	s=$(date +%s.%N)
	"$B/cmd/profconv" record -o "$OUT/rec$i" -- "$OUT/churn" "$OPS" 2>/dev/null
	e=$(date +%s.%N)
	echo "$s $e" >"$OUT/rec$i.wall"
done | median >"$OUT/rec"
wall=$(for i in $(seq "$RUNS"); do awk '{print $2 - $1}' "$OUT/rec$i.wall"; done | median)
if command -v heaptrack >/dev/null 2>&1; then
	for i in $(seq "$RUNS"); do
		(cd "$OUT" && heaptrack -o "$OUT/ht$i" "$OUT/churn" "$OPS" 2>/dev/null |
		    grep -E '^[0-9]+\.[0-9]+$')
	done | median >"$OUT/ht"
else
	echo "-" >"$OUT/ht"
fi
g=$(cat "$OUT/glibc") j=$(cat "$OUT/je") r=$(cat "$OUT/rec") h=$(cat "$OUT/ht")
p=$(cat "$OUT/prof")
echo "glibc malloc:                 $g"
echo "jemalloc, no profiling:       $j"
echo "jemalloc, profiling by hand:  $p  ($(awk -v p="$p" -v j="$j" 'BEGIN {printf "%.3f", p / j}')x jemalloc; the same MALLOC_CONF, no helper)"
echo "profconv record (jemalloc):   $r  ($(awk -v r="$r" -v j="$j" 'BEGIN {printf "%.3f", r / j}')x jemalloc, $(awk -v r="$r" -v p="$p" 'BEGIN {printf "%.3f", r / p}')x by hand)"
echo "heaptrack (glibc):            $h  ($(awk -v h="$h" -v g="$g" 'BEGIN {if (h == "-") print "-"; else printf "%.2f", h / g}')x glibc)"
echo "record's whole run (wall):    $wall  (the loop, start-up, exit dump, symbolize, report, verdicts)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
