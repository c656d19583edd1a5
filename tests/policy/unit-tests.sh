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
# (issue #16) go through every reader; a profile's stacks given back
# (issue #43) by the model, the view and every writer that drops them,
# whose outputs must not change.
ACROSS="hostile stacks_given"

# check ROOT: one line per fault under ROOT (one awk reads the tests'
# first lines and Makefile.am: processes a file took half a minute).
check() {
	root=$1
	n=0
	for f in "$root"/lib/*.c "$root"/lib/*/*.c; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		name=${f##*/}
		name=${name%.c}
		t=tests/unit/test_$name.c
		[ -f "$root/$t" ] ||
			echo "${f#"$root"/} has no unit test $t"
	done
	[ "$n" -gt 40 ] || echo "no library sources under $root/lib"
	for t in "$root"/tests/unit/test_*.c; do
		name=${t##*/test_}
		name=${name%.c}
		found=
		for f in "$root"/lib/"$name".c "$root"/lib/*/"$name".c; do
			[ -f "$f" ] && found=$f
		done
		case " $ACROSS " in *" $name "*) found=$t ;; esac
		[ -n "$found" ] ||
			echo "${t#"$root"/} is named after no library file"
	done
	# Their first lines name them; Makefile.am lists them.
	for t in "$root"/tests/unit/test_*.c; do
		[ -f "$t" ] && printf '%s\n' "${t#"$root"/}"
	done |
	awk -v root="$root/" '
	BEGIN {
		while ((getline line <(root "Makefile.am")) > 0) {
			split(line, w, " ")
			if (w[1] == "UNIT_TESTS" && w[2] == "+=" && w[4] == "")
				listed[w[3]] = 1
		}
	}
	{
		rel = $0
		name = rel
		sub(/.*\//, "", name)
		named = 0
		for (i = 1; i <= 4 && (getline line <(root rel)) > 0; i++)
			if (index(line, name))
				named = 1
		close(root rel)
		if (!named)
			print rel ": its first comment does not name it"
		sub(/\.c$/, "", rel)
		if (!(rel in listed))
			print $0 " is not in UNIT_TESTS in Makefile.am"
	}'
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "library files and their unit tests disagree"
fi

# The check itself: a copy with a new library file and a test out of
# UNIT_TESTS.
mkdir -p "$TMP/copy/tests"
copy_sources "$TMP/copy" lib tests/unit
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
