/* SPDX-License-Identifier: MIT */
/*
 * test_stacks_given.c - a profile's stacks given back once read
 * (profconv_profile_drop_stacks(), profconv_view_new_taking(),
 * profconv_profile_set_stacks_disposable()): what reads stacks refuses
 * the profile after, views made before go on reading it, and every output
 * of the calls that drop them (the view, the summary, the tree, the
 * comparison table, the listing, the report's page) is the one they give
 * otherwise.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"
#include "tmpdir_fixture.h"
#include "view_helpers.h"
#include "source_fixture.h"
#include "view_dump.h"

static void
setup(void)
{
	make_tmp_dir("/tmp/profconv-stacks-given-XXXXXX");
}

TestSuite(stacks_given, .init = setup, .fini = remove_dir);

enum { NFN = 24, NSAMPLES = 3000 };

/* make() names no file: the profile has no source lines. */
static bool no_files;

/*
 * A profile of NSAMPLES stacks of 1 to 12 frames drawn by a fixed
 * generator from NFN functions: the first eight in DIR/own.c (the
 * program's own: the report's Source tab lists them), the others in a
 * system header or without a file; a few locations hold an inlined call;
 * two sample types, each sample labelled with its size.  SEED varies
 * the values only, so that two profiles of one seed are equal and of
 * two seeds have the same stacks.
 */
static struct profconv_profile *
make(unsigned seed)
{
	struct profconv_profile *p;
	char own[256], text[64 * 40 + 1] = "";
	uint32_t fn[NFN], loc[NFN * 2], ids[12];
	uint64_t x = 88172645463325252ull;
	size_t i, j, n;
	int k;

	snprintf(own, sizeof(own), "%s/own.c", dir);
	for (k = 1; k <= 60; k++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
		    "line %d of own.c\n", k);
	write_file("own.c", text);
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	for (i = 0; i < NFN; i++) {
		char name[32];

		snprintf(name, sizeof(name), i < 8 ? "own%zu" : "lib%zu", i);
		fn[i] = add_fn(p, name, no_files ? "" : i < 8 ? own :
		    i < 16 ? "/usr/include/c++/12/bits/stl_vector.h" : "");
	}
	for (i = 0; i < NFN; i++) {
		loc[i] = LOC1(p, 0, 0x1000 + 16 * i, fn[i], 1 + (int64_t)i);
		/* The same function at another line, with a call inlined. */
		loc[NFN + i] = LOCN(p, 0, 0x8000 + 16 * i, 30 + (int64_t)i % 20,
		    fn[(i + 3) % NFN], fn[i]);
	}
	for (i = 0; i < NSAMPLES; i++) {
		int64_t v[2];
		struct profconv_label l = { "bytes", NULL, 0, "bytes" };

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = 1 + x % 12;
		for (j = 0; j < n; j++)
			ids[j] = loc[(x >> (5 * j + 4)) % (2 * NFN)];
		v[0] = 1 + (int64_t)((x >> 40) % 7);
		v[1] = v[0] * (int64_t)(16 << (seed % 3)) + (int64_t)(i % 5);
		l.num = v[1] / v[0];
		cr_assert(eq(int, profconv_profile_add_sample(p, ids, n, v, &l,
		    1), 0), "%s", ERRMSG);
	}
	return p;
}

/* P[0] and P[1] of SEED and SEED + 1, and Q[0..1] the same, their
 * stacks disposable. */
static void
make_pairs(struct profconv_profile **p, struct profconv_profile **q,
    unsigned seed)
{
	int i;

	for (i = 0; i < 2; i++) {
		p[i] = make(seed + (unsigned)i);
		q[i] = make(seed + (unsigned)i);
		profconv_profile_set_stacks_disposable(q[i]);
	}
}

/* After a call given P[1] and Q[1], and their bases P[0] and Q[0] when
 * WITH_BASE: P's stacks are kept, Q's read are gone; all four freed. */
