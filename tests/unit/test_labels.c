/* SPDX-License-Identifier: MIT */
/*
 * test_labels.c - label filters and pseudo-frames (labels.c) on
 * profiles built by hand: pprof's range and unit rules, its regex rules
 * with and without a key, pprof's names for --tagroot frames.  Leak
 * suppressions are tested in test_suppress.c.
 */

#include "config.h"

#include <string.h>

#include "view/view.h"
#include "label_fixture.h"

TestSuite(labels, .init = setup, .fini = teardown);

/* The total the view of the four samples keeps with OPTS. */
static int64_t
kept(const struct profconv_view_options *o)
{
	struct profconv_view *v = NULL;
	int64_t t = -1;

	cr_assert(eq(int, profconv_view_new(&v, p, o), 0), "%s", ERRMSG);
	profconv_view_total(v, 0, &t);
	profconv_view_free(v);
	return t;
}

static int64_t
focus(const char *f)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	o.tagfocus = f;
	return kept(&o);
}

static int64_t
ignore(const char *f)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	o.tagignore = f;
	return kept(&o);
}

static void
numeric_ranges_in_the_labels_unit(void)
{
	four();
	cr_expect(eq(i64, focus("bytes=2kb"), 10));
	cr_expect(eq(i64, focus("bytes=2048b"), 10));
	cr_expect(eq(i64, focus("bytes=1kb:"), 110));
	cr_expect(eq(i64, focus("bytes=:2kb"), 11));
	cr_expect(eq(i64, focus("bytes=512b:1mb"), 111));
	cr_expect(eq(i64, focus("bytes=1mb"), 100));
	/* A bare number has no unit; bytes labels are in B: no match. */
	cr_expect(eq(i64, focus("bytes=2048"), 0));
	/* "request" without a unit counts bytes. */
	cr_expect(eq(i64, focus("request=64b"), 100));
	/* Without a key: any numeric label. */
	cr_expect(eq(i64, focus("64b"), 100));
	cr_expect(eq(i64, ignore("bytes=1kb:"), 1001));
	/* A numeric 0 without a unit is no label, as in pprof. */
	cr_expect(eq(i64, focus("thread=0"), 0));
	cr_expect(eq(i64, ignore("thread=0"), 1111));
}

static void
regular_expressions_with_and_without_key(void)
{
	four();
	cr_expect(eq(i64, focus("thread_name=worker"), 11));
	/* With a key: any expression of the list. */
	cr_expect(eq(i64, focus("thread_name=^main$,-2"), 110));
	/* Without: "key:value", every expression found in some label. */
	cr_expect(eq(i64, focus("thread_name:work"), 11));
	cr_expect(eq(i64, focus("worker,-1"), 1));
	cr_expect(eq(i64, focus("worker,main"), 0));
	/* An empty expression matches any value of the key. */
	cr_expect(eq(i64, focus("thread_name="), 111));
	cr_expect(eq(i64, ignore("thread_name=main"), 1011));
}

static void
bad_ranges_and_expressions_refused(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	static const char *const bad[] = {
		"bytes=64:1mb", "bytes=1kb:2ms", "99999999999999999999kb",
		"thread_name=wor(", ":5kb:",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.tagfocus = bad[i];
		cr_expect(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "%s accepted", bad[i]);
		cr_expect(strstr(profconv_errmsg(), "--tagfocus") != NULL,
		    "%s", profconv_errmsg());
		cr_expect(strchr(profconv_errmsg(), '\n') == NULL);
	}
	/* Not range-shaped: a regular expression, as pprof takes it. */
	o.tagfocus = "thread_name=1x:y";
	cr_expect(eq(int, profconv_view_options_check(&o), 0), "%s", ERRMSG);
}

/* --tagfocus and --tagignore as pprof reads them: numeric ranges in the
 * label's unit, regular expressions with and without a key, and what
 * is refused. */
