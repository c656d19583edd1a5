/* SPDX-License-Identifier: MIT */
/*
 * select.c - the K-th smallest of an array of doubles without sorting it
 * (Hoare's selection), in linear time on average and never worse than a
 * sort: after as many partitions as a sort of N would need twice over,
 * what is left of the range is sorted instead.
 */

#include "config.h"

#include <stdlib.h>

#include "base/base.h"

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return PC_CMP(x, y);
}

double
profconv__select_kth_rounds(double *x, size_t n, size_t k, size_t rounds)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2], tmp;
		size_t i = lo, j = hi;

		if (rounds-- == 0) {
			qsort(x + lo, hi - lo + 1, sizeof(*x), by_value);
			break;
		}
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				tmp = x[i];
				x[i] = x[j];
				x[j] = tmp;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return x[k];
}

double
profconv__select_kth(double *x, size_t n, size_t k)
{
	size_t rounds = 16, m;

	for (m = n; m > 1; m >>= 1)
		rounds += 2;
	return profconv__select_kth_rounds(x, n, k, rounds);
}
