# SPDX-License-Identifier: MIT
# list-hostile2.sh - what a profile names is not what profconv list and
# the report's Source tab may read: on small generated profiles, a file
# outside the source roots (an absolute name, a relative one with "..",
# a symbolic link inside --source-path pointing out, a search climbing
# above the current directory) is withheld and the note says so, in
# text, in list's page and in the report's; a FIFO inside a root is never
# read; report --list-top 100000 finishes, and a profile without files
# says there is no source without showing an internal regex; one 48 MiB
# file behind 40 names is read once, and 8 MiB of newlines with one
# sample builds a small page, both under a 1 GiB cap; list's REGEX has
# the bounds of the profile's own regexes (exit 2, before any input).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_caps
export LC_ALL=C
mkdir -p "$TMP/secret" "$TMP/work/src" "$TMP/work/deep/er"
printf 'line one\nline two\nSECRET-TOKEN-42\nline four\n' >"$TMP/secret/shadow"

# mkpb OUT NFUNCS FILE LINE [START]: a pprof of NFUNCS functions f0..,
# each in FILE (none when FILE is "-") at LINE, one sample each.
mkpb() {
	python3 - "$@" <<'PY'
import sys, gzip
out, n, fname, line = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
def varint(v):
    b = bytearray()
    while True:
        x = v & 0x7f
        v >>= 7
        if v:
            b.append(x | 0x80)
        else:
            b.append(x)
            return bytes(b)
def field(k, payload):
    return varint(k << 3 | 2) + varint(len(payload)) + payload
def num(k, v):
    return varint(k << 3) + varint(v)
strs = ["", "objects", "count", "-" if fname == "-" else fname]
def s(x):
    strs.append(x)
    return len(strs) - 1
buf = bytearray(field(1, num(1, 1) + num(2, 2)))
for i in range(n):
    name = s("f%d" % i) if fname != "-" else s("prog+0x%x" % (0x1000 + i))
    fn = num(1, i + 1) + num(2, name) + num(3, name)
    if fname != "-":
        fn += num(4, 3) + num(5, start)
    buf += field(5, fn)
    buf += field(4, num(1, i + 1) + num(3, 0x1000 + i) +
                 field(4, num(1, i + 1) + num(2, line)))
    buf += field(2, field(1, varint(i + 1)) + field(2, varint(1)))
for x in strs:
    buf += field(6, x.encode())
open(out, "wb").write(bytes(buf))
PY
}
withheld() {	# WHAT FILE: FILE shows no secret and says it withheld it
	grep -q SECRET-TOKEN "$2" && fail "$1: the secret is in $(basename "$2")"
	grep -q 'ource withheld' "$2" || fail "$1: nothing says what was withheld: $(grep -i -m1 note "$2")"
}

cd "$TMP/work" || exit 1
# An absolute name outside the roots: text, list's page, the report.
mkpb "$TMP/abs.pb" 1 "$TMP/secret/shadow" 3 1
bounded 0 "$PROFCONV" list f0 "$TMP/abs.pb"
withheld "absolute name" "$TMP/out"
grep -q "outside the source roots" "$TMP/out" || fail "absolute name: no reason"
bounded 0 "$PROFCONV" list --html f0 "$TMP/abs.pb"
withheld "absolute name, list --html" "$TMP/out"
bounded 0 "$PROFCONV" report -o "$TMP/abs.html" "$TMP/abs.pb"
withheld "absolute name, report" "$TMP/abs.html"
# A relative name with "..".
mkpb "$TMP/rel.pb" 1 "../secret/shadow" 3 1
bounded 0 "$PROFCONV" list f0 "$TMP/rel.pb"
withheld "../ name" "$TMP/out"
# A symbolic link inside --source-path pointing out.
ln -s "$TMP/secret/shadow" "$TMP/work/src/link.c"
mkpb "$TMP/link.pb" 1 "link.c" 3 1
bounded 0 "$PROFCONV" list --source-path "$TMP/work/src" f0 "$TMP/link.pb"
withheld "symbolic link" "$TMP/out"
grep -q "leads out of its source root" "$TMP/out" || fail "symbolic link: no reason"
bounded 0 "$PROFCONV" report --source-path "$TMP/work/src" -o "$TMP/link.html" "$TMP/link.pb"
withheld "symbolic link, report" "$TMP/link.html"
# The search climbing above the current directory.
mkpb "$TMP/climb.pb" 1 "secret/shadow" 3 1
(cd "$TMP/work/deep/er" && $CAP && exec "$PROFCONV" list f0 "$TMP/climb.pb") >"$TMP/out" 2>&1 ||
	fail "climb: exit $?"
