#!/bin/bash
# SPDX-License-Identifier: MIT
# list.sh - time profconv list against go tool pprof -list on a real
# jemalloc heap profile of ~36k stacks (13 MB), symbolized first.
#
# usage: bench/list.sh [BUILDDIR]
#
# What it does:
#  1. Makes (when missing) the profile with bench/gen-je-heap.sh (36,000
#     call paths through 2048 functions) and symbolizes it to pprof
#     with `profconv symbolize` (untimed).
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds
#     and peak RSS; the table shows medians):
#       profconv list RE PROF           RE: 8 of the 2048 functions
#       profconv list --keep-allocator-frames RE PROF
#       go tool pprof -list RE PROF
#       profconv list --html RE PROF
#     and checks that pprof's listing and profconv's with the allocator's
#     frames kept agree (profconv's inlined rows left out): jemalloc's
#     frames have no symbols here, which pprof keeps as leaves and the
#     view cuts by default, so by default their callers' lines get flat.
#
# BUILDDIR (or $PROFCONV_BUILD) is a build of profconv; default ./build,
# or the current directory if it has cmd/profconv.
# Environment: RUNS=3, PATHS=36000, RE='^f000[0-7]$', BENCH_OUT=DIR.
# Exit status: 0 done, 1 error, 2 usage.
# Needs: bash, gcc, Debian libjemalloc2, go, GNU time (time), awk.

set -euo pipefail
prog=list.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_go

PATHS=${PATHS:-36000}
RE=${RE:-'^f000[0-7]$'}
work=$out/list
mkdir -p "$work"
rm -f "$work"/*.times
je_profile "$out/je/list.heap" "$PATHS"
prof=$work/list.pb.gz
if [ ! -s "$prof" ] || [ "$out/je/list.heap" -nt "$prof" ]; then
	note "symbolizing $out/je/list.heap"
	"$PROFCONV" symbolize --quiet -o "$prof" "$out/je/list.heap" ||
		die "cannot symbolize"
fi
load_warning
# pprof looks for the sources from here: the program's sources.
cd "$out/je"
for _ in $(seq "$RUNS"); do
	timed profconv "$PROFCONV" list "$RE" "$prof"
	timed keep "$PROFCONV" list --keep-allocator-frames "$RE" "$prof"
	timed pprof "$GOPPROF" -list "$RE" "$prof"
	timed html "$PROFCONV" list --html "$RE" "$prof"
done
grep -v -E '^ *[^ ]+ +[^ ]+ +\+ ' "$work/keep.out" >"$scratch/noinl"
diff -q "$work/pprof.out" "$scratch/noinl" >/dev/null ||
	die "profconv list and go tool pprof -list differ (see $work)"
echo "profile: $prof ($(du -h "$prof" | cut -f1)), RE=$RE," \
    "$(grep -c '^ROUTINE' "$work/pprof.out") routines"
printf '  %-44s %9s %10s %5s\n' "" seconds "peak MB" runs
report profconv "profconv list"
report keep "profconv list --keep-allocator-frames"
report pprof "go tool pprof -list"
report html "profconv list --html"
