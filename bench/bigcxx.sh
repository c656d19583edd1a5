#!/bin/bash
# SPDX-License-Identifier: MIT
# bigcxx.sh - time `profconv symbolize` of a heap profile of a big C++
# program, end to end, against llvm-symbolizer and GNU addr2line on the
# same unique addresses, in the same run (issue 31, item 1).
#
# usage: bench/bigcxx.sh [BUILDDIR]
#
# The goal (issue 31, row 1): `profconv symbolize` of the profile takes at
# most half llvm-symbolizer's time on the same addresses, at most its
# peak memory, with the same frames.
#
# What it does:
#  1. Builds the program once: bench/gen-bigcxx.sh writes NTU translation
#     units of templates, std containers and deep always_inline chains
#     from SEED and builds them with g++ -O2 -g (DWARF 5) into
#     $BENCH_OUT/bigcxx/bigcxx; built again only when the generator, NTU
#     or SEED changed.  The size of its .debug_info and of all its DWARF
#     is printed.
#  2. Runs it under tcmalloc's heap profiler (LD_PRELOAD of
#     libtcmalloc.so.4, HEAPPROFILE), ITERS iterations a worker, and keeps
#     the last dump as $BENCH_OUT/bigcxx/bigcxx.heap (made again when
#     older than the program).  The profile's unique addresses in the
#     program are listed as link-time addresses (from `profconv show
#     --no-symbolize` and the program's PT_LOAD headers).
#  3. Times, interleaved, RUNS times each, with /usr/bin/time (wall,
#     CPU, peak RSS; medians shown):
#       profconv symbolize IN -o OUT.pb.gz   the whole profile (every
#                                            binary it maps), read,
#                                            symbolized and written
#       llvm-symbolizer --obj=BIN --inlines  the program's addresses on
#                                            stdin, in one batch
#       addr2line -i -f -C -e BIN            the same
#     and, with EU=1, eu-addr2line -i -f -C -e BIN (very slow here).
#  4. Checks profconv's frames against llvm-symbolizer's (its JSON
#     output), by linker names (llvm-symbolizer's demangler gives up on
#     some of these names, profconv's does not; of the outermost frame,
#     which llvm-symbolizer names from the symbol table, clone suffixes
#     and constructor variants aside): for every address of
#     the program the innermost frame (function, file, line), and the
#     whole inline chain (each frame's function and file:line, innermost
#     first).  Prints the counts that
#     agree and the first disagreements; BENCH_STRICT=1 fails on any.
#
# BUILDDIR (or $PROFCONV_BUILD) is a build of profconv; default ./build,
# or the current directory if it has cmd/profconv.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   NTU=240, SEED=1 the program (see bench/gen-bigcxx.sh)
#   ITERS=40        iterations of each worker in the profiled run
#   JOBS=N          profconv's -j (default: one thread per CPU)
#   EU=1            also time eu-addr2line
#   BENCH_OUT=DIR   where the program, the profile and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if the goal is not met or a frame disagrees
#
# Exit status: 0 done (goal met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, perl (JSON::PP), g++, make, binutils (addr2line, readelf),
# llvm-symbolizer, GNU time, Debian libgoogle-perftools4 (libtcmalloc),
# elfutils for EU=1.

set -euo pipefail
prog=bigcxx.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"

NTU=${NTU:-240}
SEED=${SEED:-1}
ITERS=${ITERS:-40}
EU=${EU:-0}
for v in "$NTU" "$SEED" "$ITERS"; do
	case $v in '' | *[!0-9]*) die "NTU, SEED and ITERS must be numbers" ;; esac
done
jobs_opt=()
if [ -n "${JOBS:-}" ]; then
	case $JOBS in *[!0-9]* | 0) die "JOBS must be a positive number" ;; esac
	jobs_opt=(-j "$JOBS")
fi
for t in addr2line readelf llvm-symbolizer; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found"
done
[ "$EU" != 1 ] || command -v eu-addr2line >/dev/null 2>&1 ||
	die "eu-addr2line not found (Debian: elfutils)"
