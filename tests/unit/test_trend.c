/* SPDX-License-Identifier: MIT */
/* test_trend.c - proftrend's order of snapshots, growth statistics, and
 * what the library's trend calls refuse (the verdicts: test_trendstat.c). */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/trend.h"
#include "trend_fixture.h"

TestSuite(trend);

static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

static void
natural_order_compares_numbers_as_numbers(void)
{
	static const struct { const char *a, *b; int want; } cases[] = {
		{ "x.m2.heap", "x.m10.heap", -1 },
		{ "prog.0009.heap", "prog.0010.heap", -1 },
		{ "je.77.9.i9.heap", "je.77.10.i10.heap", -1 },
		{ "je.77.10.m3.heap", "je.77.9.m4.heap", 1 },
		{ "a10", "a9b", 1 },
		{ "a", "a1", -1 },
		{ "abc", "abd", -1 },
		{ "a2", "a02", -1 },	/* equal numbers: fewer zeros first */
		{ "a02", "a2", 1 },
		{ "a0", "a00", -1 },
		{ "same.1", "same.1", 0 },
		{ "a99999999999999999999999", "a100000000000000000000000", -1 },
		{ "", "a", -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert(eq(int, sign(profconv__natural_cmp(cases[i].a,
		    cases[i].b)), cases[i].want), "%s vs %s", cases[i].a,
		    cases[i].b);
		cr_assert(eq(int, sign(profconv__natural_cmp(cases[i].b,
		    cases[i].a)), -cases[i].want));
	}
}

static void
order_by_name_time_or_as_given(void)
{
	const char *names[] = { "p.m10.heap", "p.m2.heap", "p.m1.heap",
		"p.m100.heap" };
	int64_t times[] = { 40, 30, 20, 10 };
	int64_t some[] = { 40, 0, 20, 10 };
	size_t order[4];
	size_t by_name[] = { 2, 1, 0, 3 }, by_time[] = { 3, 2, 1, 0 };
	size_t i;

	cr_assert(eq(int, profconv__trend_order(order, names, NULL, 4, false), 0));
	for (i = 0; i < 4; i++)
		cr_assert(eq(sz, order[i], by_name[i]));
	/* Every snapshot has a time: time wins over the names. */
	profconv__trend_order(order, names, times, 4, false);
	for (i = 0; i < 4; i++)
		cr_assert(eq(sz, order[i], by_time[i]));
	/* One without a time: names again. */
	profconv__trend_order(order, names, some, 4, false);
	for (i = 0; i < 4; i++)
		cr_assert(eq(sz, order[i], by_name[i]));
	profconv__trend_order(order, names, times, 4, true);
	for (i = 0; i < 4; i++)
		cr_assert(eq(sz, order[i], i));
}

Test(trend, growth_statistics)
{
	/* Two columns per snapshot: the stride skips the other one. */
	int64_t v[] = { 100, -1, 200, -1, 300, -1, 400, -1, 500, -1 };
	int64_t saw[] = { 0, 50, 0, 50, 0, 50 };
	int64_t flat[] = { 7, 7, 7 };
	struct pc_growth g;

	profconv__growth(v, 5, 2, &g);
	cr_assert(eq(i64, g.first, 100));
	cr_assert(eq(i64, g.last, 500));
	cr_assert(eq(i64, g.growth, 400));
	cr_assert(eq(dbl, g.slope, 100.0));
	cr_assert(eq(sz, g.grew, 4));
	cr_assert(eq(sz, g.intervals, 4));
	cr_assert(g.above_start && g.changed);

	profconv__growth(saw, 6, 1, &g);
	cr_assert(eq(sz, g.grew, 3));
	cr_assert(eq(sz, g.intervals, 5));
	cr_assert(not(g.above_start));
	/* x - 2.5 = -2.5 .. 2.5, y - 25 = -25, 25, ...: sxy 75, sxx 17.5 */
	cr_assert(ieee_ulp_eq(dbl, g.slope, 75.0 / 17.5, 4));
	cr_assert(eq(i64, g.growth, 50));

	profconv__growth(flat, 3, 1, &g);
	cr_assert(not(g.changed));
	cr_assert(eq(sz, g.grew, 0));
	cr_assert(eq(dbl, g.slope, 0.0));

	/* Saturation instead of overflow. */
	int64_t big[] = { INT64_MIN, INT64_MAX };
	profconv__growth(big, 2, 1, &g);
	cr_assert(eq(i64, g.growth, INT64_MAX));
}

Test(trend, names_become_valid_utf8)
{
	char *s = profconv__utf8_copy("a\"b \xc3\xa9 \xff\xc3 \xe2\x82\xac \xed\xa0\x80");

	cr_assert(s != NULL);
	cr_assert(eq(str, s, "a\"b \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd \xe2\x82\xac "
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
	free(s);
}

Test(trend, slope_beyond_int64_saturates)
{
	struct profconv_trend *t = NULL;
	int64_t first, last, peak, growth, slope;
	char *text = NULL;
	const char *row;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(1), "a"), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(INT64_MAX), "b"), 0));
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	/* The slope is 2^63 - 2, 2^63 in doubles: one more than int64. */
	CAPTURE(text, profconv_trend_print(t, fp, 0, 1));
	row = strstr(text, "Name\n");
	cr_assert(row != NULL, "%s", text);
	cr_assert(eq(int, sscanf(row + 5, " %" SCNd64 " %" SCNd64 " %" SCNd64
	    " %" SCNd64 " %" SCNd64, &first, &last, &peak, &growth, &slope), 5),
	    "%s", text);
	cr_expect(eq(i64, first, 1));
	cr_expect(eq(i64, last, INT64_MAX));
	cr_expect(eq(i64, peak, INT64_MAX));
	cr_expect(eq(i64, growth, INT64_MAX - 1));
	cr_expect(eq(i64, slope, INT64_MAX), "%s", text);
	free(text);
	profconv_trend_free(t);
}

