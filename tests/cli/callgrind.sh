# SPDX-License-Identifier: MIT
# callgrind.sh - profgraph --callgrind against go tool pprof -callgrind on
# a real heap profile made now (issue #42), and callgrind_annotate reading
# it.
#
# tests/producers/alloc.c runs under jemalloc with named worker threads
# ("text2pb --threads": thread labels and size tags) and under tcmalloc's
# heap profiler; "profconv text2pb" and "profconv symbolize" make the pb.
# On it, profgraph --callgrind equals go tool pprof -callgrind byte for
# byte, for the default sample type and another.  callgrind_annotate (valgrind) reads it, and its total is
# show --summary's: pprof writes every call as "calls=0", which
# callgrind_annotate takes for a cost of the caller's own, so the check
# reads a copy with "calls=1" (the costs unchanged), of a sample type
# counted in objects (no unit to round values to).
# pprof's -call_tree (profgraph --call-tree, a node per calling context)
# is checked the same way, for callgrind and DOT, with cuts, and on a
# python3 run too; so is -trim_path.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
use_jemalloc
je_alloc_pb --threads

# --- byte for byte with go tool pprof -------------------------------------------
for t in "" alloc_objects; do
	go tool pprof -callgrind -symbolize=none ${t:+-sample_index=$t} "$PB" \
	    >"$TMP/go.cg" 2>"$TMP/go.err" ||
		{ fail "go tool pprof -callgrind $t: $(head -n 2 "$TMP/go.err")"; continue; }
	"$CMD/profgraph" --callgrind ${t:+-t $t} "$PB" >"$TMP/our.cg" 2>"$TMP/our.err" ||
		{ fail "profgraph --callgrind $t: $(head -n 2 "$TMP/our.err")"; continue; }
	grep -q '^calls=0 ' "$TMP/go.cg" || fail "-callgrind $t: pprof wrote no call"
	same_as_go "profgraph --callgrind $t" "$TMP/go.cg" "$TMP/our.cg"
	[ -n "$t" ] || cp "$TMP/our.cg" "$TMP/default.cg"
done

# Granularity and trimming options are pprof's callgrind's whatever they say.
run 0 "$CMD/profgraph" --callgrind --lines --no-inline --nodecount 2 "$PB"
cmp -s "$TMP/out" "$TMP/default.cg" ||
	fail "profgraph --callgrind --lines --no-inline --nodecount 2 differs from --callgrind"

# --- call trees ------------------------------------------------------------------
# call_trees PB WHAT: each case is pprof's options | ours | how to compare:
# "exact" byte for byte; "dot" or "callgrind" through tree-canon.py,
# because pprof orders the contexts that tie on all it sorts by in
# Go's map order, which changes from run to run (its own files of one
# profile differ), and that form leaves the order of ties out.
# same_tree HOW WHAT: $TMP/our.ct equals $TMP/go.ct, byte for byte
# (HOW exact) or through tree-canon.py HOW.
same_tree() {
	if [ "$1" = exact ]; then
		same_as_go "$2" "$TMP/go.ct" "$TMP/our.ct"
		return
	fi
	python3 "$PROFCONV_SRCDIR/tests/cli/tree-canon.py" "$1" "$TMP/go.ct" \
	    >"$TMP/go.canon" &&
	python3 "$PROFCONV_SRCDIR/tests/cli/tree-canon.py" "$1" "$TMP/our.ct" \
	    >"$TMP/our.canon" || { fail "$2: tree-canon.py $1"; return; }
	[ -s "$TMP/go.canon" ] || fail "$2: nothing to compare"
	same_as_go "$2" "$TMP/go.canon" "$TMP/our.canon"
}

call_trees() {
	while IFS='|' read -r gopts ours how; do
		# shellcheck disable=SC2086
		go tool pprof -symbolize=none $gopts "$1" >"$TMP/go.ct" 2>"$TMP/go.err" ||
			{ fail "$2: go tool pprof $gopts: $(head -n 2 "$TMP/go.err")"; continue; }
		# shellcheck disable=SC2086
		"$CMD/profgraph" $ours "$1" >"$TMP/our.ct" 2>"$TMP/our.err" ||
			{ fail "$2: profgraph $ours: $(head -n 2 "$TMP/our.err")"; continue; }
		same_tree "$how" "$2: profgraph $ours"
	done <<EOF_CASES
-callgrind -call_tree|--callgrind --call-tree|callgrind
-callgrind -call_tree -sample_index=alloc_objects|--callgrind --call-tree -t alloc_objects|callgrind
-dot -call_tree|--dot --call-tree|dot
-dot -call_tree -lines|--dot --call-tree --lines|dot
-dot -call_tree -nodefraction=0.2 -edgefraction=0.1|--dot --call-tree --nodefraction 0.2 --edgefraction 0.1|dot
-dot -call_tree -focus=thread_work -sample_index=alloc_space|--dot --call-tree --focus thread_work -t alloc_space|dot
-dot -lines -trim_path=$PROFCONV_SRCDIR|--dot --lines --trim-path $PROFCONV_SRCDIR|exact
EOF_CASES
}
call_trees "$PB" jemalloc
# A function called from two places is two nodes of the tree: the
# tree has more nodes than the graph, with a name on more than one.
run 0 "$CMD/profgraph" --dot --nodecount 0 --nodefraction 0 "$PB"
graph_nodes=$(grep -c '^N[0-9]* \[label=' "$TMP/out")
run 0 "$CMD/profgraph" --dot --call-tree --nodecount 0 --nodefraction 0 "$PB"
tree_nodes=$(grep -c '^N[0-9]* \[label=' "$TMP/out")
[ "$tree_nodes" -gt "$graph_nodes" ] ||
	fail "--call-tree: $tree_nodes nodes, the graph $graph_nodes"

