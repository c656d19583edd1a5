/* SPDX-License-Identifier: MIT */
/*
 * diffpair.c - a heap producer for the differential pictures: one
 * process dumps its heap twice (gperftools' HeapProfilerDump, every
 * allocation recorded), and between the dumps known things happen:
 *
 *   cache_fill     2,867,200 bytes at the first dump, all freed before the
 *                  second (a path only the base has)
 *   leak_more      100,352 bytes more at the second dump (a leak)
 *   fresh_path     65,536 bytes, only at the second dump (a new path)
 *   parent_work -> first_child, second_child: 10,240 bytes each, then
 *                  30,720 each (inferno#295: the parent grew by 40,960
 *                  bytes, though nothing is its own)
 *   trim           524,288 bytes, then 131,072 (shrank, not gone)
 *   steady         262,144 bytes at both
 *   tiny_change    1,024 bytes, then 1,040 (under any noise floor)
 *   scratch        4,096 bytes allocated and freed before the first dump
 *                  (so that dump counts allocations apart from what is
 *                  in use, as the second one does: pprof then reads the
 *                  two with the same four sample types)
 *
 * usage: HEAPPROFILE=PREFIX diffpair   (PREFIX.0001.heap, PREFIX.0002.heap)
 */
#include <stdlib.h>
#include <string.h>

#include <gperftools/heap-profiler.h>

#define NOINLINE __attribute__((noinline))

void *held[4096];	/* not static: kept, never optimized away */
int nheld;

/* Keep N bytes from the calling function (a macro: the caller is the
 * stack's leaf). */
#define HOLD(n) do { \
		void *p_ = malloc(n); \
		memset(p_, 1, (n)); \
		held[nheld++ & 4095] = p_; \
	} while (0)

static void *cache[700];

NOINLINE static void
cache_fill(void)
{
	for (int i = 0; i < 700; i++) {
		cache[i] = malloc(4096);
		memset(cache[i], 2, 4096);
	}
}

NOINLINE static void
cache_drop(void)
{
	for (int i = 0; i < 700; i++)
		free(cache[i]);
}

NOINLINE static void
leak_more(int n)
{
	for (int i = 0; i < n; i++)
		HOLD(1024);
}

NOINLINE static void
fresh_path(void)
{
	HOLD(65536);
}

NOINLINE static void
first_child(int n)
{
	for (int i = 0; i < n; i++)
		HOLD(1024);
}

NOINLINE static void
second_child(int n)
{
	for (int i = 0; i < n; i++)
		HOLD(1024);
}

NOINLINE static void
parent_work(int n)
{
	first_child(n);
	second_child(n);
}

static void *trimmed[8];

NOINLINE static void
trim(int keep)
{
	for (int i = 0; i < 8; i++) {
		if (trimmed[i] == NULL && i < keep) {
			trimmed[i] = malloc(65536);
			memset(trimmed[i], 3, 65536);
		} else if (trimmed[i] != NULL && i >= keep) {
			free(trimmed[i]);
			trimmed[i] = NULL;
		}
	}
}

NOINLINE static void
steady(void)
{
	HOLD(262144);
}

NOINLINE static void
tiny_change(size_t n)
{
	HOLD(n);
}

NOINLINE void
scratch_free(void)
{
	free(held[4095]);
	held[4095] = NULL;
}

NOINLINE static void
scratch(void)
{
	held[4095] = malloc(4096);
	memset(held[4095], 4, 4096);
	scratch_free();
}

int
main(void)
{
	scratch();
	cache_fill();
	leak_more(100);
	parent_work(10);
	trim(8);
	steady();
	tiny_change(1024);
	HeapProfilerDump("base");

	cache_drop();
	leak_more(98);
	fresh_path();
	parent_work(20);
	trim(2);
	tiny_change(16);
	HeapProfilerDump("current");
	return 0;
}
