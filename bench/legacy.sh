#!/bin/bash
# SPDX-License-Identifier: MIT
# legacy.sh - time profconv text2pb on real jemalloc output, and on the same
# stacks as gperftools heap-profiler text, against jeprof and go tool pprof.
#
# usage: bench/legacy.sh [BUILDDIR]
#
# The goals (issues):
#  Issue 14, row 1: the big conversion below in at most 4 s with at most
#     1 GB (1e9 bytes) of peak RSS, reported as ratios against `wc -l` and
#     `grep -c '^@'` of the same file from the page cache.
#  A. `profconv text2pb` converts a ~1.3 GB jemalloc heap_v2 profile with
#     ~3.4M distinct stacks in at most 10 s, with at most 1.5 GB of peak RSS
#     (1.5e9 bytes), on a 2-CPU machine.  jeprof needs 14+ minutes on such
#     a file, so it is timed only on a ~12 MB profile of the same program:
#     `jeprof --text --show_bytes PROG FILE` against `profconv text2pb`
#     (with and without --symbolize, which does what jeprof's symbol
#     look-up does).
#  Issue 31, item 3: the big conversion (-j CPUS) in at most 1.5 s with at
#     most 500 MB (5e8 bytes) of peak RSS.
#  B. The same stacks rewritten as gperftools heap-profiler text convert
#     at least 8 times faster with `profconv text2pb` than with
#     `go tool pprof -proto -symbolize=none`.
#
# What it does:
#  1. Makes (once; cached in bench/out/je/) the jemalloc profiles with
#     bench/gen-je-heap.sh: a generated C program (2048 noinline functions,
#     built -O2 -g) run under jemalloc with lg_prof_sample:0, so every
#     allocation is recorded: BIG_N call paths for the big profile, and
#     SMALL_N for the small one (the final dump of a two-pass run; merge.sh
#     and flame.sh use the same pair).  The stack counts are checked.
#  2. Rewrites them (once; cached in bench/out/legacy/) as gperftools heap
#     profiler text (/work/shared/docs/legacy-producers.md, section 1):
#     `heap profile: N: B [N: B] @ heapprofile`, one bucket line per stack,
#     `inuse_n: inuse_b [alloc_n: alloc_b] @ 0x...` with jemalloc's own
#     frames cut off (tcmalloc strips its own), then MAPPED_LIBRARIES.
#  3. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds and
#     peak RSS; the tables show medians and ratios other/profconv):
#       A  wc -l BIG and grep -c '^@' BIG from the page cache (issue 14's
#          anchors), profconv text2pb -j CPUS and -j 1 BIG -o OUT, and the
#          read side alone: bench/readtime.c (built here against the
#          build's library) reading BIG into the model with -j CPUS and
#          -j 1, writing nothing; each
#          profconv time also as a ratio to the anchors, with the load
#          average at the start and end of A
#          on the small file: jeprof --text --show_bytes, profconv
#          text2pb, profconv text2pb --symbolize
#       B  profconv text2pb GP -o OUT, go tool pprof -proto -symbolize=none
#          -output OUT GP (the pprof binary of `go env GOTOOLDIR`), on the
#          big rewrite (GO_RUNS times; or its first GO_STACKS stacks)
#  4. Checks: -j CPUS and -j 1 give identical outputs; grep's count is
#     the stack count; profconv's sample count and in-use total equal the file's
#     stack count and its t*: total; jeprof's "Total:" equals profconv's
#     inuse_space; `go tool pprof -raw -symbolize=none` of go's and
#     profconv's outputs is identical for the small rewrite, and for the
#     big one the sample count and the four totals (`profconv show -s`) are.
#
# BUILDDIR (or $PROFCONV_BUILD) is an out-of-tree build of profconv;
# default ./build, or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3           timed runs per tool (the median is reported)
#   GO_RUNS=RUNS     runs of go tool pprof on the big rewrite
#   BIG_N=3400000    call paths (distinct stacks) of the big profile
#   SMALL_N=32000    call paths of the small profile (~12 MB)
#   GO_STACKS=all    rewrite only the first N stacks for part B
#   BENCH_OUT=DIR    where generated data and outputs go (bench/out)
#   BENCH_STRICT=1   exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc (also for bench/readtime.c), Debian libjemalloc2 and libjemalloc-dev (jeprof), go
# (golang-go), GNU time (time), perl, awk.  Disk: ~4 GB in bench/out.
# Takes about 10 minutes (2 more the first time, to make the data).

