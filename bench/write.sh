#!/bin/bash
# SPDX-License-Identifier: MIT
# write.sh - time reading and writing the big symbolized pprof (3.4M
# samples) with profconv, at each compression choice and thread count,
# against go tool pprof in the same run.
#
# usage: bench/write.sh [BUILDDIR]
#
# What it does:
#  1. Takes the symbolized pprof of the ~1.3 GB jemalloc profile that
#     bench/flame.sh makes ($BENCH_OUT/flame/big-$BIG_N.sym.pb.gz; run
#     flame.sh first, or set WRITE_INPUT=FILE to any large pprof).
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds,
#     CPU seconds and peak RSS; the table shows medians):
#       profconv text2pb IN -o OUT            (default: all CPUs, level 1
#                                              above 32 MiB of pprof)
#       profconv text2pb -j 1 IN -o OUT       (one thread)
#       profconv text2pb --level 6 IN -o OUT
#       profconv text2pb --no-compress IN -o OUT
#       go tool pprof -proto -symbolize=none -output OUT IN   (the anchor)
#     and, with BASELINE=DIR (another build, e.g. of main before this
#     work), that build's text2pb IN -o OUT and --no-compress, so that
#     before and after are measured in one run.
#  3. Checks: the default output is byte-identical to the -j 1 one;
#     gzip -d of each compressed output is the --no-compress output;
#     go tool pprof -raw prints the same for flame.sh's small symbolized
#     profile (~2 MB of protobuf: several gzip members) and for its
#     rewrite by text2pb (CHECK_GO=small, the default), or for the big
#     input and profconv's default output (CHECK_GO=big: about 10
#     minutes and over 8 GB of memory per go run), or not (CHECK_GO=0).
#  4. Prints the table with the ratio go/profconv per row, the sizes,
#     and the load average at the start and at the end.
#
# BUILDDIR (or $PROFCONV_BUILD) is a build of profconv; default ./build,
# or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3          timed runs per command (the median is reported)
#   BIG_N=3400000   call paths of flame.sh's big profile
#   WRITE_INPUT=F   the pprof file to read and write instead
#   BASELINE=DIR    a second build to time in the same run
#   CHECK_GO=small  what go tool pprof -raw compares: small, big or 0
#   SMALL_N=32000   call paths of flame.sh's small profile
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#
# Exit status: 0 done, 1 error (a check failed), 2 usage.
# Needs: bash, go (golang-go), GNU time (time), gzip, cmp, awk.

set -euo pipefail
prog=write.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_go

BIG_N=${BIG_N:-3400000}
CHECK_GO=${CHECK_GO:-small}
SMALL_N=${SMALL_N:-32000}
checked_go=
input=${WRITE_INPUT:-$out/flame/big-$BIG_N.sym.pb.gz}
[ -s "$input" ] || die "$input not found: run bench/flame.sh first, or set WRITE_INPUT"
work=$out/write
mkdir -p "$work" || die "cannot create $work"
command -v gzip >/dev/null 2>&1 || die "gzip not found"

base=
if [ -n "${BASELINE:-}" ]; then
	base=$(cd "$BASELINE" && pwd) || die "BASELINE: no such directory"
	BASE_PROFCONV=$base/cmd/profconv
	if [ -x "$base/cmd/.libs/profconv" ]; then
		BASE_PROFCONV=$base/cmd/.libs/profconv
	fi
	[ -x "$BASE_PROFCONV" ] || die "$BASE_PROFCONV is not built"
fi
# The baseline's command with its own library.
base_cmd=(env "LD_LIBRARY_PATH=${base:+$base/lib/.libs}" "${BASE_PROFCONV:-}")

summary "$input" "$scratch/in.s"
load_warning
deflate=zlib
if command -v ldd >/dev/null 2>&1 && [ -d "$build/lib/.libs" ] &&
    ldd "$build/lib/.libs/libprofconv.so" 2>/dev/null | grep -q libdeflate; then
	deflate=libdeflate
fi
cat <<EOF
build:    $build (gzip output: $deflate)
baseline: ${base:-none}
input:    $input
          $(wc -c <"$input") bytes, $(field "$scratch/in.s" samples) samples
outputs:  $work
runs:     $RUNS per command, interleaved; median shown
machine:  $cpus CPUs, load average $load at start
EOF

