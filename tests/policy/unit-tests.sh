# SPDX-License-Identifier: MIT
# unit-tests.sh - every library file has its unit test, named after it
# (issue #41): lib/FOLDER/NAME.c is tested by tests/unit/test_NAME.c,
# which says so in its first comment and is a line of UNIT_TESTS in
# Makefile.am, so that make check-unit runs it.  A unit test that is not
# named after a library file tests something across files and is listed
# in ACROSS with the reason.
# The check runs on the tree, then on a copy with a library file added
# and a test dropped from UNIT_TESTS, which it must refuse.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# Tests of a rule across files: the inputs built to cost time or memory
# (issue #16) go through every reader.
ACROSS="hostile"

listed() { # listed WORD LIST
	case " $(echo $2) " in *" $1 "*) return 0 ;; esac
	return 1
}

# check ROOT: one line per fault under ROOT.
check() {
	root=$1
	n=0
	for f in "$root"/lib/*.c "$root"/lib/*/*.c; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		name=$(basename "$f" .c)
		t=tests/unit/test_$name.c
		[ -f "$root/$t" ] ||
			echo "${f#"$root"/} has no unit test $t"
	done
	[ "$n" -gt 40 ] || echo "no library sources under $root/lib"
	for t in "$root"/tests/unit/test_*.c; do
		name=$(basename "$t" .c)
		name=${name#test_}
		rel=${t#"$root"/}
		found=
		for f in "$root"/lib/"$name".c "$root"/lib/*/"$name".c; do
			[ -f "$f" ] && found=$f
		done
		[ -n "$found" ] || listed "$name" "$ACROSS" ||
			echo "$rel is named after no library file"
		sed -n '1,4p' "$t" | grep -q "test_$name\.c" ||
			echo "$rel: its first comment does not name it"
		grep -q "^UNIT_TESTS += tests/unit/test_$name\$" "$root/Makefile.am" ||
			echo "$rel is not in UNIT_TESTS in Makefile.am"
	done
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "library files and their unit tests disagree"
fi

# The check itself: a copy with a new library file and a test out of
# UNIT_TESTS.
mkdir -p "$TMP/copy/tests"
cp -R "$PROFCONV_SRCDIR/lib" "$TMP/copy/"
cp -R "$PROFCONV_SRCDIR/tests/unit" "$TMP/copy/tests/"
grep -v '^UNIT_TESTS += tests/unit/test_strtab$' "$PROFCONV_SRCDIR/Makefile.am" \
    >"$TMP/copy/Makefile.am"
echo '/* new */' >"$TMP/copy/lib/view/newfile.c"
check "$TMP/copy" >"$TMP/copy.out"
grep -q '^lib/view/newfile.c has no unit test tests/unit/test_newfile.c$' "$TMP/copy.out" ||
	fail "a library file without a unit test is not refused"
grep -q '^tests/unit/test_strtab.c is not in UNIT_TESTS' "$TMP/copy.out" ||
	fail "a unit test left out of UNIT_TESTS is not refused"
[ "$(wc -l <"$TMP/copy.out")" -eq 2 ] || { cat "$TMP/copy.out" >&2; fail "the check saw more than the two"; }
finish
