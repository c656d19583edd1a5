/* SPDX-License-Identifier: MIT */
/*
 * trend_fixture.h - the smallest snapshot of a series: one stack,
 * "leak", of a heap profile.  For test_trend.c and test_trendtable.c.
 */
#ifndef PROFCONV_TEST_TREND_FIXTURE_H
#define PROFCONV_TEST_TREND_FIXTURE_H

#include "view_helpers.h"

/* A snapshot with one stack, "leak", holding V bytes. */
static inline struct profconv_profile *
one_row(int64_t v)
{
	struct profconv_profile *p;
	uint32_t fn, loc;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	fn = add_fn(p, "leak", "");
	loc = LOC1(p, 0, 0x10, fn, 1);
	SAMPLE(p, ((int64_t[]){ v }), loc);
	return p;
}

#endif /* PROFCONV_TEST_TREND_FIXTURE_H */
