/* SPDX-License-Identifier: MIT */
/*
 * test_graph_count.c - one build of the call graph over the samples
 * (lib/view/graph_count.c), which a build of many samples splits among
 * threads and adds up: the same graph on one thread and on several,
 * every node, tag and edge, in the same order, trimmed or not, as a
 * call tree, with tags by class or sample by sample.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_view_fixture.h"
#include "view/graph_build.h"

TestSuite(graph_count, .init = count_setup, .fini = teardown);

enum {
	NFN = 24,
	MAXDEPTH = 8,
	NSAMPLES = 50000	/* stacks past the 32,768 a build splits */
};

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * NSAMPLES random samples into Q: stacks of 1 to MAXDEPTH of NFN
 * functions (recursion too) and four inline chains, weights 1..999
 * (every tenth sample's negative), a thread label on some and a size on
 * most.  Among them, every 64th sample is main -> g0 -> g1, made so that
 * the first and the last of three threads see the edge g0 -> g1
 * differently: in the first third of the samples through an inlined
 * call, up to three quarters through a light function h, which the cuts
 * leave out (a residual edge), then as a plain call (to f5: the view
 * would take main -> g0 -> g1 for the inlined stack).  Each thread's edge is
 * inline, or residual, or neither; the whole graph's is residual and
 * not inline, as one thread's is.
 */
static void
random_profile(struct profconv_profile *q, uint64_t seed)
{
	uint32_t loc[NFN + 4], fn[NFN], fg0, fg1, g0, g1, g01, h, mainf;
	uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
	char name[8];
	int i, j;

	for (i = 0; i < NFN; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		fn[i] = add_fn(q, name, "");
		loc[i] = LOC1(q, 0, 0x100 + (uint64_t)i * 16, fn[i], 0);
	}
	/* Inline chains among functions that also call each other: an
	 * edge is inline only when every call it stands for was. */
	loc[NFN] = LOCN(q, 0, 0x800, 10, fn[1], fn[0]);
	loc[NFN + 1] = LOCN(q, 0, 0x810, 20, fn[2], fn[1]);
	loc[NFN + 2] = LOCN(q, 0, 0x820, 30, fn[3], fn[2], fn[0]);
	loc[NFN + 3] = LOCN(q, 0, 0x830, 40, fn[1], fn[2]);
	mainf = LOC1(q, 0, 0x900, add_fn(q, "main", ""), 0);
	fg0 = add_fn(q, "g0", "");
	fg1 = add_fn(q, "g1", "");
	g0 = LOC1(q, 0, 0x910, fg0, 0);
	g1 = LOC1(q, 0, 0x920, fg1, 0);
	h = LOC1(q, 0, 0x930, add_fn(q, "h", ""), 0);
	g01 = LOCN(q, 0, 0x940, 50, fg1, fg0);
	for (i = 0; i < NSAMPLES; i++) {
		struct profconv_label lab[2];
		uint32_t ids[MAXDEPTH];
		int depth = 1 + (int)(next(&s) % MAXDEPTH), nlab = 0;
		int64_t w = 1 + (int64_t)(next(&s) % 999);

		if (i % 64 == 0) {
			int64_t big = 3000, light = 1;

			if (i < NSAMPLES / 3)	/* inlined */
				cr_assert(eq(int, profconv_profile_add_sample(
				    q, (uint32_t[]){ g01, mainf }, 2, &big,
				    NULL, 0), 0));
			else if (i < 3 * NSAMPLES / 4)	/* through h */
				cr_assert(eq(int, profconv_profile_add_sample(
				    q, (uint32_t[]){ g1, h, g0, mainf }, 4,
				    &light, NULL, 0), 0));
			else
				cr_assert(eq(int, profconv_profile_add_sample(
				    q, (uint32_t[]){ loc[5], g1, g0, mainf }, 4,
				    &big, NULL, 0), 0));
			continue;
		}
		if (i % 10 == 9)
			w = -w;
		/* Callers among the first functions, leaves among all:
		 * a graph with heavy nodes and a long tail to cut. */
		for (j = 0; j < depth; j++)
			ids[j] = loc[next(&s) % (j + 1 < depth ? NFN + 4 :
			    6)];
		if (next(&s) % 4 == 0)
			lab[nlab++] = (struct profconv_label){ "thread",
			    next(&s) % 2 ? "a" : "b", 0, NULL };
		if (next(&s) % 8 != 0)
			lab[nlab++] = (struct profconv_label){ "bytes", NULL,
			    8 << (next(&s) % 6), NULL };
		cr_assert(eq(int, profconv_profile_add_sample(q, ids,
		    (size_t)depth, &w, lab, (size_t)nlab), 0));
	}
}

/* The graph of P (minus Q's when Q is not NULL) with GO on JOBS
 * threads into *GG, its views into *VV and *VQ. */
static void
graph_on(unsigned int jobs, const struct pc_graph_options *go,
    const struct profconv_profile *q, struct profconv_view **vv,
    struct profconv_view **vq, struct pc_graph **gg)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	o.granularity = PROFCONV_BY_FUNCTION;
	o.jobs = jobs;
	*vq = NULL;
	cr_assert(eq(int, profconv_view_new(vv, p, &o), 0), "%s", ERRMSG);
	if (q != NULL)
		cr_assert(eq(int, profconv_view_new(vq, q, &o), 0), "%s",
		    ERRMSG);
	cr_assert(eq(int, profconv__graph_new(gg, *vv, *vq, go), 0), "%s",
	    ERRMSG);
}

