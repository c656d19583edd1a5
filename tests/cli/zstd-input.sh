# SPDX-License-Identifier: MIT
# zstd-input.sh - zstd-compressed input reads as the same data raw or
# gzip'd, in every format (a Go pprof, legacy heap text, massif), also as
# concatenated frames and from a pipe; --max-input bounds a zstd bomb.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v zstd >/dev/null 2>&1 || skip "zstd missing (Debian: zstd)"

gzip -dc "$DATA/go/mem.pb.gz" >"$TMP/mem.pb"
cp "$PROFCONV_SRCDIR/tests/fuzz/corpus/read/tcmalloc-heapprofile.heap" "$TMP/tc.heap"
cp "$PROFCONV_SRCDIR/tests/fuzz/corpus/read/massif.out" "$TMP/m.out"
for f in mem.pb tc.heap m.out; do
	"$PROFCONV" show "$TMP/$f" >"$TMP/want" 2>&1 || fail "$f does not read"
	zstd -q -c "$TMP/$f" >"$TMP/$f.zst"
	run 0 "$PROFCONV" show "$TMP/$f.zst"
	cmp -s "$TMP/want" "$TMP/out" || fail "$f.zst reads differently"
	run 0 "$PROFCONV" show - <"$TMP/$f.zst"
	cmp -s "$TMP/want" "$TMP/out" || fail "$f.zst from a pipe reads differently"
done
# Two frames: the text split in the middle of a line.
head -c 1000 "$TMP/tc.heap" | zstd -q -c >"$TMP/two.zst"
tail -c +1001 "$TMP/tc.heap" | zstd -q -c >>"$TMP/two.zst"
"$PROFCONV" show "$TMP/tc.heap" >"$TMP/want"
run 0 "$PROFCONV" show "$TMP/two.zst"
cmp -s "$TMP/want" "$TMP/out" || fail "concatenated zstd frames read differently"
# text2pb writes the same profile from either.
run 0 "$PROFCONV" text2pb "$TMP/tc.heap.zst" -o "$TMP/a.pb.gz"
run 0 "$PROFCONV" text2pb "$TMP/tc.heap" -o "$TMP/b.pb.gz"
cmp -s "$TMP/a.pb.gz" "$TMP/b.pb.gz" || fail "text2pb output differs for .zst"

# A zstd bomb: a pprof field header claiming 2 GB, then 200 MB of zeros,
# bounded like a gzip one.
{ printf '\012\377\377\377\377\007'; head -c 200000000 /dev/zero; } |
	zstd -q -c >"$TMP/bomb.zst"
run 1 "$PROFCONV" show --max-input 10M "$TMP/bomb.zst"
expect_err "profconv show: '$TMP/bomb.zst': input exceeds the limit of 10485760 bytes"
# Garbage after a frame.
{ cat "$TMP/tc.heap.zst"; echo junk; } >"$TMP/junk.zst"
run 1 "$PROFCONV" show "$TMP/junk.zst"
grep -Eq "^profconv show: '$TMP/junk.zst': corrupt zstd data at offset [0-9]+: " "$TMP/err" ||
	fail "junk after a zstd frame not reported: $(cat "$TMP/err")"
finish
