#!/bin/bash
# SPDX-License-Identifier: MIT
# symbolize.sh - time `profconv symbolize` of a real jemalloc heap profile,
# end to end (reading and writing included), against GNU addr2line on the
# same unique addresses, in the same run.
#
# usage: bench/symbolize.sh [BUILDDIR]
#
# The goal (issue 14, row 2): the whole `profconv symbolize IN -o OUT.pb.gz`
# of the 12.7 MB jemalloc profile finishes within GNU addr2line's time on
# the same unique addresses.
#
# What it does:
#  1. Takes the profile: MODE=je (default) the jemalloc profile of
#     bench/gen-je-heap.sh's program, $BENCH_OUT/je/pair-$SMALL_N.f.heap
#     (made when missing, as legacy.sh and flame.sh make it; an existing
#     one is never made again); MODE=gen a gperftools
#     heap profile of the call instructions of a generated C program whose
#     calls sit in always_inline helpers (NFUNCS functions in NFILES
#     files), so most frames have inline chains.
#  2. Lists the profile's unique addresses per binary (from
#     `profconv show --no-symbolize`, turned into link-time addresses with
#     each binary's PT_LOAD headers).
#  3. Times, interleaved, RUNS times each (wall seconds, medians shown):
#       profconv symbolize IN -o OUT.pb.gz    (-j $JOBS when JOBS is set)
#       addr2line -f -i -C -e BINARY          once per binary, fed all of
#                                             its addresses on stdin; the
#                                             anchor is the sum over the
#                                             binaries, and the main
#                                             program's own time is shown
#     and, with EU=1, eu-addr2line on the main program's addresses.
#  4. Checks profconv's answers: for every address of the main program the
#     innermost frame (function, file, line) is addr2line's first one.
#
# BUILDDIR (or $PROFCONV_BUILD) is a build of profconv; default ./build,
# or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=5          timed runs per variant (the median is reported)
#   MODE=je|gen     the profile (see 1.)
#   SMALL_N=32000   call paths of the jemalloc profile (MODE=je)
#   NFUNCS=2000, NFILES=4   the generated program (MODE=gen)
#   JOBS=N          profconv's -j (default: one thread per CPU)
#   EU=1            also time eu-addr2line (slow: it walks a CU's DIEs for
#                   every address; EU_MAX=2000 addresses, scaled)
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if the goal is not met
#
# Exit status: 0 done (goal met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, perl, gcc, binutils (addr2line, readelf, objdump), GNU time,
# Debian libjemalloc2 for MODE=je, elfutils for EU=1.

set -euo pipefail
prog=symbolize.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
RUNS=${RUNS:-5}
bench_init "${1:-}"

MODE=${MODE:-je}
SMALL_N=${SMALL_N:-32000}
NFUNCS=${NFUNCS:-2000}
NFILES=${NFILES:-4}
EU=${EU:-0}
EU_MAX=${EU_MAX:-2000}
for v in "$SMALL_N" "$NFUNCS" "$NFILES" "$EU_MAX"; do
	case $v in '' | *[!0-9]*) die "SMALL_N, NFUNCS, NFILES and EU_MAX must be numbers" ;; esac
done
jobs_opt=()
if [ -n "${JOBS:-}" ]; then
	case $JOBS in *[!0-9]* | 0) die "JOBS must be a positive number" ;; esac
	jobs_opt=(-j "$JOBS")
fi
command -v addr2line >/dev/null 2>&1 || die "addr2line not found (Debian: binutils)"
command -v readelf >/dev/null 2>&1 || die "readelf not found (Debian: binutils)"
work=$out/symbolize
mkdir -p "$work" || die "cannot create $work"

# --- the profile ---------------------------------------------------------------

# gen_file I FIRST LAST: one compile unit with functions FIRST..LAST-1.
gen_file() {
	{
		echo '#define AI static inline __attribute__((always_inline))'
		echo 'int sink(int);'
		echo 'AI int h1(int x, int k) { return sink(x + k) * 3; }'
		echo 'AI int h2(int x, int k) { return h1(x, k) + sink(x ^ k); }'
		echo 'AI int h3(int x, int k) { int r = h2(x, k); return r + h1(r, k + 1); }'
		local n=$2
		while [ "$n" -lt "$3" ]; do
			cat <<EOF
__attribute__((noinline)) int
f$n(int x)
{
	int r = h3(x, $n);
	if (x > $n)
		r += h2(r, $n);
	r += sink(r);
	return r + h1(x, r);
}
EOF
			n=$((n + 1))
		done
	} >"$gen/gen$1.c"
}

