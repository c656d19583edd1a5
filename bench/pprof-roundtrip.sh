#!/bin/bash
# SPDX-License-Identifier: MIT
# pprof-roundtrip.sh - time profconv against go tool pprof on reading and
# rewriting one large, real pprof profile.
#
# usage: bench/pprof-roundtrip.sh [BUILDDIR]
#
# The goal (issue "≥ 5× faster than go tool pprof and no more memory"):
# profconv reads and writes a large pprof profile at least 5 times faster
# than `go tool pprof -proto`, with no larger peak RSS.
#
# What it does:
#  1. Makes (once; cached in bench/out/) a Go heap profile with ~1M
#     samples: bench/gen-go-heap.sh writes a Go program whose 2^LEVELS
#     call paths each allocate one object, with MemProfileRate = 1.  The
#     sample count is checked with `profconv show -s`.
#  2. Times, interleaved, RUNS times each on that same file:
#       profconv: `profconv text2pb IN -o OUT` if cmd/profconv has text2pb,
#                 else `tests/rewrite IN OUT 6` (read with the public API,
#                 write gzipped pprof at zlib level 6, like Go's default);
#       go:       `go tool pprof -proto -symbolize=none -output OUT IN`
#                 (the pprof binary in `go env GOTOOLDIR`, run directly so
#                 the go command's own start-up is not counted).
#     /usr/bin/time gives wall seconds and peak RSS; the table shows the
#     median of each, and the ratios go/profconv (> 1: profconv wins).
#  3. Checks the outputs agree: `go tool pprof -raw -symbolize=none` of the
#     two outputs must be identical, and `profconv show` of the input and
#     of profconv's output too; with text2pb, its output on one thread
#     (-j 1) must be the same bytes as on all CPUs.  Any difference is an
#     error.
#
# BUILDDIR (or $PROFCONV_BUILD) is an out-of-tree build of profconv;
# default ./build, or the current directory if it has cmd/profconv.
# tests/rewrite is built there with make if it is missing.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   LEVELS=20       call depth of the generated program: 2^LEVELS samples
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   PROFCONV_TOOL=rewrite|text2pb   force the profconv command
#   BENCH_STRICT=1  exit 3 if the goal is not met
#
# Exit status: 0 done (goal met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, go (Debian golang-go), GNU time (Debian time), awk, cmp.

set -euo pipefail

prog=pprof-roundtrip.sh

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

note() {
	echo "$prog: $*" >&2
}

case ${1:-} in
-h | --help)
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
[ $# -le 1 ] || {
	echo "usage: $prog [BUILDDIR]" >&2
	exit 2
}

benchdir=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-3}
LEVELS=${LEVELS:-20}
case $RUNS in '' | *[!0-9]* | 0) die "RUNS must be a positive number" ;; esac
case $LEVELS in '' | *[!0-9]*) die "LEVELS must be a number" ;; esac

# --- the build directory -------------------------------------------------------

build=${1:-${PROFCONV_BUILD:-}}
if [ -z "$build" ]; then
	if [ -x build/cmd/profconv ]; then
		build=build
	elif [ -x cmd/profconv ]; then
		build=.
	else
		die "no build directory: pass BUILDDIR or set PROFCONV_BUILD" \
		    "(./build and . have no cmd/profconv)"
	fi
fi
[ -d "$build" ] || die "'$build': no such directory"
build=$(cd "$build" && pwd)
PROFCONV=$build/cmd/profconv
[ -x "$PROFCONV" ] || die "$PROFCONV is not built (run make in $build)"
if [ ! -x "$build/tests/rewrite" ]; then
	note "building tests/rewrite in $build"
	make -C "$build" tests/rewrite >/dev/null || die "cannot build tests/rewrite"
fi
REWRITE=$build/tests/rewrite

command -v go >/dev/null 2>&1 || die "go not found (Debian: golang-go)"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian: time)"

