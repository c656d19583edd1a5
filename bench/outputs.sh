#!/bin/sh
# SPDX-License-Identifier: MIT
# outputs.sh - every command's output, in every format, on the test
# suite's profiles, written to a folder: run it on two builds and
# `diff -r` the folders to show that a change leaves every output
# byte for byte as it was (issues 41 and 43: "no output changes").
#
# usage: bench/outputs.sh BUILDDIR OUTDIR
#
# For each profile in tests/data/go/{mem,cpu}.pb.gz and
# tests/fuzz/corpus/read/* (valid or not: an error's text is an output
# too): show, show --summary, text2pb (pprof), profflame (folded, SVG,
# speedscope), profgraph (DOT), report (HTML), list; and profdiff,
# profflame --base, profgraph --base, merge, proftrend (text and SVG)
# and report of a series.  Each output is OUTDIR/NAME, its stderr and
# exit status OUTDIR/NAME.err.  Nothing is symbolized (the outputs do not
# depend on the binaries installed).  The commands run from the source
# tree's top, whose path some notes print, and the series lies in one
# fixed place, so two runs of one build give identical folders.
#
# Exit status: 0 written, 2 usage.
set -u
[ $# -eq 2 ] || { echo "usage: bench/outputs.sh BUILDDIR OUTDIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=$2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
B=$build/cmd/.libs
[ -x "$B/profconv" ] || B=$build/cmd
LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH LC_ALL=C
C=$top/tests/fuzz/corpus/read
G=$top/tests/data/go
S=${TMPDIR:-/tmp}/profconv-outputs-series
rm -rf "$out" "$S" && mkdir -p "$out" "$S" || exit 2
cp "$C/growth.heap" "$S/s.0001.heap"
cp "$C/tcmalloc-heapprofile.heap" "$S/s.0002.heap"
cp "$C/growth.heap" "$S/s.0003.heap"
cp "$C/tcmalloc-heapprofile.heap" "$S/s.0004.heap"
cd "$top" || exit 2
r() {
	name=$1
	shift
	"$@" >"$out/$name" 2>"$out/$name.err"
	echo "rc=$?" >>"$out/$name.err"
}
i=0
for p in "$G/mem.pb.gz" "$G/cpu.pb.gz" "$C"/*; do
	[ -f "$p" ] || continue
	i=$((i + 1))
	n=$i-$(basename "$p")
	r "$n.show" "$B/profconv" show --no-symbolize "$p"
	r "$n.sum" "$B/profconv" show --no-symbolize --summary "$p"
	r "$n.pb" "$B/profconv" text2pb "$p" -o /dev/stdout
	r "$n.folded" "$B/profflame" --no-symbolize "$p"
	r "$n.svg" "$B/profflame" --no-symbolize --svg "$p"
	r "$n.ss.json" "$B/profflame" --no-symbolize --speedscope "$p" -o /dev/stdout
	r "$n.dot" "$B/profgraph" --no-symbolize "$p"
	r "$n.html" "$B/profconv" report --no-symbolize -o /dev/stdout "$p"
	r "$n.list" "$B/profconv" list --no-symbolize . "$p"
done
r diff.txt "$B/profdiff" --no-symbolize "$C/growth.heap" "$C/tcmalloc-heapprofile.heap"
r diff.svg "$B/profflame" --no-symbolize --svg --base "$C/growth.heap" "$C/tcmalloc-heapprofile.heap"
r diffg.dot "$B/profgraph" --no-symbolize --base "$G/mem.pb.gz" "$G/mem.pb.gz"
r merge.pb "$B/profconv" merge "$C/growth.heap" "$C/tcmalloc-heapprofile.heap" -o /dev/stdout
r trend.txt "$B/proftrend" --no-symbolize "$S"/s.000*.heap
r trend.svg "$B/proftrend" --no-symbolize --svg "$S"/s.000*.heap
r report-series.html "$B/profconv" report --no-symbolize -o /dev/stdout "$S"/s.000*.heap
r report-base.html "$B/profconv" report --no-symbolize -o /dev/stdout --base "$C/growth.heap" "$C/tcmalloc-heapprofile.heap"
rm -rf "$S"
echo "$(ls "$out" | wc -l) files in $out"
