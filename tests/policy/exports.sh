# SPDX-License-Identifier: MIT
# exports.sh - the shared library exports only profconv_[a-z]* names.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

so=$(ls "$BIN"/../lib/.libs/libprofconv.so.*.*.* 2>/dev/null | head -n 1)
[ -n "$so" ] || skip "no shared library built"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' >"$TMP/syms"
[ -s "$TMP/syms" ] || fail "no exported symbols"
if grep -v '^profconv_[a-z]' "$TMP/syms" >"$TMP/bad"; then
	cat "$TMP/bad" >&2
	fail "symbols outside profconv_[a-z]* are exported"
fi
grep -q '^profconv_profile_read$' "$TMP/syms" || fail "profconv_profile_read not exported"
finish
