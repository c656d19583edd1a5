/* SPDX-License-Identifier: MIT */
/*
 * demangle.h - private to names/: the output buffer that demangle.c
 * keeps and both Rust parsers write through, and the v0 parser
 * (rust_v0.c) that demangle.c's entry point calls.  Only demangle.c and
 * rust_v0.c include it; the rest of the library uses names/names.h.
 */
#ifndef PROFCONV_NAMES_DEMANGLE_H
#define PROFCONV_NAMES_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names/names.h"

/*
 * Demangled text being written into D's buffer.  A write that fails
 * (out of memory, or past the output bound that keeps hostile names
 * small) sets ERR, and every later write is a no-op.
 */
struct pc_dm_out {
	struct pc_demangler *d;
	size_t len;
	bool err;
};

/* Append the N bytes S, keeping the buffer NUL-terminated. */
void profconv__dm_put(struct pc_dm_out *o, const char *s, size_t n);
/* Append the C string S. */
void profconv__dm_puts(struct pc_dm_out *o, const char *s);
/* Append V in decimal, or in lower-case hex when HEX. */
void profconv__dm_putu(struct pc_dm_out *o, uint64_t v, bool hex);

/* The value of the lower-case hex digit C, or -1 (mangled names use
 * only [0-9a-f]). */
int profconv__dm_hex_nibble(char c);

/*
 * Demangle the v0 name NAME ("_R...") into O, with c++filt's hashes and
 * const types when VERBOSE; false when NAME is none.
 */
bool profconv__demangle_rust_v0(struct pc_dm_out *o, const char *name,
    bool verbose);

#endif /* PROFCONV_NAMES_DEMANGLE_H */
