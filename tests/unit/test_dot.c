/* SPDX-License-Identifier: MIT */
/*
 * test_dot.c - the call graph as Graphviz DOT (lib/write/dot.c), on
 * small graphs built by hand, against google/pprof's dotgraph.go rules:
 * node labels split at "." and "::", font sizes by flat value, pprof's
 * red by cumulative share, edge weights and widths, the legend, and
 * names escaped for DOT.
 */

#include "config.h"

#include <stdlib.h>

#include "write/write.h"
#include "graph_view_fixture.h"

TestSuite(dot, .init = count_setup, .fini = teardown);

static char *
dot(struct profconv_graph_options *o)
{
	char *out = NULL;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
	CAPTURE(out, profconv_graph_write(v, NULL, fp, o));
	return out;
}

/* The id N of the node whose label starts with LABEL. */
static int
node_id(const char *text, const char *label)
{
	char want[128];
	const char *at;
	int id = 0;

	snprintf(want, sizeof(want), " [label=\"%s", label);
	at = strstr(text, want);
	cr_assert(at != NULL, "no node %s in %s", label, text);
	while (at > text && at[-1] != '\n')
		at--;
	cr_assert(eq(int, sscanf(at, "N%d", &id), 1));
	return id;
}

#define HAS(text, s) \
	cr_expect(not(zero(ptr, strstr((text), (s)))), "no %s in %s", (s), \
	    (text))

/*
 * main (10 of its own) calls pkg.work (30): 40 in all.  pprof's colour
 * of a cumulative share s is red (0.7, 0.7 (1 - s^0.3), 0) and its
 * background (0.93, 0.93 (1 - 0.1 s^0.3), 0.837): for main's 100%
 * #b20000 and #edd5d5, for work's 75% (0.75^0.3 = 0.9173) #b20e00 and
 * #edd7d5.  Font sizes 8 + ceil(16 sqrt(flat / largest flat)): 24 and
 * 8 + ceil(9.24) = 18.  The edge: weight 1 + 75, width 1 + 3.  Line
 * breaks in the legend are "\l", as pprof's escapeForDot writes them.
 */
static void
two_nodes_as_pprof_draws_them(void)
{
	static const char head[] = "digraph \"unnamed\" {\n"
	    "node [style=filled fillcolor=\"#f8f8f8\"]\n"
	    "subgraph cluster_L { \"Type: samples\" [shape=box fontsize=16 "
	    "label=\"Type: samples\\lShowing nodes accounting for 40, 100% of "
	    "40 total\\l\\lSee https://git.io/JfYMW for how to read the "
	    "graph\\l\"] }\n";
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	uint32_t fm = add_fn(p, "main", ""), fw = add_fn(p, "pkg.work", "");
	uint32_t lm = LOC1(p, 0, 0x1000, fm, 0);
	uint32_t lw = LOC1(p, 0, 0x1010, fw, 0);
	char want[512], *out;
	int m, w;

	SAMPLE(p, ((int64_t[]){ 30 }), lw, lm);
	SAMPLE(p, ((int64_t[]){ 10 }), lm);
	out = dot(&o);
	cr_expect(eq(int, strncmp(out, head, sizeof(head) - 1), 0), "%s", out);
	w = node_id(out, "pkg\\nwork\\n");
	m = node_id(out, "main\\n");
	snprintf(want, sizeof(want), "N%d [label=\"pkg\\nwork\\n30 (75.00%%)\" "
	    "id=\"node%d\" fontsize=24 shape=box tooltip=\"pkg.work (30)\" "
	    "color=\"#b20e00\" fillcolor=\"#edd7d5\"]\n", w, w);
	HAS(out, want);
	snprintf(want, sizeof(want), "N%d [label=\"main\\n10 (25.00%%)\\nof 40 "
	    "(100%%)\" id=\"node%d\" fontsize=18 shape=box tooltip=\"main "
	    "(40)\" color=\"#b20000\" fillcolor=\"#edd5d5\"]\n", m, m);
	HAS(out, want);
	snprintf(want, sizeof(want), "N%d -> N%d [label=\" 30\" weight=76 "
	    "penwidth=4 color=\"#b20e00\" tooltip=\"main -> pkg.work (30)\" "
	    "labeltooltip=\"main -> pkg.work (30)\"]\n}\n", m, w);
	HAS(out, want);
	free(out);
}

/* "::" and "." end a line of the label; quotes and backslashes in names
 * are escaped, so no name ends the DOT string. */
static void
names_split_and_escaped(void)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	uint32_t f = add_fn(p, "ns::a\"b\\c", "");
	char *out;

	SAMPLE(p, ((int64_t[]){ 5 }), LOC1(p, 0, 0x1000, f, 0));
	o.title = "t\"x";
	out = dot(&o);
	HAS(out, "digraph \"t\\\"x\" {\n");
	HAS(out, " [label=\"ns\\na\\\"b\\\\c\\n5 (100%)\" ");
	HAS(out, " tooltip=\"ns::a\\\"b\\\\c (5)\" ");
	free(out);
}

/* Nodes drawn as pprof draws them, their names split and escaped. */
Test(dot, nodes_drawn_and_named_as_pprof)
{
	two_nodes_as_pprof_draws_them();
	teardown();	/* a fresh profile for the next case */
	count_setup();
	names_split_and_escaped();
}

/* A node under nodefraction of the total goes, and the legend says so;
 * at most NODECOUNT nodes are kept. */
Test(dot, cutoffs_in_the_legend)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	uint32_t fa = add_fn(p, "big", ""), fb = add_fn(p, "tiny", "");
	char *out;

	SAMPLE(p, ((int64_t[]){ 1000 }), LOC1(p, 0, 0x1000, fa, 0));
	SAMPLE(p, ((int64_t[]){ 4 }), LOC1(p, 0, 0x2000, fb, 0));
	out = dot(&o);
	/* 0.005 of 1004 is 5.02: tiny's 4 is under it. */
	HAS(out, "Showing nodes accounting for 1000, 99.60% of 1004 total\\l"
	    "Dropped 1 node (cum <= 5)\\l");
	cr_expect(zero(ptr, strstr(out, "tiny")), "%s", out);
	free(out);
}

Test(dot, options_refused)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;

	o.nodefraction = 1.5;
	cr_expect(eq(int, profconv_graph_options_check(&o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "graph fractions must be from 0 to 1"));
	o.nodefraction = 0;
	o.edgefraction = 0.0 / 0.0;
	cr_expect(eq(int, profconv_graph_options_check(&o), PROFCONV_EINVAL));
	o.edgefraction = 0;
	o.format = (enum profconv_graph_format)9;
	cr_expect(eq(int, profconv_graph_options_check(&o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "unknown graph format 9"));
	o.format = PROFCONV_GRAPH_DOT;
	cr_expect(eq(int, profconv_graph_options_check(&o), 0));
	cr_expect(eq(int, profconv_graph_options_check(NULL), 0));
	cr_expect(eq(int, profconv_graph_write(NULL, NULL, stdout, &o),
	    PROFCONV_EINVAL));
}
