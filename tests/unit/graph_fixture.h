/* SPDX-License-Identifier: MIT */
/*
 * graph_fixture.h - a heap profile in P with one mapping MAP, made
 * afresh for every test; samples given as stacks of function names; the
 * graph of a profile and lookups of its nodes and edges; the "diamond"
 * profile.  For test_graph.c and test_graph_trim.c.
 */
#ifndef PROFCONV_TEST_GRAPH_FIXTURE_H
#define PROFCONV_TEST_GRAPH_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "view/graph.h"
#include "view_helpers.h"

static struct profconv_profile *p;
static uint32_t map;

static inline void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	map = add_map(p, 0x400000, 0x500000, "/bin/prog");
}

static inline void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

/* A sample of V on the functions named in STACK, root first, one
 * location each (made on first use). */
static inline void
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

/* graph_of()'s options.  Criterion runs each test in a process of its
 * own, so a test that changes one leaves the next test the defaults:
 * the entropy order, no call tree. */
static enum pc_graph_order order;
static bool call_tree;

static inline struct pc_graph *
graph_of(const struct profconv_profile *cur,
    const struct profconv_profile *base, size_t nodecount, double nodefrac,
    double edgefrac, struct profconv_view **vc, struct profconv_view **vb)
{
	struct pc_graph_options o = { nodecount, nodefrac, edgefrac, 0, 0,
	    order, false, call_tree, NULL };
	struct pc_graph *g = NULL;

	cr_assert(eq(int, profconv_view_new(vc, cur, NULL), 0), "%s", ERRMSG);
	if (base != NULL)
		cr_assert(eq(int, profconv_view_new(vb, base, NULL), 0));
	cr_assert(eq(int, profconv__graph_new(&g, *vc,
	    base != NULL ? *vb : NULL, &o), 0), "%s", ERRMSG);
	return g;
}

static inline const struct pc_gnode *
node(const struct pc_graph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (strcmp(g->nodes[i].name, name) == 0)
			return &g->nodes[i];
	return NULL;
}

/* The edge from SRC to DST, or NULL. */
static inline const struct pc_gedge *
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
static inline void
diamond(void)
{
	STACK(p, map, 100, "main", "a", "c");
	STACK(p, map, 100, "main", "b", "c");
	STACK(p, map, 50, "main", "a", "d");
}

#endif /* PROFCONV_TEST_GRAPH_FIXTURE_H */
