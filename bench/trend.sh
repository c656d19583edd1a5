#!/bin/bash
# SPDX-License-Identifier: MIT
# trend.sh - time proftrend over a series of 20 real jemalloc heap
# profiles of ~36k stacks each, and over 1,000 small dumps of one process,
# each against the time to merely read the same files.
#
# usage: bench/trend.sh [BUILDDIR]
#
# The goals: `proftrend` over 20 snapshots of ~36k stacks each takes at
# most 2 s (issue 11); 1,000 snapshots stream through in memory bounded
# by the rows, not by snapshots times stacks (issue 23): the peak RSS over
# 1,000 dumps is about that over 100; proftrend over the 20 snapshots,
# and `profconv report` of that series, within 2x the time of reading the
# 20 snapshots once (issue 43; both --no-symbolize, as the read is).
#
# What it does:
#  1. Makes (when missing; kept in bench/out/trend/in/) NSNAP profiles: runs of
#     bench/gen-je-heap.sh's program under jemalloc with lg_prof_sample:0,
#     run r walking PATHS call paths from r*STEP, so the series shares most
#     stacks and every stack appears, grows for a while and goes away; each
#     kept as jemalloc wrote it (heap_v2 text, ~13 MB) and converted to
#     symbolized pprof with `profconv symbolize` (untimed).
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds and
#     peak RSS; the table shows medians):
#       proftrend S1 .. SN                  jemalloc text, symbolized on the fly
#       proftrend --no-symbolize S1 .. SN   jemalloc text
#       proftrend P1 .. PN                  the symbolized pprof conversions
#       proftrend --json -o OUT P1 .. PN
#       profconv report --no-symbolize S1 .. SN   the series' page
#     and checks that the first and the pprof runs print the same table,
#     and that the JSON names as many suspects as the table.  The anchors:
#       cat S1 .. SN >/dev/null; grep -c '^@' S1 .. SN   (read, and scan)
#       bench/readtime.c -j 0 S1 .. SN: the library reading each snapshot
#       into the model once, one after the other, in one process
#  3. Makes (when missing; bench/out/trend/small/) SMALL dumps of one
#     process: tests/producers/leakshapes.c under jemalloc, a mallctl
#     "prof.dump" a phase (jemalloc's own names, je.PID.SEQ.mSEQ.heap,
#     every allocation recorded), and times, interleaved, RUNS times:
#       proftrend D1 .. DSMALL, --no-symbolize too, and over the first 100
#       cat and grep -c '^@' over the same files (the anchor)
#     and checks that the six shapes get their verdicts.
#  With BASELINE=BUILDDIR, that build's proftrend is timed on both
#  series as well (before and after).
#
# BUILDDIR (or $PROFCONV_BUILD) is a build of profconv; default ./build,
# or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3          timed runs per variant (the median is reported)
#   NSNAP=20        snapshots
#   PATHS=36000     call paths (stacks) per snapshot
#   STEP=1800       first path of snapshot r is r*STEP
#   SMALL=1000      dumps in the small series (12..1000)
#   BASELINE=DIR    another build to time on the same series
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if the goal is not met
#
# Exit status: 0 done (goal met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc (also for bench/readtime.c), Debian libjemalloc2, GNU
# time (time), awk.  Takes
# about a minute (one more the first time, to make the profiles).

set -euo pipefail
prog=trend.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"

PROFTREND=$build/cmd/proftrend
[ -x "$build/cmd/.libs/proftrend" ] && PROFTREND=$build/cmd/.libs/proftrend
"$PROFTREND" --help >/dev/null 2>&1 || die "$PROFTREND does not run"

NSNAP=${NSNAP:-20}
PATHS=${PATHS:-36000}
STEP=${STEP:-1800}
for v in "$NSNAP" "$PATHS" "$STEP"; do
	case $v in '' | *[!0-9]*) die "NSNAP, PATHS and STEP must be numbers" ;; esac
done
[ "$NSNAP" -ge 2 ] || die "NSNAP must be 2 or more"
SMALL=${SMALL:-1000}
case $SMALL in '' | *[!0-9]*) die "SMALL must be a number" ;; esac
[ "$SMALL" -ge 100 ] && [ "$SMALL" -le 1000 ] || die "SMALL must be 100..1000"
OLD=
if [ -n "${BASELINE:-}" ]; then
	OLD=$BASELINE/cmd/proftrend
	[ -x "$BASELINE/cmd/.libs/proftrend" ] && OLD=$BASELINE/cmd/.libs/proftrend
	# Its own library, not this build's.
	OLD="env LD_LIBRARY_PATH=$BASELINE/lib/.libs $OLD"
	$OLD --help >/dev/null 2>&1 || die "$OLD does not run"
fi

work=$out/trend
mkdir -p "$work/in" || die "cannot create $work/in"

# --- the snapshots -------------------------------------------------------------

