# SPDX-License-Identifier: MIT
# symbolize-dwarf.sh - debug info as real toolchains and distributions
# ship it: split DWARF (-gsplit-dwarf, .dwo files), dwz-compressed debug
# info (dwz -m: partial units, DW_FORM_GNU_ref_alt, a shared
# .gnu_debugaltlink file), clang's inline frames, and libc6-dbg's own
# debug file.  Every frame of every location of heap profiles made here
# is compared with llvm-symbolizer (the reference where it and GNU
# addr2line disagree: addr2line 2.40 drops clang's inline frames) and
# with addr2line where the two agree.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

SRC=$PROFCONV_SRCDIR/tests/symbolize
for tool in g++ readelf addr2line llvm-symbolizer; do
	command -v $tool >/dev/null 2>&1 || skip "no $tool"
done
use_tcmalloc

# heap_profile NAME CMD...: run CMD under the heap profiler; print the file.
heap_profile() {
	name=$1
	shift
	HEAPPROFILE=$TMP/$name LD_PRELOAD=$LIBTC "$@" >/dev/null 2>&1
	ls "$TMP/$name".*.heap 2>/dev/null | tail -n 1
}

# bias FILE START OFFSET: load bias from FILE's executable PT_LOAD.
bias() {
	set -- $(readelf -lW "$1" | awk '$1 == "LOAD" && / R E / {print $2, $3; exit}') "$2" "$3"
	echo $(($3 - $4 + $1 - $2))
}

# frames PB: "file address start offset frames" per location, frames as
# "name file:line|" innermost first.
frames() {
	"$PROFCONV" show --demangle=full "$1" | awk '
	/^locations:/ { sec = "l"; next }
	/^functions:/ { sec = "f"; next }
	/^mappings:/ { sec = "m"; next }
	sec == "l" && $1 ~ /^[0-9]+:$/ {
		cur = $1; order[++n] = cur; addr[cur] = $2
		map[cur] = substr($3, 3); next
	}
	sec == "l" && $1 ~ /^F=/ {
		pos = $NF; sub(/:[0-9]+$/, "", pos)
		sub(/:0$/, ":?", pos); sub(/^:/, "??:", pos)
		name = $2; for (i = 3; i < NF; i++) name = name " " $i
		fr[cur] = fr[cur] name " " pos "|"; next
	}
	sec == "m" && $1 ~ /^[0-9]+:$/ {
		id = substr($1, 1, length($1) - 1); split($2, a, "/")
		mstart[id] = a[1]; moff[id] = a[3]; mfile[id] = $3
	}
	END {
		for (i = 1; i <= n; i++) {
			c = order[i]; m = map[c]
			print mfile[m], addr[c], mstart[m], moff[m], fr[c]
		}
	}'
}

