/* SPDX-License-Identifier: MIT */
/*
 * test_report_views.c - the report page's views of one profile and its
 * base (lib/report/report_views.c): the top table's bound, the
 * comparison's table, the source tab and the differential flame graph,
 * read from the page of profiles built by hand.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report_fixture.h"

TestSuite(report_views, .fini = teardown);

static void
top_bounds_the_table(void)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;
	const char *t, *end;

	profile(&a, 30);
	o.top = 1;
	cr_assert(eq(int, page(a, NULL, &o), 0));
	t = strstr(out, "id=\"top-table\"");
	cr_assert(not(zero(ptr, (void *)t)));
	end = strstr(t, "</table>");
	cr_assert(not(zero(ptr, (void *)end)));
	out[end - out] = '\0';
	cr_expect(eq(sz, count(t, "<tr><td"), 1));
	out[end - out] = '<';
	cr_expect(not(zero(ptr, strstr(out, "Showing the top 1 of 3 "))));
}

static void
with_a_base(void)
{
	profile(&a, 20);
	profile(&b, 30);
	cr_assert(eq(int, page(b, a, NULL), 0));
	cr_expect(eq(sz, count(out, "<section class=\"tab\""), 7));
	/* The Explore tab of the change: one tree of both. */
	cr_expect(not(zero(ptr, strstr(out, "\"diff\":true"))));
	cr_expect(not(zero(ptr, strstr(out, "<th>base</th><th>current</th>"))));
	cr_expect(not(zero(ptr, strstr(out, "id=\"compare-table\""))));
	/* The comparison: one row changed, grow 2,000 -> 3,000 bytes,
	 * +1,000 = 28.57% of the base's 3,500; then TOTAL, not sorted. */
	cr_expect(eq(sz, count(out, "<td class=\"name state\">"), 2));
	cr_expect(not(zero(ptr, strstr(out, "<tr><td class=\"name\">grow</td>"
	    "<td class=\"base\" data-v=\"2000\">2,000</td>"
	    "<td class=\"cur\" data-v=\"3000\">3,000</td>"
	    "<td class=\"delta\" data-v=\"1000\">1,000</td>"
	    "<td class=\"pct\" data-v=\"28.5714\">+28.57%</td>"
	    "<td class=\"name state\">grew</td></tr>"))));
	cr_expect(not(zero(ptr, strstr(out, "<tfoot><tr class=\"total\">"
	    "<td class=\"name\">TOTAL</td><td class=\"base\" "
	    "data-v=\"3500\">"))));
	/* The source tab: listhtml.c's tables, their style scoped. */
	cr_expect(not(zero(ptr, strstr(out, "<div class=\"pc-list\">"))));
	cr_expect(not(zero(ptr, strstr(out, "div.pc-list table.src td {"))));
	cr_expect(zero(ptr, strstr(out, "\ntable.src")));
	cr_expect(not(zero(ptr, strstr(out, "class=\"base-total\" "
	    "data-type=\"objects\" data-v=\"35\""))));
	/* The flame graph is differential. */
	cr_expect(not(zero(ptr, strstr(out, "data-diff="))));
}

/*
 * The summary: the files' names and the comments pprof shows (not those
 * starting with '#'), escaped; per type the totals and the change as a
 * share of the base's (35 -> 45 objects: +10, +28.57%); the heaviest
 * functions by flat of the shown type (the last, space), largest
 * first.
 */
static void
summary(void)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;
	const char *sum, *end;

	profile(&a, 20);
	profile(&b, 30);
	cr_assert(eq(int, profconv_profile_add_comment(b, "built <at> noon"),
	    0));
	cr_assert(eq(int, profconv_profile_add_comment(b, "#not shown"), 0));
	o.cur_name = "new&.pb";
	o.base_name = "old.pb";
	cr_assert(eq(int, page(b, a, &o), 0));
	sum = strstr(out, "<section class=\"tab\" id=\"summary\">");
	cr_assert(not(zero(ptr, (void *)sum)));
	end = strstr(sum, "</section>");
	cr_assert(not(zero(ptr, (void *)end)));
	out[end - out] = '\0';
	cr_expect(not(zero(ptr, strstr(sum, "<dt>profile</dt><dd id=\"cur-name\">"
	    "new&amp;.pb</dd>\n<dt>base</dt><dd id=\"base-name\">old.pb</dd>\n"
	    "<dt>comment</dt><dd class=\"comment\">built &lt;at&gt; noon</dd>\n"
	    "<dt>shown</dt><dd id=\"shown-type\">space/bytes</dd>\n"
	    "<dt>samples</dt><dd id=\"samples\" data-v=\"3\">3</dd>\n"))),
	    "%s", sum);
	cr_expect(zero(ptr, strstr(sum, "not shown")));
	cr_expect(not(zero(ptr, strstr(sum, "<dt>change objects/count</dt>"
	    "<dd class=\"change\" data-type=\"objects\" data-v=\"10\">+10 "
	    "(+28.57% of the base)</dd>\n<dt>change space/bytes</dt>"
	    "<dd class=\"change\" data-type=\"space\" data-v=\"1000\">+1,000 "
	    "(+28.57% of the base)</dd>\n"))), "%s", sum);
	cr_expect(not(zero(ptr, strstr(sum, "<tbody>\n"
	    "<tr><td data-v=\"3000\">3,000</td><td data-v=\"66.6667\">66.67%"
	    "</td><td data-v=\"3000\">3,000</td><td data-v=\"66.6667\">66.67%"
	    "</td><td class=\"name\">grow</td></tr>\n"
	    "<tr><td data-v=\"1000\">1,000</td><td data-v=\"22.2222\">22.22%"
	    "</td><td data-v=\"1000\">1,000</td><td data-v=\"22.2222\">22.22%"
	    "</td><td class=\"name\">&lt;b&gt;x&lt;/b&gt;</td></tr>\n"
	    "<tr><td data-v=\"500\">500</td><td data-v=\"11.1111\">11.11%"
	    "</td><td data-v=\"4500\">4,500</td><td data-v=\"100\">100.00%"
	    "</td><td class=\"name\">main</td></tr>\n</tbody>"))), "%s", sum);
	out[end - out] = '<';
}

/* The top table's bound, the comparison's views and the summary; each
 * case frees what it built before the next. */
Test(report_views, views_of_the_page)
{
	top_bounds_the_table();
	teardown();
	with_a_base();
	teardown();
	summary();
}
