# SPDX-License-Identifier: MIT
# go-interop.sh - go tool pprof reads what profconv writes and agrees with
# the original: a CPU and a heap profile made now by a small Go program are
# read and rewritten by profconv (a "show"-level round trip through the
# library's writer), and `go tool pprof -raw` prints the same for both.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
REWRITE=$(built tests/rewrite)
[ -x "$REWRITE" ] || skip "tests/rewrite not built"

export GOFLAGS=-mod=mod
cp -r "$PROFCONV_SRCDIR/tests/go" "$TMP/work"
(cd "$TMP/work" && go test -run xxx -bench . -benchtime 200ms \
	-cpuprofile cpu.pb.gz -memprofile mem.pb.gz -memprofilerate 512 \
	-o work.test . >"$TMP/gotest.log" 2>&1) || {
	cat "$TMP/gotest.log" >&2
	fail "go test failed"
	finish
}

for p in cpu mem; do
	for level in 0 6; do
		in=$TMP/work/$p.pb.gz
		out=$TMP/$p.$level.pb
		"$REWRITE" "$in" "$out" "$level" || { fail "rewrite $p $level"; continue; }
		# symbolize=none: compare the files, not this machine's binaries.
		go tool pprof -raw -symbolize=none "$in" >"$TMP/a" 2>"$TMP/a.err" ||
			fail "go tool pprof cannot read the original $p"
		go tool pprof -raw -symbolize=none "$out" >"$TMP/b" 2>"$TMP/b.err" ||
			fail "go tool pprof cannot read profconv's $p (level $level): $(cat "$TMP/b.err")"
		diff -u "$TMP/a" "$TMP/b" >&2 || fail "go tool pprof -raw differs for $p (level $level)"
		# And the sample totals profconv reports equal go's.
		"$PROFCONV" show -s "$out" >"$TMP/sum" || fail "show -s $p"
	done
done
# Totals: go's -traces sum for the default type against profconv's summary.
go tool pprof -raw -symbolize=none "$TMP/work/mem.pb.gz" 2>/dev/null |
	awk '/^Samples:/ {s=1; getline; next} /^Locations/ {s=0}
	s && $1 ~ /^-?[0-9]+$/ {t += $2} END {print t+0}' >"$TMP/gototal"
"$PROFCONV" show -s "$TMP/mem.6.pb" | sed -n 's/^total alloc_space\/bytes: \([0-9]*\).*/\1/p' >"$TMP/pctotal"
[ -s "$TMP/gototal" ] && [ "$(cat "$TMP/gototal")" -gt 0 ] || fail "no alloc_space total from go"
cmp -s "$TMP/gototal" "$TMP/pctotal" || fail "alloc_space: go $(cat "$TMP/gototal") vs profconv $(cat "$TMP/pctotal")"
finish
