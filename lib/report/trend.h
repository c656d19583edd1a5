/* SPDX-License-Identifier: MIT */
/*
 * trend.h - the parts of proftrend's analysis that need no profile: the
 * order of snapshots, the growth statistics of one row and the suspect
 * rule (trendstat.c), and names fit for JSON.  Private to libprofconv; the unit
 * tests call these directly.
 */
#ifndef PROFCONV_TREND_H
#define PROFCONV_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profconv.h"

/*
 * Compare A and B in natural order: runs of digits compare as numbers
 * (so "x.m2" < "x.m10"), everything else byte by byte; equal numbers with
 * more leading zeros come later, so only equal strings compare equal.
 */
int profconv__natural_cmp(const char *a, const char *b);

/*
 * Fill ORDER[0..N) with the order of N snapshots named NAMES with the
 * collection times TIMES (nanoseconds, 0 = unknown): by time when every
 * snapshot has one (ties by name), else by name in natural order; with
 * KEEP, as given.  Equal keys keep their given order.  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__trend_order(size_t *order, const char *const *names,
    const int64_t *times, size_t n, bool keep);

/* How one row's values went over N snapshots. */
struct pc_growth {
	int64_t first, last;	/* values in the first and last snapshot */
	int64_t growth;		/* last - first, saturating */
	double slope;		/* least-squares slope per snapshot */
	size_t grew;		/* intervals in which the value went up */
	size_t intervals;	/* N - 1 */
	bool above_start;	/* every value from the third on is above
				 * the first */
	bool changed;		/* not the same value in every snapshot */
};

/*
 * The statistics of the N values V[0], V[STRIDE], ... V[(N-1)*STRIDE]
 * (N >= 1).
 */
void profconv__growth(const int64_t *v, size_t n, size_t stride,
    struct pc_growth *out);

/*
 * The suspect rule (see profconv_trend_options): G grew in at least
 * OPTS->min_grew_fraction of its intervals, stayed above its first value
 * from the third snapshot on, has a positive slope, and grew by at least
 * OPTS->min_growth bytes and OPTS->min_growth_share of HEAP_GROWTH (the
 * growth of the whole heap, when positive).
 */
bool profconv__trend_suspect(const struct pc_growth *g,
    const struct profconv_trend_options *opts, int64_t heap_growth);

/* For trendtable.c: whether T was run successfully, its options, and
 * the name of the sample type it follows. */
bool profconv__trend_ran(const struct profconv_trend *t);
const struct profconv_trend_options *profconv__trend_options(
    const struct profconv_trend *t);
const char *profconv__trend_type_name(const struct profconv_trend *t);

/*
 * A copy of S (malloc'd; NULL when out of memory) with every byte that is
 * not part of valid UTF-8 replaced by U+FFFD: file names may be in any
 * encoding, JSON and the model hold UTF-8 only.
 */
char *profconv__utf8_copy(const char *s);

/* --- what leak suppressions hid (suppressed.c) -------------------------- */

struct pc_hidden {
	char *pattern, *file;
	size_t line;		/* 0: built in */
	size_t stacks;		/* in the last view taken */
	int64_t first, last;	/* values of the report's type */
};
struct pc_hidden_list {
	struct pc_hidden *h;
	size_t n;
};
/*
 * Take what VIEW's suppressions hid of sample type TYPE: as the first
 * snapshot's (FIRST) or as the last's, with its stack counts.  Every
 * view taken into one list must have the same suppressions.  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__hidden_take(struct pc_hidden_list *l,
    const struct profconv_view *view, size_t type, bool first);
void profconv__hidden_free(struct pc_hidden_list *l);
/* The suppressions that hid something, as lines after a table (values
 * in bytes when BYTES; with GROWTH, last - first too) and as a JSON
 * member ',"suppressed":[...]' (nothing when there were no
 * suppressions). */
void profconv__hidden_print(FILE *fp, const struct pc_hidden_list *l,
    bool bytes, bool growth);
void profconv__hidden_json(FILE *fp, const struct pc_hidden_list *l,
    bool growth);
/* What T's suppressions hid (trend.c). */
const struct pc_hidden_list *profconv__trend_hidden(
    const struct profconv_trend *t);

#endif /* PROFCONV_TREND_H */
