#!/bin/sh
# SPDX-License-Identifier: MIT
# make-dwarf-seeds.sh - write fuzz_dwarf seeds into DIR from programs
# compiled here: each seed is .debug_abbrev, .debug_info and .debug_str
# of one binary in fuzz_dwarf's input layout.
#
# usage: tests/fuzz/make-dwarf-seeds.sh DIR   (from the source tree)
set -eu
out=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dwarfseeds.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# le32 N: N as 4 little-endian bytes.
le32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) \
	    $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}

# seed BINARY NAME
seed() {
	for s in abbrev info str; do
		objcopy --dump-section .debug_$s="$TMP/$s" "$1" "$TMP/junk" 2>/dev/null ||
			: >"$TMP/$s"
	done
	{
		le32 "$(wc -c <"$TMP/abbrev")"
		cat "$TMP/abbrev" "$TMP/info"
		printf 'STR\000'
		le32 "$(wc -c <"$TMP/str")"
		cat "$TMP/str"
	} >"$out/$2"
}

gcc -O2 -g -gdwarf-4 -o "$TMP/prog4" tests/symbolize/prog.c tests/symbolize/libsym.c
seed "$TMP/prog4" gcc-O2-dwarf4
gcc -O1 -g -o "$TMP/prog5" tests/symbolize/prog.c tests/symbolize/libsym.c
seed "$TMP/prog5" gcc-O1-dwarf5
. tests/symbolize/deep-dwarf.sh
deep_asm 3000 >"$TMP/deep.s"
gcc -no-pie -o "$TMP/deep" "$TMP/deep.s" 2>/dev/null
seed "$TMP/deep" nested-3000-blocks
