/* SPDX-License-Identifier: MIT */
/*
 * test_wrappers.c - allocation wrappers found by their shape (the view's
 * find_wrappers, view/wrappers.c), on profiles built by hand: a wrapper
 * and a wrapper of it are found; a function with one caller, one that
 * also calls what allocates, one whose only extra caller is itself, and
 * one too small are not; totals never change.
 */

#include "config.h"

#include "view/view.h"
#include "view_helpers.h"
#include "model/model.h"
#include "model/seams.h"

static struct profconv_profile *p;
static char found[512];
static int calls;

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_drop_frames(p, "malloc");
	found[0] = '\0';
	calls = 0;
}

static void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

TestSuite(wrappers, .init = setup, .fini = teardown);

static void
record(const char *const *names, size_t n, void *payload)
{
	size_t i;

	(void)payload;
	calls++;
	for (i = 0; i < n; i++) {
		if (found[0] != '\0')
			strcat(found, ",");
		strcat(found, names[i]);
	}
}

static struct profconv_view_options
find_opts(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	o.find_wrappers = 1;
	o.wrappers_found = record;
	return o;
}

static uint32_t
loc(const char *name)
{
	static uint64_t addr = 0x1000;

	return LOC1(p, 0, addr += 0x10, add_fn(p, name, ""), 1);
}

static int64_t
total(const struct profconv_view_options *o)
{
	struct profconv_view *v;
	int64_t t = -1;

	cr_assert(eq(int, profconv_view_new(&v, p, o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_total(v, 0, &t), 0));
	profconv_view_free(v);
	return t;
}

/* app_alloc under four callers is found; app_strdup, under four callers
 * and only ever above app_alloc, in the next round; table, which
 * allocates the most but for one caller, is not. */
Test(wrappers, wrapper_and_wrapper_of_wrapper)
{
	struct profconv_view_options o = find_opts();
	uint32_t m = loc("main"), ma = loc("malloc"), w = loc("app_alloc");
	uint32_t s = loc("app_strdup"), t = loc("table");
	uint32_t c[4] = { loc("c1"), loc("c2"), loc("c3"), loc("c4") };
	uint32_t d[4] = { loc("d1"), loc("d2"), loc("d3"), loc("d4") };
	int64_t v = 10, big = 100;
	int i;

	for (i = 0; i < 4; i++) {
		SAMPLE(p, &v, ma, w, c[i], m);
		SAMPLE(p, &v, ma, w, s, d[i], m);
	}
	SAMPLE(p, &big, ma, t, m);
	expect_view(p, NULL, "main;c1;app_alloc 10\nmain;c2;app_alloc 10\n"
	    "main;c3;app_alloc 10\nmain;c4;app_alloc 10\n"
	    "main;d1;app_strdup;app_alloc 10\n"
	    "main;d2;app_strdup;app_alloc 10\n"
	    "main;d3;app_strdup;app_alloc 10\n"
	    "main;d4;app_strdup;app_alloc 10\nmain;table 100\n");
	cr_expect(eq(int, calls, 0));
	expect_view(p, &o, "main;c1 10\nmain;c2 10\nmain;c3 10\nmain;c4 10\n"
	    "main;d1 10\nmain;d2 10\nmain;d3 10\nmain;d4 10\n"
	    "main;table 100\n");
	cr_expect(eq(str, found, "app_alloc,app_strdup"));
	cr_expect(eq(int, calls, 1));
	cr_expect(eq(i64, total(&o), total(NULL)));
	cr_expect(eq(i64, total(&o), 180));
}

/* A function that allocates from four callers but also calls a function
 * that allocates, for half its value, is no wrapper. */
Test(wrappers, wrapper_that_is_also_caller)
{
	struct profconv_view_options o = find_opts();
	uint32_t m = loc("main"), ma = loc("malloc"), b = loc("both");
	uint32_t h = loc("helper");
	uint32_t c[4] = { loc("c1"), loc("c2"), loc("c3"), loc("c4") };
	int64_t v = 10;
	int i;

	for (i = 0; i < 4; i++) {
		SAMPLE(p, &v, ma, b, c[i], m);
		SAMPLE(p, &v, ma, h, b, c[i], m);
	}
	expect_view(p, &o, "main;c1;both 10\nmain;c1;both;helper 10\n"
	    "main;c2;both 10\nmain;c2;both;helper 10\n"
	    "main;c3;both 10\nmain;c3;both;helper 10\n"
	    "main;c4;both 10\nmain;c4;both;helper 10\n");
	cr_expect(eq(str, found, ""));
	cr_expect(eq(int, calls, 0));
}

/* Recursion is not a caller: rec calls itself and has three other
 * callers, one short; with a fourth it is found, its recursion cut
 * with it. */
Test(wrappers, recursion_is_no_caller)
{
	struct profconv_view_options o = find_opts();
	uint32_t m = loc("main"), ma = loc("malloc"), r = loc("rec");
	uint32_t c[4] = { loc("c1"), loc("c2"), loc("c3"), loc("c4") };
	int64_t v = 10;
	int i;

	for (i = 0; i < 3; i++)
		SAMPLE(p, &v, ma, r, r, c[i], m);
	expect_view(p, &o, "main;c1;rec;rec 10\nmain;c2;rec;rec 10\n"
	    "main;c3;rec;rec 10\n");
	cr_expect(eq(str, found, ""));
	SAMPLE(p, &v, ma, r, c[3], m);
	expect_view(p, &o, "main;c1 10\nmain;c2 10\nmain;c3 10\n"
	    "main;c4 10\n");
	cr_expect(eq(str, found, "rec"));
}

/* A wrapper's samples must hold a share of the profile
 * (PC_WRAP_MIN_PERMILLE): four callers of 1 each beside 1000 are not
 * enough. */
Test(wrappers, too_small)
{
	struct profconv_view_options o = find_opts();
	uint32_t m = loc("main"), ma = loc("malloc"), w = loc("tiny_alloc");
	uint32_t t = loc("table");
	uint32_t c[4] = { loc("c1"), loc("c2"), loc("c3"), loc("c4") };
	int64_t v = 1, big = 1000;
	int i;

	for (i = 0; i < 4; i++)
		SAMPLE(p, &v, ma, w, c[i], m);
	SAMPLE(p, &big, ma, t, m);
	expect_view(p, &o, "main;c1;tiny_alloc 1\nmain;c2;tiny_alloc 1\n"
	    "main;c3;tiny_alloc 1\nmain;c4;tiny_alloc 1\nmain;table 1000\n");
	cr_expect(eq(str, found, ""));
}

/* Not in a profile that counts no allocations, nor with allocator
 * frames kept. */
Test(wrappers, only_when_allocator_frames_are_cut)
{
	struct profconv_view_options o = find_opts();
	uint32_t m = loc("main"), ma = loc("malloc"), w = loc("app_alloc");
	uint32_t c[4] = { loc("c1"), loc("c2"), loc("c3"), loc("c4") };
	int64_t v = 10;
	int i;

	for (i = 0; i < 4; i++)
		SAMPLE(p, &v, ma, w, c[i], m);
	o.keep_allocator_frames = 1;
	expect_view(p, &o, "main;c1;app_alloc;malloc 10\n"
	    "main;c2;app_alloc;malloc 10\nmain;c3;app_alloc;malloc 10\n"
	    "main;c4;app_alloc;malloc 10\n");
	cr_expect(eq(str, found, ""));
	o.keep_allocator_frames = 0;
	expect_view(p, &o, "main;c1 10\nmain;c2 10\nmain;c3 10\nmain;c4 10\n");
	cr_expect(eq(str, found, "app_alloc"));
}
