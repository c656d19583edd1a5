/* SPDX-License-Identifier: MIT */
/*
 * natsort.h - a natural merge sort for one element type: the ascending
 * runs the input already has are merged pairwise until one is left, with
 * the comparison inlined.  For input that is mostly in order (a unit's
 * ranges in DIE order, a line table's rows by sequence) it does far less
 * than qsort; for a comparison that is a total order, the result is
 * qsort's.
 *
 * PC_NATURAL_MERGE_SORT(NAME, TYPE, CMP) defines
 *   static void NAME(TYPE *a, TYPE *tmp, size_t n);
 * which sorts A (N elements) into A by CMP, an int (*)(const void *,
 * const void *) as qsort takes; TMP has room for N.
 */
#ifndef PROFCONV_NATSORT_H
#define PROFCONV_NATSORT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define PC_NATURAL_MERGE_SORT(NAME, TYPE, CMP)				\
static size_t								\
NAME##_run_end(const TYPE *a, size_t i, size_t n)			\
{									\
	for (i++; i < n && CMP(&a[i - 1], &a[i]) <= 0; i++)		\
		;							\
	return i;							\
}									\
									\
static void								\
NAME(TYPE *a, TYPE *tmp, size_t n)					\
{									\
	TYPE *src = a, *dst = tmp, *t;					\
	size_t lo, mid, hi, i, j, k;					\
	bool again = true;						\
									\
	while (again) {							\
		again = false;						\
		for (lo = 0; lo < n; lo = hi) {				\
			mid = NAME##_run_end(src, lo, n);		\
			hi = mid < n ? NAME##_run_end(src, mid, n) : n;	\
			if (mid < n)					\
				again = true;				\
			for (i = lo, j = mid, k = lo; i < mid && j < hi; k++) \
				dst[k] = CMP(&src[j], &src[i]) < 0 ?	\
				    src[j++] : src[i++];		\
			while (i < mid)					\
				dst[k++] = src[i++];			\
			while (j < hi)					\
				dst[k++] = src[j++];			\
		}							\
		t = src;						\
		src = dst;						\
		dst = t;						\
	}								\
	if (src != a)							\
		memcpy(a, src, n * sizeof(*a));				\
}

#endif
