#!/bin/bash
# SPDX-License-Identifier: MIT
# merge.sh - time profconv merge against go tool pprof on merging 100 real
# heap profiles, and profdiff against go tool pprof -diff_base and
# jeprof --base on two real jemalloc dumps.
#
# usage: bench/merge.sh [BUILDDIR]
#
# The goals (issues):
#  A. `profconv merge -o OUT P1 .. P100` of 100 heap profiles of ~36k
#     stacks each is at least 10 times faster than
#     `go tool pprof -proto -symbolize=none -output OUT P1 .. P100`.
#  B. `profdiff BASE CUR` of two ~12 MB jemalloc profiles takes at most 1 s.
#  C. (issue 14, row 3) `profconv merge -o OUT G1 .. G20` of 20 profiles
#     of ~36k stacks each in gperftools heap-profiler text is at least 15
#     times faster than `go tool pprof -proto -symbolize=none -output OUT
#     G1 .. G20`, in the same run (with the default -j: one thread per CPU).
#
# What it does:
#  1. Makes (once; cached in bench/out/merge/in/) NPROF profiles: NPROF
#     runs of bench/gen-je-heap.sh's program under jemalloc with
#     lg_prof_sample:0, run r walking PATHS call paths from r*STEP, so
#     neighbouring runs share most of their stacks (100 x 36,000 paths
#     from 0, 3,600, 7,200, ...: 392,400 distinct in all), each a separate
#     process with its own address layout.  go tool pprof cannot read
#     jemalloc's format, so each is converted to pprof with
#     `profconv text2pb` (untimed) and both tools merge the same files.
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds
#     and peak RSS; the table shows medians and the ratios go/profconv):
#       profconv merge -o OUT P1 .. PN
#       go tool pprof -proto -symbolize=none -output OUT P1 .. PN
#     then checks that `go tool pprof -raw -symbolize=none` prints the
#     same samples for both outputs (sorted: the two order them
#     differently), and that the sample count and totals agree.
#  3. Takes the two dumps of one process that legacy.sh uses (SMALL_N
#     call paths: a dump after a first pass and the final one after a
#     second pass that frees a third and allocates again; ~12 MB each),
#     and times, RUNS times each:
#       profdiff BASE CUR                     (symbolizes on the fly)
#       profdiff --no-symbolize BASE CUR
#       jeprof --text --show_bytes --base=BASE PROG CUR
#       go tool pprof -top -unit=B -nodefraction=0 -symbolize=none
#         -diff_base=BASE.pb.gz CUR.pb.gz
#         (on their symbolized pprof conversions, made untimed)
#     and checks that the in-use bytes delta is the same for all three
#     (jeprof's within 2 bytes: it adds up floating-point values).
#  4. Takes bench/trend.sh's first NGP snapshots (made the same way and in
#     the same place, bench/out/trend/in/, only when missing: snapshot r is
#     a process of its own walking 36,000 call paths from r*1,800), rewrites
#     them (once; cached in bench/out/merge/gp/) as gperftools
#     heap-profiler text as bench/legacy.sh does (lib.sh:
#     je_to_gperftools; MAPPED_LIBRARIES kept), and times, interleaved,
#     RUNS times each, with the load average before and after:
#       profconv merge -j 1 -o OUT G1 .. GN
#       profconv merge -o OUT G1 .. GN          (one thread per CPU)
#       go tool pprof -proto -symbolize=none -output OUT G1 .. GN
#     then checks that the two profconv outputs are the same bytes, and
#     that `go tool pprof -raw` prints the same samples for go's output
#     and profconv's, and the same totals.
#
# BUILDDIR (or $PROFCONV_BUILD) is an out-of-tree build of profconv;
# default ./build, or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   NPROF=100       profiles to merge
#   PATHS=36000     call paths (stacks) per profile
#   STEP=3600       first path of profile r is r*STEP
#   SMALL_N=32000   call paths of the profdiff pair
#   NGP=20          gperftools-text profiles to merge in C
#   PARTS=ABC       the parts to run: any of A, B and C (PARTS=C: C only)
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, Debian libjemalloc2 and libjemalloc-dev (jeprof), go
# (golang-go), GNU time (time), awk, sort, perl.  Takes about 7 minutes
# (3 more the first time, to make the profiles).

set -euo pipefail
prog=merge.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_go
bench_jeprof

NPROF=${NPROF:-100}
PATHS=${PATHS:-36000}
STEP=${STEP:-3600}
SMALL_N=${SMALL_N:-32000}
NGP=${NGP:-20}
PARTS=${PARTS:-ABC}
for v in "$NPROF" "$PATHS" "$STEP" "$SMALL_N" "$NGP"; do
	case $v in '' | *[!0-9]*) die "NPROF, PATHS, STEP, SMALL_N and NGP must be numbers" ;; esac
