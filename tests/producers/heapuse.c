/* SPDX-License-Identifier: MIT */
/*
 * heapuse.c - a program whose heap use has every shape the heaptrack and
 * massif readers must get right: leaks, temporaries, a peak made of
 * several stacks, realloc, calloc, recursion, and (built with -O2) inline
 * chains.  "heapuse [N]": N rounds of the churn loop (default 1000); the
 * benchmark uses millions.
 */

#include <stdlib.h>
#include <string.h>

static void *volatile sink;

__attribute__((noinline)) static void *
leak(size_t n)
{
	void *p = malloc(n);

	memset(p, 1, n);
	return p;
}

/* Inlined into each other at -O2: one address, several lines. */
static inline __attribute__((always_inline)) char *
inner(size_t n)
{
	char *p = malloc(n);

	p[0] = 1;
	return p;
}

static inline __attribute__((always_inline)) char *
middle(size_t n)
{
	return inner(n + 1);
}

__attribute__((noinline)) static char *
outer(size_t n)
{
	return middle(n * 2);
}

/* Short-lived blocks: heaptrack's temporary allocations. */
__attribute__((noinline)) static void
churn(long rounds)
{
	long i;

	for (i = 0; i < rounds; i++) {
		char *p = malloc(32 + (size_t)(i % 7));

		p[0] = (char)i;
		sink = p;
		free(p);
	}
}

__attribute__((noinline)) static void *
recurse(int depth)
{
	void *p;

	if (depth == 0)
		return calloc(4, 250);
	p = recurse(depth - 1);
	sink = &depth;
	return p;
}

/* Several stacks at once, all freed: the peak, and nothing leaked. */
__attribute__((noinline)) static void
peak(void)
{
	void *a = malloc(200000), *b = calloc(1000, 100);
	char *c = outer(30000);

	memset(a, 2, 200000);
	c[1] = 2;
	sink = b;
	free(c);
	free(b);
	free(a);
}

__attribute__((noinline)) static void *
grow(void)
{
	char *p = NULL;
	size_t n;

	for (n = 16; n <= 4096; n *= 2) {
		p = realloc(p, n);
		p[n - 1] = 0;
	}
	return p;
}

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	void *kept[4];

	kept[0] = leak(1000);
	churn(rounds);
	kept[1] = recurse(5);
	peak();
	kept[2] = grow();
	kept[3] = outer(10);
	free(leak(500));
	sink = kept;
	return 0;
}
