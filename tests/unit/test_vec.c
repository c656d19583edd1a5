/* SPDX-License-Identifier: MIT */
/*
 * test_vec.c - growable arrays (lib/base/vec.c): room made geometrically
 * from 16, the contents kept, and sizes that would overflow refused.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

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