done
[ "$NPROF" -ge 2 ] || die "NPROF must be 2 or more"
[ "$NGP" -ge 2 ] || die "NGP must be 2 or more"
case $PARTS in '' | *[!ABC]*) die "PARTS must be letters among A, B and C" ;; esac

# part X: is part X to be run?
part() {
	case $PARTS in *"$1"*) return 0 ;; esac
	return 1
}


work=$out/merge
mkdir -p "$work/in" "$work/gp" || die "cannot create $work/in and $work/gp"

# raw_samples PB: the samples `go tool pprof -raw` prints, with addresses
# for location ids (the two tools number them differently), sorted.
raw_samples() {
	"$GOPPROF" -raw -symbolize=none "$1" 2>/dev/null | awk '
	    /^Samples:/ { s = 1; next }
	    /^Locations/ { s = 0; l = 1; next }
	    /^Mappings/ { l = 0; next }
	    s && /^ *-?[0-9]+( +-?[0-9]+)*: / {
		n++
		i = index($0, ":")
		val[n] = substr($0, 1, i)
		ids[n] = substr($0, i + 1)
		next
	    }
	    s && n && NF { lab[n] = lab[n] " " $1 }
	    l && /^ +[0-9]+: 0x/ { id = $1; sub(/:$/, "", id); addr[id] = $2 }
	    END {
		for (i = 1; i <= n; i++) {
			k = split(ids[i], ix, " ")
			out = val[i]
			for (j = 1; j <= k; j++)
				out = out " " (ix[j] in addr ? addr[ix[j]] : "?" ix[j])
			print out lab[i]
		}
	    }' | sort
}

# same_merge PART PC GO: profconv's merge PC and go's GO print the same
# samples with -raw and have the same sample count and totals; sets
# merged_samples.
same_merge() {
	raw_samples "$3" >"$scratch/go.raw"
	raw_samples "$2" >"$scratch/pc.raw"
	[ -s "$scratch/go.raw" ] || die "$1: go tool pprof -raw printed nothing"
	cmp -s "$scratch/go.raw" "$scratch/pc.raw" ||
		die "$1: OUTPUTS DIFFER: go tool pprof -raw of $3 and $2"
	summary "$2" "$scratch/pc.s"
	summary "$3" "$scratch/go.s"
	for f in samples alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes; do
		[ "$(field "$scratch/pc.s" $f)" = "$(field "$scratch/go.s" $f)" ] ||
			die "$1: OUTPUTS DIFFER: $f of $2 and $3"
	done
	merged_samples=$(field "$scratch/pc.s" samples)
}

# --- the profiles ----------------------------------------------------------------

# The program first (its rebuild makes every cached profile stale).
if part A || part B; then
	je_profile "$out/je/pair-$SMALL_N.f.heap" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
fi

inputs=()
if part A; then
	made=0
	r=0
	while [ "$r" -lt "$NPROF" ]; do
		pb=$work/in/p$(printf %03d "$r")-$PATHS-$((r * STEP)).pb.gz
		if [ ! -s "$pb" ] || [ "$JE_PROG" -nt "$pb" ] || ! je_generator_current; then
			[ "$made" = 1 ] || note "making $NPROF profiles of $PATHS call paths in $work/in (~2 s each)"
			made=1
			"$benchdir/gen-je-heap.sh" "$JE_PROG" "$scratch/p.heap" "$PATHS" $((r * STEP)) ||
				die "cannot make profile $r"
			"$PROFCONV" text2pb "$scratch/p.heap" -o "$pb" 2>/dev/null ||
				die "profconv text2pb cannot convert profile $r"
			rm -f "$scratch/p.heap"
		fi
		inputs+=("$pb")
		r=$((r + 1))
	done
	insize=$(cat "${inputs[@]}" | wc -c)
	summary "${inputs[0]}" "$scratch/p0.s"
	p0_samples=$(field "$scratch/p0.s" samples)
	[ "$p0_samples" -ge "$PATHS" ] || die "${inputs[0]} has $p0_samples samples, expected $PATHS or more"
fi

base=$out/je/pair-$SMALL_N.m.heap
cur=$out/je/pair-$SMALL_N.f.heap
if part B; then
	for f in "$base" "$cur"; do
		pb=$work/$(basename "$f" .heap).sym.pb.gz
		if [ ! -s "$pb" ] || [ "$f" -nt "$pb" ]; then
			"$PROFCONV" symbolize -o "$pb" "$f" 2>/dev/null || die "profconv symbolize $f failed"
		fi
	done
	base_pb=$work/$(basename "$base" .heap).sym.pb.gz
	cur_pb=$work/$(basename "$cur" .heap).sym.pb.gz
