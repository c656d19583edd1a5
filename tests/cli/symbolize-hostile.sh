# SPDX-License-Identifier: MIT
# symbolize-hostile.sh - binaries and debug files crafted the way a
# hostile profile can name them: DWARF nested 100,000 deep, FIFOs as the
# mapped file and as the separate debug file, more mapped files than
# open files allowed, debug info that is not UTF-8, and symbolization
# from several threads with $DEBUGINFOD_URLS set (no connection, no
# environment changes: issue 16 items 1, 6, 13, 14 and 18); and at the
# end issue 29 items 2 to 6 and 12: sizeless symbols against addr2line,
# device nodes never opened, escapes from --sysroot and --search-path, a
# sparse debuglink target, a binary truncated while it is read.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

SRC=$PROFCONV_SRCDIR/tests/symbolize
command -v gcc >/dev/null 2>&1 || skip "no gcc"
command -v nm >/dev/null 2>&1 || skip "no nm (binutils)"
command -v readelf >/dev/null 2>&1 || skip "no readelf (binutils)"

# sym FILE NAME: the address of symbol NAME in FILE, as a number.
sym() {
	printf '%d' "0x$(nm "$1" | awk -v n="$2" '$3 == n {print $1; exit}')"
}

# text_map FILE: "offset vaddr" of FILE's executable PT_LOAD.
text_map() {
	readelf -lW "$1" | awk '$1 == "LOAD" && / R E / {print $2, $3; exit}'
}

# heap OUT FILE BASE ADDR...: a heap profile with one sample per address
# (file addresses of FILE, loaded at BASE) and FILE's text mapped.
heap() {
	out=$1 file=$2 base=$3
	shift 3
	set -- "$@"
	{
		echo "heap profile: $#: $(($# * 100)) [ $#: $(($# * 100))] @ heapprofile"
		for a in "$@"; do
			printf '1: 100 [ 1: 100] @ 0x%x\n' $((base + a))
		done
		echo
		echo "MAPPED_LIBRARIES:"
		set -- $(text_map "$file")
		printf '%x-%x r-xp %08x 00:00 0 %s\n' $((base + $2)) \
		    $((base + $2 + 0x10000)) $(($1)) "$file"
	} >"$out"
}

# 1. 100,000 nested lexical blocks: no stack overflow, no quadratic walk.
. "$SRC/deep-dwarf.sh"
deep_asm 100000 >"$TMP/deep.s"
gcc -no-pie -o "$TMP/deep" "$TMP/deep.s" 2>/dev/null || fail "cannot build deep"
main=$(sym "$TMP/deep" main)
after=$(sym "$TMP/deep" after_nest)
heap "$TMP/deep.heap" "$TMP/deep" 0 $((main + 7)) $((after + 3))
run 0 timeout 60 "$PROFCONV" symbolize --no-compress -o "$TMP/deep.pb" "$TMP/deep.heap"
"$PROFCONV" show "$TMP/deep.pb" >"$TMP/deep.txt"
grep -q 'F=[0-9]* deepest_inline' "$TMP/deep.txt" ||
	fail "deep: the inlined call at the bottom was not found"
grep -q 'F=[0-9]* after_nest' "$TMP/deep.txt" ||
	fail "deep: the function after the nesting was not found"
run 0 timeout 60 "$CMD/profflame" "$TMP/deep.heap"
grep -q '^main;deepest_inline 100$' "$TMP/out" ||
	fail "deep: profflame lacks main;deepest_inline"

# A small C program, not position independent, for the next cases.
cat >"$TMP/small.c" <<'C'
int small_work(int x) { return x * 3 + 1; }
int main(int argc, char **argv) { (void)argv; return small_work(argc); }
C
gcc -g -O0 -no-pie -o "$TMP/small" "$TMP/small.c" || fail "cannot build small"
work=$(sym "$TMP/small" small_work)

# 6. A FIFO as the mapped file, and as the separate debug file.
mkfifo "$TMP/fifo"
heap "$TMP/fifo.heap" "$TMP/small" 0 $((work + 4))
sed -i "s|$TMP/small\$|$TMP/fifo|" "$TMP/fifo.heap"
# symbolize refuses a mapped file it cannot use; profflame warns, goes on.
run 1 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/fifo.pb" "$TMP/fifo.heap"
expect_err "profconv symbolize: '$TMP/fifo.heap': '$TMP/fifo' is not a regular file"
run 0 timeout 20 "$CMD/profflame" "$TMP/fifo.heap"
grep -q "'$TMP/fifo' is not a regular file" "$TMP/err" ||
	fail "fifo: profflame did not warn"