# Shared data (BENCH_OUT) is used as it is: the program and snapshots are
# made only when missing, whatever the dates of this tree's generator
# (a fresh checkout's generator is newer than any data made before).
JE_PROG=$out/je/jeheap
[ -x "$JE_PROG" ] || je_profile "$out/je/trend-probe.heap" 10 0	# builds it
heaps=()
pbs=()
r=0
while [ "$r" -lt "$NSNAP" ]; do
	base=$work/in/s$(printf %03d "$r")-$PATHS-$((r * STEP))
	if [ ! -s "$base.heap" ]; then
		note "making snapshot $r of $NSNAP ($PATHS call paths from $((r * STEP)))"
		"$benchdir/gen-je-heap.sh" "$JE_PROG" "$base.heap" "$PATHS" $((r * STEP)) ||
			die "cannot make snapshot $r"
		rm -f "$base.pb.gz"
	fi
	if [ ! -s "$base.pb.gz" ]; then
		"$PROFCONV" symbolize "$base.heap" -o "$base.pb.gz" 2>/dev/null ||
			die "profconv symbolize cannot convert snapshot $r"
	fi
	heaps+=("$base.heap")
	pbs+=("$base.pb.gz")
	r=$((r + 1))
done
stacks=$(grep -c '^@' "${heaps[0]}")
insize=$(cat "${heaps[@]}" | wc -c)
pbsize=$(cat "${pbs[@]}" | wc -c)

load_warning
cat <<EOF
build:     $build
snapshots: $NSNAP jemalloc profiles ($work/in), $stacks stacks in the first,
           $insize bytes of text in all; their pprof conversions $pbsize bytes
outputs:   $work
runs:      $RUNS per variant, interleaved; median shown
machine:   $cpus CPUs, load average $load at start ($(uptime))
EOF

# Reading the snapshots once, the library alone (issue 43's anchor).
readtime=$scratch/readtime
"${CC:-cc}" -O2 -I"$benchdir/../lib" -o "$readtime" "$benchdir/readtime.c" \
    -L"$build/lib/.libs" -lprofconv || die "cannot build bench/readtime.c"

rm -f "$work"/*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS"
	timed read_once "$readtime" -j 0 "${heaps[@]}"
	timed report "$PROFCONV" report --quiet --no-symbolize "${heaps[@]}" \
	    -o "$work/series.html"
	timed --diff text "$PROFTREND" "${heaps[@]}"
	timed --diff text_nosym "$PROFTREND" --no-symbolize "${heaps[@]}"
	timed --diff pb "$PROFTREND" "${pbs[@]}"
	timed --diff json "$PROFTREND" --json -o "$work/suspects.pb.gz" "${pbs[@]}"
	[ -z "$OLD" ] || timed --diff old_text $OLD "${heaps[@]}"
	timed cat_big cat "${heaps[@]}"
	timed grep_big grep -c '^@' "${heaps[@]}"
	i=$((i + 1))
done

note "checking the outputs"
# The snapshot lines name different files; the rows must be the same.
rows() { sed -n '/^ *First /,$p' "$1" | sed -E 's/ [^ ]+\.(heap|pb\.gz)$//'; }
[ -s "$work/text.out" ] && [ -s "$work/pb.out" ] || die "proftrend printed nothing"
cmp -s <(rows "$work/text.out") <(rows "$work/pb.out") ||
	die "OUTPUTS DIFFER: the table of the text and of the pprof snapshots"
nsus=$(sed -n 's/^\([0-9]*\) suspects\{0,1\} in .*/\1/p' "$work/pb.out")
jsus=$({ grep -o '"suspect":true' "$work/json.out" || true; } | wc -l)
[ "$nsus" = "$jsus" ] || die "the table has $nsus suspects, the JSON $jsus"
nrows=$(sed -n 's/.* in \([0-9]*\) rows that changed.*/\1/p' "$work/pb.out")

echo
echo "proftrend over $NSNAP snapshots of ~$PATHS stacks: $nrows rows changed, $nsus suspects"
report_head
report text "proftrend (jemalloc text, symbolizing)"
report text_nosym "proftrend --no-symbolize (jemalloc text)"
report pb "proftrend (symbolized pprof)"
report json "proftrend --json -o (symbolized pprof)"
goal "(proftrend <= 2 s on the jemalloc text)" "$(median 1 "$work/text.times") <= 2"
# CPU seconds (user + system) tell the work apart from the machine's
# load; proftrend loads snapshots on several threads.
echo "  CPU seconds (user+sys, median): text $(cpu text)," \
    "text --no-symbolize $(cpu text_nosym), pprof $(cpu pb)"
[ -z "$OLD" ] || report old_text "BASELINE proftrend (jemalloc text)"
report report "profconv report --no-symbolize of the series"
report cat_big "anchor: cat of the same files"
report grep_big "anchor: grep -c '^@' of the same files"
report read_once "anchor: readtime, each file once, in turn"
goal "issue 43: proftrend --no-symbolize within 2x the read" \
    "$(ratio text_nosym read_once | cut -d' ' -f1) <= 2"
