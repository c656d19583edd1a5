/* SPDX-License-Identifier: MIT */
/*
 * test_graph_build.c - one build of the call graph's nodes, edges and
 * tags from a view's samples (lib/view/graph_build.c), checked against
 * pprof's graph.New worked by hand: a node's cum counted once per
 * sample however often it recurs, no edge from a node to itself, edges
 * counted once per sample; nodes by line named "name file:line" with
 * the file cleaned; a sample's string labels as its tag, "k:v" sorted
 * and joined by the two characters "\n".
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_view_fixture.h"

TestSuite(graph_build, .init = count_setup, .fini = teardown);

/* The graph of P by GRAN, every node, in pprof's flat order. */
static void
graph(enum profconv_granularity gran)
{
	graph_by(gran, false);
}

/* The edge from SRC to DST, or NULL: some tests check that an edge is
 * absent. */
static const struct pc_gedge *
edge(const char *src, const char *dst)
{
	return find_edge(src, dst);
}

/*
 * main -> f -> f -> g (10) and main -> f -> g -> f (1).  f's cum is
 * 11, not 21 or 22: once per sample.  No f -> f edge (pprof's
 * "n != parent").  f -> g is on both samples: 11; g -> f on the
 * second: 1.  Flat: g 10, f 1.
 */
Test(graph_build, recursion_counted_once_per_sample)
{
	uint32_t lm, lf, lg;

	lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	lf = LOC1(p, 0, 0x20, add_fn(p, "f", ""), 0);
	lg = LOC1(p, 0, 0x30, add_fn(p, "g", ""), 0);
	SAMPLE(p, (int64_t[]){ 10 }, lg, lf, lf, lm);
	SAMPLE(p, (int64_t[]){ 1 }, lf, lg, lf, lm);
	graph(PROFCONV_BY_FUNCTION);
	cr_assert(eq(sz, g->nnodes, 3));
	cr_expect(eq(i64, node("main")->cum, 11));
	cr_expect(eq(i64, node("f")->cum, 11));
	cr_expect(eq(i64, node("f")->flat, 1));
	cr_expect(eq(i64, node("g")->cum, 11));
	cr_expect(eq(i64, node("g")->flat, 10));
	cr_expect(zero(ptr, (void *)edge("f", "f")));
	cr_expect(zero(ptr, (void *)edge("g", "g")));
	cr_assert(not(zero(ptr, (void *)edge("main", "f"))));
	cr_expect(eq(i64, edge("main", "f")->weight, 11));
	cr_assert(not(zero(ptr, (void *)edge("f", "g"))));
	cr_expect(eq(i64, edge("f", "g")->weight, 11));
	cr_assert(not(zero(ptr, (void *)edge("g", "f"))));
	cr_expect(eq(i64, edge("g", "f")->weight, 1));
	cr_expect(eq(sz, g->nedges, 3));
	cr_expect(eq(i64, g->total, 11));
}

/* By line: a node per function and line, "name file:line", the file
 * cleaned as Go's filepath.Clean; one function on two lines is two
 * nodes. */
Test(graph_build, nodes_by_line)
{
	uint32_t m = add_fn(p, "main", "/src/x/../main.c");
	uint32_t lm1 = LOC1(p, 0, 0x10, m, 7);
	uint32_t lm2 = LOC1(p, 0, 0x18, m, 9);

	SAMPLE(p, (int64_t[]){ 3 }, lm1);
	SAMPLE(p, (int64_t[]){ 4 }, lm2);
	SAMPLE(p, (int64_t[]){ 5 }, lm1);
	graph(PROFCONV_BY_LINE);
	cr_assert(eq(sz, g->nnodes, 2));
	cr_expect(eq(i64, node("main /src/main.c:7")->flat, 8));
	cr_expect(eq(i64, node("main /src/main.c:9")->flat, 4));
	cr_expect(eq(str, (char *)node("main /src/main.c:9")->file,
	    "/src/main.c"));
	cr_expect(eq(i64, node("main /src/main.c:9")->line, 9));
	/* Flat order: 8 before 4. */
	cr_expect(eq(str, (char *)g->nodes[0].printable,
	    "main /src/main.c:7"));
}

/* A sample's string labels are its nodes' tag: sorted, "k:v" joined by
 * "\n" (two characters); a sample without them is no tag's. */
Test(graph_build, string_labels_as_tags)
{
	uint32_t l = LOC1(p, 0, 0x10, add_fn(p, "leaf", ""), 0);
	const struct pc_gnode *n;
	int64_t v1 = 6;
	bool found = false;

	cr_assert(eq(int, profconv_profile_add_sample(p, &l, 1, &v1,
	    (struct profconv_label[]){ { "thread", "w", 0, NULL },
	    { "a", "x", 0, NULL } }, 2), 0));
	graph(PROFCONV_BY_FUNCTION);
	n = node("leaf");
	for (size_t i = n->tag_off; i < n->tag_off + n->ntags; i++) {
		const struct pc_gtag *t = &g->tags[i];

		if (t->numeric)
			continue;
		cr_expect(eq(str, (char *)t->group, "a:x\\nthread:w"));
		cr_expect(eq(i64, t->flat, 6));
		found = true;
	}
	cr_expect(found, "leaf has no label tag");
}

/*
 * A size tag per node and size: 4,200 functions called from main, each
 * with one of 1,023 sizes (1 to 1023 bytes: a label each), make more
 * (node, size) pairs than the build's table of them holds (4M cells:
 * rows of 4,202 nodes for the first 998 sizes); the sizes past it are
 * kept in a map.  Every function has its size's tag, and main each
 * size's, whichever place holds them.
 */
