/* SPDX-License-Identifier: MIT */
/*
 * delta.h - the one set of rules for a change between two profiles
 * (delta.c): what a change is (CUR - BASE, saturating), which way it
 * went, what 100% of a change is, and the noise floor under which a
 * change is no change.  The comparison table and its JSON (report/diff.c)
 * and the differential flame graph (write/svg*.c) all judge changes
 * here, so one stack is "grew" or "new" in every output.
 * May include: base/.
 */
#ifndef PROFCONV_VIEW_DELTA_H
#define PROFCONV_VIEW_DELTA_H

#include <stdbool.h>
#include <stdint.h>

/* Which way a quantity changed. */
enum pc_change {
	PC_SAME = 0,		/* no change, or one under the noise floor */
	PC_GREW,		/* more than before */
	PC_SHRANK,		/* less than before, not gone */
	PC_NEW,			/* nothing before */
	PC_GONE			/* nothing after: freed, or no longer run */
};

/* What the changes of one comparison are measured against. */
struct pc_delta_scale {
	int64_t base_total, cur_total;
	/* 100% of a change: the base's total, as pprof's -diff_base takes
	 * it, or the current one when the base holds nothing. */
	int64_t reference;
	/* The smallest |change| that counts (at least 1). */
	int64_t floor;
};

/* The scale for totals BASE_TOTAL and CUR_TOTAL with a noise floor of
 * MIN_SHARE percent (0 to 100) of the reference.  Cannot fail. */
void profconv__delta_scale(struct pc_delta_scale *s, int64_t base_total,
    int64_t cur_total, double min_share);

/* CUR - BASE, saturating at the int64 bounds. */
int64_t profconv__delta(int64_t base, int64_t cur);

/*
 * How a thing that held BASE before and CUR after changed, judged by the
 * change DELTA (CUR - BASE, or a part of it such as a frame's own value's
 * change): PC_SAME when |DELTA| is under S's floor; else PC_NEW when
 * BASE is 0, PC_GONE when CUR is 0, PC_GREW or PC_SHRANK by DELTA's sign.
 */
enum pc_change profconv__delta_change(const struct pc_delta_scale *s,
    int64_t delta, int64_t base, int64_t cur);

/* DELTA as a percentage of S's reference (0 when that is 0). */
double profconv__delta_percent(const struct pc_delta_scale *s, int64_t delta);

/* The name of a change, for JSON and titles: "same", "grew", ... */
const char *profconv__change_name(enum pc_change c);

#endif /* PROFCONV_VIEW_DELTA_H */