static void
expect_given_and_free(struct profconv_profile **p,
    struct profconv_profile **q, bool with_base, const char *what)
{
	int i;

	cr_expect(eq(int, profconv_profile_has_stacks(p[0]), 1), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(p[1]), 1), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(q[1]), 0), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(q[0]), !with_base),
	    "%s", what);
	for (i = 0; i < 2; i++) {
		profconv_profile_free(p[i]);
		profconv_profile_free(q[i]);
	}
}

/* What reads stacks refuses a profile whose stacks were dropped, with a
 * message that says so. */
static void
expect_refused(int rc)
{
	cr_expect(eq(int, rc, PROFCONV_EINVAL));
	cr_expect(not(zero(ptr, strstr(profconv_errmsg(), "given back"))),
	    "%s", ERRMSG);
}

/* Dropped: counts, values and labels stay, and a view made before reads
 * the same; every reader of stacks refuses. */
Test(stacks_given, dropped_stacks_refused)
{
	struct profconv_profile *p = make(0), *out = NULL;
	struct profconv_view *v = NULL, *w = NULL;
	struct profconv_sample s;
	struct profconv_label l;
	char *before, *after, *buf = NULL;
	uint32_t id = 1;
	int64_t val[2] = { 1, 1 };
	size_t len = 0, n;
	FILE *fp;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
	before = view_text(v);
	cr_expect(eq(int, profconv_profile_has_stacks(p), 1));
	profconv_profile_drop_stacks(p);
	profconv_profile_drop_stacks(p);	/* twice: nothing more */
	cr_expect(eq(int, profconv_profile_has_stacks(p), 0));
	after = view_text(v);
	cr_expect(eq(str, after, before));
	cr_expect(eq(sz, profconv_profile_sample_count(p), NSAMPLES));
	cr_assert(eq(int, profconv_profile_sample(p, 7, &s), 0));
	cr_expect(eq(sz, s.nlocations, 0));
	cr_expect(gt(i64, s.values[1], 0));
	cr_expect(eq(int, profconv_profile_sample_label(p, 7, 0, &l), 0));
	cr_expect(eq(str, (char *)l.key, "bytes"));
	expect_refused(profconv_profile_sample_locations(p, 7, NULL, 0, &n));
	expect_refused(profconv_profile_add_sample(p, &id, 1, val, NULL, 0));
	expect_refused(profconv_view_new(&w, p, NULL));
	cr_expect(zero(ptr, w));
	expect_refused(profconv_profile_merge(&out, &p, 1));
	cr_expect(zero(ptr, out));
	fp = open_memstream(&buf, &len);
	cr_assert(not(zero(ptr, fp)));
	expect_refused(profconv_profile_write(p, fp, NULL));
	expect_refused(profconv_profile_print(p, fp, NULL));
	fclose(fp);
	cr_expect(eq(sz, len, 0), "written before the refusal: %zu bytes",
	    len);
	free(buf);
	free(before);
	free(after);
	profconv_view_free(v);
	profconv_profile_free(p);
}

/* A profile past 65,535 locations holds its ids in four bytes: dropped
 * the same way. */
Test(stacks_given, dropped_wide_stacks)
{
	struct profconv_profile *p;
	struct profconv_view *v = NULL, *t = NULL;
	uint32_t f, first = 0, last = 0, id;
	int64_t one = 1;
	char *want, *got;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	f = add_fn(p, "f", "");
	for (i = 0; i < 70000; i++) {
		id = LOC1(p, 0, 0x10 + i, f, 1 + (int64_t)i % 9);
		first = first != 0 ? first : id;
		last = id;
	}
	SAMPLE(p, &one, last, first);
	SAMPLE(p, &one, first, last, first);
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
	want = view_text(v);
	cr_assert(eq(int, profconv_view_new_taking(&t, p, NULL), 0), "%s",
	    ERRMSG);
	cr_expect(eq(int, profconv_profile_has_stacks(p), 0));
	got = view_text(t);
	cr_expect(eq(str, got, want));
	free(want);
	free(got);
	profconv_view_free(v);
	profconv_view_free(t);
	profconv_profile_free(p);
}

