# SPDX-License-Identifier: MIT
# symbolize-labels.sh - code labels without a type or size, as assembly
# leaves them (_start and _dl_start_user in ld.so), name the addresses up
# to the next symbol as eu-addr2line names them; a sized function still
# names its own.  Checked on this machine's ld.so, whose symbols come
# from its build-id debug file (Debian: libc6-dbg).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v eu-addr2line >/dev/null 2>&1 || skip "eu-addr2line not installed"
LD=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null)
[ -f "$LD" ] || skip "no x86-64 ld.so"
id=$(eu-readelf -n "$LD" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -f "$dbg" ] || dbg=$LD
# _dl_start_user and the symbol after it, as hex file addresses.
eu-readelf -s "$dbg" 2>/dev/null | awk '$2 ~ /^[0-9a-f]+$/ && $7 ~ /^[0-9]+$/ {print $2, $8}' |
	sort -u >"$TMP/syms"
start=$(awk '$2 == "_dl_start_user" {print $1; exit}' "$TMP/syms")
[ -n "$start" ] || skip "no _dl_start_user symbol for $LD (Debian: libc6-dbg)"
next=$(awk -v s="$start" '$1 > s {print $1; exit}' "$TMP/syms")
[ -n "$next" ] || skip "nothing after _dl_start_user"

# A gperftools heap profile with one frame per address (each one past
# the address, as return addresses are), ld.so mapped at BASE by its
# LOAD segments.
base=$((0x7f0000000000))
s=$((0x$start)) e=$((0x$next))
addrs="$((s - 1)) $s $((s + 4)) $(((s + e) / 2)) $((e - 1)) $e $((e + 8))"
{
	echo "heap profile: 7: 700 [ 7: 700] @ heapprofile"
	for a in $addrs; do
		printf '1: 100 [1: 100] @ 0x%x\n' $((base + a + 1))
	done
	echo
	echo "MAPPED_LIBRARIES:"
	eu-readelf -l "$LD" | awk '$1 == "LOAD" {print $2, $3, $6, $7 $8}' |
	while read -r off va sz fl; do
		lo=$((va - va % 4096)) hi=$((va + sz))
		hi=$((hi + (4096 - hi % 4096) % 4096))
		case $fl in *E*) x=-x ;; *) x=-- ;; esac
		printf '%x-%x r%sp %08x 08:01 100 %s\n' $((base + lo)) \
		    $((base + hi)) "$x" $((off - off % 4096)) "$LD"
	done
} >"$TMP/ld.heap"
"$PROFCONV" symbolize --no-compress -o "$TMP/ld.pb" "$TMP/ld.heap" 2>"$TMP/err" ||
	fail "symbolize: $(cat "$TMP/err")"
# Address (file offset, hex) and the function we gave it, or ??.
"$PROFCONV" show "$TMP/ld.pb" | awk -v b="$base" '
	/^locations:/ {l = 1; next} /^functions:/ {l = 0}
	l && $2 ~ /^0x/ {if (a != "") print a, f; a = $2; f = "??"; next}
	l && $1 ~ /^F=/ && f == "??" {f = $2}
	END {if (a != "") print a, f}' |
	while read -r a f; do
		printf '%x %s\n' $((a - base)) "$f"
	done | sort >"$TMP/ours"
for a in $addrs; do
	printf '%x %s\n' "$a" "$(eu-addr2line -f -e "$LD" "$(printf '0x%x' "$a")" | head -1)"
done | sort >"$TMP/eu"
grep -q ' _dl_start_user$' "$TMP/eu" || skip "eu-addr2line names no _dl_start_user"
diff -u "$TMP/eu" "$TMP/ours" >&2 || fail "names differ from eu-addr2line's (- eu-addr2line, + ours)"
finish
