#!/bin/bash
# SPDX-License-Identifier: MIT
# scale.sh - every view of the 1.27 GB jemalloc profile beside profflame,
# in one run: time and peak memory as ratios to profflame's (issue 43).
#
# usage: bench/scale.sh [BUILDDIR]
#
# The goals (issue 43), on the big profile's pprof as `profconv text2pb`
# writes it (no symbols: every command symbolizes), in one run of this
# script: show --summary, profgraph --dot and profconv list within 1.2x
# profflame's time and memory; profdiff P P and profconv report within
# 1.5x its time and 1.2x its memory; no output changes.
#
# What it does:
#  1. Takes (making them once, cached as flame.sh and report.sh do)
#     bench/gen-je-heap.sh's profiles of 36,000 call paths (SMALL, the .m
#     file, ~13.5 MB) and BIG_N call paths (BIG, ~1.27 GB; about a minute
#     and 2.6 GB of memory to make), and converts each with `profconv
#     text2pb` (untimed; BIG's .pb.gz is the one flame.sh makes).
#  2. Times, interleaved, RUNS times each, with /usr/bin/time (wall
#     seconds and peak RSS; the best of the runs is shown):
#       profflame P                  (the reference)
#       profgraph --dot P
#       profconv list 'LIST_RE' P
#       profconv show --summary P
#       profdiff P P
#       profconv report --quiet P -o PAGE.html
#       profconv report --quiet -b P P -o CHANGE.html (no goal: the
#                                    change's page, its Explore tab too)
#     on BIG (and on SMALL, untimed in the table, for the outputs), and
#     prints each as a ratio to profflame's time and peak memory, with the
#     load average at the start and at the end.
#  3. Keeps every output (stdout, or the page) in $BENCH_OUT/scale/last/,
#     with a list of their sizes and SHA-256 sums, so that a later run can
#     say whether anything changed:
#       SAVE=NAME   copy this run's outputs to $BENCH_OUT/scale/NAME/
#       CHECK=NAME  compare this run's outputs byte for byte with those
#                   saved as NAME; any difference is an error (exit 1)
#     (e.g. SAVE=before on main, then CHECK=before on a branch).
#
# BUILDDIR (or $PROFCONV_BUILD) is a built tree; default ./build, or the
# current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=1          timed runs per command (the best is shown)
#   BIG_N=3400000   call paths of the big profile
#   ONLY=big|small  one profile only (default both; the table is BIG's)
#   LIST_RE=RE      the functions `profconv list` shows ('^f000[0-7]$')
#   SAVE, CHECK     see 3.
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error or
# an output that differs from CHECK's, 2 usage, 3 goal missed with
# BENCH_STRICT=1.
# Needs: bash, gcc, Debian libjemalloc2, GNU time, awk, sha256sum, cmp.
# Takes about 2 minutes per run of the big profile (and 3 more the first
# time); the report alone peaks at about 3.4 GB before issue 43's fixes.

set -euo pipefail
prog=scale.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
RUNS=${RUNS:-1}
bench_init "${1:-}"

BIG_N=${BIG_N:-3400000}
LIST_RE=${LIST_RE:-'^f000[0-7]$'}
ONLY=${ONLY:-}
case $BIG_N in '' | *[!0-9]* | 0) die "BIG_N must be a positive number" ;; esac
case $ONLY in '' | big | small) ;; *) die "ONLY is big or small" ;; esac
for v in "${SAVE:-x}" "${CHECK:-x}"; do
	case $v in *[!A-Za-z0-9._-]* | .*) die "SAVE and CHECK are plain names" ;; esac
done

work=$out/scale
mkdir -p "$work/last" "$out/flame" || die "cannot create $work"

# --- the profiles ---------------------------------------------------------------

small_heap=$out/je/pair-36000.m.heap
big_heap=$out/je/big-$BIG_N.heap
profiles=
if [ "$ONLY" != big ]; then
	je_profile "$out/je/pair-36000.f.heap" 36000 0 "$small_heap"
	profiles="small"
fi
if [ "$ONLY" != small ]; then
	je_profile "$big_heap" "$BIG_N" 0
	profiles="$profiles big"
fi
# pbof NAME: the text2pb conversion of profile NAME, made when missing.
pbof() {
	local heap pb
	if [ "$1" = big ]; then
		heap=$big_heap
		pb=$out/flame/$(basename "$big_heap" .heap).pb.gz	# flame.sh's
	else
		heap=$small_heap
		pb=$work/$(basename "$small_heap" .heap).pb.gz
	fi
	if [ ! -s "$pb" ] || [ "$heap" -nt "$pb" ]; then
		note "converting $heap"
		"$PROFCONV" text2pb -o "$pb.tmp" "$heap" 2>"$scratch/text2pb.err" ||
			{ cat "$scratch/text2pb.err" >&2; die "profconv text2pb $heap failed"; }
		mv "$pb.tmp" "$pb"
	fi
	echo "$pb"
}