/* The view that takes the stacks is profconv_view_new()'s, whatever the
 * options; they are dropped even when it fails. */
Test(stacks_given, taking_view_is_the_view)
{
	struct profconv_view_options o[8];
	const char *name[8] = { "defaults", "by line", "focus", "hide",
		"tagroot", "no inline", "one job", "by address" };
	struct profconv_view *a = NULL, *b = NULL;
	struct profconv_profile *p, *q;
	char *want, *got;
	size_t i;

	for (i = 0; i < 8; i++)
		o[i] = (struct profconv_view_options)PROFCONV_VIEW_OPTIONS_INIT;
	o[1].granularity = PROFCONV_BY_LINE;
	o[2].focus = "own[1-3]";
	o[3].hide = "lib1[0-5]";
	o[4].tagroot = "bytes";
	o[5].no_inline = 1;
	o[6].jobs = 1;
	o[7].granularity = PROFCONV_BY_ADDRESS;
	for (i = 0; i < 8; i++) {
		p = make(1);
		q = make(1);
		cr_assert(eq(int, profconv_view_new(&a, p, &o[i]), 0), "%s",
		    ERRMSG);
		cr_assert(eq(int, profconv_view_new_taking(&b, q, &o[i]), 0),
		    "%s: %s", name[i], ERRMSG);
		cr_expect(eq(int, profconv_profile_has_stacks(p), 1));
		cr_expect(eq(int, profconv_profile_has_stacks(q), 0));
		want = view_text(a);
		got = view_text(b);
		cr_expect(gt(sz, strlen(want), 100), "%s", name[i]);
		cr_expect(eq(str, got, want), "%s", name[i]);
		free(want);
		free(got);
		profconv_view_free(a);
		profconv_view_free(b);
		profconv_profile_free(p);
		profconv_profile_free(q);
	}
	q = make(1);
	o[0].focus = "(";
	cr_expect(eq(int, profconv_view_new_taking(&b, q, &o[0]),
	    PROFCONV_EINVAL));
	cr_expect(zero(ptr, b));
	cr_expect(eq(int, profconv_profile_has_stacks(q), 0));
	profconv_profile_free(q);
}

/* PRINT of P, and of a copy whose stacks are disposable: the same text,
 * and the copy's stacks are gone when GONE says they go. */
static void
expect_print_same(const struct profconv_print_options *print, bool gone,
    const char *what)
{
	struct profconv_profile *p = make(2), *q = make(2);
	char *want = NULL, *got = NULL;

	profconv_profile_set_stacks_disposable(q);
	CAPTURE(want, profconv_profile_print(p, fp, print));
	CAPTURE(got, profconv_profile_print(q, fp, print));
	cr_expect(gt(sz, strlen(want), 200), "%s", what);
	cr_expect(eq(str, got, want), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(p), 1), "%s", what);
	cr_expect(eq(int, profconv_profile_has_stacks(q), !gone), "%s", what);
	free(want);
	free(got);
	profconv_profile_free(p);
	profconv_profile_free(q);
}

Test(stacks_given, summary_and_tree_the_same)
{
	struct profconv_print_options o = PROFCONV_PRINT_OPTIONS_INIT;

	o.summary = 1;
	expect_print_same(&o, true, "summary");
	o.summary = 0;
	o.tree = 1;
	expect_print_same(&o, true, "tree");
	o.tree = 0;
	/* The traces read the profile's stacks after their view: kept. */
	o.traces = 1;
	expect_print_same(&o, false, "traces");
}

/* profdiff's table, by function and by stack: the same, and the
 * disposable profiles' stacks gone. */
