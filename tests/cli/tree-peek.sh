# SPDX-License-Identifier: MIT
# tree-peek.sh - show --tree and --peek against go tool pprof -tree and
# -peek on a real heap profile made now (issue #42).
#
# tests/producers/alloc.c runs under jemalloc; "profconv text2pb" and
# "profconv symbolize" make the pb.  On it, show --tree equals go tool
# pprof -tree -compact_labels byte for byte (profconv prints pprof's
# compact headers only), with the granularity, sort, trim, filter and
# percentage options (-addresses too: a node per address, function and
# line); show --peek RE equals go tool pprof -peek RE
# -compact_labels.  Then names that talk to a terminal are escaped, and
# the errors.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

use_go
use_jemalloc
je_alloc_pb

# --- -tree ---------------------------------------------------------------------
same_as_pprof tree "$PB" jemalloc "" "-cum" "-lines" "-sample_index=alloc_space" \
    "-nodecount=3" "-nodefraction=0.2 -edgefraction=0.1" \
    "-focus=thread_work" "-focus=thread_work -relative_percentages" \
    "-ignore=leak_small" "-show_from=thread_work -cum" "-hide=level2" \
    "-addresses" "-addresses -noinlines" "-addresses -focus=thread_work"
go tool pprof -tree -compact_labels -symbolize=none "$PB" 2>/dev/null |
	grep -q '| thread_work' || fail "-tree: pprof shows no thread_work"

# --- -peek ---------------------------------------------------------------------
for args in "thread_work" "^level" "churn|grow" "thread_work -lines"; do
	set -- $args
	rx=$1
	shift
	o=$(pprof_as_show "$*")
	# shellcheck disable=SC2086
	go tool pprof -peek "$rx" -compact_labels -symbolize=none "$@" "$PB" \
	    >"$TMP/go.peek" 2>"$TMP/go.err" ||
		{ fail "go tool pprof -peek $rx: $(head -n 2 "$TMP/go.err")"; continue; }
	# shellcheck disable=SC2086
	"$PROFCONV" show --peek "$rx" $o "$PB" >"$TMP/our.peek" 2>"$TMP/our.err" ||
		{ fail "show --peek $rx $o: $(head -n 2 "$TMP/our.err")"; continue; }
	grep -q '^ .*|   ' "$TMP/go.peek" || fail "-peek $rx: no caller or callee"
	same_as_go "show --peek $rx $o" "$TMP/go.peek" "$TMP/our.peek"
done

# --- names that talk to the terminal -------------------------------------------
esc=$(printf '\033')
hostile_names_pb "$TMP/evil.pb" "clear${esc}[2J" "tab$(printf '\t')x"
run 0 "$PROFCONV" show --tree --no-symbolize "$TMP/evil.pb"
cat -v "$TMP/out" | cmp -s - "$TMP/out" || fail "show --tree sends control characters"
grep -qF 'clear\x1b[2J' "$TMP/out" || fail "show --tree: name not escaped"
run 0 "$PROFCONV" show --peek clear --no-symbolize "$TMP/evil.pb"
cat -v "$TMP/out" | cmp -s - "$TMP/out" || fail "show --peek sends control characters"

# --- errors --------------------------------------------------------------------
run 1 "$PROFCONV" show --peek no_such_function "$PB"
head -n 1 "$TMP/err" | grep -qF "no function matches 'no_such_function'" ||
	fail "show --peek no match: $(head -n 1 "$TMP/err")"
head -n 1 "$TMP/err" | grep -qF "$PB" || fail "show --peek no match: no file named"
[ -s "$TMP/out" ] && fail "show --peek with no match wrote a report"
run 1 "$PROFCONV" show --peek '(' "$PB"
head -n 1 "$TMP/err" | grep -qF "invalid peek expression" ||
	fail "show --peek '(': $(head -n 1 "$TMP/err")"
run 2 "$PROFCONV" show --tree --traces "$PB"
run 2 "$PROFCONV" show --nodecount 3 "$PB"
head -n 1 "$TMP/err" | grep -qF "need --tree" || fail "show --nodecount: $(head -n 1 "$TMP/err")"
run 2 "$PROFCONV" show --tree --nodefraction 2 "$PB"
finish
