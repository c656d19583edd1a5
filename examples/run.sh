#!/bin/sh
# examples/run.sh - the README quick start's main job: build examples/leaky.c,
# run it under tcmalloc's heap profiler, convert the heap profile to pprof
# with profconv and print its summary.
#
# usage: examples/run.sh [BUILD-DIR]   (default: the current directory)
set -eu

src=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
profconv=$build/cmd/profconv
out=$build/examples/out
[ -x "$profconv" ] || { echo "run.sh: no $profconv; build first" >&2; exit 1; }

mkdir -p "$out"
rm -f "$out"/leaky.*.heap
cc -O1 -g -fno-omit-frame-pointer -o "$out/leaky" "$src/leaky.c" -ltcmalloc

# tcmalloc's heap profiler writes <prefix>.0001.heap ... and a final dump.
HEAPPROFILE=$out/leaky HEAP_PROFILE_ALLOCATION_INTERVAL=1048576 \
	"$out/leaky" 20000 2>"$out/leaky.stderr"
heap=$(ls "$out"/leaky.*.heap | sort | tail -n 1)

"$profconv" text2pb "$heap" -o "$out/leaky.pb.gz"
"$profconv" show --summary --top 5 "$out/leaky.pb.gz"

cat <<MSG

profconv: converted $heap
  -> $out/leaky.pb.gz
Open it with:  go tool pprof -top $out/leaky.pb.gz
MSG
