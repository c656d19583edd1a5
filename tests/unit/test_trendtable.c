/* SPDX-License-Identifier: MIT */
/*
 * test_trendtable.c - proftrend's table and JSON (lib/report/trendtable.c)
 * for a series built by hand: the columns, the sparkline's levels, the
 * snapshot summary, exact units, and a table refused before the run.
 */

#include "config.h"

#include <stdlib.h>

#include "report/trend.h"
#include "trend_fixture.h"

TestSuite(trendtable);

/* "leak" at 100, 200, 300, 400 KiB in snapshots s0..s3, run. */
static struct profconv_trend *
ramp(void)
{
	struct profconv_trend *t = NULL;
	char name[8];
	int i;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		cr_assert(eq(int, profconv_trend_add(t, one_row((int64_t)(i +
		    1) * 102400), name), 0));
	}
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	return t;
}

/*
 * Amounts of 1024 bytes or more in KiB with two decimals, in 14
 * columns; grew 3 of 3 intervals; the sparkline from the row's lowest to
 * its highest in 8 levels "_.:-=+*#": 0, 1/3 * 7 + 0.5 -> 2 (':'),
 * 2/3 * 7 + 0.5 -> 5 ('+'), 7 ('#').  The summary names the first
 * snapshot and the last, which is the peak too.
 */
static void
table_of_one_leak(void)
{
	struct profconv_trend *t = ramp();
	char *out = NULL;

	CAPTURE(out, profconv_trend_print(t, fp, 0, 0));
	cr_expect(eq(str, out,
	    "1 suspect in 1 rows that changed (judged over the snapshots in "
	    "order)\n\n"
	    "          First           Last           Peak         Growth"
	    "     Slope/snap    Grew  Verdict        Trend  Name\n"
	    "      100.00KiB      400.00KiB      400.00KiB      300.00KiB"
	    "      100.00KiB   3/3    leak           _:+#  leak\n"
	    "\n"
	    "4 snapshots of space:\n"
	    "  first         1      100.00KiB  s0\n"
	    "  peak, last    4      400.00KiB  s3\n"));
	free(out);
	profconv_trend_free(t);
}

/* EXACT: whole numbers, no unit. */
static void
exact_units(void)
{
	struct profconv_trend *t = ramp();
	char *out = NULL;

	CAPTURE(out, profconv_trend_print(t, fp, 0, 1));
	cr_expect(not(zero(ptr, strstr(out,
	    "         102400         409600         409600         307200"
	    "         102400   3/3    leak           _:+#  leak\n"))), "%s",
	    out);
	cr_expect(not(zero(ptr, strstr(out, "  first         1         102400"
	    "  s0\n"))), "%s", out);
	free(out);
	profconv_trend_free(t);
}

/* The JSON's snapshots and row: the swing is max - min, the Theil-Sen
 * slope of a straight line its step. */
Test(trendtable, json_of_one_leak)
{
	static const char head[] = "{\"snapshots\":[\n"
	    "{\"file\":\"s0\",\"inuse_bytes\":102400,\"inuse_objects\":null,"
	    "\"allocated_bytes\":null,\"time_nanos\":0,\"high_water\":false,"
	    "\"final\":false},\n";
	struct profconv_trend *t = ramp();
	char *out = NULL;

	CAPTURE(out, profconv_trend_write_json(t, fp));
	cr_expect(eq(int, strncmp(out, head, sizeof(head) - 1), 0), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, ",\n\"sample_type\":\"space\","
	    "\"x_axis\":\"snapshots\",\"suspects\":1,\"peak_snapshot\":3,"))),
	    "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\n{\"name\":\"leak\","
	    "\"first_bytes\":102400,\"last_bytes\":409600,\"peak_bytes\":409600,"
	    "\"swing_bytes\":307200,\"growth_bytes\":307200,"
	    "\"slope_bytes\":102400.0,\"grew_intervals\":3,\"intervals\":3,"
	    "\"verdict\":\"leak\",\"suspect\":true,\"theil_sen_slope\":"
	    "1.024e+05,"))), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"values\":[102400,204800,307200,"
	    "409600]}]"))), "%s", out);
	cr_expect(eq(str, out + strlen(out) - 2, "}\n"));
	free(out);
	profconv_trend_free(t);
}

Test(trendtable, refused_before_the_run)
{
	struct profconv_trend *t = NULL;
	FILE *fp = fopen("/dev/null", "w");

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_expect(eq(int, profconv_trend_print(t, fp, 0, 0), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "trend not analysed"));
	cr_expect(eq(int, profconv_trend_write_json(t, fp), PROFCONV_EINVAL));
	fclose(fp);
	profconv_trend_free(t);
}

/* The table of one leak, in units and exact. */
Test(trendtable, table_of_one_leak_in_both_units)
{
	table_of_one_leak();
	exact_units();
}
