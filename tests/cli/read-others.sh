# SPDX-License-Identifier: MIT
# read-others.sh - what other tools read, profconv reads (issue 29): pzstd's
# files (skippable frames before every frame), zstd frames with windows
# over 128 MiB (--long=31) within --max-input, a UTF-8 byte order mark
# before a text profile as go tool pprof takes it, and a pprof followed by
# NUL padding as far as go tool pprof reads it.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

CORPUS=$PROFCONV_SRCDIR/tests/fuzz/corpus/read
GOSRC=/usr/share/gocode/src/github.com/google/pprof
TESTDATA=${PPROF_TESTDATA:-$GOSRC/profile/testdata}
REWRITE=$(built tests/rewrite)
go_env
have_go=false
command -v go >/dev/null 2>&1 && [ -x "$REWRITE" ] && have_go=true

# same_show A B: profconv show prints the same for both.
same_show() {
	run 0 "$PROFCONV" show "$1"
	mv "$TMP/out" "$TMP/show-a"
	run 0 "$PROFCONV" show "$2"
	cmp -s "$TMP/show-a" "$TMP/out" || fail "$2 reads unlike $1"
}

# go_agrees IN: go tool pprof -raw prints the same for IN and for
# profconv's rewrite of it.
go_agrees() {
	"$REWRITE" "$1" "$TMP/rw.pb.gz" 6 2>"$TMP/err" ||
		{ fail "${1##*/}: rewrite failed: $(cat "$TMP/err")"; return; }
	go tool pprof -raw -symbolize=none "$1" >"$TMP/go-a" 2>"$TMP/err" ||
		{ fail "${1##*/}: go tool pprof cannot read it"; return; }
	go tool pprof -raw -symbolize=none "$TMP/rw.pb.gz" >"$TMP/go-b" 2>&1 ||
		{ fail "${1##*/}: go cannot read the rewrite"; return; }
	diff -u "$TMP/go-a" "$TMP/go-b" >&2 ||
		fail "${1##*/}: go tool pprof -raw differs"
}

# --- zstd: pzstd's skippable frames, and a hand-made one anywhere -------
if command -v zstd >/dev/null 2>&1; then
	# 5.6 MB of heap profile: pzstd -1 cuts it in three frames.
	awk 'BEGIN { print "heap profile: 120000: 122880000 [120000: 122880000] @ heap/524288"
		for (i = 0; i < 120000; i++)
			printf "1: 1024 [1: 1024] @ 0x%x 0x%x 0x%x\n",
			    4198400 + i % 5000 * 16, 4300000 + i % 77 * 16,
			    4400000 + i % 13 * 16 }' >"$TMP/big.heap"
	if command -v pzstd >/dev/null 2>&1; then
		pzstd -q -1 -p 2 -f "$TMP/big.heap" -o "$TMP/big.pzst"
		zstd -dc "$TMP/big.pzst" | cmp -s - "$TMP/big.heap" ||
			fail "zstd does not read pzstd's file"
		same_show "$TMP/big.heap" "$TMP/big.pzst"
		run 0 "$PROFCONV" show - <"$TMP/big.pzst"
		cmp -s "$TMP/show-a" "$TMP/out" || fail "pzstd's file from a pipe"
	else
		echo "pzstd missing: its files not tried" >&2
	fi
	# A skippable frame (magic 0x184D2A5B, 3 bytes) first, between two
	# frames and last, as zstd -d takes them.
	skip_frame() { printf '\133\052\115\030\003\000\000\000abc'; }
	tc=$CORPUS/tcmalloc-heapprofile.heap
	{
		skip_frame
		head -c 1000 "$tc" | zstd -q -c
		skip_frame
		tail -c +1001 "$tc" | zstd -q -c
		skip_frame
	} >"$TMP/skip.zst"
	zstd -dc "$TMP/skip.zst" | cmp -s - "$tc" ||
		fail "zstd does not read the skippable frames"
	same_show "$tc" "$TMP/skip.zst"
	# Cut inside the last skippable frame: zstd -d refuses it too.
	head -c -2 "$TMP/skip.zst" >"$TMP/cut.zst"
	run 1 "$PROFCONV" show "$TMP/cut.zst"
	grep -q "'$TMP/cut.zst': truncated zstd data at offset " "$TMP/err" ||
		fail "a cut skippable frame: $(cat "$TMP/err")"

	# A 2 GiB window (--long=31 and a size zstd does not know): read
	# under the default --max-input; under a smaller one, the window is
	# named.  zstd -d itself needs --long=31 for it.
	zstd -q -c --long=31 <"$tc" >"$TMP/long.zst"
	zstd -dc --long=31 "$TMP/long.zst" | cmp -s - "$tc" ||
		fail "zstd --long=31 does not read its own file"
	same_show "$tc" "$TMP/long.zst"
	run 1 "$PROFCONV" show --max-input 100M "$TMP/long.zst"
	expect_err "profconv show: '$TMP/long.zst': zstd frame at offset 0 needs a window of 2048 MiB, more than the input limit of 104857600 bytes allows"
	# Within 1 GiB, a 1 GiB window reads.
	zstd -q -c --long=30 <"$tc" >"$TMP/long30.zst"
	run 0 "$PROFCONV" show --max-input 1G "$TMP/long30.zst"
	cmp -s "$TMP/show-a" "$TMP/out" || fail "--long=30 under --max-input 1G"