# compare PB LABEL TOOL BINARY [ORACLE-FILE [pos]]: every location of
# BINARY in PB has the frames TOOL (addr2line or llvm) gives for
# ORACLE-FILE (default BINARY); with "pos", only the frames' positions
# (file:line, innermost first) are compared, with "lines" only their
# line numbers.  Fails on any difference.
compare() {
	pb=$1 label=$2 tool=$3 bin=$4 ofile=${5:-$4} what=${6:-all}
	frames "$pb" | awk -v f="$bin" '$1 == f' >"$TMP/ours"
	[ -s "$TMP/ours" ] || { fail "$label: no locations in $bin"; return; }
	: >"$TMP/addrs"
	: >"$TMP/want"
	while read -r file addr start off rest; do
		b=$(bias "$file" "$start" "$off")
		printf '0x%x\n' $((addr - b)) >>"$TMP/addrs"
		printf '0x%x %s\n' $((addr - b)) "$rest" >>"$TMP/want"
	done <"$TMP/ours"
	if [ "$tool" = addr2line ]; then
		addr2line -a -f -i -C -e "$ofile" <"$TMP/addrs"
	else
		# Names through c++filt, as ours go through __cxa_demangle
		# (LLVM spells lambdas its own way).
		llvm-symbolizer --output-style=GNU -a -f -i --no-demangle \
		    -e "$ofile" <"$TMP/addrs" | c++filt
	fi | awk '
	/^0x[0-9a-f]+$/ {
		if (a != "") print a, f
		a = $1; sub(/^0x0*/, "0x", a); if (a == "0x") a = "0x0"
		f = ""; fn = ""; next
	}
	fn == "" { fn = $0; next }
	{ sub(/ \(discriminator [0-9]+\)$/, ""); sub(/:0$/, ":?")
	  f = f fn " " $0 "|"; fn = "" }
	END { if (a != "") print a, f }' >"$TMP/theirs"
	n=$(wc -l <"$TMP/want")
	same=$(paste -d '\n' "$TMP/want" "$TMP/theirs" | awk -v t="$tool" -v what="$what" '
	    # "addr name file:line|..." to "addr file:line|..."
	    function pos(l,    k, i, parts, w, out) {
		k = split(substr(l, index(l, " ") + 1), parts, "|")
		out = substr(l, 1, index(l, " "))
		for (i = 1; i < k; i++) {
			w = parts[i]; sub(/.* /, "", w); out = out w "|"
		}
		return out
	    }
	    what == "pos" { $0 = pos($0) }
	    what == "lines" { $0 = pos($0); gsub(/[^ |]*:/, ":") }
	    NR % 2 == 1 { w = $0; next }
	    { if (w == $0) s++; else if (bad++ < 3)
		print "  ours: " w "\n  " t ": " $0 >"/dev/stderr" }
	    END { print s + 0 }')
	echo "$label: $same of $n locations match $tool" >&2
	[ "$n" -gt 0 ] && [ "$same" -eq "$n" ] ||
		fail "$label: only $same of $n locations match $tool"
}

# agree PB LABEL BINARY: how many locations addr2line gets right too
# (information: where it differs, llvm-symbolizer is the reference).
agree() {
	frames "$1" | awk -v f="$3" '$1 == f' >"$TMP/ours"
	: >"$TMP/addrs"
	while read -r file addr start off rest; do
		printf '0x%x\n' $((addr - $(bias "$file" "$start" "$off"))) >>"$TMP/addrs"
	done <"$TMP/ours"
	addr2line -a -f -i -C -e "$3" <"$TMP/addrs" >"$TMP/a2l"
	llvm-symbolizer --output-style=GNU -a -f -i --no-demangle -e "$3" \
	    <"$TMP/addrs" | c++filt >"$TMP/llvm"
	if cmp -s "$TMP/a2l" "$TMP/llvm"; then
		echo "$2: addr2line and llvm-symbolizer agree" >&2
	else
		echo "$2: addr2line differs from llvm-symbolizer; following llvm-symbolizer" >&2
	fi
}

# --- split DWARF: .dwo files ---------------------------------------------
cp "$SRC/inl.cc" "$TMP/"
(cd "$TMP" && g++ -O2 -g -gsplit-dwarf -o inl-gcc inl.cc) || fail "g++ -gsplit-dwarf failed"
ls "$TMP"/*.dwo >/dev/null 2>&1 || fail "no .dwo file written"
readelf -SW "$TMP/inl-gcc" | grep -q '\.debug_info\.dwo' && fail "inl-gcc: not split"
prof=$(heap_profile h-inl-gcc "$TMP/inl-gcc")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/inl-gcc.pb" "$prof"
compare "$TMP/inl-gcc.pb" "gcc -gsplit-dwarf (.dwo)" llvm "$TMP/inl-gcc"
frames "$TMP/inl-gcc.pb" | grep -q 'inl::Pool<int>::make([^|]*|int\* inl::twice<int>(' ||
	fail "gcc .dwo: no inline chain make < twice"

(cd "$TMP" && clang++ -O2 -g -gsplit-dwarf -o inl-clang inl.cc) ||
	fail "clang++ -gsplit-dwarf failed"
prof=$(heap_profile h-inl-clang "$TMP/inl-clang")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/inl-clang.pb" "$prof"
compare "$TMP/inl-clang.pb" "clang -gsplit-dwarf (.dwo)" llvm "$TMP/inl-clang"
agree "$TMP/inl-clang.pb" "clang -gsplit-dwarf (.dwo)" "$TMP/inl-clang"

# --- split DWARF: .dwp packages --------------------------------------------
# llvm-dwp packs the .dwo files into BINARY.dwp (binutils' dwp 2.40
# cannot read DWARF 5); with the .dwo files gone, the chains come from
# the package, which libdw 0.188 cannot read by itself.
if command -v llvm-dwp >/dev/null 2>&1; then
	for cc in g++ clang++; do
		mkdir "$TMP/dwp-$cc"
		cp "$SRC/inl.cc" "$TMP/dwp-$cc/"
		(cd "$TMP/dwp-$cc" && $cc -O2 -g -gsplit-dwarf -o inl inl.cc &&
		    llvm-dwp -e inl -o inl.dwp && rm -f ./*.dwo) ||
			{ fail "$cc: cannot make a .dwp"; continue; }
		prof=$(heap_profile "h-dwp-$cc" "$TMP/dwp-$cc/inl")
		run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/dwp-$cc.pb" "$prof"
		compare "$TMP/dwp-$cc.pb" "$cc -gsplit-dwarf (.dwp)" llvm "$TMP/dwp-$cc/inl"
		frames "$TMP/dwp-$cc.pb" | grep -q 'inl::Pool<int>::make([^|]*|int\* inl::twice<int>(' ||
			fail "$cc .dwp: no inline chain make < twice"
	done
else
	fail "llvm-dwp missing (CI installs llvm)"
fi

# --- clang without split DWARF: llvm-symbolizer is the reference ----------
(cd "$TMP" && clang++ -O2 -g -o inl-clang2 inl.cc) || fail "clang++ failed"
prof=$(heap_profile h-inl-clang2 "$TMP/inl-clang2")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/inl-clang2.pb" "$prof"
compare "$TMP/inl-clang2.pb" "clang -O2" llvm "$TMP/inl-clang2"
agree "$TMP/inl-clang2.pb" "clang -O2" "$TMP/inl-clang2"
frames "$TMP/inl-clang2.pb" | grep -q 'inl::Pool<int>::make([^|]*|int\* inl::twice<int>(' ||
	fail "clang: no inline chain make < twice"

# --- dwz -m ------------------------------------------------------------------
# Two programs share their common DIEs in one file named by
# .gnu_debugaltlink; names and abstract origins then sit in partial units
# or in that file (DW_FORM_GNU_ref_alt, DW_FORM_GNU_strp_alt).  Function
# DIEs with code stay in each program's compile units (dwz never moves
# DIEs with addresses), so the walk still finds them all; libdw follows
# the alt references once libdwfl has the alt file, which the session's
# own finder supplies (by build id in the debug directories, else by the
# link's path).  The frames must not change.
if command -v dwz >/dev/null 2>&1; then
	(cd "$TMP" && g++ -O2 -g -o dz-a inl.cc && g++ -O1 -g -o dz-b inl.cc) ||
		fail "cannot build the dwz programs"
	pa=$(heap_profile h-dz-a "$TMP/dz-a")
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/dz0.pb" "$pa"
	frames "$TMP/dz0.pb" >"$TMP/dz0.frames"
	cp "$TMP/dz-a" "$TMP/dz-a.orig"
	(cd "$TMP" && dwz -m "$TMP/common.debug" -M "$TMP/common.debug" dz-a dz-b) ||
		fail "dwz -m failed"
	readelf -SW "$TMP/dz-a" | grep -q gnu_debugaltlink || fail "dwz: no .gnu_debugaltlink"
	readelf -wi "$TMP/dz-a" 2>/dev/null | grep -q 'abstract_origin: <alt' ||
		fail "dwz: no abstract origin moved to the alt file"
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/dz1.pb" "$pa"
	frames "$TMP/dz1.pb" >"$TMP/dz1.frames"
	diff "$TMP/dz0.frames" "$TMP/dz1.frames" >&2 ||
		fail "dwz (absolute alt link): frames differ from before dwz"
	# (addr2line 2.40 fails on this alt link: ask it about the original.)
	compare "$TMP/dz1.pb" "dwz -m" addr2line "$TMP/dz-a" "$TMP/dz-a.orig"
	# The alt file only under a debug directory's .build-id tree.
	altid=$(readelf -n "$TMP/common.debug" | awk '/Build ID/ {print $3}')
	mkdir -p "$TMP/dbg/.build-id/$(echo "$altid" | cut -c1-2)"
	mv "$TMP/common.debug" "$TMP/dbg/.build-id/$(echo "$altid" | cut -c1-2)/$(echo "$altid" | cut -c3-).debug"
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/dz2.pb" "$pa"
	frames "$TMP/dz2.pb" | grep -q 'inl::twice' &&
		fail "dwz: names found with the alt file moved away"
	run 0 "$PROFCONV" symbolize --debuginfo-path "$TMP/dbg" --no-compress \
	    -o "$TMP/dz3.pb" "$pa"
	frames "$TMP/dz3.pb" >"$TMP/dz3.frames"
	diff "$TMP/dz0.frames" "$TMP/dz3.frames" >&2 ||
		fail "dwz (alt file by build id): frames differ from before dwz"
	# The alt file compressed: read through its inflated image.
	alt="$TMP/dbg/.build-id/$(echo "$altid" | cut -c1-2)/$(echo "$altid" | cut -c3-).debug"
	objcopy --compress-debug-sections=zlib "$alt" "$TMP/alt.z" &&
	    mv "$TMP/alt.z" "$alt" || fail "cannot compress the alt file"
	readelf -SW "$alt" | grep -q '\.debug_info .* C ' ||
		fail "dwz: the alt file was not compressed"
	run 0 "$PROFCONV" symbolize --debuginfo-path "$TMP/dbg" --no-compress \
	    -o "$TMP/dz3z.pb" "$pa"
	cmp -s "$TMP/dz3.pb" "$TMP/dz3z.pb" ||
		fail "dwz (compressed alt file): output differs from the plain one's"
	# A relative link (dwz -r), resolved from the debug file's directory.
	mkdir -p "$TMP/rel/common"
	cp "$TMP/dz-a.orig" "$TMP/rel/dz-a"
	(cd "$TMP" && g++ -O1 -g -o rel/dz-b inl.cc && cd rel &&
	    dwz -m "$TMP/rel/common/c.debug" -r dz-a dz-b) || fail "dwz -r failed"
	readelf -p .gnu_debugaltlink "$TMP/rel/dz-a" 2>/dev/null | grep -q ' common/c\.debug' ||
		fail "dwz -r: no relative .gnu_debugaltlink"
	sed "s|$TMP/dz-a|$TMP/rel/dz-a|" "$pa" >"$TMP/rel.heap"
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/dz4.pb" "$TMP/rel.heap"
	frames "$TMP/dz4.pb" | sed "s|^$TMP/rel/|$TMP/|" >"$TMP/dz4.frames"
	diff "$TMP/dz0.frames" "$TMP/dz4.frames" >&2 ||
		fail "dwz (relative alt link): frames differ from before dwz"
	compare "$TMP/dz4.pb" "dwz -m -r" addr2line "$TMP/rel/dz-a"
else
	fail "dwz missing (CI installs it)"
fi

# --- libc6-dbg: a distribution's separate debug file ----------------------
# libc.so.6's debug info comes from /usr/lib/debug/.build-id/ (compressed
# sections); every libc frame of a real profile matches addr2line, which
# finds the same file by build id.
cat >"$TMP/uselibc.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void *volatile keep[4096];
int main(void)
{
	char *s;
	for (int i = 0; i < 4000; i++) {
		keep[i % 4096] = strdup("some text to copy");
		if (asprintf(&s, "%d %s", i, "formatted") > 0)
			keep[(i + 1) % 4096] = s;
		keep[(i + 2) % 4096] = strndup("abcdefghij", 5);
	}
	FILE *fp = fopen("/proc/self/maps", "r");
	keep[0] = fp;
	return 0;
}
C
libc=$(ldd /bin/true | awk '$1 == "libc.so.6" {print $3}')
id=$(readelf -n "$libc" | awk '/Build ID/ {print $3}')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
if [ ! -f "$dbg" ]; then
	fail "libc6-dbg missing for $libc (CI installs it)"
else
	gcc -O1 -o "$TMP/uselibc" "$TMP/uselibc.c" || fail "cannot build uselibc"
	prof=$(heap_profile h-libc "$TMP/uselibc")
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/libc.pb" "$prof"
	mapped=$(awk '/^MAPPED_LIBRARIES:/ {m = 1; next} m && / r-xp / && $NF ~ /libc\.so\.6$/ {print $NF; exit}' "$prof")
	[ -n "$mapped" ] || fail "libc: not mapped in the profile"
	# The tools name libc's functions three ways (DWARF's "__strdup",
	# llvm-symbolizer's "strdup", addr2line's symbol "__GI___strdup"),
	# and addr2line 2.40 puts one inlined line in the wrong file:
	# positions are compared, with llvm-symbolizer, on the debug file
	# and through the library's own build-id lookup.
	compare "$TMP/libc.pb" "libc6-dbg" llvm "$mapped" "$dbg" pos
	compare "$TMP/libc.pb" "libc6-dbg" llvm "$mapped" "$mapped" pos
	compare "$TMP/libc.pb" "libc6-dbg (lines)" addr2line "$mapped" "$mapped" lines
	frames "$TMP/libc.pb" | grep -q 'strdup' || fail "libc: no strdup frame"
fi

# --- our line-table decoder against libdw's, row by row --------------------
# (The symbolizer decodes line tables itself: lib/symbolize/linetable.c.)  Split DWARF
# skeletons, clang's DWARF 5, dwz'ed files, libc6-dbg's compressed debug
# file, the linker's and this test's own programs.
linecheck=$BIN/../tests/symbolize/linecheck
[ -x "$linecheck" ] || fail "tests/symbolize/linecheck not built"
files="$TMP/inl-gcc $TMP/inl-clang $TMP/inl-clang2"
[ -f "$TMP/rel/dz-a" ] && files="$files $TMP/dz-a $TMP/rel/dz-a $TMP/rel/dz-b"
for lib in /usr/lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6 \
    "$LIBTC"; do
	[ -f "$lib" ] && { files="$files $lib"; break; }
done
run 0 "$linecheck" $files "$LIBTC"
[ "$(grep -c ' rows$' "$TMP/out")" -ge 4 ] || fail "linecheck checked too few files"
finish
