# SPDX-License-Identifier: MIT
# bad-input.sh - unreadable input fails with one line naming the file.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 1 "$PROFCONV" show "$TMP/missing.pb"
expect_err "profconv show: cannot open '$TMP/missing.pb': No such file or directory"
run 1 "$PROFCONV" show "$TMP"
expect_err "profconv show: cannot read '$TMP': Is a directory"
: >"$TMP/empty"
run 1 "$PROFCONV" show "$TMP/empty"
expect_err "profconv show: '$TMP/empty': empty input"
head -c 100 "$DATA/go/mem.pb.gz" >"$TMP/cut.gz"
run 1 "$PROFCONV" show "$TMP/cut.gz"
grep -Eq "^profconv show: '$TMP/cut.gz': truncated gzip data at offset [0-9]+$" "$TMP/err" ||
	fail "truncated gzip not reported: $(cat "$TMP/err")"
printf 'hello world\n' >"$TMP/text"
run 1 "$PROFCONV" show "$TMP/text"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "error is not one line"
grep -q "^profconv show: '$TMP/text': " "$TMP/err" || fail "error does not name the file"

# A gzip bomb: a pprof field header claiming 2 GB, then 200 MB of zeros in
# under 1 MB, bounded by --max-input.  Zeros alone are no format at all and
# are refused from their first bytes.
{ printf '\012\377\377\377\377\007'; head -c 200000000 /dev/zero; } |
	gzip -1 >"$TMP/bomb.gz"
run 1 "$PROFCONV" show --max-input 10M "$TMP/bomb.gz"
expect_err "profconv show: '$TMP/bomb.gz': input exceeds the limit of 10485760 bytes"
head -c 200000000 /dev/zero | gzip -1 >"$TMP/zeros.gz"
run 1 "$PROFCONV" show --max-input 10M "$TMP/zeros.gz"
expect_err "profconv show: '$TMP/zeros.gz': unrecognized profile format (binary data); expected pprof protobuf, gperftools/Go heap or CPU, jemalloc heap_v2, contention, Go goroutine/threadcreate, heaptrack or massif"
run 2 "$PROFCONV" show --max-input 10Q "$TMP/bomb.gz"
run 2 "$PROFCONV" show --max-input -5 "$TMP/bomb.gz"

# Other compressors are named, not "unrecognized" (magic numbers only),
# as are a CPU profile with period 0 and a corrupt gzip stream's offset.
printf '\375\067zXZ\000\000\004' >"$TMP/p.xz"
printf 'BZh91AY&SY' >"$TMP/p.bz2"
for f in p.xz:xz p.bz2:bzip2; do
	run 1 "$PROFCONV" show "$TMP/${f%%:*}"
	expect_err "profconv show: '$TMP/${f%%:*}': ${f#*:}-compressed input: only gzip and zstd are read; decompress it first"
done
printf '\000\000\000\000\003\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$TMP/cpu0.prof"
run 1 "$PROFCONV" show "$TMP/cpu0.prof"
expect_err "profconv show: '$TMP/cpu0.prof': gperftools CPU profile with a sampling period of 0"
{ printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n' | gzip -c | head -c 12
  printf 'garbage that is no deflate stream'; } >"$TMP/corrupt.gz"
run 1 "$PROFCONV" show "$TMP/corrupt.gz"
grep -Eq "^profconv show: '$TMP/corrupt.gz': corrupt gzip data at offset [0-9]+: " "$TMP/err" ||
	fail "corrupt gzip without offset: $(cat "$TMP/err")"

# A 10 MB line, numbers beyond int64, negatives where none are allowed.
{ printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [1: 1] @'
  head -c 10000000 /dev/zero | tr '\0' ' '; echo; } >"$TMP/long.heap"
run 1 "$PROFCONV" show "$TMP/long.heap"
expect_err "profconv show: '$TMP/long.heap': line 2: longer than 1048576 bytes"
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n99999999999999999999: 1 [1: 1] @ 0x1\n' >"$TMP/ovf.heap"
run 1 "$PROFCONV" show "$TMP/ovf.heap"
expect_err "profconv show: '$TMP/ovf.heap': line 2: inuse count '99999999999999999999' out of range"
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [-1: 1] @ 0x1\n' >"$TMP/neg.heap"
run 1 "$PROFCONV" show "$TMP/neg.heap"
grep -q "^profconv show: '$TMP/neg.heap': line 2: " "$TMP/err" || fail "negative alloc count accepted"

