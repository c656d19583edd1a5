/* SPDX-License-Identifier: MIT */
/*
 * test_vec.c - growable arrays (lib/base/vec.c): room made geometrically
 * from 16, the contents kept, and sizes that would overflow refused; big
 * blocks marked for huge pages.
 */

#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "base/base.h"

static void
grows_from_16_by_doubling(void)
{
	int *a = NULL;
	size_t cap = 0, len;

	cr_assert(eq(int, PC_GROW(a, cap, 0, 1), 0));
	cr_assert(eq(sz, cap, 16));
	for (len = 0; len < 16; len++)
		a[len] = (int)len;
	/* Room already there: nothing changes. */
	cr_assert(eq(int, PC_GROW(a, cap, 10, 6), 0));
	cr_assert(eq(sz, cap, 16));
	cr_assert(eq(int, PC_GROW(a, cap, len, 1), 0));
	cr_assert(eq(sz, cap, 32));
	cr_assert(eq(int, PC_GROW(a, cap, len, 100), 0));
	cr_assert(eq(sz, cap, 128));
	for (len = 0; len < 16; len++)
		cr_assert(eq(int, a[len], (int)len));
	free(a);
}

static void
refuses_sizes_that_overflow(void)
{
	char *a = NULL;
	uint64_t *w = NULL;
	size_t cap = 0;

	cr_assert(eq(int, PC_GROW(a, cap, 1, SIZE_MAX), PROFCONV_ENOMEM));
	cr_assert(eq(int, PC_GROW(a, cap, 0, SIZE_MAX / 2 + 2),
	    PROFCONV_ENOMEM));
	cr_assert(eq(int, PC_GROW(w, cap, 0, SIZE_MAX / 8 + 1),
	    PROFCONV_ENOMEM));
	cr_assert(zero(ptr, a));
	cr_assert(zero(ptr, w));
	cr_assert(eq(sz, cap, 0));
}

/* PC_GROW: room made by doubling from 16, overflowing sizes refused. */
Test(vec, grows_or_refuses)
{
	grows_from_16_by_doubling();
	refuses_sizes_that_overflow();
}

/* Does the mapping that holds address P carry MADV_HUGEPAGE ("hg" among
 * its VmFlags in /proc/self/smaps)? */
static bool
marked_huge(const void *p)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false, hg = false;

	cr_assert(not(eq(ptr, fp, NULL)));
	while (fgets(line, sizeof(line), fp) != NULL) {
		size_t n = strspn(line, "0123456789abcdef");
		unsigned long lo, hi;

		/* "lo-hi perms ...": a mapping's first line. */
		if (n > 0 && line[n] == '-' &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && strncmp(line, "VmFlags:", 8) == 0)
			hg = strstr(line, " hg") != NULL;
	}
	fclose(fp);
	return hg;
}

/* Big blocks are marked for huge pages where the kernel has them, small
 * ones are not; the hint never changes errno, even when it fails. */
Test(vec, big_blocks_ask_for_huge_pages)
{
	size_t big = (size_t)32 << 20;
	char *b = profconv__malloc_big(big), *s = profconv__malloc_big(4096);
	char *z = profconv__calloc_big(big, 1);
	bool thp = access("/sys/kernel/mm/transparent_hugepage/enabled",
	    F_OK) == 0;

	cr_assert(not(eq(ptr, b, NULL)));
	cr_assert(not(eq(ptr, z, NULL)));
	cr_assert(not(eq(ptr, s, NULL)));
	cr_expect(eq(int, z[big - 1] | z[0], 0), "calloc_big zeroes");
	if (thp) {
		cr_expect(marked_huge(b + big / 2), "malloc_big");
		cr_expect(marked_huge(z + big / 2), "calloc_big");
	}
	cr_expect(not(marked_huge(s)), "4 KB is left alone");
	/* Nothing mapped there: madvise fails; errno stays. */
	errno = 1234;
	profconv__huge_pages((void *)((uintptr_t)1 << 40), big);
	cr_expect(eq(int, errno, 1234));
	free(b);
	free(z);
	free(s);
}

/* An array PC_GROW grows past 8 MB moves into a block marked for huge
 * pages, its elements kept, and stays in one as it grows on; below that
 * it is left alone. */
Test(vec, grown_big_arrays_ask_for_huge_pages)
{
	uint32_t *a = NULL;
	size_t cap = 0, len = 0, i;
	bool thp = access("/sys/kernel/mm/transparent_hugepage/enabled",
	    F_OK) == 0;

	while (len < ((size_t)40 << 20) / sizeof(*a)) {
		cr_assert(eq(int, PC_GROW(a, cap, len, 1), 0));
		a[len] = (uint32_t)(len * 2654435761u);
		if (++len == cap && cap * sizeof(*a) == (size_t)1 << 20)
			cr_expect(not(marked_huge(a)), "1 MB is left alone");
	}
	for (i = 0; i < len; i++)
		if (a[i] != (uint32_t)(i * 2654435761u))
			break;
	cr_expect(eq(sz, i, len), "the elements moved with the array");
	if (thp)
		cr_expect(marked_huge(a + len / 2), "a grown 64 MB array");
	free(a);
}

/* profconv__by_str: strings by pointer, in strcmp()'s order, for qsort
 * and bsearch. */
Test(vec, strings_in_order)
{
	const char *s[] = { "b", "a\xc3\xa9", "a", "B", "" }, *k = "a";

	qsort(s, 5, sizeof(*s), profconv__by_str);
	cr_expect(eq(str, (char *)s[0], ""));
	cr_expect(eq(str, (char *)s[1], "B"));
	cr_expect(eq(str, (char *)s[2], "a"));
	cr_expect(eq(str, (char *)s[3], "a\xc3\xa9"));
	cr_expect(eq(str, (char *)s[4], "b"));
	cr_expect(eq(ptr, bsearch(&k, s, 5, sizeof(*s), profconv__by_str),
	    (void *)&s[2]));
}

/* Whole huge pages (2 MB) inside the block read as zeros after; the
 * parts at its ends are kept; the next call starts where they ended. */
Test(vec, pages_given_back)
{
	size_t u = (size_t)2 << 20, len = 8 * u, i;
	unsigned char *p = aligned_alloc(u, len), *end;
	unsigned char *from = p + 100, *to = p + 100 + 3 * u + 50;

	cr_assert(not(zero(ptr, p)));
	memset(p, 0xab, len);
	end = profconv__pages_give_back(from, (size_t)(to - from));
	cr_expect(eq(ptr, end, p + 3 * u));
	for (i = 0; i < len; i++) {
		int want = i >= u && i < 3 * u ? 0 : 0xab;

		if (p[i] != want) {
			cr_expect(eq(int, p[i], want), "byte %zu", i);
			break;
		}
	}
	/* From where it ended: the step it left goes now. */
	end = profconv__pages_give_back(end, (size_t)(p + 5 * u + 9 - end));
	cr_expect(eq(ptr, end, p + 5 * u));
	cr_expect(eq(int, p[3 * u], 0));
	cr_expect(eq(int, p[5 * u - 1], 0));
	cr_expect(eq(int, p[5 * u], 0xab));
	/* Less than a step: nothing, and the same place back. */
	cr_expect(eq(ptr, profconv__pages_give_back(p + 6 * u + 1, u),
	    p + 6 * u + 1));
	cr_expect(eq(int, p[6 * u + 1], 0xab));
	free(p);
}
