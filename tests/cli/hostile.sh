# SPDX-License-Identifier: MIT
# hostile.sh - small inputs built to cost much time or memory (issue 16).
# Each runs under a memory cap and a timeout far above what profconv needs
# (a few MB, well under a second), so only a real regression fails.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

use_caps

# Item 8: $variables in the map.  Three lines expand $c to 1 GB; 16,000
# variables make every '$' a long search.
hostile_vars "$TMP/vars.heap"
bounded 1 "$PROFCONV" show "$TMP/vars.heap"
expect_err "profconv show: '$TMP/vars.heap': line 7: \$variable expansion exceeds 16 MiB"
hostile_lookups "$TMP/lookups.heap"
bounded 1 "$PROFCONV" show "$TMP/lookups.heap"
expect_err "profconv show: '$TMP/lookups.heap': line 16046: \$variable lookups exceed 64M comparisons (too many variables)"
# Variables as real maps use them still work.
{
	hostile_heap_head
	printf 'build=/opt/app\n00400000-00500000 r-xp 00000000 00:00 0 $build/bin/app\n'
} >"$TMP/okvars.heap"
bounded 0 "$PROFCONV" show "$TMP/okvars.heap"
expect_out_has '/opt/app/bin/app'

# Item 10: an unrecognizable input is refused from its first bytes, not
# read whole (/dev/zero up to --max-input: 2.1 GB).
bounded 1 "$PROFCONV" show --max-input 4G /dev/zero
expect_err "profconv show: '/dev/zero': unrecognized profile format (binary data); expected pprof protobuf, gperftools/Go heap or CPU, jemalloc heap_v2, contention, Go goroutine/threadcreate, heaptrack or massif"

# Item 10: 8M empty samples, 16 MB (16 KB gzipped), need 192 MB of
# sample records; those are bounded by --max-input as the input is.
hostile_empty_pb "$TMP/empty.pb"
bounded 1 "$PROFCONV" show --max-input 64M "$TMP/empty.pb"
expect_err "profconv show: '$TMP/empty.pb': decoding this pprof protobuf (16777216 bytes) needs more than the input bound, 64 MiB, of memory"
# Item 15: running out of memory there says so (not "unrecognized"):
# 32M empty samples (64 MB) need 768 MB of sample records.
if [ "$CAP" != : ]; then
	cat "$TMP/empty.pb" "$TMP/empty.pb" "$TMP/empty.pb" "$TMP/empty.pb" \
		>"$TMP/empty4.pb"
	(ulimit -v 262144 && exec "$PROFCONV" show "$TMP/empty4.pb") \
		>/dev/null 2>"$TMP/err"
	expect_err "profconv show: '$TMP/empty4.pb': out of memory"
fi
# Item 17: a pprof cut short says where, not "unrecognized".
"$PROFCONV" text2pb --no-compress "$DATA/go/cpu.pb.gz" -o "$TMP/cpu.pb"
head -c 1000 "$TMP/cpu.pb" >"$TMP/cut.pb"
run 1 "$PROFCONV" show "$TMP/cut.pb"
grep -Eq "^profconv show: '$TMP/cut.pb': truncated pprof protobuf: field [0-9]+ at offset [0-9]+ runs past the end \(1000 bytes\)\$" "$TMP/err" ||
	fail "truncated pprof: $(cat "$TMP/err")"

# Item 12: 400k distinct addresses against 100k map entries: each address
# was compared with every entry (18 s); now a search (under 2 s).
hostile_many_maps "$TMP/many-maps.heap" 10000
LIMIT_S=12
bounded 0 "$PROFCONV" text2pb --level 0 "$TMP/many-maps.heap" -o "$TMP/many-maps.pb"
LIMIT_S=30

# Item 11: a maps file without line ends is refused at the line bound,
# not read until memory runs out.
printf 'heap profile: 1: 8 [ 1: 8] @ heapprofile\n1: 8 [ 1: 8] @ 0x1000\n' \
	>"$TMP/one.heap"
bounded 1 "$PROFCONV" symbolize --maps /dev/zero -o "$TMP/z.pb" "$TMP/one.heap"
grep -q "'/dev/zero': line 1: longer than 1048576 bytes" "$TMP/err" ||
	fail "symbolize --maps /dev/zero: $(cat "$TMP/err")"
[ -e "$TMP/z.pb" ] && fail "symbolize --maps /dev/zero left an output"

# Item 17: a directory named as a mapped file is "not a regular file",
# not "invalid file descriptor".
mkdir "$TMP/dirbin"
printf 'heap profile: 1: 8 [ 1: 8] @ heapprofile\n1: 8 [ 1: 8] @ 0x401000\n\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 %s\n' \
	"$TMP/dirbin" >"$TMP/dir.heap"
run 1 "$PROFCONV" symbolize -o "$TMP/dir.pb" "$TMP/dir.heap"
expect_err "profconv symbolize: '$TMP/dir.heap': '$TMP/dirbin' is not a regular file"

# Item 6: a FIFO planted as the separate debug file in a .build-id tree
# of the debug path does not block the symbolizer.
if command -v cc >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1; then
	printf 'int main(void) { return 0; }\n' >"$TMP/bid.c"
	cc -g -Wl,--build-id -o "$TMP/bid" "$TMP/bid.c" && strip -g "$TMP/bid"
	id=$(readelf -n "$TMP/bid" | awk '/Build ID/ {print $3}')
	if [ -n "$id" ]; then
		mkdir -p "$TMP/dbg/.build-id/$(echo "$id" | cut -c1-2)"
		mkfifo "$TMP/dbg/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
		printf 'heap profile: 1: 8 [ 1: 8] @ heapprofile\n1: 8 [ 1: 8] @ 0x401130\n\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 %s\n' \
			"$TMP/bid" >"$TMP/bid.heap"
		LIMIT_S=20
		bounded 0 "$PROFCONV" symbolize --debuginfo-path "$TMP/dbg" \
			-o "$TMP/bid.pb" "$TMP/bid.heap"
		LIMIT_S=30
	fi
fi

finish
