# SPDX-License-Identifier: MIT
# traces-tags.sh - show --traces and --tags against go tool pprof -traces
# and -tags on real heap profiles made now (issue #42).
#
# tests/producers/alloc.c runs under jemalloc with named worker threads;
# "profconv text2pb --threads" labels its samples thread, thread_name
# and bytes, and "profconv symbolize" names its frames.  On that pb:
#   --tags        equals go tool pprof -tags byte for byte, with and
#                 without --unit, -t and the label filters;
#   --traces      equals go tool pprof -traces after one normalization:
#                 a frame without symbols is "module+0xADDRESS" in every
#                 profconv view and "[module]" in pprof's, so ours are
#                 rewritten to pprof's; every sample's labels, value and
#                 the rest of its stack are compared as they are.
# Then names and labels that talk to a terminal are escaped, and the
# usage errors.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

use_go
use_jemalloc
je_alloc_pb --threads

# --- -tags ---------------------------------------------------------------------
n=0
for args in "" "-unit=bytes" "-unit=kb" "-sample_index=alloc_objects" \
    "-tagfocus=thread_name=worker" "-tagignore=bytes=32kb" \
    "-tagfocus=16kb:64kb" "-tagshow=thread"; do
	ours=$(echo "$args" | sed 's/^-sample_index=/--type=/; s/^-\([a-z]\)/--\1/')
	# shellcheck disable=SC2086
	go tool pprof -tags -symbolize=none $args "$PB" >"$TMP/go.tags" 2>"$TMP/go.err" ||
		{ fail "go tool pprof -tags $args: $(head -n 2 "$TMP/go.err")"; continue; }
	# shellcheck disable=SC2086
	"$PROFCONV" show --tags $ours "$PB" >"$TMP/our.tags" 2>"$TMP/our.err" ||
		{ fail "show --tags $ours: $(head -n 2 "$TMP/our.err")"; continue; }
	[ -s "$TMP/go.tags" ] || fail "-tags $args: pprof printed nothing"
	same_as_go "show --tags $ours" "$TMP/go.tags" "$TMP/our.tags"
	n=$((n + 1))
done
# The labels are there: three keys, a line per worker thread.
grep -q '^ thread_name: Total' "$TMP/go.tags" 2>/dev/null ||
	go tool pprof -tags -symbolize=none "$PB" 2>/dev/null | grep -q '^ thread_name: Total' ||
	fail "the profile has no thread_name labels"

# --- -traces ---------------------------------------------------------------------
for args in "" "-sample_index=alloc_space" "-tagfocus=thread_name=worker-1" \
    "-focus=thread_work" "-ignore=leak_small" "-unit=kb"; do
	ours=$(echo "$args" | sed 's/^-sample_index=/--type=/; s/^-\([a-z]\)/--\1/')
	# shellcheck disable=SC2086
	go tool pprof -traces -symbolize=none $args "$PB" >"$TMP/go.tr" 2>"$TMP/go.err" ||
		{ fail "go tool pprof -traces $args: $(head -n 2 "$TMP/go.err")"; continue; }
	# shellcheck disable=SC2086
	"$PROFCONV" show --traces $ours "$PB" 2>"$TMP/our.err" |
		sed -E 's/^([ 0-9.a-zA-Z]{10}   )([^ ]+)\+0x[0-9a-f]+$/\1[\2]/' \
		>"$TMP/our.tr" || fail "show --traces $ours"
	grep -q '^-----------+---' "$TMP/go.tr" || fail "-traces $args: no sample"
	same_as_go "show --traces $ours" "$TMP/go.tr" "$TMP/our.tr"
	# At least the per-trace totals, as a column, whatever the frames.
	grep -E '^ *[0-9.]+[a-zA-Z]*   ' "$TMP/go.tr" | cut -c1-10 >"$TMP/go.v"
	grep -E '^ *[0-9.]+[a-zA-Z]*   ' "$TMP/our.tr" | cut -c1-10 >"$TMP/our.v"
	same_as_go "show --traces $ours (values)" "$TMP/go.v" "$TMP/our.v"
