# SPDX-License-Identifier: MIT
# layers.sh - every include line of the library names its layer, and each
# folder of lib/ includes only the folders lib/README.md lets it:
#
#   folder      may include (besides itself, profconv.h and config.h)
#   base        -
#   model       base
#   names       base, model/model.h
#   read        base, model (seams.h too)
#   pprof       base, model (seams.h too), read/readers.h, read/input.h
#   symbolize   base, model (seams.h too), names, read/input.h, read/maps.h
#   transform   base, model (seams.h too)
#   view        base, model/model.h, names
#   report      base, model/model.h, names, view, transform, write/write.h,
#               page
#   write       base, model/model.h, names, view
#   page        base
#
# model/seams.h, the door to changing the model, is thus open to read,
# pprof, symbolize and transform only.  elfutils' headers (libdw, libelf)
# are the symbolizer's alone, and lib/version.c's, which reports their
# version.  The check runs on the tree, then on a copy with forbidden
# includes put in, which it must refuse.
#
# Calls follow the same table: every profconv_ symbol a folder's objects
# use and do not define must be defined by the objects of a folder it may
# include.  One name crosses upward by design: read.c's table of formats
# names each reader, pprof's (profconv__reader_pprof) too, as libarchive
# registers its formats.  That check runs on the built objects, then on
# their symbol lists with a forbidden call put in.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# allowed FOLDER: the include targets FOLDER may name, as patterns.
allowed() {
	case $1 in
	base) echo 'base/*' ;;
	model) echo 'base/* model/*' ;;
	names) echo 'base/* model/model.h names/*' ;;
	read) echo 'base/* model/* read/*' ;;
	pprof) echo 'base/* model/* read/readers.h read/input.h pprof/*' ;;
	symbolize) echo 'base/* model/* names/* read/input.h read/maps.h' \
	    'symbolize/*' ;;
	transform) echo 'base/* model/* transform/*' ;;
	view) echo 'base/* model/model.h names/* view/*' ;;
	report) echo 'base/* model/model.h names/* view/* transform/*' \
	    'write/write.h page/* report/*' ;;
	write) echo 'base/* model/model.h names/* view/* write/*' ;;
	page) echo 'base/* page/*' ;;
	*) echo '' ;;
	esac
}

# check ROOT: one line per forbidden include under ROOT/lib (one awk over
# grep's lines: a process a line took a minute).
check() {
	root=$1
	[ "$(ls "$root"/lib/*/*.c | wc -l)" -gt 40 ] ||
		echo "no library sources under $root/lib"
	table=
	for d in "$root"/lib/*/; do
		d=${d%/}
		d=${d##*/}
		rules=$(allowed "$d")
		if [ -n "$rules" ]; then
			table="$table$d $rules
