# SPDX-License-Identifier: MIT
# merge-jobs.sh - profconv merge and proftrend read their inputs on -j
# reader threads: on real heap dumps made now by tests/trend/patterns.c
# (a dump after each phase, under gperftools' heap profiler and under
# jemalloc), the merged profile is byte for byte the same for -j 1, 2, 3
# and 8, with more readers than inputs and fewer, and proftrend prints
# the same table; the merge adds up to what go tool pprof's own merge of
# the same files gives; helgrind finds no race; unreadable inputs among
# readable ones are each reported, whatever the thread count, and no
# output is written.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
TREND=$CMD/proftrend
src=$PROFCONV_SRCDIR/tests/trend/patterns.c
PHASES=12
inputs=()

if [ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so ] || ldconfig -p | grep -q libtcmalloc.so; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat-tc" "$src" \
		-Wl,--no-as-needed -ltcmalloc || fail "cannot build patterns with tcmalloc"
	HEAPPROFILE=$TMP/tc "$TMP/pat-tc" $PHASES 2>/dev/null ||
		fail "patterns under tcmalloc failed"
	inputs+=("$TMP"/tc.*.heap)
else
	echo "libtcmalloc not installed: gperftools dumps skipped" >&2
fi
je=$(find_lib libjemalloc.so.2)
if [ -n "$je" ]; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat-je" "$src" ||
		fail "cannot build patterns"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/je \
		"$TMP/pat-je" $PHASES 2>/dev/null || fail "patterns under jemalloc failed"
	# Compressed, as dumps are often kept.
	for f in "$TMP"/je.*.heap; do
		gzip -c "$f" >"$f.gz" || fail "cannot compress $f"
	done
	inputs+=("$TMP"/je.*.heap.gz)
else
	echo "libjemalloc not installed: jemalloc dumps skipped" >&2
fi
[ ${#inputs[@]} -ge 2 ] || skip "neither libtcmalloc nor libjemalloc installed"

# same_for_every_j WHAT OUTFILE CMD...: CMD with -j 1, 2, 3 and 8 writes
# OUTFILE (or stdout, when OUTFILE is -) byte for byte the same.
same_for_every_j() {
	what=$1 out=$2
	shift 2
	for j in 1 2 3 8; do
		if [ "$out" = - ]; then
			"$@" -j $j >"$TMP/j$j" 2>"$TMP/err"
		else
			"$@" -j $j -o "$TMP/j$j" 2>"$TMP/err"
		fi
		st=$?
		[ $st = 0 ] || [ $st = 1 ] && [ -s "$TMP/j$j" ] ||
			{ fail "$what -j $j: exit $st: $(cat "$TMP/err")"; return; }
		[ $j = 1 ] || cmp -s "$TMP/j1" "$TMP/j$j" ||
			fail "$what: -j $j differs from -j 1"
	done
}

# Every dump of both allocators at once, and a few (fewer than -j 8's
# readers), and one.
same_for_every_j "merge of ${#inputs[@]} dumps" "$TMP/m.pb.gz" \
    "$PROFCONV" merge "${inputs[@]}"
same_for_every_j "merge of 3 dumps" - "$PROFCONV" merge --no-compress \
    "${inputs[0]}" "${inputs[4]}" "${inputs[$((${#inputs[@]} - 1))]}"
same_for_every_j "merge of 1 dump" - "$PROFCONV" merge "${inputs[2]}"

# The merge is the sum: go tool pprof's own merge of the same dumps has
# the same sample count and totals.  go merges only profiles of the same
# sample types and cannot read jemalloc's text: it gets the gperftools
# dumps but the first (objects/space), and apart, the pprof conversions
# of the jemalloc ones.
# go_agrees WHAT OURS GOS: profconv merge -j 3 of the files listed in
# $TMP/OURS and go's merge of those in $TMP/GOS have the same totals.
go_agrees() {
	[ -s "$TMP/$2" ] || return 0
	run 0 "$PROFCONV" merge -j 3 -o "$TMP/ours.pb.gz" $(cat "$TMP/$2")
	go tool pprof -proto -symbolize=none -output "$TMP/go.pb.gz" \
	    $(cat "$TMP/$3") 2>"$TMP/go.err" ||
		{ fail "$1: go tool pprof cannot merge: $(cat "$TMP/go.err")"; return; }
	totals "$TMP/go.pb.gz" >"$TMP/go.t"
	grep -q '^samples: [1-9]' "$TMP/go.t" || fail "$1: go's merge has no samples"
	totals "$TMP/ours.pb.gz" | diff -u "$TMP/go.t" - >&2 ||
		fail "$1: the merge's totals differ from go tool pprof's merge"
}
totals() {
	"$PROFCONV" show -s "$1" | sed -n 's/^\(samples: [0-9]*\).*/\1/p; /^total /p'
}
if command -v go >/dev/null 2>&1; then
	go_env
	export GOFLAGS=
	: >"$TMP/tc.list"
	: >"$TMP/je.list"
	: >"$TMP/jepb.list"
	for f in "${inputs[@]}"; do
		case $f in
		*/tc.0001.heap) ;;
		*/tc.*) echo "$f" >>"$TMP/tc.list" ;;
		*)
			"$PROFCONV" text2pb -o "$f.pb.gz" "$f" || fail "text2pb $f"
			echo "$f" >>"$TMP/je.list"
			echo "$f.pb.gz" >>"$TMP/jepb.list" ;;
		esac
	done
	go_agrees gperftools tc.list tc.list
	go_agrees jemalloc je.list jepb.list
