# SPDX-License-Identifier: MIT
# profgraph.sh - profgraph --dot against go tool pprof -dot, node by node
# and edge by edge (tests/cli/dot-compare.py), on real profiles made now:
# a C++ program with class templates, members inlined into their callers,
# namespaces and an operator under tcmalloc (tests/producers/graph.cc,
# two runs: a differential pair), by function and by line, with sample
# types, without inline frames, with focus and ignore, without cutoffs;
# Go heap and CPU profiles (Go names, time units, the legend's time and
# duration); a jemalloc profile of a program with 2,048
# functions (bench/gen-je-heap.sh), more than 80 nodes, so pprof's cutoffs
# and node selection are exercised, also at 40,000 stacks, whose builds
# run on threads; string labels as nodelets.  Then names
# with quotes, backslashes, line breaks and 10 KB: the DOT parses and
# Graphviz's library draws it; pictures, usage errors, no partial output.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
# Graphviz's library keeps what it loads (see the file) from LeakSanitizer.
export LSAN_OPTIONS="suppressions=$PROFCONV_SRCDIR/tests/graphviz-lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
use_go
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
need_tcmalloc
export TZ=UTC
PROFGRAPH=$CMD/profgraph
CMP=$PROFCONV_SRCDIR/tests/cli/dot-compare.py

# same NAME "PPROF OPTIONS" "PROFGRAPH OPTIONS" PROFILE [--ignore-filters]:
# both DOTs of PROFILE agree; $TMP/NAME.counts has ours' counts.
same() {
	name=$1 popts=$2 ours=$3 in=$4
	shift 4
	# shellcheck disable=SC2086
	go tool pprof -dot $popts "$in" >"$TMP/$name.pprof.dot" 2>"$TMP/$name.perr" ||
		{ fail "$name: go tool pprof failed: $(cat "$TMP/$name.perr")"; return; }
	# shellcheck disable=SC2086
	"$PROFGRAPH" --dot $ours "$in" >"$TMP/$name.dot" 2>"$TMP/$name.err" ||
		{ fail "$name: profgraph failed: $(cat "$TMP/$name.err")"; return; }
	python3 "$CMP" "$@" "$TMP/$name.pprof.dot" "$TMP/$name.dot" \
	    >"$TMP/$name.counts" 2>"$TMP/$name.cmp" ||
		fail "$name: profgraph --dot $ours differs from go tool pprof -dot $popts: $(head -n 12 "$TMP/$name.cmp")"
}

# count NAME WHAT: a figure of NAME's counts (nodes, edges, nodelets,
# dotted, inline, n0).
count() {
	awk -v w="$2" '{ for (i = 1; i < NF; i++) if ($i == w) print $(i + 1) }' \
	    "$TMP/$1.counts"
}

# --- C++ under tcmalloc --------------------------------------------------------
g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/graph" \
    "$PROFCONV_SRCDIR/tests/producers/graph.cc" -ltcmalloc ||
	skip "cannot build tests/producers/graph.cc with tcmalloc"
for mode in 0 1; do
	HEAPPROFILE=$TMP/run$mode "$TMP/graph" 2000 $mode >/dev/null 2>&1 ||
		fail "producer run $mode failed"
	"$PROFCONV" symbolize -o "$TMP/tc$mode.pb.gz" "$TMP/run$mode.0001.heap" \
	    2>"$TMP/sym.err" || fail "symbolize run $mode: $(cat "$TMP/sym.err")"
done
TC=$TMP/tc1.pb.gz
same tc "" "" "$TC"
[ "$(count tc inline)" -ge 2 ] || fail "tc: no inline edges: $(cat "$TMP/tc.counts")"
[ "$(count tc nodelets)" -ge 1 ] || fail "tc: no nodelets"
[ "$(count tc nodes)" -ge 10 ] || fail "tc: too few nodes: $(cat "$TMP/tc.counts")"
# Templates and namespaces, shortened and split as pprof does.
for want in 'label="Buffer\nfill\n' 'label="Buffer\nadd_one\n' 'label="net\noperator+\n'; do
	grep -qF "$want" "$TMP/tc.dot" || fail "tc: no node $want"
done
grep -qF '\n (inline)"' "$TMP/tc.dot" || fail "tc: no (inline) edge label"
same tc-objects "-sample_index=inuse_objects" "-t inuse_objects" "$TC"
same tc-alloc "-sample_index=alloc_space" "-t alloc_space" "$TC"
same tc-lines "-lines" "--lines" "$TC"
grep -qF 'graph.cc:' "$TMP/tc-lines.dot" || fail "tc-lines: no file:line in labels"
same tc-noinline "-noinlines" "--no-inline" "$TC"
[ "$(count tc-noinline inline)" -eq 0 ] || fail "tc-noinline: inline edges left"
same tc-focus "-focus=serve" "--focus=serve" "$TC"
grep -qF 'Active filters:\l   focus=serve\l' "$TMP/tc-focus.dot" || fail "tc-focus: no filter in the legend"
same tc-ignore "-ignore=receive" "--ignore=receive" "$TC"
# Shares of what the filters keep (the legend's "of T total" too).
same tc-focus-rel "-focus=serve -relative_percentages" \
    "--focus=serve --relative-percentages" "$TC"