set -euo pipefail
prog=legacy.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_go
bench_jeprof

BIG_N=${BIG_N:-3400000}
SMALL_N=${SMALL_N:-32000}
GO_STACKS=${GO_STACKS:-all}
GO_RUNS=${GO_RUNS:-$RUNS}
for v in "$BIG_N" "$SMALL_N" "$GO_RUNS"; do
	case $v in '' | *[!0-9]* | 0) die "BIG_N, SMALL_N and GO_RUNS must be positive numbers" ;; esac
done
case $GO_STACKS in all) ;; '' | *[!0-9]* | 0) die "GO_STACKS must be 'all' or a positive number" ;; esac

work=$out/legacy
mkdir -p "$work" || die "cannot create $work"

# --- the profiles ----------------------------------------------------------------

big=$out/je/big-$BIG_N.heap
small=$out/je/pair-$SMALL_N.f.heap
je_profile "$big" "$BIG_N" 0
je_profile "$small" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"

# je2gp IN OUT [MAXSTACKS]: the jemalloc profile IN as gperftools heap
# profiler text.  Values are copied (lg_prof_sample:0: R = 1, nothing to
# unbias); the header is the sum of the bucket lines written.
je2gp() {
	local jerange
	# libjemalloc's executable mappings: its frames are cut off, as
	# tcmalloc's are in a heap-profiler file.
	jerange=$(sed -n '/^MAPPED_LIBRARIES:/,$p' "$1" |
	    awk '$2 ~ /x/ && $NF ~ /libjemalloc/ { print $1 }' | tr '\n' ' ')
	[ -n "$jerange" ] || die "$1: no libjemalloc mapping"
	perl -e '
	use strict;
	my ($ranges, $in, $out, $max) = @ARGV;
	my @r = map { [ map { hex } split /-/ ] } split " ", $ranges;
	sub inje {
		my $a = hex $_[0];
		for (@r) { return 1 if $a >= $_->[0] && $a < $_->[1] }
		return 0;
	}
	open my $i, "<", $in or die "$in: $!\n";
	open my $o, ">", "$out.body" or die "$out.body: $!\n";
	<$i> =~ m{^heap_v2/1$} or die "$in: not a heap_v2/1 profile\n";
	my ($stack, $n, @t);
	while (<$i>) {
		if (/^@ (.*)/) {
			my @f = split / /, $1;
			shift @f while @f && inje($f[0]);
			$stack = join " ", @f;
		} elsif (defined $stack && /^  t\*: (\d+): (\d+) \[(\d+): (\d+)\]/) {
			printf $o "%6d: %8d [%6d: %8d] @ %s\n", $1, $2, $3, $4, $stack;
			$t[0] += $1; $t[1] += $2; $t[2] += $3; $t[3] += $4;
			undef $stack;
			last if $max && ++$n >= $max;
		} elsif (/^MAPPED_LIBRARIES:/) {
			last;
		}
	}
	while (<$i>) { last if /^MAPPED_LIBRARIES:/ }
	print $o "\nMAPPED_LIBRARIES:\n";
	print $o $_ while <$i>;
	close $o or die "$out.body: $!\n";
	open $o, ">", $out or die "$out: $!\n";
	printf $o "heap profile: %6d: %8d [%6d: %8d] @ heapprofile\n", @t;
	close $o or die "$out: $!\n";
	' "$jerange" "$1" "$2.tmp" "${3:-0}" || die "cannot rewrite $1 as $2"
	cat "$2.tmp.body" >>"$2.tmp" && rm -f "$2.tmp.body" && mv "$2.tmp" "$2" ||
	    die "cannot write $2"
}

