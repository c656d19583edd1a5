# SPDX-License-Identifier: MIT
# text-top.sh - show --text and --topproto against go tool pprof -text
# (and -top) and -topproto on real heap profiles made now (issue #42).
#
# tests/producers/alloc.c runs under jemalloc with named worker threads
# ("text2pb --threads" labels its samples thread, thread_name and bytes)
# and under tcmalloc's heap profiler; "profconv symbolize" names the
# frames.  On each pb, show --text equals go tool pprof -text
# -compact_labels byte for byte (profconv prints pprof's compact headers
# only) with the granularity, sort, trim, filter, label-filter and
# percentage options, and pprof's -top is the same report; show
# --topproto writes the profile go tool pprof -topproto writes (both as
# pprof -raw prints them).  Then names
# that talk to a terminal are escaped, and the usage errors.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

use_go
use_jemalloc
je_alloc_pb --threads

# --- jemalloc, with thread labels and size tags ---------------------------------
same_as_pprof text "$PB" jemalloc "" "-cum" "-lines" "-addresses" \
    "-addresses -noinlines" \
    "-noinlines" "-sample_index=alloc_space" "-sample_index=inuse_objects" \
    "-nodecount=3" "-nodefraction=0.2 -edgefraction=0.1" \
    "-focus=thread_work" "-focus=thread_work -relative_percentages" \
    "-ignore=leak_small" "-show_from=thread_work -cum" "-hide=level2" \
    "-tagfocus=thread_name=worker" "-tagignore=bytes=32kb" \
    "-tagfocus=16kb:64kb -cum"
go tool pprof -text -compact_labels -symbolize=none "$PB" 2>/dev/null |
	grep -q '  thread_work$' || fail "-text: pprof shows no thread_work"

# pprof's -top is -text.
go tool pprof -top -compact_labels -symbolize=none -cum "$PB" >"$TMP/go.top" 2>/dev/null ||
	fail "go tool pprof -top"
"$PROFCONV" show --text --sort cum "$PB" >"$TMP/our.top" || fail "show --text --sort cum"
same_as_go "show --text --sort cum (-top)" "$TMP/go.top" "$TMP/our.top"

# --- -topproto ------------------------------------------------------------------
# The two profiles as go tool pprof -raw prints them: samples (cum and
# flat in the table's unit), locations, functions and header.
topproto() {
	t_pb=$1 t_what=$2
	shift 2
	for args in "$@"; do
		o=$(pprof_as_show "$args")
		# shellcheck disable=SC2086
		go tool pprof -topproto -symbolize=none $args -output="$TMP/go.top.pb" \
		    "$t_pb" 2>"$TMP/go.err" ||
			{ fail "$t_what: go tool pprof -topproto $args: $(head -n 2 "$TMP/go.err")"; continue; }
		# shellcheck disable=SC2086
		"$PROFCONV" show --topproto $o -o "$TMP/our.top.pb" "$t_pb" 2>"$TMP/our.err" ||
			{ fail "$t_what: show --topproto $o: $(head -n 2 "$TMP/our.err")"; continue; }
		go tool pprof -raw "$TMP/go.top.pb" >"$TMP/go.raw" 2>&1 || fail "$t_what: pprof -raw of its own -topproto"
		go tool pprof -raw "$TMP/our.top.pb" >"$TMP/our.raw" 2>&1 || fail "$t_what: pprof -raw of show --topproto"
		grep -q '^cum/.* flat/' "$TMP/go.raw" || fail "$t_what: -topproto $args: no cum and flat types"
		same_as_go "$t_what: show --topproto $o" "$TMP/go.raw" "$TMP/our.raw"
	done
}
topproto "$PB" jemalloc "" "-cum -lines" "-addresses" \
    "-sample_index=alloc_space -nodecount=5" \
    "-focus=thread_work -tagfocus=thread_name=worker"
# Not to a terminal, and -o only with it.
run 2 "$PROFCONV" show -o "$TMP/x.pb" "$PB"
[ -e "$TMP/x.pb" ] && fail "show -o without --topproto wrote a file"

# --- tcmalloc's heap profiler ----------------------------------------------------
tc_alloc_pb
if [ -n "$TC_PB" ]; then
	same_as_pprof text "$TC_PB" tcmalloc "" "-cum" "-lines" \
	    "-sample_index=alloc_space" "-nodecount=4" "-focus=thread_work"
	topproto "$TC_PB" tcmalloc "" "-lines -cum"
fi

# --- names that talk to the terminal -------------------------------------------
esc=$(printf '\033')
hostile_names_pb "$TMP/evil.pb" "clear${esc}[2J" "tab$(printf '\t')x"
run 0 "$PROFCONV" show --text --no-symbolize "$TMP/evil.pb"
cat -v "$TMP/out" | cmp -s - "$TMP/out" || fail "show --text sends control characters"
grep -qF 'clear\x1b[2J' "$TMP/out" || fail "show --text: name not escaped"

# --- errors --------------------------------------------------------------------
run 2 "$PROFCONV" show --text --tree "$PB"
head -n 1 "$TMP/err" | grep -qF "reports of their own" ||
	fail "show --text --tree: $(head -n 1 "$TMP/err")"
run 2 "$PROFCONV" show --text --summary "$PB"
run 2 "$PROFCONV" show --text --nodefraction 2 "$PB"
run 1 "$PROFCONV" show --text -t no_such_type "$PB"
head -n 1 "$TMP/err" | grep -qF "no_such_type" || fail "show --text -t: $(head -n 1 "$TMP/err")"
[ -s "$TMP/out" ] && fail "show --text with a bad type wrote a report"
finish
