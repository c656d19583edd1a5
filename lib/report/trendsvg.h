/* SPDX-License-Identifier: MIT */
/*
 * trendsvg.h - what the picture of a series decides without a profile:
 * which snapshots it draws when there are more than it has room for.
 * Private to libprofconv; the unit tests call it directly.
 */
#ifndef PROFCONV_TRENDSVG_H
#define PROFCONV_TRENDSVG_H

#include <stddef.h>
#include <stdint.h>

/* The first snapshot of the N TOTALS with the largest total (N >= 1). */
size_t profconv__trend_peak(const int64_t *totals, size_t n);

/*
 * Choose at most BUDGET (>= 3) of the N snapshots whose totals are
 * TOTALS, as heaptrack keeps peaks: all of them when N <= BUDGET; else
 * the first, the last, and of each of BUDGET - 2 buckets of consecutive
 * snapshots between them the first one with the bucket's largest total,
 * so the peak (profconv__trend_peak()) is always one of them.  Their
 * indexes go to OUT in increasing order; returns how many.
 */
size_t profconv__trend_pick(const int64_t *totals, size_t n, size_t budget,
    size_t *out);

#endif /* PROFCONV_TRENDSVG_H */
