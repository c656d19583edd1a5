#!/bin/sh
# SPDX-License-Identifier: MIT
# symbolize.sh - time "profconv symbolize" against binutils addr2line and
# eu-addr2line on the same addresses of a generated C program.
#
# usage: bench/symbolize.sh [PROFCONV]
#   PROFCONV   the profconv binary (default: cmd/profconv in the cwd)
# environment:
#   NFUNCS     generated functions (default 2000), split over NFILES
#   NFILES     source files, i.e. compile units (default 4)
#   EU_MAX     addresses given to eu-addr2line (default 2000; its time is
#              scaled to the whole list; 0 = all of them, which can take
#              minutes: it walks the CU's DIEs for every address)
#
# The program's functions call out from inside always_inline helpers, so
# most call sites sit in inlined code.  The addresses are the call
# instructions of those functions (what a profile's adjusted return
# addresses point into), written as a gperftools heap profile with a memory
# map that loads the PIE at 0x555555554000.
set -eu

PROFCONV=${1:-./cmd/profconv}
NFUNCS=${NFUNCS:-2000}
NFILES=${NFILES:-4}
EU_MAX=${EU_MAX:-2000}
BIAS=0x555555554000
TMP=$(mktemp -d "${TMPDIR:-/tmp}/symbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

[ -x "$PROFCONV" ] || { echo "no profconv at $PROFCONV" >&2; exit 2; }
# In a build tree cmd/profconv is libtool's shell wrapper; time the binary.
dir=$(dirname "$PROFCONV")
if [ -x "$dir/.libs/profconv" ] && [ -d "$dir/../lib/.libs" ]; then
	LD_LIBRARY_PATH=$(cd "$dir/../lib/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	PROFCONV=$dir/.libs/profconv
fi

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc; }

# gen_file I FIRST LAST: one compile unit with functions FIRST..LAST-1.
gen_file() {
	{
		echo '#define AI static inline __attribute__((always_inline))'
		echo 'int sink(int);'
		echo 'AI int h1(int x, int k) { return sink(x + k) * 3; }'
		echo 'AI int h2(int x, int k) { return h1(x, k) + sink(x ^ k); }'
		echo 'AI int h3(int x, int k) { int r = h2(x, k); return r + h1(r, k + 1); }'
		n=$2
		while [ "$n" -lt "$3" ]; do
			cat <<EOF
__attribute__((noinline)) int
f$n(int x)
{
	int r = h3(x, $n);
	if (x > $n)
		r += h2(r, $n);
	r += sink(r);
	return r + h1(x, r);
}
EOF
			n=$((n + 1))
		done
	} >"$TMP/gen$1.c"
}

echo "generating $NFUNCS functions in $NFILES files" >&2
per=$(((NFUNCS + NFILES - 1) / NFILES))
i=0
while [ "$i" -lt "$NFILES" ]; do
	lo=$((i * per))
	hi=$((lo + per))
	[ "$hi" -gt "$NFUNCS" ] && hi=$NFUNCS
	gen_file "$i" "$lo" "$hi"
	i=$((i + 1))
done
cat >"$TMP/main.c" <<'EOF'
__attribute__((noinline)) int
sink(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

int
main(void)
{
	return sink(0) == 1 ? 0 : 1;
}
EOF
gcc -O2 -g -o "$TMP/prog" "$TMP"/gen*.c "$TMP/main.c"

# Inside every call instruction of the fN functions: file address + 1.
objdump -d --no-show-raw-insn "$TMP/prog" | awk '
	/^[0-9a-f]+ <f[0-9]+>:$/ { inf = 1; next }
	/^[0-9a-f]+ <.*>:$/ { inf = 0; next }
	inf && $2 == "call" { a = $1; sub(/:$/, "", a); print a }' |
    sort -u >"$TMP/calls"
naddr=$(wc -l <"$TMP/calls")
while read -r a; do printf '0x%x\n' $((0x$a + 1)); done <"$TMP/calls" \
    >"$TMP/addrs"

# The heap profile: 8 frames a sample; the reader subtracts 1 from each.
{
	echo "heap profile:   $naddr:  $((naddr * 16)) [   $naddr:  $((naddr * 16))] @ heapprofile"
	k=0
	while read -r a; do
		if [ $((k % 8)) -eq 0 ]; then
			[ "$k" -gt 0 ] && echo
			printf '     8:      128 [     8:      128] @'
		fi
		printf ' 0x%x' $((0x$a + 2 + BIAS))
		k=$((k + 1))
	done <"$TMP/calls"
	echo
	echo
	echo "MAPPED_LIBRARIES:"
	printf '%x-%x r-xp 00000000 00:00 1 %s\n' $((BIAS)) \
	    $((BIAS + 0x10000000)) "$TMP/prog"
} >"$TMP/prog.heap"

echo "$naddr unique addresses" >&2

t0=$(now)
"$PROFCONV" symbolize --no-compress -o "$TMP/out.pb" "$TMP/prog.heap" \
    2>"$TMP/summary"
t1=$(now)
cat "$TMP/summary" >&2
pc=$(elapsed "$t0" "$t1")

t0=$(now)
addr2line -f -i -C -e "$TMP/prog" <"$TMP/addrs" >"$TMP/a2l.out"
t1=$(now)
gnu=$(elapsed "$t0" "$t1")

if [ "$EU_MAX" -eq 0 ] || [ "$EU_MAX" -gt "$naddr" ]; then
	EU_MAX=$naddr
fi
head -n "$EU_MAX" "$TMP/addrs" >"$TMP/eu-addrs"
t0=$(now)
eu-addr2line -f -i -C -e "$TMP/prog" <"$TMP/eu-addrs" >"$TMP/eu.out"
t1=$(now)
eu=$(elapsed "$t0" "$t1")
eu_all=$(echo "scale=3; $eu * $naddr / $EU_MAX" | bc)

echo "addresses:                $naddr"
echo "profconv symbolize:       ${pc}s (whole command: read, symbolize, write)"
echo "addr2line -f -i -C:       ${gnu}s"
echo "eu-addr2line -f -i -C:    ${eu}s for $EU_MAX addresses, ${eu_all}s scaled to $naddr"
echo "addr2line / profconv:     $(echo "scale=1; $gnu / $pc" | bc)x"
echo "eu-addr2line / profconv:  $(echo "scale=1; $eu_all / $pc" | bc)x"
