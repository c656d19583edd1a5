# SPDX-License-Identifier: MIT
# comments.sh - --add-comment and show --comments (issue #42: pprof's
# -add_comment and -comments) on a real jemalloc profile made now: every
# command that takes --add-comment keeps the texts in what it writes or
# shows, in order, once each, and go tool pprof -comments reads the same
# comments from the files written.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_jemalloc
je_alloc_pb

# A name from a profile is data: an escape sequence in a comment is shown
# escaped, never sent to the terminal.
esc=$(printf 'red \033[31m!')

# show --comments: the texts added, one a line, in the order given.
run 0 "$PROFCONV" show --comments --add-comment 'build 1234' \
	--add-comment '#host a1' "$PB"
printf 'build 1234\n#host a1\n' >"$TMP/want"
cmp -s "$TMP/want" "$TMP/out" || fail "show --comments: $(cat "$TMP/out")"
# None in the profile itself: nothing.
run 0 "$PROFCONV" show --comments "$PB"
[ ! -s "$TMP/out" ] || fail "show --comments of a profile without: $(cat "$TMP/out")"

# text2pb, symbolize and merge keep them in the profile they write (the
# old ones first), merge once each.
"$PROFCONV" text2pb --add-comment one "$je_m0" -o "$TMP/c1.pb.gz" ||
	fail "text2pb --add-comment"
"$PROFCONV" symbolize --add-comment two "$TMP/c1.pb.gz" -o "$TMP/c2.pb.gz" \
	2>/dev/null || fail "symbolize --add-comment"
"$PROFCONV" merge --add-comment "$esc" "$TMP/c2.pb.gz" "$TMP/c2.pb.gz" \
	-o "$TMP/c3.pb.gz" || fail "merge --add-comment"
run 0 "$PROFCONV" show --comments "$TMP/c3.pb.gz"
printf 'one\ntwo\nred \\x1b[31m!\n' >"$TMP/want"
cmp -s "$TMP/want" "$TMP/out" || {
	diff -u "$TMP/want" "$TMP/out" >&2
	fail "the comments of text2pb, symbolize and merge"
}
# The dump shows them too.
run 0 "$PROFCONV" show "$TMP/c3.pb.gz"
expect_out_has '^comment: two$'
if grep -q "$(printf '\033')" "$TMP/out"; then fail "an escape reached the dump"; fi

# The text written while read (text2pb streams) and read whole (with a
# comment) are the same profile but for the comment.
"$PROFCONV" text2pb "$je_m0" -o "$TMP/s.pb.gz" || fail "text2pb"
"$PROFCONV" show "$TMP/s.pb.gz" >"$TMP/s.txt"
"$PROFCONV" show "$TMP/c1.pb.gz" | grep -v '^comment: one$' >"$TMP/c1.txt"
cmp -s "$TMP/s.txt" "$TMP/c1.txt" || fail "text2pb --add-comment changed more than the comments"

# --traces' header and profgraph's legend show those not starting with
# '#', as pprof's do.
run 0 "$PROFCONV" show --traces --add-comment 'build 1234' --add-comment '#hidden' "$PB"
expect_out_has '^build 1234$'
! grep -q 'hidden' "$TMP/out" || fail "--traces shows a '#' comment"
run 0 "$CMD/profgraph" --dot --add-comment 'build 1234' --add-comment '#hidden' "$PB"
expect_out_has 'build 1234'
! grep -q 'hidden' "$TMP/out" || fail "profgraph shows a '#' comment"

# The report's summary too, markup in a comment shown as text.
"$PROFCONV" text2pb "$je_m0" --add-comment 'build <b>5678</b>' \
	--add-comment '#not-shown-77' -o "$TMP/r.pb.gz" || fail "text2pb --add-comment"
run 0 "$PROFCONV" report -o "$TMP/r.html" "$TMP/r.pb.gz"
grep -qF '<dt>comment</dt><dd class="comment">build &lt;b&gt;5678&lt;/b&gt;</dd>' "$TMP/r.html" ||
	fail "report: no comment in the summary: $(grep -o '<dt>comment.\{0,80\}' "$TMP/r.html")"
! grep -q 'not-shown-77' "$TMP/r.html" || fail "report shows a '#' comment"
grep -q '<b>5678' "$TMP/r.html" && fail "report: a comment's markup is markup"

# --comments is a report of its own.
run 2 "$PROFCONV" show --comments --summary "$PB"

# The oracle: go tool pprof -comments reads the same comments from the
# file merge wrote.
if command -v go >/dev/null 2>&1; then
	go_env
	go tool pprof -comments "$TMP/c3.pb.gz" >"$TMP/go.out" 2>"$TMP/go.err" ||
		fail "go tool pprof -comments: $(cat "$TMP/go.err")"
	printf 'one\ntwo\n%s\n' "$esc" >"$TMP/want"
	same_as_go "-comments" "$TMP/want" "$TMP/go.out"
fi
finish