grep -q SECRET-TOKEN "$TMP/out" && fail "climb: read above the current directory"
grep -q "nothing above the source roots" "$TMP/out" || fail "climb: $(grep Note "$TMP/out")"
# What is beneath a root is still listed.
cp "$TMP/secret/shadow" "$TMP/work/src/mine.c"
mkpb "$TMP/mine.pb" 1 "$TMP/work/src/mine.c" 3 1
bounded 0 "$PROFCONV" list f0 "$TMP/mine.pb"
grep -q '3:SECRET-TOKEN-42' "$TMP/out" || fail "a file beneath the current directory is not listed"
# A FIFO beneath a root: refused without opening it (no hang).
mkfifo "$TMP/work/src/fifo.c"
mkpb "$TMP/fifo.pb" 1 "$TMP/work/src/fifo.c" 3 1
bounded 0 "$PROFCONV" list f0 "$TMP/fifo.pb"
grep -q "fifo.c (not a regular file)" "$TMP/out" || fail "FIFO: $(grep Note "$TMP/out")"

# report --list-top 100000: names matched as names, not one regex.
mkpb "$TMP/many.pb" 100000 "$TMP/work/src/mine.c" 2 1
bounded 0 "$PROFCONV" report --list-top 100000 -o "$TMP/many.html" "$TMP/many.pb"
grep -q 'id="source"' "$TMP/many.html" || fail "--list-top 100000: no Source tab"
# No files at all: plainly no source, no internal regex.
mkpb "$TMP/stripped.pb" 40 - 0
bounded 0 "$PROFCONV" report -o "$TMP/stripped.html" "$TMP/stripped.pb"
grep -q 'regexp\|\^(prog' "$TMP/stripped.html" && fail "stripped: the page shows an internal regex"
grep -q 'No source information\|No annotated source' "$TMP/stripped.html" ||
	fail "stripped: the page does not say there is no source"

# One 48 MiB file behind 40 names: read once.
python3 -c "
import sys
with open(sys.argv[1], 'w') as f:
    f.write(('x' * 1023 + '\n') * (48 * 1024))" "$TMP/work/src/big.c"
python3 - "$TMP/big.pb" "$TMP/work/src" <<'PY'
import sys, os
out, d = sys.argv[1], sys.argv[2]
names = []
for i in range(40):
    link = os.path.join(d, "big%d.c" % i)
    os.symlink("big.c", link)
    names.append(link)
def varint(v):
    b = bytearray()
    while True:
        x = v & 0x7f; v >>= 7
        if v: b.append(x | 0x80)
        else: b.append(x); return bytes(b)
def field(k, p): return varint(k << 3 | 2) + varint(len(p)) + p
def num(k, v): return varint(k << 3) + varint(v)
strs = ["", "objects", "count"]
buf = bytearray(field(1, num(1, 1) + num(2, 2)))
for i, n in enumerate(names):
    strs += ["g%d" % i, n]
    buf += field(5, num(1, i + 1) + num(2, len(strs) - 2) + num(4, len(strs) - 1) + num(5, 1))
    buf += field(4, num(1, i + 1) + num(3, 0x1000 + i) + field(4, num(1, i + 1) + num(2, 3)))
    buf += field(2, field(1, varint(i + 1)) + field(2, varint(1)))
for x in strs: buf += field(6, x.encode())
open(out, "wb").write(bytes(buf))
PY
bounded 0 "$PROFCONV" list g "$TMP/big.pb"
[ "$(grep -c '^ROUTINE' "$TMP/out")" = 40 ] || fail "40 names: $(grep -c '^ROUTINE' "$TMP/out") routines"
bounded 0 "$PROFCONV" report --list-top 40 -o "$TMP/big.html" "$TMP/big.pb"

# 8 MiB of newlines, one sample on the last line of a function at 1.
python3 -c "open('$TMP/work/src/nl.c', 'w').write('\n' * (8 << 20))"
mkpb "$TMP/nl.pb" 1 "$TMP/work/src/nl.c" $((8 << 20)) 1
bounded 0 "$PROFCONV" report -o "$TMP/nl.html" "$TMP/nl.pb"
[ "$(wc -c <"$TMP/nl.html")" -lt 4000000 ] || fail "newlines: a $(wc -c <"$TMP/nl.html")-byte page"
bounded 0 "$PROFCONV" list f0 "$TMP/nl.pb"
grep -q 'lines not shown' "$TMP/out" || fail "newlines: every line listed"

# list's REGEX: the bounds of the profile's own, before any input.
bounded 2 "$PROFCONV" list '((a{1000}){1000}){1000}' "$TMP/no-such-file"
grep -q "^profconv list: invalid REGEX expression '((a{1000}){1000}){1000}': counted repetitions" "$TMP/err" ||
	fail "REGEX bound: $(cat "$TMP/err")"
finish