Test(stacks_given, comparison_the_same)
{
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_profile *p[2], *q[2];
	struct profconv_diff *d = NULL, *e = NULL;
	char *want = NULL, *got = NULL;
	int by;

	for (by = 0; by < 2; by++) {
		o.by = by == 0 ? PROFCONV_DIFF_BY_FUNCTION :
		    PROFCONV_DIFF_BY_STACK;
		make_pairs(p, q, 0);
		cr_assert(eq(int, profconv_diff_new(&d, p[0], p[1], &o), 0),
		    "%s", ERRMSG);
		cr_assert(eq(int, profconv_diff_new(&e, q[0], q[1], &o), 0),
		    "%s", ERRMSG);
		CAPTURE(want, profconv_diff_print(d, fp, NULL));
		CAPTURE(got, profconv_diff_print(e, fp, NULL));
		cr_expect(gt(sz, strlen(want), 200));
		cr_expect(eq(str, got, want), "by %d", by);
		expect_given_and_free(p, q, true, "comparison");
		free(want);
		free(got);
		profconv_diff_free(d);
		profconv_diff_free(e);
	}
}

/* The annotated source, alone and against a base, with and without
 * focus (whose view by function comes after the listing's own): the
 * same, and the disposable profiles' stacks gone. */
Test(stacks_given, listing_the_same)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_profile *p[2], *q[2];
	char *want = NULL, *got = NULL;
	int with_base, focus;

	o.source_path = dir;
	o.view = &vo;
	for (focus = 0; focus < 2; focus++) {
		vo.focus = focus ? "lib1[0-9]" : NULL;
		for (with_base = 0; with_base < 2; with_base++) {
			make_pairs(p, q, 0);
			CAPTURE(want, profconv_list_write(p[1], with_base ?
			    p[0] : NULL, "own[0-4]", fp, &o));
			CAPTURE(got, profconv_list_write(q[1], with_base ?
			    q[0] : NULL, "own[0-4]", fp, &o));
			cr_expect(not(zero(ptr, strstr(want,
			    "line 3 of own.c"))), "%s", want);
			cr_expect(eq(str, got, want), "focus %d, base %d",
			    focus, with_base);
			expect_given_and_free(p, q, with_base, "listing");
			free(want);
			free(got);
		}
	}
}

/* The report's page of CUR (and BASE): written with O. */
static char *
page_of(const struct profconv_profile *cur,
    const struct profconv_profile *base,
    const struct profconv_report_options *o)
{
	char *text = NULL;

	CAPTURE(text, profconv_report_write(cur, base, fp, o));
	return text;
}

/* The report's page, alone and against a base: the Source tab made
 * before the call graph when the stacks may go, last otherwise; the
 * same page either way, its Source tab listing the program's own
 * functions. */
Test(stacks_given, report_page_the_same)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;
	struct profconv_profile *p[2], *q[2];
	char *want, *got;
	int with_base;

	o.source_path = dir;
	o.list_top = 3;
	for (with_base = 0; with_base < 2; with_base++) {
		make_pairs(p, q, 1);
		want = page_of(p[1], with_base ? p[0] : NULL, &o);
		got = page_of(q[1], with_base ? q[0] : NULL, &o);
		cr_expect(eq(str, got, want), "with_base %d", with_base);
		/* Alone, the Source tab lists own.c's functions. */
		cr_expect(with_base || strstr(want, "line 3 of own.c") != NULL,
		    "%s", want);
		expect_given_and_free(p, q, with_base, "report");
		free(want);
		free(got);
	}
}

/* Without source lines, the view by line is the view by function: it
 * takes the stacks, and the view by function made of it is
 * profconv_view_new()'s in every part, whatever the options. */
