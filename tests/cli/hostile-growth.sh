# SPDX-License-Identifier: MIT
# hostile-growth.sh - small inputs that grow into huge models or outputs
# (issue 29, items 7 and 8): each is refused or cut at a stated bound,
# fast, under a memory cap and a timeout far above what profconv needs.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/hostile-inputs.sh"

PROFFLAME=$CMD/profflame PROFDIFF=$CMD/profdiff PROFTREND=$CMD/proftrend
use_caps

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

# Item 8: one stack 5,000 frames deep of one 4 KB name (6 KB of pprof)
# drew 20 MB lines in every writer (100,000 frames of 10 KB: 1 GB, 18 s
# and 2 GB for show --summary).  The view cuts it to 1,024 frames, the
# outermost one saying so, and each name to 1,024 bytes.
name=$(printf '%4096s' '' | tr ' ' n)
hostile_deep_pb "$TMP/deep.pb" 5000 "b${name}e"
cut='[stack cut: deeper than 1024 frames]'
elided="b$(printf '%509s' '' | tr ' ' n)...$(printf '%510s' '' | tr ' ' n)e"
bounded 0 "$PROFFLAME" "$TMP/deep.pb"
awk -F';' -v cut="$cut" -v el="$elided" '
	NF != 1024 || $1 != cut { bad = "frames " NF ", root " substr($1, 1, 40) }
	{ for (i = 2; i <= NF; i++) if (i < NF && $i != el || i == NF && $i != (el " 1")) bad = "frame " i }
	END { if (NR != 1) bad = NR " lines"; if (bad != "") { print bad; exit 1 } }' \
	"$TMP/out" || fail "profflame of a deep stack: not cut to 1024 frames of 1024 bytes"
bounded 0 "$PROFFLAME" --svg "$TMP/deep.pb"
[ "$(wc -c <"$TMP/out")" -lt 3000000 ] || fail "profflame --svg of a deep stack: $(wc -c <"$TMP/out") bytes"
grep -c '<title>' "$TMP/out" | grep -qx 1025 || fail "profflame --svg of a deep stack: $(grep -c '<title>' "$TMP/out") titles, not 1,024 frames and the root"
for cmd in "$PROFCONV show --summary" "$PROFFLAME --speedscope" \
    "$PROFDIFF" "$PROFTREND"; do
	case $cmd in
	"$PROFDIFF" | "$PROFTREND") bounded 0 $cmd "$TMP/deep.pb" "$TMP/deep.pb" ;;
	*) bounded 0 $cmd "$TMP/deep.pb" ;;
	esac
	[ "$(wc -c <"$TMP/out")" -lt 3000000 ] ||
		fail "$cmd of a deep stack: $(wc -c <"$TMP/out") bytes"
done
bounded 0 "$PROFCONV" show --summary "$TMP/deep.pb"
grep -qF "$cut" "$TMP/out" || fail "show --summary of a deep stack does not say it is cut"

finish
