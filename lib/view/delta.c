/* SPDX-License-Identifier: MIT */
/*
 * delta.c - the rules every comparison of two profiles shares: the
 * change, its direction, its percentage and the noise floor (delta.h).
 * The reference for percentages is pprof's: with -diff_base, pprof takes
 * the total of the base's samples as 100% (computeTotal in its report
 * package), so a change reads as a share of what there was.
 */

#include "config.h"

#include <math.h>

#include "base/base.h"
#include "view/delta.h"

void
profconv__delta_scale(struct pc_delta_scale *s, int64_t base_total,
    int64_t cur_total, double min_share)
{
	double floor;

	s->base_total = base_total;
	s->cur_total = cur_total;
	s->reference = base_total != 0 ? base_total : cur_total;
	if (s->reference < 0)
		s->reference = s->reference == INT64_MIN ? INT64_MAX :
		    -s->reference;
	floor = !(min_share > 0) ? 0 :
	    ceil((double)s->reference * (min_share > 100 ? 100 : min_share) /
	    100.0);
	s->floor = floor < 1 ? 1 : floor >= 9.2e18 ? INT64_MAX :
	    (int64_t)floor;
}

int64_t
profconv__delta(int64_t base, int64_t cur)
{
	return pc_sub_sat(cur, base);
}

enum pc_change
profconv__delta_change(const struct pc_delta_scale *s, int64_t delta,
    int64_t base, int64_t cur)
{
	uint64_t mag = delta < 0 ? -(uint64_t)delta : (uint64_t)delta;

	if (mag == 0 || mag < (uint64_t)s->floor)
		return PC_SAME;
	if (base == 0)
		return PC_NEW;
	if (cur == 0)
		return PC_GONE;
	return delta > 0 ? PC_GREW : PC_SHRANK;
}

double
profconv__delta_percent(const struct pc_delta_scale *s, int64_t delta)
{
	return s->reference != 0 ?
	    100.0 * (double)delta / (double)s->reference : 0;
}

const char *
profconv__change_name(enum pc_change c)
{
	static const char *const names[] = { "same", "grew", "shrank", "new",
		"gone" };

	return (unsigned)c < PC_ARRAY_LEN(names) ? names[c] : "same";
}
