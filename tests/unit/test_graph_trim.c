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

#include "view/graph_build.h"
#include "graph_fixture.h"

TestSuite(graph_trim, .init = setup, .fini = teardown);

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