Test(graph_build, more_size_tags_than_the_table_holds)
{
	enum { N = 4200, SIZES = 1023 };
	uint32_t lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	const struct pc_gnode *n;
	char name[16];
	int i;

	for (i = 0; i < N; i++) {
		uint32_t l[2];
		int64_t w = 2;

		snprintf(name, sizeof(name), "f%d", i);
		l[0] = LOC1(p, 0, 0x100 + (uint64_t)i * 16, add_fn(p, name, ""),
		    0);
		l[1] = lm;
		cr_assert(eq(int, profconv_profile_add_sample(p, l, 2, &w,
		    (struct profconv_label[]){ { "bytes", NULL,
		    i % SIZES + 1, NULL } }, 1), 0));
	}
	graph(PROFCONV_BY_FUNCTION);
	cr_assert(eq(sz, g->nnodes, N + 1));
	for (i = 0; i < N; i++) {
		const struct pc_gtag *t;

		snprintf(name, sizeof(name), "f%d", i);
		n = node(name);
		cr_assert(eq(sz, n->ntags, 1), "%s", name);
		t = &g->tags[n->tag_off];
		cr_expect(t->numeric, "%s", name);
		cr_expect(eq(i64, t->value, i % SIZES + 1), "%s", name);
		cr_expect(eq(i64, t->flat, 2), "%s", name);
		cr_expect(eq(i64, t->cum, 2), "%s", name);
	}
	n = node("main");
	cr_assert(eq(sz, n->ntags, SIZES));
	for (i = 0; i < SIZES; i++) {
		const struct pc_gtag *t = &g->tags[n->tag_off + i];
		/* How many functions have this size. */
		int64_t k = N / SIZES + (t->value - 1 < N % SIZES);

		cr_expect(eq(i64, t->cum, 2 * k), "size %" PRId64, t->value);
		cr_expect(eq(i64, t->flat, 0));
	}
}

/* Samples of one stack whose labels alternate: each label's samples
 * add up in its own tag, however the build joins them. */
Test(graph_build, one_stack_with_alternating_labels)
{
	uint32_t l[2];
	const struct pc_gnode *n;
	int64_t w[4] = { 1, 20, 300, 4000 };
	int64_t want_a = 0, want_b = 0;
	size_t i, seen = 0;

	l[0] = LOC1(p, 0, 0x20, add_fn(p, "f", ""), 0);
	l[1] = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	for (i = 0; i < 4; i++) {
		cr_assert(eq(int, profconv_profile_add_sample(p, l, 2, &w[i],
		    (struct profconv_label[]){ { "thread", i % 2 ? "b" : "a",
		    0, NULL } }, 1), 0));
		*(i % 2 ? &want_b : &want_a) += w[i];
	}
	graph(PROFCONV_BY_FUNCTION);
	n = node("f");
	cr_expect(eq(i64, n->flat, 4321));
	for (i = n->tag_off; i < n->tag_off + n->ntags; i++) {
		const struct pc_gtag *t = &g->tags[i];

		cr_expect(eq(i64, t->flat, strcmp(t->group, "thread:a") == 0 ?
		    want_a : want_b), "%s", t->group);
		seen++;
	}
	cr_expect(eq(sz, seen, 2));
}

/*
 * More sets of labels than the build keeps at hand, in an order that
 * sends each back after others pushed it out: 30,000 samples on three
 * stacks, each of one of 150 sizes, drawn by a fixed generator.  A set's
 * later samples on a stack join its first one there, whose copy of the
 * tags no later set may write over: each node's tag of a size holds
 * what that size's samples on its stack add up to.
 */
Test(graph_build, label_sets_that_come_back)
{
	enum { STACKS = 3, SIZES = 150, N = 30000 };
	static int64_t want[STACKS][SIZES + 1];
	uint32_t lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0), lf[STACKS];
	uint64_t x = 12345;
	const struct pc_gnode *n;
	char name[16];
	int i, k;

	memset(want, 0, sizeof(want));
	for (k = 0; k < STACKS; k++) {
		snprintf(name, sizeof(name), "f%d", k);
		lf[k] = LOC1(p, 0, 0x100 + (uint64_t)k * 16,
		    add_fn(p, name, ""), 0);
	}
	for (i = 0; i < N; i++) {
		uint32_t l[2];
		int64_t w = i % 7 + 1, size;

		x = x * 6364136223846793005u + 1442695040888963407u;
		k = (int)(x >> 60) % STACKS;
		size = (int64_t)((x >> 33) % SIZES) + 1;
		l[0] = lf[k];
		l[1] = lm;
		cr_assert(eq(int, profconv_profile_add_sample(p, l, 2, &w,
		    (struct profconv_label[]){ { "bytes", NULL, size, NULL } },
		    1), 0));
		want[k][size] += w;
	}
	graph(PROFCONV_BY_FUNCTION);
	for (k = 0; k < STACKS; k++) {
		size_t t, seen = 0, sizes = 0;

		snprintf(name, sizeof(name), "f%d", k);
		n = node(name);
		for (t = n->tag_off; t < n->tag_off + n->ntags; t++) {
			const struct pc_gtag *tg = &g->tags[t];

			cr_assert(tg->numeric, "%s", name);
			cr_assert(tg->value >= 1 && tg->value <= SIZES);
			cr_expect(eq(i64, tg->cum, want[k][tg->value]),
			    "%s size %" PRId64, name, tg->value);
			cr_expect(eq(i64, tg->flat, tg->cum));
			seen++;
		}
		for (i = 1; i <= SIZES; i++)
			sizes += want[k][i] != 0;
		cr_expect(eq(sz, seen, sizes), "%s", name);
	}
	n = node("main");
	cr_expect(eq(sz, n->ntags, SIZES));
}