static void
add_refuses_no_profile(void)
{
	struct profconv_trend *t = NULL;

	cr_assert(eq(int, profconv_trend_add(NULL, one_row(1), "a"),
	    PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, NULL, "a"), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_trend_add(t, one_row(1), "a"), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(2), "b"), 0));
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_trend_snapshot_count(t), 2));
	profconv_trend_free(t);
}

/* A series out of order: the order comes from the names, and -o's
 * last-minus-first subtracts the right two of the profiles kept. */
static void
series_reordered_and_reduced(void)
{
	struct profconv_trend *t = NULL;
	struct profconv_trend_snapshot s;
	struct profconv_trend_row r;
	struct profconv_profile *sus = NULL;
	int64_t total = 0;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(300 << 10),
	    "d/je.7.3.m3.heap"), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(100 << 10),
	    "d/je.7.1.m1.heap"), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(400 << 10),
	    "d/je.7.4.f.heap"), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(200 << 10),
	    "d/je.7.2.u1.heap"), 0));
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_trend_snapshot(t, 0, &s), 0));
	cr_assert(eq(str, (char *)s.name, "d/je.7.1.m1.heap"));
	cr_assert(eq(int, profconv_trend_snapshot(t, 1, &s), 0));
	cr_assert(s.high_water && !s.final);
	cr_assert(eq(int, profconv_trend_snapshot(t, 3, &s), 0));
	cr_assert(s.final && !s.high_water);
	cr_assert(eq(i64, s.inuse_bytes, 400 << 10));
	cr_assert(eq(sz, profconv_trend_row_count(t), 1));
	cr_assert(eq(int, profconv_trend_row(t, 0, &r), 0));
	cr_assert(eq(int, r.verdict, PROFCONV_TREND_LEAK));
	cr_assert(r.suspect);
	cr_assert(eq(i64, r.values[0], 100 << 10));
	cr_assert(eq(i64, r.values[3], 400 << 10));
	cr_assert(eq(int, profconv_trend_suspects(t, &sus), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_profile_total(sus, 0, &total), 0));
	cr_assert(eq(i64, total, 300 << 10));
	profconv_profile_free(sus);
	profconv_trend_free(t);
}

static void
two_processes_refused(void)
{
	struct profconv_trend *t = NULL;
	const char *msg;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(1), "d/je.41.0.i0.heap"),
	    0));
	cr_assert(eq(int, profconv_trend_add(t, one_row(2), "d/je.42.1.i0.heap"),
	    PROFCONV_EINVAL));
	msg = profconv_errmsg();
	cr_assert(strstr(msg, "d/je.41.*") != NULL && strstr(msg,
	    "d/je.42.*") != NULL, "%s", msg);
	/* gperftools: a forked child's prefix. */
	cr_assert(eq(int, profconv_trend_add(t, one_row(2),
	    "d/je_42.0001.heap"), PROFCONV_EINVAL));
	/* A name that says nothing is taken. */
	cr_assert(eq(int, profconv_trend_add(t, one_row(3), "d/other.pb.gz"),
	    0));
	profconv_trend_free(t);
}

/* Snapshots with times: one profile can be first (or last) both by time
 * and by name, and is kept, and freed, once. */
static void
timed_series_keeps_each_profile_once(void)
{
	static const int64_t times[] = { 30, 10, 40, 20 };
	static const char *const names[] = { "c", "a", "d", "b" };
	struct profconv_trend *t = NULL;
	struct profconv_profile *p, *sus = NULL;
	int64_t total = 0;
	size_t i;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	for (i = 0; i < 4; i++) {
		p = one_row((int64_t)(times[i] << 12));
		profconv_profile_set_time(p, times[i], 0);
		cr_assert(eq(int, profconv_trend_add(t, p, names[i]), 0));
	}
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_trend_suspects(t, &sus), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_profile_total(sus, 0, &total), 0));
	cr_assert(eq(i64, total, (40 - 10) << 12));
	profconv_profile_free(sus);
	profconv_trend_free(t);
}

/* The order of snapshots: natural by name, by time, or as given. */
Test(trend, snapshot_order)
{
	natural_order_compares_numbers_as_numbers();
	order_by_name_time_or_as_given();
}

/* What profconv_trend_add() refuses, and what it takes. */
Test(trend, add_refuses_what_is_no_series)
{
	add_refuses_no_profile();
	two_processes_refused();
}

/* A series run: its order, its rows and its suspects. */
Test(trend, series_ordered_and_reduced)
{
	series_reordered_and_reduced();
	timed_series_keeps_each_profile_once();
}
