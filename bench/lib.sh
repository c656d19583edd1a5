# SPDX-License-Identifier: MIT
# lib.sh - shell functions shared by bench/legacy.sh, merge.sh and flame.sh.
# Sourced, not run.  The caller sets `prog` (its name, for messages) and
# `set -euo pipefail` first.
#
# bench_init BUILDDIR      the build dir, the tools, the output dir
#   sets: benchdir build PROFCONV PROFDIFF PROFFLAME PROFGRAPH (the real
#   binaries in .libs/, with LD_LIBRARY_PATH exported, so that libtool's
#   shell wrapper is not timed), out (bench/out or $BENCH_OUT), scratch (a temp
#   dir removed at exit), RUNS, cpus
# bench_go                 GOPPROF: the pprof binary of `go tool pprof`
# bench_jeprof             JEPROF: jeprof (Debian libjemalloc-dev)
# je_profile OUT N [START [MID]]
#                          a jemalloc profile of bench/gen-je-heap.sh's
#                          program ($out/je/jeheap), made unless OUT is
#                          newer than the program and the generator
# timed [--diff] NAME CMD...
#                          run CMD with /usr/bin/time: stdout to
#                          $work/NAME.out, stderr to $work/NAME.err, and
#                          "seconds peak-RSS-KB user-s system-s" appended
#                          to $work/NAME.times;
#                          a non-zero exit is an error (with --diff: above 1).
#                          The dirty pages of earlier runs' outputs are
#                          written out first (sync, untimed): else their
#                          writeback competes for the CPUs with CMD, and
#                          a run pays for the one before it.
# median COLUMN FILE       the median of one column of a .times file
# cpu NAME                 the median CPU seconds (user + system) of NAME
# load_warning             warn when the load average is above cpus/2
# report NAME LABEL        a table row: median seconds and MB of NAME
# ratio A B                "A/B" of the median seconds and of the medians
#                          of peak RSS, as "Xs Ym" (B is profconv)
# je_to_gperftools IN OUT  the jemalloc heap_v2 profile IN rewritten as
#                          gperftools heap-profiler text, made unless OUT
#                          is newer than IN and bench/lib.sh

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

note() {
	echo "$prog: $*" >&2
}

# bench_usage "$@": --help prints the script's header comment.
bench_usage() {
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
}

bench_init() {
	benchdir=$(cd "$(dirname "$0")" && pwd)
	RUNS=${RUNS:-3}
	case $RUNS in '' | *[!0-9]* | 0) die "RUNS must be a positive number" ;; esac

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
	local t
	for t in profconv profdiff profflame; do
		[ -x "$build/cmd/$t" ] || die "$build/cmd/$t is not built (run make in $build)"
		# One untimed run: libtool's wrapper may relink on its first run.
		"$build/cmd/$t" --help >/dev/null 2>&1 || die "$build/cmd/$t --help failed"
	done
	if [ -x "$build/cmd/.libs/profconv" ] && [ -d "$build/lib/.libs" ]; then
		LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export LD_LIBRARY_PATH
		PROFCONV=$build/cmd/.libs/profconv
		PROFDIFF=$build/cmd/.libs/profdiff
		PROFFLAME=$build/cmd/.libs/profflame
		PROFGRAPH=$build/cmd/.libs/profgraph
	else
		PROFCONV=$build/cmd/profconv
		PROFDIFF=$build/cmd/profdiff
		PROFFLAME=$build/cmd/profflame
		PROFGRAPH=$build/cmd/profgraph
	fi
	"$PROFCONV" --help >/dev/null 2>&1 || die "$PROFCONV does not run"

	[ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian: time)"
	command -v perl >/dev/null 2>&1 || die "perl not found"

	out=${BENCH_OUT:-$benchdir/out}
	mkdir -p "$out/je" || die "cannot create $out/je"
	out=$(cd "$out" && pwd)

	scratch=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	cpus=$(nproc 2>/dev/null || echo 1)
}

bench_go() {
	command -v go >/dev/null 2>&1 || die "go not found (Debian: golang-go)"
	# Go writes its build cache and more under HOME: keep it in scratch.
	export HOME=$scratch GOCACHE=$scratch/gocache GOPATH=$scratch/gopath
	export GOFLAGS=-mod=mod GOTOOLCHAIN=local
	GOPPROF=$(go env GOTOOLDIR)/pprof
	[ -x "$GOPPROF" ] || die "$GOPPROF not found (go tool pprof)"
}

bench_jeprof() {
	JEPROF=$(command -v jeprof 2>/dev/null) || die "jeprof not found (Debian: libjemalloc-dev)"
}

# True when $out/je/jeheap was built by this checkout's gen-je-heap.sh
# (by content: dates differ between checkouts that share BENCH_OUT).
je_generator_current() {
	[ "$(cat "$out/je/jeheap.sum" 2>/dev/null)" = "$(cksum <"$benchdir/gen-je-heap.sh")" ]
}

JE_PROG=
je_profile() {
	local f=$1
	JE_PROG=$out/je/jeheap
	if [ -s "$f" ] && je_generator_current &&
	    [ -x "$JE_PROG" ] && [ "$f" -nt "$JE_PROG" ] &&
	    { [ -z "${4:-}" ] || { [ -s "$4" ] && [ "$4" -nt "$JE_PROG" ]; }; }; then
		return 0
	fi
	note "generating $f ($2 call paths${4:+, and $4})"
	"$benchdir/gen-je-heap.sh" "$JE_PROG" "$@" || die "cannot generate $f"
}

