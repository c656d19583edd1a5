/* SPDX-License-Identifier: MIT */
/*
 * test_coarsen.c - lib/view/coarsen.c: the view by function made from
 * the view by line (profconv__view_coarsen(), _finish()) is
 * profconv_view_new()'s by function in every part a reader sees, under
 * every option that allows it, also past 65,535 frames; between the two
 * steps a reader that adds values up reads the same sums; and the view
 * by line is not coarse, and leaves the profile its stacks, when a name
 * filter is given, when one text by line stands for two texts by
 * function, when a text was cut, or when sums could saturate.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "view/view.h"
#include "view_helpers.h"
#include "view_dump.h"

enum { NFN = 30, NSAMPLES = 4000 };

/*
 * A profile of NSAMPLES stacks of 1 to 10 frames from a fixed generator:
 * NFN functions in four files (and two without one), each at three
 * lines, some locations with a call inlined, so that stacks by line
 * that differ are one stack by function; two sample types, each sample
 * labelled.  BIG: a value near INT64_MAX in the first sample.
 */
static struct profconv_profile *
make(bool big)
{
	static const char *const file[] = { "/src/a.c", "/src/b.c",
		"/usr/include/c++/12/bits/stl_vector.h", "/src/dir/a.c", "" };
	struct profconv_profile *p;
	uint32_t fn[NFN], loc[NFN * 3], ids[10];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t i, j, n;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	for (i = 0; i < NFN; i++) {
		char name[32];

		snprintf(name, sizeof(name), "fn%zu", i);
		fn[i] = add_fn(p, name, file[i % 5]);
	}
	for (i = 0; i < NFN; i++) {
		loc[i] = LOC1(p, 0, 0x1000 + 16 * i, fn[i], 10 + (int64_t)i);
		loc[NFN + i] = LOC1(p, 0, 0x4000 + 16 * i, fn[i],
		    40 + (int64_t)i % 3);
		loc[2 * NFN + i] = LOCN(p, 0, 0x8000 + 16 * i, 70,
		    fn[(i + 7) % NFN], fn[i]);
	}
	for (i = 0; i < NSAMPLES; i++) {
		struct profconv_label l = { "bytes", NULL, 0, "bytes" };
		int64_t v[2];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = 1 + x % 10;
		for (j = 0; j < n; j++)
			ids[j] = loc[(x >> (5 * j + 3)) % (3 * NFN)];
		v[0] = 1 + (int64_t)((x >> 50) % 5);
		v[1] = big && i == 0 ? INT64_MAX - 5 : v[0] *
		    (int64_t)(16 << (i % 3)) + (int64_t)(i % 5);
		l.num = v[1] / v[0];
		cr_assert(eq(int, profconv_profile_add_sample(p, ids, n, v, &l,
		    1), 0), "%s", ERRMSG);
	}
	return p;
}

/* The function rows of V (flat and cum of each type), sorted, as text. */
static char *
function_sums(const struct profconv_view *v)
{
	size_t nt = profconv_profile_sample_type_count(
	    profconv_view_profile(v)), col = 1, i, j;
	struct pc_rows *r = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	cr_assert(eq(int, profconv__rows_new(&r, 2 * nt), 0));
	cr_assert(eq(int, profconv__rows_add_functions(r, v, 0, nt), 0),
	    "%s", ERRMSG);
	profconv__rows_sort(r, profconv__rows_by_magnitude, &col);
	for (i = 0; i < profconv__rows_count(r); i++) {
		fprintf(fp, "%s", profconv__rows_name(r, i));
		for (j = 0; j < 2 * nt; j++)
			fprintf(fp, " %" PRId64, profconv__rows_values(r, i)[j]);
		fputc('\n', fp);
	}
	profconv__rows_free(r);
	fclose(fp);
	return text;
}

/* The view by function of a profile like P made from its view by line,
 * and what it must be, under OPTS (by function). */
