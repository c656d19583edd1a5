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
TCMALLOC=$(ldconfig -p 2>/dev/null | awk '$1 == "libtcmalloc.so.4" {print $NF; exit}')
[ -n "$TCMALLOC" ] || skip "no libtcmalloc.so.4 (gperftools heap profiler)"

# heap_profile NAME CMD...: run CMD under the heap profiler; print the file.
heap_profile() {
	name=$1
	shift
	HEAPPROFILE=$TMP/$name LD_PRELOAD=$TCMALLOC "$@" >/dev/null 2>&1
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
	"$PROFCONV" show "$1" | awk '
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

# compare PB LABEL TOOL BINARY [ORACLE-FILE]: every location of BINARY in
# PB has the frames TOOL (addr2line or llvm) gives for ORACLE-FILE
# (default BINARY); fails on any difference.
compare() {
	pb=$1 label=$2 tool=$3 bin=$4 ofile=${5:-$4}
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
	same=$(paste -d '\n' "$TMP/want" "$TMP/theirs" | awk -v t="$tool" '
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

# --- clang without split DWARF: llvm-symbolizer is the reference ----------
(cd "$TMP" && clang++ -O2 -g -o inl-clang2 inl.cc) || fail "clang++ failed"
prof=$(heap_profile h-inl-clang2 "$TMP/inl-clang2")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/inl-clang2.pb" "$prof"
compare "$TMP/inl-clang2.pb" "clang -O2" llvm "$TMP/inl-clang2"
agree "$TMP/inl-clang2.pb" "clang -O2" "$TMP/inl-clang2"
frames "$TMP/inl-clang2.pb" | grep -q 'inl::Pool<int>::make([^|]*|int\* inl::twice<int>(' ||
	fail "clang: no inline chain make < twice"
finish
