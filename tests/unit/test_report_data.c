/* SPDX-License-Identifier: MIT */
/*
 * test_report_data.c - the report page's call tree and its strings
 * (lib/report/report_data.c): JSON safe inside <script>, interned
 * strings, shared frames, the tree of a view's stacks with its self
 * values, and the Explore tab around the data.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/report_data.h"
#include "report/report_tree.h"
#include "view/view.h"
#include "writer_fixture.h"

TestSuite(report_data, .fini = teardown);

/* main;grow 30, main;<b>x</b> 10, main 5 (objects, space = 100 x);
 * grow's file is given as an unclean path. */
static struct profconv_profile *
profile(int64_t grow)
{
	struct profconv_profile *p;
	uint32_t m, g, h, lm, lg, lh;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	m = add_fn(p, "main", "/src/main.c");
	g = add_fn(p, "grow", "/src/lib/../grow.c");
	h = add_fn(p, "<b>x</b>", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 7);
	lh = LOC1(p, 0, 0x30, h, 1);
	SAMPLE(p, ((int64_t[]){ grow, 100 * grow }), lg, lm);
	SAMPLE(p, ((int64_t[]){ 10, 1000 }), lh, lm);
	SAMPLE(p, ((int64_t[]){ 5, 500 }), lm);
	return p;
}

/* Neither "</script" nor "<!--" can appear: '<', '>' and '&' are \u
 * escapes (JSON allows them anywhere in a string); the rest is plain
 * JSON escaping. */
static void
json_str_safe_in_script(void)
{
	CAPTURE(out, (profconv__report_json_str(fp,
	    "</script><!--a&b \"q\"\n"), 0));
	cr_expect(eq(str, out, "\"\\u003c/script\\u003e\\u003c!--a\\u0026b "
	    "\\\"q\\\"\\n\""));
}

/* The same text is the same index, whatever its pointer; new texts
 * are numbered in order, past the table's growth. */
static void
strings_interned(void)
{
	static char names[3000][8];
	struct strs st = { 0 };
	char copy[] = "s17";
	uint32_t id;
	size_t i;

	for (i = 0; i < 3000; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		cr_assert(eq(int, profconv__report_str_index(&st, names[i],
		    &id), 0));
		cr_assert(eq(u32, id, (uint32_t)i));
	}
	cr_expect(eq(sz, st.n, 3000));
	cr_assert(eq(int, profconv__report_str_index(&st, copy, &id), 0));
	cr_expect(eq(u32, id, 17));
	cr_assert(eq(int, profconv__report_str_index(&st, "s2999", &id), 0));
	cr_expect(eq(u32, id, 2999));
	cr_expect(eq(sz, st.n, 3000));
	free(st.s);
	free(st.h);
}

/* Magnitudes are unsigned: INT64_MIN's is 2^63, not an overflow. */
static void
magnitude(void)
{
	cr_expect(eq(u64, profconv__report_mag(-5), 5));
	cr_expect(eq(u64, profconv__report_mag(5), 5));
	cr_expect(eq(u64, profconv__report_mag(INT64_MIN),
	    (uint64_t)1 << 63));
}

Test(report_data, strings_and_magnitudes_encoded)
{
	json_str_safe_in_script();
	teardown();
	strings_interned();
	teardown();
	magnitude();
}

/* A and B's views, a frame per line as the page's data has them. */
static void
views(void)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;

	vo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_new(&vb, b, &vo), 0), "%s", ERRMSG);
}

/* The node of FN under PARENT, or -1. */
static int
node_of(const struct tree *t, const struct gframes *g, uint32_t parent,
    const char *fn)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (t->parent[i] == parent &&
		    strcmp(g->fn[t->frame[i]], fn) == 0)
			return (int)i;
	return -1;
}

/*
 * The tree of the view's stacks, root first: main under the root, grow
 * and <b>x</b> under main, each node's self values per type; a second
 * profile adds into the same nodes (frames shared by function, file and
 * line), and a file's name is kept clean ("/src/lib/../grow.c" is
 * "/src/grow.c").
 */
