/* SPDX-License-Identifier: MIT */
/*
 * test_traces.c - go tool pprof's label reports (lib/write/traces.c):
 * -traces, each shown sample's labels and stack leaf first under its
 * value, and -tags, each key's values largest first (pprof's
 * printTraces and printTags), checked to the byte on profiles built by
 * hand.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "write/write.h"
#include "text_report_fixture.h"

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
}

TestSuite(traces, .init = setup, .fini = teardown);

/* The report of P with TRACES (else -tags) into OUT. */
static void
report(bool traces)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;

	po.traces = traces;
	po.tags = !traces;
	CAPTURE(out, profconv__print_label_report(p, fp, &po, &vo));
}

static void
sample(uint32_t loc, uint32_t under, int64_t v,
    const struct profconv_label *l, size_t n)
{
	uint32_t stk[2] = { loc, under };

	cr_assert(eq(int, profconv_profile_add_sample(p, stk,
	    under != 0 ? 2 : 1, &v, l, n), 0), "%s", ERRMSG);
}

#define SEP "-----------+" \
	"-------------------------------------------------------\n"

/*
 * No mapping, comment, time or duration: the header is the type alone.
 * A key's values gather on one line in the sample's order ("b a"), keys
 * right-aligned in 10 columns, the lines sorted as text (so "pool",
 * with more blanks before it, comes first), string keys before numeric
 * ones; a control byte escaped.  The value, scaled to the largest unit
 * that leaves at least 1 (2048 B is "2kB"), stands right-aligned in 10
 * columns on the leaf's line.  A sample of 0 is not shown.
 */
static void
labels_and_stacks(void)
{
	uint32_t lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 1);
	uint32_t lg = LOC1(p, 0, 0x20, add_fn(p, "grow", ""), 1);

	sample(lg, lm, 2048, (struct profconv_label[]){
	    { "thread", "b", 0, NULL }, { "pool", "x\x1b", 0, NULL },
	    { "thread", "a", 0, NULL } }, 3);
	sample(lm, 0, 0, NULL, 0);
	sample(lm, 0, 512, (struct profconv_label[]){
	    { "bytes", NULL, 1024, "bytes" } }, 1);
	report(true);
	cr_expect(eq(str, out, "Type: space\n"
	    SEP
	    "      pool:  x\\x1b\n"
	    "    thread:  b a\n"
	    "       2kB   grow\n"
	    "             main\n"
	    SEP
	    "     bytes:  1kB\n"
	    "      512B   main\n"
	    SEP));
}

/* The first mapping names the file and build ID; comments follow, but
 * not those that begin with '#'. */
static void
header_from_mapping_and_comments(void)
{
	struct profconv_mapping m = { 0x1000, 0x2000, 0, "/usr/bin/app",
		"beef", 0, 0, 0, 0 };
	uint32_t map = 0, l;

	cr_assert(eq(int, profconv_profile_add_mapping(p, &m, &map), 0));
	profconv_profile_add_comment(p, "# hidden");
	profconv_profile_add_comment(p, "shown");
	l = LOC1(p, map, 0x1010, add_fn(p, "main", ""), 1);
	sample(l, 0, 7, NULL, 0);
	report(true);
	cr_expect(eq(str, out, "File: app\nBuild ID: beef\nshown\n"
	    "Type: space\n" SEP "        7B   main\n" SEP));
}

/* -traces: the header, then each sample's labels and stack. */
Test(traces, traces_of_each_sample)
{
	labels_and_stacks();
	teardown();	/* a fresh profile for the next case */
	setup();
	header_from_mapping_and_comments();
}

/*
 * -tags by magnitude: -5000 B before 3000 B.  Their total, -2000, is
 * not positive: no percentages.  "%.1f" of the scaled values: -4.9kB,
 * 2.9kB, total -2.0kB.  Columns as Go's tabwriter aligned right with
 * padding 1: "k:" in 3, the cells in 8 ("-4.9kB:" and one).
 */
static void
tags_by_magnitude(void)
{
	uint32_t l = LOC1(p, 0, 0x10, add_fn(p, "f", ""), 1);

	sample(l, 0, 3000, (struct profconv_label[]){
	    { "k", "pos", 0, NULL } }, 1);
	sample(l, 0, -5000, (struct profconv_label[]){
	    { "k", "neg", 0, NULL } }, 1);
	report(false);
	cr_expect(eq(str, out, " k: Total -2.0kB\n"
	    "    -4.9kB: neg\n"
	    "     2.9kB: pos\n"
	    "\n"));
}

/* Equal magnitudes by name; a value's samples summed, with its share. */
static void
tags_summed_and_tied_by_name(void)
{
	uint32_t l = LOC1(p, 0, 0x10, add_fn(p, "f", ""), 1);

	sample(l, 0, 1000, (struct profconv_label[]){
	    { "k", "b", 0, NULL } }, 1);
	sample(l, 0, 3000, (struct profconv_label[]){
	    { "k", "a", 0, NULL } }, 1);
	sample(l, 0, 2000, (struct profconv_label[]){
	    { "k", "b", 0, NULL } }, 1);
	report(false);
	/* 3000 B of 6000 each: 2.9kB, 50.00%; the total 5.9kB. */
	cr_expect(eq(str, out, " k: Total 5.9kB\n"
	    "    2.9kB (50.00%): a\n"
	    "    2.9kB (50.00%): b\n"
	    "\n"));
}

/* -tags: each key's values by magnitude, summed, ties by name. */
Test(traces, tags_of_each_key)
{
	tags_by_magnitude();
	teardown();	/* a fresh profile for the next case */
	setup();
	tags_summed_and_tied_by_name();
}
