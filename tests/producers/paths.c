/* SPDX-License-Identifier: MIT */
/*
 * paths.c - many distinct stacks from a small program, for tests that
 * need a large real profile (tests/cli/write-jobs.sh).
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o paths paths.c
 * Usage: paths DEPTH
 *
 * Path number P (0 <= P < 2^DEPTH) walks DEPTH levels; at each level
 * one bit of P chooses which of two functions, each with its own call
 * site, goes one level down, so every path is its own stack of DEPTH
 * frames.  The last frame allocates 16..1024 bytes (by P) and keeps
 * three blocks in four.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static void *volatile sink;
static void **kept;
static unsigned long nkept;

static NOINLINE void left(unsigned int level, unsigned long p);
static NOINLINE void right(unsigned int level, unsigned long p);

static NOINLINE void
leaf(unsigned long p)
{
	void *b = malloc(16 + (p % 64) * 16);

	if (b == NULL)
		exit(1);
	if (p % 4 == 3) {
		sink = b;
		free(b);
	} else {
		kept[nkept++] = b;
	}
}

/* Two functions, so that a return address says which bit it was. */
static NOINLINE void
left(unsigned int level, unsigned long p)
{
	if (level == 0)
		leaf(p);
	else if (p >> (level - 1) & 1)
		right(level - 1, p);
	else
		left(level - 1, p);
	sink = &p;		/* no tail call: keep this frame */
}

static NOINLINE void
right(unsigned int level, unsigned long p)
{
	if (level == 0)
		leaf(p);
	else if (p >> (level - 1) & 1)
		right(level - 1, p);
	else
		left(level - 1, p);
	sink = &p;
}

int
main(int argc, char **argv)
{
	unsigned int depth = argc > 1 ? (unsigned int)atoi(argv[1]) : 12;
	unsigned long p, n;

	if (depth < 1 || depth > 24) {
		fputs("usage: paths DEPTH (1..24)\n", stderr);
		return 2;
	}
	n = 1UL << depth;
	kept = malloc(n * sizeof(*kept));
	if (kept == NULL)
		return 1;
	for (p = 0; p < n; p++)
		left(depth, p);
	printf("%lu paths, %lu blocks kept\n", n, nkept);
	return 0;
}
