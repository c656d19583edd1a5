# SPDX-License-Identifier: MIT
# rust.sh - a Rust program profiled under tcmalloc: profflame names its
# functions, demangled as rustfilt shows them, root first.  Then Rust v0
# mangling (-C symbol-mangling-version=v0): every "_R" symbol of a
# program built here demangles exactly as GNU c++filt prints it (the
# oracle), and the program's heap profile names its functions so.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v rustc >/dev/null 2>&1 || skip "rustc not installed"
use_tcmalloc

rustc -g -O -o "$TMP/rsprog" "$PROFCONV_SRCDIR/tests/symbolize/rsprog.rs" \
	2>"$TMP/rustc.err" || { cat "$TMP/rustc.err" >&2; fail "rustc failed"; finish; }
HEAPPROFILE=$TMP/h LD_PRELOAD=$LIBTC "$TMP/rsprog" 2>/dev/null || fail "program failed"
heap=$TMP/h.0001.heap
[ -s "$heap" ] || { fail "no heap profile"; finish; }

run 0 "$CMD/profflame" -t inuse_space "$heap"
awk -f "$PROFCONV_SRCDIR/tests/cli/folded-check.awk" "$TMP/out" >/dev/null ||
	fail "malformed folded output"
grep -q ';rsprog::main;rsprog::keep_some;' "$TMP/out" || fail "keep_some not named"
grep -q ';rsprog::main;rsprog::make_buffers;' "$TMP/out" || fail "make_buffers not named"
grep -q '::h[0-9a-f]\{16\}' "$TMP/out" && fail "Rust hashes left in names"
grep -q '\$LT\$' "$TMP/out" && fail "Rust escapes left in names"
# Every frame of the program itself got a name.
run 0 "$PROFCONV" symbolize -o "$TMP/sym.pb.gz" "$heap"
grep -q 'symbolized' "$TMP/err" || fail "no summary line"

# --- Rust v0 names -----------------------------------------------------------
command -v c++filt >/dev/null 2>&1 || { fail "no c++filt (binutils)"; finish; }
demangle=$BIN/../tests/symbolize/demangle
[ -x "$demangle" ] || { fail "tests/symbolize/demangle not built"; finish; }
rustc -g -C symbol-mangling-version=v0 -o "$TMP/rsv0" \
    "$PROFCONV_SRCDIR/tests/symbolize/rsv0.rs" 2>"$TMP/rustc.err" ||
	{ cat "$TMP/rustc.err" >&2; fail "rustc (v0) failed"; finish; }
nm "$TMP/rsv0" | awk '$NF ~ /^_R/ {print $NF}' | sort -u >"$TMP/v0syms"
n=$(wc -l <"$TMP/v0syms")
[ "$n" -ge 200 ] || fail "only $n v0 symbols: not built with v0 mangling?"
c++filt <"$TMP/v0syms" >"$TMP/v0-cxxfilt"
"$demangle" <"$TMP/v0syms" >"$TMP/v0-ours"
if ! cmp -s "$TMP/v0-cxxfilt" "$TMP/v0-ours"; then
	paste -d '\n' "$TMP/v0syms" "$TMP/v0-cxxfilt" "$TMP/v0-ours" |
	    awk 'NR % 3 == 1 {s = $0} NR % 3 == 2 {c = $0}
		NR % 3 == 0 && c != $0 && bad++ < 5 {
		    print "  " s "\n  c++filt: " c "\n  ours:    " $0 }' >&2
	fail "v0: $(diff "$TMP/v0-cxxfilt" "$TMP/v0-ours" | grep -c '^<') of $n names differ from c++filt"
fi
puffer=$(printf 'gr\303\266\303\237e_puffer')
grep -q "$puffer" "$TMP/v0-ours" || fail "v0: the Punycode name was not decoded"
echo "v0: $n names compared with c++filt" >&2

# The heap profile: with --demangle=full each function named by a v0
# symbol shows exactly what c++filt prints for it; by default (pprof's
# simple names, lib/names/simplify.c) without crate hashes.
HEAPPROFILE=$TMP/v0h LD_PRELOAD=$LIBTC "$TMP/rsv0" >/dev/null 2>&1 || fail "v0 program failed"
v0heap=$TMP/v0h.0001.heap
[ -s "$v0heap" ] || { fail "no v0 heap profile"; finish; }
run 0 "$PROFCONV" symbolize --demangle=full --no-compress -o "$TMP/v0.pb" "$v0heap"
"$PROFCONV" show --demangle=full "$TMP/v0.pb" | sed -n 's/^ *[0-9]*: \(.*\) \[\(_R[0-9A-Za-z_.]*\)\] .*/\2\t\1/p' \
    >"$TMP/v0funcs"
[ "$(wc -l <"$TMP/v0funcs")" -ge 5 ] || fail "v0: too few functions named by v0 symbols"
cut -f 1 "$TMP/v0funcs" | c++filt >"$TMP/v0f-want"
cut -f 2 "$TMP/v0funcs" >"$TMP/v0f-got"
diff "$TMP/v0f-want" "$TMP/v0f-got" >&2 || fail "v0: profile names differ from c++filt's"
grep -q "^rsv0\[[0-9a-f]*\]::keep_in::<alloc\[[0-9a-f]*\]::vec::Vec<u8>>\$" "$TMP/v0f-got" ||
	fail "v0: keep_in::<Vec<u8>> not in the full names"
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/v0s.pb" "$v0heap"
"$PROFCONV" show "$TMP/v0s.pb" | sed -n 's/^ *[0-9]*: \(.*\) \[\(_R[0-9A-Za-z_.]*\)\] .*/\1/p' \
    >"$TMP/v0f-got"
grep -q '^rsv0::main$' "$TMP/v0f-got" || fail "v0: main not in the simple names"
grep -q '\[[0-9a-f]*\]' "$TMP/v0f-got" && fail "v0: crate hashes left in simple names"
grep -q "^rsv0::$puffer\$" "$TMP/v0f-got" || fail "v0: the Punycode function not in the profile"
# Generic arguments go in simple mode, turbofish and all.
grep -q '^rsv0::keep_in$' "$TMP/v0f-got" || fail "v0: keep_in::<...> not simplified to rsv0::keep_in"
grep -q '::<\|Vec<' "$TMP/v0f-got" && fail "v0: generic arguments left in simple names"
# rustc's line tables: our decoder (lib/symbolize/linetable.c) against libdw's.
linecheck=$BIN/../tests/symbolize/linecheck
[ -x "$linecheck" ] || fail "tests/symbolize/linecheck not built"
run 0 "$linecheck" "$TMP/rsprog" "$TMP/rsv0"
grep -q 'rsv0: [1-9][0-9]* rows$' "$TMP/out" || fail "linecheck: no rows of rsv0"
finish
