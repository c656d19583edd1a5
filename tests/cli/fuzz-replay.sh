# SPDX-License-Identifier: MIT
# fuzz-replay.sh - every fuzz harness runs over its committed corpus
# (seeds and regression inputs) without crashing or failing a property.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

corpus=$PROFCONV_SRCDIR/tests/fuzz/corpus
for h in read transform maps dwarf image; do
	drv=$BIN/../tests/fuzz/replay_$h
	[ -x "$drv" ] || { fail "replay_$h not built"; continue; }
	"$drv" "$corpus/$h" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "replay_$h failed"; continue; }
	grep -Eq "^.*: [1-9][0-9]* inputs replayed$" "$TMP/out" ||
		fail "replay_$h replayed nothing"
done
finish
