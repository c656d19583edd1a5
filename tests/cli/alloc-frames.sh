# SPDX-License-Identifier: MIT
# alloc-frames.sh - the allocator frames profconv's view cuts, every reader
# of the pprof profconv writes cuts too.  examples/leaky.c runs now under
# LD_PRELOAD'ed libjemalloc (Debian's is stripped: its frames have no
# names) and under libtcmalloc; the dumps go through text2pb and
# symbolize, and `go tool pprof -top` on each file names the same
# functions with the same flat values as `profconv show -s` (frames
# without symbols compared as pprof names them, "[module]"), with no
# "[libjemalloc...]" row at the top.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pprof-top-lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v go >/dev/null 2>&1 || skip "go not installed (Debian: golang-go)"
LIBJE=$(find_lib libjemalloc.so.2)
LIBTC=$(find_lib libtcmalloc.so.4)
[ -n "$LIBJE" ] || [ -n "$LIBTC" ] || skip "neither libjemalloc.so.2 nor libtcmalloc.so.4 found"
export HOME="$TMP" GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GOTOOLCHAIN=local

PROG=$TMP/leaky
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" "$PROFCONV_SRCDIR/examples/leaky.c" ||
	skip "cannot build examples/leaky.c"

# check NAME: the dumps in $TMP/NAME.heap, through text2pb and symbolize.
check() {
	"$PROFCONV" text2pb "$TMP/$1.heap" -o "$TMP/$1.pb.gz" ||
		{ fail "$1: text2pb"; return; }
	"$PROFCONV" symbolize --quiet "$TMP/$1.pb.gz" -o "$TMP/$1.sym.pb.gz" \
	    2>/dev/null || { fail "$1: symbolize"; return; }
	for t in inuse_space inuse_objects; do
		agree "$1 symbolized $t" "$TMP/$1.sym.pb.gz" $t -symbolize=none --
		grep -q '^make_request_buffer	' "$TMP/go.top" ||
			fail "$1 $t: make_request_buffer is no top function"
		agree "$1 text2pb $t" "$TMP/$1.pb.gz" $t -symbolize=none -- --no-symbolize
	done
	# Written again (symbolize of a written file), drop_frames keeps one
	# copy of the allocator alternative.
	"$PROFCONV" symbolize --quiet "$TMP/$1.sym.pb.gz" -o "$TMP/$1.again.pb.gz" \
	    2>/dev/null || fail "$1: symbolize again"
	n=$("$PROFCONV" show "$TMP/$1.again.pb.gz" | grep '^drop frames:' |
		grep -o 'lib(jemalloc|tcmalloc|mimalloc)' | wc -l)
	[ "$n" -le 1 ] || fail "$1: the allocator alternative is in drop_frames $n times"
	agree "$1 written twice" "$TMP/$1.again.pb.gz" inuse_space -symbolize=none --
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
finish