# pprof: a string index out of range (hand-made wire bytes).  Invalid
# UTF-8 is no longer refused: see real-world.sh.
printf '\012\004\010\007\020\000\062\000' >"$TMP/index.pb"
run 1 "$PROFCONV" show "$TMP/index.pb"
expect_err "profconv show: '$TMP/index.pb': sample_type: string index 7 out of range (string table has 1 entries)"

# A stack token that is not an address is refused with its line, never
# skipped (that gave a sample with a shorter stack, or none).
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [1: 1] @ 0x10\n1: 1 [1: 1] @ 0xZZ 0x1ffffffffffffffffff\n' >"$TMP/token.heap"
run 1 "$PROFCONV" show "$TMP/token.heap"
expect_err "profconv show: '$TMP/token.heap': line 3: malformed address '0xZZ' in stack"
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [1: 1] @ 0x10 main+0x4 0x20\n' >"$TMP/token2.heap"
run 1 "$PROFCONV" show "$TMP/token2.heap"
expect_err "profconv show: '$TMP/token2.heap': line 2: malformed address 'main+0x4' in stack"
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [1: 1] @ 0x10 0x1%080d\n' 0 >"$TMP/token3.heap"
run 1 "$PROFCONV" show "$TMP/token3.heap"
expect_err "profconv show: '$TMP/token3.heap': line 2: address '0x10000000000000000000000000000000' does not fit in 64 bits"
# A long token is quoted with its middle elided.
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 1 [1: 1] @ 0x10 %s%s\n' "$(printf '%0200d' 0 | tr 0 g)" END >"$TMP/token4.heap"
run 1 "$PROFCONV" show "$TMP/token4.heap"
expect_err "profconv show: '$TMP/token4.heap': line 2: malformed address '$(printf '%030d' 0 | tr 0 g)...$(printf '%027d' 0 | tr 0 g)END' in stack"
printf -- '--- contention:\ncycles/second=1000\n1 1 @ 0x10 0xQ1\n' >"$TMP/token.cont"
run 1 "$PROFCONV" show "$TMP/token.cont"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^profconv show: '$TMP/token.cont': line 3: " "$TMP/err" ||
	fail "contention stack token: $(cat "$TMP/err")"
printf 'goroutine profile: total 1\n1 @ 0x10 0xZZ\n' >"$TMP/token.go"
run 1 "$PROFCONV" show "$TMP/token.go"
expect_err "profconv show: '$TMP/token.go': line 2: malformed count profile sample, expected 'N @ 0x...'"

# A goroutine dump with stacks (debug=2, runtime.Stack) is not the count
# profile: say so instead of "unrecognized".
printf 'goroutine 1 [running]:\nmain.main()\n\t/src/main.go:5 +0x1d\n' >"$TMP/debug2.txt"
run 1 "$PROFCONV" show "$TMP/debug2.txt"
expect_err "profconv show: '$TMP/debug2.txt': unsupported Go goroutine stack dump (debug=2 or runtime.Stack): only the debug=1 count profile ('goroutine profile: total N') is read"

# A refusal that quotes a long subject keeps its reason (as profflame on
# Parca's alloc_space_delta.pb.gz: a long stack with a negative count).
byte() { printf "\\$(printf %o "$1")"; }
long=$(printf '%0250d' 0 | tr 0 f)
{
	printf '\012\004\010\001\020\002'			# sample_type
	printf '\022\021\012\003\001\002\003\022\012'	# sample: 1 2 3,
	printf '\377\377\377\377\377\377\377\377\377\001'	# value -1
	for i in 1 2 3; do					# locations
		printf '\042\006\010'; byte $i; printf '\042\002\010'; byte $i
	done
	for i in 1 2 3; do					# functions
		printf '\052\004\010'; byte $i; printf '\020'; byte $((i + 2))
	done
	printf '\062\000\062\005space\062\005bytes'
	for i in 1 2 3; do printf '\062\372\001%s%s' "$long" $i | head -c 253; done
} >"$TMP/delta.pb"
run 1 "$CMD/profflame" "$TMP/delta.pb"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "long refusal is not one line"
grep "^profflame: '$TMP/delta.pb': " "$TMP/err" | grep "negative count" |
    grep -q "compare with a base instead$" ||
	fail "long refusal lost its reason: $(cat "$TMP/err")"

