# SPDX-License-Identifier: MIT
# alloc-frames.sh - the allocator frames profconv's view cuts, every reader
# of the pprof profconv writes cuts too.  examples/leaky.c runs now under
# LD_PRELOAD'ed libjemalloc (Debian's is stripped: its frames have no
# names) and under libtcmalloc; the dumps go through text2pb and
# symbolize, and `go tool pprof -top` on each file names the same
# functions with the same flat values as `profconv show -s` (frames
# without symbols compared as pprof names them, "[module]"), with no
# "[libjemalloc...]" row at the top; tcmalloc's sampled heap
# (tests/producers/tcmalloc.cc), whose stacks hold libtcmalloc's frames,
# too.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pprof-top-lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
use_some_allocator

PROG=$TMP/leaky
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" "$PROFCONV_SRCDIR/examples/leaky.c" ||
	skip "cannot build examples/leaky.c"

# check NAME [TOP TYPE...]: the dump $TMP/NAME.heap through text2pb and
# symbolize; TOP (make_request_buffer) must be a top function of the
# symbolized file for each sample TYPE (inuse_space inuse_objects).
check() {
	name=$1 top=${2:-make_request_buffer}
	shift $(($# > 1 ? 2 : 1))
	types=${*:-inuse_space inuse_objects}
	"$PROFCONV" text2pb "$TMP/$name.heap" -o "$TMP/$name.pb.gz" ||
		{ fail "$name: text2pb"; return; }
	"$PROFCONV" symbolize --quiet "$TMP/$name.pb.gz" -o "$TMP/$name.sym.pb.gz" \
	    2>/dev/null || { fail "$name: symbolize"; return; }
	for t in $types; do
		agree "$name symbolized $t" "$TMP/$name.sym.pb.gz" $t -symbolize=none --
		grep -q "^$top	" "$TMP/go.top" ||
			fail "$name $t: $top is no top function"
		agree "$name text2pb $t" "$TMP/$name.pb.gz" $t -symbolize=none -- --no-symbolize
	done
	# Written again (symbolize of a written file), drop_frames keeps one
	# copy of the allocator alternative.
	"$PROFCONV" symbolize --quiet "$TMP/$name.sym.pb.gz" -o "$TMP/$name.again.pb.gz" \
	    2>/dev/null || fail "$name: symbolize again"
	n=$("$PROFCONV" show "$TMP/$name.again.pb.gz" | grep '^drop frames:' |
		grep -o 'lib(jemalloc|tcmalloc|mimalloc)' | wc -l)
	[ "$n" -le 1 ] || fail "$name: the allocator alternative is in drop_frames $n times"
	for t in $types; do
		agree "$name written twice" "$TMP/$name.again.pb.gz" $t -symbolize=none --
		break
	done
}

if [ -n "$LIBJE" ]; then
	mkdir -p "$TMP/je"
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/je/je" \
	    "$PROG" 3000 || fail "leaky under jemalloc failed"
	cp "$(ls "$TMP"/je/je.*.heap | tail -n 1)" "$TMP/je.heap" 2>/dev/null ||
		fail "jemalloc wrote no dump"
	# The stripped library's frames are there to be cut.
	"$PROFCONV" show "$TMP/je.heap" | grep -q 'libjemalloc' ||
		fail "the jemalloc dump maps no libjemalloc"
	check je
	go tool pprof -raw -symbolize=none "$TMP/je.pb.gz" 2>/dev/null |
		grep -Eq 'libjemalloc[^ ]*\+0x[0-9a-f]+' ||
		fail "je: no named libjemalloc location in the written file"
fi
if [ -n "$LIBTC" ]; then
	LD_PRELOAD=$LIBTC HEAPPROFILE=$TMP/tc "$PROG" 3000 2>/dev/null ||
		fail "leaky under tcmalloc failed"
	cp "$(ls "$TMP"/tc.*.heap | tail -n 1)" "$TMP/tc.heap" 2>/dev/null ||
		fail "tcmalloc wrote no dump"
	check tc
fi
# tcmalloc's own sampled heap (MallocExtension::GetHeapSample), whose
# stacks hold libtcmalloc's frames, and the C++ library's allocators.
if [ -n "$LIBTC" ] && command -v g++ >/dev/null 2>&1 &&
    [ -e /usr/include/gperftools/malloc_extension.h ]; then
	g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/tcprog" \
	    "$PROFCONV_SRCDIR/tests/producers/tcmalloc.cc" -ltcmalloc -lpthread ||
		fail "cannot build tests/producers/tcmalloc.cc"
	TCMALLOC_SAMPLE_PARAMETER=65536 "$TMP/tcprog" "$TMP/tcs.heap" \
	    "$TMP/tcg.heap" 20000 2>/dev/null || fail "tcprog failed"
	grep -q 'libtcmalloc' "$TMP/tcs.heap" ||
		fail "tcmalloc's sample maps no libtcmalloc"
	check tcs alloc_large space objects
fi
finish
