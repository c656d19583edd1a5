# SPDX-License-Identifier: MIT
# hostile-inputs.sh - the crafted inputs of issue 16 that both the test
# (tests/cli/hostile.sh) and the benchmark (bench/hostile.sh) run.
# Sourced, not run; each function writes one input to the file $1.

hostile_heap_head() {
	printf 'heap profile: 1: 2 [ 1: 2] @ heapprofile\n'
	printf '1: 2 [1: 2] @ 0x401000\n\nMAPPED_LIBRARIES:\n'
}

# Item 8: three map lines whose $variables expand $c to 1 GB.
hostile_vars() {
	{
		hostile_heap_head
		printf 'a=%s\n' "$(printf '%1000s' '' | tr ' ' x)"
		printf 'b=%s\n' "$(printf '%1000s' '' | sed 's/ /$a/g')"
		printf 'c=%s\n' "$(printf '%1000s' '' | sed 's/ /$b/g')"
		printf '00400000-00500000 r-xp 00000000 00:00 0 /bin/$c\n'
	} >"$1"
}

# Item 8: 16,000 variables make every '$' a long search.
hostile_lookups() {
	{
		hostile_heap_head
		awk 'BEGIN { for (i = 0; i < 16000; i++) printf "v%d=1\n", i
			for (i = 0; i < 2000; i++) {
				s = ""
				for (j = 0; j < 100; j++) s = s "$"
				print s
			} }'
	} >"$1"
}

# Item 10: 8M empty pprof samples: 16 MB that unpack to 1 GB.
hostile_empty_pb() {
	printf '\022\000' >"$1"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
		cat "$1" "$1" >"$1.twice"
		mv "$1.twice" "$1"
	done
}

# Item 12: $2 buckets of 40 distinct addresses against 100k map entries.
hostile_many_maps() {
	awk -v buckets="$2" 'BEGIN {
		print "heap profile: 1: 2 [ 1: 2] @ heapprofile"
		for (i = 0; i < buckets; i++) {
			line = "1: 16 [1: 16] @"
			for (k = 0; k < 40; k++) {
				n = i * 40 + k
				e = n * 7919 % 100000
				a = 268435456 + e * 65536 + 256 + int(n / 100000) * 16
				line = line sprintf(" 0x%x", a)
			}
			print line
		}
		print ""; print "MAPPED_LIBRARIES:"
		for (j = 0; j < 100000; j++)
			printf "%x-%x r-xp 00000000 00:00 0 /lib/l%d.so\n",
			    268435456 + j * 65536, 268435456 + j * 65536 + 32768, j
		}' >"$1"
}

# Issue 29 item 7: heaptrack data whose $2 trace nodes form one chain,
# each with an allocation: $2 samples of depth 1 to $2.
hostile_ht_chain() {
	awk -v n="$2" 'BEGIN {
		print "v 10400 3"; print "s 4 main"; print "i 1010 0 1"
		for (i = 0; i < n; i++) printf "t 1 %x\n", i
		for (i = 0; i < n; i++) printf "a 10 %x\n", i + 1
		for (i = 0; i < n; i++) printf "+ %x\n", i
		print "# strings: 1"; print "# ips: 1"
	}' >"$1"
}

# Issue 29 item 7: a massif heap tree of $2 nested nodes, each holding
# 16 bytes of its own: $2 stacks of depth 1 to $2.
hostile_massif_chain() {
	awk -v n="$2" 'BEGIN {
		print "desc: (none)"; print "cmd: ./chain"; print "time_unit: i"
		print "#-----------"; print "snapshot=0"; print "#-----------"
		print "time=0"; printf "mem_heap_B=%d\n", 16 * n
		print "mem_heap_extra_B=0"; print "mem_stacks_B=0"
		print "heap_tree=peak"
		printf "n1: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n", 16 * n
		for (i = 0; i < n; i++)
			printf "n%d: %d 0x%x: f%d (c.c:%d)\n", i + 1 < n, 16 * (n - i), 4096 + i, i % 7, i
	}' >"$1"
}