same tc-hide-rel "-hide=receive -relative_percentages" \
    "--hide=receive --relative-percentages" "$TC"
same tc-hide "-hide=receive" "--hide=receive" "$TC"
same tc-all "-nodecount=0 -nodefraction=0 -edgefraction=0" \
    "--nodecount 0 --nodefraction 0 --edgefraction 0" "$TC"
[ "$(count tc-all nodes)" -gt "$(count tc nodes)" ] ||
	fail "tc-all: no more nodes without cutoffs"

# The differential graph: signed values, percentages of the base.
same tc-diff "-diff_base=$TMP/tc0.pb.gz" "--base $TMP/tc0.pb.gz" "$TC"
grep -qF 'label=" -' "$TMP/tc-diff.dot" || fail "tc-diff: no negative edge"
grep -qE 'color="#[0-9a-f]{2}b2[0-9a-f]{2}"' "$TMP/tc-diff.dot" ||
	fail "tc-diff: nothing green"
same tc-diff-lines "-lines -diff_base=$TMP/tc0.pb.gz" "--lines --base $TMP/tc0.pb.gz" "$TC"

# --- jemalloc, more than 80 nodes ------------------------------------------------
libje=$(find_lib libjemalloc.so.2)
if [ -n "$libje" ] && command -v gcc >/dev/null 2>&1; then
	DEPTH=4 JEMALLOC=$libje je_heap "$TMP/je.heap" 3000 >"$TMP/gen.log" 2>&1 ||
		fail "gen-je-heap.sh: $(tail -n 3 "$TMP/gen.log")"
	"$PROFCONV" text2pb --threads --symbolize -o "$TMP/je.pb.gz" "$TMP/je.heap" \
	    2>"$TMP/sym.err" || fail "text2pb: $(cat "$TMP/sym.err")"
	# profconv cuts the stripped allocator's frames off (the view); pprof
	# is asked to hide them.
	JEP="-hide=libjemalloc"
	same je "$JEP" "" "$TMP/je.pb.gz" --ignore-filters
	grep -qE 'Showing top [0-9]+ nodes out of [0-9]+' "$TMP/je.dot" ||
		fail "je: no nodes trimmed: $(grep -o 'Showing[^\\]*' "$TMP/je.dot")"
	[ "$(count je nodes)" -ge 60 ] || fail "je: too few nodes: $(cat "$TMP/je.counts")"
	[ "$(count je dotted)" -ge 1 ] || fail "je: no residual edges"
	[ "$(count je nodelets)" -ge 1 ] || fail "je: no bytes nodelets"
	same je-alloc "$JEP -sample_index=alloc_space" "-t alloc_space" "$TMP/je.pb.gz" --ignore-filters
	same je-20 "$JEP -nodecount=20 -nodefraction=0.01 -edgefraction=0.01" \
	    "--nodecount 20 --nodefraction 0.01 --edgefraction 0.01" "$TMP/je.pb.gz" --ignore-filters
	same je-lines "$JEP -lines" "--lines" "$TMP/je.pb.gz" --ignore-filters
	# -tagshow and -taghide take label keys out of every sample: the
	# nodelets of the others only, and none of "bytes" when hidden.
	same je-tagshow "$JEP -tagshow=thread" "--tagshow thread" "$TMP/je.pb.gz" --ignore-filters
	same je-taghide "$JEP -taghide=bytes" "--taghide bytes" "$TMP/je.pb.gz" --ignore-filters
	[ "$(count je-taghide nodelets)" = 0 ] ||
		fail "je-taghide: bytes nodelets left: $(cat "$TMP/je-taghide.counts")"
	# 40,000 stacks: past the 32,768 samples a build splits among
	# threads (lib/view/graph_count.c), tags counted by class.
	DEPTH=6 JEMALLOC=$libje je_heap "$TMP/je-many.heap" 40000 \
	    >"$TMP/gen.log" 2>&1 ||
		fail "gen-je-heap.sh: $(tail -n 3 "$TMP/gen.log")"
	"$PROFCONV" text2pb --threads --symbolize -o "$TMP/je-many.pb.gz" \
	    "$TMP/je-many.heap" 2>"$TMP/sym.err" ||
		fail "text2pb: $(cat "$TMP/sym.err")"
	same je-many "$JEP" "--jobs 2" "$TMP/je-many.pb.gz" --ignore-filters
	same je-many-20 "$JEP -nodecount=20" "--nodecount 20 --jobs 3" \
	    "$TMP/je-many.pb.gz" --ignore-filters
	[ "$(count je-many nodelets)" -ge 1 ] ||
		fail "je-many: no bytes nodelets: $(cat "$TMP/je-many.counts")"
