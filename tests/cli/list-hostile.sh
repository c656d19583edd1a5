# SPDX-License-Identifier: MIT
# list-hostile.sh - a source file is input nobody vetted: profconv list on
# a program built now whose source holds terminal escapes, a NUL, bytes
# that are not UTF-8, C1 and bidi controls and a 1 MB line writes none of
# them raw, cuts the long line, and stays within time and memory bounds;
# where the source was, a FIFO, a directory, a device and a 100 MB file
# are refused without hanging or reading them, each named in the note.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_tcmalloc
command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_caps
export LC_ALL=C
mkdir -p "$TMP/src" "$TMP/heap"
src=$TMP/src/hostile.c
python3 - "$src" <<'PY'
import sys
bad = (b"\x1b]0;pwned\x07 \x1b[2J \x00 \xff\xfe \xc2\x9b \xe2\x80\xae"
       b" \x9b31m \x7f")
with open(sys.argv[1], "wb") as f:
    f.write(b"#include <stdlib.h>\n\n"
            b"static char *kept[4096];\n\n"
            b"__attribute__((noinline)) static char *\n"
            b"leak(int i)\n{\n"
            b"\t/* " + bad + b" */\n"
            b"\tchar *p = malloc(100 + (size_t)(i % 3));\n"
            b"\t/* " + b"x" * (1 << 20) + b" */\n"
            b"\treturn p;\n}\n\n"
            b"int\nmain(void)\n{\n"
            b"\tfor (int i = 0; i < 4096; i++)\n"
            b"\t\tkept[i] = leak(i);\n"
            b"\treturn kept[7] != NULL ? 0 : 1;\n}\n")
PY
(cd "$TMP/src" && cc -O1 -g -fno-omit-frame-pointer -o ../hostile hostile.c \
    -ltcmalloc 2>/dev/null) || skip "cannot build the hostile source"
HEAPPROFILE=$TMP/heap/h "$TMP/hostile" 2>/dev/null || fail "hostile run failed"
"$PROFCONV" symbolize -o "$TMP/h.pb.gz" "$TMP/heap/h.0001.heap" 2>/dev/null ||
	fail "symbolize"

# Sources are read beneath the source roots: here the current directory.
cd "$TMP/src" || exit 1
bounded 0 "$PROFCONV" list '^leak$' "$TMP/h.pb.gz"
out=$TMP/out
grep -q 'char \*p = malloc' "$out" || fail "the source is not listed"
grep -Eq '^ +[0-9.]+[kMG]?B +[0-9.]+[kMG]?B +9:' "$out" ||
	fail "no value on the malloc line: $(grep ' 9:' "$out")"
python3 - "$out" <<'PY' || fail "raw control bytes or bad UTF-8 in the listing"
import sys
data = open(sys.argv[1], "rb").read()
text = data.decode("utf-8")   # raises on bytes that are not UTF-8
bad = [c for c in text if (ord(c) < 0x20 and c not in "\t\n") or
       0x7f <= ord(c) <= 0x9f or ord(c) in (0x61c, 0x200e, 0x200f) or
       0x2028 <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069]
sys.exit(1 if bad else 0)
PY
grep -q '\\x1b\]0;pwned\\x07 \\x1b\[2J \\x00 \\xff\\xfe \\u009b \\u202e' "$out" ||
	fail "the escapes are not shown escaped: $(grep pwned "$out" | head -c 300)"
grep -q "\[\.\.\. $(((1 << 20) + 7 - 65536)) more bytes\]" "$out" ||
	fail "the 1 MB line is not cut as it should be"
[ "$(wc -c <"$out")" -lt 200000 ] || fail "the listing is $(wc -c <"$out") bytes"

# Where the source was: what must not be opened or read.
check_refused() {	# WHAT WHY [HOW]
	bounded 0 "$PROFCONV" list '^leak$' "$TMP/h.pb.gz"
	grep -q "^ Note: source ${3:-not found}; tried .*$src ($2)" "$TMP/out" ||
		fail "$1: $(grep -m1 Note "$TMP/out" || echo no note)"
	grep -Eq '^ +[0-9.]+[kMG]?B +[0-9.]+[kMG]?B +9:$' "$TMP/out" ||
		fail "$1: no value per line"
}
mv "$src" "$TMP/hostile.c.saved"
mkfifo "$src" || fail "mkfifo"
check_refused "a FIFO" "not a regular file"
rm -f "$src"
mkdir "$src"
check_refused "a directory" "a directory"
rmdir "$src"
ln -s /dev/zero "$src"
check_refused "a link to a device" "a symbolic link or '..' leads out of its source root" withheld
rm -f "$src"
if mknod "$src" c 1 5 2>/dev/null; then
	check_refused "a device" "not a regular file"
	rm -f "$src"
fi
truncate -s 100M "$src" || fail "truncate"
check_refused "a 100 MB file" "too large"
finish