else
	echo "zstd missing: zstd inputs not tried" >&2
fi

# --- a UTF-8 byte order mark before a text profile -----------------------
bom() { printf '\357\273\277' >"$2"; cat "$1" >>"$2"; }
for f in tcmalloc-heapprofile.heap goheap.heap heapz-v2.heap growth.heap \
    threadz.txt contention.txt jemalloc.heap heaptrack-v2.txt massif.out; do
	bom "$CORPUS/$f" "$TMP/bom-$f"
	same_show "$CORPUS/$f" "$TMP/bom-$f"
done
# go tool pprof reads heap and thread profiles after one (its header
# patterns are not anchored), and a goroutine profile with the mark in
# its type's name; profconv's rewrite of each prints the same in it.
if $have_go; then
	for f in "$TESTDATA"/cppbench.heap "$TESTDATA"/cppbench.growth \
	    "$TESTDATA"/gobench.heap "$TESTDATA"/cppbench.thread \
	    "$TESTDATA"/go.godoc.thread "$CORPUS"/goheap.heap \
	    "$CORPUS"/threadz.txt "$CORPUS"/goroutine.txt; do
		[ -f "$f" ] || { fail "missing: $f"; continue; }
		bom "$f" "$TMP/bom-${f##*/}"
		go_agrees "$TMP/bom-${f##*/}"
	done
else
	echo "go or tests/rewrite missing: pprof not compared" >&2
fi

# --- NUL padding after a pprof -------------------------------------------
# go tool pprof skips field 0 (two zero bytes: field 0, varint 0) as any
# unknown field: an even count of NULs reads, an odd one does not.
gzip -dc "$DATA/go/mem.pb.gz" >"$TMP/mem.pb"
for n in 2 8 4096 65536; do
	{ cat "$TMP/mem.pb"; head -c $n /dev/zero; } >"$TMP/pad$n.pb"
	same_show "$TMP/mem.pb" "$TMP/pad$n.pb"
	$have_go && go_agrees "$TMP/pad$n.pb"
done
gzip -c "$TMP/pad8.pb" >"$TMP/pad8.pb.gz"
same_show "$TMP/mem.pb" "$TMP/pad8.pb.gz"
for n in 1 4097; do
	{ cat "$TMP/mem.pb"; head -c $n /dev/zero; } >"$TMP/odd$n.pb"
	size=$(wc -c <"$TMP/odd$n.pb")
	run 1 "$PROFCONV" show "$TMP/odd$n.pb"
	expect_err "profconv show: '$TMP/odd$n.pb': truncated pprof protobuf: field 0 at offset $((size - 1)) runs past the end ($size bytes)"
	if $have_go && go tool pprof -raw -symbolize=none "$TMP/odd$n.pb" \
	    >/dev/null 2>&1; then
		fail "go tool pprof reads $n NULs after a profile"
	fi
done
finish
