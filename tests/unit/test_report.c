/* SPDX-License-Identifier: MIT */
/*
 * test_report.c - the HTML page of every view (report/report.c,
 * profconv_report_write): its options as a versioned struct, what it
 * refuses before writing, the page's outline and the summary's numbers,
 * on profiles built by hand (the views' own tests are in
 * test_report_views.c, the page's data in test_report_data_json.c).
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "report/report_data.h"
#include "report_fixture.h"

TestSuite(report, .fini = teardown);

Test(report, outline_and_numbers)
{
	static const char *const tab[] = { "id=\"summary\"", "id=\"live\"",
		"id=\"top\"", "id=\"flame\"", "id=\"graph\"",
		"id=\"source\"" };
	const char *at;
	size_t i;

	profile(&a, 30);
	cr_assert(eq(int, page(a, NULL, NULL), 0));
	/* Summary, Explore, Top, Flame graph, Call graph, Source, in
	 * that order (the two pictures are made at once). */
	cr_expect(eq(sz, count(out, "<section class=\"tab\""), 6));
	for (i = 0, at = out; i < 6; i++, at++) {
		at = strstr(at, tab[i]);
		cr_assert(at != NULL, "no %s after the one before", tab[i]);
	}
	cr_expect(not(zero(ptr, strstr(out, "default-src 'none'"))));
	/* Every type's total; the last one, space, is shown. */
	cr_expect(not(zero(ptr, strstr(out, "data-type=\"objects\" "
	    "data-v=\"45\">45"))));
	cr_expect(not(zero(ptr, strstr(out, "data-type=\"space\" "
	    "data-v=\"4500\">4,500"))));
	/* The top table: grow first, flat 3,000 of 4,500. */
	cr_expect(not(zero(ptr, strstr(out, "<tr><td data-v=\"3000\">3,000</td>"
	    "<td data-v=\"66.6667\">66.67%</td>"))));
	cr_expect(not(zero(ptr, strstr(out, "<td class=\"name\">&lt;b&gt;x"
	    "&lt;/b&gt;</td>"))));
	cr_expect(zero(ptr, strstr(out, "<b>")));
	/* The page's script and the Explore tab's. */
	cr_expect(eq(sz, count(out, "<script>"), 2));
}

static void
refuses_before_writing(void)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;

	profile(&a, 30);
	o.sample_type = "nosuch";
	cr_expect(eq(int, page(a, NULL, &o), PROFCONV_ENOTFOUND));
	cr_expect(eq(sz, strlen(out), 0));
	o.sample_type = NULL;
	o.version = PROFCONV_REPORT_OPTIONS_VERSION + 1;
	cr_expect(eq(int, page(a, NULL, &o), PROFCONV_EINVAL));
	cr_expect(eq(sz, strlen(out), 0));
	cr_expect(eq(int, page(NULL, NULL, NULL), PROFCONV_EINVAL));
	teardown();
}

/* node_fraction is a share from 0 to 1: +inf wrote "fraction":inf into
 * the page's JSON (the Explore tab died), 1e300 overflowed the cut. */
static void
fraction_checked(void)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;
	const double bad[] = { NAN, INFINITY, -INFINITY, 1e300, -0.5, 1.5 };
	size_t i;

	profile(&a, 30);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.node_fraction = bad[i];
		cr_expect(eq(int, page(a, NULL, &o), PROFCONV_EINVAL),
		    "%g", bad[i]);
		cr_expect(eq(sz, strlen(out), 0), "%g", bad[i]);
	}
	o.node_fraction = 1;
	cr_assert(eq(int, page(a, NULL, &o), 0));
	cr_expect(not(zero(ptr, strstr(out, "\"fraction\":1,"))));
	cr_expect(zero(ptr, strstr(out, ":inf")));
	cr_expect(zero(ptr, strstr(out, ":nan")));
	teardown();
}

static void
write_error(void)
{
	FILE *fp = fopen("/dev/full", "w");

	profile(&a, 30);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv_report_write(a, NULL, fp, NULL),
	    PROFCONV_EIO));
	fclose(fp);
	teardown();
}

/* Options that are no good refused before writing; a failed write. */
Test(report, refusals_and_write_errors)
{
	refuses_before_writing();
	fraction_checked();
	write_error();
}
