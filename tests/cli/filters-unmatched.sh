# SPDX-License-Identifier: MIT
# filters-unmatched.sh - a filter that matches nothing is said, as go
# tool pprof says it, by every command that takes filters.
#
# tests/producers/alloc.c runs under jemalloc with three named worker
# threads; "profconv text2pb --threads" labels its samples.  For each
# filter (--focus ... --tagleaf, --tagshow, --taghide), once with an expression that matches
# and once with one that does not: go tool pprof -top prints "<Name>
# expression matched no samples" on stderr exactly when "profconv show
# -s" prints "--<name> expression '...' matched no samples" (pprof has
# no such line for -prune_from: ours is checked on its own).  Then each
# command that takes filters (show --sizes, list, report, profdiff,
# profflame, profgraph, proftrend) says it once, for two profiles or a
# series too; proftrend -q says nothing.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
use_jemalloc

JE_CONF=prof_final:true,prof_accum:true je_producer -f alloc 0 4
set -- "$TMP"/je/je.*.heap
[ $# -ge 2 ] || { fail "jemalloc wrote $# dumps, expected 2"; finish; }
PB=$TMP/thr.pb.gz
PB2=$TMP/thr2.pb.gz
# Symbolized once, so that go tool pprof and we match the same names.
"$PROFCONV" text2pb --threads -o "$TMP/raw.pb.gz" "$1" &&
    "$PROFCONV" symbolize -o "$PB" "$TMP/raw.pb.gz" 2>/dev/null ||
	fail "text2pb --threads, symbolize '$1'"
"$PROFCONV" text2pb --threads -o "$TMP/raw2.pb.gz" "$2" &&
    "$PROFCONV" symbolize -o "$PB2" "$TMP/raw2.pb.gz" 2>/dev/null ||
	fail "text2pb --threads, symbolize '$2'"

# OPTION (ours), pprof's flag, a matching expression, one matching nothing.
cases='focus focus worker nosuchfunction
ignore ignore level2 nosuchfunction
hide hide zeroed nosuchfunction
show show thread_work nosuchfunction
show-from show_from worker nosuchfunction
prune-from prune_from worker nosuchfunction
tagfocus tagfocus thread_name=worker nosuchkey=1
tagignore tagignore thread_name=worker-1 nosuchkey=x
tagroot tagroot thread nosuchkey
tagleaf tagleaf thread_name nosuchkey
tagshow tagshow thread nosuchkey
taghide taghide thread_name nosuchkey'

# ours OPTION VALUE: the options show -s says matched nothing.
ours() {
	"$PROFCONV" show -s --no-symbolize "--$1" "$2" "$PB" 2>"$TMP/our.err" >/dev/null ||
		fail "show -s --$1 '$2' failed: $(cat "$TMP/our.err")"
	sed -n "s/^profconv show: warning: \\(--[a-z-]*\\) expression '.*' matched no samples\$/\\1/p" "$TMP/our.err"
}
# theirs FLAG VALUE: the same from go tool pprof -top, as our options.
theirs() {
	go tool pprof -top -symbolize=none "-$1=$2" "$PB" 2>&1 >/dev/null |
		sed -n 's/^\([A-Za-z]*\) expression matched no samples$/\1/p' |
		sed 's/ShowFrom/show-from/' | tr 'A-Z' 'a-z' | sed 's/^/--/'
}

while read -r opt flag good bad; do
	for v in "$good" "$bad"; do
		o=$(ours "$opt" "$v")
		if [ "$opt" = prune-from ]; then
			# pprof says nothing of -prune_from.
			t=
			[ "$v" = "$bad" ] && t=--prune-from
		else
			t=$(theirs "$flag" "$v")
		fi
		[ "$o" = "$t" ] || fail "--$opt '$v': we warn '$o', go tool pprof '$t'"
		# Not vacuous: the bad one is warned of, the good one not.
		if [ "$v" = "$bad" ]; then
			[ "$o" = "--$opt" ] || fail "--$opt '$v': no warning"
		else
			[ -z "$o" ] || fail "--$opt '$v': warned though it matched"
		fi
	done
done <<EOF
$cases
EOF

# Two filters, one matching: only the other is said, with its text.
run 0 "$PROFCONV" show -s --no-symbolize --focus worker --tagfocus nosuchkey=1 "$PB"
grep -q 'matched no samples' "$TMP/out" && fail "the warning went to standard output"
expect_err "profconv show: warning: --tagfocus expression 'nosuchkey=1' matched no samples"

# Every command: one line, for one profile, two, or a series.
W="expression 'nosuchkey=1' matched no samples"
# check STATUS NAME CMD...: CMD exits STATUS, saying it once as NAME.
check() {
	want=$1 name=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got: $(cat "$TMP/err")"
	[ "$(grep -c "matched no samples" "$TMP/err")" = 1 ] &&
	    grep -qx "$name: warning: --tagfocus $W" "$TMP/err" ||
		fail "'$*': stderr: $(cat "$TMP/err")"
}
check 0 "profconv show" "$PROFCONV" show --sizes --no-symbolize --tagfocus nosuchkey=1 "$PB"
check 1 "profconv list" "$PROFCONV" list --no-symbolize --tagfocus nosuchkey=1 worker "$PB"
check 1 "profconv list" "$PROFCONV" list --no-symbolize --tagfocus nosuchkey=1 --base "$PB2" worker "$PB"
check 0 profflame "$CMD/profflame" --no-symbolize --tagfocus nosuchkey=1 "$PB"
check 0 profflame "$CMD/profflame" --no-symbolize --tagfocus nosuchkey=1 --base "$PB2" "$PB"
check 0 profgraph "$CMD/profgraph" --no-symbolize --dot --tagfocus nosuchkey=1 "$PB"
check 1 profdiff "$CMD/profdiff" --no-symbolize --tagfocus nosuchkey=1 "$PB" "$PB2"
check 0 proftrend "$CMD/proftrend" --no-symbolize --tagfocus nosuchkey=1 "$PB" "$PB2" "$PB2"
# report takes --focus (and the label filters where it has them).
"$PROFCONV" report --no-symbolize --focus nosuchfunction -o "$TMP/r.html" "$PB" \
    >"$TMP/out" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
grep -qx "profconv report: warning: --focus expression 'nosuchfunction' matched no samples" "$TMP/err" ||
	fail "report --focus: stderr: $(cat "$TMP/err")"
# A filter that matches in one of the profiles is not said.
"$CMD/profdiff" --no-symbolize --tagfocus thread_name=worker "$PB" "$PB2" \
    >/dev/null 2>"$TMP/err"
grep -q "matched no samples" "$TMP/err" && fail "profdiff: a matching filter said: $(cat "$TMP/err")"
# --tagshow and --taghide too, where labels are printed or not.
"$CMD/profflame" --no-symbolize --tagshow nosuchkey --taghide thread "$PB" \
    >/dev/null 2>"$TMP/err" || fail "profflame --tagshow: $(cat "$TMP/err")"
[ "$(grep -c 'matched no samples' "$TMP/err")" = 1 ] &&
    grep -qx "profflame: warning: --tagshow expression 'nosuchkey' matched no samples" "$TMP/err" ||
	fail "profflame --tagshow: stderr: $(cat "$TMP/err")"
# proftrend -q prints nothing.
"$CMD/proftrend" -q --no-symbolize --tagfocus nosuchkey=1 "$PB" "$PB2" \
    >"$TMP/out" 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "proftrend -q: stderr: $(cat "$TMP/err")"
finish
