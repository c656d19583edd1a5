/* SPDX-License-Identifier: MIT */
/*
 * test_report_data_change.c - the Explore tab's call tree of a change
 * pruned while it is built (lib/report/report_data_change.c): the whole
 * tree's nodes in its order (the base's first), each profile's values in
 * its columns, the node that waits for a stack of the other profile, the
 * inputs left to the whole tree, and the page's data byte for byte the
 * whole tree's on random changes.
 */

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stream_fixture.h"

TestSuite(report_data_change, .fini = fini);

/* The tree of the change from B to A (A's view VA, B's VB, by line),
 * pruned while it is walked: 0, or 1 when it is left to the whole tree.
 * B's types go to the columns of A's of the same name (by place: the
 * profiles here have the same types, or B the first NB of A's). */
static int
stream_change(size_t budget)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	size_t k, nt, nb, bcols[4];
	int64_t total[8] = { 0 };

	vo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_new(&vb, b, &vo), 0), "%s", ERRMSG);
	nt = profconv_profile_sample_type_count(a);
	nb = profconv_profile_sample_type_count(b);
	for (k = 0; k < nb; k++) {
		bcols[k] = k;
		profconv_view_total(vb, k, &total[k]);
	}
	for (k = 0; k < nt; k++)
		profconv_view_total(va, k, &total[nt + k]);
	t.nt = 2 * nt;
	return profconv__report_tree_stream_change(vb, bcols, va, nt, &g,
	    total, -1, budget, &t, &o);
}

/*
 * A and B, each of one type, "objects", and the same NFN functions FNS
 * (name, file) and NLOC locations LOCS (function, line), one line
 * each, whose ids (the same in both) go to IDS.
 */
static void
two_profiles(const char *const (*fns)[2], size_t nfn,
    const int64_t (*locs)[2], size_t nloc, uint32_t *ids)
{
	struct profconv_profile **p[2] = { &a, &b };
	uint32_t fn[4];
	size_t i, j;

	for (i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_profile_new(p[i]), 0));
		profconv_profile_add_sample_type(*p[i], "objects", "count");
		for (j = 0; j < nfn; j++)
			fn[j] = add_fn(*p[i], fns[j][0], fns[j][1]);
		for (j = 0; j < nloc; j++)
			ids[j] = LOC1(*p[i], 0, 0x10 * (j + 1),
			    fn[locs[j][0]], locs[j][1]);
	}
}

/*
 * Base B: main;b:1 (3).  Profile A: main;a:1 (1), main;b:1 (2).  The
 * whole tree takes B's stacks first: root, main, b, then A's new node a;
 * the walk meets a first (its text sorts first), and must still give
 * main, b, a, each with its columns (B's, then A's).
 */
Test(report_data_change, a_change_in_the_whole_trees_order)
{
	static const char *const fns[][2] = {
		{ "main", "main.c" }, { "a", "a.c" }, { "b", "b.c" }
	};
	static const int64_t locs[][2] = { { 0, 1 }, { 1, 1 }, { 2, 1 } };
	uint32_t id[3];

	two_profiles(fns, 3, locs, 3, id);
	SAMPLE(a, ((int64_t[]){ 1 }), id[1], id[0]);
	SAMPLE(a, ((int64_t[]){ 2 }), id[2], id[0]);
	SAMPLE(b, ((int64_t[]){ 3 }), id[2], id[0]);
	cr_assert(eq(int, stream_change(10), 0), "%s", ERRMSG);
	cr_assert(eq(sz, t.n, 4));
	expect_node(1, 0, "main", 1);
	expect_node(2, 1, "b", 1);
	expect_node(3, 1, "a", 1);
	cr_expect(eq(i64, t.self[2 * 2 + 0], 3));	/* b: B's 3 */
	cr_expect(eq(i64, t.self[2 * 2 + 1], 2));	/* and A's 2 */
	cr_expect(eq(i64, t.self[3 * 2 + 0], 0));	/* a: A's only */
	cr_expect(eq(i64, t.self[3 * 2 + 1], 1));
	cr_expect(eq(sz, o.dropped, 0));
	fini();
}

/* The prefix case across the two: B has main;f:12;g, A main;f:123 and
 * main;f:12; f:12 waits for B's g after A's f:123.  And a negative value
 * in B leaves the change to the whole tree. */
