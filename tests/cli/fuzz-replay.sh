# SPDX-License-Identifier: MIT
# fuzz-replay.sh - every fuzz harness runs over its committed corpus
# (seeds and regression inputs) without crashing or failing a property.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

corpus=$PROFCONV_SRCDIR/tests/fuzz/corpus
# The call graph harness lays its graphs out too (see tests/fuzz/fuzz_dot.c).
export FUZZ_DOT_LAYOUT=1
# Graphviz's library keeps what it loads (see the file) from LeakSanitizer.
export LSAN_OPTIONS="suppressions=$PROFCONV_SRCDIR/tests/graphviz-lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
for h in read transform maps dwarf image trendsvg dot source elffacts; do
	drv=$BIN/../tests/fuzz/replay_$h
	[ -x "$drv" ] || { fail "replay_$h not built"; continue; }
	"$drv" "$corpus/$h" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "replay_$h failed"; continue; }
	grep -Eq "^.*: [1-9][0-9]* inputs replayed$" "$TMP/out" ||
		fail "replay_$h replayed nothing"
done
# The image harness also on every debug file the system's debug packages
# installed (libc6-dbg's, zlib-compressed): each must give an image, and
# each image must read as libelf reads the file.
if [ -d /usr/lib/debug/.build-id ]; then
	find /usr/lib/debug/.build-id -name '*.debug' -type f >"$TMP/debugfiles"
	[ -s "$TMP/debugfiles" ] || fail "no debug files under /usr/lib/debug (CI installs libc6-dbg)"
	xargs env FUZZ_IMAGE_EXPECT=1 "$BIN/../tests/fuzz/replay_image" \
	    <"$TMP/debugfiles" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "replay_image on the system's debug files failed"; }
	echo "system debug files: $(cat "$TMP/out")" >&2
else
	fail "no /usr/lib/debug (CI installs libc6-dbg)"
fi
finish
