# SPDX-License-Identifier: MIT
# diff-warnings.sh - inputs profdiff must not take in silence, made now by
# real programs under tcmalloc's heap profiler (HEAPPROFILE): two dumps
# of one process given late first (swapped), dumps of two different
# programs, a dump gperftools cut at 1 MiB, and a dump cut short by a
# copy (head -c), in its samples or in its memory map; jemalloc dumps cut
# likewise.  Each gets one line on stderr naming the file and the
# figures; the right order and a whole dump get none.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
[ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so ] ||
	ldconfig -p | grep -q libtcmalloc.so || skip "no libtcmalloc"
PROFDIFF=$CMD/profdiff
cd "$TMP" || exit 1

# The figure of a header pair: "heap profile: N: M [ A: B ] @" field F.
header() {
	head -n 1 "$1" | tr '[]:' '   ' | awk -v f="$2" '{print $(f + 2)}'
}
# Bytes the samples hold: the in-use (2) or allocated (4) column's sum.
held() {
	sed -n '/^MAPPED_LIBRARIES:/q;2,$p' "$1" | tr '[]:' '   ' |
		awk -v f="$2" '{n += $f} END {print n + 0}'
}

cc -O1 -g -fno-omit-frame-pointer -o leaky "$PROFCONV_SRCDIR/examples/leaky.c" \
	-ltcmalloc || fail "cannot build leaky"
# wide: allocations from 2^DEPTH distinct stacks, two call sites a level.
cat >wide.c <<'SRC'
#include <stdlib.h>
static void *keep[1 << 16];
static int nkeep;
__attribute__((noinline)) static void
branch(int depth, unsigned path)
{
	if (depth == 0) {
		keep[nkeep++ % (1 << 16)] = malloc(16);
		return;
	}
	if (path & 1)
		branch(depth - 1, path >> 1);
	else
		branch(depth - 1, path >> 1);
	__asm__ volatile("" ::: "memory");
}
int
main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 13;
	unsigned p;

	for (p = 0; p < (1u << depth); p++)
		branch(depth, p);
	return 0;
}
SRC
cc -O0 -g -fno-omit-frame-pointer -o wide wide.c -ltcmalloc ||
	fail "cannot build wide"

# --- swapped: the last interval dump of a process, then its first ---------
HEAPPROFILE=$TMP/iv HEAP_PROFILE_ALLOCATION_INTERVAL=4000000 ./leaky 20000 \
	2>/dev/null
first=$(ls iv.*.heap | sort | head -n 1)
last=$(ls iv.*.heap | sort | tail -n 1)
[ "$first" != "$last" ] || fail "tcmalloc wrote no interval dumps"
run 1 "$PROFDIFF" --no-symbolize "$first" "$last"
[ -s "$TMP/err" ] && fail "the right order warns: $(cat "$TMP/err")"
run 1 "$PROFDIFF" --no-symbolize "$last" "$first"
expect_err "profdiff: warning: '$first' allocated fewer bytes in all than '$last' ($(header "$first" 4) < $(header "$last" 4)): are BASE and CUR swapped?"

# --- unrelated: two programs -----------------------------------------------
HEAPPROFILE=$TMP/small ./wide 4 2>/dev/null
HEAPPROFILE=$TMP/lk ./leaky 100 2>/dev/null
run 1 "$PROFDIFF" --no-symbolize small.0001.heap lk.0001.heap
expect_err "profdiff: warning: 'small.0001.heap' and 'lk.0001.heap' profile different programs ('wide' and 'leaky')"
run 0 "$PROFDIFF" --no-symbolize lk.0001.heap lk.0001.heap
[ -s "$TMP/err" ] && fail "one program warns: $(cat "$TMP/err")"

# --- cut by gperftools: 8192 buckets do not fit in 1 MiB -------------------
HEAPPROFILE=$TMP/w ./wide 13 2>/dev/null
w=w.0001.heap
[ "$(wc -c <"$w")" -gt 1000000 ] || fail "wide's dump is not near 1 MiB"
[ "$(held "$w" 2)" -lt "$(header "$w" 2)" ] ||
	fail "gperftools did not cut wide's dump"
