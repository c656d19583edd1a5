/* SPDX-License-Identifier: MIT */
/* a.c - two functions of one file, each allocating: by file they are
 * one node (tests/cli/granularity.sh). */
#include "util.h"

void *keep[4096];
int nkeep;

__attribute__((noinline)) void
a_alloc(size_t n)
{
	keep[nkeep++] = grab(n);
}

__attribute__((noinline)) void
a_more(size_t n)
{
	keep[nkeep++] = malloc(n);
	__asm__ volatile("" : : : "memory");
}
