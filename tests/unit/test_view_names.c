/* SPDX-License-Identifier: MIT */
/*
 * test_view_names.c - the frames of a view and their names (lib/view/view_names.c):
 * inline chains, granularities, pprof's names for files and addresses,
 * long names cut, and pprof's hide, show, show_from and prune_from on
 * locations, checked exactly on profiles built by hand.
 */

#include "config.h"

#include <string.h>

#include "view/view.h"
#include "model/model.h"
#include "model/seams.h"
#include "view_fixture.h"

TestSuite(view_names, .init = setup, .fini = teardown);

/* Inline calls expand root first, the outermost line first; no_inline
 * keeps one frame per location, its outermost function. */
Test(view_names, inline_order_and_no_inline)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	inline_chain();
	expect_view(p, NULL, "main;outer;middle;leaf 9\n");
	o.no_inline = 1;
	expect_view(p, &o, "main;outer 9\n");
}

/* By line: "name file.c:12" with the file's base name; by address: one
 * frame per location, "outermost+0xaddress"; a location without lines
 * is "module+0xoffset", or its address without a mapping. */
static void
granularity(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t map, m, a, b, l1, l2, l3, l4;
	int64_t v = 2, w = 3;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "/src/app/main.c");
	a = add_fn(p, "grow", "/src/app/pool.c");
	b = add_fn(p, "nofile", "");
	l1 = LOC1(p, map, 0x401000, m, 12);
	l2 = LOCN(p, map, 0x402000, 40, a, m);
	l3 = LOC1(p, map, 0x403000, b, 7);
	l4 = add_loc(p, map, 0x404abc, NULL, 0, 0);
	SAMPLE(p, &v, l2, l1);
	SAMPLE(p, &w, 0x0 + l4, l3, l1);
	expect_view(p, NULL, "main;main;grow 2\nmain;nofile;app+0x4abc 3\n");
	o.granularity = PROFCONV_BY_LINE;
	expect_view(p, &o, "main main.c:12;main main.c:41;grow pool.c:40 2\n"
	    "main main.c:12;nofile;app+0x4abc 3\n");
	o.granularity = PROFCONV_BY_ADDRESS;
	/* Where the functions start is not known: the module's address in
	 * brackets, never taken for an offset. */
	expect_view(p, &o, "main [app+0x1000];main [app+0x2000] 2\n"
	    "main [app+0x1000];nofile [app+0x3000];app+0x4abc 3\n");
	/* Known (the symbolizer found it): the offset into the function. */
	profconv__set_location_fn_offset(p, l1, 0x1f);
	profconv__set_location_fn_offset(p, l3, 0);
	expect_view(p, &o, "main+0x1f;main [app+0x2000] 2\n"
	    "main+0x1f;nofile+0x0;app+0x4abc 3\n");
}

/* pprof's -files and -filefunctions names: the file cleaned as Go's
 * filepath.Clean, "NAME FILE", and "[module]" or "<unknown>" for a frame
 * without a file, unsymbolized ones too. */
static void
granularity_files(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t map, m, a, h, b, l1, l2, l3, l4, l5;
	int64_t v = 2, w = 3, x = 5;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "/src/app/./main.c");
	a = add_fn(p, "grow", "/src/app/pool.c");
	h = add_fn(p, "helper", "/src/app/x/../pool.c");
	b = add_fn(p, "nofile", "");
	l1 = LOC1(p, map, 0x401000, m, 12);
	l2 = LOCN(p, map, 0x402000, 40, h, a, m);
	l3 = LOC1(p, map, 0x403000, b, 7);
	l4 = add_loc(p, map, 0x404abc, NULL, 0, 0);
	l5 = add_loc(p, 0, 0xdeadbeef, NULL, 0, 0);
	SAMPLE(p, &v, l2, l1);
	SAMPLE(p, &w, 0x0 + l4, l3, l1);
	SAMPLE(p, &x, l5);
	o.granularity = PROFCONV_BY_FILE;
	expect_view(p, &o, "/src/app/main.c;/src/app/main.c;/src/app/pool.c;"
	    "/src/app/pool.c 2\n/src/app/main.c;[app];[app] 3\n"
	    "<unknown> 5\n");
	o.granularity = PROFCONV_BY_FILE_FUNCTION;
	expect_view(p, &o, "<unknown> 5\nmain /src/app/main.c;"
	    "main /src/app/main.c;grow /src/app/pool.c;helper /src/app/pool.c"
	    " 2\nmain /src/app/main.c;nofile;[app] 3\n");
	o.granularity = (enum profconv_granularity)5;
	cr_expect(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
}

static void
unmapped_location_is_its_address(void)
{
	uint32_t l;
	int64_t v = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	l = add_loc(p, 0, 0xdeadbeef, NULL, 0, 0);
	SAMPLE(p, &v, l);
	expect_view(p, NULL, "0xdeadbeef 1\n");
}

/* Frame names at each granularity: by function, line, address, file
 * and file and function, and a location without a mapping. */
Test(view_names, names_per_granularity)
{
	granularity();
	teardown();	/* a fresh profile for the next case */
	setup();
	granularity_files();
	teardown();	/* a fresh profile for the next case */
	setup();
	unmapped_location_is_its_address();
}

