# SPDX-License-Identifier: MIT
# symbolize.sh - symbolize real tcmalloc heap profiles of programs built
# here (gcc -O2/-O0, clang -O2, a stripped binary with a .debug file, a
# shared library) and check every frame against binutils addr2line; then
# --pid, --maps, --sysroot, --search-path and build-id refusal.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

SRC=$PROFCONV_SRCDIR/tests/symbolize
command -v gcc >/dev/null 2>&1 || skip "no gcc"
command -v addr2line >/dev/null 2>&1 || skip "no binutils addr2line"
command -v readelf >/dev/null 2>&1 || skip "no readelf"
use_tcmalloc

# heap_profile NAME CMD...: run CMD under the heap profiler; print the file.
heap_profile() {
	name=$1
	shift
	HEAPPROFILE=$TMP/$name LD_PRELOAD=$LIBTC "$@" >/dev/null 2>&1
	ls "$TMP/$name".*.heap 2>/dev/null | tail -n 1
}

# bias FILE START OFFSET: load bias from FILE's executable PT_LOAD
# (shell arithmetic: mawk has no 64-bit integers).
bias() {
	set -- $(readelf -lW "$1" | awk '$1 == "LOAD" && / R E / {print $2, $3; exit}') "$2" "$3"
	echo $(($3 - $4 + $1 - $2))
}

# frames PB: one line per location, "file address start offset frames",
# frames as "name file:line|" innermost first.
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
		# Unknown parts the way addr2line prints them.
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

# oracle FILE ADDRS-FILE: addr2line's frames for file addresses, same form.
oracle() {
	addr2line -a -f -i -e "$1" <"$2" | awk '
	/^0x[0-9a-f]+$/ { if (a != "") print a, f; a = $1; f = ""; fn = ""; next }
	fn == "" { fn = $0; next }
	{ sub(/ \(discriminator [0-9]+\)$/, ""); sub(/:0$/, ":?")
	  f = f fn " " $0 "|"; fn = "" }
	END { if (a != "") print a, f }'
}

