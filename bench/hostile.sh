#!/bin/sh
# SPDX-License-Identifier: MIT
# hostile.sh - time and peak memory of profconv on the crafted inputs of
# issue 16, for one build or a before/after pair of builds.
#
#   bench/hostile.sh NEW_BUILDDIR [OLD_BUILDDIR]
#
# Each input is made here (small C generators are compiled with cc); each
# run is capped (ulimit -v $CAP_KB, default 8 GiB; timeout $CAP_S, default
# 300 s) so that an old build cannot take the machine down.  Prints one
# line per case and build: "case build seconds peak-KB exit".  ONLY=PREFIX
# runs the cases whose names begin with it (ONLY=29 for issue 29's).
set -eu

prog=hostile.sh
[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: $prog NEW_BUILDDIR [OLD_BUILDDIR]" >&2
	exit 2
}
new=$(cd "$1" && pwd)
old=${2:+$(cd "$2" && pwd)}
CAP_KB=${CAP_KB:-8388608}
CAP_S=${CAP_S:-300}
ONLY=${ONLY:-}
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/cli/hostile-inputs.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/profconv-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT

# measure CASE BUILD CMD...: CMD with BUILD's binaries, capped.
measure() {
	name=$1 build=$2
	shift 2
	set +e
	(ulimit -v "$CAP_KB" && exec /usr/bin/time -f '%e %M' -o "$work/time" \
		timeout "$CAP_S" "$@") >/dev/null 2>"$work/err"
	status=$?
	set -e
	printf '%-22s %-4s %8s s %10s KB  exit %s\n' "$name" "$build" \
		"$(cut -d' ' -f1 "$work/time" | tail -n 1)" \
		"$(cut -d' ' -f2 "$work/time" | tail -n 1)" "$status"
}

# each CASE ARGS...: run "TOOL ARGS" for the new and the old build;
# TOOL is the first argument (profconv, profflame).
each() {
	name=$1 tool=$2
	shift 2
	case $name in "$ONLY"*) ;; *) return 0 ;; esac
	for b in new ${old:+old}; do
		dir=$new
		[ "$b" = old ] && dir=$old
		LD_LIBRARY_PATH=$dir/lib/.libs measure "$name" "$b" \
			"$dir/cmd/.libs/$tool" "$@"
	done
}

# Item 7: a pprof whose drop_frames is (((x{0,40}){0,40}){0,40}).
cat >"$work/rx.c" <<'EOF'
#include <stdio.h>
#include <profconv.h>
int
main(int argc, char **argv)
{
	static const char *const names[] = { "malloc", "operator new", "main" };
	struct profconv_profile *p;
	uint32_t locs[3], fid;
	int64_t v[2] = { 1, 64 };
	FILE *fp = fopen(argv[1], "wb");

	profconv_profile_new(&p);
	profconv_profile_add_sample_type(p, "inuse_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	for (uint32_t i = 0; i < 3; i++) {
		struct profconv_function f = { names[i], names[i], "a.c", 1 };
		struct profconv_line ln = { 0, 10, 0 };

		profconv_profile_add_function(p, &f, &fid);
		ln.function_id = fid;
		profconv_profile_add_location(p, 0, 0x1000 + i, &ln, 1, 0,
		    &locs[i]);
	}
	profconv_profile_add_sample(p, locs, 3, v, NULL, 0);
	profconv_profile_set_drop_frames(p, argv[2]);
	return argc != 3 || profconv_profile_write(p, fp, NULL) != 0 ||
	    fclose(fp) != 0;
}
EOF
cc -std=gnu11 -I"$src/lib" "$work/rx.c" -o "$work/rx" \
	-L"$new/lib/.libs" -lprofconv
LD_LIBRARY_PATH=$new/lib/.libs "$work/rx" "$work/rx.pb.gz" \
	'(((x{0,40}){0,40}){0,40})|malloc'
each "7 drop_frames regex" profflame --no-symbolize "$work/rx.pb.gz"

# Item 8: $variables expanding to 1 GB; 16,000 variables.
hostile_vars "$work/vars.heap"
each "8 maps expansion" profconv show "$work/vars.heap"
hostile_lookups "$work/lookups.heap"
each "8 maps lookups" profconv show "$work/lookups.heap"

