/* SPDX-License-Identifier: MIT */
/*
 * test_graph.c - the call graph (view/graph.c) and its DOT (write/dot.c)
 * on profiles built by hand, against values worked out here from
 * pprof's rules (views-reference.md §3.3): call trees, inline edges,
 * names split at "::" and ".", DOT escaping; and the graph, the
 * comparison table and the listing agreeing on one change
 * (view/delta.c).  The order and cuts are tested in test_graph_trim.c,
 * units and percentages in test_graph_measure.c.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "report/list.h"
#include "view/delta.h"
#include "graph_fixture.h"

TestSuite(graph, .init = setup, .fini = teardown);

/* The number of nodes named NAME. */
static size_t
count_named(const struct pc_graph *g, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < g->nnodes; i++)
		n += strcmp(g->nodes[i].name, name) == 0;
	return n;
}

/*
 * pprof's -call_tree: a node per calling context.  In the diamond, c
 * called from a and from b is two nodes of 100 each, with different
 * callers; a's two callees hang under a's one context.  Cut to two
 * nodes by entropy (main's and a leaf's), the dropped middle joins
 * main to the leaf by a residual edge of the leaf's weight, as pprof's
 * TrimTree does.
 */
Test(graph, call_tree)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	const struct pc_gnode *x = NULL, *y = NULL;
	struct pc_graph *g;
	size_t i;

	diamond();
	call_tree = true;
	g = graph_of(p, NULL, 0, 0, 0, &vc, &vb);
	cr_assert(eq(sz, g->nnodes, 6));
	cr_expect(eq(sz, count_named(g, "c"), 2));
	for (i = 0; i < g->nnodes; i++)
		if (strcmp(g->nodes[i].name, "c") == 0) {
			if (x == NULL)
				x = &g->nodes[i];
			else
				y = &g->nodes[i];
		}
	cr_assert(not(zero(ptr, (void *)y)));
	cr_expect(eq(i64, x->cum, 100));
	cr_expect(eq(i64, y->cum, 100));
	cr_expect(eq(i64, x->flat, 100));
	cr_expect(ne(sz, x->caller, y->caller));
	cr_expect(ne(sz, x->caller, 0));
	cr_expect(eq(sz, node(g, "main")->caller, 0));
	cr_expect(eq(i64, edge(g, "main", "a")->weight, 150));
	cr_expect(eq(i64, edge(g, "a", "d")->weight, 50));
	cr_expect(eq(sz, g->nedges, 5));
	profconv__graph_free(g);
	profconv_view_free(vc);

	/* main -> x -> y: x passes its value straight through (entropy
	 * 0) and is the one left out of two. */
	teardown();
	setup();
	STACK(p, map, 100, "main", "x", "y");
	g = graph_of(p, NULL, 2, 0, 0, &vc, &vb);
	call_tree = false;
	cr_assert(eq(sz, g->nnodes, 2));
	cr_expect(zero(ptr, (void *)node(g, "x")));
	cr_assert(eq(sz, g->nedges, 1));
	cr_expect(edge(g, "main", "y")->residual);
	cr_expect(eq(i64, edge(g, "main", "y")->weight, 100));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/* An edge into a line inlined into its caller is "inline"; the call
 * into the outer function is not; recursion counts once per sample. */
Test(graph, inline_edges_and_recursion)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	uint32_t mainf = add_fn(p, "main", ""), outer = add_fn(p, "outer", "");
	uint32_t inner = add_fn(p, "inner", ""), lm, li;
	int64_t v = 64;
	struct pc_graph *g;

	lm = LOC1(p, map, 0x401000, mainf, 1);
	li = LOCN(p, map, 0x401100, 10, inner, outer);
	SAMPLE(p, &v, li, lm);
	SAMPLE(p, &v, li, li, lm);	/* outer/inner called twice */
	g = graph_of(p, NULL, 0, 0, 0, &vc, &vb);
	cr_expect(edge(g, "outer", "inner")->inl);
	cr_expect(not(edge(g, "main", "outer")->inl));
	cr_expect(eq(i64, edge(g, "main", "outer")->weight, 128));
	cr_expect(eq(i64, node(g, "inner")->cum, 128));
	cr_expect(eq(i64, node(g, "inner")->flat, 128));
	profconv__graph_free(g);
	profconv_view_free(vc);
}

