/* SPDX-License-Identifier: MIT */
/* util.h - grab(), inlined into the functions of a.c and b.c that call
 * it: its frames are inline frames in util.h under callers in other
 * files (tests/cli/granularity.sh). */
#ifndef MULTIFILE_UTIL_H
#define MULTIFILE_UTIL_H

#include <stdlib.h>

static inline __attribute__((always_inline)) void *
grab(size_t n)
{
	void *p = malloc(n);

	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

void a_alloc(size_t n);
void a_more(size_t n);
extern void *keep[];
extern int nkeep;

#endif
