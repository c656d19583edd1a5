/* SPDX-License-Identifier: MIT */
/*
 * test_diff_retention.c - retention across three dumps (lib/report/
 * diff_retention.c, profdiff --still-at): what grew from BASE to CUR and
 * is still held at LATER, max(0, min(CUR - BASE, LATER - BASE)), its
 * order, table, JSON and refusals, on heap profiles built by hand.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "diff_fixture.h"

TestSuite(diff_retention, .fini = teardown);

/* The retention writers take a NULL table or FILE as the others do:
 * PROFCONV_EINVAL, where they crashed. */
static void
retention_writers_refuse_null(void)
{
	static const char *const leaf[] = { "grow" };
	static const int64_t bv[][4] = { { 1, 100, 1, 100 } };
	static const int64_t cv[][4] = { { 3, 300, 3, 300 } };
	struct profconv_retention *r = NULL;
	struct profconv_profile *later;

	a = heap(bv, leaf, 1);
	b = heap(cv, leaf, 1);
	later = heap(cv, leaf, 1);
	cr_assert(eq(int, profconv_retention_new(&r, a, b, later, NULL), 0),
	    "%s", ERRMSG);
	cr_expect(eq(int, profconv_retention_print(r, NULL, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_retention_write_json(r, NULL, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_retention_print(NULL, stdout, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_retention_write_json(NULL, stdout, NULL),
	    PROFCONV_EINVAL));
	profconv_retention_free(r);
	profconv_profile_free(later);
	teardown();
}

/*
 * In use { objects, bytes } at the three dumps:
 *   leak     1/100 -> 5/500   -> 5/500    grew 4/400, all still held
 *   spike    1/100 -> 9/900   -> 1/100    grew 8/800, none held
 *   partial  0/0   -> 4/4096  -> 2/2048   grew 4/4096, half held
 *   shrink   3/300 -> 1/100   -> 3/300    did not grow: not shown
 * (alloc counters as in use: the retention follows in use only).
 */
static struct profconv_retention *
three_dumps(void)
{
	static const char *const leaf[] = { "leak", "spike", "partial",
		"shrink" };
	static const int64_t bv[][4] = { { 1, 100, 1, 100 },
		{ 1, 100, 1, 100 }, { 0, 0, 0, 0 }, { 3, 300, 3, 300 } };
	static const int64_t cv[][4] = { { 5, 500, 5, 500 },
		{ 9, 900, 9, 900 }, { 4, 4096, 4, 4096 }, { 1, 100, 1, 100 } };
	static const int64_t lv[][4] = { { 5, 500, 5, 500 },
		{ 1, 100, 1, 100 }, { 2, 2048, 2, 2048 }, { 3, 300, 3, 300 } };
	struct profconv_retention *r = NULL;
	struct profconv_profile *later;

	a = heap(bv, leaf, 4);
	b = heap(cv, leaf, 4);
	later = heap(lv, leaf, 4);
	cr_assert(eq(int, profconv_retention_new(&r, a, b, later, NULL), 0),
	    "%s", ERRMSG);
	profconv_profile_free(later);	/* the table keeps no pointer */
	return r;
}

#define RET_HEAD \
	"      Grew objs     Later objs      Held objs     Grew bytes" \
	"    Later bytes     Held bytes  Name\n"

/* Most held bytes first (partial 2048, leak 400, spike 0); shrink left
 * out; TOTAL sums the rows shown: grew 16 objects and 5296 bytes
 * (5.17KiB), 6 and 2448 (2.39KiB) later and held.  Two rows hold
 * something. */
static void
table(void)
{
	struct profconv_retention *r = three_dumps();
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;

	cr_expect(eq(sz, profconv_retention_held(r), 2));
	CAPTURE(out, profconv_retention_print(r, fp, NULL));
	cr_expect(eq(str, out, RET_HEAD
	    "              4              2              2        4.00KiB"
	    "        2.00KiB        2.00KiB  partial\n"
	    "              4              4              4           400B"
	    "           400B           400B  leak\n"
	    "              8              0              0           800B"
	    "             0B             0B  spike\n"
	    "             16              6              6        5.17KiB"
	    "        2.39KiB        2.39KiB  TOTAL\n"));
	free(out);
	out = NULL;
	/* Top 1, exact: the rest counted, TOTAL still of all shown. */
	po.top = 1;
	po.exact = 1;
	CAPTURE(out, profconv_retention_print(r, fp, &po));
	cr_expect(eq(str, out, RET_HEAD
	    "              4              2              2           4096"
	    "           2048           2048  partial\n"
	    "  ... 2 more rows\n"
	    "             16              6              6           5296"
	    "           2448           2448  TOTAL\n"));
	profconv_retention_free(r);
	teardown();
}

static void
json(void)
{
	struct profconv_retention *r = three_dumps();

	CAPTURE(out, profconv_retention_write_json(r, fp, NULL));
	cr_expect(eq(str, out, "{\"kind\":\"still-at\",\"rows_held\":2,"
	    "\"total\":{\"name\":\"TOTAL\",\"values\":{\"inuse_objects\":"
	    "{\"grew\":16,\"later_delta\":6,\"still_held\":6},\"inuse_space\":"
	    "{\"grew\":5296,\"later_delta\":2448,\"still_held\":2448}}},"
	    "\"rows\":[\n"
	    "{\"name\":\"partial\",\"values\":{\"inuse_objects\":{\"base\":0,"
	    "\"cur\":4,\"later\":2,\"grew\":4,\"later_delta\":2,"
	    "\"still_held\":2},\"inuse_space\":{\"base\":0,\"cur\":4096,"
	    "\"later\":2048,\"grew\":4096,\"later_delta\":2048,"
	    "\"still_held\":2048}}},\n"
	    "{\"name\":\"leak\",\"values\":{\"inuse_objects\":{\"base\":1,"
	    "\"cur\":5,\"later\":5,\"grew\":4,\"later_delta\":4,"
	    "\"still_held\":4},\"inuse_space\":{\"base\":100,\"cur\":500,"
	    "\"later\":500,\"grew\":400,\"later_delta\":400,"
	    "\"still_held\":400}}},\n"
	    "{\"name\":\"spike\",\"values\":{\"inuse_objects\":{\"base\":1,"
	    "\"cur\":9,\"later\":1,\"grew\":8,\"later_delta\":0,"
	    "\"still_held\":0},\"inuse_space\":{\"base\":100,\"cur\":900,"
	    "\"later\":100,\"grew\":800,\"later_delta\":0,"
	    "\"still_held\":0}}}]}\n"));
	profconv_retention_free(r);
	teardown();
}

/* The retention written as a table and as JSON. */
Test(diff_retention, writes_table_and_json)
{
	table();
	json();
}

/* The order is the retention's own: a sort column is refused, and so
 * are dumps of different sample types. */
static void
refusals(void)
{
	struct profconv_retention *r = three_dumps();
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	struct profconv_profile *other;
	size_t len = 0;
	FILE *fp;

	po.sort = "name";
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv_retention_print(r, fp, &po),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG,
	    "the retention table is sorted by what is still held"));
	fclose(fp);
	cr_expect(eq(sz, len, 0), "nothing written");
	profconv_retention_free(r);
	r = NULL;
	cr_assert(eq(int, profconv_profile_new(&other), 0));
	profconv_profile_add_sample_type(other, "goroutine", "count");
	cr_expect(eq(int, profconv_retention_new(&r, a, b, other, NULL),
	    PROFCONV_EINVAL));
	cr_expect(zero(ptr, r));
	profconv_profile_free(other);
	teardown();
}

/* NULL tables and files, sort columns, mixed sample types refused. */
Test(diff_retention, refuses_what_it_cannot_write)
{
	retention_writers_refuse_null();
	refusals();
}