cp "$TMP/small" "$TMP/stripped"
objcopy --only-keep-debug "$TMP/stripped" "$TMP/stripped.debug"
objcopy --strip-debug --add-gnu-debuglink="$TMP/stripped.debug" "$TMP/stripped"
rm "$TMP/stripped.debug"
mkfifo "$TMP/stripped.debug"
heap "$TMP/sfifo.heap" "$TMP/stripped" 0 $((work + 4))
run 0 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/sfifo.pb" "$TMP/sfifo.heap"
"$PROFCONV" show "$TMP/sfifo.pb" | grep -q 'F=[0-9]* small_work' ||
	fail "fifo debug file: the symbol table was not used"

# A compressed .debug file whose .debug_info does not inflate: a damaged
# stream, then a stated size no stream of its length could have.  No
# inflated image is made (symbolize/debug_inflate.c), libdw reads the file as it is and
# finds no DWARF; the symbol table still names the function.
rm "$TMP/stripped.debug"
objcopy --only-keep-debug --compress-debug-sections=zlib "$TMP/small" \
    "$TMP/good.debug" || fail "cannot make a compressed .debug file"
set -- $(readelf -SW "$TMP/good.debug" | sed 's/^ *\[ *[0-9]*\]//' |
    awk '$1 == ".debug_info" && $7 ~ /C/ {print $4, $5}')
