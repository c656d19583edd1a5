#!/bin/sh
# examples/run.sh - the README quick start's main job, end to end: build
# examples/leaky.c, run it under tcmalloc's heap profiler, convert the heap
# profile to pprof, symbolize it, print its summary, and write its folded
# stacks, its flame graph (SVG) and a speedscope file with profflame, and
# its call graph (SVG, as pprof draws it) with profgraph.
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

# tcmalloc's heap profiler writes <prefix>.0001.heap at exit.
HEAPPROFILE=$out/leaky "$out/leaky" 20000 2>"$out/leaky.stderr"
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
MSG