perl -MJSON::PP -e 1 2>/dev/null || die "perl's JSON::PP not found"
LIBTC=$(/sbin/ldconfig -p 2>/dev/null | awk '/libtcmalloc\.so\.4 / && !f { print $NF; f = 1 }')
[ -n "$LIBTC" ] || for f in /usr/lib/*/libtcmalloc.so.4; do [ -r "$f" ] && LIBTC=$f; done
[ -n "$LIBTC" ] || die "libtcmalloc.so.4 not found (Debian: libgoogle-perftools4)"
work=$out/bigcxx
mkdir -p "$work" || die "cannot create $work"

# --- the program and its profile ----------------------------------------------

BIN=$work/bigcxx
sum="$(cksum <"$benchdir/gen-bigcxx.sh") $NTU $SEED"
if [ ! -x "$BIN" ] || [ "$(cat "$work/bigcxx.sum" 2>/dev/null)" != "$sum" ]; then
	note "building $NTU translation units (g++ -O2 -g, make -j2; minutes)"
	rm -f "$work/bigcxx.sum" "$work/bigcxx.heap"
	start=$(date +%s)
	NTU=$NTU SEED=$SEED JOBS=2 "$benchdir/gen-bigcxx.sh" "$work" ||
		die "cannot build the program"
	echo "$sum" >"$work/bigcxx.sum"
	note "built in $(($(date +%s) - start)) s"
fi
IN=$work/bigcxx.heap
if [ ! -s "$IN" ] || [ "$BIN" -nt "$IN" ]; then
	note "profiling $BIN under tcmalloc ($ITERS iterations a worker)"
	mkdir -p "$scratch/hp"
	LD_PRELOAD=$LIBTC HEAPPROFILE=$scratch/hp/bigcxx "$BIN" "$ITERS" \
	    2>"$scratch/hp.err" || { cat "$scratch/hp.err" >&2; die "$BIN failed"; }
	last=$(ls "$scratch"/hp/bigcxx.*.heap 2>/dev/null | tail -n 1)
	[ -n "$last" ] || die "tcmalloc wrote no heap profile"
	cp "$last" "$IN.tmp" && mv "$IN.tmp" "$IN" || die "cannot keep $IN"
fi

# DWARF sizes: .debug_info alone, and every .debug_* section.
read -r info_mb dwarf_mb < <(readelf -SW "$BIN" | perl -ne '
	BEGIN { $i = $d = 0 }
	if (/\]\s+(\.debug_\w+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)/) {
		$d += hex($2);
		$i += hex($2) if $1 eq ".debug_info";
	}
	END { printf "%.1f %.1f\n", $i / 1048576, $d / 1048576 }')

# --- the unique addresses of the program --------------------------------------

"$PROFCONV" show --no-symbolize "$IN" >"$scratch/raw.txt" ||
	die "profconv show --no-symbolize $IN failed"
perl -e '
	use strict; use warnings; no warnings "portable";
	my ($raw, $bin) = @ARGV;
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
	my @loads;
	for (`readelf -lW "$bin"`) {
		push @loads, [hex($1), hex($2), hex($3)]
		    if /^\s*LOAD\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+\S+\s+(0x[0-9a-f]+)/;
	}
	my %pc;
	for my $m (keys %addrs) {
		next unless $map{$m} && $map{$m}[2] eq $bin;
		my ($start, $off) = @{$map{$m}};
		for my $a (keys %{$addrs{$m}}) {
			my $fo = $a - $start + $off;
			for my $l (@loads) {
				if ($fo >= $l->[0] && $fo < $l->[0] + $l->[2]) {
					$pc{$fo - $l->[0] + $l->[1]} = 1;
					last;
				}
			}
		}
	}
	printf "0x%x\n", $_ for sort { $a <=> $b } keys %pc;
' "$scratch/raw.txt" "$BIN" >"$work/addrs" || die "cannot list the addresses"
naddr=$(wc -l <"$work/addrs")
[ "$naddr" -gt 0 ] || die "no address of $IN lies in $BIN"
nall=$(grep -c '^ *[0-9]*: 0x[0-9a-f]* M=' "$scratch/raw.txt" || true)

# --- timing --------------------------------------------------------------------

load_warning
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
cat <<EOF
build:     $build
program:   $BIN ($NTU translation units, seed $SEED; $(($(stat -c %s "$BIN") / 1048576)) MB,
           .debug_info $info_mb MB, all DWARF sections $dwarf_mb MB)
profile:   $IN ($(wc -c <"$IN") bytes)
addresses: $naddr unique in the program ($nall locations in the profile)
runs:      $RUNS per tool, interleaved; medians shown
machine:   $cpus CPUs, load average $load_start at the start
EOF

rm -f "$work"/*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS"
	timed profconv "$PROFCONV" symbolize "${jobs_opt[@]}" -o "$work/out.pb.gz" "$IN"
	timed llvm sh -c 'exec llvm-symbolizer --obj="$1" --inlines <"$2"' sh \
	    "$BIN" "$work/addrs"
	timed addr2line sh -c 'exec addr2line -i -f -C -e "$1" <"$2"' sh \
	    "$BIN" "$work/addrs"
	if [ "$EU" = 1 ]; then
		timed eu sh -c 'exec eu-addr2line -i -f -C -e "$1" <"$2"' sh \
		    "$BIN" "$work/addrs"
	fi
	i=$((i + 1))
done

# --- checking ------------------------------------------------------------------

note "checking profconv's frames against llvm-symbolizer's"
"$PROFCONV" symbolize "${jobs_opt[@]}" --no-compress -o "$work/out.pb" "$IN" \
    2>"$work/summary" || die "profconv symbolize failed"
"$PROFCONV" show --demangle none "$work/out.pb" >"$scratch/sym.txt" ||
	die "profconv show failed"
llvm-symbolizer --obj="$BIN" --inlines --no-demangle --output-style=JSON \
    <"$work/addrs" \
    >"$scratch/llvm.json" || die "llvm-symbolizer --output-style=JSON failed"
# Innermost frames and whole chains, "NAME FILE:LINE" a frame, both sides
# (no file: "??").
check=$(perl -e '
	use strict; use warnings; no warnings "portable";
	use JSON::PP;
	my ($sym, $llvm, $bin) = @ARGV;
	my (%map, @locs, $sec, $cur);
	open(my $fh, "<", $sym) or die "$sym: $!";
	while (<$fh>) {
		if (/^(locations|functions|mappings):/) { $sec = $1; next }
		next unless $sec;
		if ($sec eq "locations" && /^\s*(\d+): (0x[0-9a-f]+) M=(\d+)/) {
			$cur = { addr => hex($2), m => $3, frames => [] };
			push @locs, $cur;
		} elsif ($sec eq "locations" && /^\s+F=\d+ (.*) (\S+)$/ && $cur) {
			my ($name, $pos) = ($1, $2);
			$pos =~ s/:\d+$// if $pos =~ /:\d+:\d+$/;	# the column
			$pos = "??$pos" if $pos =~ /^:/;
			push @{$cur->{frames}}, "$name $pos";
		} elsif ($sec eq "mappings" &&
		    m{^\s*(\d+): (0x[0-9a-f]+|0)/(0x[0-9a-f]+|0)/(0x[0-9a-f]+|0) (/\S+)}) {
			$map{$1} = [hex($2), hex($4), $5];
		}
	}
	my @loads;
	for (`readelf -lW "$bin"`) {
		push @loads, [hex($1), hex($2), hex($3)]
		    if /^\s*LOAD\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+\S+\s+(0x[0-9a-f]+)/;
	}
	my %pc;
	for my $l (@locs) {
		my $m = $map{$l->{m}} or next;
		next unless $m->[2] eq $bin;
		my $fo = $l->{addr} - $m->[0] + $m->[1];
		for my $s (@loads) {
			next unless $fo >= $s->[0] && $fo < $s->[0] + $s->[2];
			$pc{$fo - $s->[0] + $s->[1]} = $l->{frames};
			last;
		}
	}
	open($fh, "<", $llvm) or die "$llvm: $!";
	my ($n, $inner, $chain, $clones, @bad) = (0, 0, 0, 0);
	while (<$fh>) {
		my $j = decode_json($_);
		my $a = hex($j->{Address});
		# llvm-symbolizer names the outermost frame from the symbol
		# table, with GCC'"'"'s clone suffixes (.isra.0, .constprop.0,
		# .part.0); DWARF, which profconv reads, names the function.
		my @want = map {
			my $f = $_->{FileName} eq "" ? "??" : $_->{FileName};
			"$_->{FunctionName} $f:$_->{Line}"
		} @{$j->{Symbol}};
		# and a constructor or destructor by the variant emitted (C2),
		# where DWARF has the abstract one (GCC'"'"'s C4): both one name.
		if (@want && $want[-1] =~ s/^(\S+?)((?:\.(?:isra|constprop|part|cold)(?:\.\d+)?)+) /$1 /) {
			$clones++;
		}
		my @got = @{$pc{$a} // []};
		if (@want && @got) {
			for my $x (\$want[-1], \$got[-1]) {
				$$x =~ s/^(_Z\S*?)([CD])[0-5](E|I)/$1${2}x$3/;
			}
		}
		$n++;
		if (@got && @want && $got[0] eq $want[0]) {
			$inner++;
		} elsif (@bad < 5) {
			push @bad, sprintf("0x%x innermost: profconv %s; llvm-symbolizer %s",
			    $a, $got[0] // "(none)", $want[0] // "(none)");
		}
		if (join("|", @got) eq join("|", @want)) {
			$chain++;
		} elsif (@bad < 8) {
			push @bad, sprintf("0x%x chain: profconv %d frames [%s]; llvm-symbolizer %d [%s]",
			    $a, scalar @got, join(" <- ", @got), scalar @want,
			    join(" <- ", @want));
		}
	}
	print "$n $inner $chain $clones\n";
	print STDERR "  $_\n" for @bad;
' "$scratch/sym.txt" "$scratch/llvm.json" "$BIN" 2>"$scratch/bad")
read -r checked inner chain clones <<<"$check"
[ "${checked:-0}" -gt 0 ] || die "no address of $BIN was checked"

cpu_of() { cpu "$1"; }
echo
echo "profconv symbolize of $(basename "$IN"), end to end, against the anchors on its $naddr addresses"
printf '  %-46s %9s %8s %10s\n' "tool" "median s" "CPU s" "peak MB"
row() {
	awk -v l="$2" -v s="$(median 1 "$work/$1.times")" -v c="$(cpu "$1")" \
	    -v kb="$(median 2 "$work/$1.times")" \
	    'BEGIN { printf "  %-46s %9.2f %8.2f %10.1f\n", l, s, c, kb / 1024 }'
}
row profconv "profconv symbolize (read, symbolize, write)"
row llvm "llvm-symbolizer --inlines"
row addr2line "addr2line -i -f -C"
[ "$EU" != 1 ] || row eu "eu-addr2line -i -f -C"
pcs=$(median 1 "$work/profconv.times")
lls=$(median 1 "$work/llvm.times")
a2s=$(median 1 "$work/addr2line.times")
pck=$(median 2 "$work/profconv.times")
llk=$(median 2 "$work/llvm.times")
awk -v ps="$pcs" -v ls="$lls" -v as="$a2s" -v pk="$pck" -v lk="$llk" \
    -v pc="$(cpu profconv)" -v lc="$(cpu llvm)" 'BEGIN {
	printf "  profconv / llvm-symbolizer: time %.2f, CPU %.2f, peak memory %.2f; profconv / addr2line: time %.2f\n",
	    ps / ls, (lc > 0 ? pc / lc : 0), pk / lk, ps / as }'
goal "(profconv symbolize <= half llvm-symbolizer's time)" "$pcs <= $lls / 2"
goal "(profconv symbolize peak memory <= llvm-symbolizer's)" "$pck <= $llk"
echo "  frames: innermost agrees on $inner of $checked addresses, whole inline chain on $chain"
echo "  ($clones outermost names from llvm-symbolizer's symbol table lost a clone suffix such as .isra.0)"
if [ -s "$scratch/bad" ]; then
	echo "  first disagreements:"
	cat "$scratch/bad"
fi
[ "$inner" = "$checked" ] || missed=1
echo "  $(sed 's/^profconv symbolize: //' "$work/summary")"
echo "timings per run (wall s, peak KB, user s, system s): $work/*.times"
bench_exit
