/* SPDX-License-Identifier: MIT */
/*
 * test_trend_suspects.c - the suspects' growth as a profile
 * (lib/report/trend_suspects.c, proftrend -o): the last snapshot minus
 * the first, only the samples of rows judged a leak.
 */

#include "config.h"

#include <stdlib.h>

#include "report/trend.h"
#include "view_helpers.h"

TestSuite(trend_suspects);

/* A snapshot of two stacks, "leak" and "churn", holding L and C bytes. */
static struct profconv_profile *
snapshot(int64_t l, int64_t c)
{
	struct profconv_profile *p;
	uint32_t fl, fc, ll, lc;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	fl = add_fn(p, "leak", "");
	fc = add_fn(p, "churn", "");
	ll = LOC1(p, 0, 0x10, fl, 1);
	lc = LOC1(p, 0, 0x20, fc, 1);
	SAMPLE(p, ((int64_t[]){ l }), ll);
	SAMPLE(p, ((int64_t[]){ c }), lc);
	return p;
}

/* The suspect row of T named NAME: its verdict's suspect flag. */
static int
suspect(const struct profconv_trend *t, const char *name)
{
	struct profconv_trend_row r;
	size_t i;

	for (i = 0; i < profconv_trend_row_count(t); i++) {
		cr_assert(eq(int, profconv_trend_row(t, i, &r), 0));
		if (strcmp(r.name, name) == 0)
			return r.suspect;
	}
	cr_assert(0, "no row %s", name);
	return -1;
}

/*
 * "leak" climbs 100, 200, 300, 400 KiB; "churn" goes 50, 90, 20, 60 KiB
 * and ends 10 KiB above its start.  Only leak's 300 KiB are kept: the
 * profile of the suspects has one sample, leak's, of 400 - 100 KiB.
 */
static void
only_the_leaking_rows_growth(void)
{
	static const int64_t leak[] = { 100, 200, 300, 400 };
	static const int64_t churn[] = { 50, 90, 20, 60 };
	struct profconv_trend *t = NULL;
	struct profconv_profile *sus = NULL;
	struct profconv_sample s;
	struct profconv_location loc;
	struct profconv_function fn;
	char name[8];
	size_t i;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%zu", i);
		cr_assert(eq(int, profconv_trend_add(t, snapshot(leak[i] << 10,
		    churn[i] << 10), name), 0));
	}
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	cr_assert(eq(int, suspect(t, "leak"), 1));
	cr_assert(eq(int, suspect(t, "churn"), 0));
	cr_assert(eq(int, profconv_trend_suspects(t, &sus), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(sus), 1));
	cr_assert(eq(int, profconv_profile_sample(sus, 0, &s), 0));
	cr_expect(eq(i64, s.values[0], 300 << 10));
	cr_assert(eq(sz, s.nlocations, 1));
	cr_assert(eq(int, profconv_profile_location(sus,
	    sample_location(sus, 0, 0), &loc), 0));
	cr_assert(eq(int, profconv_profile_function(sus,
	    loc.lines[0].function_id, &fn), 0));
	cr_expect(eq(str, (char *)fn.name, "leak"));
	profconv_profile_free(sus);
	profconv_trend_free(t);
}

/* No suspect: an empty profile, not an error. */
static void
no_suspect_no_sample(void)
{
	static const int64_t churn[] = { 50, 90, 20, 60 };
	struct profconv_trend *t = NULL;
	struct profconv_profile *sus = NULL;
	char name[8];
	size_t i;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%zu", i);
		cr_assert(eq(int, profconv_trend_add(t, snapshot(1 << 10,
		    churn[i] << 10), name), 0));
	}
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_trend_suspects(t, &sus), 0), "%s", ERRMSG);
	cr_expect(eq(sz, profconv_profile_sample_count(sus), 0));
	profconv_profile_free(sus);
	profconv_trend_free(t);
}

/* Before profconv_trend_run() there are no ends to subtract. */
static void
refused_before_run(void)
{
	struct profconv_trend *t = NULL;
	struct profconv_profile *sus = (struct profconv_profile *)&t;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, snapshot(1, 1), "a"), 0));
	cr_expect(eq(int, profconv_trend_suspects(t, &sus), PROFCONV_EINVAL));
	cr_expect(zero(ptr, sus));
	profconv_trend_free(t);
}

/* The suspects' growth: the leak's alone, none, or refused before run. */
Test(trend_suspects, profile_of_the_suspects)
{
	only_the_leaking_rows_growth();
	no_suspect_no_sample();
	refused_before_run();
}