out=${BENCH_OUT:-$benchdir/out}
mkdir -p "$out/roundtrip" || die "cannot create $out/roundtrip"
out=$(cd "$out" && pwd)
work=$out/roundtrip

# Go writes its build cache and more under HOME: keep it in a scratch dir.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pprof-roundtrip.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch GOCACHE=$scratch/gocache GOPATH=$scratch/gopath
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
GOPPROF=$(go env GOTOOLDIR)/pprof
[ -x "$GOPPROF" ] || die "$GOPPROF not found (go tool pprof)"

# --- the profile ---------------------------------------------------------------

input=$out/go-heap-L$LEVELS.pb.gz
if [ ! -s "$input" ] || [ "$benchdir/gen-go-heap.sh" -nt "$input" ]; then
	note "generating $input (2^$LEVELS call paths; ~10 s for 20 levels)"
	"$benchdir/gen-go-heap.sh" "$input" "$LEVELS" ||
		die "cannot generate the profile"
fi
"$PROFCONV" show -s "$input" >"$work/input.summary" ||
	die "profconv show -s cannot read $input"
samples=$(sed -n 's/^samples: \([0-9]*\).*/\1/p' "$work/input.summary")
[ -n "$samples" ] || die "no 'samples:' line from profconv show -s"
[ "$samples" -ge $((1 << LEVELS)) ] ||
	die "$input has $samples samples, expected at least $((1 << LEVELS))"
insize=$(wc -c <"$input")
rawsize=$(gzip -dc "$input" | wc -c)

# --- the profconv command ------------------------------------------------------

tool=${PROFCONV_TOOL:-}
if [ -z "$tool" ]; then
	tool=rewrite
	"$PROFCONV" --help 2>/dev/null | grep -q '^ *text2pb ' && tool=text2pb
fi
case $tool in
text2pb) pc_cmd=("$PROFCONV" text2pb "$input" -o "$work/profconv.pb.gz") ;;
rewrite) pc_cmd=("$REWRITE" "$input" "$work/profconv.pb.gz" 6) ;;
*) die "PROFCONV_TOOL must be rewrite or text2pb, not '$tool'" ;;
esac
go_cmd=("$GOPPROF" -proto -symbolize=none -output "$work/go.pb.gz" "$input")

# One untimed run: the libtool wrapper may relink on its first run, and a
# failure shows here with its message rather than inside a timing.
"${pc_cmd[@]}" >"$work/profconv.log" 2>&1 || {
	cat "$work/profconv.log" >&2
	die "'${pc_cmd[*]}' failed"
}

# Other work on the machine skews both tools; say so rather than hide it.
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
cpus=$(nproc 2>/dev/null || echo 1)
if awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
	note "warning: load average $load on $cpus CPUs: the figures will be noisy"
fi

cat <<EOF
build:    $build
profile:  $input
          $samples samples, $insize bytes gzipped, $rawsize bytes raw
profconv: ${pc_cmd[*]}
go:       ${go_cmd[*]}
outputs:  $work
runs:     $RUNS per tool, interleaved; median shown
machine:  $cpus CPUs, load average $load at start
EOF

# timed NAME CMD...: run CMD once, append "seconds maxrss_kb" to $work/NAME.times.
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$scratch/time" "$@" \
	    >"$work/$name.log" 2>&1 || {
		cat "$work/$name.log" >&2
		die "'$*' failed"
	}
	tail -n 1 "$scratch/time" >>"$work/$name.times"
}

