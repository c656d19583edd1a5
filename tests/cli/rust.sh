# SPDX-License-Identifier: MIT
# rust.sh - a Rust program profiled under tcmalloc: profflame names its
# functions, demangled as rustfilt shows them, root first.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v rustc >/dev/null 2>&1 || skip "rustc not installed"
tc=$(ldconfig -p | sed -n 's/.*libtcmalloc.so.4 .*=> //p' | head -n 1)
[ -n "$tc" ] || skip "libtcmalloc not installed"

rustc -g -O -o "$TMP/rsprog" "$PROFCONV_SRCDIR/tests/symbolize/rsprog.rs" \
	2>"$TMP/rustc.err" || { cat "$TMP/rustc.err" >&2; fail "rustc failed"; finish; }
HEAPPROFILE=$TMP/h LD_PRELOAD=$tc "$TMP/rsprog" 2>/dev/null || fail "program failed"
heap=$TMP/h.0001.heap
[ -s "$heap" ] || { fail "no heap profile"; finish; }

run 0 "$BIN/profflame" -t inuse_space "$heap"
awk -f "$PROFCONV_SRCDIR/tests/cli/folded-check.awk" "$TMP/out" >/dev/null ||
	fail "malformed folded output"
grep -q ';rsprog::main;rsprog::keep_some;' "$TMP/out" || fail "keep_some not named"
grep -q ';rsprog::main;rsprog::make_buffers;' "$TMP/out" || fail "make_buffers not named"
grep -q '::h[0-9a-f]\{16\}' "$TMP/out" && fail "Rust hashes left in names"
grep -q '\$LT\$' "$TMP/out" && fail "Rust escapes left in names"
# Every frame of the program itself got a name.
run 0 "$PROFCONV" symbolize -o "$TMP/sym.pb.gz" "$heap"
grep -q 'symbolized' "$TMP/err" || fail "no summary line"
finish
