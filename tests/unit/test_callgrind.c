/* SPDX-License-Identifier: MIT */
/*
 * test_callgrind.c - the call graph in callgrind's format
 * (lib/write/callgrind.c), checked against what google/pprof's
 * printCallgrind writes for the same graph: name compression, addresses
 * relative to the node before, and " [I/N]" on names shared by
 * different functions.
 */

#include "config.h"

#include <stdlib.h>

#include "write/write.h"
#include "graph_view_fixture.h"

static void
setup(void)
{
	new_profile("space", "bytes");
}

TestSuite(callgrind, .init = setup, .fini = teardown);

/* The graph of P by address (pprof -callgrind's granularity) in
 * callgrind's format. */
static char *
callgrind(void)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	char *out = NULL;

	vo.granularity = PROFCONV_BY_ADDRESS;
	cr_assert(eq(int, profconv_view_new(&v, p, &vo), 0), "%s", ERRMSG);
	CAPTURE(out, profconv__callgrind_write(v, NULL, fp, &o));
	return out;
}

/*
 * work (0x1010, w.c:20) has 30 of its own, called from main (0x1000,
 * m.c:10), which has 10: work first (larger flat), its address absolute;
 * main's "-16" (shorter than "0x1000"); its call to work "*", the
 * address of the node before.  Names already given are "(N)".
 */
Test(callgrind, two_nodes_as_pprof)
{
	uint32_t map = add_map(p, 0x1000, 0x2000, "/bin/x");
	uint32_t mainf = add_fn(p, "main", "m.c"), work = add_fn(p, "work",
	    "w.c");
	uint32_t lm = LOC1(p, map, 0x1000, mainf, 10);
	uint32_t lw = LOC1(p, map, 0x1010, work, 20);
	int64_t v30 = 30, v10 = 10;
	char *out;

	SAMPLE(p, &v30, lw, lm);
	SAMPLE(p, &v10, lm);
	out = callgrind();
	cr_expect(eq(str, out,
	    "positions: instr line\n"
	    "events: space(B)\n"
	    "\n"
	    "ob=(1) /bin/x\n"
	    "fl=(1) w.c\n"
	    "fn=(1) work\n"
	    "0x1010 20 30\n"
	    "\n"
	    "ob=(1)\n"
	    "fl=(2) m.c\n"
	    "fn=(2) main\n"
	    "-16 10 10\n"
	    "cfl=(1)\n"
	    "cfn=(1)\n"
	    "calls=0 * 20\n"
	    "* * 30\n"));
	free(out);
}

/*
 * f in x.c twice, in /lib/a.so (20) and /lib/b.so (5), both called by
 * main (1): its cost lines keep the name, its calls are "f [1/2]" and
 * "f [2/2]" (pprof's getDisambiguatedNames, numbered in node order).
 * Addresses: 0x3000 after 0x2000 is "+4096", 0x1000 after 0x3000
 * "-8192"; the calls are relative to the node before main (f in b.so).
 */
Test(callgrind, same_name_in_two_modules)
{
	uint32_t mx = add_map(p, 0x1000, 0x2000, "/bin/x");
	uint32_t ma = add_map(p, 0x2000, 0x3000, "/lib/a.so");
	uint32_t mb = add_map(p, 0x3000, 0x4000, "/lib/b.so");
	uint32_t mainf = add_fn(p, "main", "m.c"), f = add_fn(p, "f", "x.c");
	uint32_t lm = LOC1(p, mx, 0x1000, mainf, 10);
	uint32_t la = LOC1(p, ma, 0x2000, f, 1);
	uint32_t lb = LOC1(p, mb, 0x3000, f, 1);
	int64_t v20 = 20, v5 = 5, v1 = 1;
	char *out;

	SAMPLE(p, &v20, la, lm);
	SAMPLE(p, &v5, lb, lm);
	SAMPLE(p, &v1, lm);
	out = callgrind();
	cr_expect(eq(str, out,
	    "positions: instr line\n"
	    "events: space(B)\n"
	    "\n"
	    "ob=(1) /lib/a.so\n"
	    "fl=(1) x.c\n"
	    "fn=(1) f\n"
	    "0x2000 1 20\n"
	    "\n"
	    "ob=(2) /lib/b.so\n"
	    "fl=(1)\n"
	    "fn=(1)\n"
	    "+4096 1 5\n"
	    "\n"
	    "ob=(3) /bin/x\n"
	    "fl=(2) m.c\n"
	    "fn=(2) main\n"
	    "-8192 10 1\n"
	    "cfl=(1)\n"
	    "cfn=(3) f [1/2]\n"
	    "calls=0 -4096 1\n"
	    "* * 20\n"
	    "cfl=(1)\n"
	    "cfn=(4) f [2/2]\n"
	    "calls=0 * 1\n"
	    "* * 5\n"));
	free(out);
}

/* A frame without a file or module: "fl=" and "ob=" with no name, as
 * pprof's callgrindName("") gives. */
Test(callgrind, empty_names_are_not_numbered)
{
	uint32_t f = add_fn(p, "lone", "");
	uint32_t l = LOC1(p, 0, 0x500, f, 0);
	int64_t v7 = 7;
	char *out;

	SAMPLE(p, &v7, l);
	out = callgrind();
	cr_expect(eq(str, out,
	    "positions: instr line\n"
	    "events: space(B)\n"
	    "\n"
	    "ob=\n"
	    "fl=\n"
	    "fn=(1) lone\n"
	    "0x500 0 7\n"));
	free(out);
}

Test(callgrind, unknown_sample_type_refused)
{
	struct profconv_graph_options o = PROFCONV_GRAPH_OPTIONS_INIT;
	uint32_t f = add_fn(p, "lone", "");
	uint32_t l = LOC1(p, 0, 0x500, f, 0);
	int64_t v7 = 7;
	FILE *fp = fopen("/dev/null", "w");

	SAMPLE(p, &v7, l);
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	o.sample_type = "nope";
	cr_expect(eq(int, profconv__callgrind_write(v, NULL, fp, &o),
	    PROFCONV_ENOTFOUND));
	fclose(fp);
}