Test(labels, tagfocus_and_tagignore_as_pprof)
{
	numeric_ranges_in_the_labels_unit();
	teardown();	/* a fresh profile for the next case */
	setup();
	regular_expressions_with_and_without_key();
	teardown();	/* a fresh profile for the next case */
	setup();
	bad_ranges_and_expressions_refused();
}

Test(labels, tagroot_frames_named_as_pprof)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	char *text;

	four();
	o.tagroot = "thread_name,bytes";
	o.tagleaf = "request";
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	text = view_text(v);
	/* Sizes scaled as pprof's ScaledLabel with unit "minimum". */
	cr_expect(strstr(text, "worker-1;512B;a;[no request] 1\n") != NULL,
	    "%s", text);
	cr_expect(strstr(text, "worker-2;2kB;b;[no request] 10\n") != NULL,
	    "%s", text);
	cr_expect(strstr(text, "main;1MB;a;inlined_helper;64 100\n") != NULL,
	    "%s", text);
	cr_expect(strstr(text, "[no thread_name];[no bytes];b;[no request] "
	    "1000\n") != NULL, "%s", text);
	free(text);
	profconv_view_free(v);
}

/* Rows per thread (rows.c's PC_ROWS_THREAD_*, proftrend --by-thread):
 * one function of two threads is two rows, named by the thread frame,
 * which profconv__thread_parse() reads back. */
Test(labels, rows_per_thread_and_their_names)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	struct pc_rows *r = NULL;
	uint32_t m = add_map(p, 0x1000, 0x9000, "/usr/lib/libfoo.so.1");
	uint32_t fa = add_fn(p, "a", "src/a.c");
	uint32_t loc = LOC1(p, m, 0x1100, fa, 1);
	static const char *const want[] = { "thread 2 (w: 2): a",
		"thread 7: a", "[no thread]: a" };
	static const int64_t want_v[] = { 1 + 4, 2, 8 };
	size_t i, j, at, len;
	bool has_uid, found;
	int64_t uid;

	sample(loc, 1, (struct profconv_label[]){
	    { "thread", NULL, 2, NULL },
	    { "thread_name", "w: 2", 0, NULL } }, 2);
	sample(loc, 2, (struct profconv_label[]){
	    { "thread", NULL, 7, NULL } }, 1);
	sample(loc, 4, (struct profconv_label[]){
	    { "thread", NULL, 2, NULL },
	    { "thread_name", "w: 2", 0, NULL } }, 2);
	sample(loc, 8, NULL, 0);
	cr_expect(profconv__labels_has_thread(p));
	o.split_threads = 1;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__rows_new(&r, 1), 0));
	cr_assert(eq(int, profconv__rows_add(r, v, PC_ROWS_THREAD_FUNCTION,
	    false, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv__rows_count(r), 3));
	for (j = 0; j < 3; j++) {
		found = false;
		for (i = 0; i < 3; i++) {
			if (strcmp(profconv__rows_name(r, i), want[j]) != 0)
				continue;
			found = true;
			cr_expect(eq(i64, profconv__rows_values(r, i)[0],
			    want_v[j]), "%s", want[j]);
			len = profconv__rows_thread(r, i);
			cr_expect(eq(sz, len, strlen(want[j]) - 3), "%s",
			    want[j]);
		}
		cr_expect(found, "no row %s", want[j]);
	}
	profconv__rows_free(r);
	r = NULL;
	cr_assert(eq(int, profconv__rows_new(&r, 1), 0));
	cr_assert(eq(int, profconv__rows_add(r, v, PC_ROWS_THREAD_STACK,
	    false, 0), 0), "%s", ERRMSG);
	cr_expect(eq(sz, profconv__rows_count(r), 3));
	for (i = 0; i < 3; i++)
		if (strncmp(profconv__rows_name(r, i), "thread 7;", 9) == 0)
			cr_expect(eq(sz, profconv__rows_thread(r, i), 8));
	profconv__rows_free(r);
	profconv_view_free(v);

	cr_assert(eq(int, profconv__thread_parse("thread 2 (w: 2)", 15, &uid,
	    &has_uid, &at, &len), 0));
	cr_expect(has_uid && uid == 2 && at == 10 && len == 4);
	cr_assert(eq(int, profconv__thread_parse("thread 7", 8, &uid,
	    &has_uid, &at, &len), 0));
	cr_expect(has_uid && uid == 7 && len == 0);
	cr_assert(eq(int, profconv__thread_parse("thread (x)", 10, &uid,
	    &has_uid, &at, &len), 0));
	cr_expect(has_uid == false && at == 8 && len == 1);
	cr_expect(eq(int, profconv__thread_parse("[no thread]", 11, &uid,
	    &has_uid, &at, &len), -1));
}