else
	echo "no libjemalloc.so.2 or gcc: jemalloc part left out" >&2
fi

# --- a Go heap profile: Go names shortened, its time in the legend -----------------
same go "" "" "$DATA/go/mem.pb.gz"
grep -qF 'label="gowork\nallocLarge\n' "$TMP/go.dot" || fail "go: names not shortened"
grep -qF '\lTime: ' "$TMP/go.dot" || fail "go: no time in the legend"
# A CPU profile: time units, the duration line, inline edges.
same go-cpu "" "" "$DATA/go/cpu.pb.gz"
grep -qF '\lDuration: ' "$TMP/go-cpu.dot" || fail "go-cpu: no duration in the legend"

# --- string labels as nodelets ------------------------------------------------------
hostile_names_pb "$TMP/labels.pb" alpha beta.gamma 'ns::Cls::method' delta
same labels "" "" "$TMP/labels.pb"
grep -qF 'label = "tag:alpha"' "$TMP/labels.dot" || fail "labels: no string nodelet"

# --- hostile names: the DOT parses, and Graphviz draws it ---------------------------
long=$(printf '%10240s' '' | tr ' ' L)
nl='new
line'
hostile_names_pb "$TMP/evil.pb" 'quo"te' 'back\slash' "$nl" "$long" '}"];digraph x {'
run 0 "$PROFGRAPH" --dot "$TMP/evil.pb"
python3 "$CMP" --check "$TMP/out" >"$TMP/evil.counts" 2>"$TMP/evil.cmp" ||
	fail "hostile: the DOT does not parse: $(cat "$TMP/evil.cmp")"
for want in 'quo\"te' 'back\\slash' 'new\lline' '}\"];digraph x {'; do
	grep -qF "$want" "$TMP/out" || fail "hostile: '$want' not escaped"
done
grep -q "LLLLLLLL" "$TMP/out" || fail "hostile: the long name is missing"

# --- errors ----------------------------------------------------------------------------
run 2 "$PROFGRAPH" --nodefraction 2 "$TC"
grep -qF "invalid --nodefraction value '2'" "$TMP/err" || fail "--nodefraction 2: $(cat "$TMP/err")"
run 2 "$PROFGRAPH" --dot --svg "$TC"
run 2 "$PROFGRAPH" --nodecount -1 "$TC"
run 1 "$PROFGRAPH" --dot -t nope "$TC" -o "$TMP/none.svg"
grep -qF "nope" "$TMP/err" || fail "-t nope: $(cat "$TMP/err")"
[ -e "$TMP/none.svg" ] && fail "a failed run left its output"
printf 'not a profile\n' >"$TMP/bad"
run 1 "$PROFGRAPH" --dot "$TMP/bad"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF "$TMP/bad" "$TMP/err" ||
	fail "bad input: $(cat "$TMP/err")"
# --- pictures -----------------------------------------------------------------------
# Built without Graphviz's library: a picture fails at once, one line.
if "$PROFGRAPH" --svg "$TMP/no-such-file" 2>&1 | grep -q 'built without'; then
	run 1 "$PROFGRAPH" "$TC" -o "$TMP/tc.svg"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF 'libgvc' "$TMP/err" ||
		fail "no libgvc: $(cat "$TMP/err")"
	[ -e "$TMP/tc.svg" ] && fail "no libgvc: an output file was left"
	echo "built without libgvc: pictures left out" >&2
	finish
fi
run 0 "$PROFGRAPH" "$TC" -o "$TMP/tc.svg"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/tc.svg" ||
	fail "the SVG is not XML"
nodes=$(($(count tc nodes) + $(count tc nodelets) + 1))
[ "$(grep -Ec 'class="node( [^"]*)?"' "$TMP/tc.svg")" -eq "$nodes" ] ||
	fail "the SVG has $(grep -Ec 'class="node( [^"]*)?"' "$TMP/tc.svg") nodes, the DOT $nodes"
grep -q '<script' "$TMP/tc.svg" || fail "the SVG has no pan/zoom script"
# Hostile names: Graphviz's library reads the DOT and draws them.
run 0 "$PROFGRAPH" --svg "$TMP/evil.pb" -o "$TMP/evil.svg"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/evil.svg" ||
	fail "hostile: the SVG is not XML"
[ "$(grep -c 'class="node"' "$TMP/evil.svg")" -ge 5 ] || fail "hostile: nodes missing in the SVG"
grep -qF 'quo&quot;te' "$TMP/evil.svg" || fail "hostile: the quoted name is not in the SVG"
run 0 "$PROFGRAPH" --png "$TC" -o "$TMP/tc.png"
[ "$(head -c 4 "$TMP/tc.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "--png: not a PNG"
run 0 "$PROFGRAPH" --pdf "$TC" -o "$TMP/tc.pdf"
[ "$(head -c 5 "$TMP/tc.pdf")" = '%PDF-' ] || fail "--pdf: not a PDF"

finish
