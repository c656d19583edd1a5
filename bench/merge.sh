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
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, Debian libjemalloc2 and libjemalloc-dev (jeprof), go
# (golang-go), GNU time (time), awk, sort.  Takes about 5 minutes (2 more
# the first time, to make the 100 profiles).

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
for v in "$NPROF" "$PATHS" "$STEP" "$SMALL_N"; do
	case $v in '' | *[!0-9]*) die "NPROF, PATHS, STEP and SMALL_N must be numbers" ;; esac
done
[ "$NPROF" -ge 2 ] || die "NPROF must be 2 or more"

work=$out/merge
mkdir -p "$work/in" || die "cannot create $work/in"

# --- the profiles ----------------------------------------------------------------

# The program first (its rebuild makes every cached profile stale).
je_profile "$out/je/pair-$SMALL_N.f.heap" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
inputs=()
made=0
r=0
while [ "$r" -lt "$NPROF" ]; do
	pb=$work/in/p$(printf %03d "$r")-$PATHS-$((r * STEP)).pb.gz
	if [ ! -s "$pb" ] || [ "$JE_PROG" -nt "$pb" ] || [ "$benchdir/gen-je-heap.sh" -nt "$pb" ]; then
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

base=$out/je/pair-$SMALL_N.m.heap
cur=$out/je/pair-$SMALL_N.f.heap
for f in "$base" "$cur"; do
	pb=$work/$(basename "$f" .heap).sym.pb.gz
	if [ ! -s "$pb" ] || [ "$f" -nt "$pb" ]; then
		"$PROFCONV" symbolize -o "$pb" "$f" 2>/dev/null || die "profconv symbolize $f failed"
	fi
done
base_pb=$work/$(basename "$base" .heap).sym.pb.gz
cur_pb=$work/$(basename "$cur" .heap).sym.pb.gz

load_warning
cat <<EOF
build:    $build
merge:    $NPROF pprof profiles ($work/in), $insize bytes in all,
          $PATHS call paths each (${p0_samples} samples in the first),
          profile r from path r*$STEP: $((PATHS + (NPROF - 1) * (STEP < PATHS ? STEP : PATHS))) distinct paths
diff:     $base ($(wc -c <"$base") bytes, $(grep -c '^@' "$base") stacks)
          $cur ($(wc -c <"$cur") bytes, $(grep -c '^@' "$cur") stacks)
outputs:  $work
runs:     $RUNS per tool, interleaved; median shown
machine:  $cpus CPUs, load average $load at start
EOF

rm -f "$work"/*.times

# --- A: merge ------------------------------------------------------------------------

i=1
while [ "$i" -le "$RUNS" ]; do
	note "A run $i/$RUNS: profconv merge"
	timed pc_merge "$PROFCONV" merge -o "$work/merged.pb.gz" "${inputs[@]}"
	note "A run $i/$RUNS: go tool pprof -proto"
	timed go_merge "$GOPPROF" -proto -symbolize=none -output "$work/merged.go.pb.gz" "${inputs[@]}"
	i=$((i + 1))
done

note "checking A (go tool pprof -raw of both outputs)"
# -raw prints the samples, then the locations and mappings by id; the two
# number them differently, so compare the samples with their addresses.
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
raw_samples "$work/merged.go.pb.gz" >"$scratch/go.raw"
raw_samples "$work/merged.pb.gz" >"$scratch/pc.raw"
[ -s "$scratch/go.raw" ] || die "go tool pprof -raw printed nothing"
cmp -s "$scratch/go.raw" "$scratch/pc.raw" ||
	die "OUTPUTS DIFFER: go tool pprof -raw of $work/merged.go.pb.gz and $work/merged.pb.gz"
summary "$work/merged.pb.gz" "$scratch/pc.s"
summary "$work/merged.go.pb.gz" "$scratch/go.s"
for f in samples alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes; do
	[ "$(field "$scratch/pc.s" $f)" = "$(field "$scratch/go.s" $f)" ] ||
		die "OUTPUTS DIFFER: $f of $work/merged.pb.gz and $work/merged.go.pb.gz"
done
merged_samples=$(field "$scratch/pc.s" samples)

# --- B: diff -------------------------------------------------------------------------

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

# --- the tables ----------------------------------------------------------------------

echo
echo "A. merge $NPROF profiles -> one ($merged_samples samples)"
report_head
report pc_merge "profconv merge"
report go_merge "go tool pprof -proto -symbolize=none"
read -r sp me <<<"$(ratio go_merge pc_merge)"
echo "  go/profconv: ${sp}x time, ${me}x memory"
goal "A (>= 10x faster than go tool pprof)" "$sp >= 10"
echo "  checked: go tool pprof -raw samples identical (with addresses), totals equal"

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
echo "timings per run (seconds, peak RSS KB): $work/*.times"
bench_exit