timed() {
	local ok=0 rc=0 name
	if [ "$1" = --diff ]; then
		ok=1	# diff(1)'s convention: exit status 1 means "differences"
		shift
	fi
	name=$1
	shift
	sync
	/usr/bin/time -f '%e %M %U %S' -o "$scratch/time" "$@" \
	    >"$work/$name.out" 2>"$work/$name.err" || rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != "$ok" ]; then
		tail -n 20 "$work/$name.err" >&2
		die "'$*' failed (exit status $rc)"
	fi
	tail -n 1 "$scratch/time" >>"$work/$name.times"
}

cpu() {
	awk '{ print $3 + $4 }' "$work/$1.times" | sort -g |
	    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

median() {
	awk -v c="$1" '{ print $c }' "$2" | sort -g | awk '
	    { v[NR] = $1 }
	    END { if (NR % 2) print v[(NR + 1) / 2]
	          else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

load_warning() {
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
	if awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
		note "warning: load average $load on $cpus CPUs: the figures will be noisy"
	fi
}

# report NAME LABEL: "LABEL  median-s  peak-RSS-MB  runs"
report() {
	local s kb
	s=$(median 1 "$work/$1.times")
	kb=$(median 2 "$work/$1.times")
	awk -v l="$2" -v s="$s" -v kb="$kb" -v n="$(wc -l <"$work/$1.times")" \
	    'BEGIN { printf "  %-44s %9.2f %10.1f %5d\n", l, s, kb / 1024, n }'
}

report_head() {
	printf '  %-44s %9s %10s %5s\n' "tool" "median s" "peak MB" "runs"
}

# ratio A B: prints "speed memory" ratios A/B of the medians.
ratio() {
	awk -v as="$(median 1 "$work/$1.times")" -v bs="$(median 1 "$work/$2.times")" \
	    -v ak="$(median 2 "$work/$1.times")" -v bk="$(median 2 "$work/$2.times")" \
	    'BEGIN { printf "%.1f %.1f\n", (bs > 0 ? as / bs : 0), (bk > 0 ? ak / bk : 0) }'
}

# goal LABEL CONDITION: prints "goal LABEL: met|NOT MET" and records misses.
missed=0
goal() {
	if awk "BEGIN { exit !($2) }"; then
		echo "  goal $1: met"
	else
		echo "  goal $1: NOT MET"
		missed=1
	fi
}

bench_exit() {
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	if [ "$missed" = 1 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then
		exit 3
	fi
	exit 0
}

# summary FILE OUT: profconv show -s of FILE into OUT, or die.
# field OUT WHAT: "samples" or "TYPE/UNIT" total from such a summary.
summary() {
	"$PROFCONV" show -s "$1" >"$2" 2>&1 || { cat "$2" >&2; die "profconv show -s $1 failed"; }
}
field() {
	case $2 in
	samples) sed -n 's/^samples: \([0-9]*\).*/\1/p' "$1" ;;
	*) sed -n "s|^total $2: \\([0-9]*\\).*|\\1|p" "$1" ;;
	esac
}

# je_to_gperftools IN OUT: IN (jemalloc heap_v2/1 text, lg_prof_sample:0,
# so values need no unbiasing) as gperftools heap-profiler text
# (/work/shared/docs/legacy-producers.md, section 1), as bench/legacy.sh
# rewrites its profiles: one `inuse_n: inuse_b [alloc_n: alloc_b] @ PCS`
# line per stack from its t*: line, libjemalloc's own leading frames cut
# off (tcmalloc strips its own), a header that sums the lines, then
# MAPPED_LIBRARIES as jemalloc wrote it.  Written to OUT.tmp, then renamed.
je_to_gperftools() {
	if [ -s "$2" ] && [ "$2" -nt "$1" ] && [ "$2" -nt "$benchdir/lib.sh" ]; then
		return 0
	fi
	perl -e '
	use strict;
	my ($in, $out) = @ARGV;
	my (@lines, @maps, @je, @sum, $pcs);
	open my $f, "<", $in or die "$in: $!\n";
	defined(my $first = <$f>) or die "$in: empty\n";
	$first =~ m{^heap_v2/1$} or die "$in: not a heap_v2/1 profile\n";
	while (<$f>) {
		if (/^MAPPED_LIBRARIES:/) {
			@maps = <$f>;
			last;
		}
		if (/^@ (.*)/) {
			$pcs = [ split / /, $1 ];
		} elsif ($pcs && /^  t\*: (\d+): (\d+) \[(\d+): (\d+)\]/) {
			push @lines, [ $1, $2, $3, $4, $pcs ];
			undef $pcs;
		}
	}
	close $f;
	for (@maps) {
		push @je, [ hex $1, hex $2 ]
		    if /^([0-9a-f]+)-([0-9a-f]+) \S*x\S* .*libjemalloc/;
	}
	@je or die "$in: no executable libjemalloc mapping\n";
	my $injem = sub {
		my $a = hex $_[0];
		$a >= $_->[0] && $a < $_->[1] and return 1 for @je;
		0;
	};
	my $body = "";
	for my $l (@lines) {
		my @p = @{$l->[4]};
		shift @p while @p && $injem->($p[0]);
		$sum[$_] += $l->[$_] for 0 .. 3;
		$body .= sprintf "%6d: %8d [%6d: %8d] @ %s\n", @$l[0 .. 3],
		    join(" ", @p);
	}
	open my $o, ">", "$out.tmp" or die "$out.tmp: $!\n";
	printf $o "heap profile: %6d: %8d [%6d: %8d] @ heapprofile\n",
	    map { $_ // 0 } @sum[0 .. 3];
	print $o $body, "\nMAPPED_LIBRARIES:\n", @maps;
	close $o or die "$out.tmp: $!\n";
	rename "$out.tmp", $out or die "$out: $!\n";
	' "$1" "$2" || die "cannot rewrite $1 as gperftools text ($2)"
}