/* A and B are one graph: the same nodes, tags and edges in order. */
static void
same_graph(const struct pc_graph *a, const struct pc_graph *b,
    const char *what)
{
	size_t i;

	cr_assert(eq(sz, a->nnodes, b->nnodes), "%s", what);
	cr_assert(eq(sz, a->nedges, b->nedges), "%s", what);
	cr_assert(eq(sz, a->ntags, b->ntags), "%s", what);
	cr_expect(eq(sz, a->orig_count, b->orig_count), "%s", what);
	cr_expect(eq(sz, a->dropped_nodes, b->dropped_nodes), "%s", what);
	cr_expect(eq(sz, a->dropped_edges, b->dropped_edges), "%s", what);
	for (i = 0; i < a->nnodes; i++) {
		const struct pc_gnode *x = &a->nodes[i], *y = &b->nodes[i];

		cr_assert(eq(str, (char *)x->printable, (char *)y->printable),
		    "%s node %zu", what, i);
		cr_expect(eq(i64, x->flat, y->flat), "%s %s", what,
		    x->printable);
		cr_expect(eq(i64, x->cum, y->cum), "%s %s", what,
		    x->printable);
		cr_expect(eq(i64, x->base, y->base), "%s %s", what,
		    x->printable);
		cr_expect(eq(i64, x->cur, y->cur), "%s %s", what,
		    x->printable);
		cr_expect(eq(sz, x->tag_off, y->tag_off), "%s", what);
		cr_expect(eq(sz, x->ntags, y->ntags), "%s", what);
		cr_expect(eq(sz, x->caller, y->caller), "%s", what);
	}
	for (i = 0; i < a->nedges; i++) {
		const struct pc_gedge *x = &a->edges[i], *y = &b->edges[i];

		cr_expect(eq(sz, x->src, y->src), "%s edge %zu", what, i);
		cr_expect(eq(sz, x->dst, y->dst), "%s edge %zu", what, i);
		cr_expect(eq(i64, x->weight, y->weight), "%s edge %zu", what,
		    i);
		cr_expect(eq(int, x->residual, y->residual), "%s edge %zu",
		    what, i);
		cr_expect(eq(int, x->inl, y->inl), "%s edge %zu", what, i);
	}
	for (i = 0; i < a->ntags; i++) {
		const struct pc_gtag *x = &a->tags[i], *y = &b->tags[i];

		cr_expect(eq(str, (char *)x->group, (char *)y->group));
		cr_expect(eq(str, (char *)x->name, (char *)y->name));
		cr_expect(eq(int, x->numeric, y->numeric));
		cr_expect(eq(i64, x->value, y->value));
		cr_expect(eq(i64, x->flat, y->flat), "%s tag %zu", what, i);
		cr_expect(eq(i64, x->cum, y->cum), "%s tag %zu", what, i);
	}
}