# Output that cannot be written: a full device, a place nothing can be
# created, and an existing output that must survive a failed command.
run 1 "$PROFCONV" text2pb "$DATA/go/cpu.pb.gz" -o /dev/full
expect_err "profconv text2pb: '/dev/full': write error: No space left on device"
[ -c /dev/full ] || fail "/dev/full is no longer a device"
# One line per write error, naming the output and the reason.
run 1 "$CMD/profflame" --no-symbolize "$DATA/go/mem.pb.gz" -o /dev/full
expect_err "profflame: '/dev/full': write error: No space left on device"
for cmd in "$PROFCONV show" "$PROFCONV text2pb" "$CMD/profflame --no-symbolize"; do
	$cmd "$DATA/go/mem.pb.gz" >/dev/full 2>"$TMP/err"
	[ $? = 1 ] || fail "$cmd >/dev/full: exit status"
	name=${cmd##*/}
	expect_err "${name% --*}: '<stdout>': write error: No space left on device"
done
"$CMD/profdiff" --no-symbolize "$DATA/go/mem.pb.gz" "$DATA/go/mem.pb.gz" >/dev/full 2>"$TMP/err"
[ $? = 2 ] || fail "profdiff >/dev/full: exit status"
expect_err "profdiff: '<stdout>': write error: No space left on device"
# Every command that writes says it the same way, with the reason:
# NAME: 'FILE': write error: REASON, one line.
M=$DATA/go/mem.pb.gz
full_says() {	# full_says STATUS NAME FILE CMD...: CMD fails writing FILE
	want=$1 name=$2 file=$3
	shift 3
	"$@" >/dev/full 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' >/dev/full exited $got, expected $want"
	grep -v "^$name: symbolized " "$TMP/err" >"$TMP/err1"
	mv "$TMP/err1" "$TMP/err"
	expect_err "$name: '$file': write error: No space left on device"
}
for to in "-o /dev/full|/dev/full" "|<stdout>"; do
	o=${to%|*} f=${to#*|}
	full_says 1 "profconv symbolize" "$f" "$PROFCONV" symbolize $o "$M"
	full_says 1 "profconv merge" "$f" "$PROFCONV" merge $o "$M" "$M"
	full_says 1 profflame "$f" "$CMD/profflame" --no-symbolize --svg $o "$M"
	full_says 1 profflame "$f" "$CMD/profflame" --no-symbolize --speedscope $o "$M"
	full_says 1 profflame "$f" "$CMD/profflame" --no-symbolize $o "$M"
done
full_says 2 profdiff "<stdout>" "$CMD/profdiff" --no-symbolize --json "$M" "$M"
full_says 2 profdiff /dev/full "$CMD/profdiff" --no-symbolize -q -o /dev/full "$M" "$M"
full_says 2 proftrend "<stdout>" "$CMD/proftrend" --no-symbolize "$M" "$M"
full_says 2 proftrend "<stdout>" "$CMD/proftrend" --no-symbolize --json "$M" "$M"
full_says 2 proftrend /dev/full "$CMD/proftrend" --no-symbolize -q -o /dev/full "$M" "$M"
full_says 1 "profconv show" "<stdout>" "$PROFCONV" show --summary "$M"
# With SIGPIPE ignored, a reader that leaves early is no error.
awk 'BEGIN { print "heap profile: 1: 2 [ 1: 2] @ heapprofile"
	for (i = 0; i < 20000; i++) printf "1: 16 [1: 16] @ 0x%x\n", 4096 + i * 16 }' \
	>"$TMP/long.heap"
for cmd in "$PROFCONV show" "$CMD/profflame --no-symbolize --addresses"; do
	(trap '' PIPE; { $cmd "$TMP/long.heap" 2>"$TMP/err"; echo $? >"$TMP/status"; } |
		head -c 1 >/dev/null)
	[ "$(cat "$TMP/status")" = 0 ] || fail "$cmd | head, SIGPIPE ignored: exit $(cat "$TMP/status")"
	[ -s "$TMP/err" ] && fail "$cmd | head, SIGPIPE ignored: $(cat "$TMP/err")"
done
run 1 "$PROFCONV" text2pb "$DATA/go/cpu.pb.gz" -o /proc/profconv-test.pb.gz
expect_err "profconv text2pb: cannot create '/proc/profconv-test.pb.gz': No such file or directory"
echo keep >"$TMP/existing.pb.gz"
run 1 "$PROFCONV" text2pb "$TMP/neg.heap" -o "$TMP/existing.pb.gz"
[ "$(cat "$TMP/existing.pb.gz")" = keep ] || fail "existing output clobbered"
[ "$(ls "$TMP" | grep -c 'existing.pb.gz.tmp')" = 0 ] || fail "temporary file left behind"
run 1 "$PROFCONV" text2pb "$DATA/go/cpu.pb.gz" -o "$TMP"
expect_err "profconv text2pb: cannot write '$TMP': Is a directory"

# A mapped file that is not ELF, or truncated ELF: symbolize refuses it;
# profflame, symbolizing only to name frames, warns and goes on.
printf 'not an ELF file\n' >"$TMP/fakebin"
head -c 200 "$(command -v sh)" >"$TMP/truncbin"
for bin in fakebin truncbin; do
	printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 2 [1: 2] @ 0x401010\n\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 %s\n' \
		"$TMP/$bin" >"$TMP/$bin.heap"
	run 1 "$PROFCONV" symbolize "$TMP/$bin.heap" -o "$TMP/$bin.pb.gz"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$bin: not one line: $(cat "$TMP/err")"
	grep -q "^profconv symbolize: '$TMP/$bin.heap': .*$TMP/$bin" "$TMP/err" ||
		fail "$bin: message does not name the files: $(cat "$TMP/err")"
	[ -e "$TMP/$bin.pb.gz" ] && fail "$bin: output written"
	run 0 "$CMD/profflame" "$TMP/$bin.heap"
	grep -q "warning: .*$TMP/$bin" "$TMP/err" || fail "$bin: profflame did not warn"
done

# heaptrack: a small valid file, then broken copies of it.
ht() {	# ht NAME EVENTS [TRAILER]: a heaptrack file with EVENTS
	printf 'v 10400 3\nX ./p\nI 1000 5e298d\ns 4 prog\ns 4 main\ni 1001 1 2\nt 1 0\na 10 1\n%b%b' \
	    "$2" "${3-\n# strings: 2\n# ips: 1\n}" >"$TMP/$1"
}
ht ok.ht '+ 0\n+ 0\n- 0\nc 5\n'
run 0 "$PROFCONV" show -s "$TMP/ok.ht"
grep -q '^total inuse_space/bytes: 16 ' "$TMP/out" || fail "small heaptrack file misread"
if command -v zstd >/dev/null 2>&1; then
	zstd -q -c "$TMP/ok.ht" | head -c 30 >"$TMP/cut.zst"
	run 1 "$PROFCONV" show "$TMP/cut.zst"
	grep -Eq "^profconv show: '$TMP/cut.zst': truncated zstd data at offset 30$" "$TMP/err" ||
		fail "truncated zstd not reported: $(cat "$TMP/err")"
fi
ht notrailer.ht '+ 0\n' ''
run 1 "$PROFCONV" show "$TMP/notrailer.ht"
expect_err "profconv show: '$TMP/notrailer.ht': truncated heaptrack data: the '# strings:' and '# ips:' trailer is missing after line 9"
ht count.ht '+ 0\n' '\n# strings: 3\n# ips: 1\n'
run 1 "$PROFCONV" show "$TMP/count.ht"
expect_err "profconv show: '$TMP/count.ht': heaptrack data is inconsistent: its trailer counts 3 strings and 1 ips, the file has 2 and 1"
ht info.ht '+ 1\n'
run 1 "$PROFCONV" show "$TMP/info.ht"
expect_err "profconv show: '$TMP/info.ht': line 9: allocation info 1 is not defined (1 so far)"
ht free.ht '- 0\n'
run 1 "$PROFCONV" show "$TMP/free.ht"
expect_err "profconv show: '$TMP/free.ht': line 9: free of allocation info 0, which has no live block"
ht hex.ht '+ 0x\n'
run 1 "$PROFCONV" show "$TMP/hex.ht"
expect_err "profconv show: '$TMP/hex.ht': line 9: unexpected character 'x' in a hex field"
ht trace.ht 't 9 0\n'
run 1 "$PROFCONV" show "$TMP/trace.ht"
expect_err "profconv show: '$TMP/trace.ht': line 9: trace refers to instruction pointer 9 (1 defined)"
ht len.ht 's 9 short\n'
run 1 "$PROFCONV" show "$TMP/len.ht"
expect_err "profconv show: '$TMP/len.ht': line 9: string of 5 bytes, its length says 9"
# Not UTF-8: repaired, as every reader repairs strings, with a warning.
ht utf8.ht 's 2 \377\376\n' '\n# strings: 3\n# ips: 1\n'
run 0 "$PROFCONV" show -s "$TMP/utf8.ht"
expect_err "profconv show: warning: '$TMP/utf8.ht': 1 string was not valid UTF-8, invalid bytes replaced by U+FFFD"
printf 'v 10400 3\nx 4 prog\nm 1 x 5609b27b5000 0 6f8\n' >"$TMP/raw.ht"
run 1 "$PROFCONV" show "$TMP/raw.ht"
expect_err "profconv show: '$TMP/raw.ht': line 2: raw heaptrack data (not interpreted); run it through heaptrack_interpret first"
printf 'v 10400 4\n' >"$TMP/future.ht"
run 1 "$PROFCONV" show "$TMP/future.ht"
expect_err "profconv show: '$TMP/future.ht': heaptrack file format 4 is newer than this reader knows (3)"

# massif: a small valid file, then broken copies of it.
ms() {	# ms NAME TREE
	printf 'desc: (none)\ncmd: ./p\ntime_unit: i\n#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n#-----------\nsnapshot=1\n#-----------\ntime=9\nmem_heap_B=300\nmem_heap_extra_B=8\nmem_stacks_B=0\nheap_tree=peak\n%b' \
	    "$2" >"$TMP/$1"
}
ms ok.ms 'n2: 300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n n1: 200 0x1091A8: f (p.c:3)\n  n0: 200 0x109216: main (p.c:7)\n n0: 100 in 2 places, all below massif'"'"'s threshold (1.00%%)\n'
run 0 "$PROFCONV" show -s "$TMP/ok.ms"
grep -q '^total inuse_space/bytes: 300 ' "$TMP/out" || fail "small massif file misread"
ms cut.ms 'n2: 300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n n1: 200 0x1091A8: f (p.c:3)\n'
run 1 "$PROFCONV" show "$TMP/cut.ms"
expect_err "profconv show: '$TMP/cut.ms': truncated massif data: a heap tree ends at line 21"
ms sum.ms 'n1: 250 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n n0: 250 0x1091A8: f (p.c:3)\n'
run 1 "$PROFCONV" show "$TMP/sum.ms"
expect_err "profconv show: '$TMP/sum.ms': line 21: heap tree holds 250 bytes, mem_heap_B says 300"
ms kids.ms 'n1: 300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n n1: 300 0x1091A8: f (p.c:3)\n  n0: 400 0x109216: main (p.c:7)\n'
run 1 "$PROFCONV" show "$TMP/kids.ms"
expect_err "profconv show: '$TMP/kids.ms': line 22: heap tree children hold more bytes than their parent"
ms node.ms 'x1: 300 (heap allocation functions)\n'
run 1 "$PROFCONV" show "$TMP/node.ms"
expect_err "profconv show: '$TMP/node.ms': line 20: malformed heap tree line, expected 'nCHILDREN: BYTES TEXT'"
printf 'desc: (none)\ncmd: ./p\ntime_unit: i\nsnapshot=0\ntime=0\n' >"$TMP/short.ms"
run 1 "$PROFCONV" show "$TMP/short.ms"
expect_err "profconv show: '$TMP/short.ms': truncated massif data: the input ends where 'mem_heap_B=' was expected"
run 1 "$PROFCONV" show --snapshot 0 "$TMP/ok.ms"
expect_err "profconv show: '$TMP/ok.ms': massif snapshot 0 has no heap tree (2 snapshots, 1 with a heap tree)"
run 2 "$PROFCONV" show --snapshot -1 "$TMP/ok.ms"

# An unreadable file.  Root reads everything, so as root the command runs
# as nobody (setpriv), when nobody can run it from this build at all.
cp "$DATA/go/cpu.pb.gz" "$TMP/secret.pb.gz"
chmod 000 "$TMP/secret.pb.gz"
as_user=
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$TMP"
	if command -v setpriv >/dev/null 2>&1 &&
	    setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$PROFCONV" --version >/dev/null 2>&1; then
		as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	else
		echo "cannot run as nobody: unreadable-file check skipped" >&2
	fi
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	run 1 $as_user "$PROFCONV" show "$TMP/secret.pb.gz"
	expect_err "profconv show: cannot open '$TMP/secret.pb.gz': Permission denied"
fi
finish