# Item 9: 200,000 addresses whose unkeyed hashes share 24 low bits.
cat >"$work/flood.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
static uint64_t
inverse(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}
int
main(void)
{
	puts("heap profile: 1: 2 [ 1: 2] @ heapprofile");
	for (uint64_t i = 1; i <= 200000; i++) {
		uint64_t h = i << 24;	/* fmix64 backwards, then +1: the
					 * reader keys return address - 1 */
		h ^= h >> 33;
		h *= inverse(0xc4ceb9fe1a85ec53ULL);
		h ^= h >> 33;
		h *= inverse(0xff51afd7ed558ccdULL);
		h ^= h >> 33;
		printf("1: 16 [1: 16] @ 0x%llx\n", (unsigned long long)h + 1);
	}
	return 0;
}
EOF
cc -std=gnu11 -O2 "$work/flood.c" -o "$work/flood"
"$work/flood" >"$work/flood.heap"
each "9 hash flooding" profconv text2pb "$work/flood.heap" -o /dev/null

# Item 10: /dev/zero; 8M empty samples (16 KB gzipped).
each "10 /dev/zero" profconv show --max-input 1G /dev/zero
hostile_empty_pb "$work/empty.pb"
gzip -9 "$work/empty.pb"
each "10 pprof unpacking" profconv show --max-input 64M "$work/empty.pb.gz"

# Item 12: 1M addresses against 100k map entries.
hostile_many_maps "$work/maps.heap" 25000
each "12 map search" profconv text2pb --level 0 "$work/maps.heap" -o /dev/null

# Issue 29 item 7: 20,000 chained heaptrack trace nodes (0.5 MB) and a
# massif heap tree 20,000 deep (0.7 MB), each node with an allocation:
# 200M frames of samples, beyond --max-input 64M.
hostile_ht_chain "$work/chain.ht" 20000
each "29.7 heaptrack chain" profconv text2pb --max-input 64M --level 0 \
	"$work/chain.ht" -o /dev/null
hostile_massif_chain "$work/chain.ms" 20000
each "29.7 massif chain" profconv text2pb --max-input 64M --level 0 \
	"$work/chain.ms" -o /dev/null

# Issue 29 item 8: one stack 100,000 frames deep of one 10 KB name (211
# bytes gzipped), drawn by every writer.
hostile_deep_pb "$work/deep.pb" 100000 "$(printf '%10240s' '' | tr ' ' n)"
gzip -9 "$work/deep.pb"
each "29.8 deep, folded" profflame "$work/deep.pb.gz"
each "29.8 deep, svg" profflame --svg "$work/deep.pb.gz"
each "29.8 deep, summary" profconv show --summary "$work/deep.pb.gz"

# Issue 31 (the view finds stacks by sorting samples): 200,000 samples
# of two stacks 1,000 frames deep that part only at the leaf, taking
# turns (a sort that compares such stacks key by key is O(n log n x
# depth); by windows of keys it is linear).
cat >"$work/turns.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <profconv.h>
int
main(int argc, char **argv)
{
	enum { DEPTH = 1000, N = 200000 };
	static uint32_t locs[DEPTH + 1], stk[DEPTH];
	struct profconv_profile *p;
	int64_t v[1] = { 1 };
	uint32_t fid;
	FILE *fp = fopen(argv[1], "wb");

	profconv_profile_new(&p);
	profconv_profile_add_sample_type(p, "samples", "count");
	for (int i = 0; i <= DEPTH; i++) {
		char name[32];
		struct profconv_function f = { name, name, "a.c", 1 };
		struct profconv_line ln = { 0, 10, 0 };

		snprintf(name, sizeof(name), "f%d", i);
		profconv_profile_add_function(p, &f, &fid);
		ln.function_id = fid;
		profconv_profile_add_location(p, 0, 0x1000 + 16 * i, &ln, 1,
		    0, &locs[i]);
	}
	for (int i = 0; i < N; i++) {
		stk[0] = locs[i % 2 ? DEPTH : 0];
		for (int j = 1; j < DEPTH; j++)
			stk[j] = locs[j];
		profconv_profile_add_sample(p, stk, DEPTH, v, NULL, 0);
	}
	return argc != 2 || profconv_profile_write(p, fp, NULL) != 0 ||
	    fclose(fp) != 0;
}
EOC
cc -std=gnu11 -I"$src/lib" "$work/turns.c" -o "$work/turns" \
	-L"$new/lib/.libs" -lprofconv
LD_LIBRARY_PATH=$new/lib/.libs "$work/turns" "$work/turns.pb.gz"
each "31 deep stacks in turns" profflame "$work/turns.pb.gz"