# compare PB LABEL FILE...: every location in FILEs matches addr2line;
# FILE=ORACLE asks addr2line about ORACLE instead (a stripped FILE).
compare() {
	pb=$1
	label=$2
	shift 2
	frames "$pb" >"$TMP/frames"
	total=0
	good=0
	for spec in "$@"; do
		bin=${spec%%=*}
		awk -v f="$bin" '$1 == f' "$TMP/frames" >"$TMP/ours"
		[ -s "$TMP/ours" ] || { fail "$label: no locations in $bin"; continue; }
		: >"$TMP/addrs"
		: >"$TMP/want"
		while read -r file addr start off rest; do
			b=$(bias "$file" "$start" "$off")
			printf '0x%016x\n' $((addr - b)) >>"$TMP/addrs"
			printf '0x%016x %s\n' $((addr - b)) "$rest" >>"$TMP/want"
		done <"$TMP/ours"
		oracle "${spec#*=}" "$TMP/addrs" >"$TMP/theirs"
		n=$(wc -l <"$TMP/want")
		same=$(paste -d '\n' "$TMP/want" "$TMP/theirs" | awk '
		    NR % 2 == 1 { w = $0; next }
		    { if (w == $0) s++; else if (bad++ < 5)
			print "  ours:  " w "\n  addr2line: " $0 >"/dev/stderr" }
		    END { print s + 0 }')
		total=$((total + n))
		good=$((good + same))
	done
	echo "$label: $good of $total locations match addr2line" >&2
	[ "$total" -gt 0 ] && [ $((good * 100)) -ge $((total * 99)) ] ||
		fail "$label: only $good of $total locations match addr2line"
}

gcc -O2 -g -fPIC -shared -o "$TMP/libsym.so" "$SRC/libsym.c" ||
	fail "cannot build libsym.so"

# build NAME COMPILER FLAGS...: the program, linked with libsym.so.
build() {
	name=$1
	shift
	"$@" -o "$TMP/$name" "$SRC/prog.c" -L"$TMP" -lsym \
	    -Wl,-rpath,"$TMP" || fail "cannot build $name"
}

# symbolize_and_compare NAME: profile, symbolize, compare with addr2line.
symbolize_and_compare() {
	prof=$(heap_profile "h-$1" "$TMP/$1")
	[ -n "$prof" ] || { fail "$1: no heap profile written"; return; }
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/$1.pb" "$prof"
	grep -Eq '^profconv symbolize: symbolized [0-9]+ of [0-9]+ locations' \
	    "$TMP/err" || fail "$1: no summary line"
	compare "$TMP/$1.pb" "$1" "$TMP/$1" "$TMP/libsym.so"
}

build gcc-O2 gcc -O2 -g
symbolize_and_compare gcc-O2
build gcc-O0 gcc -O0 -g
symbolize_and_compare gcc-O0
if command -v clang >/dev/null 2>&1; then
	# No .debug_aranges: libdw 0.188 alone would find no DWARF at all.
	build clang-O2 clang -O2 -g
	readelf -SW "$TMP/clang-O2" | grep -q debug_aranges &&
		echo "note: clang emitted .debug_aranges" >&2
	symbolize_and_compare clang-O2
fi

# Debug info compressed in the binary itself (gcc -gz): read through an
# inflated image as a separate debug file is; every frame still matches
# addr2line, and the image is really made.
build gcc-gz gcc -O2 -g -gz=zlib
readelf -SW "$TMP/gcc-gz" | grep -q '\.debug_info .* C ' ||
	fail "gcc -gz did not compress the debug info"
symbolize_and_compare gcc-gz
# (LeakSanitizer cannot work under ptrace: no leak check under strace.)
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=memfd_create -o "$TMP/strace" "$PROFCONV" \
	    symbolize --no-compress -o "$TMP/gz2.pb" "$prof" 2>/dev/null
	grep -q 'memfd_create("profconv-debuginfo"' "$TMP/strace" ||
		fail "gcc -gz: no inflated image was made"
	cmp -s "$TMP/gcc-gz.pb" "$TMP/gz2.pb" || fail "gcc -gz: output differs under strace"
fi

# Inline chains are there: some location has a leaf_alloc frame inside gNN.
frames "$TMP/gcc-O2.pb" | grep -Eq 'leaf_alloc [^|]*prog\.c:[0-9]+\|(mid_alloc [^|]*\|)?g[0-9]+ ' ||
	fail "no inlined leaf_alloc frame under a gNN caller"

# A stripped binary with its debug info in a separate .debug file.
cp "$TMP/gcc-O2" "$TMP/stripped"
objcopy --only-keep-debug "$TMP/stripped" "$TMP/stripped.debug"
objcopy --strip-debug --add-gnu-debuglink="$TMP/stripped.debug" "$TMP/stripped"
readelf -SW "$TMP/stripped" | grep -q '\.debug_info' && fail "not stripped"
prof=$(heap_profile h-stripped "$TMP/stripped")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/stripped.pb" "$prof"
# addr2line reads the unstripped twin; the addresses are the same.
compare "$TMP/stripped.pb" stripped "$TMP/stripped=$TMP/gcc-O2"

# The .debug file compressed, as distributions ship them: symbolize hands
# libdw an image of it with the DWARF inflated ahead (symbolize/debug_inflate.c), and
# the output is the plain file's, byte for byte.
cp "$TMP/stripped.debug" "$TMP/plain.debug"
objcopy --compress-debug-sections=zlib "$TMP/plain.debug" "$TMP/stripped.debug"
readelf -SW "$TMP/stripped.debug" | grep -q '\.debug_info .* C ' ||
	fail "objcopy did not compress the .debug file"
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/stripped-z.pb" "$prof"
cmp -s "$TMP/stripped.pb" "$TMP/stripped-z.pb" ||
	fail "compressed .debug: output differs from the plain file's"
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=memfd_create -o "$TMP/strace" "$PROFCONV" \
	    symbolize --no-compress -o "$TMP/stripped-z2.pb" "$prof" 2>/dev/null
	grep -q 'memfd_create("profconv-debuginfo"' "$TMP/strace" ||
		fail "compressed .debug: no inflated image was made"
	cmp -s "$TMP/stripped.pb" "$TMP/stripped-z2.pb" ||
		fail "compressed .debug: output differs under strace"
else
	fail "strace missing (CI installs it)"
fi
# Under a file size limit smaller than the image (the output goes to a
# pipe): no memfd to grow past it (SIGXFSZ), the file is read as it is.
(ulimit -f 1; exec "$PROFCONV" symbolize --no-compress -o - "$prof") \
    2>"$TMP/err" | cat >"$TMP/stripped-z3.pb"
[ "${PIPESTATUS[0]}" = 0 ] || { cat "$TMP/err" >&2; fail "compressed .debug under ulimit -f: failed"; }
cmp -s "$TMP/stripped.pb" "$TMP/stripped-z3.pb" ||
	fail "compressed .debug under ulimit -f: output differs"
cp "$TMP/plain.debug" "$TMP/stripped.debug"

# No debuglink at all: NAME.debug next to the binary, as libdwfl guesses,
# taken only because its build id is the binary's.
cp "$TMP/gcc-O2" "$TMP/nolink"
objcopy --only-keep-debug "$TMP/nolink" "$TMP/nolink.debug"
strip --strip-debug "$TMP/nolink"
nolink=$(heap_profile h-nolink "$TMP/nolink")
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/nolink.pb" "$nolink"
compare "$TMP/nolink.pb" nolink "$TMP/nolink=$TMP/gcc-O2"

# The debug file elsewhere: only --debuginfo-path finds it.
mkdir -p "$TMP/dbg"
mv "$TMP/stripped.debug" "$TMP/dbg/"
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/s2.pb" "$prof"
frames "$TMP/s2.pb" | grep -q 'leaf_alloc' &&
	fail "stripped: found debug info that was moved away"
run 0 "$PROFCONV" symbolize --debuginfo-path "$TMP/dbg" --no-compress \
    -o "$TMP/s3.pb" "$prof"
frames "$TMP/s3.pb" | grep -q 'leaf_alloc' ||
	fail "stripped: --debuginfo-path did not find the .debug file"

# --sysroot: the binary moved under a root directory.
base=$(heap_profile h-base "$TMP/gcc-O2")
mkdir -p "$TMP/root$TMP"
cp "$TMP/gcc-O2" "$TMP/libsym.so" "$TMP/root$TMP/"
mv "$TMP/gcc-O2" "$TMP/gcc-O2.moved"
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/r0.pb" "$base"
grep -q 'binary not found' "$TMP/err" || fail "missing binary not reported"
run 0 "$PROFCONV" symbolize --sysroot "$TMP/root" --no-compress \
    -o "$TMP/r1.pb" "$base"
frames "$TMP/r1.pb" | grep -q "^$TMP/gcc-O2 .*g[0-9]* $SRC/prog.c" ||
	fail "--sysroot: the relocated binary was not used"
# --search-path: found by base name in a directory.
mkdir -p "$TMP/bins"
cp "$TMP/gcc-O2.moved" "$TMP/bins/gcc-O2"
run 0 "$PROFCONV" symbolize --search-path "$TMP/nowhere:$TMP/bins" \
    --no-compress -o "$TMP/r2.pb" "$base"
frames "$TMP/r2.pb" | grep -q "^$TMP/gcc-O2 .*g[0-9]* $SRC/prog.c" ||
	fail "--search-path: the binary was not found by base name"
mv "$TMP/gcc-O2.moved" "$TMP/gcc-O2"

# --pid and --maps: a profile without mappings and the live process.
"$TMP/gcc-O2" sleep >"$TMP/ready" &
pid=$!
i=0
while [ ! -s "$TMP/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cp "/proc/$pid/maps" "$TMP/maps"
# The same addresses as the live process: take them from its maps.
awk '/^MAPPED_LIBRARIES:/ {exit} {print}' "$base" >"$TMP/nomaps.heap"
# Rebase every address of the old run onto the live process's mapping.
old=$(awk '/^MAPPED_LIBRARIES:/ {m=1; next} m && / r-xp / && $NF ~ /gcc-O2$/ {print $1; exit}' "$base")
new=$(awk '/ r-xp / && $NF ~ /gcc-O2$/ {print $1; exit}' "$TMP/maps")
old=0x${old%%-*}
new=0x${new%%-*}
d=$((new - old))
while read -r line; do
	case $line in
	*@*)
		out=
		for f in $line; do
			case $f in
			0x*) [ $((f)) -ge $((old)) ] && [ $((f)) -lt $((old + 0x100000)) ] &&
				f=$(printf '0x%x' $((f + d))) ;;
			esac
			out="$out${out:+ }$f"
		done
		printf '%s\n' "$out" ;;
	*) printf '%s\n' "$line" ;;
	esac
