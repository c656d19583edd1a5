/* SPDX-License-Identifier: MIT */
/* libsym.c - the shared library of tests/symbolize/prog.c. */
#include <stdlib.h>
#include <string.h>

static inline __attribute__((always_inline)) void *
lib_leaf(size_t n)
{
	void *p = malloc(n + 8);

	memset(p, 1, n + 8);
	return p;
}

__attribute__((noinline)) void *
lib_alloc(size_t n)
{
	return malloc(n);
}

__attribute__((noinline)) void *
lib_alloc_inlined(size_t n)
{
	return lib_leaf(n * 3);
}