fi

# C: bench/trend.sh's snapshots (36,000 paths from r*1,800), made as
# trend.sh makes them when missing (only then: trend.sh owns them),
# rewritten as gperftools text.
gps=()
if part C; then
	r=0
	while [ "$r" -lt "$NGP" ]; do
		name=s$(printf %03d "$r")-36000-$((r * 1800))
		je=$out/trend/in/$name.heap
		if [ ! -s "$je" ]; then
			mkdir -p "$out/trend/in" || die "cannot create $out/trend/in"
			[ -n "$JE_PROG" ] || je_profile "$out/je/trend-probe.heap" 10 0
			note "making snapshot $r of $NGP as bench/trend.sh does ($je)"
			"$benchdir/gen-je-heap.sh" "$JE_PROG" "$je" 36000 $((r * 1800)) ||
				die "cannot make snapshot $r"
			rm -f "$out/trend/in/$name.pb.gz"	# trend.sh's, now stale
		fi
		[ -s "$work/gp/$name.gp" ] && [ "$work/gp/$name.gp" -nt "$je" ] ||
			note "rewriting $je as gperftools text"
		je_to_gperftools "$je" "$work/gp/$name.gp"
		gps+=("$work/gp/$name.gp")
		r=$((r + 1))
	done
	gpsize=$(cat "${gps[@]}" | wc -c)
	gp_stacks=$(grep -c ' @ 0x' "${gps[0]}")
fi

load_warning
echo "build:    $build"
if part A; then
	echo "merge A:  $NPROF pprof profiles ($work/in), $insize bytes in all,"
	echo "          $PATHS call paths each (${p0_samples} samples in the first),"
	echo "          profile r from path r*$STEP: $((PATHS + (NPROF - 1) * (STEP < PATHS ? STEP : PATHS))) distinct paths"
fi
if part B; then
	echo "diff B:   $base ($(wc -c <"$base") bytes, $(grep -c '^@' "$base") stacks)"
	echo "          $cur ($(wc -c <"$cur") bytes, $(grep -c '^@' "$cur") stacks)"
fi
if part C; then
	echo "merge C:  $NGP gperftools heap-profiler text profiles ($work/gp), $gpsize"
	echo "          bytes in all, $gp_stacks stacks in the first, profile r from path r*1800"
fi
echo "outputs:  $work"
echo "runs:     $RUNS per tool, interleaved; median shown"
echo "machine:  $cpus CPUs, load average $load at start"

rm -f "$work"/*.times

# --- A: merge ------------------------------------------------------------------------

if part A; then
	i=1
	while [ "$i" -le "$RUNS" ]; do
		note "A run $i/$RUNS: profconv merge"
		timed pc_merge "$PROFCONV" merge -o "$work/merged.pb.gz" "${inputs[@]}"
		note "A run $i/$RUNS: go tool pprof -proto"
		timed go_merge "$GOPPROF" -proto -symbolize=none -output "$work/merged.go.pb.gz" "${inputs[@]}"
		i=$((i + 1))
	done
	note "checking A (go tool pprof -raw of both outputs)"
	same_merge A "$work/merged.pb.gz" "$work/merged.go.pb.gz"
	a_samples=$merged_samples
fi

# --- B: diff -------------------------------------------------------------------------

if part B; then
	i=1
	while [ "$i" -le "$RUNS" ]; do
		note "B run $i/$RUNS: profdiff, profdiff --no-symbolize, jeprof --base, go -diff_base"
		timed --diff pd "$PROFDIFF" --bytes "$base" "$cur"
		timed --diff pdn "$PROFDIFF" --bytes --no-symbolize "$base" "$cur"
		timed jeprof "$JEPROF" --text --show_bytes --base="$base" "$JE_PROG" "$cur"
		timed go_diff "$GOPPROF" -top -unit=B -nodefraction=0 -symbolize=none \
		    -diff_base="$base_pb" "$cur_pb"
		i=$((i + 1))
	done

	note "checking B (the in-use bytes delta)"
	summary "$base" "$scratch/b.s"
	summary "$cur" "$scratch/c.s"
	delta=$(($(field "$scratch/c.s" inuse_space/bytes) - $(field "$scratch/b.s" inuse_space/bytes)))
	pd_delta=$(awk '$NF == "TOTAL" { print $(NF - 1) }' "$work/pd.out")
	je_delta=$(sed -n 's/^Total: \(-\{0,1\}[0-9]*\) B$/\1/p' "$work/jeprof.out")
	go_delta=$(sed -n 's/^Showing nodes accounting for \(-\{0,1\}[0-9]*\)B, .*/\1/p' "$work/go_diff.out" | head -n 1)
	[ "$pd_delta" = "$delta" ] || die "profdiff's TOTAL delta is '$pd_delta', expected $delta"
	# jeprof sums floating-point (unbiased) values: allow its rounding.
	awk -v a="$je_delta" -v b="$delta" 'BEGIN { d = a - b; exit !(a != "" && d * d <= 4) }' ||
		die "jeprof --base's Total is '$je_delta', expected $delta"
	[ "$go_delta" = "$delta" ] || die "go tool pprof -diff_base's total is '$go_delta', expected $delta"