# A gperftools heap profile of every call instruction of the fN functions
# of a generated program, which is loaded at 0x555555554000.
gen_profile() {
	local per i lo hi naddr k a bias=$((0x555555554000))
	gen=$work/gen
	mkdir -p "$gen"
	note "generating $NFUNCS functions in $NFILES files"
	per=$(((NFUNCS + NFILES - 1) / NFILES))
	i=0
	while [ "$i" -lt "$NFILES" ]; do
		lo=$((i * per))
		hi=$((lo + per))
		[ "$hi" -gt "$NFUNCS" ] && hi=$NFUNCS
		gen_file "$i" "$lo" "$hi"
		i=$((i + 1))
	done
	cat >"$gen/main.c" <<'EOF'
__attribute__((noinline)) int
sink(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

int
main(void)
{
	return sink(0) == 1 ? 0 : 1;
}
EOF
	gcc -O2 -g -o "$gen/prog" "$gen"/gen*.c "$gen/main.c" || die "cannot build the program"
	objdump -d --no-show-raw-insn "$gen/prog" | awk '
		/^[0-9a-f]+ <f[0-9]+>:$/ { inf = 1; next }
		/^[0-9a-f]+ <.*>:$/ { inf = 0; next }
		inf && $2 == "call" { a = $1; sub(/:$/, "", a); print a }' |
	    sort -u >"$gen/calls"
	naddr=$(wc -l <"$gen/calls")
	# 8 frames a sample; the reader subtracts 1 from each return address.
	{
		echo "heap profile:   $naddr:  $((naddr * 16)) [   $naddr:  $((naddr * 16))] @ heapprofile"
		k=0
		while read -r a; do
			if [ $((k % 8)) -eq 0 ]; then
				[ "$k" -gt 0 ] && echo
				printf '     8:      128 [     8:      128] @'
			fi
			printf ' 0x%x' $((0x$a + 2 + bias))
			k=$((k + 1))
		done <"$gen/calls"
		echo
		echo
		echo "MAPPED_LIBRARIES:"
		printf '%x-%x r-xp 00000000 00:00 1 %s\n' "$bias" \
		    $((bias + 0x10000000)) "$gen/prog"
	} >"$gen/prog.heap"
	IN=$gen/prog.heap
}

case $MODE in
je)
	IN=$out/je/pair-$SMALL_N.f.heap
	# Made only when missing: shared data (BENCH_OUT) is used as it is,
	# whatever the dates of this tree's generator.
	if [ ! -s "$IN" ] || [ ! -x "$out/je/jeheap" ]; then
		je_profile "$IN" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
	fi
	;;
gen) gen_profile ;;
*) die "MODE must be je or gen" ;;
esac

# --- the same unique addresses, per binary ------------------------------------

"$PROFCONV" show --no-symbolize "$IN" >"$scratch/raw.txt" ||
	die "profconv show --no-symbolize $IN failed"
# Writes $scratch/mod.N (link-time addresses, one a line) and prints
# "N COUNT FILE" per binary that exists, the main program (most
# addresses) first.
perl -e '
	use strict; use warnings; no warnings "portable";
	my ($raw, $dir) = @ARGV;
	my (%map, %addrs, $sec);
	open(my $fh, "<", $raw) or die "$raw: $!";
	while (<$fh>) {
		if (/^(locations|functions|mappings):/) { $sec = $1; next }
		if ($sec && $sec eq "mappings" &&
		    m{^\s*(\d+): (0x[0-9a-f]+|0)/(0x[0-9a-f]+|0)/(0x[0-9a-f]+|0) (/\S+)}) {
			$map{$1} = [hex($2), hex($4), $5];
		} elsif ($sec && $sec eq "locations" &&
		    /^\s*\d+: (0x[0-9a-f]+) M=(\d+)/) {
			$addrs{$2}{hex($1)} = 1;
		}
	}
	my %byfile;
	for my $m (keys %addrs) {
		next unless $map{$m} && -f $map{$m}[2];
		my ($start, $off, $file) = @{$map{$m}};
		# File offset to link-time address through the PT_LOAD holding it.
		my @loads;
		for (`readelf -lW "$file" 2>/dev/null`) {
			push @loads, [hex($1), hex($2), hex($3)]
			    if /^\s*LOAD\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+\S+\s+(0x[0-9a-f]+)/;
		}
		next unless @loads;
		for my $a (keys %{$addrs{$m}}) {
			my $fo = $a - $start + $off;
			for my $l (@loads) {
				if ($fo >= $l->[0] && $fo < $l->[0] + $l->[2]) {
					$byfile{$file}{$fo - $l->[0] + $l->[1]} = 1;
					last;
				}
			}
		}
	}
	my $n = 0;
	for my $file (sort { keys %{$byfile{$b}} <=> keys %{$byfile{$a}} || $a cmp $b } keys %byfile) {
		open(my $o, ">", "$dir/mod.$n") or die "$dir/mod.$n: $!";
		printf $o "0x%x\n", $_ for sort { $a <=> $b } keys %{$byfile{$file}};
		close($o);
		printf "%d %d %s\n", $n, scalar(keys %{$byfile{$file}}), $file;
		$n++;
	}