static void
tree_of_stacks(void)
{
	struct tree t = { 0 };
	struct gframes g = { 0 };
	int m, gr, x;

	t.nt = 2;
	a = profile(30);
	b = profile(1);
	views();
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, va, SIZE_MAX, 0,
	    NULL), 0));
	cr_expect(eq(sz, t.n, 4), "root, main, grow, x");
	cr_expect(eq(sz, g.n, 3), "three frames");
	m = node_of(&t, &g, 0, "main");
	cr_assert(gt(int, m, 0));
	gr = node_of(&t, &g, (uint32_t)m, "grow");
	x = node_of(&t, &g, (uint32_t)m, "<b>x</b>");
	cr_assert(gt(int, gr, 0));
	cr_assert(gt(int, x, 0));
	cr_expect(eq(i64, t.self[2 * m], 5));
	cr_expect(eq(i64, t.self[2 * m + 1], 500));
	cr_expect(eq(i64, t.self[2 * gr], 30));
	cr_expect(eq(i64, t.self[2 * gr + 1], 3000));
	cr_expect(eq(i64, t.self[2 * x + 1], 1000));
	cr_expect(eq(i64, t.self[0] + t.self[1], 0), "the root has none");
	cr_expect(eq(str, (char *)g.file[t.frame[gr]], "/src/grow.c"));
	cr_expect(eq(i64, g.line[t.frame[gr]], 7));
	/* The views may go: the frames keep their own strings. */
	profconv_view_free(va);
	va = NULL;
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, vb, SIZE_MAX, 0,
	    NULL), 0));
	cr_expect(eq(sz, t.n, 4), "the same nodes");
	cr_expect(eq(sz, g.n, 3), "the same frames");
	cr_expect(eq(i64, t.self[2 * gr], 31));
	cr_expect(eq(i64, t.self[2 * m + 1], 1000));
	cr_expect(eq(str, (char *)g.fn[t.frame[x]], "<b>x</b>"));
	profconv__report_tree_free(&t);
	profconv__report_gframes_free(&g);
}

/* One type into a column of a series: values kept apart until the
 * columns are known, then made dense in the order asked, a column
 * left out when not asked for. */
static void
series_columns(void)
{
	struct tree t = { 0 };
	struct gframes g = { 0 };
	const size_t order[] = { 1, 0 };
	int m, gr;

	a = profile(30);
	b = profile(2);
	views();
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, va, 1, 0, NULL),
	    0));
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, vb, 1, 1, NULL),
	    0));
	cr_assert(eq(int, profconv__report_tree_columns(&t, order, 2, 2), 0));
	m = node_of(&t, &g, 0, "main");
	gr = node_of(&t, &g, (uint32_t)m, "grow");
	cr_assert(gt(int, gr, 0));
	cr_expect(eq(sz, t.nt, 2));
	/* Column 0 is b's (the second added), column 1 a's. */
	cr_expect(eq(i64, t.self[2 * gr], 200));
	cr_expect(eq(i64, t.self[2 * gr + 1], 3000));
	cr_expect(eq(i64, t.self[2 * m], 500));
	/* Again, of b's column alone. */
	cr_assert(eq(int, profconv__report_tree_columns(&t, order, 1, 2), 0));
	cr_expect(eq(sz, t.nt, 1));
	cr_expect(eq(i64, t.self[gr], 200));
	cr_expect(eq(i64, t.self[m], 500));
	profconv__report_tree_free(&t);
	profconv__report_gframes_free(&g);
}

Test(report_data, tree_and_series_columns)
{
	tree_of_stacks();
	teardown();
	series_columns();
}

/* The Explore tab: the data inside the tab's controls, the top table
 * bounded as asked; with a base, the change's table and data. */
Test(report_data, live_tab)
{
	const char *data, *section;

	a = profile(30);
	b = profile(20);
	CAPTURE(out, profconv__report_live(fp, NULL, a, NULL, -1, 0, 1, 7));
	section = strstr(out, "id=\"live\"");
	data = strstr(out, "<script type=\"application/json\" "
	    "id=\"live-data\">");
	cr_assert(not(zero(ptr, (void *)section)), "%s", out);
	cr_assert(not(zero(ptr, (void *)data)), "%s", out);
	cr_expect(lt(ptr, (void *)section, (void *)data));
	cr_expect(zero(ptr, strstr(out, "\"diff\":true")));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[45,4500]"))));
	free(out);
	out = NULL;
	CAPTURE(out, profconv__report_live(fp, b, a, NULL, -1, 0, 1, 7));
	cr_expect(not(zero(ptr, strstr(out, "\"diff\":true"))));
	cr_expect(not(zero(ptr, strstr(out, "<th>base</th><th>current</th>"))),
	    "%s", out);
}
