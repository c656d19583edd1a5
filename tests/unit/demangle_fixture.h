/* SPDX-License-Identifier: MIT */
/*
 * demangle_fixture.h - a name demangled into one buffer per test
 * program, "(null)" for a name left alone, for comparing with the text
 * c++filt and rustfilt print.  For test_demangle.c and test_rust_v0.c.
 */
#ifndef PROFCONV_TEST_DEMANGLE_FIXTURE_H
#define PROFCONV_TEST_DEMANGLE_FIXTURE_H

#include "helpers.h"
#include "names/names.h"

/* Criterion's eq(str, ...) takes char *. */
#define STR(s) ((char *)(s))

static struct pc_demangler dm_buf;

/* NAME demangled with FLAGS, or "(null)". */
static inline const char *
dm(const char *name, unsigned flags)
{
	const char *out = profconv__demangle(name, &dm_buf, flags);

	return out != NULL ? out : "(null)";
}

#define HIDE PC_DEMANGLE_NO_HASH

#endif /* PROFCONV_TEST_DEMANGLE_FIXTURE_H */
