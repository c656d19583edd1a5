/* SPDX-License-Identifier: MIT */
/*
 * deep.c - a heap whose weight is shallow and whose stacks are deep, for
 * tests/cli/first-screen.sh (issue 30 item 6): what a real compiler's
 * dump looks like (rustc's stacks are 105 frames deep).
 *
 * Build: cc -O0 -g -fno-omit-frame-pointer -o deep deep.c [-ltcmalloc]
 * Usage: deep [PHASES [DEPTH]]     (default 4 and 120)
 *
 * Per phase: shallow_buffers() keeps 16 blocks of 64 KiB, allocated from
 * main; then descend_through_the_parser() recurses DEPTH frames and
 * deep_leak() keeps one block of 1 KiB at the bottom; then a heap dump,
 * as tests/trend/patterns.c asks for it: HeapProfilerDump under
 * gperftools (HEAPPROFILE=prefix), mallctl("prof.dump") under jemalloc.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

extern void HeapProfilerDump(const char *reason) __attribute__((weak));
extern int mallctl(const char *name, void *oldp, size_t *oldlenp,
    void *newp, size_t newlen) __attribute__((weak));

static void *held[4096];
static size_t nheld;

static NOINLINE void
keep(size_t size)
{
	void *p = malloc(size);

	if (p == NULL) {
		fputs("deep: out of memory\n", stderr);
		exit(1);
	}
	__asm__ volatile("" : : "r"(p) : "memory");
	if (nheld < 4096)
		held[nheld++] = p;
}

static NOINLINE void
shallow_buffers(void)
{
	for (int i = 0; i < 16; i++)
		keep(64 * 1024);
}

static NOINLINE void
deep_leak(void)
{
	keep(1024);
}

/* Not a tail call: the frames stay on the stack. */
static NOINLINE int
descend_through_the_parser(int depth)
{
	int r = 0;

	if (depth > 0)
		r = descend_through_the_parser(depth - 1);
	else
		deep_leak();
	__asm__ volatile("" : "+r"(r) : : "memory");
	return r + 1;
}

int
main(int argc, char **argv)
{
	int phases = argc > 1 ? atoi(argv[1]) : 4;
	int depth = argc > 2 ? atoi(argv[2]) : 120;

	for (int p = 0; p < phases; p++) {
		shallow_buffers();
		descend_through_the_parser(depth);
		if (HeapProfilerDump != NULL)
			HeapProfilerDump("phase");
		else if (mallctl != NULL)
			mallctl("prof.dump", NULL, NULL, NULL, 0);
	}
	return 0;
}
