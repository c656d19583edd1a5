# SPDX-License-Identifier: MIT
# conformance.sh - every legacy profile in google/pprof's own test data
# reads the same in profconv as in go tool pprof: each is rewritten as
# pprof by the library, and `go tool pprof -raw` prints the same for the
# original and the rewrite.  Java profiles must be refused in one line.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

GOSRC=/usr/share/gocode/src/github.com/google/pprof
TESTDATA=${PPROF_TESTDATA:-$GOSRC/profile/testdata}
use_go
[ -d "$TESTDATA" ] || skip "no pprof test data in $TESTDATA" \
	"(Debian: golang-github-google-pprof-dev)"
REWRITE=$(built tests/rewrite)
[ -x "$REWRITE" ] || skip "tests/rewrite not built"

for name in cppbench.heap cppbench.growth cppbench.contention cppbench.cpu \
    cppbench.thread cppbench.thread.all cppbench.thread.none \
    gobench.heap gobench.cpu go.crc32.cpu go.godoc.thread; do
	in=$TESTDATA/$name
	[ -f "$in" ] || { fail "$name: missing from $TESTDATA"; continue; }
	if ! "$REWRITE" "$in" "$TMP/$name.pb.gz" 6 2>"$TMP/err"; then
		fail "$name: rewrite failed: $(cat "$TMP/err")"
		continue
	fi
	# symbolize=none: compare what the files say, not this machine.
	if ! go tool pprof -raw -symbolize=none "$in" >"$TMP/a" 2>"$TMP/err"
	then
		fail "$name: go tool pprof cannot read it: $(cat "$TMP/err")"
		continue
	fi
	if ! go tool pprof -raw -symbolize=none "$TMP/$name.pb.gz" \
	    >"$TMP/b" 2>"$TMP/err"; then
		fail "$name: go cannot read the rewrite: $(cat "$TMP/err")"
		continue
	fi
	grep -q '^Samples:' "$TMP/a" || fail "$name: go printed no samples"
	diff -u "$TMP/a" "$TMP/b" >&2 || fail "$name: go tool pprof -raw differs"
done

# Java legacy profiles: a clear one-line refusal, exit 1, no crash.
for name in java.cpu java.heap java.contention; do
	in=$TESTDATA/$name
	[ -f "$in" ] || { fail "$name: missing from $TESTDATA"; continue; }
	run 1 "$REWRITE" "$in" "$TMP/$name.pb.gz" 6
	[ "$(wc -l <"$TMP/err")" -eq 1 ] ||
		fail "$name: expected one line on stderr, got: $(cat "$TMP/err")"
	grep -q 'not supported$' "$TMP/err" ||
		fail "$name: no 'not supported' in: $(cat "$TMP/err")"
done
finish
