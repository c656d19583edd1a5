# SPDX-License-Identifier: MIT
# install.sh - the README's ways of installing work as written, from the
# build tree this test runs in (make check, or make distcheck's VPATH
# build with a read-only srcdir): "make install prefix=DIR" after the
# configure the tree was built with, and "make install DESTDIR=DIR".
# The installed commands run with LD_LIBRARY_PATH unset and find their own
# libprofconv.so (RUNPATH $ORIGIN/...), convert a real heap profile as
# the build tree's do; a program compiled with pkg-config's flags runs
# against the installed library; make uninstall leaves no file behind.
# As root, the system case too: a prefix in ld.so's search path, where
# make install must refresh ld.so.cache so that a program linked with
# -lprofconv (no RUNPATH) runs.  That case runs in a private mount
# namespace whose /etc is an overlay of the real one, so ld.so.conf and
# the cache it changes are the namespace's own.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

BUILDDIR=${PROFCONV_BINDIR%/cmd}
[ -f "$BUILDDIR/Makefile" ] || skip "no Makefile in '$BUILDDIR'"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config not installed"
unset LD_LIBRARY_PATH LD_PRELOAD PKG_CONFIG_LIBDIR
# Without LD_LIBRARY_PATH the build tree's commands are libtool's
# wrappers (lib.sh's CMD).
CMD=$BIN
PROFCONV=$BIN/profconv
# A sanitizer build's library needs its runtime in the programs too.
SAN=$(sed -n 's/^SAN_CFLAGS = //p' "$BUILDDIR/Makefile")
export SAN
# mk ARGS...: make in the build tree, as a make of its own (not a part of
# the make check running this test), its output in $TMP/make.log.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$BUILDDIR" \
	    "$@" >"$TMP/make.log" 2>&1
}
# no_files DIR WHAT: DIR holds no file or link any more.
no_files() {
	left=$(find "$1" ! -type d 2>/dev/null | head -n 5)
	[ -z "$left" ] || fail "$2 left files: $left"
}

all_tools
leaky_dumps
HEAP=$(ls "$TMP"/leaky.*.heap 2>/dev/null | tail -n 1)
[ -n "$HEAP" ] || fail "leaky wrote no dump"
"$PROFCONV" text2pb -o "$TMP/want.pb.gz" "$HEAP" ||
	fail "the build tree's profconv cannot convert '$HEAP'"
"$PROFCONV" show "$TMP/want.pb.gz" >"$TMP/want.show" ||
	fail "the build tree's profconv show failed"
"$CMD/profflame" "$TMP/want.pb.gz" >"$TMP/want.folded" ||
	fail "the build tree's profflame failed"
grep -q 'make_request_buffer' "$TMP/want.folded" ||
	fail "the folded stacks lack leaky's allocating function"

# loads PROGRAM LIBDIR WHAT: PROGRAM loads LIBDIR's libprofconv.so.0.
loads() {
	got=$(ldd "$1" | awk '$1 == "libprofconv.so.0" {
	    print ($3 == "not" ? "not found" : $3) }')
	[ -n "$got" ] && [ "$(readlink -f "$got")" = \
	    "$(readlink -f "$2/libprofconv.so.0")" ] ||
		fail "$3: $1 loads libprofconv.so.0 from '${got:-nowhere}', not $2"
}

# check_commands BINDIR LIBDIR WHAT: the commands in BINDIR print their
# versions, load LIBDIR's libprofconv.so.0, and convert the dump as the
# build tree's profconv does.
check_commands() {
	for cmd in $ALL_TOOLS; do
		run 0 "$1/$cmd" --version
		expect_out_has "^$cmd \\(profconv\\) [0-9]+\\.[0-9]+\\.[0-9]+\$"
	done
	loads "$1/profconv" "$2" "$3"
	run 0 "$1/profconv" text2pb -o "$TMP/got.pb.gz" "$HEAP"
	run 0 "$1/profconv" show "$TMP/got.pb.gz"
	cmp -s "$TMP/out" "$TMP/want.show" ||
		fail "$3: the installed profconv's conversion differs"
	run 0 "$1/profflame" "$TMP/got.pb.gz"
	cmp -s "$TMP/out" "$TMP/want.folded" ||
		fail "$3: the installed profflame's folded stacks differ"
	check_record "$1" "$3"
}

# check_record BINDIR WHAT: the installed profconv record finds the
# helper module installed with it (dumps by time), wherever it landed;
# when a C compiler and jemalloc are there.
check_record() {
	[ -n "$(find_lib libjemalloc.so.2)" ] || return 0
	command -v cc >/dev/null 2>&1 || return 0
	[ -x "$TMP/recordleak" ] || cc -o "$TMP/recordleak" \
	    "$PROFCONV_SRCDIR/tests/producers/recordleak.c" || return 0
	rm -rf "$TMP/rec"
	run 0 env -u PROFCONV_RECORD_HELPER "$1/profconv" record -o "$TMP/rec" \
	    --interval 100ms -- "$TMP/recordleak" 4 100 0
	ls "$TMP/rec"/recordleak.*.m*.heap >/dev/null 2>&1 ||
		fail "$2: the installed profconv record made no dump by time"
}

