# SPDX-License-Identifier: MIT
# usage-errors.sh - wrong command lines exit 2 with a hint on stderr.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 2 "$PROFCONV"
expect_err "profconv: no command given
Try 'profconv --help'."
run 2 "$PROFCONV" frobnicate
expect_err "profconv: 'frobnicate' is not a profconv command
Try 'profconv --help'."
run 2 "$PROFCONV" --bogus
grep -q "Try 'profconv --help'." "$TMP/err" || fail "no hint for --bogus"
run 2 "$PROFCONV" show --bogus x
grep -q "Try 'profconv show --help'." "$TMP/err" || fail "no hint for show --bogus"
run 2 "$PROFCONV" show
expect_err "profconv show: expected one FILE
Try 'profconv show --help'."
run 2 "$PROFCONV" show a b
run 2 "$PROFCONV" show --top x "$DATA/go/cpu.pb.gz"
expect_err "profconv show: invalid --top value 'x' (expected 0..1000000)
Try 'profconv show --help'."
[ -s "$TMP/out" ] && fail "usage error wrote to stdout"
run 2 "$CMD/proftrend" "$DATA/go/mem.pb.gz"
expect_err "proftrend: expected two SNAPSHOTs or more, or a massif file with two detailed snapshots
Try 'proftrend --help'."
run 2 "$CMD/proftrend"
expect_err "proftrend: expected two SNAPSHOTs or more, or a massif file with two detailed snapshots
Try 'proftrend --help'."
run 2 "$CMD/proftrend" --by frame a b
expect_err "proftrend: invalid --by value 'frame' (use function, line or stack)
Try 'proftrend --help'."
run 2 "$CMD/proftrend" --min-grew 1.5 a b
expect_err "proftrend: invalid --min-grew value '1.5' (expected 0..1)
Try 'proftrend --help'."
run 2 "$CMD/proftrend" --min-growth 4X a b
expect_err "proftrend: invalid --min-growth value '4X' (bytes, with an optional K, M or G)
Try 'proftrend --help'."
run 2 "$CMD/proftrend" --min-growth K a b
expect_err "proftrend: invalid --min-growth value 'K' (bytes, with an optional K, M or G)
Try 'proftrend --help'."
run 2 "$CMD/proftrend" --bogus a b
grep -q "Try 'proftrend --help'." "$TMP/err" || fail "no hint for proftrend --bogus"
[ -s "$TMP/out" ] && fail "proftrend usage error wrote to stdout"
# A bad --focus or --ignore is a usage error found before any input is
# read: exit 2, nothing on standard output, even with a missing input.
bad_regex() {	# bad_regex NAME OPTION CMD...
	name=$1 what=$2
	shift 2
	run 2 "$@"
	head -n 1 "$TMP/err" | grep -qF "$name: invalid $what expression '(': " ||
		fail "'$*': $(head -n 1 "$TMP/err")"
	[ "$(sed -n 2p "$TMP/err")" = "Try '$name --help'." ] ||
		fail "'$*': no hint"
	[ "$(wc -l <"$TMP/err")" = 2 ] || fail "'$*': more than a message and a hint"
	[ -s "$TMP/out" ] && fail "'$*': usage error wrote to stdout"
}
M=$DATA/go/mem.pb.gz
for in in "$M" "$TMP/no-such-input"; do
	bad_regex "profconv show" focus "$PROFCONV" show --focus '(' "$in"
	bad_regex "profconv show" ignore "$PROFCONV" show --ignore '(' "$in"
	bad_regex profdiff ignore "$CMD/profdiff" --ignore '(' "$in" "$in"
	bad_regex profflame focus "$CMD/profflame" --focus '(' "$in"
	bad_regex profflame ignore "$CMD/profflame" --svg --ignore '(' "$in"
	bad_regex proftrend focus "$CMD/proftrend" --focus '(' "$in" "$in"
done

finish
