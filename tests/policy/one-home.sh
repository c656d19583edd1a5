# SPDX-License-Identifier: MIT
# one-home.sh - rules the tree writes once stay written once (issue 41:
# "each shared rule has one home, used by every caller").
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR" || exit 1
SRC=$(ls lib/*.c lib/*/*.c lib/*.h lib/*/*.h cmd/*.c cmd/*.h)
[ "$(echo "$SRC" | wc -l)" -gt 60 ] || fail "no sources under lib/ and cmd/"

# only REGEX-ERE WHY PATTERN ALLOWED: PATTERN appears in no source but
# those ALLOWED matches.
only() {
	grep -nE "$1" $SRC | grep -vE "^($3):" >"$TMP/hits"
	if [ -s "$TMP/hits" ]; then
		cat "$TMP/hits" >&2
		fail "$2"
	fi
	grep -qE "$1" $SRC || fail "'$1' is nowhere: the check is stale"
}

# A user's regular expression is compiled in one place, within one set
# of bounds (profconv__view_compile); a profile's own drop_frames and
# keep_frames in the pruner, within the same bounds.
only '\<regcomp[[:space:]]*\(' \
    "regcomp outside profconv__view_compile and the pruner" \
    'lib/view/view_build\.c|lib/view/prune\.c'
# Bytes for people: one ladder of binary units (base.h).
only '"KiB"' "a list of byte units outside base.h" 'lib/base/base\.h'
# pprof's measurement (internal/measurement): one table of units.
only '"kilobyte"' "pprof's unit table outside graph_measure.c" \
    'lib/view/graph_measure\.c'
finish