rm -f "$work"/*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS"
	timed pc "$PROFCONV" text2pb "$input" -o "$work/pc.pb.gz"
	timed pc_j1 "$PROFCONV" text2pb -j 1 "$input" -o "$work/pc_j1.pb.gz"
	timed pc_l6 "$PROFCONV" text2pb --level 6 "$input" -o "$work/pc_l6.pb.gz"
	timed pc_raw "$PROFCONV" text2pb --no-compress "$input" -o "$work/pc_raw.pb"
	if [ -n "$base" ]; then
		timed base "${base_cmd[@]}" text2pb "$input" -o "$work/base.pb.gz"
		timed base_raw "${base_cmd[@]}" text2pb --no-compress "$input" -o "$work/base_raw.pb"
	fi
	timed go "$GOPPROF" -proto -symbolize=none -output "$work/go.pb.gz" "$input"
	i=$((i + 1))
done

# --- checks ------------------------------------------------------------------------

note "checking the outputs"
cmp -s "$work/pc.pb.gz" "$work/pc_j1.pb.gz" ||
	die "OUTPUTS DIFFER: -j $cpus and -j 1 ($work/pc.pb.gz, $work/pc_j1.pb.gz)"
for f in pc pc_l6; do
	gzip -dc "$work/$f.pb.gz" | cmp -s - "$work/pc_raw.pb" ||
		die "OUTPUTS DIFFER: gzip -d $work/$f.pb.gz is not $work/pc_raw.pb"
done
# go_check IN OUT: go tool pprof -raw prints the same for both.
go_check() {
	"$GOPPROF" -raw -symbolize=none "$1" >"$scratch/in.raw" 2>"$scratch/go.err" ||
		die "go tool pprof -raw cannot read $1: $(cat "$scratch/go.err")"
	"$GOPPROF" -raw -symbolize=none "$2" >"$scratch/pc.raw" 2>"$scratch/go.err" ||
		die "go tool pprof -raw cannot read profconv's output $2: $(cat "$scratch/go.err")"
	cmp -s "$scratch/in.raw" "$scratch/pc.raw" ||
		die "OUTPUTS DIFFER: go tool pprof -raw of $1 and of $2"
	rm -f "$scratch"/*.raw
}
case $CHECK_GO in
big)
	note "checking with go tool pprof -raw (input and profconv's output)"
	go_check "$input" "$work/pc.pb.gz"
	checked_go="go tool pprof -raw of input = of output"
	;;
small)
	small=$out/flame/pair-$SMALL_N.f.sym.pb.gz
	if [ -s "$small" ]; then
		note "checking with go tool pprof -raw ($small rewritten)"
		"$PROFCONV" text2pb "$small" -o "$work/small.pb.gz" ||
			die "profconv text2pb $small failed"
		go_check "$small" "$work/small.pb.gz"
		checked_go="go tool pprof -raw of $(basename "$small") = of its rewrite"
	else
		note "no $small (flame.sh makes it): go tool pprof -raw not checked"
	fi
	;;
0) ;;
*) die "CHECK_GO must be small, big or 0" ;;
esac

# --- the table -----------------------------------------------------------------------

row() {
	awk -v l="$1" -v s="$(median 1 "$work/$2.times")" \
	    -v kb="$(median 2 "$work/$2.times")" -v cpu="$(cpu "$2")" \
	    -v g="$(median 1 "$work/go.times")" -v b="$(wc -c <"$3")" '
	    BEGIN { printf "  %-38s %7.2f %7.2f %8.1f %11d %8.1fx\n", l, s, cpu, kb / 1024, b, (s > 0 ? g / s : 0) }'
}
echo
printf '  %-38s %7s %7s %8s %11s %9s\n' "command" "wall s" "cpu s" "peak MB" "output B" "go/this"
row "text2pb (default: -j $cpus, auto level)" pc "$work/pc.pb.gz"
row "text2pb -j 1" pc_j1 "$work/pc_j1.pb.gz"
row "text2pb --level 6" pc_l6 "$work/pc_l6.pb.gz"
row "text2pb --no-compress" pc_raw "$work/pc_raw.pb"
if [ -n "$base" ]; then
	row "baseline text2pb" base "$work/base.pb.gz"
	row "baseline text2pb --no-compress" base_raw "$work/base_raw.pb"
fi
row "go tool pprof -proto" go "$work/go.pb.gz"
checked="-j $cpus = -j 1 bytes; gzip -d = --no-compress${checked_go:+; $checked_go}"
echo "outputs agree ($checked)"
rm -f "$work"/*.pb "$work"/*.pb.gz
bench_exit
