/* SPDX-License-Identifier: MIT */
/*
 * test_prune.c - drop_frames and keep_frames as pprof's Prune applies
 * them (lib/view/prune.c): through views and through the pruner itself,
 * and the cost bound on a regular expression (PC_RX_* in bounds.h, as
 * RE2 and Go bound counted repetitions).
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "view/view.h"
#include "view_fixture.h"

/* A stack of the ids given, as the model's four-byte ones. */
#define STK(...) \
	((struct pc_stack){ .wide = (const uint32_t[]){ __VA_ARGS__ } })

TestSuite(prune, .init = setup, .fini = teardown);

/*
 * drop_frames as pprof's Prune applies it: walking from the root, the
 * first matching frame after a frame of the program is cut with
 * everything beneath it; a match before any program frame stays.
 */
Test(prune, drop_frames_cut_after_program_frame)
{
	uint32_t m, g, ma, je, lm, lg, lma, lje;
	int64_t v1 = 100, v2 = 7;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc|je_.*");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	ma = add_fn(p, "malloc", "");
	je = add_fn(p, "je_prof_backtrace", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	lma = LOC1(p, 0, 0x30, ma, 1);
	lje = LOC1(p, 0, 0x40, je, 1);
	SAMPLE(p, &v1, lje, lma, lg, lm);
	/* malloc at the root is no allocator frame under the program. */
	SAMPLE(p, &v2, lma, lm, lma);
	expect_view(p, NULL, "main;grow 100\nmalloc;main 7\n");
}

/* A frame that matches keep_frames as well is the program's. */
Test(prune, keep_frames_survive)
{
	uint32_t m, ma, xm, lm, lma, lxm;
	int64_t v = 5;

	heap_types();
	profconv_profile_set_drop_frames(p, "x?malloc");
	profconv_profile_set_keep_frames(p, "xmalloc");
	m = add_fn(p, "main", "");
	ma = add_fn(p, "malloc", "");
	xm = add_fn(p, "xmalloc", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lma = LOC1(p, 0, 0x20, ma, 1);
	lxm = LOC1(p, 0, 0x30, xm, 1);
	SAMPLE(p, &v, lma, lxm, lm);
	expect_view(p, NULL, "main;xmalloc 5\n");
}

/* A match in the middle of a location's inline chain keeps only the
 * callers outside it. */
Test(prune, drop_inside_inline_chain)
{
	uint32_t m, in, ma, out, lm, l;
	int64_t v = 3;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	m = add_fn(p, "main", "");
	in = add_fn(p, "inner", "");
	ma = add_fn(p, "malloc", "");
	out = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	l = LOCN(p, 0, 0x20, 1, in, ma, out);
	SAMPLE(p, &v, l, lm);
	expect_view(p, NULL, "main;outer 3\n");
}

/* Frames without symbols inside the allocator's own library are cut
 * from allocation profiles even without drop_frames, not from others. */
static void
allocator_library(const char *lib)
{
	uint32_t app, al, m, lm, la;
	int64_t v[2] = { 1, 64 };

	app = add_map(p, 0x1000, 0x2000, "/bin/app");
	al = add_map(p, 0x7000, 0x9000, lib);
	m = add_fn(p, "main", "");
	lm = LOC1(p, app, 0x1010, m, 1);
	la = add_loc(p, al, 0x7123, NULL, 0, 0);
	SAMPLE(p, v, la, lm);
}

static void
allocator_library_cut_in_heap_profile(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	allocator_library("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");
	expect_view(p, NULL, "main 1 64\n");
	o.keep_allocator_frames = 1;
	expect_view(p, &o, "main;libjemalloc.so.2+0x123 1 64\n");
}

static void
tcmalloc_library_cut_in_heap_profile(void)
{
	profconv_profile_add_sample_type(p, "space", "bytes");
	profconv_profile_add_sample_type(p, "objects", "count");
	allocator_library("/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4");
	expect_view(p, NULL, "main 1 64\n");
}

static void
allocator_library_kept_in_cpu_profile(void)
{
	profconv_profile_add_sample_type(p, "samples", "count");
	profconv_profile_add_sample_type(p, "cpu", "nanoseconds");
	allocator_library("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");
	expect_view(p, NULL, "main;libjemalloc.so.2+0x123 1 64\n");
}

/* The allocator's own library: cut from heap profiles (jemalloc,
 * tcmalloc), kept in a CPU profile. */
Test(prune, allocator_library_cut_by_profile_type)
{
	allocator_library_cut_in_heap_profile();
	teardown();	/* a fresh profile for the next case */
	setup();
	tcmalloc_library_cut_in_heap_profile();
	teardown();	/* a fresh profile for the next case */
	setup();
	allocator_library_kept_in_cpu_profile();
}

/*
 * The pruner on its own: the index (leaf first) of the first location
 * that stays, and the lines a location loses to a match inside its
 * inline chain.  Stacks, leaf first:
 *   je_x, malloc, grow, main  -> from the root main and grow are the
 *                                program's, malloc the first cut: 2
 *   malloc, main, malloc      -> the root malloc comes before any
 *                                program frame and stays: 1
 *   [inner, malloc, outer], main -> outer stays, malloc and inner go:
 *                                the location stays (0), losing 2 lines
 * pprof's simplifyFunc: "malloc(unsigned long)" and ".malloc" are
 * matched as "malloc".
 */
Test(prune, pruner_on_its_own)
{
	struct pc_pruner pr;
	uint32_t m, g, ma, je, in, out, lm, lg, lma, lje, l, lma2, lma3;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc|je_.*");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	ma = add_fn(p, "malloc", "");
	je = add_fn(p, "je_x", "");
	in = add_fn(p, "inner", "");
	out = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	lma = LOC1(p, 0, 0x30, ma, 1);
	lje = LOC1(p, 0, 0x40, je, 1);
	l = LOCN(p, 0, 0x50, 1, in, ma, out);
	lma2 = LOC1(p, 0, 0x60, add_fn(p, "malloc(unsigned long)", ""), 1);
	lma3 = LOC1(p, 0, 0x70, add_fn(p, ".malloc", ""), 1);
	cr_assert(eq(int, profconv__pruner_init(&pr, p, true, false), 0));
	cr_expect(eq(str, pr.refused, ""));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(lje, lma, lg, lm), 4), 2));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(lma, lm, lma), 3), 1));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(l, lm), 2), 0));
	cr_expect(eq(u32, profconv__prune_skip(&pr, l), 2));
	cr_expect(eq(u32, profconv__prune_skip(&pr, lma), 0));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(lma2, lg, lm), 3), 1));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(lma3, lg, lm), 3), 1));
	profconv__pruner_free(&pr);

	/* Disabled: nothing is cut. */
	cr_assert(eq(int, profconv__pruner_init(&pr, p, false, false), 0));
	cr_expect(eq(sz, profconv__prune_stack(&pr,
	    STK(lje, lma, lg, lm), 4), 0));
	cr_expect(eq(u32, profconv__prune_skip(&pr, l), 0));
	profconv__pruner_free(&pr);
}