done

# -addresses: each location's inline chain with its address.  The same
# traces and values; pprof's lines of a location without symbols
# ("ADDRESS [module]") are ours after the rewrite.  (Not compared line
# for line: where drop_frames matches an inlined function inside a
# location, as rtld's calloc in allocate_dtv, pprof leaves that line out
# and we show the location whole.)
go tool pprof -traces -addresses -symbolize=none "$PB" >"$TMP/go.atr" 2>/dev/null ||
	fail "go tool pprof -traces -addresses"
"$PROFCONV" show --traces --addresses "$PB" 2>/dev/null |
	sed -E 's/^([ 0-9.a-zA-Z]{10}   )([0-9a-f]{16} )?([^ ]+)\+0x[0-9a-f]+$/\1\2[\3]/' \
	>"$TMP/our.atr" || fail "show --traces --addresses"
grep -E '^ *[0-9.]+[a-zA-Z]*   ' "$TMP/go.atr" | cut -c1-10 >"$TMP/go.v"
grep -E '^ *[0-9.]+[a-zA-Z]*   ' "$TMP/our.atr" | cut -c1-10 >"$TMP/our.v"
same_as_go "show --traces --addresses (values)" "$TMP/go.v" "$TMP/our.v"
grep -E '^[ 0-9.a-zA-Z]{10}   [0-9a-f]{16} [a-zA-Z_]' "$TMP/our.atr" >/dev/null ||
	fail "show --traces --addresses: no frame with an address"
grep -E '^[ 0-9.a-zA-Z]{10}   [0-9a-f]{16} \[[^ ]*\]$' "$TMP/go.atr" >"$TMP/go.unnamed"
if [ -s "$TMP/go.unnamed" ]; then
	grep -vxFf "$TMP/our.atr" "$TMP/go.unnamed" >"$TMP/missing" &&
		fail "show --traces --addresses lacks: $(head -n 2 "$TMP/missing")"
else
	echo "note: no location without symbols in the profile" >&2
fi

# --- names and labels that talk to the terminal ---------------------------------
esc=$(printf '\033')
# Function names CLEAR and TAB, a label tag=CLEAR on each sample.
hostile_names_pb "$TMP/evil.pb" "clear${esc}[2J" "tab$(printf '\t')x"
for r in --traces --tags; do
	run 0 "$PROFCONV" show $r --no-symbolize "$TMP/evil.pb"
	cat -v "$TMP/out" | cmp -s - "$TMP/out" ||
		fail "show $r sends control characters"
	grep -qF ' clear\x1b[2J' "$TMP/out" || fail "show $r: label not escaped"
done
"$PROFCONV" show --traces --no-symbolize "$TMP/evil.pb" | grep -qF '   tab\x09x' ||
	fail "show --traces: a tab in a name is not escaped"

# --- usage ---------------------------------------------------------------------
run 2 "$PROFCONV" show --traces --tags "$PB"
head -n 1 "$TMP/err" | grep -qxF "profconv show: --sizes, --summary, --traces, --tags, --comments, --text, --topproto and --tree or --peek are reports of their own: give one" ||
	fail "show --traces --tags: $(head -n 1 "$TMP/err")"
run 2 "$PROFCONV" show --traces --summary "$PB"
run 2 "$PROFCONV" show --unit kb "$PB"
head -n 1 "$TMP/err" | grep -qxF "profconv show: --unit needs --traces or --tags" ||
	fail "show --unit: $(head -n 1 "$TMP/err")"
run 1 "$PROFCONV" show --traces -t nosuch "$PB"
head -n 1 "$TMP/err" | grep -qF "profile has no sample type 'nosuch'" ||
	fail "show --traces -t nosuch: $(head -n 1 "$TMP/err")"
[ -s "$TMP/out" ] && fail "show --traces -t nosuch wrote a report"
finish