"
		else
			for f in "$root/lib/$d"/*.[ch]; do
				[ -e "$f" ] && echo "$f: folder '$d' has no rule"
			done
		fi
	done
	grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' \
	    "$root"/lib/*/*.[ch] /dev/null |
	awk -v root="$root/lib/" -v table="$table" '
	BEGIN {
		n = split(table, rows, "\n")
		for (i = 1; i <= n; i++)
			if (split(rows[i], w, " ") > 0)
				rules[w[1]] = substr(rows[i], length(w[1]) + 2)
	}
	{
		f = $0
		sub(/:.*/, "", f)
		rest = substr($0, length(f) + 2)
		ln = rest
		sub(/:.*/, "", ln)
		text = substr(rest, length(ln) + 2)
		folder = substr(f, length(root) + 1)
		sub(/\/.*/, "", folder)
		if (!(folder in rules))
			next
		target = text
		sub(/.*include[ \t]*["<]/, "", target)
		sub(/[">].*/, "", target)
		where = f ":" ln ": "
		if (index(text, "<")) {
			if (target ~ /^(elfutils\/|(libelf|gelf|dwarf|libdw|libdwfl)\.h$)/ &&
			    folder != "symbolize")
				print where target " is the symbolizer'"'"'s"
			next
		}
		if (target == "config.h" || target == "profconv.h")
			next
		if (index(target, "/") == 0) {
			print where "\"" target "\" names no layer"
			next
		}
		k = split(rules[folder], r, " ")
		ok = 0
		for (i = 1; i <= k && !ok; i++)
			if (r[i] ~ /\/\*$/) {
				if (index(target, substr(r[i], 1, length(r[i]) - 1)) == 1)
					ok = 1
			} else if (target == r[i])
				ok = 1
		if (!ok)
			print where folder "/ may not include " target
	}'
}

# Calls: symbols ROOT/FOLDER.u (used) and ROOT/FOLDER.d (defined), one
# per line, of each folder; one line per call the table forbids.
calls() {
	for folder in base model names read pprof symbolize transform view \
	    report write page; do
		: >"$1/ok"
		for rule in $(allowed "$folder"); do
			cat "$1/${rule%%/*}.d" >>"$1/ok"
		done
		sort -u "$1/ok" -o "$1/ok"
		sort -u "$1/$folder.u" | comm -23 - "$1/ok" |
		while IFS= read -r sym; do
			case $folder:$sym in read:profconv__reader_*) continue ;; esac
			echo "lib/$folder/ calls $sym"
		done
	done
}

cd "$PROFCONV_SRCDIR" || exit 1
# A file name says where it is: no basename is shared between cmd/ and
# lib/, nor between two folders of lib/.
dups=$( (ls cmd; find lib -name '*.[ch]' -exec basename {} \;) |
    grep '\.[ch]$' | sort | uniq -d)
[ -z "$dups" ] || fail "file names used twice in cmd/ and lib/: $dups"
check . >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	cat "$TMP/hits" >&2
	fail "includes across layers that lib/README.md forbids"
fi

# The same check must see forbidden includes: a view file that changes
# the model, a writer that reaches into the symbolizer, a reader that
# includes a header without its folder, libdw outside symbolize/, and
# the page layer reaching up into the report.
mkdir -p "$TMP/tree"
copy_sources "$TMP/tree" lib
printf '#include "model/seams.h"\n' >>"$TMP/tree/lib/view/rows.c"
printf '#include "symbolize/symbolize.h"\n' >>"$TMP/tree/lib/write/folded.c"
printf '#include "readers.h"\n' >>"$TMP/tree/lib/read/gocount.c"
printf '#include <elfutils/libdw.h>\n' >>"$TMP/tree/lib/names/simplify.c"
printf '#include "report/list.h"\n' >>"$TMP/tree/lib/page/page.c"
check "$TMP/tree" | sed "s|^$TMP/tree/|./|" | sort >"$TMP/all"
sort "$TMP/hits" | comm -23 "$TMP/all" - >"$TMP/bad"
for want in 'view/rows.c:.*view/ may not include model/seams.h' \
    'write/folded.c:.*write/ may not include symbolize/symbolize.h' \
    'read/gocount.c:.*"readers.h" names no layer' \
    'names/simplify.c:.*elfutils/libdw.h is the symbolizer'"'"'s' \
    'page/page.c:.*page/ may not include report/list.h'; do
	grep -q "$want" "$TMP/bad" || fail "the check missed: $want"
done
[ "$(wc -l <"$TMP/bad")" -eq 5 ] || { cat "$TMP/bad" >&2; fail "the check saw more than the five"; }

# Calls, on the objects the build made (both libtool's PIC objects and
# the static ones, when both are built).
objs=${PROFCONV_BINDIR:?}/../lib
mkdir -p "$TMP/syms"
for folder in base model names read pprof symbolize transform view report \
    write page; do
	[ -n "$(find "$objs/$folder" -name '*.o' 2>/dev/null)" ] ||
		{ fail "no objects under $objs/$folder (not built?)"; continue; }
	find "$objs/$folder" -name '*.o' -exec nm -u {} + |
	    awk '$1 == "U" && $2 ~ /^profconv_/ {print $2}' >"$TMP/syms/$folder.u"
	find "$objs/$folder" -name '*.o' -exec nm --defined-only {} + |
	    awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 ~ /^profconv_/ {print $3}' \
	    >"$TMP/syms/$folder.d"
done
[ "$(cat "$TMP/syms"/*.u | wc -l)" -gt 100 ] || fail "too few calls seen: $(cat "$TMP/syms"/*.u | wc -l)"
calls "$TMP/syms" >"$TMP/callhits"
if [ -s "$TMP/callhits" ]; then
	cat "$TMP/callhits" >&2
	fail "calls across layers that lib/README.md forbids"
fi
# It must see one: the view calling into the symbolizer.
grep -m1 . "$TMP/syms/symbolize.d" >"$TMP/one" || fail "symbolize/ defines nothing"
cat "$TMP/one" >>"$TMP/syms/view.u"
calls "$TMP/syms" >"$TMP/callhits"
[ "$(cat "$TMP/callhits")" = "lib/view/ calls $(cat "$TMP/one")" ] ||
	fail "the call check missed view/ calling $(cat "$TMP/one"): $(cat "$TMP/callhits")"
finish
