/* SPDX-License-Identifier: MIT */
/*
 * test_select.c - the K-th smallest of an array of doubles
 * (lib/base/select.c): against a sort, for every K, on arrays of many
 * shapes (random, few distinct values, sorted, reversed, organ pipes),
 * with the partition around X[K] checked and with the sort it falls
 * back to after too many partitions taking over at every round.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "base/base.h"

static int
up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return PC_CMP(x, y);
}

/* Fill X (N) in shape SHAPE from the generator at *SEED. */
static void
fill(double *x, size_t n, int shape, unsigned *seed)
{
	for (size_t i = 0; i < n; i++) {
		switch (shape) {
		case 0:
			x[i] = (double)rand_r(seed) / RAND_MAX;
			break;
		case 1:		/* few values, many times each */
			x[i] = (double)(rand_r(seed) % 4);
			break;
		case 2:
			x[i] = (double)i;
			break;
		case 3:
			x[i] = (double)(n - i);
			break;
		case 4:		/* up, then down */
			x[i] = (double)(i < n / 2 ? i : n - i);
			break;
		default:	/* all the same */
			x[i] = 0.25;
			break;
		}
	}
}

/* Every K of X (N, shape SHAPE) with at most ROUNDS partitions (SIZE_MAX:
 * the library's own bound) against the sorted copy. */
static void
every_k(size_t n, int shape, size_t rounds, unsigned seed)
{
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	double *sorted = malloc(n * sizeof(*sorted));

	cr_assert(x != NULL && y != NULL && sorted != NULL);
	fill(x, n, shape, &seed);
	memcpy(sorted, x, n * sizeof(*x));
	qsort(sorted, n, sizeof(*sorted), up);
	for (size_t k = 0; k < n; k++) {
		double got;

		memcpy(y, x, n * sizeof(*x));
		got = rounds == SIZE_MAX ? profconv__select_kth(y, n, k) :
		    profconv__select_kth_rounds(y, n, k, rounds);
		cr_assert(eq(dbl, got, sorted[k]), "n %zu shape %d k %zu "
		    "rounds %zu", n, shape, k, rounds);
		cr_assert(eq(dbl, y[k], got));
		for (size_t i = 0; i < n; i++)
			cr_assert(i < k ? y[i] <= got : i > k ? y[i] >= got :
			    true, "n %zu shape %d k %zu: %zu out of place",
			    n, shape, k, i);
		/* Reordered, not changed. */
		qsort(y, n, sizeof(*y), up);
		cr_assert(eq(int, memcmp(y, sorted, n * sizeof(*y)), 0));
	}
	free(x);
	free(y);
	free(sorted);
}

Test(select, as_a_sort_would)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 64, 301 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
		for (int shape = 0; shape < 6; shape++)
			every_k(sizes[s], shape, SIZE_MAX, 7u + (unsigned)s);
}

/* The sort that takes over, from the first round on, and later. */
Test(select, the_sort_it_falls_back_to)
{
	for (size_t rounds = 0; rounds < 4; rounds++)
		for (int shape = 0; shape < 6; shape++)
			every_k(97, shape, rounds, 11u + (unsigned)rounds);
}