done <"$TMP/nomaps.heap" >"$TMP/rebased.heap"
run 0 "$PROFCONV" symbolize --pid "$pid" --no-compress -o "$TMP/p.pb" \
    "$TMP/rebased.heap"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
frames "$TMP/p.pb" | grep -q "^$TMP/gcc-O2 .*leaf_alloc [^|]*|g[0-9]* " ||
	fail "--pid: live process mapping not used"
compare "$TMP/p.pb" pid "$TMP/gcc-O2"
run 0 "$PROFCONV" symbolize --maps "$TMP/maps" --no-compress \
    -o "$TMP/m.pb" "$TMP/rebased.heap"
compare "$TMP/m.pb" maps "$TMP/gcc-O2"
cmp -s "$TMP/m.pb" "$TMP/p.pb" || fail "--maps and --pid results differ"

# A maps file (brief form) whose build id is not the binary's: refused.
awk -v f="$TMP/gcc-O2" '$NF == f && $2 ~ /x/ {
	split($1, r, "-"); print r[1] "-" r[2], $2, f, "(@" $3 ")",
	    "00112233445566778899aabbccddeeff00112233" }' "$TMP/maps" >"$TMP/badmaps"
run 0 "$PROFCONV" symbolize --maps "$TMP/badmaps" --no-compress \
    -o "$TMP/b.pb" "$TMP/rebased.heap"
grep -q "warning: '$TMP/gcc-O2' has build id [0-9a-f]*, not 00112233" \
    "$TMP/err" || fail "build-id mismatch not warned about"
grep -q 'build id mismatch' "$TMP/err" || fail "mismatch not in the summary"

# Usage errors.
run 2 "$PROFCONV" symbolize --pid 1 --maps "$TMP/maps" "$base"
run 2 "$PROFCONV" symbolize
run 1 "$PROFCONV" symbolize --maps "$TMP/none" "$base"
expect_err "profconv symbolize: '$base': cannot open '$TMP/none': No such file or directory"
finish