' "$scratch/raw.txt" "$scratch" >"$scratch/modules" || die "cannot list the addresses"
[ -s "$scratch/modules" ] || die "no address of $IN lies in a binary on this machine"
read -r _ main_n main_file <"$scratch/modules"
total_n=$(awk '{ n += $2 } END { print n }' "$scratch/modules")

# --- timing --------------------------------------------------------------------

# hires CMD...: wall seconds of CMD (stdout to /dev/null), to 0.1 ms.
hires() {
	perl -MTime::HiRes=time -e '
		my $t = time;
		my $pid = fork // die "fork: $!";
		if ($pid == 0) {
			open(STDOUT, ">", "/dev/null");
			exec(@ARGV) or exit 127;
		}
		waitpid($pid, 0);
		exit 1 if $? != 0;
		printf "%.4f\n", time - $t;
	' "$@"
}

# a2l_all: addr2line on every binary's addresses; prints "TOTAL MAIN".
a2l_all() {
	local n count file t total=0 main=0
	while read -r n count file; do
		t=$(hires sh -c 'exec addr2line -f -i -C -e "$1" <"$2"' sh \
		    "$file" "$scratch/mod.$n") || die "addr2line -e $file failed"
		total=$(echo "$total + $t" | bc)
		[ "$n" = 0 ] && main=$t
	done <"$scratch/modules"
	echo "$total $main"
}

if [ "$EU" = 1 ]; then
	command -v eu-addr2line >/dev/null 2>&1 || die "eu-addr2line not found (Debian: elfutils)"
	head -n "$EU_MAX" "$scratch/mod.0" >"$scratch/eu-addrs"
	eu_n=$(wc -l <"$scratch/eu-addrs")
fi

load_warning
cat <<EOF
build:     $build
profile:   $IN ($(wc -c <"$IN") bytes, MODE=$MODE)
addresses: $total_n unique in $(wc -l <"$scratch/modules") binaries; $main_n in $main_file
runs:      $RUNS per variant, interleaved; median shown
machine:   $cpus CPUs, load average $load at start ($(uptime))
EOF

