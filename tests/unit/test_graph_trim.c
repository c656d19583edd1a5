/* SPDX-License-Identifier: MIT */
/*
 * test_graph_trim.c - the call graph's order and cuts
 * (lib/view/graph_trim.c) on profiles built by hand, against values
 * worked out here from pprof's rules (views-reference.md section 3.3):
 * the entropy order, pprof's flat and cum orders, node and edge cutoffs,
 * nodecount and residual edges.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "view/graph.h"
#include "view/graph_build.h"
#include "view_helpers.h"

static struct profconv_profile *p;
static uint32_t map;

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	map = add_map(p, 0x400000, 0x500000, "/bin/prog");
}

static void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

TestSuite(graph_trim, .init = setup, .fini = teardown);

/* A sample of V on the functions named in STACK, root first, one
 * location each (made on first use). */
static void
stack(struct profconv_profile *prof, uint32_t m, int64_t v,
    const char *const *names, size_t n)
{
	uint32_t locs[16];
	size_t i;

	cr_assert(n <= 16);
	for (i = 0; i < n; i++) {
		uint32_t fn = add_fn(prof, names[i], "/src/prog.c");

		locs[n - 1 - i] = LOC1(prof, m, 0x401000 + 0x10 * fn, fn, 1);
	}
	cr_assert(eq(int, profconv_profile_add_sample(prof, locs, n, &v, NULL,
	    0), 0), "%s", ERRMSG);
}
#define STACK(prof, m, v, ...) \
	stack((prof), (m), (v), (const char *const[]){ __VA_ARGS__ }, \
	    sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

static enum pc_graph_order order;	/* graph_of()'s node order */

static struct pc_graph *
graph_of(const struct profconv_profile *cur,
    const struct profconv_profile *base, size_t nodecount, double nodefrac,
    double edgefrac, struct profconv_view **vc, struct profconv_view **vb)
{
	struct pc_graph_options o = { nodecount, nodefrac, edgefrac, 0, 0,
	    order, false, false, NULL };
	struct pc_graph *g = NULL;

	cr_assert(eq(int, profconv_view_new(vc, cur, NULL), 0), "%s", ERRMSG);
	if (base != NULL)
		cr_assert(eq(int, profconv_view_new(vb, base, NULL), 0));
	cr_assert(eq(int, profconv__graph_new(&g, *vc,
	    base != NULL ? *vb : NULL, &o), 0), "%s", ERRMSG);
	return g;
}

static const struct pc_gnode *
node(const struct pc_graph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (strcmp(g->nodes[i].name, name) == 0)
			return &g->nodes[i];
	return NULL;
}

/* The edge from SRC to DST, or NULL. */
static const struct pc_gedge *
edge(const struct pc_graph *g, const char *src, const char *dst)
{
	size_t i;

	for (i = 0; i < g->nedges; i++)
		if (strcmp(g->nodes[g->edges[i].src].name, src) == 0 &&
		    strcmp(g->nodes[g->edges[i].dst].name, dst) == 0)
			return &g->edges[i];
	return NULL;
}

/*
 * main->a->c 100, main->b->c 100, main->a->d 50.  Entropy scores
 * (score * cum + flat, score = in side + out side):
 *   c:    in {100, 100}: H = 1; a leaf: +1          -> 2 * 200 + 200 = 600
 *   main: an entry: +1; out {150, 100}: H(.6,.4) = 0.97095
 *                                                   -> 1.97095 * 250 = 492
 *   a:    in {150}: 0; out {100, 50}: H(2/3,1/3) = 0.91830
 *                                                   -> 0.9183 * 150 = 137
 *   d:    in {50}: 0; a leaf: +1                    -> 50 + 50 = 100
 *   b:    in {100}: 0; out {100}: 0                 -> 0
 */
static void
diamond(void)
{
	STACK(p, map, 100, "main", "a", "c");
	STACK(p, map, 100, "main", "b", "c");
	STACK(p, map, 50, "main", "a", "d");
}

Test(graph_trim, entropy_order)
{
	static const char *const want[] = { "c", "main", "a", "d", "b" };
	struct profconv_view *vc = NULL, *vb = NULL;
	struct pc_graph *g;
	size_t i;

	diamond();
	g = graph_of(p, NULL, 0, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 5));
	for (i = 0; i < 5; i++)
		cr_expect(eq(str, (char *)g->nodes[i].name, (char *)want[i]),
		    "node %zu", i);
	cr_expect(eq(i64, node(g, "c")->flat, 200));
	cr_expect(eq(i64, node(g, "main")->cum, 250));
	cr_expect(eq(i64, node(g, "main")->flat, 0));
	cr_expect(eq(i64, edge(g, "main", "a")->weight, 150));
	cr_expect(eq(i64, g->total, 250));
	/* Edges heaviest first. */
	cr_expect(eq(i64, g->edges[0].weight, 150));
	for (i = 0; i < g->nedges; i++)
		cr_expect(not(g->edges[i].residual || g->edges[i].inl));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/* Node cutoff: |cum| < nodefraction x the sum of flat (250), strictly. */
Test(graph_trim, node_cutoff_is_strict)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	struct pc_graph *g;

	diamond();
	g = graph_of(p, NULL, 80, 0.2, 0, &vc, &vb);	/* cut 50: d stays */
	cr_expect(eq(sz, g->nnodes, 5));
	cr_expect(eq(sz, g->dropped_nodes, 0));
	profconv__graph_free(g);
	profconv_view_free(vc);
	g = graph_of(p, NULL, 80, 0.3, 0, &vc, &vb);	/* cut 75: d goes */
	cr_expect(eq(sz, g->nnodes, 4));
	cr_expect(eq(sz, g->dropped_nodes, 1));
	cr_expect(zero(ptr, (void *)node(g, "d")));
	/* d's 50 stays in a's cum, but is no one's flat: d was the leaf. */
	cr_expect(eq(i64, node(g, "a")->cum, 150));
	cr_expect(eq(i64, node(g, "a")->flat, 0));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/*
 * Edge cutoff: |w| < edgefraction x 250, strictly; 0.5 -> 125: only
 * main->a (150) stays; 0.4 -> 100: only a->d (50) goes.  As in pprof,
 * the legend's count of dropped edges is of the last trim only: with a
 * nodecount that keeps every node, the edges went before it.
 */
Test(graph_trim, edge_cutoff)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	struct pc_graph *g;

	diamond();
	g = graph_of(p, NULL, 0, 0, 0.5, &vc, &vb);
	cr_expect(eq(sz, g->nnodes, 5));
	cr_expect(eq(sz, g->nedges, 1));
	cr_expect(eq(sz, g->dropped_edges, 4));
	cr_expect(not(zero(ptr, (void *)edge(g, "main", "a"))));
	profconv__graph_free(g);
	profconv_view_free(vc);
	g = graph_of(p, NULL, 0, 0, 0.4, &vc, &vb);
	cr_expect(eq(sz, g->dropped_edges, 1));
	cr_expect(eq(sz, g->nedges, 4));
	cr_expect(zero(ptr, (void *)edge(g, "a", "d")));
	cr_expect(not(zero(ptr, (void *)edge(g, "b", "c"))));
	profconv__graph_free(g);
	profconv_view_free(vc);
	g = graph_of(p, NULL, 80, 0, 0.5, &vc, &vb);
	cr_expect(eq(sz, g->nedges, 1));
	cr_expect(eq(sz, g->dropped_edges, 0));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/*
 * nodecount keeps the first nodes of the entropy order.  With 2 (c and
 * main) both paths into c lose their middle node: one residual edge
 * main...c of 200.  With 3 (c, main, a), main->b->c makes a residual
 * edge main...c of 100, but main->a->c joins the two: it is removed.
 */
Test(graph_trim, nodecount_and_residual_edges)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	const struct pc_gedge *e;
	struct pc_graph *g;

	diamond();
	g = graph_of(p, NULL, 2, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 2));
	cr_expect(eq(str, (char *)g->nodes[0].name, "c"));
	cr_expect(eq(str, (char *)g->nodes[1].name, "main"));
	cr_expect(eq(sz, g->orig_count, 5));
	cr_assert(eq(sz, g->nedges, 1));
	e = edge(g, "main", "c");
	cr_assert(not(zero(ptr, (void *)e)));
	cr_expect(e->residual);
	cr_expect(eq(i64, e->weight, 200));
	profconv__graph_free(g);
	profconv_view_free(vc);

	g = graph_of(p, NULL, 3, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 3));
	cr_expect(zero(ptr, (void *)edge(g, "main", "c")));
	cr_expect(eq(sz, g->nedges, 2));
	cr_expect(not(edge(g, "main", "a")->residual));
	cr_expect(eq(i64, edge(g, "a", "c")->weight, 100));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/*
 * pprof's FlatNameOrder: |flat|, then name, then |cum|: c 200, d 50,
 * then a, b and main with 0 by name.  CumNameOrder: |cum|, then name:
 * main 250, c 200, a 150, b 100, d 50.
 */
