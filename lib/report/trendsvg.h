/* SPDX-License-Identifier: MIT */
/*
 * trendsvg.h - what the picture of a series decides without a profile:
 * which snapshots it draws when there are more than it has room for.
 * Private to libprofconv; the unit tests call it directly.
 */
#ifndef PROFCONV_TRENDSVG_H
#define PROFCONV_TRENDSVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Names cut to a room of characters (trendsvg_names.c). */

/* S as XML text, at most MAX characters: its start, or with TAIL its
 * end, and ".." where it is cut. */
void profconv__trend_put_cut(FILE *fp, const char *s, size_t max, bool tail);

/* S (N characters) cut to MAX keeping its character D visible, with the
 * frame that holds it, into *OUT (raw, malloc'd); 0 or PROFCONV_ENOMEM. */
int profconv__trend_cut_keeping(char **out, const char *s, size_t n,
    size_t max, bool tail, size_t d);

/* S cut as profconv__trend_put_cut() cuts it, into *OUT, raw. */
int profconv__trend_cut_plain(char **out, const char *s, size_t max,
    bool tail);

/* Characters A and B have in common at their ends (TAIL) or starts. */
size_t profconv__trend_common_chars(const char *a, const char *b, bool tail);

/* The N names NAMES shown as SHOWN (malloc'd, replaced in place): each
 * longer than MAX characters or the same as another cut to fit with
 * "#K" after it, K its place from 1; 0 or PROFCONV_ENOMEM. */
int profconv__trend_number_names(char **shown, const char *const *names,
    size_t n, size_t max, bool tail);

#endif /* PROFCONV_TRENDSVG_H */