fi

# --- C: merge gperftools text ----------------------------------------------------------

if part C; then
	c_load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
	i=1
	while [ "$i" -le "$RUNS" ]; do
		note "C run $i/$RUNS: profconv merge -j 1, profconv merge, go tool pprof -proto"
		timed pc_gp1 "$PROFCONV" merge -j 1 -o "$work/gp-merged-j1.pb.gz" "${gps[@]}"
		timed pc_gp "$PROFCONV" merge -o "$work/gp-merged.pb.gz" "${gps[@]}"
		timed go_gp "$GOPPROF" -proto -symbolize=none -output "$work/gp-merged.go.pb.gz" "${gps[@]}"
		i=$((i + 1))
	done
	c_load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
	note "checking C (-j 1 and -j $cpus the same bytes; go tool pprof -raw of both tools' outputs)"
	cmp -s "$work/gp-merged-j1.pb.gz" "$work/gp-merged.pb.gz" ||
		die "C: OUTPUTS DIFFER: profconv merge -j 1 and -j $cpus ($work/gp-merged-j1.pb.gz, $work/gp-merged.pb.gz)"
	same_merge C "$work/gp-merged.pb.gz" "$work/gp-merged.go.pb.gz"
	c_samples=$merged_samples
fi

# --- the tables ----------------------------------------------------------------------

if part A; then
	echo
	echo "A. merge $NPROF profiles -> one ($a_samples samples)"
	report_head
	report pc_merge "profconv merge"
	report go_merge "go tool pprof -proto -symbolize=none"
	read -r sp me <<<"$(ratio go_merge pc_merge)"
	echo "  go/profconv: ${sp}x time, ${me}x memory"
	goal "A (>= 10x faster than go tool pprof)" "$sp >= 10"
	echo "  checked: go tool pprof -raw samples identical (with addresses), totals equal"
fi

if part B; then
	echo
	echo "B. diff of two jemalloc dumps (in-use delta $delta bytes)"
	report_head
	report pd "profdiff"
	report pdn "profdiff --no-symbolize"
	report jeprof "jeprof --text --base"
	report go_diff "go tool pprof -top -diff_base (pprof)"
	goal "B (profdiff <= 1 s)" "$(median 1 "$work/pd.times") <= 1"
	read -r sp me <<<"$(ratio jeprof pd)"
	echo "  jeprof/profdiff: ${sp}x time, ${me}x memory"
	read -r sp me <<<"$(ratio go_diff pd)"
	echo "  go/profdiff:     ${sp}x time, ${me}x memory"
	echo "  checked: profdiff TOTAL, jeprof Total and go's total are the same delta"
fi

if part C; then
	echo
	echo "C. merge $NGP gperftools-text profiles -> one ($c_samples samples; issue 14 row 3)"
	echo "  load average: $c_load_before before, $c_load_after after ($cpus CPUs)"
	report_head
	report pc_gp1 "profconv merge -j 1"
	report pc_gp "profconv merge (-j $cpus)"
	report go_gp "go tool pprof -proto -symbolize=none"
	read -r sp1 me1 <<<"$(ratio go_gp pc_gp1)"
	read -r sp me <<<"$(ratio go_gp pc_gp)"
	echo "  go/profconv -j 1:  ${sp1}x time, ${me1}x memory"
	echo "  go/profconv -j $cpus:  ${sp}x time, ${me}x memory"
	# CPU seconds do not depend on the load as wall seconds do.
	for t in pc_gp1 pc_gp go_gp; do
		awk '{ print $3 + $4 }' "$work/$t.times" >"$scratch/$t.cpu"
	done
	echo "  CPU seconds (user + system, median): profconv -j 1 $(median 1 "$scratch/pc_gp1.cpu")," \
	    "-j $cpus $(median 1 "$scratch/pc_gp.cpu"), go $(median 1 "$scratch/go_gp.cpu")"
	goal "C (>= 15x faster than go tool pprof, -j $cpus)" "$sp >= 15"
	echo "  checked: -j 1 and -j $cpus outputs the same bytes; go tool pprof -raw"
	echo "  samples identical (with addresses), totals equal"
fi
echo "timings per run (seconds, peak RSS KB, user and system seconds): $work/*.times"
bench_exit
