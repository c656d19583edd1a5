/* SPDX-License-Identifier: MIT */
/*
 * test_report.c - the HTML page of every view (report/report.c,
 * profconv_report_write): its options as a versioned struct, what it
 * refuses before writing, the page's outline, the top table's and the
 * comparison's numbers, the source tab's scoped style and the size
 * bound of its tables, on profiles built by hand.
 */

#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "page/page.h"
#include "report/report_data.h"
#include "writer_fixture.h"

TestSuite(report, .fini = teardown);

/* main;grow 30, main;<b>x</b> 10, main 5 (objects, space = 100 x). */
static void
profile(struct profconv_profile **res, int64_t grow)
{
	struct profconv_profile *p;
	uint32_t m, g, h, lm, lg, lh;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	h = add_fn(p, "<b>x</b>", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	lh = LOC1(p, 0, 0x30, h, 1);
	SAMPLE(p, ((int64_t[]){ grow, 100 * grow }), lg, lm);
	SAMPLE(p, ((int64_t[]){ 10, 1000 }), lh, lm);
	SAMPLE(p, ((int64_t[]){ 5, 500 }), lm);
	*res = p;
}

static int
page(const struct profconv_profile *cur, const struct profconv_profile *base,
    const struct profconv_report_options *o)
{
	size_t len = 0;
	FILE *fp;
	int rc;

	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	rc = profconv_report_write(cur, base, fp, o);
	fclose(fp);
	return rc;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

Test(report, outline_and_numbers)
{
	profile(&a, 30);
	cr_assert(eq(int, page(a, NULL, NULL), 0));
	/* Summary, Explore, Top, Flame graph, Call graph, Source. */
	cr_expect(eq(sz, count(out, "<section class=\"tab\""), 6));
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

/* The Explore tab's data: every type's total and self values, names
 * escaped for a <script> element; nothing dropped by default. */
Test(report, live_data)
{
	profile(&a, 30);
	cr_assert(eq(int, page(a, NULL, NULL), 0));
	cr_expect(eq(sz, count(out, "<script type=\"application/json\" "
	    "id=\"live-data\">"), 1));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[45,4500]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"\\u003cb\\u003ex\\u003c/b"
	    "\\u003e\""))));
	cr_expect(not(zero(ptr, strstr(out, "\"dropped\":{\"nodes\":0,"))));
	cr_expect(not(zero(ptr, strstr(out, "\"Showing nodes accounting for "
	    "4.39kB, 100% of 4.39kB total\""))));
	/* Nodes: the root, main, and grow and <b>x</b> under main. */
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1,0,1,1]"))));
}

/* One node kept: grow and <b>x</b> go to main's self, and the page
 * says so in pprof's words. */
Test(report, live_budget)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;

	profile(&a, 30);
	o.tree_nodes = 1;
	cr_assert(eq(int, page(a, NULL, &o), 0));
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1,0]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"dropped\":{\"nodes\":2,"
	    "\"sum\":[40,4000]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"Dropped 2 nodes (cum "
	    "\\u003c= "))));
	cr_expect(not(zero(ptr, strstr(out, "\"Showing nodes accounting for "
	    "500B, 11.11% of 4.39kB total\""))));
}

Test(report, top_bounds_the_table)
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

Test(report, with_a_base)
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

Test(report, refuses_before_writing)
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
}

/* node_fraction is a share from 0 to 1: +inf wrote "fraction":inf into
 * the page's JSON (the Explore tab died), 1e300 overflowed the cut. */
Test(report, fraction_checked)
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
}

Test(report, write_error)
{
	FILE *fp = fopen("/dev/full", "w");

	profile(&a, 30);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv_report_write(a, NULL, fp, NULL),
	    PROFCONV_EIO));
	fclose(fp);
}

/* A series: one column per snapshot of its space values (there is no
 * inuse_space), in the order asked for; the profiles may go after
 * they are added. */
