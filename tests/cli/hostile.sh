# SPDX-License-Identifier: MIT
# hostile.sh - small inputs built to cost much time or memory (issue 16).
# Each runs under a memory cap and a timeout far above what profconv needs
# (a few MB, well under a second), so only a real regression fails.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

LIMIT_KB=1048576	# 1 GiB of address space
LIMIT_S=30

# bounded STATUS CMD...: run CMD as run() does, under the caps; a cap hit
# shows as a kill by signal or a failed allocation.
bounded() {
	want=$1
	shift
	(ulimit -v "$LIMIT_KB" && exec timeout "$LIMIT_S" "$@") \
		>"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" != "$want" ]; then
		fail "'$*' exited $got under ${LIMIT_KB} KB/${LIMIT_S} s, expected $want"
		sed 's/^/  stderr: /' "$TMP/err" | head -n 5 >&2
	fi
}

heap_head() {
	printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n'
	printf '1: 2 [1: 2] @ 0x401000\n\nMAPPED_LIBRARIES:\n'
}

# Item 8: $variables in the map.  Three lines expand $c to 1 GB; 16,000
# variables make every '$' a long search.
{
	heap_head
	printf 'a=%s\n' "$(printf '%1000s' '' | tr ' ' x)"
	printf 'b=%s\n' "$(printf '%1000s' '' | sed 's/ /$a/g')"
	printf 'c=%s\n' "$(printf '%1000s' '' | sed 's/ /$b/g')"
	printf '00400000-00500000 r-xp 00000000 00:00 0 /bin/$c\n'
} >"$TMP/vars.heap"
bounded 1 "$PROFCONV" show "$TMP/vars.heap"
expect_err "profconv show: '$TMP/vars.heap': line 7: \$variable expansion exceeds 16 MiB"
{
	heap_head
	awk 'BEGIN { for (i = 0; i < 16000; i++) printf "v%d=1\n", i
		for (i = 0; i < 2000; i++) {
			s = ""
			for (j = 0; j < 100; j++) s = s "$"
			print s
		} }'
} >"$TMP/lookups.heap"
bounded 1 "$PROFCONV" show "$TMP/lookups.heap"
expect_err "profconv show: '$TMP/lookups.heap': line 16046: \$variable lookups exceed 64M comparisons (too many variables)"
# Variables as real maps use them still work.
{
	heap_head
	printf 'build=/opt/app\n00400000-00500000 r-xp 00000000 00:00 0 $build/bin/app\n'
} >"$TMP/okvars.heap"
bounded 0 "$PROFCONV" show "$TMP/okvars.heap"
expect_out_has '/opt/app/bin/app'

finish