[ $# -eq 2 ] || fail "objcopy did not compress .debug_info"
info_off=$((0x${1:-0}))
info_size=$((0x${2:-0}))
for how in stream size; do
	cp "$TMP/good.debug" "$TMP/stripped.debug"
	if [ $how = stream ]; then
		# 16 bytes of the deflate stream, after the 24-byte header.
		at=$((info_off + 24 + (info_size - 24) / 2)) n=16
		byte='\377'
	else
		# The high bytes of ch_size (little-endian, at offset 8).
		at=$((info_off + 13)) n=2 byte='\177'
	fi
	head -c $n /dev/zero | tr '\0' "$byte" |
	    dd of="$TMP/stripped.debug" bs=1 seek=$at conv=notrunc 2>/dev/null
	cmp -s "$TMP/good.debug" "$TMP/stripped.debug" &&
		fail "damaged .debug ($how): nothing was changed"
	heap "$TMP/zbad.heap" "$TMP/stripped" 0 $((work + 4))
	run 0 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/zbad.pb" \
	    "$TMP/zbad.heap"
	"$PROFCONV" show "$TMP/zbad.pb" >"$TMP/zbad.txt"
	grep -q 'F=[0-9]* small_work' "$TMP/zbad.txt" ||
		fail "damaged .debug ($how): the symbol table was not used"
	grep -q 'small\.c:' "$TMP/zbad.txt" &&
		fail "damaged .debug ($how): lines from DWARF that does not inflate"
done
cp "$TMP/good.debug" "$TMP/stripped.debug"
run 0 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/zgood.pb" \
    "$TMP/zbad.heap"
"$PROFCONV" show "$TMP/zgood.pb" | grep -q 'small_work .*small\.c:[0-9]' ||
	fail "compressed .debug: no line for small_work"

# ... and as the .dwo file of split DWARF: lines from the skeleton only.
mkdir "$TMP/split"
cp "$TMP/small.c" "$TMP/split/"
(cd "$TMP/split" && gcc -g -O0 -no-pie -gsplit-dwarf -o small small.c) ||
	fail "cannot build split small"
dwo=$(ls "$TMP"/split/*.dwo 2>/dev/null | head -n 1)
if [ -n "$dwo" ]; then
	rm "$dwo"
	mkfifo "$dwo"
	heap "$TMP/dwofifo.heap" "$TMP/split/small" 0 $(($(sym "$TMP/split/small" small_work) + 4))
	run 0 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/dwofifo.pb" "$TMP/dwofifo.heap"
	"$PROFCONV" show "$TMP/dwofifo.pb" | grep -q 'small\.c:1' ||
		fail "fifo .dwo: the skeleton's line was not used"
else
	fail "split small: no .dwo written"
fi

# 13. 1,100 mapped files under ulimit -n 1024.
printf 'int lib_fn(int x) { return x + 7; }\n' >"$TMP/lib.c"
gcc -g -O1 -fPIC -shared -o "$TMP/lib.so" "$TMP/lib.c" || fail "cannot build lib.so"
fn=$(sym "$TMP/lib.so" lib_fn)
set -- $(text_map "$TMP/lib.so")
toff=$(($1))
tvaddr=$(($2))
mkdir "$TMP/many"
i=0
{
	echo "heap profile: 1100: 110000 [ 1100: 110000] @ heapprofile"
	while [ $i -lt 1100 ]; do
		printf '1: 100 [ 1: 100] @ 0x%x\n' $((0x10000000 * (i + 1) + fn + 2))
		i=$((i + 1))
	done
	echo
	echo "MAPPED_LIBRARIES:"
	i=0
	while [ $i -lt 1100 ]; do
		b=$((0x10000000 * (i + 1)))
		printf '%x-%x r-xp %08x 00:00 0 %s/many/lib%d.so\n' \
		    $((b + tvaddr)) $((b + tvaddr + 0x1000)) "$toff" "$TMP" "$i"
		i=$((i + 1))
	done
} >"$TMP/many.heap"
i=0
while [ $i -lt 1100 ]; do
	ln "$TMP/lib.so" "$TMP/many/lib$i.so" 2>/dev/null ||
		cp "$TMP/lib.so" "$TMP/many/lib$i.so"
	i=$((i + 1))
done
(ulimit -n 1024 && exec "$PROFCONV" symbolize --no-compress \
    -o "$TMP/many.pb" "$TMP/many.heap") >"$TMP/out" 2>"$TMP/err" ||
	{ sed 's/^/  stderr: /' "$TMP/err" >&2; fail "many: failed under ulimit -n 1024"; }
grep -q 'symbolized 1100 of 1100 locations' "$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "many: not every location symbolized"; }

# 14. Debug info from a directory whose name is Latin-1, not UTF-8.
latin=$TMP/$(printf 'caf\351')
mkdir "$latin"
cp "$TMP/small.c" "$latin/"
(cd "$latin" && gcc -g -O0 -no-pie -o "$TMP/latin" small.c) || fail "cannot build latin"
heap "$TMP/latin.heap" "$TMP/latin" 0 $(($(sym "$TMP/latin" small_work) + 4))
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/latin.pb" "$TMP/latin.heap"
grep -q "warning: '$TMP/latin': debug info has text that is not UTF-8" "$TMP/err" ||
	fail "latin: no warning naming the binary"
"$PROFCONV" show "$TMP/latin.pb" | grep -q "caf$(printf '\357\277\275')/small.c" ||
	fail "latin: the file name was not repaired with U+FFFD"
run 0 "$CMD/profflame" "$TMP/latin.heap"
grep -q '^small_work 100$' "$TMP/out" || fail "latin: profflame did not go on"
run 0 "$CMD/profdiff" "$TMP/latin.heap" "$TMP/latin.heap"

# 18. Threads with $DEBUGINFOD_URLS set: no connection attempted.  The
# binary has a build id and no debug info, so libdwfl's standard
# callbacks would ask the server for it.
threads=$BIN/../tests/symbolize/threads
[ -x "$threads" ] || fail "tests/symbolize/threads not built"
cp "$TMP/small" "$TMP/nodebug"
strip --strip-debug "$TMP/nodebug"
heap "$TMP/nodebug.heap" "$TMP/nodebug" 0 $((work + 4))
if ! command -v strace >/dev/null 2>&1; then
	echo "note: no strace; connections not checked" >&2
	fail "strace missing (CI installs it)"
elif ! ldconfig -p | grep -q 'libdebuginfod\.so\.1 '; then
	fail "libdebuginfod1 missing (CI installs it): the check would prove nothing"
else
	# LeakSanitizer cannot run under ptrace (the sanitizer build).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	# The control: asked to, libdwfl does contact the server.
	DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_TIMEOUT=2 \
	    strace -f -qq -e trace=connect -o "$TMP/strace0" \
	    "$PROFCONV" symbolize --debuginfod --no-compress -o "$TMP/d0.pb" \
	    "$TMP/nodebug.heap" 2>/dev/null
	grep -q 'connect(.*127\.0\.0\.1' "$TMP/strace0" ||
		fail "control: --debuginfod made no connection; the check proves nothing"
	# The old unsetenv/setenv dance lost this race 36 to 54 times in
	# each of five runs of 8 threads x 20 rounds here.
	DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_TIMEOUT=2 \
	    strace -f -qq -e trace=connect -o "$TMP/strace1" \
	    "$threads" 8 "$TMP/nodebug.heap" 20 >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "threads: failed"; }
	if grep -q 'connect(.*127\.0\.0\.1' "$TMP/strace1"; then
		echo "$(grep -c 'connect(' "$TMP/strace1") connect() calls" >&2
		fail "threads: debuginfod was contacted with debuginfod off"
	fi
fi
# Thread safety under helgrind: several threads, each on its own profile.
# (Not in the sanitizer build: valgrind cannot run ASan programs.)
if nm "$(dirname "$threads")/.libs/threads" "$BIN/../lib/.libs/libprofconv.so" \
    2>/dev/null | grep -q '__asan_init'; then
	echo "note: AddressSanitizer build; helgrind part left to the plain build" >&2
elif command -v valgrind >/dev/null 2>&1; then
	gcc -g -O0 -o "$TMP/withdebug" "$TMP/small.c"
	heap "$TMP/wd.heap" "$TMP/small" 0 $((work + 4)) $((work + 8))
	LD_LIBRARY_PATH=$BIN/../lib/.libs valgrind --tool=helgrind --error-exitcode=9 -q \
	    --suppressions="$SRC/helgrind.supp" \
	    "$(dirname "$threads")/.libs/threads" 3 "$TMP/wd.heap" \
	    >"$TMP/out" 2>"$TMP/hg" ||
		{ head -n 60 "$TMP/hg" >&2; fail "helgrind found races (or the run failed)"; }
else
	fail "valgrind missing (CI installs it)"
fi
# Issue 29 item 12.  A symbol of size 0 covers up to the end of its
# section, as in addr2line and eu-addr2line: a PLT stub is not "_init",
# and an address past .fini is not "_fini".  Checked against addr2line
# on a binary without debug info, so only the symbol table names things.
cat >"$TMP/plt.c" <<'C'
#include <stdio.h>
int plt_work(int x) { printf("%d\n", x); return x + 1; }
int main(int argc, char **argv) { (void)argv; return plt_work(argc); }
C
gcc -O0 -no-pie -o "$TMP/plt" "$TMP/plt.c" || fail "cannot build plt"
# section_end FILE NAME: the address after section NAME; section_start too.
section_start() {
	printf '%d' "0x$(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
	    awk -v n="$2" '$1 == n {print $3; exit}')"
}
section_end() {
	set -- $(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
	    awk -v n="$2" '$1 == n {print $3, $5; exit}')
	printf '%d' $((0x$1 + 0x$2))
}
plt_stub=$(($(section_start "$TMP/plt" .plt) + 0x14))
init_in=$(($(section_start "$TMP/plt" .init) + 4))
fini_end=$(section_end "$TMP/plt" .fini)
past_text=$(((fini_end + 15) / 16 * 16 + 8))
main_in=$(($(sym "$TMP/plt" main) + 4))
# heap() adds nothing; a heap profile's addresses are return addresses,
# one past the call, so each gets 1 more.
heap "$TMP/plt.heap" "$TMP/plt" 0 $((plt_stub + 1)) $((init_in + 1)) \
    $((past_text + 1)) $((main_in + 1))
run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/plt.pb" "$TMP/plt.heap"
"$PROFCONV" show "$TMP/plt.pb" | awk '
	/^locations:/ { on = 1; next }
	/^functions:/ { if (addr != "") print addr, name; exit }
	on && $2 ~ /^0x/ { if (addr != "") print addr, name; addr = $2; name = "??"; next }
	on && $1 ~ /^F=/ { name = $2 }' >"$TMP/plt.got"
for a in $plt_stub $init_in $past_text $main_in; do
	want=$(addr2line -f -e "$TMP/plt" "$(printf '0x%x' $a)" | head -n 1)
	got=$(awk -v a="$(printf '0x%x' $a)" '$1 == a {print $2}' "$TMP/plt.got")
	[ "$got" = "$want" ] ||
		fail "plt: $(printf '0x%x' $a) is '$got', addr2line says '$want'"
done
[ "$(addr2line -f -e "$TMP/plt" "$(printf '0x%x' $plt_stub)" | head -n 1)" = "??" ] ||
	fail "plt: addr2line names the PLT; the check proves nothing"

# Issue 29 item 3.  Nothing but a regular file is opened for reading:
# opening /dev/ptmx makes a pty, a FIFO waits for a writer.  strace
# shows every open of the mapped files; only O_PATH ones (which open
# nothing) may name them.
if command -v strace >/dev/null 2>&1; then
	[ -p "$TMP/fifo" ] || mkfifo "$TMP/fifo"
	for dev in /dev/ptmx "$TMP/fifo"; do
		[ -e "$dev" ] || continue
		heap "$TMP/dev.heap" "$TMP/small" 0 $((work + 4))
		sed -i "s|$TMP/small\$|$dev|" "$TMP/dev.heap"
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		    timeout 20 strace -f -qq -e trace=open,openat,openat2 \
		    -o "$TMP/dev.strace" "$PROFCONV" symbolize --no-compress \
		    -o "$TMP/dev.pb" "$TMP/dev.heap" >/dev/null 2>&1
		grep -q "\"$dev\"" "$TMP/dev.strace" ||
			fail "$dev: never looked at; the check proves nothing"
		if grep "\"$dev\"" "$TMP/dev.strace" | grep -qv O_PATH; then
			grep "\"$dev\"" "$TMP/dev.strace" >&2
			fail "$dev: opened, though it is no regular file"
		fi
	done
else
	fail "strace missing (CI installs it)"
fi

# Issue 29 item 6.  A .gnu_debuglink candidate is checked by the CRC of
# the whole file; a sparse 20 GB one (the real debug file, grown) is not
# read: it is over the bound (64 times the binary, at least 256 MiB), so
# the run is fast and names functions from the symbol table.  Built
# without a build id, so the CRC is the only check.
gcc -g -O0 -no-pie -Wl,--build-id=none -o "$TMP/nobid" "$TMP/small.c" ||
	fail "cannot build nobid"
objcopy --only-keep-debug "$TMP/nobid" "$TMP/nobid.debug"
objcopy --strip-debug --add-gnu-debuglink="$TMP/nobid.debug" "$TMP/nobid"
heap "$TMP/nobid.heap" "$TMP/nobid" 0 $(($(sym "$TMP/nobid" small_work) + 4))
run 0 timeout 20 "$PROFCONV" symbolize --no-compress -o "$TMP/nobid.pb" \
    "$TMP/nobid.heap"
"$PROFCONV" show "$TMP/nobid.pb" | grep -q 'small_work .*small\.c:[0-9]' ||
	fail "debuglink: the debug file was not used (control)"
if truncate -s 20G "$TMP/nobid.debug" 2>/dev/null; then
	run 0 timeout 20 "$PROFCONV" symbolize --no-compress \
	    -o "$TMP/sparse.pb" "$TMP/nobid.heap"
	"$PROFCONV" show "$TMP/sparse.pb" >"$TMP/sparse.txt"
	grep -q 'F=[0-9]* small_work' "$TMP/sparse.txt" ||
		fail "sparse debug file: the symbol table was not used"
	grep -q 'small\.c:' "$TMP/sparse.txt" &&
		fail "sparse debug file: used, though its CRC cannot match"
	rm -f "$TMP/nobid.debug"
else
	echo "note: no sparse files here; the debuglink bound is not checked" >&2
fi

# Issue 29 item 4.  --sysroot and --search-path are directories, not
# string prefixes: a ".." in a mapped path, an absolute link in the
# sysroot and a build id used as a path component all stay inside them.
# The host's $TMP/small is what an escape would reach.
mkdir -p "$TMP/root/usr/bin" "$TMP/root/usr/lib" "$TMP/sp" "$TMP/outside"
# symbolized HEAP ARGS...: did symbolize name small_work from HEAP?
symbolized() {
	h=$1
	shift
	"$PROFCONV" symbolize --no-compress -o "$TMP/esc.pb" "$@" "$h" \
	    >/dev/null 2>&1 &&
	    "$PROFCONV" show "$TMP/esc.pb" | grep -q 'F=[0-9]* small_work'
}
# A ".." climbing out of the sysroot.
heap "$TMP/dots.heap" "$TMP/small" 0 $((work + 4))
sed -i "s|$TMP/small\$|/../../../../../../..$TMP/small|" "$TMP/dots.heap"
symbolized "$TMP/dots.heap" --sysroot "$TMP/root" &&
	fail "sysroot: '..' in the mapped path reached the host"
# An absolute link in the sysroot means the sysroot's file...
ln -s /usr/lib/profconv-test-small "$TMP/root/usr/bin/small"
cp "$TMP/small" "$TMP/root/usr/lib/profconv-test-small"
heap "$TMP/link.heap" "$TMP/small" 0 $((work + 4))
sed -i "s|$TMP/small\$|/usr/bin/small|" "$TMP/link.heap"
symbolized "$TMP/link.heap" --sysroot "$TMP/root" ||
	fail "sysroot: an absolute link was not followed inside the sysroot"
# ... never the host's.
ln -s "$TMP/small" "$TMP/root/usr/bin/escape"
sed -i "s|/usr/bin/small\$|/usr/bin/escape|" "$TMP/link.heap"
symbolized "$TMP/link.heap" --sysroot "$TMP/root" &&
	fail "sysroot: an absolute link reached the host's file"
# A ".." under a search directory.
sed -i "s|/usr/bin/escape\$|/../small|" "$TMP/link.heap"
symbolized "$TMP/link.heap" --search-path "$TMP/sp" &&
	fail "search path: '..' in the mapped path left the directory"
# A build id that is a path: "../outside" makes SP/../outside/small2 of the
# pprof layout SP/ID/BASE.  The file has no build id to refuse it by.
gcc -g -O0 -no-pie -Wl,--build-id=none -o "$TMP/outside/small2" "$TMP/small.c" ||
	fail "cannot build small2"
heap "$TMP/bid.heap" "$TMP/outside/small2" 0 $(($(sym "$TMP/outside/small2" small_work) + 4))
awk -v f="/nowhere/small2" '/r-xp/ { split($1, r, "-");
	printf "%s-%s r-xp %s (@%s) abcdef0123\n", r[1], r[2], f, $3; next } 1' \
    "$TMP/bid.heap" >"$TMP/bid2.heap"
"$PROFCONV" text2pb -o "$TMP/bid.pb.gz" "$TMP/bid2.heap" &&
	gzip -dc "$TMP/bid.pb.gz" >"$TMP/bid.pb" ||
	fail "cannot make the build-id profile"
perl -pi -e 's|abcdef0123|../outside|' "$TMP/bid.pb"
"$PROFCONV" show "$TMP/bid.pb" | grep -q ' \.\./outside$' ||
	fail "build id: the profile does not have '../outside'"
symbolized "$TMP/bid.pb" --search-path "$TMP/sp" &&
	fail "search path: a build id reached a file outside the directory"
# The control: with the hex id kept, the pprof layout is used.
mkdir -p "$TMP/sp/abcdef0123"
cp "$TMP/outside/small2" "$TMP/sp/abcdef0123/small2"
symbolized "$TMP/bid.pb.gz" --search-path "$TMP/sp" ||
	fail "search path: the SP/ID/BASE layout was not used (control)"

# Issue 29 item 2.  A binary truncated while it is read (a rebuild
# copied over it): an error naming it, or the result, never SIGBUS.
# Another process copies over and truncates the library's own shared
# object (big enough to take a while) while it is symbolized 100 times;
# before it was read through a private copy, a third of the runs died.
victim=$(ls "$BIN"/../lib/.libs/libprofconv.so.*.*.* 2>/dev/null | head -n 1)
if [ -n "$victim" ]; then
	cp "$victim" "$TMP/victim.orig"
	cp "$victim" "$TMP/victim.so"
	set -- $(text_map "$TMP/victim.so")
	voff=$(($1)) vva=$(($2))
	vsz=$(readelf -lW "$TMP/victim.so" | awk '$1 == "LOAD" && / R E / {print $5; exit}')
	vsz=$((vsz))
	vbase=$((0x7f0000000000))
	{
		echo "heap profile: 200: 20000 [ 200: 20000] @ heapprofile"
		i=0
		while [ $i -lt 200 ]; do
			printf '1: 100 [ 1: 100] @ 0x%x\n' $((vbase + vva + vsz * i / 200 + 1))
			i=$((i + 1))
		done
		echo
		echo "MAPPED_LIBRARIES:"
		printf '%x-%x r-xp %08x 00:00 0 %s\n' $((vbase + vva)) \
		    $((vbase + vva + vsz)) "$voff" "$TMP/victim.so"
	} >"$TMP/victim.heap"
	# The frames of a run that succeeds: those of the file left alone.
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/victim.pb" "$TMP/victim.heap"
	"$PROFCONV" show "$TMP/victim.pb" >"$TMP/victim.want" ||
		fail "truncated: cannot show the reference"
	grep -q 'F=' "$TMP/victim.want" || fail "truncated: the reference has no function"
	touch "$TMP/copying"
	( while [ -e "$TMP/copying" ]; do
		cp "$TMP/victim.orig" "$TMP/victim.so"
		truncate -s 100000 "$TMP/victim.so"
	done ) &
	copier=$!
	# truncated WHAT RUNS ARGS...: symbolize RUNS times with ARGS.
	truncated() {
		what=$1 runs=$2
		shift 2
		i=0 died=0 named=0
		while [ $i -lt "$runs" ]; do
			"$PROFCONV" symbolize --no-compress -o "$TMP/victim.pb" "$@" \
			    "$TMP/victim.heap" >/dev/null 2>"$TMP/victim.err"
			rc=$?
			if [ $rc -gt 128 ] || grep -q 'Sanitizer\|deadly signal' "$TMP/victim.err"; then
				died=$((died + 1))
			elif [ $rc -ne 0 ] && ! grep -q "$TMP/victim.so" "$TMP/victim.err"; then
				cat "$TMP/victim.err" >&2
				fail "truncated ($what): an error that does not name the file"
			elif [ $rc -ne 0 ]; then
				named=$((named + 1))
				cp "$TMP/victim.err" "$TMP/victim.last"
				[ "$(wc -l <"$TMP/victim.err")" -eq 1 ] ||
					fail "truncated ($what): more than one line: $(cat "$TMP/victim.err")"
			else
				# Success: the frames of the whole file, or
				# fewer when the file read was a stable part
				# of it (a copy cut short, its dynamic symbols
				# only), but no name the file does not give.
				"$PROFCONV" show "$TMP/victim.pb" >"$TMP/victim.got"
				bad=$(awk '$1 ~ /^F=/ { if (FILENAME == ARGV[1]) ok[$2] = 1; else if (!($2 in ok)) print $2 }' \
				    "$TMP/victim.want" "$TMP/victim.got" | head -n 3)
				[ -z "$bad" ] ||
					fail "truncated ($what): names the file does not give: $bad"
			fi
			i=$((i + 1))
		done
		[ $died -eq 0 ] || fail "truncated ($what): $died of $runs runs died of a signal"
		echo "truncated ($what): $named of $runs runs ended with an error naming the file" >&2
		[ $named -eq 0 ] || sed 's/^/  e.g. /' "$TMP/victim.last" >&2
	}
	# Mapped in place (the command catches SIGBUS), the identity of the
	# file checked once it is read.
	truncated "mapped in place" 100
	# Mapped as it is: the binary with --debuginfod (no server: nothing
	# is asked), and any file over the file size limit.  The command's
	# SIGBUS handler names the file.
	# (Subshells: their failures come back as their status.  Under
	# AddressSanitizer, its own SIGBUS handler would take precedence.)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_sigbus=0
	export ASAN_OPTIONS
	( failures=0; unset DEBUGINFOD_URLS
	  truncated "--debuginfod" 100 --debuginfod; exit $failures ) ||
		fail "truncated: --debuginfod"
	( failures=0; ulimit -f 64
	  truncated "over RLIMIT_FSIZE" 100; exit $failures ) ||
		fail "truncated: over RLIMIT_FSIZE"
	rm -f "$TMP/copying"
	wait $copier
	for f in "$TMP"/victim.pb.tmp*; do
		[ ! -e "$f" ] || fail "truncated: a temporary output file was left: $f"
	done
else
	fail "truncated: no lib/.libs/libprofconv.so.* to use"
fi

# Issue 31.  A binary rewritten in place with the same size while it is
# mapped: no SIGBUS, but names read across the rewrite could be wrong
# without a word.  The identity check (size, modification and change
# times) ends such a run with one line naming the file, exit 1 and no
# output file; a run the rewrite missed gives the file's frames.
if [ -n "$victim" ]; then
	cp "$TMP/victim.orig" "$TMP/inplace.so"
	sed "s|$TMP/victim.so\$|$TMP/inplace.so|" "$TMP/victim.heap" >"$TMP/inplace.heap"
	grep -q "$TMP/inplace.so" "$TMP/inplace.heap" || fail "inplace: no mapping of it"
	run 0 "$PROFCONV" symbolize --no-compress -o "$TMP/inplace.pb" "$TMP/inplace.heap"
	"$PROFCONV" show "$TMP/inplace.pb" >"$TMP/inplace.want"
	grep -q 'F=' "$TMP/inplace.want" || fail "inplace: no function named"
	touch "$TMP/rewriting"
	( while [ -e "$TMP/rewriting" ]; do
		dd if="$TMP/victim.orig" of="$TMP/inplace.so" bs=1M \
		    conv=notrunc 2>/dev/null
	done ) &
	rewriter=$!
	i=0 caught=0
	while [ $i -lt 20 ]; do
		rm -f "$TMP/inplace.pb"
		"$PROFCONV" symbolize --no-compress -o "$TMP/inplace.pb" \
		    "$TMP/inplace.heap" >/dev/null 2>"$TMP/inplace.err"
		rc=$?
		if [ $rc -eq 0 ]; then
			"$PROFCONV" show "$TMP/inplace.pb" >"$TMP/inplace.got"
			cmp -s "$TMP/inplace.want" "$TMP/inplace.got" ||
				fail "inplace: frames differ from the file's"
		elif [ $rc -eq 1 ] && [ "$(cat "$TMP/inplace.err")" = \
		    "profconv symbolize: '$TMP/inplace.heap': '$TMP/inplace.so' changed while it was read" ]; then
			caught=$((caught + 1))
			[ ! -e "$TMP/inplace.pb" ] ||
				fail "inplace: an output file after the error"
		else
			fail "inplace: status $rc: $(cat "$TMP/inplace.err")"
		fi
		i=$((i + 1))
	done
	rm -f "$TMP/rewriting"
	wait $rewriter
	echo "inplace: $caught of 20 runs found the file changed" >&2
	[ $caught -gt 0 ] || fail "inplace: no run saw the rewrite"
fi


# A legacy map line marks a file deleted since it was mapped (the
# kernel's " (deleted)"): what sits at the path now is another file, and
# without a build id (legacy maps have none) its symbols are not taken.
# The same profile without the mark names the function.
if cc -g -O0 -no-pie -o "$TMP/delprog" -x c - <<'C' 2>/dev/null; then
#include <stdlib.h>
__attribute__((noinline)) void *grab(size_t n) { return malloc(n); }
int main(void) { return grab(8) == NULL; }
C
	grab=$(nm "$TMP/delprog" | awk '$3 == "grab" {print $1}')
	addr=$(printf '0x%x' $((0x$grab + 5)))
	for mark in "" " (deleted)"; do
		printf 'heap profile:    1:     8 [     1:     8] @ heapprofile\n' >"$TMP/del.heap"
		printf '     1:     8 [     1:     8] @ %s\n\nMAPPED_LIBRARIES:\n' "$addr" >>"$TMP/del.heap"
		printf '00401000-00402000 r-xp 00001000 00:00 0   %s%s\n' \
		    "$TMP/delprog" "$mark" >>"$TMP/del.heap"
		run 0 "$CMD/profflame" --no-inline "$TMP/del.heap"
		case $mark in
		"") grep -q '^grab 8$' "$TMP/out" ||
			fail "legacy map: grab not named: $(cat "$TMP/out")" ;;
		*) grep -q '^grab ' "$TMP/out" &&
			fail "legacy map of a deleted file: symbolized from today's file" ;;
		esac
	done
else
	fail "deleted: cannot build a non-PIE test program"
fi

finish