/* The DOT of P (every node) with options O as a string; caller frees. */
static char *
dot_with(const struct profconv_profile *cur,
    const struct profconv_profile *base, struct profconv_graph_options *o)
{
	struct profconv_view *vc = NULL, *vb = NULL;
	char *text = NULL;

	o->nodecount = 0;
	o->nodefraction = o->edgefraction = 0;
	cr_assert(eq(int, profconv_view_new(&vc, cur, NULL), 0));
	if (base != NULL)
		cr_assert(eq(int, profconv_view_new(&vb, base, NULL), 0));
	CAPTURE(text, profconv_graph_write(vc, vb, fp, o));
	profconv_view_free(vc);
	profconv_view_free(vb);
	return text;
}

static char *
dot_of(const struct profconv_profile *cur,
    const struct profconv_profile *base)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;

	return dot_with(cur, base, &o);
}

/* The number of nodes in DOT. */
static size_t
dot_nodes(const char *dot)
{
	size_t n = 0;

	for (; (dot = strstr(dot, "\" id=\"node")) != NULL; dot++)
		n++;
	return n;
}

/* The public option: call_tree draws the diamond's c twice; a caller
 * built against version 1 of the options (no call_tree, no trim_path:
 * whatever follows its struct is not read) gets the graph. */
Test(graph, call_tree_option_and_version_1)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	struct {
		struct profconv_graph_options o;
		unsigned char junk[8];
	} old;
	char *graph, *tree, *v1;

	diamond();
	graph = dot_of(p, NULL);
	o.call_tree = 1;
	tree = dot_with(p, NULL, &o);
	cr_expect(eq(sz, dot_nodes(graph), 5), "%s", graph);
	cr_expect(eq(sz, dot_nodes(tree), 6), "%s", tree);
	memset(&old, 0xff, sizeof(old));
	memcpy(&old.o, &(struct profconv_graph_options)
	    PROFCONV_GRAPH_OPTIONS_INIT, offsetof(struct profconv_graph_options,
	    call_tree));
	old.o.version = 1;
	v1 = dot_with(p, NULL, &old.o);
	cr_expect(eq(str, v1, graph));
	free(graph);
	free(tree);
	free(v1);
}

/* The DOT line of the node whose label starts with LABEL, or NULL. */
static char *
node_line(const char *dot, const char *label)
{
	char key[512];
	const char *s, *e;

	snprintf(key, sizeof(key), "[label=\"%s", label);
	s = strstr(dot, key);
	if (s == NULL)
		return NULL;
	while (s > dot && s[-1] != '\n')
		s--;
	e = strchr(s, '\n');
	return strndup(s, e != NULL ? (size_t)(e - s) : strlen(s));
}

/*
 * Names shortened as pprof's ShortenFunctionName does (a C++ name to
 * its Class::method) and split at "::" and "." into label lines; values
 * in the unit pprof picks; flat and cum as "flat (p%)\nof cum (p%)".
 * 1 MiB in ns::Klass::run under pkg.Func, 3 MiB in pkg.Func, 1 KiB in
 * ns::detail::run: total 4097 KiB.  One unit for all (selectOutputUnit):
 * the smallest value's (1kB) and the largest's (the total, MB) differ
 * and 100 x 1 KiB < 4 MiB, so the unit of 100 KiB: kB.  4096/4097 is
 * 99.976%, within 0.05 of 100: "100%".
 */
Test(graph, dot_labels)
{
	char *dot, *l;

	STACK(p, map, 1048576, "pkg.Func", "ns::Klass::run");
	STACK(p, map, 3 * 1048576, "pkg.Func");
	STACK(p, map, 1024, "ns::detail::run");	/* no class: kept whole */
	dot = dot_of(p, NULL);
	l = node_line(dot, "ns\\ndetail\\nrun\\n1kB ");
	cr_expect(not(zero(ptr, l)), "%s", dot);
	free(l);
	l = node_line(dot, "Klass\\nrun\\n");
	cr_assert(not(zero(ptr, l)), "%s", dot);
	cr_expect(not(zero(ptr, strstr(l, "label=\"Klass\\nrun\\n1024kB "
	    "(24.99%)\""))), "%s", l);
	cr_expect(not(zero(ptr, strstr(l, "tooltip=\"ns::Klass::run (1024kB)\""))),
	    "%s", l);
	free(l);
	l = node_line(dot, "pkg\\nFunc\\n");
	cr_assert(not(zero(ptr, l)), "%s", dot);
	cr_expect(not(zero(ptr, strstr(l, "label=\"pkg\\nFunc\\n3072kB (74.98%)"
	    "\\nof 4096kB (100%)\""))), "%s", l);
	free(l);
	free(dot);
}

