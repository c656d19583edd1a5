/* SPDX-License-Identifier: MIT */
/*
 * graph_view_fixture.h - a profile P built by hand, its view V and the
 * graph G made of it, all freed after every test.  For the tests of
 * the graph's nodes (test_graph_address.c, test_graph_build.c) and of
 * the writers that draw a view (test_dot.c, test_callgrind.c,
 * test_speedscope.c); the writers' tests leave G NULL.  The graph
 * tests make G with graph_by() and find its nodes and edges with
 * node() and find_edge().
 */
#ifndef PROFCONV_TEST_GRAPH_VIEW_FIXTURE_H
#define PROFCONV_TEST_GRAPH_VIEW_FIXTURE_H

#include <stdbool.h>
#include <string.h>

#include "view/graph.h"
#include "view_helpers.h"

static struct profconv_profile *p;
static struct profconv_view *v;
static struct pc_graph *g;

/* A new P with one sample type, TYPE in UNIT. */
static inline void
new_profile(const char *type, const char *unit)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, type, unit),
	    0));
}

/* The setup of the suites whose samples are counts. */
static inline void
count_setup(void)
{
	new_profile("samples", "count");
}

static inline void
teardown(void)
{
	profconv__graph_free(g);
	g = NULL;
	profconv_view_free(v);
	v = NULL;
	profconv_profile_free(p);
	p = NULL;
}

/* G, the graph of P by GRAN with NO_INLINE: every node, in pprof's flat
 * order. */
static inline void
graph_by(enum profconv_granularity gran, bool no_inline)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct pc_graph_options go = { 0, 0, 0, 0, 0, PC_GRAPH_FLAT, false,
	    false, NULL };

	o.granularity = gran;
	o.no_inline = no_inline;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__graph_new(&g, v, NULL, &go), 0), "%s",
	    ERRMSG);
}

/* The node of G printed PRINTABLE; the test fails if there is none. */
static inline const struct pc_gnode *
node(const char *printable)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (strcmp(g->nodes[i].printable, printable) == 0)
			return &g->nodes[i];
	cr_assert(false, "no node '%s'", printable);
	return NULL;
}

/* The edge of G from SRC to DST, or NULL. */
static inline const struct pc_gedge *
find_edge(const char *src, const char *dst)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (strcmp(g->nodes[g->edges[i].src].printable, src) == 0 &&
		    strcmp(g->nodes[g->edges[i].dst].printable, dst) == 0)
			return &g->edges[i];
	return NULL;
}

#endif /* PROFCONV_TEST_GRAPH_VIEW_FIXTURE_H */
