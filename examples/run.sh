#!/bin/sh
# examples/run.sh - the README quick start's main job, end to end: build
# examples/leaky.c, run it under tcmalloc's heap profiler, convert the heap
# profile to pprof, symbolize it, print its summary, and write its folded
# stacks, its flame graph (SVG) and a speedscope file with profflame, and
# its call graph (SVG, as pprof draws it) with profgraph; then the whole
# analysis in one HTML page each with profconv report: of the last dump
# (report.html), of the change from the first dump to the last
# (diff.html), and of the series of dumps (series.html).
#
# usage: examples/run.sh [BUILD-DIR]   (default: the current directory)
set -eu

src=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
bin=$build/cmd
out=$build/examples/out
[ -x "$bin/profconv" ] || { echo "run.sh: no $bin/profconv; build first" >&2; exit 1; }

mkdir -p "$out"
rm -f "$out"/leaky.*.heap
cc -O1 -g -fno-omit-frame-pointer -o "$out/leaky" "$src/leaky.c" -ltcmalloc

# tcmalloc's heap profiler writes <prefix>.NNNN.heap each time 200 kB
# more are in use, and one at exit: a series of dumps.
HEAPPROFILE=$out/leaky HEAP_PROFILE_INUSE_INTERVAL=200000 "$out/leaky" 20000 \
    2>"$out/leaky.stderr"
first=$(ls "$out"/leaky.*.heap | sort | head -n 1)
heap=$(ls "$out"/leaky.*.heap | sort | tail -n 1)

"$bin/profconv" text2pb "$heap" -o "$out/leaky.pb.gz"
"$bin/profconv" symbolize "$out/leaky.pb.gz" -o "$out/leaky.sym.pb.gz"
"$bin/profconv" show --summary --top 5 "$out/leaky.sym.pb.gz"
"$bin/profflame" -t inuse_space "$out/leaky.sym.pb.gz" >"$out/leaky.folded"
"$bin/profflame" --svg -t inuse_space --colors mem --title "leaky: in use" \
    "$out/leaky.sym.pb.gz" -o "$out/leaky.svg"
"$bin/profflame" --speedscope "$out/leaky.sym.pb.gz" -o "$out/leaky.speedscope.json"
# The call graph, drawn by Graphviz's library when profconv was built
# with it; DOT otherwise.
graph=$out/leaky-graph.svg
"$bin/profgraph" -t inuse_space "$out/leaky.sym.pb.gz" -o "$graph" 2>/dev/null || {
	graph=$out/leaky-graph.dot
	"$bin/profgraph" --dot -t inuse_space "$out/leaky.sym.pb.gz" -o "$graph"
}
# Every view in one page: of one profile, of a change, of a series.
"$bin/profconv" report --source-path "$src" --title "leaky: in use" \
    "$out/leaky.sym.pb.gz" -o "$out/report.html"
"$bin/profconv" report --source-path "$src" --title "leaky: what grew" \
    --base "$first" "$heap" -o "$out/diff.html"
"$bin/profconv" report --title "leaky: over time" "$out"/leaky.*.heap \
    -o "$out/series.html"

cat <<MSG

profconv: converted and symbolized $heap
  $out/leaky.sym.pb.gz     go tool pprof -top $out/leaky.sym.pb.gz
                               (or load it in speedscope, Pyroscope, Parca)
  $out/leaky.folded        folded stacks (flamegraph.pl, inferno)
  $out/leaky.svg           the flame graph: open it in a browser,
                               xdg-open $out/leaky.svg
                               or file://$out/leaky.svg
                               (click to zoom, Ctrl-F to search)
  $out/leaky.speedscope.json  drop it on https://www.speedscope.app
  $graph    the call graph, as pprof -web draws it
                               (drag to pan, wheel to zoom)
  $out/report.html       every view in one page: summary, top
                               table, flame graph, call graph, source
  $out/diff.html         the change from $(basename "$first"):
                               comparison table and the views as a diff
  $out/series.html       the $(ls "$out"/leaky.*.heap | wc -l) dumps over time and proftrend's verdicts
MSG