load_warning
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
cat <<EOF
build:    $build
runs:     $RUNS per command, interleaved; the best shown
machine:  $cpus CPUs, load average $load_start at start
EOF

# --- the runs -------------------------------------------------------------------

# Commands, by name: profflame first (the reference).
names="flame graph list summary diff report change"
# run NAME P: one timed run of command NAME on P; its output in
# $work/last/TAG.NAME.out (the page for report).
run() {
	local page=$work/last/$tag.report.html
	local change=$work/last/$tag.change.html
	case $1 in
	flame) timed "$tag.flame" "$PROFFLAME" "$2" ;;
	graph) timed "$tag.graph" "$PROFGRAPH" --dot "$2" ;;
	list) timed "$tag.list" "$PROFCONV" list "$LIST_RE" "$2" ;;
	summary) timed "$tag.summary" "$PROFCONV" show --summary "$2" ;;
	diff) timed --diff "$tag.diff" "$PROFDIFF" "$2" "$2" ;;
	report) timed "$tag.report" "$PROFCONV" report --quiet "$2" -o "$page" ;;
	change) timed "$tag.change" "$PROFCONV" report --quiet -b "$2" "$2" \
	    -o "$change" ;;
	esac
}

rm -f "$work"/*.times "$work"/last/*
for p in $profiles; do
	pb=$(pbof "$p")
	echo "$p:      $pb ($(wc -c <"$pb") bytes)"
	tag=$p
	i=1
	while [ "$i" -le "$RUNS" ]; do
		note "run $i/$RUNS: $p: $names"
		for c in $names; do
			run "$c" "$pb"
		done
		i=$((i + 1))
	done
	for c in $names; do
		case $c in
		report | change) ;;
		*) mv "$work/$p.$c.out" "$work/last/$p.$c.out" ;;
		esac
	done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the outputs ----------------------------------------------------------------

(cd "$work/last" && for f in *; do
	[ "$f" != SUMS ] && printf '%s %s\n' "$(wc -c <"$f")" "$(sha256sum "$f")"
done) >"$scratch/SUMS"
mv "$scratch/SUMS" "$work/last/SUMS"
if [ -n "${SAVE:-}" ]; then
	rm -rf "$work/$SAVE"
	cp -r "$work/last" "$work/$SAVE"
	note "outputs saved as $work/$SAVE"
fi
if [ -n "${CHECK:-}" ]; then
	[ -s "$work/$CHECK/SUMS" ] || die "no outputs saved as '$CHECK' ($work/$CHECK)"
	bad=0
	for f in "$work/last"/*; do
		b=$(basename "$f")
		[ "$b" = SUMS ] && continue
		if [ ! -e "$work/$CHECK/$b" ]; then
			note "$b: not saved in $CHECK"
		elif ! cmp -s "$f" "$work/$CHECK/$b"; then
			note "OUTPUT DIFFERS: $b (against $work/$CHECK/$b)"
			bad=1
		fi
	done
	[ "$bad" = 0 ] || die "outputs differ from those saved as '$CHECK'"
	echo "outputs: byte-identical to those saved as '$CHECK'"
fi

# --- the table ------------------------------------------------------------------

# best COLUMN NAME: the least of one column of NAME's runs.
best() {
	awk -v c="$1" '{ print $c }' "$work/$2.times" | sort -g | head -n 1
}
label() {
	case $1 in
	flame) echo "profflame (reference)" ;;
	graph) echo "profgraph --dot" ;;
	list) echo "profconv list" ;;
	summary) echo "profconv show --summary" ;;
	diff) echo "profdiff P P" ;;
	report) echo "profconv report" ;;
	change) echo "profconv report -b P P" ;;
	esac
}
# the goals of issue 43: time and memory, as ratios to profflame.
limit() {
	case $1 in
	graph | list | summary) echo "1.2 1.2" ;;
	diff | report) echo "1.5 1.2" ;;
	*) echo "" ;;
	esac
}
for p in $profiles; do
	fs=$(best 1 "$p.flame")
	fk=$(best 2 "$p.flame")
	echo
	echo "$p: $(basename "$(pbof "$p")"), best of $RUNS"
	printf '  %-26s %8s %9s %9s %9s\n' command "s" "peak MB" "x time" "x memory"
	for c in $names; do
		s=$(best 1 "$p.$c")
		k=$(best 2 "$p.$c")
		awk -v l="$(label "$c")" -v s="$s" -v k="$k" -v fs="$fs" -v fk="$fk" \
		    'BEGIN { printf "  %-26s %8.2f %9.1f %8.2fx %8.2fx\n", l, s, k / 1024, (fs > 0 ? s / fs : 0), (fk > 0 ? k / fk : 0) }'
		if [ "$p" = big ] && [ -n "$(limit "$c")" ]; then
			read -r lt lm <<<"$(limit "$c")"
			goal "issue 43: $(label "$c") within ${lt}x time, ${lm}x memory" \
			    "$s <= $lt * $fs && $k <= $lm * $fk"
		fi
	done
done
echo
echo "load average at the start: $load_start"
bench_exit
