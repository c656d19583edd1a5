# SPDX-License-Identifier: MIT
# hostile-growth.sh - small inputs that grow into huge models or outputs
# (issue 29, items 7 and 8): each is refused or cut at a stated bound,
# fast, under a memory cap and a timeout far above what profconv needs.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

LIMIT_KB=1048576	# 1 GiB of address space
LIMIT_S=30
if (ulimit -v "$LIMIT_KB" && exec "$PROFCONV" --version) >/dev/null 2>&1; then
	CAP="ulimit -v $LIMIT_KB"
else
	echo "note: no memory cap: '$PROFCONV' cannot run under ulimit -v" >&2
	CAP=:
fi

# bounded STATUS CMD...: run CMD as run() does, under the caps.
bounded() {
	want=$1
	shift
	($CAP && exec timeout "$LIMIT_S" "$@") >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" != "$want" ]; then
		fail "'$*' exited $got under ${LIMIT_KB} KB/${LIMIT_S} s, expected $want"
		sed 's/^/  stderr: /' "$TMP/err" | head -n 5 >&2
	fi
}

# Item 7: 3,000 chained heaptrack trace nodes (68 KB) and a massif tree
# 3,000 deep (94 KB) expand to 4.5M frames, 18 MB of stacks: beyond
# --max-input 16M, refused before any sample is made.
hostile_ht_chain "$TMP/chain.ht" 3000
bounded 1 "$PROFCONV" text2pb --max-input 16M "$TMP/chain.ht" -o "$TMP/o.pb"
expect_err "profconv text2pb: '$TMP/chain.ht': heaptrack data (68238 bytes) expands to 3000 stacks of 4501500 frames, more than the input bound, 16 MiB, of memory"
bounded 0 "$PROFCONV" text2pb --max-input 32M "$TMP/chain.ht" -o "$TMP/o.pb"
hostile_massif_chain "$TMP/chain.ms" 3000
bounded 1 "$PROFCONV" text2pb --max-input 16M "$TMP/chain.ms" -o "$TMP/o.pb"
expect_err "profconv text2pb: '$TMP/chain.ms': massif heap tree of 3001 nodes expands to 3000 stacks of 4501500 frames, more than the input bound, 16 MiB, of memory"
bounded 0 "$PROFCONV" text2pb --max-input 32M "$TMP/chain.ms" -o "$TMP/o.pb"

finish
