# SPDX-License-Identifier: MIT
# banned-functions.sh - unsafe C library calls stay out of the sources.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR" || exit 1
LIB_C=$(ls lib/*.c lib/*/*.c)
LIB_H=$(ls lib/*.h lib/*/*.h)
# The globs must see the library, or every check below passes on nothing.
[ "$(echo "$LIB_C" | wc -l)" -gt 40 ] || fail "no library sources under lib/"
if grep -nE '\<(sprintf|vsprintf|strcpy|strcat|strtok|gets|atoi|atol|atof)[[:space:]]*\(' \
	$LIB_C $LIB_H cmd/*.c cmd/*.h >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "banned functions used"
fi
if grep -nE '\<(printf|fprintf|puts|exit|abort)[[:space:]]*\(' $LIB_C |
	grep -vE 'fprintf\(fp,|fputs\(|snprintf|vsnprintf' >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "the library prints or exits on its own"
fi
# The library leaves the process environment alone (threads, callers).
if grep -nE '\<(setenv|unsetenv|putenv|clearenv)[[:space:]]*\(' $LIB_C >"$TMP/hits"; then
	cat "$TMP/hits" >&2
	fail "the library changes the environment"
fi
finish