Test(stacks_given, by_line_is_by_function_without_lines)
{
	struct profconv_view_options o[6];
	const char *name[6] = { "defaults", "tagroot", "no inline",
		"one job", "suppressions", "tagfocus" };
	struct profconv_view *want = NULL, *lv = NULL, *fv = NULL;
	struct profconv_profile *p, *q;
	struct profconv_view_options lo;
	char *a, *b;
	size_t i;

	for (i = 0; i < 6; i++)
		o[i] = (struct profconv_view_options)PROFCONV_VIEW_OPTIONS_INIT;
	o[1].tagroot = "bytes";
	o[2].no_inline = 1;
	o[3].jobs = 1;
	o[4].suppressions = "leak:lib1[0-5]\n";
	o[5].tagfocus = "bytes=32b:";
	no_files = true;
	for (i = 0; i < 6; i++) {
		p = make(1);
		q = make(1);
		profconv_profile_set_stacks_disposable(q);
		lo = o[i];
		lo.granularity = PROFCONV_BY_LINE;
		cr_assert(eq(int, profconv_view_new(&want, p, &o[i]), 0),
		    "%s", ERRMSG);
		cr_assert(eq(int, profconv__view_new_by_line(&lv, q, &lo,
		    true), 0), "%s: %s", name[i], ERRMSG);
		cr_expect(profconv__view_is_by_function(lv), "%s", name[i]);
		cr_expect(eq(int, profconv_profile_has_stacks(q), 0), "%s",
		    name[i]);
		cr_assert(eq(int, profconv__view_by_function(&fv, lv), 0),
		    "%s: %s", name[i], ERRMSG);
		cr_expect(eq(int, profconv__view_granularity(fv),
		    PROFCONV_BY_FUNCTION));
		cr_expect(eq(int, profconv__view_granularity(lv),
		    PROFCONV_BY_LINE));
		a = view_dump(want);
		b = view_dump(fv);
		cr_expect(gt(sz, profconv_view_stack_count(want), 100), "%s",
		    name[i]);
		cr_expect(eq(str, b, a), "%s", name[i]);
		free(a);
		free(b);
		profconv_view_free(fv);
		profconv_view_free(lv);
		profconv_view_free(want);
		profconv_profile_free(p);
		profconv_profile_free(q);
	}
	no_files = false;
}

/* With source lines the view by line is not the view by function: with
 * a filter by name (focus and ignore match a frame's text, which holds
 * its line), the profile keeps its stacks, for the view by function
 * (test_coarsen.c: without one, that view is made from the view by
 * line). */
Test(stacks_given, by_line_keeps_stacks_with_lines)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *want = NULL, *lv = NULL, *fv = NULL;
	struct profconv_profile *q = make(1);
	char *a, *b;

	o.granularity = PROFCONV_BY_LINE;
	o.hide = "^lib2[0-3]$";
	profconv_profile_set_stacks_disposable(q);
	cr_assert(eq(int, profconv__view_new_by_line(&lv, q, &o, true), 0),
	    "%s", ERRMSG);
	cr_expect(not(profconv__view_is_by_function(lv)));
	cr_expect(eq(int, profconv_profile_has_stacks(q), 1));
	cr_expect(eq(int, profconv__view_by_function(&fv, lv),
	    PROFCONV_EINVAL));
	cr_expect(zero(ptr, fv));
	cr_assert(eq(int, profconv_view_new(&want, q, &o), 0), "%s", ERRMSG);
	a = view_dump(want);
	b = view_dump(lv);
	cr_expect(eq(str, b, a));
	free(a);
	free(b);
	profconv_view_free(want);
	profconv_view_free(lv);
	profconv_profile_free(q);
}

/* The report of a profile without source lines makes one view of it and
 * takes its stacks: the page is the same. */
Test(stacks_given, report_page_without_lines_the_same)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;
	struct profconv_profile *p[2], *q[2];
	char *want, *got;

	o.source_path = dir;
	o.list_top = 3;
	no_files = true;
	make_pairs(p, q, 1);
	want = page_of(p[1], NULL, &o);
	got = page_of(q[1], NULL, &o);
	cr_expect(eq(str, got, want));
	cr_expect(not(zero(ptr, strstr(want, "own3"))));
	expect_given_and_free(p, q, false, "report");
	free(want);
	free(got);
	no_files = false;
}