goal "issue 43: profconv report within 2x the read" \
    "$(ratio report read_once | cut -d' ' -f1) <= 2"
echo "  ratio to the read (median seconds): proftrend --no-symbolize" \
    "$(ratio text_nosym read_once | cut -d' ' -f1)x, report $(ratio report read_once | cut -d' ' -f1)x," \
    "proftrend symbolizing $(ratio text read_once | cut -d' ' -f1)x"
echo "  CPU seconds (user+sys, median): read $(cpu read_once)," \
    "proftrend --no-symbolize $(cpu text_nosym), report $(cpu report)"
echo "  ratio to the anchor (median seconds): text / grep $(ratio text grep_big | cut -d" " -f1)x," \
    "--no-symbolize / grep $(ratio text_nosym grep_big | cut -d" " -f1)x, text / cat $(ratio text cat_big | cut -d" " -f1)x"
echo "  checked: same rows from text and pprof; JSON and table agree on suspects"

# --- 1,000 small dumps of one process ----------------------------------------------

small=$work/small
mkdir -p "$small" || die "cannot create $small"
if [ "$(ls "$small" | grep -c '\.m[0-9]*\.heap$' || true)" != "$SMALL" ]; then
	note "making $SMALL dumps of one process (leakshapes under jemalloc)"
	rm -f "$small"/*
	je=$(ldconfig -p | sed -n 's/.*libjemalloc.so.2 .*=> //p' | head -n 1)
	[ -n "$je" ] || die "libjemalloc.so.2 not found"
	gcc -O1 -g -fno-omit-frame-pointer -o "$small/leakshapes" \
	    "$benchdir/../tests/producers/leakshapes.c" || die "cannot build leakshapes"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$small/je \
	    "$small/leakshapes" "$SMALL" || die "leakshapes failed"
fi
mapfile -t dumps < <(ls "$small"/je.*.heap | sort -V)
[ "${#dumps[@]}" = "$SMALL" ] || die "expected $SMALL dumps in $small, found ${#dumps[@]}"
few=("${dumps[@]:0:100}")
smallsize=$(cat "${dumps[@]}" | wc -c)
echo
echo "small:     $SMALL jemalloc dumps of one process ($small), $smallsize bytes," \
    "$(grep -c '^@' "${dumps[0]}")..$(grep -c '^@' "${dumps[$((SMALL - 1))]}") stacks each"
load_warning
echo "           load average $load at start"
i=1
while [ "$i" -le "$RUNS" ]; do
	note "small run $i/$RUNS"
	timed --diff small "$PROFTREND" "${dumps[@]}"
	timed --diff small_nosym "$PROFTREND" --no-symbolize "${dumps[@]}"
	timed --diff small_100 "$PROFTREND" --no-symbolize "${few[@]}"
	[ -z "$OLD" ] || timed --diff old_small $OLD --no-symbolize "${dumps[@]}"
	timed cat_small cat "${dumps[@]}"
	timed grep_small grep -c '^@' "${dumps[@]}"
	i=$((i + 1))
done
note "checking the verdicts"
for pair in steady_leak:leak small_leak:leak fill_cache:saturating \
    sawtooth:periodic transient:transient; do
	v=$(awk -v n="${pair%%:*}" 'NF > 3 && $NF == n { print $(NF - 2) }' "$work/small.out")
	[ "$v" = "${pair#*:}" ] || die "small series: ${pair%%:*} is '$v', not '${pair#*:}'"
done
echo
echo "proftrend over $SMALL small dumps: $(sed -n 's/^\([0-9]* suspects\{0,1\} in .*\)/\1/p' "$work/small.out")"
report_head
report small "proftrend (symbolizing), $SMALL dumps"
report small_nosym "proftrend --no-symbolize, $SMALL dumps"
report small_100 "proftrend --no-symbolize, the first 100"
[ -z "$OLD" ] || report old_small "BASELINE proftrend --no-symbolize, $SMALL"
report cat_small "anchor: cat of the same files"
report grep_small "anchor: grep -c '^@' of the same files"
echo "  ratio to the anchor (median seconds): proftrend / grep $(ratio small grep_small | cut -d" " -f1)x," \
    "--no-symbolize / grep $(ratio small_nosym grep_small | cut -d" " -f1)x, / cat $(ratio small_nosym cat_small | cut -d" " -f1)x"
echo "  peak RSS, $SMALL dumps / 100 dumps: $(awk -v a="$(median 2 "$work/small_nosym.times")" \
    -v b="$(median 2 "$work/small_100.times")" 'BEGIN { printf "%.2f", a / b }')"
echo "  checked: the five shapes' verdicts (no final dump here)"
echo "timings per run (seconds, peak RSS KB): $work/*.times"
bench_exit