/* P's graph (minus Q's) with GO on 1, 2 and 3 threads: one graph; the
 * builds of 2 and 3 split (BY_CLASS: and counted tags by class). */
static void
same_on_threads(const struct pc_graph_options *go,
    const struct profconv_profile *q, bool by_class, const char *what)
{
	struct profconv_view *v1 = NULL, *q1 = NULL, *vn = NULL, *qn = NULL;
	struct pc_graph *g1 = NULL, *gn = NULL;
	unsigned int jobs;

	graph_on(1, go, q, &v1, &q1, &g1);
	cr_assert(ge(sz, g1->build->ngsamples, 32768), "%s", what);
	cr_expect(eq(sz, g1->build->nparts, 0), "%s", what);
	cr_expect(eq(int, g1->build->by_class, by_class), "%s", what);
	for (jobs = 2; jobs <= 3; jobs++) {
		graph_on(jobs, go, q, &vn, &qn, &gn);
		cr_expect(eq(sz, gn->build->nparts, jobs), "%s", what);
		same_graph(g1, gn, what);
		profconv__graph_free(gn);
		profconv_view_free(vn);
		profconv_view_free(qn);
	}
	profconv__graph_free(g1);
	profconv_view_free(v1);
	profconv_view_free(q1);
}

/* With GO on one thread, g0 -> g1 is an edge, residual, not inline:
 * the threads' parts of it differ, as random_profile() meant. */
static void
g01_is_residual_not_inline(const struct pc_graph_options *go)
{
	struct profconv_view *v1 = NULL, *q1 = NULL;
	struct pc_graph *g1 = NULL;
	size_t i, found = 0;

	graph_on(1, go, NULL, &v1, &q1, &g1);
	for (i = 0; i < g1->nnodes; i++)
		cr_expect(strcmp(g1->nodes[i].printable, "h") != 0);
	for (i = 0; i < g1->nedges; i++) {
		const struct pc_gedge *e = &g1->edges[i];

		if (strcmp(g1->nodes[e->src].printable, "g0") != 0 ||
		    strcmp(g1->nodes[e->dst].printable, "g1") != 0)
			continue;
		found++;
		cr_expect(e->residual);
		cr_expect(not(e->inl));
	}
	cr_expect(eq(sz, found, 1));
	profconv__graph_free(g1);
	profconv_view_free(v1);
}

Test(graph_count, one_graph_on_any_number_of_threads)
{
	struct pc_graph_options all = { 0, 0, 0, 0, 0, PC_GRAPH_FLAT, false,
	    false, NULL };
	struct pc_graph_options cut = { 12, 0.02, 0.005, 0, 0,
	    PC_GRAPH_VISUAL, false, false, NULL };
	struct pc_graph_options tree = { 30, 0.01, 0.005, 0, 0,
	    PC_GRAPH_VISUAL, false, true, NULL };
	/* Every node above 1%: h goes, g0 -> g1 is residual. */
	struct pc_graph_options heavy = { 0, 0.01, 0, 0, 0, PC_GRAPH_FLAT,
	    false, false, NULL };

	random_profile(p, 1);
	same_on_threads(&all, NULL, true, "every node");
	same_on_threads(&cut, NULL, true, "cut to 12 nodes");
	same_on_threads(&heavy, NULL, true, "above 1%");
	g01_is_residual_not_inline(&heavy);
	/* A context a key: too many cells for classes. */
	same_on_threads(&tree, NULL, false, "call tree");
}

/*
 * A sample with 16 sizes: the tags are counted sample by sample, in
 * tables of the build's own, so the builds that count them take one
 * thread; the first, of weights only, still splits.  The graph is the
 * same.
 */