Test(graph_trim, flat_and_cum_orders)
{
	static const char *const flat[] = { "c", "d", "a", "b", "main" };
	static const char *const cum[] = { "main", "c", "a", "b", "d" };
	struct profconv_view *vc = NULL, *vb = NULL;
	struct pc_graph *g;
	size_t i;

	diamond();
	order = PC_GRAPH_FLAT;
	g = graph_of(p, NULL, 0, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 5));
	for (i = 0; i < 5; i++)
		cr_expect(eq(str, (char *)g->nodes[i].name, (char *)flat[i]),
		    "flat order, node %zu", i);
	profconv__graph_free(g);
	profconv_view_free(vc);
	order = PC_GRAPH_CUM;
	g = graph_of(p, NULL, 0, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 5));
	for (i = 0; i < 5; i++)
		cr_expect(eq(str, (char *)g->nodes[i].name, (char *)cum[i]),
		    "cum order, node %zu", i);
	profconv__graph_free(g);
	profconv_view_free(vc);
	order = PC_GRAPH_VISUAL;
}

/* |v| as Go's: two's complement, so the most negative stays itself. */
Test(graph_trim, abs64_wraps_as_go)
{
	cr_expect(eq(i64, profconv__graph_abs64(-5), 5));
	cr_expect(eq(i64, profconv__graph_abs64(7), 7));
	cr_expect(eq(i64, profconv__graph_abs64(INT64_MIN + 1), INT64_MAX));
	cr_expect(eq(i64, profconv__graph_abs64(INT64_MIN), INT64_MIN));
}
