/* SPDX-License-Identifier: MIT */
/*
 * test_report_data_stream.c - the Explore tab's call tree pruned while
 * it is built (lib/report/report_data_stream.c): the nodes kept, what
 * was dropped below each, the cut, the sibling whose text has another's
 * as a prefix, and the inputs it leaves to the whole tree.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "stream_fixture.h"

TestSuite(report_data_stream, .fini = fini);

/*
 * objects: main;f:12 1, main;f:12;g 5, main;f:123 2 (f's frames by
 * line: "f a.c:12" is a prefix of "f a.c:123", the case the walk must
 * wait for).  The view sorts its stacks by their text, and ':123'
 * sorts before ':12;g' ('3' < ';'), so the whole tree is, in the order
 * its nodes are met: root, main (cum 8), f:12 (6), f:123 (2), g (5)
 * under f:12.
 */
static void
prefix_profile(int64_t g_value)
{
	uint32_t m, f, gf, lm, l12, l123, lg;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	m = add_fn(a, "main", "main.c");
	f = add_fn(a, "f", "a.c");
	gf = add_fn(a, "g", "g.c");
	lm = LOC1(a, 0, 0x10, m, 1);
	l12 = LOC1(a, 0, 0x20, f, 12);
	l123 = LOC1(a, 0, 0x30, f, 123);
	lg = LOC1(a, 0, 0x40, gf, 3);
	SAMPLE(a, ((int64_t[]){ 1 }), l12, lm);
	SAMPLE(a, ((int64_t[]){ g_value }), lg, l12, lm);
	SAMPLE(a, ((int64_t[]){ 2 }), l123, lm);
}

/* The tree of A's view by line, its stacks walked in PARTS parts. */
static int
stream_parts(double fraction, size_t budget, size_t parts)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	int64_t total = 0;

	vo.granularity = PROFCONV_BY_LINE;
	vo.jobs = 2;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	profconv_view_total(va, 0, &total);
	t.nt = 1;
	return profconv__report_tree_stream_parts(va, &g, &total, fraction,
	    budget, parts, &t, &o);
}

static int
stream(double fraction, size_t budget)
{
	return stream_parts(fraction, budget, 1);
}

/* A budget above the nodes keeps the whole tree, in the order the
 * stacks meet its nodes, with its self values. */
static void
whole_tree_within_budget(void)
{
	prefix_profile(5);
	cr_assert(eq(int, stream(-1, 10), 0), "%s", ERRMSG);
	cr_assert(eq(sz, t.n, 5));
	expect_node(1, 0, "main", 1);
	expect_node(2, 1, "f", 12);
	expect_node(3, 1, "f", 123);
	expect_node(4, 2, "g", 3);
	cr_expect(eq(i64, t.self[2], 1));
	cr_expect(eq(i64, t.self[3], 2));
	cr_expect(eq(i64, t.self[4], 5));
	cr_expect(eq(sz, o.dropped, 0));
	cr_expect(eq(i64, o.dropped_sum[0], 0));
	fini();
}

/*
 * Budget 2: main (share 1) and f:12 (6/8) stay; the cut is the share of
 * the heaviest left out, g's 5/8; g's 5 is pruned below f:12, f:123's 2
 * below main.
 */
static void
budget_cut(void)
{
	prefix_profile(5);
	cr_assert(eq(int, stream(-1, 2), 0), "%s", ERRMSG);
	cr_assert(eq(sz, t.n, 3));
	expect_node(1, 0, "main", 1);
	expect_node(2, 1, "f", 12);
	cr_expect(eq(dbl, o.fraction, 5.0 / 8));
	cr_expect(eq(sz, o.dropped, 2));
	cr_expect(eq(i64, o.dropped_sum[0], 7));
	cr_expect(eq(i64, o.pruned[0], 0));
	cr_expect(eq(i64, o.pruned[1], 2));
	cr_expect(eq(i64, o.pruned[2], 5));
	fini();
}

/* A fraction above the budget's cut wins: at 0.5 with room for 10, the
 * nodes whose share is above it stay (main, f:12 6/8, g 5/8); f:123
 * (2/8) goes below main. */
static void
fraction_cut(void)
{
	prefix_profile(5);
	cr_assert(eq(int, stream(0.5, 10), 0), "%s", ERRMSG);
	cr_assert(eq(sz, t.n, 4));
	expect_node(3, 2, "g", 3);
	cr_expect(eq(dbl, o.fraction, 0.5));
	cr_expect(eq(sz, o.dropped, 1));
	cr_expect(eq(i64, o.dropped_sum[0], 2));
	cr_expect(eq(i64, o.pruned[1], 2));
	fini();
}

/* The tree cut by the budget, or by a fraction above the budget's cut. */
Test(report_data_stream, tree_cut)
{
	budget_cut();
	fraction_cut();
}

/* No budget, a negative value (sums would not be monotone) or a total
 * at INT64_MAX (sums could saturate): 1, for the whole tree, and
 * nothing made. */