static void
expect_coarsened(struct profconv_profile *(*mk)(void),
    const struct profconv_view_options *opts, const char *what)
{
	struct profconv_view *want = NULL, *lv = NULL, *cv = NULL;
	struct profconv_profile *p = mk(), *q = mk();
	struct profconv_view_options lo = *opts;
	char *a, *b;

	profconv_profile_set_stacks_disposable(q);
	lo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv_view_new(&want, p, opts), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__view_new_by_line(&lv, q, &lo, true), 0),
	    "%s: %s", what, ERRMSG);
	cr_assert(profconv__view_is_coarse(lv), "%s", what);
	cr_expect(not(profconv__view_is_by_function(lv)), "%s", what);
	/* It took the stacks: the view by function is made without. */
	cr_expect(eq(int, profconv_profile_has_stacks(q), 0), "%s", what);
	cr_assert(eq(int, profconv__view_coarsen(&cv, lv), 0), "%s: %s",
	    what, ERRMSG);
	cr_expect(eq(int, profconv__view_granularity(cv),
	    PROFCONV_BY_FUNCTION), "%s", what);
	/* Between the steps: the same sums, and the view by line whole. */
	a = function_sums(want);
	b = function_sums(cv);
	cr_expect(gt(sz, strlen(a), 200), "%s", what);
	cr_expect(eq(str, b, a), "%s", what);
	free(a);
	free(b);
	cr_expect(eq(int, profconv__view_granularity(lv), PROFCONV_BY_LINE));
	cr_expect(gt(sz, profconv_view_frame_count(lv),
	    profconv_view_frame_count(cv)), "%s", what);
	cr_assert(eq(int, profconv__view_coarsen_finish(cv, lv), 0),
	    "%s: %s", what, ERRMSG);
	a = view_dump(want);
	b = view_dump(cv);
	cr_expect(gt(sz, strlen(a), 1000), "%s", what);
	cr_expect(eq(str, b, a), "%s", what);
	free(a);
	free(b);
	profconv_view_free(cv);
	profconv_view_free(want);
	profconv_profile_free(p);
	profconv_profile_free(q);
}

static struct profconv_profile *
make_fit(void)
{
	return make(false);
}

Test(coarsen, is_the_view_by_function)
{
	struct profconv_view_options o[8];
	const char *name[8] = { "defaults", "tagroot", "no inline",
		"one job", "suppressions", "tagfocus", "tagleaf", "no demangle" };
	size_t i;

	for (i = 0; i < 8; i++)
		o[i] = (struct profconv_view_options)PROFCONV_VIEW_OPTIONS_INIT;
	o[1].tagroot = "bytes";
	o[2].no_inline = 1;
	o[3].jobs = 1;
	o[4].suppressions = "leak:fn1[0-5]\n";
	o[5].tagfocus = "bytes=32b:";
	o[6].tagleaf = "bytes";
	o[7].demangle = PROFCONV_DEMANGLE_NONE;
	for (i = 0; i < 8; i++)
		expect_coarsened(make_fit, &o[i], name[i]);
}

/* LV, by line of P under OPTS (by function), is not coarse: P keeps its
 * stacks, LV is profconv_view_new()'s, and no view is made from it. */
static void
expect_not_coarse(struct profconv_profile *p,
    const struct profconv_view_options *opts, const char *what)
{
	struct profconv_view *want = NULL, *lv = NULL, *cv = NULL;
	struct profconv_view_options lo = *opts;
	char *a, *b;

	profconv_profile_set_stacks_disposable(p);
	lo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv__view_new_by_line(&lv, p, &lo, true), 0),
	    "%s: %s", what, ERRMSG);
	cr_expect(not(profconv__view_is_coarse(lv)), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(p), 1), "%s", what);
	cr_expect(eq(int, profconv__view_coarsen(&cv, lv), PROFCONV_EINVAL),
	    "%s", what);
	cr_expect(zero(ptr, cv));
	cr_assert(eq(int, profconv_view_new(&want, p, &lo), 0), "%s", ERRMSG);
	a = view_dump(want);
	b = view_dump(lv);
	cr_expect(eq(str, b, a), "%s", what);
	free(a);
	free(b);
	profconv_view_free(want);
	profconv_view_free(lv);
	profconv_profile_free(p);
}