# check_pkgconfig LIBDIR WHAT [LDFLAGS...]: tests/rewrite.c compiled with
# pkg-config's flags for LIBDIR/pkgconfig/libprofconv.pc (and LDFLAGS)
# uses LIBDIR's library and rewrites the profile unchanged.
check_pkgconfig() {
	pc_lib=$1 what=$2
	shift 2
	flags=$(PKG_CONFIG_PATH=$pc_lib/pkgconfig pkg-config --cflags --libs \
	    libprofconv) || { fail "$what: pkg-config knows no libprofconv"; return; }
	case " $flags " in
	*" -L$pc_lib "*) ;;
	*) fail "$what: pkg-config's flags '$flags' do not name $pc_lib" ;;
	esac
	# shellcheck disable=SC2086 # pkg-config's flags are words
	cc -o "$TMP/rewrite" "$PROFCONV_SRCDIR/tests/rewrite.c" $SAN $flags "$@" \
	    2>"$TMP/cc.err" || {
		fail "$what: rewrite.c does not build with '$flags'"
		sed 's/^/  cc: /' "$TMP/cc.err" >&2
		return
	}
	run 0 "$TMP/rewrite" "$TMP/want.pb.gz" "$TMP/rewritten.pb.gz" 6
	loads "$TMP/rewrite" "$pc_lib" "$what"
	"$PROFCONV" show "$TMP/rewritten.pb.gz" >"$TMP/out" 2>&1
	cmp -s "$TMP/out" "$TMP/want.show" ||
		fail "$what: the rewritten profile differs"
}

# 1. make install prefix=DIR after the tree's own configure.
P=$TMP/prefix
mk install prefix="$P" || { fail "make install prefix=$P failed"; cat "$TMP/make.log" >&2; }
grep -Eq '^ /[^ ]*ldconfig$' "$TMP/make.log" &&
	fail "make install ran ldconfig for $P/lib, outside ld.so's search path"
check_commands "$P/bin" "$P/lib" "prefix=$P"
# A prefix outside ld.so's search path: the README's extra RUNPATH.
check_pkgconfig "$P/lib" "prefix=$P" "-Wl,-rpath,$P/lib"
[ -f "$P/include/profconv.h" ] || fail "prefix=$P: no include/profconv.h"
mk uninstall prefix="$P" || fail "make uninstall prefix=$P failed"
no_files "$P" "make uninstall prefix=$P"

# 2. make install DESTDIR=DIR: the configured prefix under DIR; the
# commands run from there.  Only install-exec (the library and the
# commands), and no uninstall: DESTDIR changes nothing else, and installing
# takes long.
D=$TMP/stage
mk install-exec DESTDIR="$D" ||
	{ fail "make install-exec DESTDIR=$D failed"; cat "$TMP/make.log" >&2; }
grep -Eq '^ /[^ ]*ldconfig$' "$TMP/make.log" &&
	fail "make install DESTDIR=$D ran ldconfig"
staged=$(find "$D" -path '*/bin/profconv' -type f | head -n 1)
if [ -z "$staged" ]; then
	fail "DESTDIR=$D: no bin/profconv"
else
	check_commands "${staged%/profconv}" "${staged%/bin/profconv}/lib" \
	    "DESTDIR=$D"
fi

# 3. As root, into a directory of ld.so's search path: only the cache
# finds the library there, so make install must refresh it.
if [ "$(id -u)" != 0 ]; then
	echo "note: not root: make install's ldconfig is not tested" >&2
elif ! command -v unshare >/dev/null 2>&1; then
	echo "note: no unshare: make install's ldconfig is not tested" >&2
else
	S=$TMP/system
	mkdir -p "$TMP/ov/up" "$TMP/ov/work" "$S/lib"
	export BUILDDIR S TMP MAKE HEAP
	unshare -m sh -c '
	mount -t overlay overlay \
	    -o "lowerdir=/etc,upperdir=$TMP/ov/up,workdir=$TMP/ov/work" /etc ||
		exit 3
	echo "$S/lib" >/etc/ld.so.conf && ldconfig || exit 4
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$BUILDDIR" \
	    install-exec install-includeHEADERS install-pc prefix="$S" \
	    >"$TMP/make.log" 2>&1 || exit 5
	cc -o "$TMP/rewrite-sys" "$PROFCONV_SRCDIR/tests/rewrite.c" $SAN \
	    $(PKG_CONFIG_PATH=$S/lib/pkgconfig pkg-config --cflags --libs libprofconv) ||
		exit 6
	"$TMP/rewrite-sys" "$HEAP" "$TMP/sys.pb.gz" 6 2>"$TMP/sys.err" || exit 7
	ldd "$TMP/rewrite-sys" | grep -q "libprofconv\.so\.0 => $S/lib/" || exit 8
	"$S/bin/profconv" --version >/dev/null || exit 9
	exit 0'
	case $? in
	0) ;;
	3|4) echo "note: no overlay of /etc: make install's ldconfig is not tested" >&2 ;;
	5) fail "make install-exec prefix=$S (in ld.so's path) failed"; cat "$TMP/make.log" >&2 ;;
	6) fail "rewrite.c does not build against $S" ;;
	7) fail "after make install into $S/lib, in ld.so's search path, a program linked with -lprofconv does not run: $(cat "$TMP/sys.err")" ;;
	8) fail "the program linked with -lprofconv does not load $S/lib's library" ;;
	*) fail "$S/bin/profconv does not run" ;;
	esac
fi
finish
