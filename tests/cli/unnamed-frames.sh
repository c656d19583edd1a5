# SPDX-License-Identifier: MIT
# unnamed-frames.sh - a frame without symbols is named "module+0xN", N
# the address addr2line takes.  examples/leaky.c is built as a non-PIE
# and as a PIE executable and run stripped under the allocator's heap
# profiler; profflame names its frames "leaky+0xN".  addr2line -f -i on
# the unstripped binary turns each N into its functions, and the stacks
# so named equal profflame's once the unstripped binary sits at the
# mapped path.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v addr2line >/dev/null 2>&1 || skip "no addr2line (binutils)"
command -v strip >/dev/null 2>&1 || skip "no strip (binutils)"
FLAME=$CMD/profflame
use_some_allocator

# dump DIR PROG: a heap profile of PROG into DIR/heap.
dump() {
	if [ -n "$LIBJE" ]; then
		LD_PRELOAD=$LIBJE \
		MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$1/je" \
		    "$2" 2000 && cp "$(ls "$1"/je.*.heap | tail -n 1)" "$1/heap"
	elif [ -n "$LIBTC" ]; then
		LD_PRELOAD=$LIBTC HEAPPROFILE=$1/tc "$2" 2000 2>/dev/null &&
			cp "$(ls "$1"/tc.*.heap | tail -n 1)" "$1/heap"
	fi
}

for kind in no-pie pie; do
	d=$TMP/$kind
	mkdir -p "$d"
	cc -O1 -g -fno-omit-frame-pointer -f$kind -$kind -o "$d/leaky.g" \
	    "$PROFCONV_SRCDIR/examples/leaky.c" || skip "cannot build leaky ($kind)"
	cp "$d/leaky.g" "$d/leaky"
	strip "$d/leaky"
	dump "$d" "$d/leaky" || { fail "$kind: no heap profile"; continue; }
	"$FLAME" "$d/heap" >"$d/stripped" || { fail "$kind: profflame"; continue; }
	grep -q 'leaky+0x[0-9a-f]*' "$d/stripped" ||
		{ fail "$kind: no frame named leaky+0xN: $(head -3 "$d/stripped")"; continue; }
	# Each leaky+0xN through addr2line on the binary with symbols.
	grep -o 'leaky+0x[0-9a-f]*' "$d/stripped" | sort -u | while read -r f; do
		n=$(addr2line -f -i -e "$d/leaky.g" "${f#leaky+}" |
			awk 'NR % 2 == 1' | tac | paste -sd';')
		printf '%s\t%s\n' "$f" "$n"
	done >"$d/names"
	if grep -q '??' "$d/names"; then
		fail "$kind: addr2line does not know some of profflame's addresses:"
		grep '??' "$d/names" >&2
	fi
	awk -F'\t' 'NR == FNR {n[$1] = $2; next}
		{k = split($0, w, " "); c = w[k]; s = substr($0, 1, length($0) - length(c) - 1);
		 m = split(s, f, ";"); out = "";
		 for (i = 1; i <= m; i++) {x = f[i] in n ? n[f[i]] : f[i];
			out = out (i > 1 ? ";" : "") x}
		 print out " " c}' "$d/names" "$d/stripped" | LC_ALL=C sort >"$d/via-addr2line"
	# The same dump with the symbols at the mapped path.
	cp "$d/leaky.g" "$d/leaky"
	"$FLAME" "$d/heap" | LC_ALL=C sort >"$d/symbolized"
	diff -u "$d/symbolized" "$d/via-addr2line" >&2 ||
		fail "$kind: addr2line on profflame's leaky+0xN names other functions"
done
finish