Test(coarsen, not_with_name_filters)
{
	struct profconv_view_options o[6];
	const char *name[6] = { "focus", "ignore", "hide", "show",
		"show_from", "prune_from" };
	size_t i;

	for (i = 0; i < 6; i++)
		o[i] = (struct profconv_view_options)PROFCONV_VIEW_OPTIONS_INIT;
	o[0].focus = "fn1";
	o[1].ignore = "fn2";
	o[2].hide = "fn3";
	o[3].show = "fn";
	o[4].show_from = "fn4";
	o[5].prune_from = "fn5";
	for (i = 0; i < 6; i++)
		expect_not_coarse(make(false), &o[i], name[i]);
}

Test(coarsen, not_when_sums_may_saturate)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	expect_not_coarse(make(true), &o, "near INT64_MAX");
}

/* "g t.c:3" by line is function g at t.c:3 and a function named so
 * with no file: two texts by function. */
Test(coarsen, not_when_a_text_stands_for_two)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_profile *p;
	int64_t v[1] = { 1 };
	uint32_t g, odd, a, b;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	g = add_fn(p, "g", "/src/t.c");
	odd = add_fn(p, "g t.c:3", "");
	a = LOC1(p, 0, 0x1000, g, 3);
	b = LOC1(p, 0, 0x2000, odd, 9);
	SAMPLE(p, v, a);
	SAMPLE(p, v, b, a);
	expect_not_coarse(p, &o, "one text, two functions");
}

/* A name whose text by line is cut: its text by function is not a part
 * of it. */
Test(coarsen, not_when_a_text_is_cut)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_profile *p;
	char name[PC_VIEW_MAX_NAME];
	int64_t v[1] = { 1 };
	uint32_t f, h;

	memset(name, 'n', sizeof(name) - 3);
	name[sizeof(name) - 3] = '\0';
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	f = add_fn(p, name, "/src/long.c");
	h = add_fn(p, "h", "/src/h.c");
	SAMPLE(p, v, LOC1(p, 0, 0x1000, f, 12), LOC1(p, 0, 0x2000, h, 1));
	expect_not_coarse(p, &o, "cut");
}

static size_t wide_fns;

/* Past 65,535 frames by line (70,000 lines), in WIDE_FNS functions. */
static struct profconv_profile *
make_wide(void)
{
	struct profconv_profile *p;
	uint32_t *fn, l[2];
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	fn = malloc(wide_fns * sizeof(*fn));
	cr_assert(fn != NULL);
	for (i = 0; i < wide_fns; i++) {
		char name[32];

		snprintf(name, sizeof(name), "w%zu", i);
		fn[i] = add_fn(p, name, "/src/w.c");
	}
	for (i = 0; i < 70000; i++) {
		int64_t v[1] = { 1 + (int64_t)(i % 3) };

		l[0] = LOC1(p, 0, 0x10000 + 16 * i, fn[i % wide_fns],
		    1 + (int64_t)(i / wide_fns));
		l[1] = LOC1(p, 0, 0x10, fn[0], 1);
		cr_assert(eq(int, profconv_profile_add_sample(p, l, 2, v, NULL,
		    0), 0), "%s", ERRMSG);
	}
	free(fn);
	return p;
}

Test(coarsen, past_65535_frames)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	wide_fns = 700;		/* wide by line, narrow by function */
	expect_coarsened(make_wide, &o, "700 functions");
	wide_fns = 68000;	/* wide both ways */
	expect_coarsened(make_wide, &o, "68,000 functions");
}

Test(coarsen, finish_refuses_another_view)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *lv[2] = { NULL, NULL }, *cv = NULL;
	struct profconv_profile *p[2];
	int i;

	o.granularity = PROFCONV_BY_LINE;
	for (i = 0; i < 2; i++) {
		p[i] = make(false);
		cr_assert(eq(int, profconv__view_new_by_line(&lv[i], p[i], &o,
		    false), 0), "%s", ERRMSG);
	}
	cr_assert(eq(int, profconv__view_coarsen(&cv, lv[0]), 0), "%s",
	    ERRMSG);
	cr_expect(eq(int, profconv__view_coarsen_finish(cv, lv[1]),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv__view_coarsen_finish(cv, lv[0]), 0));
	lv[0] = NULL;		/* freed by it */
	cr_expect(eq(int, profconv__view_coarsen_finish(cv, lv[1]),
	    PROFCONV_EINVAL));
	profconv_view_free(cv);
	for (i = 0; i < 2; i++) {
		profconv_view_free(lv[i]);
		profconv_profile_free(p[i]);
	}
}