/*
 * pprof's -show_from and -prune_from, on the stack of its PruneFrom
 * example (profile/prune.go): [A,B,C,B,D] leaf first, "D;B;C;B;A" root
 * first.  show_from keeps the frames from the root-most match down, and
 * drops a stack without one; prune_from the frames down to the match
 * nearest the leaf.
 */
Test(view_names, show_from_and_prune_from_as_pprof)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t a, b, c, d, la, lb, lc, ld;
	int64_t v = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	a = add_fn(p, "A", "");
	b = add_fn(p, "B", "");
	c = add_fn(p, "C", "");
	d = add_fn(p, "D", "");
	la = LOC1(p, 0, 0x10, a, 1);
	lb = LOC1(p, 0, 0x20, b, 1);
	lc = LOC1(p, 0, 0x30, c, 1);
	ld = LOC1(p, 0, 0x40, d, 1);
	SAMPLE(p, &v, la, lb, lc, lb, ld);
	o.show_from = "A";
	expect_view(p, &o, "A 1\n");
	o.show_from = "B";
	expect_view(p, &o, "B;C;B;A 1\n");
	o.show_from = "C";
	expect_view(p, &o, "C;B;A 1\n");
	o.show_from = "E";
	expect_view(p, &o, "");
	o.show_from = NULL;
	o.prune_from = "A";
	expect_view(p, &o, "D;B;C;B;A 1\n");
	o.prune_from = "B";
	expect_view(p, &o, "D;B;C;B 1\n");
	o.prune_from = "^D$";
	expect_view(p, &o, "D 1\n");
}

/*
 * -hide and -show work on lines: inlined calls go one by one, a location
 * whose lines all go leaves the stack, and a mapped file that matches
 * takes (hide) or keeps (show) the whole location.  -show_from cuts
 * inside an inline chain at its outermost match, -prune_from at its
 * innermost.
 */
Test(view_names, hide_show_on_inline_chains)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t lib, m, in1, in2, f, l1, l2, l3;
	int64_t v = 2;

	profconv_profile_add_sample_type(p, "samples", "count");
	lib = add_map(p, 0x7000, 0x8000, "/usr/lib/libz.so.1");
	m = add_fn(p, "main", "main.c");
	in1 = add_fn(p, "inner", "x.h");
	in2 = add_fn(p, "outer", "x.c");
	f = add_fn(p, "deflate", "z.c");
	l1 = LOC1(p, 0, 0x10, m, 1);
	l2 = LOCN(p, 0, 0x20, 1, in1, in2);	/* outer inlines inner */
	l3 = LOC1(p, lib, 0x7100, f, 1);
	SAMPLE(p, &v, l3, l2, l1);
	expect_view(p, NULL, "main;outer;inner;deflate 2\n");
	o.hide = "inner";
	expect_view(p, &o, "main;outer;deflate 2\n");
	o.hide = "x\\.[ch]$";
	expect_view(p, &o, "main;deflate 2\n");
	o.hide = "libz";
	expect_view(p, &o, "main;outer;inner 2\n");
	o.hide = "main|outer|inner|deflate";
	expect_view(p, &o, "");
	o.hide = NULL;
	o.show = "outer|libz";
	expect_view(p, &o, "outer;deflate 2\n");
	o.show = NULL;
	o.show_from = "inner|outer";
	expect_view(p, &o, "outer;inner;deflate 2\n");
	o.show_from = "inner";
	expect_view(p, &o, "inner;deflate 2\n");
	o.show_from = NULL;
	o.prune_from = "inner|outer";
	expect_view(p, &o, "main;outer;inner 2\n");
	o.prune_from = "outer";
	expect_view(p, &o, "main;outer 2\n");
}

/*
 * A frame's text longer than PC_VIEW_MAX_NAME (1024) bytes keeps its
 * first (1024 - 3) / 2 = 510 bytes and its last 511 around "...", cut
 * between UTF-8 characters: with a two-byte character across byte 510
 * the head stops before it (509 bytes) and the tail takes one more (512).
 */
Test(view_names, long_names_elided)
{
	char name[1101], want[1100];
	size_t n;

	profconv_profile_add_sample_type(p, "samples", "count");
	memset(name, 'x', 600);
	memset(name + 600, 'y', 500);
	name[1100] = '\0';
	SAMPLE(p, (int64_t[]){ 1 }, LOC1(p, 0, 0x10, add_fn(p, name, ""), 1));
	n = 0;
	memset(want, 'x', 510);
	n += 510;
	memcpy(want + n, "...", 3);
	n += 3;
	memset(want + n, 'x', 11);
	n += 11;
	memset(want + n, 'y', 500);
	n += 500;
	memcpy(want + n, " 1\n", 4);
	cr_assert(eq(sz, n, 1024));
	expect_view(p, NULL, want);

	teardown();
	setup();
	profconv_profile_add_sample_type(p, "samples", "count");
	memcpy(name + 509, "\xc3\xa9", 2);
	SAMPLE(p, (int64_t[]){ 1 }, LOC1(p, 0, 0x10, add_fn(p, name, ""), 1));
	n = 0;
	memset(want, 'x', 509);
	n += 509;
	memcpy(want + n, "...", 3);
	n += 3;
	memset(want + n, 'x', 12);
	n += 12;
	memset(want + n, 'y', 500);
	n += 500;
	memcpy(want + n, " 1\n", 4);
	cr_assert(eq(sz, n, 1024));
	expect_view(p, NULL, want);
}
