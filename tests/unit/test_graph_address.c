/* SPDX-License-Identifier: MIT */
/*
 * test_graph_address.c - the call graph's nodes by address
 * (lib/view/graph_address.c), as pprof's -addresses makes them: a node
 * per address, function, file and line, so a location with an inline
 * chain is a node per line, outermost first, joined by inline edges; a
 * location without lines is its address and module.  Names are pprof's
 * PrintableName: the address in 16 hex digits, the name, file:line.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "graph_view_fixture.h"

TestSuite(graph_address, .init = count_setup, .fini = teardown);

/*
 * /usr/bin/app at 0x400000: main at 0x401000 (main.c:12); at 0x402000
 * grow (pool.c:40) inlined into main (main.c:41); at 0x404abc nothing
 * symbolized.  Samples: 2 on grow's location under main's, 3 on the
 * bare address under main's.
 */
static void
profile(void)
{
	uint32_t map, m, gr, l1, l2, l3;

	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "/src/main.c");
	gr = add_fn(p, "grow", "/src/pool.c");
	l1 = LOC1(p, map, 0x401000, m, 12);
	l2 = LOCN(p, map, 0x402000, 40, gr, m);
	l3 = add_loc(p, map, 0x404abc, NULL, 0, 0);
	SAMPLE(p, (int64_t[]){ 2 }, l2, l1);
	SAMPLE(p, (int64_t[]){ 3 }, l3, l1);
}

/* The graph of P by address, every node, with NO_INLINE. */
static void
graph(bool no_inline)
{
	graph_by(PROFCONV_BY_ADDRESS, no_inline);
}

/* The edge from SRC to DST; the test fails if there is none. */
static const struct pc_gedge *
edge(const char *src, const char *dst)
{
	const struct pc_gedge *e = find_edge(src, dst);

	if (e == NULL)
		cr_assert(false, "no edge '%s' -> '%s'", src, dst);
	return e;
}

#define MAIN12 "0000000000401000 main /src/main.c:12"
#define MAIN41 "0000000000402000 main /src/main.c:41"
#define GROW40 "0000000000402000 grow /src/pool.c:40"
#define BARE "0000000000404abc [app]"

Test(graph_address, a_node_per_line_of_a_location)
{
	const struct pc_gnode *n;

	profile();
	graph(false);
	cr_expect(eq(sz, g->nnodes, 4));
	n = node(MAIN12);
	cr_expect(eq(u64, n->address, 0x401000));
	cr_expect(eq(str, (char *)n->name, "main"));
	cr_expect(eq(i64, n->line, 12));
	cr_expect(eq(i64, n->cum, 5));
	cr_expect(eq(i64, n->flat, 0));
	n = node(MAIN41);
	cr_expect(eq(i64, n->cum, 2));
	cr_expect(eq(i64, n->flat, 0));
	n = node(GROW40);
	cr_expect(eq(i64, n->flat, 2));
	cr_expect(eq(str, (char *)n->file, "/src/pool.c"));
	n = node(BARE);
	cr_expect(eq(i64, n->flat, 3));
	cr_expect(eq(str, (char *)n->name, ""));
	cr_expect(eq(str, (char *)n->objfile, "app"));
	/* The inlined call is an inline edge; the others are calls. */
	cr_expect(eq(sz, g->nedges, 3));
	cr_expect(edge(MAIN41, GROW40)->inl);
	cr_expect(eq(i64, edge(MAIN41, GROW40)->weight, 2));
	cr_expect(not(edge(MAIN12, MAIN41)->inl));
	cr_expect(eq(i64, edge(MAIN12, MAIN41)->weight, 2));
	cr_expect(eq(i64, edge(MAIN12, BARE)->weight, 3));
}

/* no_inline: a location keeps its outermost line only, which then has
 * the location's flat value. */
Test(graph_address, no_inline_keeps_the_outermost_line)
{
	profile();
	graph(true);
	cr_expect(eq(sz, g->nnodes, 3));
	cr_expect(eq(i64, node(MAIN41)->flat, 2));
	for (size_t i = 0; i < g->nnodes; i++)
		cr_expect(strcmp(g->nodes[i].name, "grow") != 0);
	cr_expect(eq(sz, g->nedges, 2));
	cr_expect(not(edge(MAIN12, MAIN41)->inl));
}

/* One function at two addresses is two nodes; the same address on
 * two stacks is one. */
Test(graph_address, addresses_apart_and_together)
{
	uint32_t map, m, f, lm, la, lb;

	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "");
	f = add_fn(p, "f", "");
	lm = LOC1(p, map, 0x401000, m, 0);
	la = LOC1(p, map, 0x401100, f, 0);
	lb = LOC1(p, map, 0x401200, f, 0);
	SAMPLE(p, (int64_t[]){ 4 }, la, lm);
	SAMPLE(p, (int64_t[]){ 5 }, lb, lm);
	SAMPLE(p, (int64_t[]){ 6 }, la, lm);
	graph(false);
	cr_expect(eq(sz, g->nnodes, 3));
	/* Line 0: no file:line; the name ends it. */
	cr_expect(eq(i64, node("0000000000401100 f")->flat, 10));
	cr_expect(eq(i64, node("0000000000401200 f")->flat, 5));
	cr_expect(eq(i64, node("0000000000401000 main")->cum, 15));
}
