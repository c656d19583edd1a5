# SPDX-License-Identifier: MIT
# api-docs.sh - every public function of lib/profconv.h is documented in a
# section-3 man page (named in its NAME section and in its SYNOPSIS), every
# function a page names exists, and every section-3 page is installed.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

header=$PROFCONV_SRCDIR/lib/profconv.h
# Declarations start at the beginning of a line with their return type;
# comments start with "/*" or " *", macros with "#".
grep -Eo '^[a-z][^(]*[ *]profconv_[a-z0-9_]+\(' "$header" |
	grep -Eo 'profconv_[a-z0-9_]+\($' | tr -d '(' | sort -u >"$TMP/public"
[ "$(wc -l <"$TMP/public")" -ge 70 ] ||
	fail "found only $(wc -l <"$TMP/public") functions in $header"

# NAME: ".Nm profconv_x ," lines; SYNOPSIS: ".Fn profconv_x" or ".Fo profconv_x".
for page in "$MANDIR"/*.3; do
	sed -n 's/^\.Nm \(profconv_[a-z0-9_]*\).*/\1/p' "$page"
done | sort >"$TMP/named"
for page in "$MANDIR"/*.3; do
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /s/^\.F[no] \(profconv_[a-z0-9_]*\).*/\1/p' "$page"
done | sort >"$TMP/synopsis"

while read -r fn; do
	grep -qx "$fn" "$TMP/named" ||
		fail "$fn (lib/profconv.h) is not in the NAME section of any man/*.3 page"
	grep -qx "$fn" "$TMP/synopsis" ||
		fail "$fn (lib/profconv.h) is not in the SYNOPSIS of any man/*.3 page"
done <"$TMP/public"
for fn in $(sort -u "$TMP/named" "$TMP/synopsis"); do
	grep -qx "$fn" "$TMP/public" ||
		fail "man/*.3 documents $fn, which lib/profconv.h does not declare"
done
dups=$(uniq -d "$TMP/named")
[ -z "$dups" ] || fail "named by more than one page: $dups"

# Every page is installed: listed in Makefile.am.
for page in "$MANDIR"/*.3; do
	grep -q "man/$(basename "$page")" "$PROFCONV_SRCDIR/Makefile.am" ||
		fail "$(basename "$page") is not installed (Makefile.am)"
done
finish
