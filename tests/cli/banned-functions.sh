# SPDX-License-Identifier: MIT
# banned-functions.sh - unsafe C library calls stay out of the sources.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR" || exit 1
if grep -nE '\<(sprintf|vsprintf|strcpy|strcat|strtok|gets|atoi|atol|atof)[[:space:]]*\(' \
	lib/*.c lib/*.h cmd/*.c cmd/*.h >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "banned functions used"
fi
if grep -nE '\<(printf|fprintf|puts|exit|abort)[[:space:]]*\(' lib/*.c |
	grep -vE 'fprintf\(fp,|fputs\(|snprintf|vsnprintf' >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "the library prints or exits on its own"
fi
# The library leaves the process environment alone (threads, callers).
if grep -nE '\<(setenv|unsetenv|putenv|clearenv)[[:space:]]*\(' lib/*.c >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "the library changes the environment"
fi
finish
