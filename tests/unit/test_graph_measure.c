/* SPDX-License-Identifier: MIT */
/*
 * test_graph_measure.c - pprof's measurement arithmetic
 * (lib/view/graph_measure.c, after pprof's internal/measurement): unit
 * aliases and conversion, scaled labels, percentages, and the output
 * unit of a graph (pprof's selectOutputUnit) on graphs built by hand.
 */

#include "config.h"

#include <math.h>

#include "helpers.h"
#include "view/graph.h"

TestSuite(graph_measure);

#define LABEL(v, unit, want) do { \
	char b_[64]; \
	cr_expect(eq(str, profconv__measure_label(b_, sizeof(b_), (v), \
	    (unit), "minimum"), (char *)(want))); \
} while (0)
#define PCT(v, t, want) do { \
	char b_[32]; \
	cr_expect(eq(str, profconv__measure_percent(b_, sizeof(b_), (v), \
	    (t)), (char *)(want))); \
} while (0)

/* measurement.ScaledLabel and Percentage: the largest unit leaving at
 * least 1, two decimals, ".00" dropped; percentages of |v|, "%5.2g"
 * under 1%. */
static void
values_with_units(void)
{
	LABEL(0, "bytes", "0");
	LABEL(1023, "bytes", "1023B");
	LABEL(1536, "bytes", "1.50kB");
	LABEL(1048576, "bytes", "1MB");
	LABEL(-1536, "bytes", "-1.50kB");
	LABEL(3 * 1073741824LL, "bytes", "3GB");
	LABEL(1500000, "nanoseconds", "1.50ms");
	LABEL(7200 * 1000000000LL, "nanoseconds", "2hrs");
	LABEL(7500, "count", "7500");
	/* A unit pprof does not know is left out with "minimum". */
	LABEL(12, "objects", "12");
	PCT(1, 3, "33.33%");
	PCT(-1, 4, "25.00%");
	PCT(1, 200, "0.5%");
	PCT(9995, 10000, "100%");
	PCT(5, 0, "0%");
}

/* V in FROM scaled to TO is WANT (to a part in 10^12: GCU's factors
 * are decimal) in unit WANTU. */
#define SCALE(v, from, to, want, wantu) do { \
	const char *u_ = NULL; \
	double d_ = profconv__measure_scale((v), (from), (to), &u_); \
	cr_expect(fabs(d_ - (want)) <= 1e-12 * fabs((double)(want)), \
	    "%s -> %s: %g", (from), (to), d_); \
	cr_expect(eq(str, (char *)u_, (char *)(wantu))); \
} while (0)

/* Units by their aliases, any case, one final 's' dropped. */
static void
aliases_and_explicit_units(void)
{
	SCALE(1536, "Bytes", "kb", 1.5, "kB");
	SCALE(3, "megabytes", "kilobyte", 3072, "kB");
	SCALE(2500, "ms", "s", 2.5, "s");
	SCALE(90 * 60, "seconds", "hours", 1.5, "hrs");
	SCALE(4, "us", "ns", 4000, "ns");
	/* A target the type does not know: the type's default unit. */
	SCALE(2, "kB", "furlongs", 2048, "B");
	SCALE(1500000000, "nanoseconds", "bogus", 1.5, "s");
	/* GCU's prefixes, "minimum" picking the largest unit >= 1. */
	SCALE(1500, "milligcus", "minimum", 1.5, "GCU");
	SCALE(-1536, "bytes", "auto", -1.5, "kB");
	/* Units of no type: the value as it is; plain targets say none. */
	SCALE(7, "widgets", "count", 7, "");
	SCALE(7, "widgets", "minimum", 7, "");
	SCALE(7, "widgets", "widgets", 7, "widgets");
}

static void
percent_padded_and_unit_lower(void)
{
	char b[32];

	cr_expect(eq(str, profconv__measure_percent_padded(b, sizeof(b), 5,
	    100), " 5.00%"));
	cr_expect(eq(str, profconv__measure_percent_padded(b, sizeof(b), 1,
	    200), "  0.5%"));
	cr_expect(eq(str, profconv__measure_percent_padded(b, sizeof(b),
	    9996, 10000), "  100%"));
	/* Just past pprof's window around 100%: printed as it is. */
	cr_expect(eq(str, profconv__measure_percent_padded(b, sizeof(b),
	    10006, 10000), "100.06%"));
	cr_expect(eq(str, profconv__measure_unit_lower(b, sizeof(b),
	    "NanoSeconds"), "nanoseconds"));
	cr_expect(eq(str, profconv__measure_unit_lower(b, 5, "BYTES"),
	    "byte"));
}

/* Values with units, scaled by alias, percentages plain and padded. */
Test(graph_measure, values_scaled_and_labelled)
{
	values_with_units();
	aliases_and_explicit_units();
	percent_padded_and_unit_lower();
}

/* A graph of N nodes with flat and cum values, and TOTAL. */
static struct pc_graph
graph_of(struct pc_gnode *nodes, size_t n, int64_t total)
{
	struct pc_graph g;

	memset(&g, 0, sizeof(g));
	g.nodes = nodes;
	g.nnodes = n;
	g.total = total;
	return g;
}

/*
 * selectOutputUnit: the smallest |flat| (|cum| where flat is 0) and the
 * total.  512 B against 2 MiB: units differ and 100 x 512 = 51200 is
 * below the total, so the unit of 51200 B, kB; against 40000 B it is
 * not, so B.  Integral output keeps the smallest's unit.
 */
Test(graph_measure, output_unit_of_a_graph)
{
	struct pc_gnode nodes[3];
	struct pc_graph g;

	memset(nodes, 0, sizeof(nodes));
	nodes[0].flat = 0;
	nodes[0].cum = 4096;
	nodes[1].flat = -512;
	nodes[1].cum = 4096;
	nodes[2].flat = 0;
	nodes[2].cum = 0;
	g = graph_of(nodes, 3, 2 * 1048576);
	cr_expect(eq(str, (char *)profconv__graph_output_unit(&g, "bytes"),
	    "kB"));
	cr_expect(eq(str, (char *)profconv__graph_output_unit_integral(&g,
	    "bytes"), "B"));
	g.total = 40000;
	cr_expect(eq(str, (char *)profconv__graph_output_unit(&g, "bytes"),
	    "B"));
	/* A unit of no type: the sample type's own. */
	cr_expect(eq(str, (char *)profconv__graph_output_unit(&g, "count"),
	    "count"));
	/* No nodes: pprof's "minimum". */
	g.nnodes = 0;
	cr_expect(eq(str, (char *)profconv__graph_output_unit(&g, "bytes"),
	    "minimum"));
}
