#!/bin/bash
# SPDX-License-Identifier: MIT
# flame.sh - time profflame's folded stacks against jeprof --collapsed on
# real jemalloc profiles.
#
# usage: bench/flame.sh [BUILDDIR]
#
# The goals (issues):
#  A. `profflame` prints the folded stacks of a symbolized ~12 MB jemalloc
#     profile in at most 0.5 s (`jeprof --collapsed PROG FILE`: 7.9 s on
#     such a file elsewhere).
#  B. ... and of the ~1.3 GB one (~3.4M stacks) in at most 5 s (issue 14:
#     "folding is a hash of stacks: the parse should dominate"): from its
#     symbolized pprof, and straight from the legacy file, which profflame
#     symbolizes on the fly.
#  C. Issue 31 item 3: `profflame` of the ~1.3 GB one in at most 2 s, from
#     the text and from its pprof as `profconv text2pb` writes it (no
#     symbols: profflame symbolizes; gzip members that profflame inflates
#     on threads).
#
# What it does:
#  1. Takes (making them once, cached in bench/out/je/, as legacy.sh does)
#     the jemalloc profiles of bench/gen-je-heap.sh's program (2048
#     functions, built -O2 -g, under jemalloc with lg_prof_sample:0):
#     SMALL_N call paths (~12 MB) and BIG_N (~1.3 GB), and symbolizes each
#     with `profconv symbolize` (untimed; cached in bench/out/flame/), and
#     converts the big one with `profconv text2pb` (BIG.pb.gz, likewise).
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds and
#     peak RSS; the tables show medians and ratios):
#       small: profflame SMALL.sym.pb.gz, profflame SMALL.heap (symbolizes
#              on the fly), jeprof --collapsed PROG SMALL.heap
#       big:   profflame BIG.sym.pb.gz, profflame BIG.heap, profflame
#              BIG.pb.gz, the first with -j 1 (one thread), `gzip -dc
#              BIG.pb.gz` (zlib's inflate, one thread), and the parse
#              alone as the anchor
#              of the big rows: `profconv text2pb --level 0 -o /dev/null
#              BIG.heap` (reading the text, no symbols, no folding)
#     and reports CPU seconds (user + system) beside the wall times: on a
#     shared machine they say what the wall time cannot.
#  3. Checks: the folded counts add up to the profile's inuse_space; the
#     stacks through the program's run() are the same in profflame's and
#     jeprof's outputs (after dropping jeprof's <address> suffixes and
#     [inline] marks and libjemalloc's unsymbolized frames, which jeprof
#     cuts and profflame keeps); all big outputs are identical, whatever
#     the thread count.
#
# BUILDDIR (or $PROFCONV_BUILD) is an out-of-tree build of profconv;
# default ./build, or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   BIG_N=3400000   call paths of the big profile
#   SMALL_N=32000   call paths of the small profile
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, Debian libjemalloc2 and libjemalloc-dev (jeprof), GNU
# time (time), awk, sort.  Takes about 5 minutes (2 more the first time).
# The big rows use every CPU (profflame's default); the -j 1 row shows
# what the threads gain.

set -euo pipefail
prog=flame.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_jeprof

BIG_N=${BIG_N:-3400000}
SMALL_N=${SMALL_N:-32000}
for v in "$BIG_N" "$SMALL_N"; do
	case $v in '' | *[!0-9]* | 0) die "BIG_N and SMALL_N must be positive numbers" ;; esac
done

work=$out/flame
mkdir -p "$work" || die "cannot create $work"

# --- the profiles ----------------------------------------------------------------

big=$out/je/big-$BIG_N.heap
small=$out/je/pair-$SMALL_N.f.heap
je_profile "$big" "$BIG_N" 0
je_profile "$small" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
for f in "$small" "$big"; do
	pb=$work/$(basename "$f" .heap).sym.pb.gz
	if [ ! -s "$pb" ] || [ "$f" -nt "$pb" ]; then
		note "symbolizing $f"
		"$PROFCONV" symbolize -o "$pb" "$f" 2>"$work/symbolize.err" ||
			{ cat "$work/symbolize.err" >&2; die "profconv symbolize $f failed"; }
	fi
