# SPDX-License-Identifier: MIT
# man-examples.sh - the EXAMPLES of the section-3 man pages compile
# against lib/profconv.h with -Wall -Werror.  A fragment is compiled as the
# body of a function that has the variables pages assume (prof, base, cur,
# out, argc, argv); a block that defines its own functions ("..." marks
# where the fragment starts) is compiled at file scope.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip "no C compiler"
command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed"

n=0
for page in "$MANDIR"/*.3; do
	# Each literal display of EXAMPLES, as mandoc renders it to text
	# would lose the layout: take the source and undo the escapes.
	awk -v dir="$TMP" -v base="$(basename "$page" .3)" '
		/^\.Sh / { ex = ($2 == "EXAMPLES") }
		ex && /^\.Bd -literal/ { n++; f = dir "/" base "-" n ".txt"; inb = 1; next }
		inb && /^\.Ed/ { inb = 0; close(f); next }
		inb { gsub(/\\e/, "\\"); gsub(/\\&/, ""); print > f }
	' "$page"
done
for frag in "$TMP"/*.txt; do
	[ -e "$frag" ] || continue
	n=$((n + 1))
	src=${frag%.txt}.c
	{
		printf '%s\n' '#include <err.h>' '#include <stdint.h>' \
		    '#include <stdio.h>' '#include <stdlib.h>' \
		    '#include <profconv.h>'
		if grep -q '^main(void)' "$frag"; then
			grep -v '^#include' "$frag"
		else
			# File-scope part: everything before a "..." line.
			if grep -q '^\.\.\.$' "$frag"; then
				sed '/^\.\.\.$/,$d' "$frag"
			fi
			printf '%s\n' 'int example(int argc, char **argv,' \
			    '    struct profconv_profile *prof,' \
			    '    struct profconv_profile *base,' \
			    '    struct profconv_profile *cur, FILE *out);' \
			    'int example(int argc, char **argv,' \
			    '    struct profconv_profile *prof,' \
			    '    struct profconv_profile *base,' \
			    '    struct profconv_profile *cur, FILE *out)' '{' \
			    '(void)argc; (void)argv; (void)prof; (void)base;' \
			    '(void)cur; (void)out;'
			if grep -q '^\.\.\.$' "$frag"; then
				sed '1,/^\.\.\.$/d' "$frag"
			else
				cat "$frag"
			fi
			printf '%s\n' 'return 0;' '}'
		fi
	} >"$src"
	"$cc" -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
	    -I"$PROFCONV_SRCDIR/lib" -c -o "${src%.c}.o" "$src" 2>"$TMP/cc.err" ||
		{ fail "example $(basename "$frag" .txt) does not compile:"; \
		  cat "$TMP/cc.err" >&2; }
done
[ "$n" -ge 10 ] || fail "found only $n examples"
finish
