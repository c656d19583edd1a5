/* SPDX-License-Identifier: MIT */
/*
 * patterns.c - five allocation patterns, with a heap dump after each
 * phase, for tests/cli/proftrend.sh.  Only the first two are leaks.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o patterns patterns.c [-ltcmalloc]
 * Usage: patterns [PHASES]     (default 10)
 *
 * Per phase p = 0 .. PHASES-1:
 *   steady_leak     keeps 64 blocks of 1 KiB (64 KiB a phase)
 *   slow_leak       keeps 3 blocks of 2 KiB (6 KiB a phase)
 *   grow_then_free  keeps 32 blocks of 4 KiB in phases 0..5, frees them
 *                   all in phase 6, nothing after
 *   sawtooth        even phases take 32 blocks of 8 KiB, odd ones free them
 *   fill_cache      fills a 512 KiB cache (128 blocks of 4 KiB) in phase 0
 *                   and never touches it again
 *   churn           allocates and frees 100 blocks of 3 KiB
 * then asks the allocator for a dump: HeapProfilerDump("phase") under
 * gperftools' heap profiler (HEAPPROFILE=prefix: prefix.0001.heap, ...),
 * mallctl("prof.dump") under jemalloc (prof:true with prof_prefix:
 * prefix.PID.SEQ.mSEQ.heap, SEQ unpadded: .m2 and .m10).  Phase 0 frees
 * nothing before its dump, so the first gperftools dump is typed
 * objects/space, as the first dump of a real process usually is.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* Whichever allocator is in the process defines one of these. */
extern void HeapProfilerDump(const char *reason) __attribute__((weak));
extern int mallctl(const char *name, void *oldp, size_t *oldlenp,
    void *newp, size_t newlen) __attribute__((weak));

static void *held[8192];	/* what the leaks keep: reachable, unused */
static size_t nheld;

static NOINLINE void *
must(void *p)
{
	if (p == NULL) {
		fputs("patterns: out of memory\n", stderr);
		exit(1);
	}
	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

static NOINLINE void
steady_leak(void)
{
	for (int i = 0; i < 64 && nheld < 8192; i++)
		held[nheld++] = must(malloc(1024));
}

static NOINLINE void
slow_leak(void)
{
	for (int i = 0; i < 3 && nheld < 8192; i++)
		held[nheld++] = must(malloc(2048));
}

static NOINLINE void
grow_then_free(int phase)
{
	static void *blocks[32 * 6];
	static int n;

	if (phase < 6) {
		for (int i = 0; i < 32; i++)
			blocks[n++] = must(malloc(4096));
	} else if (phase == 6) {
		while (n > 0)
			free(blocks[--n]);
	}
}

static NOINLINE void
sawtooth(int phase)
{
	static void *blocks[32];

	for (int i = 0; i < 32; i++) {
		if (phase % 2 == 0)
			blocks[i] = must(malloc(8192));
		else
			free(blocks[i]);
	}
}

static NOINLINE void
fill_cache(void)
{
	static void *cache[128];
	static int filled;

	if (filled)
		return;
	for (int i = 0; i < 128; i++)
		cache[i] = must(malloc(4096));
	filled = 1;
}

static NOINLINE void
churn(void)
{
	void *blocks[100];

	for (int i = 0; i < 100; i++)
		blocks[i] = must(malloc(3072));
	for (int i = 0; i < 100; i++)
		free(blocks[i]);
}

static NOINLINE void
dump(void)
{
	if (HeapProfilerDump != NULL) {
		HeapProfilerDump("phase");
	} else if (mallctl != NULL) {
		if (mallctl("prof.dump", NULL, NULL, NULL, 0) != 0) {
			fputs("patterns: mallctl prof.dump failed "
			    "(MALLOC_CONF=prof:true?)\n", stderr);
			exit(1);
		}
	} else {
		fputs("patterns: neither gperftools nor jemalloc\n", stderr);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	int phases = argc > 1 ? atoi(argv[1]) : 10;

	if (phases < 1 || phases > 100) {
		fputs("usage: patterns [PHASES]   (1..100)\n", stderr);
		return 2;
	}
	for (int p = 0; p < phases; p++) {
		steady_leak();
		slow_leak();
		grow_then_free(p);
		fill_cache();
		sawtooth(p);
		if (p > 0)	/* the first dump: nothing freed yet */
			churn();
		dump();
	}
	return 0;
}
