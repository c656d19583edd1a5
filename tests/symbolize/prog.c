/* SPDX-License-Identifier: MIT */
/*
 * prog.c - a program for tests/cli/symbolize.sh that allocates through
 * chains of always_inline helpers, plain calls and a shared library, so
 * that a heap profile of it has inlined frames at many addresses.  With
 * the argument "sleep" it says "ready" and waits to be killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INLINE static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))

void *lib_alloc(size_t n);
void *lib_alloc_inlined(size_t n);

static void *volatile keep[8192];
static size_t nkeep;

NOINLINE static void
stash(void *p)
{
	keep[nkeep++ % 8192] = p;
}

INLINE void *
leaf_alloc(size_t n)
{
	char *p = malloc(n);

	memset(p, 7, n);
	return p;
}

INLINE void *
mid_alloc(size_t n)
{
	return leaf_alloc(n * 2 + 1);
}

INLINE void *
outer_alloc(size_t n)
{
	void *p = mid_alloc(n + 3);

	stash(p);
	return p;
}

NOINLINE void
f_direct(size_t n)
{
	stash(malloc(n));
}

NOINLINE void
f_calloc(size_t n)
{
	stash(calloc(n, 2));
}

NOINLINE void
f_inline3(size_t n)
{
	outer_alloc(n);
}

NOINLINE void
f_lib(size_t n)
{
	stash(lib_alloc(n));
	stash(lib_alloc_inlined(n));
}

/* Many functions, each with two inlined allocation sites. */
#define GEN(i) \
	NOINLINE void \
	g##i(size_t n) \
	{ \
		if (n & 1) \
			stash(mid_alloc(n + i)); \
		else \
			stash(leaf_alloc(n + i)); \
	}
#define GEN8(a) GEN(a##0) GEN(a##1) GEN(a##2) GEN(a##3) \
	GEN(a##4) GEN(a##5) GEN(a##6) GEN(a##7)
GEN8(1) GEN8(2) GEN8(3) GEN8(4)

typedef void (*gen_fn)(size_t);
#define REF8(a) g##a##0, g##a##1, g##a##2, g##a##3, \
	g##a##4, g##a##5, g##a##6, g##a##7
static gen_fn const gens[] = { REF8(1), REF8(2), REF8(3), REF8(4) };

NOINLINE static void
run(int rounds)
{
	size_t i;
	int r;

	for (r = 0; r < rounds; r++) {
		f_direct(100 + (size_t)r);
		f_calloc(50);
		f_inline3((size_t)r);
		f_lib((size_t)r + 10);
		for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
			gens[i]((size_t)r + i);
	}
}

int
main(int argc, char **argv)
{
	run(40);
	if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
		puts("ready");
		fflush(stdout);
		for (;;)
			pause();
	}
	return 0;
}
