# SPDX-License-Identifier: MIT
# list-build-dir.sh - the build directory the DWARF names (DW_AT_comp_dir)
# is a source root for the files compiled in it: a C program built now in
# its own tree and profiled under tcmalloc, listed from another directory
# with no --source-path, shows its own source; what its DWARF names
# outside the build directory (an absolute /etc/passwd, a '..' out of it,
# a symbolic link in it pointing out) stays withheld; and a profile saved
# to a file keeps no build directory (pprof's format has none, and a
# profile's own claim would choose what is read), so from elsewhere its
# sources are withheld as before.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_tcmalloc
command -v cc >/dev/null 2>&1 || skip "no C compiler"
export LC_ALL=C
mkdir -p "$TMP/proj/src" "$TMP/else" "$TMP/away"
echo 'SECRET_OUTSIDE_TEXT' >"$TMP/proj/outside.c"
echo 'SECRET_LINKED_TEXT' >"$TMP/away/linked.c"
ln -s "$TMP/away/linked.c" "$TMP/proj/src/linked.c"
cat >"$TMP/proj/src/app.c" <<'C'
#include <stdlib.h>
#include <string.h>
static char *keep[4][4096];
__attribute__((noinline)) char *own_buffer(size_t n)
{
	char *p = malloc(n);
	memset(p, 'r', n);	/* OWN_SOURCE_TEXT */
	return p;
}
#line 1 "../outside.c"
__attribute__((noinline)) char *out_up(size_t n) { char *p = malloc(n); memset(p, 'o', n); return p; }
#line 1 "/etc/passwd"
__attribute__((noinline)) char *out_abs(size_t n) { char *p = malloc(n); memset(p, 'e', n); return p; }
#line 1 "linked.c"
__attribute__((noinline)) char *out_link(size_t n) { char *p = malloc(n); memset(p, 'l', n); return p; }
#line 30 "app.c"
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;

	for (int i = 0; i < n; i++) {
		keep[0][i % 4096] = own_buffer(1000);
		keep[1][i % 4096] = out_up(500);
		keep[2][i % 4096] = out_abs(300);
		keep[3][i % 4096] = out_link(200);
	}
	return keep[0][0][0] == 'x';
}
C
(cd "$TMP/proj/src" && cc -O1 -g -fno-omit-frame-pointer -o ../app app.c \
    -ltcmalloc) || skip "cannot build app.c with tcmalloc"
(cd "$TMP/else" && HEAPPROFILE=$TMP/else/h \
    "$TMP/proj/app" 20000 2>/dev/null) || fail "the program failed"
heap=$TMP/else/h.0001.heap
[ -s "$heap" ] || fail "no heap profile"

# From elsewhere, symbolized in this run: its own source is read from
# the build directory, what leaves it is not.
cd "$TMP/else" || exit 1
run 0 "$PROFCONV" list 'own_buffer' "$heap"
grep -q "^ROUTINE =* own_buffer in $TMP/proj/src/app.c\$" "$TMP/out" ||
	fail "own_buffer not listed from its file: $(grep ROUTINE "$TMP/out")"
grep -q 'OWN_SOURCE_TEXT' "$TMP/out" ||
	fail "the program's own source is not listed from elsewhere: $(grep Note "$TMP/out")"
grep -q 'Note: source withheld' "$TMP/out" && fail "own source withheld"
run 0 "$PROFCONV" list 'out_' "$heap"
for f in out_up out_abs out_link; do
	grep -q "^ROUTINE =* $f in " "$TMP/out" || fail "$f not listed"
done
grep -q 'SECRET_\|root:' "$TMP/out" &&
	fail "a file outside the build directory was read: $(grep -n 'SECRET_\|root:' "$TMP/out")"
[ "$(grep -c '^ Note: source withheld' "$TMP/out")" = 3 ] ||
	fail "not three notes of withheld sources: $(grep Note "$TMP/out")"
grep -q "^ Note: source withheld; tried /etc/passwd (outside the source roots)" "$TMP/out" ||
	fail "/etc/passwd: $(grep Note "$TMP/out")"
grep -q "^ Note: source withheld; .*$TMP/proj/outside.c (outside the source roots)" "$TMP/out" ||
	fail "../outside.c: $(grep Note "$TMP/out")"
grep -q "^ Note: source withheld; .*$TMP/proj/src/linked.c (a symbolic link or '..' leads out of its source root)" "$TMP/out" ||
	fail "linked.c: $(grep Note "$TMP/out")"

# The report's Source tab reads the same roots.
run 0 "$PROFCONV" report -o "$TMP/r.html" "$heap"
grep -q 'OWN_SOURCE_TEXT' "$TMP/r.html" ||
	fail "the report's Source tab does not show the program's source"
grep -q 'SECRET_\|root:x' "$TMP/r.html" && fail "the report read a file outside the roots"

# A saved profile has no build directory: withheld from elsewhere, read
# from the project's tree (the current directory is a root).
"$PROFCONV" symbolize -o "$TMP/app.pb.gz" "$heap" 2>"$TMP/sym.err" ||
	fail "symbolize: $(cat "$TMP/sym.err")"
run 0 "$PROFCONV" list 'own_buffer' "$TMP/app.pb.gz"
grep -q "^ Note: source withheld; tried $TMP/proj/src/app.c (outside the source roots)" "$TMP/out" ||
	fail "saved profile from elsewhere: $(grep Note "$TMP/out")"
grep -q 'OWN_SOURCE_TEXT' "$TMP/out" && fail "saved profile: a build directory came back from the file"
cd "$TMP/proj" || exit 1
run 0 "$PROFCONV" list 'own_buffer' "$TMP/app.pb.gz"
grep -q 'OWN_SOURCE_TEXT' "$TMP/out" || fail "saved profile: not read from its tree"

# The build directory gone: withheld, nothing else read.
cd "$TMP/else" || exit 1
mv "$TMP/proj/src" "$TMP/moved"
run 0 "$PROFCONV" list 'own_buffer' "$heap"
grep -q 'OWN_SOURCE_TEXT' "$TMP/out" && fail "read from a build directory that is gone"
finish