run 1 "$PROFDIFF" --no-symbolize small.0001.heap "$w"
expect_err "profdiff: warning: '$w': the header counts $(header "$w" 2) bytes in use, the samples hold $(held "$w" 2): the dump was cut (gperftools writes at most 1 MiB per dump)"
run 0 "$PROFCONV" show -s "$w"
grep -q "^profconv show: warning: '$w': the header counts" "$TMP/err" ||
	fail "profconv show does not warn of a cut dump"

# --- cut short by a copy: inside a bucket's stack, no memory map ----------
# cut_at LINE: the last dump cut after a digit of LINE's first address.
whole=$last
cut_at() {
	n=$(awk -v l="$1" 'NR < l {n += length($0) + 1}
		NR == l {print n + index($0, "@ 0x") + 7; exit}' "$whole")
	head -c "$n" "$whole" >cut.heap
}
# In the second bucket: the third bucket's bytes are missing.
cut_at 3
run 1 "$PROFDIFF" --no-symbolize "$first" cut.heap
expect_err "profdiff: warning: 'cut.heap': the header counts $(header "$whole" 4) bytes allocated, the samples hold $(held cut.heap 4) and no memory map follows: the dump was cut short (its addresses cannot be symbolized)"
# In the last bucket: the totals are whole, the line and the map are not.
cut_at "$(grep -n '@ 0x' "$whole" | tail -n 1 | cut -d: -f1)"
[ "$(held cut.heap 4)" = "$(header "$whole" 4)" ] ||
	fail "the last bucket of '$whole' is not the last counted"
run 0 "$PROFCONV" show -s cut.heap
grep -Fqx "profconv show: warning: 'cut.heap': sample $(grep -c '@ 0x' cut.heap) ends mid-line and no memory map follows: the dump was cut short (its addresses cannot be symbolized)" "$TMP/err" ||
	fail "a dump cut in its last bucket: $(cat "$TMP/err")"
run 0 "$PROFCONV" show -s "$whole"
[ -s "$TMP/err" ] && fail "a whole dump warns: $(cat "$TMP/err")"
# Inside the memory map: the samples are whole, the map's last line not.
mapline=$(grep -n '^MAPPED_LIBRARIES:' "$whole" | cut -d: -f1)
last=$(wc -l <"$whole")
[ "$last" -gt $((mapline + 2)) ] || fail "'$whole' has a short memory map"
n=$(head -n $((last - 1)) "$whole" | wc -c)
head -c $((n + 20)) "$whole" >cut.heap
run 0 "$PROFCONV" show -s --no-symbolize cut.heap
expect_err "profconv show: warning: 'cut.heap': the memory map ends mid-line (line $last): the dump was cut short (addresses in libraries past it cannot be symbolized)"

# --- jemalloc: every dump ends with its memory map ------------------------
libje=$(find_lib libjemalloc.so.2)
if [ -n "$libje" ]; then
	mkdir je
	LD_PRELOAD=$libje MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:je/je" \
	    ./leaky 2000 >/dev/null 2>&1 || fail "leaky under jemalloc"
	set -- je/je.*.heap
	[ -f "$1" ] || fail "jemalloc wrote no dump"
	je=$1
	run 0 "$PROFCONV" show -s --no-symbolize "$je"
	[ -s "$TMP/err" ] && fail "a whole jemalloc dump warns: $(cat "$TMP/err")"
	# Cut in its samples (after the second stack's total line).
	n=$(grep -n '^@' "$je" | sed -n 2p | cut -d: -f1)
	head -n $((n + 1)) "$je" >cut.heap
	samples=$(grep -c '^@' cut.heap)
	run 0 "$PROFCONV" show -s --no-symbolize cut.heap
	expect_err "profconv show: warning: 'cut.heap': no memory map follows the $samples samples: the dump was cut short (its addresses cannot be symbolized)"
	# Cut in its memory map.
	last=$(wc -l <"$je")
	n=$(head -n $((last - 1)) "$je" | wc -c)
	head -c $((n + 12)) "$je" >cut.heap
	run 0 "$PROFCONV" show -s --no-symbolize cut.heap
	expect_err "profconv show: warning: 'cut.heap': the memory map ends mid-line (line $last): the dump was cut short (addresses in libraries past it cannot be symbolized)"
else
	echo "no libjemalloc.so.2: jemalloc cuts not tried" >&2
fi

finish
