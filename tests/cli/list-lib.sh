# SPDX-License-Identifier: MIT
# list-lib.sh - shared setup of the profconv list tests; sourced after
# lib.sh, never run.
#
# make_cache: heap profiles of tests/producers/cache.cc made now under
# tcmalloc's heap profiler and symbolized (inline frames included):
#   $CACHE0, $CACHE1   runs in MODE 0 and 1 (one line keeps more in 1)
# make_leaky DIR: examples/leaky.c copied to DIR/src and built there from
# its relative name (so the DWARF names it leaky.c in the compilation
# directory DIR/src), run from elsewhere, symbolized: $LEAKY.
# pprof_list ARGS...: go tool pprof with ARGS, its output in $TMP/pprof.
# no_inline_rows FILE: FILE without the inlined rows profconv list adds.
# Skips (77) without a compiler, tcmalloc or go.

need_pprof() {
	use_go
	export GOFLAGS=-mod=mod
}

make_cache() {
	need_tcmalloc
	command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
	g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/cache" \
	    "$PROFCONV_SRCDIR/tests/producers/cache.cc" -ltcmalloc ||
		skip "cannot build cache.cc with tcmalloc"
	mkdir -p "$TMP/heap"
	for m in 0 1; do
		HEAPPROFILE=$TMP/heap/c$m "$TMP/cache" 3000 $m 2>/dev/null ||
			fail "cache run $m failed"
		"$PROFCONV" symbolize -o "$TMP/cache$m.pb.gz" \
		    "$TMP/heap/c$m.0001.heap" 2>"$TMP/sym.err" ||
			fail "symbolize cache run $m: $(cat "$TMP/sym.err")"
	done
	CACHE0=$TMP/cache0.pb.gz
	CACHE1=$TMP/cache1.pb.gz
}

make_leaky() {
	need_tcmalloc
	command -v cc >/dev/null 2>&1 || skip "no C compiler"
	mkdir -p "$1/src" "$TMP/heap"
	cp "$PROFCONV_SRCDIR/examples/leaky.c" "$1/src/leaky.c"
	(cd "$1/src" && cc -O1 -g -fno-omit-frame-pointer -o ../leaky \
	    leaky.c -ltcmalloc) || skip "cannot build leaky.c with tcmalloc"
	(cd "$TMP/heap" && HEAPPROFILE=$TMP/heap/leaky "$1/leaky" 20000 \
	    2>/dev/null) || fail "leaky failed"
	"$PROFCONV" symbolize -o "$TMP/leaky.pb.gz" \
	    "$TMP/heap/leaky.0001.heap" 2>"$TMP/sym.err" ||
		fail "symbolize leaky: $(cat "$TMP/sym.err")"
	LEAKY=$TMP/leaky.pb.gz
}

# sample_types FILE: FILE's sample types, as profconv show names them.
sample_types() {
	"$PROFCONV" show -s "$1" | sed -n 's/^sample types: //p' |
	    tr ' ' '\n' | sed 's/\/.*//'
}

pprof_list() {
	go tool pprof "$@" >"$TMP/pprof" 2>"$TMP/pprof.err" ||
		fail "go tool pprof $*: $(head -3 "$TMP/pprof.err")"
}

no_inline_rows() {
	grep -v -E '^ *[^ ]+ +[^ ]+ +\+ ' "$1"
}

# same_as_pprof WHAT: $TMP/out (profconv list) is $TMP/pprof (go tool
# pprof) line for line, once profconv's inlined rows are left out; where
# neither finds a source, pprof's error line stands for profconv's note
# and the values it lists without text.
same_as_pprof() {
	no_inline_rows "$TMP/out" | awk '
	    /^ Note: source not found/ { print " (no source)"; skip = 1; next }
	    /^ROUTINE / || /^No source information/ { skip = 0 }
	    !skip' >"$TMP/out.noinl"
	sed 's/^ Error: could not find file .*/ (no source)/' "$TMP/pprof" \
	    >"$TMP/pprof.norm"
	diff -u "$TMP/pprof.norm" "$TMP/out.noinl" >&2 ||
		fail "$1: profconv list differs from go tool pprof -list"
	[ "$(grep -c ROUTINE "$TMP/pprof")" -gt 0 ] ||
		fail "$1: pprof listed no routine"
}