gp_big=$work/big-$BIG_N.gp
[ "$GO_STACKS" = all ] || gp_big=$work/big-$BIG_N-first$GO_STACKS.gp
gp_small=$work/pair-$SMALL_N.f.gp
for pair in "$big:$gp_big" "$small:$gp_small"; do
	src=${pair%%:*}
	dst=${pair#*:}
	if [ ! -s "$dst" ] || [ "$src" -nt "$dst" ] || [ "$0" -nt "$dst" ]; then
		note "rewriting $src as gperftools text ($dst)"
		max=0
		[ "$dst" != "$gp_big" ] || [ "$GO_STACKS" = all ] || max=$GO_STACKS
		je2gp "$src" "$dst" "$max"
	fi
done

# stacks FILE: the number of stacks (jemalloc '@' lines, gperftools buckets).
stacks() {
	case $1 in
	*.gp) grep -c ' @ 0x' "$1" ;;
	*) grep -c '^@' "$1" ;;
	esac
}
# total FILE FIELD: from `profconv show -s` of a file, samples or a total.
big_size=$(wc -c <"$big")
small_size=$(wc -c <"$small")
gpb_size=$(wc -c <"$gp_big")
gps_size=$(wc -c <"$gp_small")
big_stacks=$(stacks "$big")
small_stacks=$(stacks "$small")
gpb_stacks=$(stacks "$gp_big")
gps_stacks=$(stacks "$gp_small")
[ "$big_stacks" -ge "$BIG_N" ] || die "$big has $big_stacks stacks, expected $BIG_N or more"
[ "$small_stacks" -ge "$SMALL_N" ] || die "$small has $small_stacks stacks, expected $SMALL_N or more"

load_warning
cat <<EOF
build:    $build
program:  $JE_PROG (2048 functions, -O2 -g)
big:      $big
          $big_size bytes, $big_stacks stacks (heap_v2/1)
small:    $small
          $small_size bytes, $small_stacks stacks
gp big:   $gp_big
          $gpb_size bytes, $gpb_stacks stacks (gperftools heapprofile)
gp small: $gp_small
          $gps_size bytes, $gps_stacks stacks
outputs:  $work
runs:     $RUNS per tool (go on the big rewrite: $GO_RUNS), interleaved; median shown
machine:  $cpus CPUs, load average $load at start
EOF