/* The expression's cost bound: 0 within it, else -1 and why. */
static int
rx(const char *re, char *why)
{
	why[0] = '\0';
	return profconv__rx_check(re, why, 128);
}

static void
regex_cost_bound(void)
{
	char why[128], deep[2 * PC_RX_MAX_DEPTH + 8];
	int i;

	cr_expect(eq(int, rx("a{1000}", why), 0), "%s", why);
	cr_expect(eq(int, rx("a{1001}", why), -1));
	cr_expect(eq(str, why, "counted repetitions multiply to more than "
	    "1000"));
	/* Nested counts multiply: 10 x 101. */
	cr_expect(eq(int, rx("(a{10}){101}", why), -1));
	cr_expect(eq(int, rx("(a{10}){100}", why), 0), "%s", why);
	/* A bracket is one atom; an escaped brace is no repetition. */
	cr_expect(eq(int, rx("[{]{1001}", why), -1));
	cr_expect(eq(int, rx("x\\{1001}", why), 0), "%s", why);
	/* 4 x 1000 atoms expanded is the most; one more is refused. */
	cr_expect(eq(int, rx("(a{1000})(b{1000})(c{1000})(d{1000})", why), 0),
	    "%s", why);
	cr_expect(eq(int, rx("(a{1000})(b{1000})(c{1000})(d{1000})e", why),
	    -1));
	cr_expect(eq(str, why, "more than 4000 atoms with its counted "
	    "repetitions expanded"));
	cr_expect(eq(int, rx("(a)\\1", why), -1));
	cr_expect(eq(str, why, "back-reference '\\1'"));
	/* PC_RX_MAX_DEPTH groups deep, then one more. */
	for (i = 0; i < PC_RX_MAX_DEPTH; i++)
		deep[i] = '(';
	deep[i] = 'a';
	memset(deep + i + 1, ')', PC_RX_MAX_DEPTH);
	deep[2 * PC_RX_MAX_DEPTH + 1] = '\0';
	cr_expect(eq(int, rx(deep, why), 0), "%s", why);
	memmove(deep + 1, deep, strlen(deep) + 1);
	strcat(deep, ")");
	cr_expect(eq(int, rx(deep, why), -1));
	cr_expect(eq(str, why, "groups nest more than 100 deep"));
}

/* drop_frames beyond the bound: the defaults instead, and why. */
static void
refused_drop_frames_say_why(void)
{
	struct pc_pruner pr;

	heap_types();
	profconv_profile_set_drop_frames(p, "(a)\\1");
	cr_assert(eq(int, profconv__pruner_init(&pr, p, true, false), 0));
	cr_expect(eq(str, pr.refused, "drop_frames or keep_frames refused "
	    "(back-reference '\\1'); default allocator frames used"));
	profconv__pruner_free(&pr);
}

/* The cost bound on an expression, and drop_frames beyond it refused
 * with the reason said.  Only the second case uses the profile. */
Test(prune, regex_cost_bounded)
{
	regex_cost_bound();
	refused_drop_frames_say_why();
}
