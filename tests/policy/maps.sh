# SPDX-License-Identifier: MIT
# maps.sh - the maps of the tree stay true (issue #41): lib/README.md
# names every source, style sheet, script and page skeleton of lib/
# (`NAME.c`), and cmd/README.md every file of cmd/ (the subcommands
# through `cmd_*.c`).  The check runs on the tree, then on a copy with a
# file added to each folder, which it must refuse.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# check ROOT: one line per file its map does not name.
check() {
	root=$1
	n=0
	for f in "$root"/lib/*.c "$root"/lib/*/*.c "$root"/lib/*/*.css \
	    "$root"/lib/*/*.js "$root"/lib/*/*.html; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		grep -q "\`\([a-z]*/\)\?$(basename "$f")\`" "$root/lib/README.md" ||
			echo "${f#"$root"/} is not in lib/README.md"
	done
	[ "$n" -gt 40 ] || echo "no library sources under $root/lib"
	for f in "$root"/cmd/*.[ch]; do
		b=$(basename "$f")
		case $b in cmd_*.c) b='cmd_\*.c' ;; esac
		grep -q "\`$b\`" "$root/cmd/README.md" ||
			echo "${f#"$root"/} is not in cmd/README.md"
	done
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "files the maps do not name (say what each holds)"
fi

mkdir -p "$TMP/copy"
cp -R "$PROFCONV_SRCDIR/lib" "$PROFCONV_SRCDIR/cmd" "$TMP/copy/"
echo '/* new */' >"$TMP/copy/lib/view/newfile.c"
echo 'var x = 1;' >"$TMP/copy/lib/page/new.js"
echo '/* new */' >"$TMP/copy/cmd/newtool.c"
check "$TMP/copy" | sort >"$TMP/copy.out"
printf '%s\n' "cmd/newtool.c is not in cmd/README.md" \
    "lib/page/new.js is not in lib/README.md" \
    "lib/view/newfile.c is not in lib/README.md" >"$TMP/want"
diff "$TMP/want" "$TMP/copy.out" >&2 || fail "the check does not see exactly the three new files"
finish