# median COLUMN FILE
median() {
	awk -v c="$1" '{ print $c }' "$2" | sort -g | awk '
	    { v[NR] = $1 }
	    END { if (NR % 2) print v[(NR + 1) / 2]
	          else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

rm -f "$work/profconv.times" "$work/go.times"
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS: profconv"
	timed profconv "${pc_cmd[@]}"
	note "run $i/$RUNS: go tool pprof"
	timed go "${go_cmd[@]}"
	i=$((i + 1))
done

# --- equivalence ---------------------------------------------------------------

note "checking the outputs (go tool pprof -raw of both; profconv show)"
"$GOPPROF" -raw -symbolize=none "$work/go.pb.gz" >"$work/go.raw" 2>"$work/go.raw.err" ||
	die "go tool pprof -raw cannot read go's output: $(cat "$work/go.raw.err")"
"$GOPPROF" -raw -symbolize=none "$work/profconv.pb.gz" >"$work/profconv.raw" 2>"$work/profconv.raw.err" ||
	die "go tool pprof -raw cannot read profconv's output: $(cat "$work/profconv.raw.err")"
[ -s "$work/go.raw" ] || die "go tool pprof -raw printed nothing"
cmp -s "$work/go.raw" "$work/profconv.raw" ||
	die "OUTPUTS DIFFER: go tool pprof -raw of $work/go.pb.gz and" \
	    "$work/profconv.pb.gz (see $work/go.raw, $work/profconv.raw)"
"$PROFCONV" show "$input" >"$work/input.show" || die "profconv show $input"
"$PROFCONV" show "$work/profconv.pb.gz" >"$work/profconv.show" ||
	die "profconv show cannot read profconv's output"
cmp -s "$work/input.show" "$work/profconv.show" ||
	die "OUTPUTS DIFFER: profconv show of the input and of profconv's" \
	    "output (see $work/input.show, $work/profconv.show)"
rm -f "$work"/*.raw "$work"/*.show	# ~100 MB each; the check passed
if [ "$tool" = text2pb ]; then
	# The bytes do not depend on the thread count.
	"$PROFCONV" text2pb -j 1 "$input" -o "$work/profconv-j1.pb.gz" ||
		die "profconv text2pb -j 1 failed"
	cmp -s "$work/profconv.pb.gz" "$work/profconv-j1.pb.gz" ||
		die "OUTPUTS DIFFER: text2pb -j $(nproc 2>/dev/null || echo 1) and -j 1" \
		    "($work/profconv.pb.gz, $work/profconv-j1.pb.gz)"
fi

# --- the table -------------------------------------------------------------------

pc_s=$(median 1 "$work/profconv.times")
pc_kb=$(median 2 "$work/profconv.times")
go_s=$(median 1 "$work/go.times")
go_kb=$(median 2 "$work/go.times")
pc_size=$(wc -c <"$work/profconv.pb.gz")
go_size=$(wc -c <"$work/go.pb.gz")

awk -v pcs="$pc_s" -v pck="$pc_kb" -v gos="$go_s" -v gok="$go_kb" \
    -v pcz="$pc_size" -v goz="$go_size" -v tool="profconv $tool" '
function mb(kb) { return kb / 1024 }
BEGIN {
	printf "\n%-22s %10s %12s %12s\n", "tool", "median s", "peak RSS MB", "output B"
	printf "%-22s %10.2f %12.1f %12d\n", tool, pcs, mb(pck), pcz
	printf "%-22s %10.2f %12.1f %12d\n", "go tool pprof -proto", gos, mb(gok), goz
	sp = pcs > 0 ? gos / pcs : 0
	me = pck > 0 ? gok / pck : 0
	printf "%-22s %10.2fx %11.2fx\n", "go/profconv", sp, me
	printf "goal (speed >= 5x, memory >= 1x): %s\n",
	    (sp >= 5 && me >= 1) ? "met" : "NOT MET"
	exit !(sp >= 5 && me >= 1)
}' && met=1 || met=0
echo "outputs agree (go tool pprof -raw identical; profconv show identical$([ "$tool" = text2pb ] && echo "; -j 1 bytes identical"))"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "timings per run (seconds, peak RSS KB): $work/profconv.times, $work/go.times"

if [ "$met" = 0 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then
	exit 3
fi
exit 0