else
	echo "go not installed: no comparison with go tool pprof's merge" >&2
fi

# proftrend reads ahead through the same readers: the same table, for
# the dumps of one process (proftrend refuses two).
series=("${inputs[@]}")
[ -n "$je" ] && series=("$TMP"/je.*.heap.gz)
same_for_every_j "proftrend" - "$TREND" --bytes --no-symbolize "${series[@]}"

# No data races between the readers and the merging (or trending) thread
# (helgrind; not in the sanitizer build: valgrind cannot run ASan
# programs).
if nm "$BIN/.libs/profconv" "$BIN/../lib/.libs/libprofconv.so" 2>/dev/null |
    grep -q '__asan_init'; then
	echo "note: AddressSanitizer build; helgrind part left to the plain build" >&2
elif command -v valgrind >/dev/null 2>&1; then
	few=("${inputs[@]:1:5}")
	for cmd in "$BIN/.libs/profconv merge -o $TMP/hg.pb.gz" \
	    "$BIN/.libs/proftrend --no-symbolize"; do
		LD_LIBRARY_PATH=$BIN/../lib/.libs valgrind --tool=helgrind \
		    --error-exitcode=9 -q \
		    --suppressions="$PROFCONV_SRCDIR/tests/symbolize/helgrind.supp" \
		    $cmd -j 3 "${few[@]}" "$TMP/missing.heap" >"$TMP/out" 2>"$TMP/hg"
		st=$?	# the missing input: 1 (merge) or 2 (proftrend)
		[ $st = 1 ] || [ $st = 2 ] && ! grep -q '^==[0-9]*==' "$TMP/hg" ||
			{ head -n 60 "$TMP/hg" >&2; fail "helgrind: ${cmd%% *} -j 3: races (or the run failed)"; }
	done
else
	fail "valgrind missing (CI installs it)"
fi

# Unreadable inputs among readable ones: each is named, the exit status
# is 1, and nothing is written, whatever the thread count.
printf 'not a profile\n' >"$TMP/bad1.heap"
for j in 1 2 8; do
	run 1 "$PROFCONV" merge -j $j -o "$TMP/none.pb.gz" "${inputs[0]}" \
	    "$TMP/bad1.heap" "${inputs[1]}" "$TMP/missing.heap" "${inputs[2]}"
	[ -e "$TMP/none.pb.gz" ] && fail "-j $j: an output was written after an error"
	[ "$(wc -l <"$TMP/err")" = 2 ] &&
	    grep -q "'$TMP/bad1.heap'" "$TMP/err" &&
	    grep -q "cannot open '$TMP/missing.heap'" "$TMP/err" ||
		fail "-j $j: not one line for each bad input: $(cat "$TMP/err")"
done
finish