rm -f "$work"/*.times

# --- A: jemalloc -------------------------------------------------------------------

# Issue 14, row 1: the same conversion on one thread and on all, the
# read side alone (bench/readtime.c: read into the model, no output),
# against a line scan of the same file from the page cache in the same run.
readtime=$scratch/readtime
"${CC:-cc}" -O2 -I"$benchdir/../lib" -o "$readtime" "$benchdir/readtime.c" \
    -L"$build/lib/.libs" -lprofconv || die "cannot build bench/readtime.c"
cat "$big" >/dev/null
load_a=$(cut -d' ' -f1 /proc/loadavg)
i=1
while [ "$i" -le "$RUNS" ]; do
	note "A run $i/$RUNS: wc -l, grep -c '^@' (big jemalloc, page cache)"
	timed wc_big wc -l "$big"
	timed grep_big grep -c '^@' "$big"
	note "A run $i/$RUNS: profconv text2pb and readtime, -j$cpus and -j1 (big jemalloc)"
	timed pc_big "$PROFCONV" text2pb -j "$cpus" "$big" -o "$work/big.pb.gz"
	timed pc_big1 "$PROFCONV" text2pb -j 1 "$big" -o "$work/big-j1.pb.gz"
	timed pcr_big "$readtime" "$big" "$cpus"
	timed pcr_big1 "$readtime" "$big" 1
	note "A run $i/$RUNS: jeprof --text (small)"
	timed jeprof_small "$JEPROF" --text --show_bytes "$JE_PROG" "$small"
	note "A run $i/$RUNS: profconv text2pb (small), and --symbolize"
	timed pc_small "$PROFCONV" text2pb "$small" -o "$work/small.pb.gz"
	timed pcs_small "$PROFCONV" text2pb --symbolize "$small" -o "$work/small.sym.pb.gz"
	i=$((i + 1))
done

load_a_end=$(cut -d' ' -f1 /proc/loadavg)

note "checking A"
cmp -s "$work/big.pb.gz" "$work/big-j1.pb.gz" ||
	die "OUTPUTS DIFFER: text2pb -j$cpus and -j1 of $big"
cmp -s "$work/pcr_big.out" "$work/pcr_big1.out" ||
	die "OUTPUTS DIFFER: readtime -j$cpus and -j1 of $big"
grep -q "^samples $big_stacks " "$work/pcr_big.out" ||
	die "readtime of $big: $(cat "$work/pcr_big.out"), expected $big_stacks samples"
[ "$(cat "$work/grep_big.out")" = "$big_stacks" ] ||
	die "grep -c '^@' says $(cat "$work/grep_big.out"), expected $big_stacks"
[ "$(awk '{ print $1 }' "$work/wc_big.out")" -gt "$big_stacks" ] ||
	die "wc -l of $big: $(cat "$work/wc_big.out")"
je_total() {	# the process total line: t*: inuse_n: inuse_b [alloc_n: alloc_b]
	sed -n '2s/^  t\*: \([0-9]*\): \([0-9]*\) \[\([0-9]*\): \([0-9]*\)\]$/\1 \2 \3 \4/p' "$1"
}
for pair in "$big:$work/big.pb.gz" "$small:$work/small.pb.gz" "$small:$work/small.sym.pb.gz"; do
	src=${pair%%:*}
	pb=${pair#*:}
	summary "$pb" "$scratch/s"
	read -r in_n in_b al_n al_b <<<"$(je_total "$src")"
	[ "$(field "$scratch/s" samples)" = "$(stacks "$src")" ] ||
		die "$pb has $(field "$scratch/s" samples) samples, $src $(stacks "$src") stacks"
	[ "$(field "$scratch/s" inuse_space/bytes)" = "$in_b" ] &&
	    [ "$(field "$scratch/s" inuse_objects/count)" = "$in_n" ] &&
	    [ "$(field "$scratch/s" alloc_space/bytes)" = "$al_b" ] &&
	    [ "$(field "$scratch/s" alloc_objects/count)" = "$al_n" ] ||
		die "TOTALS DIFFER: $pb and the t*: line of $src"
done
jeprof_total=$(sed -n 's/^Total: \([0-9]*\) B$/\1/p' "$work/jeprof_small.out")
[ "$jeprof_total" = "$(field "$scratch/s" inuse_space/bytes)" ] ||
	die "TOTALS DIFFER: jeprof says '$jeprof_total' B, profconv $(field "$scratch/s" inuse_space/bytes)"
sym=$(grep -o 'symbolized [0-9]* of [0-9]* locations' "$work/pcs_small.err" || true)

# --- B: gperftools text --------------------------------------------------------------

go_cmd=("$GOPPROF" -proto -symbolize=none -output "$work/gp-big.go.pb.gz" "$gp_big")
i=1
while [ "$i" -le "$RUNS" ]; do
	note "B run $i/$RUNS: profconv text2pb (gperftools text)"
	timed pc_gp "$PROFCONV" text2pb "$gp_big" -o "$work/gp-big.pb.gz"
	if [ "$i" -le "$GO_RUNS" ]; then
		note "B run $i/$GO_RUNS: go tool pprof -proto (gperftools text)"
		timed go_gp "${go_cmd[@]}"
	fi
	i=$((i + 1))
done

note "checking B (go tool pprof -raw on the small rewrite; totals on the big)"
"$PROFCONV" text2pb "$gp_small" -o "$work/gp-small.pb.gz" >/dev/null 2>&1 ||
	die "profconv text2pb $gp_small failed"
"$GOPPROF" -proto -symbolize=none -output "$work/gp-small.go.pb.gz" "$gp_small" >/dev/null 2>&1 ||
	die "go tool pprof -proto $gp_small failed"
"$GOPPROF" -raw -symbolize=none "$work/gp-small.go.pb.gz" >"$scratch/go.raw" 2>/dev/null ||
	die "go tool pprof -raw cannot read go's output"
"$GOPPROF" -raw -symbolize=none "$work/gp-small.pb.gz" >"$scratch/pc.raw" 2>/dev/null ||
	die "go tool pprof -raw cannot read profconv's output"
[ -s "$scratch/go.raw" ] && cmp -s "$scratch/go.raw" "$scratch/pc.raw" ||
	die "OUTPUTS DIFFER: go tool pprof -raw of $work/gp-small.go.pb.gz and $work/gp-small.pb.gz"
summary "$work/gp-big.pb.gz" "$scratch/pc.s"
summary "$work/gp-big.go.pb.gz" "$scratch/go.s"
for f in samples alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes; do
	[ "$(field "$scratch/pc.s" $f)" = "$(field "$scratch/go.s" $f)" ] ||
		die "OUTPUTS DIFFER: $f of $work/gp-big.pb.gz and $work/gp-big.go.pb.gz"
done
[ "$(field "$scratch/pc.s" samples)" = "$gpb_stacks" ] ||
	die "$work/gp-big.pb.gz has $(field "$scratch/pc.s" samples) samples, $gp_big $gpb_stacks"

# --- the tables ----------------------------------------------------------------------

# anchor NAME ANCHOR: "N.Nx" - NAME's median time over ANCHOR's.
anchor() {
	awk -v a="$(median 1 "$work/$1.times")" -v b="$(median 1 "$work/$2.times")" \
	    'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'
}

echo
echo "A. jemalloc heap_v2 -> pprof (load average $load_a at the start of A, $load_a_end at its end)"
report_head
report wc_big "wc -l, big (page cache)"
report grep_big "grep -c '^@', big (page cache)"
report pc_big "profconv text2pb -j$cpus, big ($((big_size / 1000000)) MB)"
report pc_big1 "profconv text2pb -j1, big"
report pcr_big "read side alone (readtime) -j$cpus, big"
report pcr_big1 "read side alone (readtime) -j1, big"
for r in pc_big pc_big1 pcr_big pcr_big1; do
	printf '  %-9s %s of wc -l, %s of grep -c\n' "$r:" \
	    "$(anchor "$r" wc_big)" "$(anchor "$r" grep_big)"
done
goal "A (big: <= 10 s, peak RSS <= 1.5 GB)" \
    "$(median 1 "$work/pc_big.times") <= 10 && $(median 2 "$work/pc_big.times") * 1024 <= 1500000000"
goal "issue 14 row 1 (big, -j$cpus: <= 4 s, peak RSS <= 1 GB)" \
    "$(median 1 "$work/pc_big.times") <= 4 && $(median 2 "$work/pc_big.times") * 1024 <= 1000000000"
goal "issue 31 item 3 (big, -j$cpus: <= 1.5 s, peak RSS <= 500 MB)" \
    "$(median 1 "$work/pc_big.times") <= 1.5 && $(median 2 "$work/pc_big.times") * 1024 <= 500000000"
echo "  checked: -j$cpus and -j1 outputs identical (text2pb; readtime's counts)"
report jeprof_small "jeprof --text --show_bytes, small"
report pc_small "profconv text2pb, small"
report pcs_small "profconv text2pb --symbolize, small"
read -r sp me <<<"$(ratio jeprof_small pc_small)"
echo "  jeprof/profconv text2pb:             ${sp}x time, ${me}x memory"
read -r sp me <<<"$(ratio jeprof_small pcs_small)"
echo "  jeprof/profconv text2pb --symbolize: ${sp}x time, ${me}x memory (${sym:-?})"
echo "  checked: samples = stacks, totals = t*: line; jeprof Total = profconv inuse_space"

echo
echo "B. the same stacks as gperftools heapprofile text -> pprof ($gpb_stacks stacks)"
report_head
report pc_gp "profconv text2pb"
report go_gp "go tool pprof -proto -symbolize=none"
read -r sp me <<<"$(ratio go_gp pc_gp)"
echo "  go/profconv: ${sp}x time, ${me}x memory"
goal "B (>= 8x faster than go tool pprof)" "$sp >= 8"
echo "  checked: go tool pprof -raw identical ($gps_stacks stacks); samples and totals equal ($gpb_stacks)"
echo "timings per run (seconds, peak RSS KB): $work/*.times"
bench_exit