done
small_pb=$work/$(basename "$small" .heap).sym.pb.gz
big_pb=$work/$(basename "$big" .heap).sym.pb.gz
# text2pb's pprof of the big one: no symbols, profflame symbolizes.
big_t2p=$work/$(basename "$big" .heap).pb.gz
if [ ! -s "$big_t2p" ] || [ "$big" -nt "$big_t2p" ]; then
	note "converting $big"
	"$PROFCONV" text2pb -o "$big_t2p" "$big" 2>"$work/text2pb.err" ||
		{ cat "$work/text2pb.err" >&2; die "profconv text2pb $big failed"; }
fi
summary "$small_pb" "$scratch/small.s"
summary "$big_pb" "$scratch/big.s"

load_warning
cat <<EOF
build:    $build
program:  $JE_PROG (2048 functions, -O2 -g)
small:    $small
          $(wc -c <"$small") bytes, $(field "$scratch/small.s" samples) stacks
          $small_pb ($(wc -c <"$small_pb") bytes, symbolized)
big:      $big
          $(wc -c <"$big") bytes, $(field "$scratch/big.s" samples) stacks
          $big_pb ($(wc -c <"$big_pb") bytes, symbolized)
outputs:  $work
runs:     $RUNS per tool, interleaved; median shown
machine:  $cpus CPUs, load average $load at start
EOF

