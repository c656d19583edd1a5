# SPDX-License-Identifier: MIT
# bad-input.sh - unreadable input fails with one line naming the file.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 1 "$PROFCONV" show "$TMP/missing.pb"
expect_err "profconv show: cannot open '$TMP/missing.pb': No such file or directory"
run 1 "$PROFCONV" show "$TMP"
expect_err "profconv show: cannot read '$TMP': Is a directory"
: >"$TMP/empty"
run 1 "$PROFCONV" show "$TMP/empty"
expect_err "profconv show: '$TMP/empty': empty input"
head -c 100 "$DATA/go/mem.pb.gz" >"$TMP/cut.gz"
run 1 "$PROFCONV" show "$TMP/cut.gz"
grep -Eq "^profconv show: '$TMP/cut.gz': truncated gzip data at offset [0-9]+$" "$TMP/err" ||
	fail "truncated gzip not reported: $(cat "$TMP/err")"
printf 'hello world\n' >"$TMP/text"
run 1 "$PROFCONV" show "$TMP/text"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "error is not one line"
grep -q "^profconv show: '$TMP/text': " "$TMP/err" || fail "error does not name the file"
finish
