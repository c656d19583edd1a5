/* SPDX-License-Identifier: MIT */
/*
 * names.h - function names: demangling C++ and Rust (demangle.c,
 * rust_v0.c), pprof's display modes (simplify.c) and its short names
 * (shorten.c).  No libdw.
 * May include: base/, model/model.h.
 */
#ifndef PROFCONV_NAMES_H
#define PROFCONV_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/*
 * NAME (LEN bytes, demangled C++ or Rust) as MODE shows it, into *BUF
 * (grown as needed, NUL-terminated), its length in *OUT_LEN.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__name_simplify(const char *name, size_t len,
    enum profconv_demangle mode, char **buf, size_t *cap, size_t *out_len);
/* Is NAME a mangled C++ ("_Z") or Rust v0 ("_R") linker name? */
bool profconv__name_is_mangled(const char *name);
/* Does NAME look like a C++ or Rust path (has "::")? */
bool profconv__name_is_cxx(const char *name);
/*
 * NAME as pprof's ShortenFunctionName shortens it (shorten.c says the
 * rule): "v8::internal::Heap::AllocateRaw" is "Heap::AllocateRaw", a Go
 * or Java package path goes.  A new string, NULL when memory runs out.
 */
char *profconv__name_shorten(const char *name);

/* --- demangling (demangle.c, rust_v0.c) ----------------------------------- */

/* A reusable output buffer (malloc'd: __cxa_demangle may realloc it). */
struct pc_demangler {
	char *buf;
	size_t cap;
};

/* Leave out what only tells builds apart: Rust's legacy "::h<hash>"
 * and v0 crate disambiguators "[...]", and v0 consts' ": type". */
#define PC_DEMANGLE_NO_HASH 1u

/*
 * The demangled form of MANGLED when it is an Itanium C++ ("_Z..."), a
 * Rust legacy ("_ZN...17h<hash>E") or a Rust v0 ("_R...") name, else
 * NULL.  With FLAGS 0 it is the full text GNU c++filt 2.40 prints for
 * the name.  The result lives in D's buffer until the next call.
 */
const char *profconv__demangle(const char *mangled, struct pc_demangler *d,
    unsigned flags);
void profconv__demangler_free(struct pc_demangler *d);

/* --- names in a demangle mode (simplify.c) ------------------------------- */

/* Names functions in MODE; zero-initialise, then set MODE. */
struct pc_namer {
	enum profconv_demangle mode;
	struct pc_demangler dm;
	char *buf;
	size_t cap;
};

/*
 * The name of function FID of PROF in N's mode: the full demangled text
 * of a mangled system name when the mode needs it, simplified for C++
 * and Rust names, the linker's name for NONE.  *OUT is borrowed (from N
 * or PROF) until the next call.  Errors: PROFCONV_ENOMEM.
 */
int profconv__namer_name(struct pc_namer *n,
    const struct profconv_profile *prof, uint32_t fid, const char **out,
    size_t *out_len);
void profconv__namer_free(struct pc_namer *n);

#endif /* PROFCONV_NAMES_H */