# --- callgrind_annotate ----------------------------------------------------------
if command -v callgrind_annotate >/dev/null 2>&1; then
	run 0 "$CMD/profgraph" --callgrind -t alloc_objects -o "$TMP/cg.out" "$PB"
	grep -q '^events: alloc_objects(count)$' "$TMP/cg.out" ||
		fail "events line: $(sed -n 2p "$TMP/cg.out")"
	sed 's/^calls=0 /calls=1 /' "$TMP/cg.out" >"$TMP/cg.calls"
	callgrind_annotate "$TMP/cg.calls" >"$TMP/ann" 2>"$TMP/ann.err" ||
		fail "callgrind_annotate: $(head -n 2 "$TMP/ann.err")"
	ann=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$TMP/ann")
	run 0 "$PROFCONV" show --summary -t alloc_objects "$PB"
	total=$(awk '/^total alloc_objects/ { print $3 }' "$TMP/out")
	[ -n "$total" ] || fail "show --summary: no alloc_objects total"
	[ "$ann" = "$total" ] ||
		fail "callgrind_annotate's total is '$ann', show --summary's '$total'"
	grep -q 'thread_work' "$TMP/ann" || fail "callgrind_annotate shows no thread_work"
	# The call tree's file too: the same total.
	run 0 "$CMD/profgraph" --callgrind --call-tree -t alloc_objects -o "$TMP/ct.out" "$PB"
	sed 's/^calls=0 /calls=1 /' "$TMP/ct.out" >"$TMP/ct.calls"
	callgrind_annotate "$TMP/ct.calls" >"$TMP/ann" 2>"$TMP/ann.err" ||
		fail "callgrind_annotate (call tree): $(head -n 2 "$TMP/ann.err")"
	ann=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$TMP/ann")
	[ "$ann" = "$total" ] ||
		fail "callgrind_annotate's total of the call tree is '$ann', show --summary's '$total'"
else
	echo "note: callgrind_annotate not installed (Debian: valgrind): not read" >&2
fi

# --- tcmalloc's heap profiler ----------------------------------------------------
tc_alloc_pb
[ -z "$TC_PB" ] || call_trees "$TC_PB" tcmalloc

# --- a real program: python3, its call tree by address ---------------------------
# Thousands of contexts, many of them unnamed frames of the interpreter
# that tie: callgrind, which keeps every node and edge, as pprof's.
# One allocation in 32 KB sampled: at jemalloc's default, one in 512 KB,
# a run's few dozen samples made from 14 to 900 calls, and the check
# below failed about one run in six.
# Debian's interpreter where there is one: a python3 first in PATH may
# be a wrapper (pyenv's shims are shell scripts that start 40 processes).
py3=python3
[ -x /usr/bin/python3 ] && py3=/usr/bin/python3
if command -v "$py3" >/dev/null 2>&1; then
	"$PROFCONV" record --sample-rate 32K -o "$TMP/py" -- "$py3" -c '
def a(n): return [str(i) * 10 for i in range(n)]
def b(n): return a(n)
x = a(30000); y = b(30000); print(len(x) + len(y))' >"$TMP/py.out" 2>&1 ||
		fail "record python3: $(tail -n 2 "$TMP/py.out")"
	# The interpreter's own dump, the largest: what it starts leaves
	# dumps of a few samples each, and the first by name is one of
	# theirs when a child's process id sorts first (100012 before
	# 99995).
	py=$(ls -S "$TMP"/py/*.sym.pb.gz 2>/dev/null | head -n 1)
	if [ -z "$py" ]; then
		fail "record python3 left no symbolized dump"
	else
		go tool pprof -symbolize=none -callgrind -call_tree -sample_index=alloc_space \
		    "$py" >"$TMP/go.ct" 2>/dev/null || fail "python3: go tool pprof -callgrind -call_tree"
		"$CMD/profgraph" --callgrind --call-tree -t alloc_space "$py" >"$TMP/our.ct" 2>/dev/null ||
			fail "python3: profgraph --callgrind --call-tree"
		same_tree callgrind "python3: profgraph --callgrind --call-tree"
		[ "$(grep -c '^call ' "$TMP/our.canon")" -gt 100 ] ||
			fail "python3: fewer than 100 calls in the call tree"
	fi
fi

# --- errors ------------------------------------------------------------------------
run 2 "$CMD/profgraph" --callgrind --dot "$PB"
grep -qF -- "--callgrind and --dot exclude each other" "$TMP/err" ||
	fail "--callgrind --dot: $(head -n 1 "$TMP/err")"
finish
