# SPDX-License-Identifier: MIT
# man-lint.sh - every man page passes mandoc's linter at warning level.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed"
for page in "$MANDIR"/*.[0-9]; do
	mandoc -Tlint -Wwarning "$page" >&2 || fail "mandoc lint: $page"
done
finish