# per NAME ANCHOR: how many times ANCHOR's median wall time NAME's is.
per() {
	awk -v a="$(median 1 "$work/$1.times")" -v b="$(median 1 "$work/$2.times")" \
	    'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

rm -f "$work"/*.times

i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS: small: profflame (pprof, legacy), jeprof --collapsed"
	timed fl_small_pb "$PROFFLAME" "$small_pb"
	timed fl_small_je "$PROFFLAME" "$small"
	timed jeprof "$JEPROF" --collapsed "$JE_PROG" "$small"
	note "run $i/$RUNS: big: profflame (pprof, legacy, one thread), the parse alone"
	timed fl_big_pb "$PROFFLAME" "$big_pb"
	timed fl_big_je "$PROFFLAME" "$big"
	timed fl_big_pb1 "$PROFFLAME" -j 1 "$big_pb"
	timed fl_big_t2p "$PROFFLAME" "$big_t2p"
	timed gunzip_big sh -c 'gzip -dc "$1" >/dev/null' sh "$big_t2p"
	timed parse_big "$PROFCONV" text2pb --level 0 -o /dev/null "$big"
	i=$((i + 1))
done

# --- checks ----------------------------------------------------------------------------

note "checking the outputs"
sum() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }
for pair in "fl_small_pb:small" "fl_small_je:small" "jeprof:small" "fl_big_pb:big" "fl_big_je:big" "fl_big_pb1:big" "fl_big_t2p:big"; do
	name=${pair%%:*}
	want=$(field "$scratch/${pair#*:}.s" inuse_space/bytes)
	[ "$(sum "$work/$name.out")" = "$want" ] ||
		die "$name: the folded counts add up to $(sum "$work/$name.out"), not $want"
done
cmp -s "$work/fl_small_pb.out" "$work/fl_small_je.out" ||
	die "OUTPUTS DIFFER: profflame of $small_pb and of $small"
cmp -s "$work/fl_big_pb.out" "$work/fl_big_je.out" ||
	die "OUTPUTS DIFFER: profflame of $big_pb and of $big"
cmp -s "$work/fl_big_pb.out" "$work/fl_big_pb1.out" ||
	die "OUTPUTS DIFFER: profflame of $big_pb with one thread and with all"
cmp -s "$work/fl_big_je.out" "$work/fl_big_t2p.out" ||
	die "OUTPUTS DIFFER: profflame of $big and of $big_t2p"
# The program's stacks (through run()), normalized and summed per stack.
norm() {
	grep ';run' "$1" | sed -E 's/<[0-9a-f]+>//g; s/\[inline\]//g;
	    s/(;libjemalloc\.so[.0-9]*\+0x[0-9a-f]+)+ / /' |
	    awk '{ c = $NF; $NF = ""; sub(/ $/, ""); a[$0] += c }
	         END { for (k in a) if (a[k]) print k, a[k] }' | sort
}
norm "$work/fl_small_pb.out" >"$scratch/pf.n"
norm "$work/jeprof.out" >"$scratch/je.n"
[ -s "$scratch/pf.n" ] && cmp -s "$scratch/pf.n" "$scratch/je.n" ||
	die "OUTPUTS DIFFER: the program's stacks in profflame's and jeprof's folded output" \
	    "($work/fl_small_pb.out, $work/jeprof.out)"
same=$(wc -l <"$scratch/pf.n")
big_lines=$(wc -l <"$work/fl_big_pb.out")
rm -f "$work"/fl_big_*.out	# ~365 MB each; the checks passed

# --- the tables ----------------------------------------------------------------------

echo
echo "A. folded stacks of the small profile ($(wc -l <"$work/fl_small_pb.out") lines)"
report_head
report fl_small_pb "profflame SMALL.sym.pb.gz"
report fl_small_je "profflame SMALL.heap (symbolizes)"
report jeprof "jeprof --collapsed PROG SMALL.heap"
echo "  CPU seconds (user + system, median): profflame $(cpu fl_small_pb) (pprof)," \
    "$(cpu fl_small_je) (legacy); jeprof $(cpu jeprof)"
goal "A (profflame on the symbolized profile <= 0.5 s)" "$(median 1 "$work/fl_small_pb.times") <= 0.5"
read -r sp me <<<"$(ratio jeprof fl_small_pb)"
echo "  jeprof/profflame (pprof):  ${sp}x time, ${me}x memory"
read -r sp me <<<"$(ratio jeprof fl_small_je)"
echo "  jeprof/profflame (legacy): ${sp}x time, ${me}x memory"
echo "  checked: counts add up to inuse_space; the program's $same folded stacks equal jeprof's"

echo
echo "B. folded stacks of the big profile ($big_lines lines)"
report_head
report fl_big_pb "profflame BIG.sym.pb.gz"
report fl_big_je "profflame BIG.heap (symbolizes)"
report fl_big_pb1 "profflame -j 1 BIG.sym.pb.gz"
report fl_big_t2p "profflame BIG.pb.gz (text2pb's; symbolizes)"
report gunzip_big "gzip -dc BIG.pb.gz (zlib, one thread)"
report parse_big "profconv text2pb --level 0 BIG.heap (parse)"
echo "  CPU seconds (user + system, median): profflame $(cpu fl_big_pb) (pprof)," \
    "$(cpu fl_big_je) (legacy), $(cpu fl_big_pb1) (pprof, -j 1); parse $(cpu parse_big)"
echo "  against the parse alone: profflame BIG.sym.pb.gz $(per fl_big_pb parse_big)x," \
    "BIG.heap $(per fl_big_je parse_big)x its time; one thread/all: $(per fl_big_pb1 fl_big_pb)x"
goal "B (profflame on the big profile <= 5 s, both ways)" \
    "$(median 1 "$work/fl_big_pb.times") <= 5 && $(median 1 "$work/fl_big_je.times") <= 5"
echo "  CPU seconds: profflame BIG.pb.gz $(cpu fl_big_t2p); gzip -dc $(cpu gunzip_big)"
goal "C (issue 31: profflame on the big profile <= 2 s, from the text and from text2pb's pprof)" \
    "$(median 1 "$work/fl_big_je.times") <= 2 && $(median 1 "$work/fl_big_t2p.times") <= 2"
echo "  checked: counts add up to inuse_space; all outputs identical"
echo "timings per run (seconds, peak RSS KB): $work/*.times"
bench_exit
