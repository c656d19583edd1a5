# SPDX-License-Identifier: MIT
# merge-diff.sh - profconv merge and profdiff: arithmetic, exit statuses,
# and agreement with go tool pprof's own merge and -base on real Go heap
# profiles made at test time.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

PROFDIFF=$CMD/profdiff
a=$DATA/go/mem.pb.gz

# total TYPE FILE: the summary's total of one sample type.
total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}

# Merging a profile with itself doubles every total.
run 0 "$PROFCONV" merge -o "$TMP/twice.pb.gz" "$a" "$a"
for t in alloc_objects alloc_space inuse_objects inuse_space; do
	[ "$(total $t "$TMP/twice.pb.gz")" = "$(( $(total $t "$a") * 2 ))" ] ||
		fail "merge: $t is not doubled"
done
run 0 "$PROFCONV" merge --no-compress -o "$TMP/raw.pb" "$a"
[ "$(head -c 2 "$TMP/raw.pb" | od -An -tx1 | tr -d ' ')" != 1f8b ] ||
	fail "--no-compress wrote gzip"

# A profile against itself: no rows, exit 0; -q prints nothing.
run 0 "$PROFDIFF" "$a" "$a"
[ "$(grep -vc -e '^ *New ' -e 'TOTAL$' "$TMP/out")" = 0 ] || fail "rows for identical profiles"
run 0 "$PROFDIFF" -q "$a" "$a"
[ -s "$TMP/out" ] && fail "-q printed"

# Usage and input trouble exit 2.
run 2 "$PROFDIFF" "$a"
expect_err "profdiff: expected BASE and CUR
Try 'profdiff --help'."
run 2 "$PROFDIFF" --by nothing "$a" "$a"
run 2 "$PROFDIFF" "$a" "$TMP/missing"
expect_err "profdiff: cannot open '$TMP/missing': No such file or directory"
run 2 "$PROFDIFF" --sort bogus "$a" "$a"
expect_err "profdiff: cannot sort by 'bogus': no such column"
run 2 "$PROFCONV" merge
run 1 "$PROFCONV" merge "$a" "$DATA/go/cpu.pb.gz"
expect_err "profconv merge: cannot merge '$DATA/go/cpu.pb.gz': profile 2 is incompatible: period type cpu/nanoseconds, not space/bytes"

command -v go >/dev/null 2>&1 || { finish; }
go_env
export GOFLAGS=-mod=mod
cp -r "$PROFCONV_SRCDIR/tests/go" "$TMP/work"
(cd "$TMP/work" && go test -run xxx -bench . -benchtime 300ms \
	-memprofile b.pb.gz -memprofilerate 512 -o work.test . >"$TMP/gotest.log" 2>&1) ||
	{ cat "$TMP/gotest.log" >&2; fail "go test failed"; finish; }
b=$TMP/work/b.pb.gz
raw() { go tool pprof -raw -symbolize=none "$@" 2>/dev/null; }

# merge equals go tool pprof's merge of the same inputs.
run 0 "$PROFCONV" merge -o "$TMP/m.pb.gz" "$a" "$b"
raw "$TMP/m.pb.gz" >"$TMP/ours"
raw "$a" "$b" >"$TMP/theirs"
[ -s "$TMP/theirs" ] || fail "go printed nothing for the merge"
diff -u "$TMP/theirs" "$TMP/ours" >&2 || fail "merge differs from go tool pprof's"

# The delta equals go tool pprof -base.
run 1 "$PROFDIFF" -q -o "$TMP/d.pb.gz" "$a" "$b"
raw "$TMP/d.pb.gz" >"$TMP/ours"
raw -base "$a" "$b" >"$TMP/theirs"
diff -u "$TMP/theirs" "$TMP/ours" >&2 || fail "delta differs from go tool pprof -base"

# The table's TOTAL row is the arithmetic of the totals.
run 1 "$PROFDIFF" --bytes "$a" "$b"
set -- $(grep 'TOTAL$' "$TMP/out")
dan=$(( $(total alloc_objects "$b") - $(total alloc_objects "$a") ))
din=$(( $(total inuse_objects "$b") - $(total inuse_objects "$a") ))
dib=$(( $(total inuse_space "$b") - $(total inuse_space "$a") ))
[ "$1" = "$dan" ] || fail "New $1 != $dan"
[ "$2" = "$((dan - din))" ] || fail "Freed $2 != $((dan - din))"
[ "$3" = "$din" ] || fail "Delta objs $3 != $din"
[ "$6" = "$dib" ] || fail "Delta bytes $6 != $dib"

# --leaks: every sample of the delta has grown in-use values.
run 1 "$PROFDIFF" -q --leaks -o "$TMP/l.pb.gz" "$a" "$b"
run 0 "$PROFCONV" show "$TMP/l.pb.gz"
awk '/^samples:/ {s=1; next} /^locations:/ {s=0}
	s && $1 ~ /^-?[0-9]+$/ && !($3 > 0 || $4+0 > 0) {bad++}
	END {exit bad > 0}' "$TMP/out" || fail "--leaks kept a sample that did not grow"
finish
