#!/bin/bash
# SPDX-License-Identifier: MIT
# graph.sh - time `profgraph --dot` against `go tool pprof -dot` on the
# same symbolized jemalloc profile, and check that both write the same
# graph.
#
# usage: bench/graph.sh [BUILDDIR]
#
# The goal (issue 25): on the ~12.7 MB jemalloc profile (36k stacks,
# 2,048 functions), `profgraph --dot` is faster than `go tool pprof -dot`
# on the same pprof file, as a ratio in one run; memory reported.
#
# What it does:
#  1. Takes the jemalloc profile flame.sh and svg.sh use (made once by
#     bench/gen-je-heap.sh, cached in bench/out/je/; symbolized once with
#     `profconv symbolize`, cached in bench/out/flame/).
#  2. Times, interleaved, RUNS times each (/usr/bin/time: wall seconds,
#     peak RSS, user and system seconds; medians shown):
#       profgraph --dot SMALL.sym.pb.gz
#       go tool pprof -dot -hide=libjemalloc SMALL.sym.pb.gz (pprof's own
#         binary, not the go command): the same graph, since profconv's
#         view cuts the stripped allocator's frames and pprof is asked to
#         hide them
#       go tool pprof -dot SMALL.sym.pb.gz (plain, for reference)
#       profgraph --svg SMALL.sym.pb.gz (laid out and drawn in-process by
#         Graphviz's library; for reference: pprof needs the dot program)
#       profgraph --dot SMALL.heap (the legacy text, symbolized on the fly)
#       profgraph --dot --call-tree SMALL.sym.pb.gz, and go tool pprof -dot
#         -call_tree -hide=libjemalloc (issue 42: a node per calling
#         context)
#  3. Checks: the two DOTs agree node by node and edge by edge
#     (tests/cli/dot-compare.py), the two call trees once the order of
#     pprof's ties and its filter line are left out
#     (tests/cli/tree-canon.py); the SVG parses as XML.
#
# Environment:
#   RUNS=3          timed runs per tool (the median is reported)
#   SMALL_N=32000   call paths of the profile
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if the goal is not met
#
# Exit status: 0 done (goal met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, go (golang-go), python3, Debian libjemalloc2, GNU time.

set -euo pipefail
prog=graph.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
bench_go
[ -x "$PROFGRAPH" ] || die "$PROFGRAPH is not built"
command -v python3 >/dev/null 2>&1 || die "python3 not found"

SMALL_N=${SMALL_N:-32000}
case $SMALL_N in '' | *[!0-9]* | 0) die "SMALL_N must be a positive number" ;; esac

work=$out/flame
mkdir -p "$work" || die "cannot create $work"
small=$out/je/pair-$SMALL_N.f.heap
je_profile "$small" "$SMALL_N" 0 "$out/je/pair-$SMALL_N.m.heap"
pb=$work/$(basename "$small" .heap).sym.pb.gz
if [ ! -s "$pb" ] || [ "$small" -nt "$pb" ]; then
	note "symbolizing $small"
	"$PROFCONV" symbolize -o "$pb" "$small" 2>"$work/symbolize.err" ||
		{ cat "$work/symbolize.err" >&2; die "profconv symbolize $small failed"; }
fi
summary "$pb" "$scratch/small.s"
svg_ok=1
if "$PROFGRAPH" --svg "$scratch/no-such-file" 2>&1 | grep -q 'built without'; then
	svg_ok=0
fi

load_warning
echo "build:    $build"
echo "profile:  $small"
echo "          $(wc -c <"$small") bytes, $(field "$scratch/small.s" samples) stacks"
echo "          $pb ($(wc -c <"$pb") bytes, symbolized)"
echo "pprof:    $GOPPROF ($(go version | cut -d' ' -f3))"
echo "runs:     $RUNS per tool, interleaved; median shown"
echo "machine:  $cpus CPUs, load average $load at start"

rm -f "$work"/graph_*.times
i=1
while [ "$i" -le "$RUNS" ]; do
	note "run $i/$RUNS: profgraph --dot, pprof -dot (hide, plain), profgraph --svg, profgraph --dot of the text, call trees"
	timed graph_dot "$PROFGRAPH" --dot "$pb"
	timed graph_pprof "$GOPPROF" -dot -hide=libjemalloc "$pb"
	timed graph_pprof_plain "$GOPPROF" -dot "$pb"
	if [ "$svg_ok" = 1 ]; then
		timed graph_svg "$PROFGRAPH" --svg "$pb"
	fi
	timed graph_text "$PROFGRAPH" --dot "$small"
	timed graph_tree "$PROFGRAPH" --dot --call-tree "$pb"
	timed graph_pprof_tree "$GOPPROF" -dot -call_tree -hide=libjemalloc "$pb"
	i=$((i + 1))
done

note "checking the outputs"
python3 "$benchdir/../tests/cli/dot-compare.py" --ignore-filters \
    "$work/graph_pprof.out" "$work/graph_dot.out" >"$scratch/cmp" 2>&1 ||
	{ cat "$scratch/cmp" >&2; die "profgraph --dot and go tool pprof -dot differ"; }
for t in pprof_tree tree; do
	sed 's/\\lActive filters:\\l   hide=libjemalloc//' \
	    "$work/graph_$t.out" >"$scratch/$t.dot"
	python3 "$benchdir/../tests/cli/tree-canon.py" dot "$scratch/$t.dot" \
	    >"$scratch/$t.canon" || die "tree-canon.py $t"
done
cmp -s "$scratch/pprof_tree.canon" "$scratch/tree.canon" ||
	{ diff "$scratch/pprof_tree.canon" "$scratch/tree.canon" | head >&2
	  die "profgraph --dot --call-tree and go tool pprof -dot -call_tree differ"; }
if [ "$svg_ok" = 1 ]; then
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
	    "$work/graph_svg.out" || die "the SVG is not XML"
fi

echo
echo "call graph: $(head -n 1 "$scratch/cmp") (the same in both DOTs)"
report_head
report graph_dot "profgraph --dot SMALL.sym.pb.gz"
report graph_pprof "go tool pprof -dot -hide=libjemalloc"
report graph_pprof_plain "go tool pprof -dot"
if [ "$svg_ok" = 1 ]; then
	report graph_svg "profgraph --svg SMALL.sym.pb.gz"
fi
report graph_text "profgraph --dot SMALL.heap (symbolizes)"
report graph_tree "profgraph --dot --call-tree"
report graph_pprof_tree "go tool pprof -dot -call_tree -hide=..."
echo "  CPU seconds (user + system, median): profgraph --dot $(cpu graph_dot)," \
    "pprof $(cpu graph_pprof), pprof plain $(cpu graph_pprof_plain)"
read -r sp me <<<"$(ratio graph_pprof graph_dot)"
echo "  go tool pprof -dot takes ${sp}x profgraph --dot's time and ${me}x its memory"
goal "issue 25: profgraph --dot faster than go tool pprof -dot" "$sp > 1"
read -r tsp tme <<<"$(ratio graph_pprof_tree graph_tree)"
echo "  go tool pprof -dot -call_tree takes ${tsp}x profgraph --dot --call-tree's time and ${tme}x its memory"
bench_exit