/* A name from a profile is data: quotes and backslashes escaped, a
 * newline a left-justified break ("\l"), in labels and tooltips. */
Test(graph, dot_escaping)
{
	char *dot, *l;

	STACK(p, map, 4096, "main", "say \"hi\"\\now\nthen");
	dot = dot_of(p, NULL);
	l = node_line(dot, "say \\\"hi\\\"\\\\now\\lthen\\n");
	cr_assert(not(zero(ptr, l)), "%s", dot);
	cr_expect(not(zero(ptr, strstr(l, "tooltip=\"say \\\"hi\\\"\\\\now"
	    "\\lthen (4kB)\""))), "%s", l);
	free(l);
	/* The edge's tooltips too. */
	cr_expect(not(zero(ptr, strstr(dot, "tooltip=\"main -> say \\\"hi"
	    "\\\"\\\\now\\lthen (4kB)\""))), "%s", dot);
	/* No raw newline or unescaped quote inside any line's strings:
	 * each line is a whole statement. */
	cr_expect(zero(ptr, strstr(dot, "\nthen")));
	free(dot);
}

/* --- one change, three views --------------------------------------------- */

/*
 * BASE: main->work->leaf 1000, main->other 2500, main->gone 500 (total
 * 4000).  CUR: main->work->leaf 2500, main->other 1500, main->fresh 400.
 * As pprof's -diff_base: leaf +1500 = 37.50% of BASE's total, grew;
 * other -1000 = 25.00%, shrank; gone -500 = 12.50%; fresh +400 = 10.00%,
 * new.  The comparison table (its JSON), the call graph and the listing
 * must say the same.
 */
struct want_change {
	const char *name;
	int64_t delta;
	const char *pct;
	const char *change;
};

static void
pair(struct profconv_profile *base, struct profconv_profile *cur)
{
	uint32_t bm = add_map(base, 0x400000, 0x500000, "/bin/prog");
	uint32_t cm = add_map(cur, 0x400000, 0x500000, "/bin/prog");

	STACK(base, bm, 1000, "main", "work", "leaf");
	STACK(base, bm, 2500, "main", "other");
	STACK(base, bm, 500, "main", "gone");
	STACK(cur, cm, 2500, "main", "work", "leaf");
	STACK(cur, cm, 1500, "main", "other");
	STACK(cur, cm, 400, "main", "fresh");
}

/* "delta":N,"change":"C" of ROW in the table's JSON. */
static void
table_row(const char *json, const char *row, int64_t *delta, char *change)
{
	char key[128];
	const char *s;
	long long d;

	snprintf(key, sizeof(key), "{\"name\":\"%s\"", row);
	s = strstr(json, key);
	cr_assert(not(zero(ptr, (void *)s)), "%s not in %s", row, json);
	s = strstr(s, "\"delta\":");
	cr_assert(not(zero(ptr, (void *)s)));
	cr_assert(eq(int, sscanf(s, "\"delta\":%lld,\"change\":\"%15[a-z]\"",
	    &d, change), 2));
	*delta = d;
}

/* The "p%" of ROUTINE's header in the listing. */
static void
list_header(const char *text, const char *fn, char *flat, char *pct)
{
	char key[128], cum[48];
	const char *s;

	snprintf(key, sizeof(key), "ROUTINE ======================== %s ", fn);
	s = strstr(text, key);
	cr_assert(not(zero(ptr, (void *)s)), "%s", text);
	s = strchr(s, '\n');
	cr_assert(eq(int, sscanf(s + 1, "%47s %47s (flat, cum) %31s of Total",
	    flat, cum, pct), 3), "%s", s);
}

