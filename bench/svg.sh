#!/bin/bash
# SPDX-License-Identifier: MIT
# svg.sh - time `profflame --svg` on real jemalloc profiles, against
# flamegraph.pl on the same stacks (when it is installed).
#
# usage: bench/svg.sh [BUILDDIR]
#
# The goals (issue 12):
#  A. `profflame --svg` draws the flame graph of a symbolized ~12.7 MB
#     jemalloc profile in at most 0.5 s;
#  B. ... and of the ~1.27 GB one (~3.4M stacks) in at most 15 s.
#
# What it does:
#  1. Takes the jemalloc profiles flame.sh uses (made once by
#     bench/gen-je-heap.sh and cached in bench/out/je/; symbolized once
#     with `profconv symbolize`, cached in bench/out/flame/): SMALL_N call
#     paths (~12.7 MB) and BIG_N (~1.27 GB).  BIG_N=0 skips the big one.
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds,
#     peak RSS, user and system seconds; the tables show medians):
#       small: profflame --svg SMALL.sym.pb.gz, the same with -j 1,
#              profflame (folded) of the same, flamegraph.pl on those
#              folded stacks
#       big:   the same for BIG.sym.pb.gz
#     flamegraph.pl is not packaged by Debian: it is timed when it is on
#     the PATH (or FLAMEGRAPH=/path/to/flamegraph.pl), and its absence is
#     reported.  It is the anchor: each table says how many times
#     profflame --svg's time flamegraph.pl takes on stacks already folded.
#  3. Checks: each SVG parses as XML (python3) and its root is titled with
#     the profile's inuse_space total; flamegraph.pl's SVG (when run) has
#     the same total; the SVG is the same with one thread and with all.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   BIG_N=3400000   call paths of the big profile (0: small only)
#   SMALL_N=32000   call paths of the small profile
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, python3, Debian libjemalloc2, GNU time (time).

set -euo pipefail
prog=svg.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"

BIG_N=${BIG_N:-3400000}
SMALL_N=${SMALL_N:-32000}
case $SMALL_N in '' | *[!0-9]* | 0) die "SMALL_N must be a positive number" ;; esac
case $BIG_N in '' | *[!0-9]*) die "BIG_N must be a number" ;; esac
command -v python3 >/dev/null 2>&1 || die "python3 not found"
FLAMEGRAPH=${FLAMEGRAPH:-$(command -v flamegraph.pl 2>/dev/null || true)}

work=$out/flame
mkdir -p "$work" || die "cannot create $work"

# --- the profiles (shared with flame.sh) ------------------------------------

small=$out/je/pair-$SMALL_N.f.heap
je_profile "$small" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
sets=small
if [ "$BIG_N" != 0 ]; then
	big=$out/je/big-$BIG_N.heap
	je_profile "$big" "$BIG_N" 0
	sets="small big"
fi
for s in $sets; do
	f=${!s}
	pb=$work/$(basename "$f" .heap).sym.pb.gz
	if [ ! -s "$pb" ] || [ "$f" -nt "$pb" ]; then
		note "symbolizing $f"
		"$PROFCONV" symbolize -o "$pb" "$f" 2>"$work/symbolize.err" ||
			{ cat "$work/symbolize.err" >&2; die "profconv symbolize $f failed"; }
	fi
	printf -v "${s}_pb" '%s' "$pb"
	summary "$pb" "$scratch/$s.s"
done

load_warning
echo "build:    $build"
for s in $sets; do
	f=${!s}
	pb=${s}_pb
	echo "$s:    $f"
	echo "          $(wc -c <"$f") bytes, $(field "$scratch/$s.s" samples) stacks;" \
	    "$(basename "${!pb}") $(wc -c <"${!pb}") bytes"
done
echo "flamegraph.pl: ${FLAMEGRAPH:-not installed (Debian does not package it)}"
echo "runs:     $RUNS per tool, interleaved; median shown"
echo "machine:  $cpus CPUs, load average $load at start"

rm -f "$work"/svg_*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	for s in $sets; do
		pb=${s}_pb
		note "run $i/$RUNS: $s: profflame --svg, profflame (folded)${FLAMEGRAPH:+, flamegraph.pl}"
		timed "svg_${s}" "$PROFFLAME" --svg "${!pb}"
		timed "svg_${s}_j1" "$PROFFLAME" -j 1 --svg "${!pb}"
		timed "svg_${s}_folded" "$PROFFLAME" "${!pb}"
		if [ -n "$FLAMEGRAPH" ]; then
			timed "svg_${s}_fg" "$FLAMEGRAPH" "$work/svg_${s}_folded.out"
		fi
	done
	i=$((i + 1))
done

# --- checks ---------------------------------------------------------------------

note "checking the outputs"
for s in $sets; do
	cmp -s "$work/svg_$s.out" "$work/svg_${s}_j1.out" ||
		die "OUTPUTS DIFFER: profflame --svg of the $s profile with one thread and with all"
	want=$(field "$scratch/$s.s" inuse_space/bytes)
	for tool in svg ${FLAMEGRAPH:+fg}; do
		f=$work/svg_$s.out
		[ "$tool" = fg ] && f=$work/svg_${s}_fg.out
		got=$(python3 - "$f" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for t in ET.parse(sys.argv[1]).getroot().iter(ns + "title"):
    m = re.match(r"all \(([0-9,]+) ", t.text or "")
    if m:
        print(m.group(1).replace(",", ""))
        break
PY
) || die "$f: not well-formed XML"
		[ "$got" = "$want" ] || die "$f: the root is $got, the profile's total $want"
	done
done

# --- the tables -------------------------------------------------------------------

for s in $sets; do
	echo
	echo "$s: flame graph SVG ($(wc -c <"$work/svg_$s.out") bytes," \
	    "$(grep -c '^<g data-s' "$work/svg_$s.out") frames drawn)"
	report_head
	report "svg_$s" "profflame --svg ${s^^}.sym.pb.gz"
	report "svg_${s}_j1" "profflame -j 1 --svg ${s^^}.sym.pb.gz"
	report "svg_${s}_folded" "profflame ${s^^}.sym.pb.gz (folded)"
	if [ -n "$FLAMEGRAPH" ]; then
		report "svg_${s}_fg" "flamegraph.pl < folded"
	fi
	echo "  CPU seconds (user + system, median): --svg $(cpu "svg_$s")," \
	    "-j 1 $(cpu "svg_${s}_j1"), folded $(cpu "svg_${s}_folded")${FLAMEGRAPH:+, flamegraph.pl $(cpu "svg_${s}_fg")}"
	if [ -n "$FLAMEGRAPH" ]; then
		read -r sp me <<<"$(ratio "svg_${s}_fg" "svg_$s")"
		echo "  flamegraph.pl/profflame --svg: ${sp}x time, ${me}x memory" \
		    "(flamegraph.pl from folded stacks, profflame from the pprof file)"
	else
		echo "  flamegraph.pl: not run (not installed; FLAMEGRAPH=/path/to/flamegraph.pl)"
	fi
done
echo
goal "A (profflame --svg of the small profile <= 0.5 s)" \
    "$(median 1 "$work/svg_small.times") <= 0.5"
if [ "$BIG_N" != 0 ]; then
	goal "B (profflame --svg of the big profile <= 15 s)" \
	    "$(median 1 "$work/svg_big.times") <= 15"
	rm -f "$work"/svg_big_folded.out "$work"/svg_big_fg.out	# large; checked above
fi
echo "timings per run (seconds, peak RSS KB): $work/svg_*.times"
bench_exit