Test(report_data_change, a_change_whose_node_waits)
{
	static const char *const fns[][2] = {
		{ "main", "main.c" }, { "f", "a.c" }, { "g", "g.c" }
	};
	static const int64_t locs[][2] = {
		{ 0, 1 }, { 1, 12 }, { 1, 123 }, { 2, 3 }
	};
	uint32_t id[4];

	two_profiles(fns, 3, locs, 4, id);
	SAMPLE(a, ((int64_t[]){ 1 }), id[1], id[0]);
	SAMPLE(a, ((int64_t[]){ 2 }), id[2], id[0]);
	SAMPLE(b, ((int64_t[]){ 5 }), id[3], id[1], id[0]);
	cr_assert(eq(int, stream_change(10), 0), "%s", ERRMSG);
	/* Whole tree: B's main, f:12, g; then A's f:123. */
	cr_assert(eq(sz, t.n, 5));
	expect_node(1, 0, "main", 1);
	expect_node(2, 1, "f", 12);
	expect_node(3, 2, "g", 3);
	expect_node(4, 1, "f", 123);
	cr_expect(eq(i64, t.self[2 * 2 + 1], 1));	/* f:12: A's 1 */
	cr_expect(eq(i64, t.self[3 * 2 + 0], 5));	/* g: B's 5 */
	cr_expect(eq(i64, t.self[4 * 2 + 1], 2));	/* f:123: A's 2 */
	fini();
	two_profiles(fns, 1, locs, 1, id);
	SAMPLE(a, ((int64_t[]){ 1 }), id[0]);
	SAMPLE(b, ((int64_t[]){ -1 }), id[0]);
	cr_expect(eq(int, stream_change(10), 1));
	cr_expect(eq(sz, t.n, 0));
}

/* P: random stacks as random_profile()'s, from SEED, of the same
 * functions and lines, N of them; NT types (the first of
 * random_profile()'s three). */
static void
random_into(struct profconv_profile **p, uint64_t seed, int n, size_t nt)
{
	static const char *const types[][2] = {
		{ "objects", "count" }, { "space", "bytes" }, { "none", "count" }
	};
	uint32_t loc[36], ids[7], fn;
	uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
	char name[8];
	size_t k;
	int i, j;

	cr_assert(eq(int, profconv_profile_new(p), 0));
	for (k = 0; k < nt; k++)
		profconv_profile_add_sample_type(*p, types[k][0], types[k][1]);
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		fn = add_fn(*p, name, "f.c");
		for (j = 0; j < 3; j++)
			loc[i * 3 + j] = LOC1(*p, 0, 0x100 + (uint64_t)(i * 3 +
			    j) * 16, fn, 10 * i + j + 1);
	}
	for (i = 0; i < n; i++) {
		size_t depth = 1 + next(&s) % 7;
		int64_t v[3] = { 1 + (int64_t)(next(&s) % 9),
			(int64_t)(next(&s) % ((uint64_t)1 << 44)), 0 };

		for (j = 0; j < (int)depth; j++)
			ids[j] = loc[next(&s) % (j + 1 == (int)depth ? 36 : 9)];
		cr_assert(eq(int, profconv_profile_add_sample(*p, ids, depth, v,
		    NULL, 0), 0), "%s", ERRMSG);
	}
}

/* The page's data of the change from B to A, pruned as it is walked or
 * from the whole tree, into memory. */
static char *
change_json(size_t budget, double fraction, bool whole)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(not(eq(ptr, fp, NULL)));
	cr_assert(eq(int, profconv__report_data_diff_tree(fp, b, a, &vo,
	    fraction, budget, 1, whole), 0), "%s", ERRMSG);
	fclose(fp);
	return buf;
}

/*
 * Changes between random profiles (each's stacks the same in part, a
 * type the base lacks, a base of no stacks): the page's data the walk
 * writes is the whole tree's, byte for byte, at budgets and fractions
 * small and large; and the walk is what wrote it.
 */
Test(report_data_change, a_change_as_its_whole_tree)
{
	size_t budgets[] = { 1, 7, 60, 500, 5000 }, i, j, nb;
	double fractions[] = { -1, 0.01 };
	uint64_t seeds[][2] = { { 3, 3 }, { 3, 4 }, { 8, 5 }, { 9, 9 } };
	int nbase[] = { 3000, 2000, 2000, 0 };

	for (i = 0; i < sizeof(seeds) / sizeof(*seeds); i++) {
		nb = i == 2 ? 2 : 3;
		random_into(&a, seeds[i][0], 3000, 3);
		random_into(&b, seeds[i][1], nbase[i], nb);
		for (j = 0; j < sizeof(budgets) / sizeof(*budgets); j++) {
			char *whole = change_json(budgets[j],
			    fractions[j % 2], true);
			char *walked = change_json(budgets[j],
			    fractions[j % 2], false);

			cr_expect(eq(str, walked, whole), "seeds %zu, budget %zu",
			    i, budgets[j]);
			free(whole);
			free(walked);
		}
		cr_expect(eq(int, stream_change(60), 0), "%s", ERRMSG);
		cr_expect(gt(sz, o.dropped, 0));
		fini();
	}
}
