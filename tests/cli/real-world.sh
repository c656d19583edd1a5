# SPDX-License-Identifier: MIT
# real-world.sh - what real profiles hold is read, not refused: strings
# that are not UTF-8 (repaired, with one warning), strings with NULs
# (kept whole), samples without a stack (Go threadcreate, heap).  The
# inputs are made here with the properties of the files that showed them
# (Pyroscope's invalid_utf8.pb.gz, a Latin-1 path in MAPPED_LIBRARIES, a
# Go threadcreate debug=1 dump, Parca's alloc_space_delta.pb.gz).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

# Protobuf wire bytes, written with printf.
byte() { printf "\\$(printf %o "$1")"; }
varint() {
	v=$1
	while [ "$v" -ge 128 ]; do
		byte $(( (v & 127) | 128 ))
		v=$((v >> 7))
	done
	byte "$v"
}
# field NUMBER FILE: a length-delimited field holding FILE's bytes.
field() {
	byte $(( $1 << 3 | 2 ))
	varint "$(wc -c <"$2")"
	cat "$2"
}
# str TEXT...: a string_table entry (printf's escapes apply).
str() {
	printf "$@" >"$TMP/str"
	field 6 "$TMP/str"
}
# hex FILE: FILE's bytes as one line of hex digits.
hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }

# --- As Pyroscope's invalid_utf8.pb.gz: a 256-byte function name that
# starts with NUL (here followed by every other byte value).  It is read,
# its 128 bytes that are not UTF-8 become U+FFFD, its NUL and full length
# stay.
{ byte 0; i=1; while [ $i -le 255 ]; do byte $i; i=$((i + 1)); done; } >"$TMP/name"
{
	printf '\012\004\010\001\020\002'		# sample_type samples/count
	printf '\022\006\012\001\001\022\001\005'	# sample: location 1, 5
	printf '\042\006\010\001\042\002\010\001'	# location 1: function 1
	printf '\052\004\010\001\020\003'		# function 1: name 3
	str '' ; str samples; str count
	field 6 "$TMP/name"
} >"$TMP/binary-name.pb"
run 0 "$PROFCONV" text2pb --no-compress "$TMP/binary-name.pb" -o "$TMP/out.pb"
expect_err "profconv text2pb: warning: '$TMP/binary-name.pb': 1 string was not valid UTF-8, invalid bytes replaced by U+FFFD"
{ printf '\062\200\004'; byte 0; i=1; while [ $i -le 127 ]; do byte $i; i=$((i + 1)); done
  i=0; while [ $i -lt 128 ]; do printf '\357\277\275'; i=$((i + 1)); done; } >"$TMP/want-name"
hex "$TMP/out.pb" | grep -q "$(hex "$TMP/want-name")" ||
	fail "the repaired 512-byte name is not in the output whole"
# Read again, nothing is left to repair.
run 0 "$PROFCONV" show "$TMP/out.pb"
[ -s "$TMP/err" ] && fail "a repaired profile warns again: $(cat "$TMP/err")"
# One warning per input, naming it; the stdin form too.
run 0 "$PROFCONV" merge --no-compress "$TMP/binary-name.pb" "$TMP/binary-name.pb" -o "$TMP/m.pb"
[ "$(grep -c "^profconv merge: warning: '$TMP/binary-name.pb': 1 string was not valid UTF-8" "$TMP/err")" = 2 ] ||
	fail "merge: not one warning per input: $(cat "$TMP/err")"
run 0 "$PROFCONV" show - <"$TMP/binary-name.pb"
expect_err "profconv show: warning: '<stdin>': 1 string was not valid UTF-8, invalid bytes replaced by U+FFFD"

# --- A pprof string with a NUL inside: "ma\0in" and "ma" are two
# functions, through merge too (identity compares whole strings).
{
	printf '\012\004\010\001\020\002'
	printf '\022\006\012\001\001\022\001\005'
	printf '\022\006\012\001\002\022\001\007'
	printf '\042\006\010\001\042\002\010\001'
	printf '\042\006\010\002\042\002\010\002'
	printf '\052\004\010\001\020\003'
	printf '\052\004\010\002\020\004'
	str '' ; str samples; str count; str 'ma\000in'; str ma
} >"$TMP/nul.pb"
run 0 "$PROFCONV" merge --no-compress "$TMP/nul.pb" "$TMP/nul.pb" -o "$TMP/nul-m.pb"
[ -s "$TMP/err" ] && fail "merge warned: $(cat "$TMP/err")"
run 0 "$PROFCONV" show "$TMP/nul-m.pb"
expect_out_has '^functions: 2$'
printf '\062\005ma\000in' >"$TMP/want-nul"
hex "$TMP/nul-m.pb" | grep -q "$(hex "$TMP/want-nul")" ||
	fail "\"ma\\0in\" lost its tail"

# --- Latin-1 in MAPPED_LIBRARIES (and a pprof string): read, repaired,
# one warning line; the rest of the path stays.
printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n1: 2 [1: 2] @ 0x401000\n\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 /bin/caf\351\n00500000-00600000 r-xp 00000000 00:00 0 /lib/\377lib.so\n' >"$TMP/latin1.heap"
run 0 "$PROFCONV" show "$TMP/latin1.heap"
expect_err "profconv show: warning: '$TMP/latin1.heap': 2 strings were not valid UTF-8, invalid bytes replaced by U+FFFD"
expect_out_has "/bin/caf$(printf '\357\277\275')( |$)"
printf '\062\000\062\002\303\050' >"$TMP/utf8.pb"
run 0 "$PROFCONV" show "$TMP/utf8.pb"
expect_err "profconv show: warning: '$TMP/utf8.pb': 1 string was not valid UTF-8, invalid bytes replaced by U+FFFD"

# --- Go threadcreate / goroutine debug=1 with frameless samples ("1012 @"):
# samples with an empty stack, counted in every total as pprof counts them.
cat >"$TMP/threadcreate.txt" <<'EOF'
threadcreate profile: total 1015
1012 @
3 @ 0x401001 0x402001
#	0x401000	main.worker+0x0	/src/main.go:10
EOF
run 0 "$PROFCONV" show "$TMP/threadcreate.txt"
expect_out_has '^samples: 2$'
expect_out_has '^ +1012:$'
run 0 "$PROFCONV" show --summary "$TMP/threadcreate.txt"
expect_out_has '1015'
run 0 "$PROFCONV" text2pb "$TMP/threadcreate.txt" -o "$TMP/tc.pb.gz"
if command -v go >/dev/null 2>&1; then
	# go tool pprof counts an empty-stack sample in the total, with no row.
	go_env
	go tool pprof -top "$TMP/tc.pb.gz" \
	    >"$TMP/top" 2>&1 || fail "go tool pprof failed: $(cat "$TMP/top")"
	grep -q 'of 1015 total' "$TMP/top" || fail "pprof total: $(cat "$TMP/top")"
fi
printf 'goroutine profile: total 4\n4 @\n' >"$TMP/goroutine.txt"
run 0 "$PROFCONV" show "$TMP/goroutine.txt"
expect_out_has '^ +4:$'
# Heap samples without a stack, the same.
printf 'heap profile: 2: 5 [ 2: 5] @ heapprofile\n1: 2 [1: 2] @\n1: 3 [1: 3] @ 0x10 0x20\n' >"$TMP/frameless.heap"
run 0 "$PROFCONV" show "$TMP/frameless.heap"
expect_out_has '^samples: 2$'
finish