Test(graph_count, tags_sample_by_sample_on_one_thread)
{
	struct pc_graph_options cut = { 12, 0.02, 0.005, 0, 0,
	    PC_GRAPH_VISUAL, false, false, NULL };
	struct profconv_label many[16];
	uint32_t x = LOC1(p, 0, 0x900, add_fn(p, "x", ""), 0);
	int64_t w = 5;
	int i;

	random_profile(p, 2);
	for (i = 0; i < 16; i++)
		many[i] = (struct profconv_label){ "bytes", NULL, 8 + i,
		    NULL };
	cr_assert(eq(int, profconv_profile_add_sample(p, &x, 1, &w, many,
	    16), 0));
	same_on_threads(&cut, NULL, false, "sample by sample");
}

/* A diff (pprof's -diff_base): the base's samples negated, its part of
 * each node's cum kept apart; the same on any number of threads. */
Test(graph_count, a_diff_on_any_number_of_threads)
{
	struct pc_graph_options cut = { 20, 0.01, 0.005, 0, 0,
	    PC_GRAPH_VISUAL, false, false, NULL };
	struct profconv_profile *q = NULL;

	random_profile(p, 3);
	cr_assert(eq(int, profconv_profile_new(&q), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(q, "samples",
	    "count"), 0));
	random_profile(q, 4);
	same_on_threads(&cut, q, true, "diff");
	profconv_profile_free(q);
}

/*
 * More edges than a build's first index of them holds, each looked up
 * again after the index grew: main -> aI -> bJ for 150 x 150 pairs, then
 * main -> aI -> bJ -> c for each.  Every edge is found again, not made
 * twice nor taken for another with one of its ends: each aI -> bJ once,
 * with both its samples' weights, each bJ -> c with the second's.
 */
Test(graph_count, edges_found_again_after_the_index_grew)
{
	enum { NA = 150 };
	static bool seen[NA][NA];
	uint32_t lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	uint32_t lc = LOC1(p, 0, 0x20, add_fn(p, "c", ""), 0), la[NA], lb[NA];
	char name[16];
	size_t e, ab = 0;
	int i, j, round;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < NA; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		la[i] = LOC1(p, 0, 0x1000 + (uint64_t)i * 16,
		    add_fn(p, name, ""), 0);
		snprintf(name, sizeof(name), "b%d", i);
		lb[i] = LOC1(p, 0, 0x10000 + (uint64_t)i * 16,
		    add_fn(p, name, ""), 0);
	}
	for (round = 0; round < 2; round++)
		for (i = 0; i < NA; i++)
			for (j = 0; j < NA; j++) {
				uint32_t l[4] = { lc, lb[j], la[i], lm };
				int64_t w = round * 100000 + i * NA + j + 1;

				cr_assert(eq(int, profconv_profile_add_sample(p,
				    l + 1 - round, 3 + (size_t)round, &w, NULL,
				    0), 0));
			}
	graph_by(PROFCONV_BY_FUNCTION, false);
	for (e = 0; e < g->nedges; e++) {
		const char *src = g->nodes[g->edges[e].src].printable;
		const char *dst = g->nodes[g->edges[e].dst].printable;

		if (src[0] == 'a' && dst[0] == 'b') {
			i = atoi(src + 1);
			j = atoi(dst + 1);
			cr_assert(eq(int, seen[i][j], 0), "%s -> %s twice", src,
			    dst);
			seen[i][j] = true;
			cr_expect(eq(i64, g->edges[e].weight, 100000 +
			    2 * ((int64_t)i * NA + j + 1)), "%s -> %s", src,
			    dst);
			ab++;
		} else if (dst[0] == 'c') {
			j = atoi(src + 1);
			cr_expect(eq(i64, g->edges[e].weight, NA * 100000 +
			    (int64_t)NA * (NA - 1) / 2 * NA + NA * (j + 1)),
			    "%s -> c", src);
		}
	}
	cr_expect(eq(sz, ab, (size_t)NA * NA));
	cr_expect(eq(sz, g->nedges, (size_t)NA * NA + 2 * NA));
}