static void
leaves_to_the_whole_tree(void)
{
	int64_t big = INT64_MAX;

	prefix_profile(5);
	cr_expect(eq(int, stream(-1, 0), 1));
	cr_expect(eq(sz, t.n, 0));
	cr_expect(eq(int, profconv__report_tree_stream(va, &g, &big, -1, 10,
	    &t, &o), 1));
	cr_expect(eq(sz, t.n, 0));
	profconv_view_free(va);
	va = NULL;
	profconv_profile_free(a);
	a = NULL;
	prefix_profile(-3);
	cr_expect(eq(int, stream(-1, 10), 1));
	cr_expect(eq(sz, t.n, 0));
	fini();
}

/* The whole tree: within the budget, or when there is no cut to make. */
Test(report_data_stream, whole_tree_kept)
{
	whole_tree_within_budget();
	leaves_to_the_whole_tree();
}

/*
 * Walked in parts: the stacks main;f:12, main;f:123, main;f:12;g in two
 * or three.  The first part ends with f:12 waiting, and the next comes
 * back to it: the parts cannot be merged, and the stacks are walked in
 * one part, for the same tree.  A negative value in a later part leaves
 * it to the whole tree, as in one part.
 */
Test(report_data_stream, a_node_waiting_where_a_part_ends)
{
	size_t parts;

	for (parts = 2; parts <= 3; parts++) {
		prefix_profile(5);
		cr_assert(eq(int, stream_parts(-1, 10, parts), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, t.n, 5), "%zu parts", parts);
		expect_node(2, 1, "f", 12);
		expect_node(3, 1, "f", 123);
		expect_node(4, 2, "g", 3);
		cr_expect(eq(i64, t.self[2], 1));
		cr_expect(eq(i64, t.self[4], 5));
		fini();
	}
	prefix_profile(-3);
	cr_expect(eq(int, stream_parts(-1, 10, 3), 1));
	cr_expect(eq(sz, t.n, 0));
}

/* --- against the whole tree, on many stacks ------------------------------- */

/* 3,000 random stacks of 1 to 7 frames of 12 functions at 3 lines each,
 * three sample types: counts, sizes up to 2^44 (totals far past 2^52,
 * where a share's division rounds), and one always 0; and last in the
 * view's order, a stack of one frame alone (which waits, without
 * callees, until the walk ends), its values LAST, LAST and 0. */
