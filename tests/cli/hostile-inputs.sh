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

# varint N: N as a protobuf varint, in printf's octal escapes.
hostile_varint() {
	n=$1
	while [ "$n" -ge 128 ]; do
		printf '\\%03o' $((n % 128 + 128))
		n=$((n / 128))
	done
	printf '\\%03o' "$n"
}

# Issue 29 item 8: a pprof with one sample whose stack is location 1
# $2 times (at most 2,097,151), location 1 being function "$3" (211
# bytes gzipped for 100,000 frames and a 10 KB name).
hostile_deep_pb() {
	depth=$2 name=$3
	{
		# sample_type { type: "space" unit: "bytes" }
		printf '\012\004\010\001\020\002'
		# sample { location_id: [1] * depth, value: [1] }
		vlen=1
		[ "$depth" -lt 128 ] || vlen=2
		[ "$depth" -lt 16384 ] || vlen=3
		printf "\\022$(hostile_varint $((depth + vlen + 4)))"
		printf "\\012$(hostile_varint "$depth")"
		head -c "$depth" /dev/zero | tr '\0' '\1'
		printf '\022\001\001'
		# location { id: 1 line { function_id: 1 } }
		printf '\042\006\010\001\042\002\010\001'
		# function { id: 1 name: 3 }
		printf '\052\004\010\001\020\003'
		# string_table: "", "space", "bytes", NAME
		printf '\062\000\062\005space\062\005bytes'
		printf "\\062$(hostile_varint ${#name})"
		printf '%s' "$name"
	} >"$1"
}

# Issue 29 items 9 to 11: a pprof with one sample per name given (at
# most 100), of one frame each, value 1.  The first name is also a
# comment, a label of every sample ("tag"), and the mapped file.
hostile_names_pb() {
	out=$1
	shift
	oct() { printf '\\%03o' "$1"; }
	# lenfield TAG FILE: a length-delimited field holding FILE.
	lenfield() {
		printf "$(oct "$1")$(hostile_varint "$(wc -c <"$2")")"
		cat "$2"
	}
	printf '\012\004\010\001\020\002' >"$out"
	k=1
	for name in "$@"; do
		s=$((k + 3))	# its string: "", space, bytes, tag, names
		printf "\\012\\001$(oct $k)\\022\\001\\001\\032\\004\\010\\003\\020\\004" >"$out.m"
		lenfield 18 "$out.m" >>"$out"
		printf "\\010$(oct $k)\\020\\001\\042\\002\\010$(oct $k)" >"$out.m"
		lenfield 34 "$out.m" >>"$out"
		printf "\\010$(oct $k)\\020$(oct $s)" >"$out.m"
		lenfield 42 "$out.m" >>"$out"
		k=$((k + 1))
	done
	# mapping { id: 1 memory_start: 0x1000 memory_limit: 0x2000
	# filename: 4 }, comment: 4
	printf '\032\012\010\001\020\200\040\030\200\100\050\004' >>"$out"
	printf '\150\004' >>"$out"
	printf '\062\000\062\005space\062\005bytes\062\003tag' >>"$out"
	for name in "$@"; do
		printf '%s' "$name" >"$out.m"
		lenfield 50 "$out.m" >>"$out"
	done
	rm -f "$out.m"
}
