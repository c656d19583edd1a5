/* SPDX-License-Identifier: MIT */
/*
 * b.c - main and b_alloc of a small program of two files and a header,
 * for tests/cli/granularity.sh (granularity by file and by function and
 * file).  Run under gperftools' heap profiler (HEAPPROFILE=prefix), it
 * dumps its heap once before it returns.
 *
 * Build: cc -O2 -g -fno-omit-frame-pointer -o multifile a.c b.c \
 *        -Wl,--no-as-needed -ltcmalloc
 */
#include "util.h"

extern void HeapProfilerDump(const char *reason) __attribute__((weak));

__attribute__((noinline)) void
b_alloc(size_t n)
{
	keep[nkeep++] = grab(n);
	a_alloc(n * 2);
}

int
main(void)
{
	int i;

	for (i = 0; i < 200; i++) {
		b_alloc(8192);
		a_more(4096);
		a_alloc(1000);
	}
	keep[nkeep++] = grab(300000);
	if (HeapProfilerDump != NULL)
		HeapProfilerDump("granularity");
	return 0;
}
