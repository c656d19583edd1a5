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
	n=$(ls "$root"/lib/*.c "$root"/lib/*/*.c 2>/dev/null | wc -l)
	[ "$n" -gt 40 ] || echo "no library sources under $root/lib"
	# mapped README FILE...: each FILE whose name README gives nowhere
	# as `NAME` or `folder/NAME` (one awk for all: a grep a file took
	# a quarter of a minute).
	mapped "$root/lib/README.md" "$root"/lib/*.c "$root"/lib/*/*.c \
	    "$root"/lib/*/*.css "$root"/lib/*/*.js "$root"/lib/*/*.html
	mapped "$root/cmd/README.md" "$root"/cmd/*.[ch]
}

mapped() {
	readme=$1
	root=${readme%/*/README.md}
	shift
	for f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
	awk -v root="$root/" -v readme="$readme" '
	BEGIN {
		while ((getline line <readme) > 0)
			while (match(line, /`[^`]*`/)) {
				w = substr(line, RSTART + 1, RLENGTH - 2)
				line = substr(line, RSTART + RLENGTH)
				if (w ~ /^[a-z]*\/[^\/]*$/)
					sub(/^[a-z]*\//, "", w)
				named[w] = 1
			}
	}
	{
		b = $0
		sub(/.*\//, "", b)
		if (readme ~ /cmd\/README\.md$/ && b ~ /^cmd_.*\.c$/)
			b = "cmd_*.c"
		if (!(b in named))
			print substr($0, length(root) + 1) " is not in " \
			    substr(readme, length(root) + 1)
	}'
}

check "$PROFCONV_SRCDIR" >"$TMP/tree"
if [ -s "$TMP/tree" ]; then
	cat "$TMP/tree" >&2
	fail "files the maps do not name (say what each holds)"
fi

mkdir -p "$TMP/copy"
copy_sources "$TMP/copy" lib cmd
echo '/* new */' >"$TMP/copy/lib/view/newfile.c"
echo 'var x = 1;' >"$TMP/copy/lib/page/new.js"
echo '/* new */' >"$TMP/copy/cmd/newtool.c"
check "$TMP/copy" | sort >"$TMP/copy.out"
printf '%s\n' "cmd/newtool.c is not in cmd/README.md" \
    "lib/page/new.js is not in lib/README.md" \
    "lib/view/newfile.c is not in lib/README.md" >"$TMP/want"
diff "$TMP/want" "$TMP/copy.out" >&2 || fail "the check does not see exactly the three new files"
finish