Test(graph, three_views_agree_on_a_change)
{
	static const struct want_change want[] = {
		{ "leaf", 1500, "37.50%", "grew" },
		{ "other", -1000, "25.00%", "shrank" },
		{ "gone", -500, "12.50%", "gone" },
		{ "fresh", 400, "10.00%", "new" },
	};
	struct profconv_diff_options dopts = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_list_options lopts = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_profile *base = NULL, *cur = NULL;
	struct profconv_view *vc = NULL, *vb = NULL;
	struct profconv_diff *d = NULL;
	struct pc_delta_scale table_scale;
	char *json = NULL, *dot, *lst = NULL, *l, key[64], pct[32];
	struct pc_graph *g;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&base), 0));
	cr_assert(eq(int, profconv_profile_new(&cur), 0));
	profconv_profile_add_sample_type(base, "space", "bytes");
	profconv_profile_add_sample_type(cur, "space", "bytes");
	pair(base, cur);

	cr_assert(eq(int, profconv_diff_new(&d, base, cur, &dopts), 0), "%s",
	    ERRMSG);
	CAPTURE(json, profconv_diff_write_json(d, fp, NULL));
	cr_assert(not(zero(ptr, strstr(json, "\"before\":{\"space\":4000}"))),
	    "%s", json);
	cr_assert(not(zero(ptr, strstr(json, "\"after\":{\"space\":4400}"))));
	/* The table prints no percentages; its totals give them by the
	 * same rules. */
	profconv__delta_scale(&table_scale, 4000, 4400, 0);
	g = graph_of(cur, base, 0, 0, 0, &vc, &vb);
	cr_expect(eq(i64, g->total, 4000));
	cr_expect(eq(i64, g->scale.reference, table_scale.reference));
	dot = dot_of(cur, base);
	for (i = 0; i < PC_ARRAY_LEN(want); i++) {
		const struct want_change *w = &want[i];
		const struct pc_gnode *n = node(g, w->name);
		char change[16], flat[48], lpct[32], val[48];
		int64_t delta;

		/* The table. */
		table_row(json, w->name, &delta, change);
		cr_expect(eq(i64, delta, w->delta), "%s", w->name);
		cr_expect(eq(str, change, (char *)w->change), "%s", w->name);
		snprintf(pct, sizeof(pct), "%.2f%%",
		    fabs(profconv__delta_percent(&table_scale, delta)));
		cr_expect(eq(str, pct, (char *)w->pct), "%s", w->name);
		/* The graph. */
		cr_assert(not(zero(ptr, (void *)n)), "%s", w->name);
		cr_expect(eq(i64, n->flat, w->delta), "%s", w->name);
		cr_expect(eq(i64, n->cum, w->delta), "%s", w->name);
		cr_expect(eq(str, (char *)profconv__change_name(n->change),
		    (char *)w->change), "%s", w->name);
		snprintf(key, sizeof(key), "%s\\n", w->name);
		l = node_line(dot, key);
		cr_assert(not(zero(ptr, l)), "%s", dot);
		snprintf(key, sizeof(key), " (%s)\"", w->pct);
		cr_expect(not(zero(ptr, strstr(l, key))), "%s: %s", w->name, l);
		free(l);
		/* The listing. */
		snprintf(key, sizeof(key), "^%s$", w->name);
		free(lst);
		lst = NULL;
		CAPTURE(lst, profconv_list_write(cur, base, key, fp, &lopts));
		cr_expect(not(zero(ptr, strstr(lst, "Total: 3.91kB\n"))), "%s",
		    lst);
		list_header(lst, w->name, flat, lpct);
		cr_expect(eq(str, flat, (char *)profconv__list_value(val,
		    w->delta, "bytes")), "%s", w->name);
		cr_expect(eq(str, lpct, (char *)w->pct), "%s", w->name);
	}
	/* main, 4000 before and 4400 after: grew by 400, 10% of BASE. */
	cr_expect(eq(i64, node(g, "main")->cum, 400));
	cr_expect(eq(i64, node(g, "main")->base, 4000));
	cr_expect(eq(i64, node(g, "main")->cur, 4400));
	cr_expect(eq(int, node(g, "main")->change, PC_GREW));
	free(lst);
	free(dot);
	free(json);
	profconv__graph_free(g);
	profconv_view_free(vc);
	profconv_view_free(vb);
	profconv_diff_free(d);
	profconv_profile_free(base);
	profconv_profile_free(cur);
}