rm -f "$work"/*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS"
	hires "$PROFCONV" symbolize "${jobs_opt[@]}" -o "$work/out.pb.gz" "$IN" \
	    >>"$work/profconv.times" 2>"$work/profconv.err" ||
		{ cat "$work/profconv.err" >&2; die "profconv symbolize failed"; }
	a2l_all >>"$work/addr2line.times"
	if [ "$EU" = 1 ]; then
		hires sh -c 'exec eu-addr2line -f -i -C -e "$1" <"$2"' sh \
		    "$main_file" "$scratch/eu-addrs" >>"$work/eu.times" ||
			die "eu-addr2line failed"
	fi
	i=$((i + 1))
done

# --- checking ------------------------------------------------------------------

note "checking profconv's answers against addr2line"
"$PROFCONV" symbolize "${jobs_opt[@]}" --no-compress -o "$work/out.pb" "$IN" \
    2>"$work/summary" || die "profconv symbolize failed"
"$PROFCONV" show "$work/out.pb" >"$scratch/sym.txt" || die "profconv show failed"
addr2line -a -f -i -C -e "$main_file" <"$scratch/mod.0" >"$scratch/a2l.txt" ||
	die "addr2line -a failed"
# profconv's innermost frame per link-time address of the main program
# against addr2line's first frame: "NAME FILE:LINE" both.
check=$(perl -e '
	use strict; use warnings; no warnings "portable";
	my ($raw, $sym, $a2l, $mainfile) = @ARGV;
	# Link-time address of each runtime address of the main program: the
	# order of addresses in raw.txt and sym.txt is the same (location ids).
	my (%map, @locs, $sec);
	open(my $fh, "<", $sym) or die;
	my $cur;
	while (<$fh>) {
		if (/^(locations|functions|mappings):/) { $sec = $1; next }
		next unless $sec;
		if ($sec eq "locations" && /^\s*(\d+): (0x[0-9a-f]+) M=(\d+)/) {
			$cur = { addr => hex($2), m => $3 }; push @locs, $cur;
		} elsif ($sec eq "locations" && /^\s+F=\d+ (.*) (\S+)$/ && $cur) {
			$cur->{frame} //= [$1, $2];
		} elsif ($sec eq "mappings" &&
		    m{^\s*(\d+): (0x[0-9a-f]+|0)/(0x[0-9a-f]+|0)/(0x[0-9a-f]+|0) (/\S+)}) {
			$map{$1} = [hex($2), hex($4), $5];
		}
	}
	my @loads;
	for (`readelf -lW "$mainfile"`) {
		push @loads, [hex($1), hex($2), hex($3)]
		    if /^\s*LOAD\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+\S+\s+(0x[0-9a-f]+)/;
	}
	my %pc;
	for my $l (@locs) {
		my $m = $map{$l->{m}} or next;
		next unless $m->[2] eq $mainfile;
		my $fo = $l->{addr} - $m->[0] + $m->[1];
		for my $s (@loads) {
			next unless $fo >= $s->[0] && $fo < $s->[0] + $s->[2];
			my $f = $l->{frame} // ["??", "??:0"];
			my ($name, $pos) = @$f;
			$pos =~ s/:\d+$// if $pos =~ /:\d+:\d+$/;	# the column
			$pos = "??$pos" if $pos =~ /^:/;	# no file
			$pc{$fo - $s->[0] + $s->[1]} = "$name $pos";
			last;
		}
	}
	open($fh, "<", $a2l) or die;
	my ($addr, $state, %a2l) = (undef, 0);
	while (<$fh>) {
		chomp;
		if (/^0x([0-9a-f]+)$/) { $addr = hex($1); $state = 1; next }
		if ($state == 1) { $a2l{$addr} = $_; $state = 2; next }
		if ($state == 2) {
			s/ \(discriminator \d+\)$//; s/:\?$/:0/;
			$a2l{$addr} .= " $_"; $state = 0;
		}
	}
	my ($same, $n, @bad) = (0, 0);
	for my $a (sort { $a <=> $b } keys %a2l) {
		$n++;
		my $p = $pc{$a} // "(none)";
		if ($p eq $a2l{$a}) { $same++ } elsif (@bad < 5) {
			push @bad, sprintf("0x%x: profconv %s, addr2line %s", $a, $p, $a2l{$a});
		}
	}
	print "$same $n\n";
	print STDERR "  $_\n" for @bad;
' "$scratch/raw.txt" "$scratch/sym.txt" "$scratch/a2l.txt" "$main_file")
read -r same checked <<<"$check"
[ "$checked" -gt 0 ] || die "no address of $main_file was checked"
[ "$same" = "$checked" ] ||
	die "profconv and addr2line disagree on $((checked - same)) of $checked innermost frames"

pc=$(median 1 "$work/profconv.times")
a2l=$(median 1 "$work/addr2line.times")
a2l_main=$(median 2 "$work/addr2line.times")
echo
echo "profconv symbolize of $(basename "$IN"), end to end, against GNU addr2line"
printf '  %-52s %9s\n' "tool" "median s"
printf '  %-52s %9.4f\n' "profconv symbolize (read, symbolize, write .pb.gz)" "$pc"
printf '  %-52s %9.4f\n' "addr2line -f -i -C, every binary ($total_n addresses)" "$a2l"
printf '  %-52s %9.4f\n' "addr2line -f -i -C, $(basename "$main_file") alone ($main_n)" "$a2l_main"
if [ "$EU" = 1 ]; then
	eu=$(median 1 "$work/eu.times")
	printf '  %-52s %9.4f\n' "eu-addr2line, $eu_n addresses scaled to $main_n" \
	    "$(echo "scale=4; $eu * $main_n / $eu_n" | bc)"
fi
awk -v a="$a2l" -v m="$a2l_main" -v p="$pc" 'BEGIN {
	printf "  addr2line (every binary) / profconv: %.2fx; addr2line (%s) / profconv: %.2fx\n",
	    a / p, "main program", m / p }'
goal "(profconv symbolize <= addr2line on the same addresses)" "$pc <= $a2l"
echo "  CPU seconds (user+sys, one run): profconv" \
    "$(/usr/bin/time -f '%U %S' -o "$scratch/cpu" "$PROFCONV" symbolize "${jobs_opt[@]}" \
        -o "$work/out.pb.gz" "$IN" 2>/dev/null; awk '{ printf "%.2f", $1 + $2 }' "$scratch/cpu")"
echo "  checked: profconv's innermost frame is addr2line's on all $checked addresses of $(basename "$main_file")"
echo "  $(sed 's/^profconv symbolize: //' "$work/summary")"
echo "timings per run (seconds; addr2line: every binary, main program): $work/*.times"
bench_exit
