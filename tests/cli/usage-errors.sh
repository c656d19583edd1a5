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
finish
