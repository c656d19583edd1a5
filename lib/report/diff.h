/* SPDX-License-Identifier: MIT */
/*
 * diff.h - the comparison's rows for another writer of this folder (the
 * report's HTML table): the rows profconv_diff_print() prints, in its
 * order, with its columns, signs and TOTAL row, so that no writer
 * computes the comparison again.
 * May include: base/, model/model.h, view/, write/write.h.
 */
#ifndef PROFCONV_REPORT_DIFF_H
#define PROFCONV_REPORT_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include <profconv.h>

#include "view/delta.h"

/*
 * profconv_diff_new(), which takes the stacks of BASE and CUR with their
 * views when TAKE and their owner let them go
 * (profconv_profile_set_stacks_disposable()): the public call does; a
 * writer that reads the profiles after (the report) does not.
 */
int profconv__diff_new(struct profconv_diff **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_diff_options *opts, bool take);

/* A row of the table: V holds base, cur and delta, one per sample type
 * each (3 * profconv_profile_sample_type_count() values). */
struct pc_diff_row {
	const char *name;
	const int64_t *v;
	bool total;		/* the TOTAL row, given last */
};

/*
 * Give FN the rows profconv_diff_print() prints for OPTS (the same sort,
 * at most OPTS->top), then the TOTAL row; *MORE (may be NULL) is how many
 * changed rows TOP left out.  FN's non-zero return stops the walk and is
 * returned.  Errors: as profconv_diff_print(), but for PROFCONV_EIO.
 */
int profconv__diff_rows(const struct profconv_diff *d,
    const struct profconv_diff_print_options *opts,
    int (*fn)(const struct pc_diff_row *row, void *payload), void *payload,
    size_t *more);

/* How many heap columns the table has (New, Freed, ...; 0 for a profile
 * without alloc and inuse counters), their titles, and the value of
 * column C of a row's V.  Cannot fail. */
size_t profconv__diff_heap_columns(const struct profconv_diff *d);
const char *profconv__diff_heap_title(size_t c);
int64_t profconv__diff_heap_value(const struct profconv_diff *d,
    const int64_t *v, size_t c);

/* How sample type T of a row's V changed, and its delta as pprof's
 * -diff_base percentage (of the base's total). */
enum pc_change profconv__diff_change(const struct profconv_diff *d,
    const int64_t *v, size_t t);
double profconv__diff_percent(const struct profconv_diff *d, int64_t delta,
    size_t t);

#endif /* PROFCONV_REPORT_DIFF_H */
