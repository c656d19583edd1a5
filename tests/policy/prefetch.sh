# SPDX-License-Identifier: MIT
# prefetch.sh - every __builtin_prefetch() of a library source survives
# the compiler: each object has at least as many prefetch instructions
# as its source has calls.  GCC 12 takes a helper whose only effect is a
# prefetch for one with no effect at all and drops the calls to it,
# unless it is inlined before (PC_PREFETCHER, base/base.h); the flame
# graph's walk over its stacks and the merge's batches lost theirs that
# way.  The check runs on the built objects, then on a helper compiled
# here without the attribute, which it must flag when the compiler drops
# its calls (and with it, which it must pass).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v objdump >/dev/null || skip "no objdump"

# prefetches OBJECT: its prefetch instructions.
prefetches() {
	objdump -d --no-show-raw-insn "$1" | grep -c 'prefetch'
}

# calls SOURCE: its __builtin_prefetch( calls.
calls() {
	grep -c '__builtin_prefetch(' "$1"
}

objs=${PROFCONV_BINDIR:?}/../lib
seen=0
for src in "$PROFCONV_SRCDIR"/lib/*/*.c; do
	n=$(calls "$src")
	[ "$n" -gt 0 ] || continue
	folder=$(basename "$(dirname "$src")")
	name=$(basename "$src" .c)
	obj=$(find "$objs/$folder" -name "*-$name.o" 2>/dev/null | head -1)
	[ -n "$obj" ] || { fail "no object of lib/$folder/$name.c"; continue; }
	got=$(prefetches "$obj")
	[ "$got" -ge "$n" ] ||
		fail "lib/$folder/$name.c: $n prefetches in the source, $got in $obj"
	seen=$((seen + 1))
done
[ "$seen" -ge 4 ] || fail "only $seen sources with prefetches seen"

# The check itself, on a helper with and without the attribute.
cat >"$TMP/helper.c" <<'C'
#include <stddef.h>
#include "base/base.h"
struct walk { const int *const *at; size_t n; };
static HELPER void
ahead(const struct walk *w, size_t i)
{
	if (i + 16 < w->n)
		__builtin_prefetch(w->at[i + 16]);
}
long
sum(const struct walk *w)
{
	long s = 0;
	size_t i;

	for (i = 0; i < w->n; i++) {
		ahead(w, i);
		s += *w->at[i];
	}
	return s;
}
C
for helper in "PC_PREFETCHER" "inline"; do
	${CC:-cc} -O2 -DHELPER="$helper" -I"$PROFCONV_SRCDIR/lib" \
	    -c "$TMP/helper.c" -o "$TMP/helper.o" ||
		{ fail "cannot compile the helper ($helper)"; continue; }
	got=$(prefetches "$TMP/helper.o")
	case $helper in
	PC_PREFETCHER)
		[ "$got" -ge 1 ] ||
			fail "a PC_PREFETCHER helper's prefetch was dropped" ;;
	*)
		# Only where this compiler drops it: then the count says so.
		[ "$got" -ge 1 ] ||
			echo "the compiler drops a plain helper's prefetch;" \
			    "the count above would see it" ;;
	esac
done
finish