Test(labels, no_thread_labels)
{
	four();
	/* "thread" as a numeric label counts; a profile without either
	 * key has none. */
	cr_expect(profconv__labels_has_thread(p));
	teardown();
	setup();
	sample(LOC1(p, 0, 0x9999, add_fn(p, "b", "b.c"), 4), 1,
	    (struct profconv_label[]){ { "bytes", NULL, 8, "bytes" } }, 1);
	cr_expect(profconv__labels_has_thread(p) == false);
}

/* The filters that keep nothing are said (profconv_view_unmatched()),
 * those that match are not; both ways, and through
 * profconv_filters_unmatched() without a view of the caller's. */
static unsigned
unmatched(const struct profconv_view_options *o)
{
	struct profconv_view *v = NULL;
	unsigned u, w = 12345;

	cr_assert(eq(int, profconv_view_new(&v, p, o), 0), "%s", ERRMSG);
	u = profconv_view_unmatched(v);
	profconv_view_free(v);
	cr_assert(eq(int, profconv_filters_unmatched(p, o, &w), 0), "%s",
	    ERRMSG);
	cr_expect(eq(u32, w, u));
	return u;
}

Test(labels, unmatched_filters_said)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	four();
	cr_expect(eq(u32, unmatched(&o), 0));
	o.tagfocus = "nosuchkey=1";
	cr_expect(eq(u32, unmatched(&o), PROFCONV_FILTER_TAGFOCUS));
	o.tagfocus = "thread_name=main";
	cr_expect(eq(u32, unmatched(&o), 0));
	o.tagignore = "thread_name=nosuch";
	cr_expect(eq(u32, unmatched(&o), PROFCONV_FILTER_TAGIGNORE));
	/* Ignore matched by a sample out of focus: matched all the same. */
	o.tagignore = "bytes=2kb";
	cr_expect(eq(u32, unmatched(&o), 0));
	o.tagfocus = o.tagignore = NULL;
	o.tagroot = "nosuchkey";
	o.tagleaf = "thread_name";
	cr_expect(eq(u32, unmatched(&o), PROFCONV_FILTER_TAGROOT));
	o.tagroot = o.tagleaf = NULL;
	o.focus = "nosuchfunction";
	o.ignore = "nosuchfunction";
	o.hide = "nosuchfunction";
	o.show = "nosuchfunction";
	o.show_from = "nosuchfunction";
	o.prune_from = "nosuchfunction";
	cr_expect(eq(u32, unmatched(&o), PROFCONV_FILTER_FOCUS |
	    PROFCONV_FILTER_IGNORE | PROFCONV_FILTER_HIDE |
	    PROFCONV_FILTER_SHOW | PROFCONV_FILTER_SHOW_FROM |
	    PROFCONV_FILTER_PRUNE_FROM));
	/* A name filter that matches where a label filter keeps nothing
	 * is not blamed: pprof applies the name filters first. */
	o.focus = "^.";
	o.ignore = o.hide = o.show = o.show_from = o.prune_from = NULL;
	o.tagfocus = "nosuchkey=1";
	cr_expect(eq(u32, unmatched(&o), PROFCONV_FILTER_TAGFOCUS));
	/* Empty expressions are no filters, as pprof's. */
	o.focus = "";
	o.tagfocus = "";
	cr_expect(eq(u32, unmatched(&o), 0));
}
