/* SPDX-License-Identifier: MIT */
/*
 * leakshapes.c - six shapes of memory over time, with a heap dump after
 * each phase, for tests/cli/trend-verdicts.sh.  Only the first two leak.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o leakshapes leakshapes.c
 *        [-ltcmalloc]
 * Usage: leakshapes [PHASES]     (default 40, 12..1000)
 *
 * Per phase p = 0 .. PHASES-1:
 *   steady_leak     keeps 64 blocks of 1 KiB (64 KiB a phase)
 *   small_leak      keeps one block of 256 bytes: under 0.4% of the
 *                   growth, beside steady_leak
 *   fill_cache      adds 32 KiB to a cache until it holds 256 KiB (phase
 *                   7), then leaves it alone
 *   freed_at_exit   keeps 16 KiB a phase, all freed when main returns
 *   sawtooth        adds 48 KiB in three phases of four, frees all of it
 *                   in the fourth
 *   transient       adds 32 KiB a phase in phases 5..14, frees it all in
 *                   phase 15
 * then asks the allocator for a dump: HeapProfilerDump() under gperftools'
 * heap profiler (HEAPPROFILE=prefix; one more dump at exit), mallctl
 * "prof.dump" under jemalloc (prof:true; with prof_final:true the .f dump
 * at exit follows).  The memory of freed_at_exit is freed after the last
 * phase's dump, so only the dump at exit sees it gone.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

extern void HeapProfilerDump(const char *reason) __attribute__((weak));
extern int mallctl(const char *name, void *oldp, size_t *oldlenp,
    void *newp, size_t newlen) __attribute__((weak));

#define MAXPHASES 1000

static void *leaked[MAXPHASES * 65];	/* reachable, unused */
static size_t nleaked;
static void *exitheld[MAXPHASES];

static NOINLINE void *
must(void *p)
{
	if (p == NULL) {
		fputs("leakshapes: out of memory\n", stderr);
		exit(1);
	}
	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

static NOINLINE void
steady_leak(void)
{
	for (int i = 0; i < 64; i++)
		leaked[nleaked++] = must(malloc(1024));
}

static NOINLINE void
small_leak(void)
{
	leaked[nleaked++] = must(malloc(256));
}

static NOINLINE void
fill_cache(void)
{
	static void *cache[8];
	static int n;

	if (n < 8) {
		cache[n] = must(malloc(32 * 1024));
		n++;
	}
}

static NOINLINE void
freed_at_exit(int phase)
{
	exitheld[phase] = must(malloc(16 * 1024));
}

static NOINLINE void
sawtooth(int phase)
{
	static void *teeth[3];

	if (phase % 4 != 3) {
		teeth[phase % 4] = must(malloc(48 * 1024));
	} else {
		for (int i = 0; i < 3; i++)
			free(teeth[i]);
	}
}

static NOINLINE void
transient(int phase)
{
	static void *blocks[10];

	if (phase >= 5 && phase < 15)
		blocks[phase - 5] = must(malloc(32 * 1024));
	else if (phase == 15)
		for (int i = 0; i < 10; i++)
			free(blocks[i]);
}

static NOINLINE void
dump(void)
{
	if (HeapProfilerDump != NULL) {
		HeapProfilerDump("phase");
	} else if (mallctl != NULL) {
		if (mallctl("prof.dump", NULL, NULL, NULL, 0) != 0) {
			fputs("leakshapes: mallctl prof.dump failed "
			    "(MALLOC_CONF=prof:true?)\n", stderr);
			exit(1);
		}
	} else {
		fputs("leakshapes: neither gperftools nor jemalloc\n", stderr);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	int phases = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 40;

	if (phases < 12 || phases > MAXPHASES) {
		fputs("usage: leakshapes [PHASES]   (12..1000)\n", stderr);
		return 2;
	}
	for (int p = 0; p < phases; p++) {
		steady_leak();
		small_leak();
		fill_cache();
		freed_at_exit(p);
		sawtooth(p);
		transient(p);
		dump();
	}
	for (int p = 0; p < phases; p++)
		free(exitheld[p]);
	return 0;
}
