/* SPDX-License-Identifier: MIT */
/*
 * test_tree.c - go tool pprof's text reports of the call graph
 * (lib/write/tree.c): -tree, each node with its callers above and its
 * callees below (pprof's printTree), -peek, and -text, checked to the
 * byte on a profile of counts built by hand.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "write/write.h"
#include "text_report_fixture.h"

static void
setup(void)
{
	uint32_t lm, la, lb;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "samples",
	    "count"), 0));
	/* main -> a 3 times, main -> b once. */
	lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	la = LOC1(p, 0, 0x20, add_fn(p, "a", ""), 0);
	lb = LOC1(p, 0, 0x30, add_fn(p, "b", ""), 0);
	SAMPLE(p, (int64_t[]){ 3 }, la, lm);
	SAMPLE(p, (int64_t[]){ 1 }, lb, lm);
}

TestSuite(tree, .init = setup, .fini = teardown);

#define SEP "----------------------------------------------------------+" \
	"-------------\n"
#define LEGEND "      flat  flat%   sum%        cum   cum%   calls calls% " \
	"+ context \t \t \n"
/* 49 blanks: an edge's value is right-aligned in 50 columns. */
#define PAD49 "                                                 "
#define PAD16 "                "

/*
 * Nodes in flat order: a (3), b (1), main (0); the total 4, counts
 * shown as plain numbers.  A node's row: flat, flat%, sum% (flat so
 * far), cum, cum%; "%5.2g" gives "    0%" for 0.  Edges: weight, its
 * share of the node's cum, the other end; callers above, callees below,
 * heaviest first.
 */
Test(tree, callers_above_callees_below)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;

	po.tree = 1;
	CAPTURE(out, profconv__print_tree(p, fp, &po, &vo));
	cr_expect(eq(str, out,
	    "Showing nodes accounting for 4, 100% of 4 total\n"
	    SEP LEGEND SEP
	    PAD49 "3   100% |   main\n"
	    "         3 75.00% 75.00%          3 75.00%" PAD16 "| a\n"
	    SEP
	    PAD49 "1   100% |   main\n"
	    "         1 25.00%   100%          1 25.00%" PAD16 "| b\n"
	    SEP
	    "         0     0%   100%          4   100%" PAD16 "| main\n"
	    PAD49 "3 75.00% |   a\n"
	    PAD49 "1 25.00% |   b\n"
	    SEP), "%s", out);
}

/* -peek: only the nodes that match (sum% counts those alone), the
 * header of the whole graph; no match is an error, nothing written. */
Test(tree, peek)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	size_t len = 0;
	FILE *mem;

	po.tree = 1;
	po.peek = "^b$";
	CAPTURE(out, profconv__print_tree(p, fp, &po, &vo));
	cr_expect(eq(str, out,
	    "Showing nodes accounting for 4, 100% of 4 total\n"
	    SEP LEGEND SEP
	    PAD49 "1   100% |   main\n"
	    "         1 25.00% 25.00%          1 25.00%" PAD16 "| b\n"
	    SEP), "%s", out);
	free(out);
	out = NULL;
	po.peek = "zzz";
	mem = open_memstream(&out, &len);
	cr_assert(mem != NULL);
	cr_expect(eq(int, profconv__print_tree(p, mem, &po, &vo),
	    PROFCONV_ENOTFOUND));
	fclose(mem);
	cr_expect(eq(str, out, ""));
	cr_expect(eq(str, ERRMSG, "no function matches 'zzz'"));
}

/* -text: a row per node in flat order, no edges. */
Test(tree, text_rows)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;

	po.text = 1;
	CAPTURE(out, profconv__print_tree(p, fp, &po, &vo));
	cr_expect(eq(str, out,
	    "Showing nodes accounting for 4, 100% of 4 total\n"
	    "      flat  flat%   sum%        cum   cum%\n"
	    "         3 75.00% 75.00%          3 75.00%  a\n"
	    "         1 25.00%   100%          1 25.00%  b\n"
	    "         0     0%   100%          4   100%  main\n"), "%s", out);
}