static void
random_profile(uint64_t seed, int64_t last)
{
	uint32_t loc[36], ids[7], fn;
	uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
	char name[8];
	int i, j;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	profconv_profile_add_sample_type(a, "space", "bytes");
	profconv_profile_add_sample_type(a, "none", "count");
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		fn = add_fn(a, name, "f.c");
		for (j = 0; j < 3; j++)
			loc[i * 3 + j] = LOC1(a, 0, 0x100 + (uint64_t)(i * 3 +
			    j) * 16, fn, 10 * i + j + 1);
	}
	for (i = 0; i < 3000; i++) {
		size_t depth = 1 + next(&s) % 7;
		int64_t v[3] = { 1 + (int64_t)(next(&s) % 9),
			(int64_t)(next(&s) % ((uint64_t)1 << 44)), 0 };

		for (j = 0; j < (int)depth; j++)
			ids[j] = loc[next(&s) % (j + 1 == (int)depth ? 36 : 9)];
		cr_assert(eq(int, profconv_profile_add_sample(a, ids, depth, v,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	fn = add_fn(a, "zz", "z.c");
	ids[0] = LOC1(a, 0, 0x1000, fn, 1);
	cr_assert(eq(int, profconv_profile_add_sample(a, ids, 1,
	    (int64_t[]){ last, last, 0 }, NULL, 0), 0), "%s", ERRMSG);
}

/* Node I's largest share of TOTAL, as the page reckons it. */
static double
node_share(const int64_t *cum, const int64_t *total, size_t nt)
{
	double s = 0, v;
	size_t k;

	for (k = 0; k < nt; k++) {
		if (total[k] == 0)
			continue;
		v = (double)profconv__report_mag(cum[k]) /
		    (double)profconv__report_mag(total[k]);
		if (v > s)
			s = v;
	}
	return s;
}

static int
by_share_desc(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return p < q ? 1 : p > q ? -1 : 0;
}

/* The streamed tree at BUDGET is the whole tree's nodes whose share is
 * above the cut (the share of its BUDGET + 1'th heaviest node), in its
 * order, with their self values. */
static void
expect_whole_cut(size_t budget, size_t parts)
{
	struct tree w = { 0 };
	struct gframes wg = { 0 };
	int64_t total[3], *cum, *pruned, dropped_sum[3];
	double *share, *sorted, cut = -1;
	uint32_t *pos;
	size_t i, k, nt = 3, kept = 1;

	for (k = 0; k < nt; k++)
		profconv_view_total(va, k, &total[k]);
	w.nt = nt;
	cr_assert(eq(int, profconv__report_tree_add(&w, &wg, va, SIZE_MAX, 0,
	    NULL), 0));
	cum = calloc(w.n * nt, sizeof(*cum));
	share = calloc(w.n, sizeof(*share));
	sorted = calloc(w.n, sizeof(*sorted));
	pos = calloc(w.n, sizeof(*pos));
	memcpy(cum, w.self, w.n * nt * sizeof(*cum));
	for (i = w.n - 1; i > 0; i--)
		for (k = 0; k < nt; k++)
			cum[w.parent[i] * nt + k] += cum[i * nt + k];
	for (i = 1; i < w.n; i++)
		sorted[i - 1] = share[i] = node_share(cum + i * nt, total, nt);
	qsort(sorted, w.n - 1, sizeof(*sorted), by_share_desc);
	if (w.n - 1 > budget)
		cut = sorted[budget];
	cr_assert(eq(int, profconv__report_tree_stream_parts(va, &g, total, -1,
	    budget, parts, &t, &o), 0), "%s", ERRMSG);
	cr_expect(eq(dbl, o.fraction, cut));
	/* What is dropped below each kept node: its cum less its self and
	 * its kept callees' cums. */
	pruned = calloc(w.n * nt, sizeof(*pruned));
	for (k = 0; k < nt; k++) {
		pruned[k] = cum[k] - w.self[k];
		dropped_sum[k] = cum[k] - w.self[k];
	}
	for (i = 1; i < w.n; i++) {
		if (!(share[i] > cut) || (w.parent[i] != 0 &&
		    pos[w.parent[i]] == 0))
			continue;
		for (k = 0; k < nt; k++) {
			pruned[i * nt + k] = cum[i * nt + k] - w.self[i * nt + k];
			pruned[w.parent[i] * nt + k] -= cum[i * nt + k];
			dropped_sum[k] -= w.self[i * nt + k];
		}
		cr_assert(lt(sz, kept, t.n), "budget %zu: too few nodes", budget);
		cr_expect(eq(u32, t.parent[kept], pos[w.parent[i]]),
		    "budget %zu, %zu parts, node %zu", budget, parts, kept);
		cr_expect(eq(str, (char *)g.fn[t.frame[kept]],
		    (char *)wg.fn[w.frame[i]]));
		cr_expect(eq(i64, g.line[t.frame[kept]], wg.line[w.frame[i]]));
		for (k = 0; k < nt; k++)
			cr_expect(eq(i64, t.self[kept * nt + k],
			    w.self[i * nt + k]), "node %zu, type %zu", kept, k);
		pos[i] = (uint32_t)kept++;
	}
	cr_expect(eq(sz, t.n, kept), "budget %zu", budget);
	cr_expect(eq(sz, o.dropped, w.n - kept));
	for (k = 0; k < nt; k++) {
		cr_expect(eq(i64, o.dropped_sum[k], dropped_sum[k]),
		    "budget %zu, %zu parts, type %zu", budget, parts, k);
		cr_expect(eq(i64, o.pruned[k], pruned[k]));
	}
	for (i = 1; i < w.n; i++)
		for (k = 0; pos[i] != 0 && k < nt; k++)
			cr_expect(eq(i64, o.pruned[pos[i] * nt + k],
			    pruned[i * nt + k]), "budget %zu, %zu parts, node %u",
			    budget, parts, pos[i]);
	free(pruned);
	free(cum);
	free(share);
	free(sorted);
	free(pos);
	profconv__report_tree_free(&w);
	profconv__report_gframes_free(&wg);
	clear_out();
}

/* Budgets small and large, a heap whose least node changes thousands of
 * times: the nodes the whole tree's cut keeps. */
Test(report_data_stream, the_whole_trees_cut_on_many_stacks)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	size_t budgets[] = { 1, 7, 60, 500, 2000 }, i;

	random_profile(3, 1);
	vo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	for (i = 0; i < sizeof(budgets) / sizeof(*budgets); i++) {
		t.nt = 3;
		expect_whole_cut(budgets[i], 1);
	}
}

/* The stacks walked in parts, from a few to one each: the same cut,
 * nodes, values and what is dropped as the whole tree's. */
Test(report_data_stream, the_same_cut_walked_in_parts)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	size_t budgets[] = { 1, 60, 2000, 100000 };
	size_t parts[] = { 2, 3, 7, 50, 3000 }, i, j;

	random_profile(11, 4);
	vo.granularity = PROFCONV_BY_LINE;
	vo.jobs = 2;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	for (i = 0; i < sizeof(budgets) / sizeof(*budgets); i++)
		for (j = 0; j < sizeof(parts) / sizeof(*parts); j++) {
			t.nt = 3;
			expect_whole_cut(budgets[i], parts[j]);
		}
}

/* A negative value in the last part: the whole tree's, as in one. */
Test(report_data_stream, a_negative_value_in_a_later_part)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	int64_t total[3];
	size_t k;

	random_profile(5, -1);
	vo.granularity = PROFCONV_BY_LINE;
	vo.jobs = 2;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	for (k = 0; k < 3; k++)
		profconv_view_total(va, k, &total[k]);
	t.nt = 3;
	cr_expect(eq(int, profconv__report_tree_stream_parts(va, &g, total, -1,
	    60, 3, &t, &o), 1));
	cr_expect(eq(sz, t.n, 0));
}
