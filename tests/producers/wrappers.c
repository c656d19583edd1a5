/* SPDX-License-Identifier: MIT */
/*
 * wrappers.c - a program that allocates through wrappers, as GCC, git and
 * binutils do through xmalloc and xstrdup, and through a pool function of
 * its own on top of them: tests/cli/wrappers.sh runs it under the
 * allocator's heap profiler.  Usage: wrappers [ROUNDS]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* libiberty's and git's shape: die rather than return NULL. */
NOINLINE void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		fputs("out of memory\n", stderr);
		exit(1);
	}
	return p;
}

NOINLINE char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* The program's own wrapper, for --hide and --prune-from. */
NOINLINE static void *
pool_alloc(size_t n)
{
	void *p = xmalloc(n);

	memset(p, 0, n);
	return p;
}

static void *keep[1 << 16];
static size_t nkeep;

static void
hold(void *p)
{
	if (nkeep < sizeof(keep) / sizeof(keep[0]))
		keep[nkeep++] = p;
}

NOINLINE static void
parse_config(int i)
{
	hold(xmalloc(512 + (size_t)(i % 5) * 64));
}

NOINLINE static void
build_index(int i)
{
	hold(pool_alloc(2048 + (size_t)(i % 3) * 512));
}

NOINLINE static void
copy_names(int i)
{
	char name[64];

	snprintf(name, sizeof(name), "name-%d-with-some-length", i);
	hold(xstrdup(name));
}

int
main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 2000;

	for (i = 0; i < n; i++) {
		parse_config(i);
		if (i % 2 == 0)
			build_index(i);
		copy_names(i);
	}
	return nkeep > 0 ? 0 : 1;
}