Test(report, series_columns)
{
	const char *order[] = { "b", "a" };
	struct profconv_report_series *s = NULL;
	size_t len = 0;
	FILE *fp;

	profile(&a, 20);
	profile(&b, 30);
	cr_assert(eq(int, profconv_report_series_new(&s, NULL), 0));
	cr_assert(eq(int, profconv_report_series_add(s, a, "a"), 0));
	cr_assert(eq(int, profconv_report_series_add(s, b, "b"), 0));
	profconv_profile_free(a);
	a = NULL;
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv__report_data_series(fp, s, order, 2, -1,
	    100), 0));
	fclose(fp);
	cr_expect(not(zero(ptr, strstr(out, "\"series\":true"))));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[4500,3500]"))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"b\",\"unit\":"
	    "\"bytes\"},{\"type\":\"a\""))));
	profconv_report_series_free(s);
	cr_expect(eq(int, profconv_report_series_add(NULL, b, "c"),
	    PROFCONV_EINVAL));
}

/* A long series: of 1200 snapshots the data holds 500 columns, the
 * first, the last and the peak among them, in order, those the
 * picture's pick gives for the same totals. */
Test(report, series_bounded)
{
	static char names[1200][8];
	const char *order[1200];
	struct profconv_report_series *s = NULL;
	struct profconv_profile *p;
	size_t len = 0, i, cols, pick[1200];
	int64_t total[1200];
	char *types;
	FILE *fp;

	cr_assert(eq(int, profconv_report_series_new(&s, NULL), 0));
	for (i = 0; i < 1200; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		order[i] = names[i];
		profile(&p, i == 777 ? 100000 : (int64_t)(i % 50) + 1);
		cr_assert(eq(int, profconv_report_series_add(s, p, names[i]),
		    0));
		profconv_profile_free(p);
	}
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv__report_data_series(fp, s, order, 1200,
	    -1, 0), 0));
	fclose(fp);
	profconv_report_series_free(s);
	types = strstr(out, "\"types\":[");
	cr_assert(not(zero(ptr, types)));
	cols = count(types, "{\"type\":");
	cr_expect(eq(sz, cols, PC_REPORT_SERIES_POINTS));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s0\","))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s777\","))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s1199\","))));
	cr_expect(lt(ptr, strstr(out, "{\"type\":\"s0\","),
	    strstr(out, "{\"type\":\"s777\",")));
	/* The same picks as the picture's, of the same totals. */
	for (i = 0; i < 1200; i++)
		total[i] = i == 777 ? 100000 * 100 + 1500 :
		    (int64_t)((i % 50) + 1) * 100 + 1500;
	cr_expect(eq(sz, profconv__report_series_pick(total, 1200, pick),
	    PC_REPORT_SERIES_POINTS));
	cr_expect(eq(sz, pick[0], 0));
	cr_expect(eq(sz, pick[PC_REPORT_SERIES_POINTS - 1], 1199));
	for (i = 1; i < PC_REPORT_SERIES_POINTS; i++) {
		char want[32];

		cr_expect(gt(sz, pick[i], pick[i - 1]));
		snprintf(want, sizeof(want), "{\"type\":\"s%zu\",", pick[i]);
		cr_expect(not(zero(ptr, strstr(out, want))), "%s", want);
	}
}

/* A pc_page_text that shows it was called: TEXT in capitals. */
static void
put_upper(FILE *fp, const char *text)
{
	for (; *text != '\0'; text++)
		putc(toupper((unsigned char)*text), fp);
}

/* page.c: a line that ends in '\' is joined to the next, so that fragment
 * "a" ends inside a line; holes from name/text pairs, through the given
 * escaping or as they are; "@@" is an '@' and a hole not given is empty. */
Test(report, page_fragments_and_holes)
{
	static const char skel[] = "@@ a\n<p>@x@ \\\n@y@\\\n@@ b\nb@@z@\n"
	    "@@ c\n";
	struct pc_page_hole h[] = { { "x", "one" }, { "y", "t&o" } };
	size_t len = 0;
	FILE *fp;

	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	profconv__page_put_holes(fp, skel, "a", h, 2, put_upper);
	profconv__page_put_holes(fp, skel, "b", h, 2, NULL);
	fclose(fp);
	cr_assert(eq(str, out, "<p>ONE T&Ob@\n"));
}
