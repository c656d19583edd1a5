/* SPDX-License-Identifier: MIT */
/*
 * test_suppress.c - leak suppressions in LeakSanitizer's format
 * (lib/view/suppress.c) on profiles built by hand: LLVM's TemplateMatch
 * (sanitizer_common's, quirks included), the frame nearest the leaf
 * naming the suppression, the built-in list, the file's syntax and its
 * bounds.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "view/view.h"
#include "label_fixture.h"

TestSuite(suppress, .init = setup, .fini = teardown);

/* The total kept with suppressions TEXT, and what suppression K hid. */
static int64_t
suppressed(const char *text, size_t k, size_t *samples, int64_t *value)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_suppression s;
	struct profconv_view *v = NULL;
	int64_t t = -1;

	o.suppressions = text;
	o.suppressions_name = "lsan.supp";
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	profconv_view_total(v, 0, &t);
	if (samples != NULL) {
		cr_assert(eq(int, profconv_view_suppression(v, k, &s), 0));
		*samples = s.samples;
		*value = s.values[0];
		cr_expect(eq(str, (char *)s.file, "lsan.supp"));
	}
	profconv_view_free(v);
	return t;
}

static void
lsan_matcher_on_functions_files_modules(void)
{
	size_t n;
	int64_t val;

	four();
	/* An inlined frame's function. */
	cr_expect(eq(i64, suppressed("leak:inlined_helper\n", 0, &n, &val),
	    1011));
	cr_expect(eq(sz, n, 1));
	cr_expect(eq(i64, val, 100));
	/* '*', '^' and '$'. */
	cr_expect(eq(i64, suppressed("leak:^inl*per$\n", 0, NULL, NULL), 1011));
	cr_expect(eq(i64, suppressed("leak:^nlined\n", 0, NULL, NULL), 1111));
	cr_expect(eq(i64, suppressed("leak:inlined$\n", 0, NULL, NULL), 1111));
	/* A source file, and a module (the mapped file, whole path). */
	cr_expect(eq(i64, suppressed("leak:src/b.c\n", 0, NULL, NULL), 101));
	cr_expect(eq(i64, suppressed("leak:^/usr/lib/libfoo\n", 0, &n, &val),
	    1000));
	cr_expect(eq(sz, n, 3));
	cr_expect(eq(i64, val, 111));
	/* Comments, blanks and other types; the first match names it. */
	cr_expect(eq(i64, suppressed("# c\n\n  race:a\r\nleak:zzz\n"
	    "leak:a \t\nleak:a\n", 1, &n, &val), 1010));
	cr_expect(eq(sz, n, 2));
	cr_expect(eq(i64, val, 101));
}

static void
bad_suppressions_name_file_and_line(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	static const char *const bad[] = {
		"leak:ok\nleak:\n", "leak:ok\nleak:^\n", "leak:ok\nleak:**\n",
		"leak:ok\nleak:a$b\n", "leak:ok\nno colon\n",
	};
	size_t i;

	o.suppressions_name = "x.supp";
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.suppressions = bad[i];
		cr_expect(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "%s accepted", bad[i]);
		cr_expect(strncmp(profconv_errmsg(), "x.supp:2: ", 10) == 0,
		    "%s", profconv_errmsg());
	}
}

/* The bounds on a suppressions text: PC_SUPP_MAX_PATTERNS patterns (blank
 * lines and comments do not count) and PROFCONV_MAX_SUPPRESSIONS bytes. */
static void
suppressions_bounded(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	size_t cap = (size_t)PC_SUPP_MAX_PATTERNS * 16 + 64, n = 0, i;
	char *text = malloc(PROFCONV_MAX_SUPPRESSIONS + 2), msg[64];

	cr_assert(text != NULL);
	o.suppressions_name = "x.supp";
	n += (size_t)sprintf(text, "# header\n\n");
	for (i = 0; i < PC_SUPP_MAX_PATTERNS; i++)
		n += (size_t)snprintf(text + n, cap - n, "leak:f%zu\n", i);
	o.suppressions = text;
	o.default_suppressions = true;
	cr_expect(eq(int, profconv_view_options_check(&o), 0), "%s", ERRMSG);
	snprintf(text + n, cap - n, "leak:one_more\n");
	cr_expect(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	snprintf(msg, sizeof(msg), "x.supp:%d: more than %d suppressions",
	    PC_SUPP_MAX_PATTERNS + 3, PC_SUPP_MAX_PATTERNS);
	cr_expect(eq(str, (char *)profconv_errmsg(), msg));

	/* One byte over the size bound, all of it a comment. */
	memset(text, '#', PROFCONV_MAX_SUPPRESSIONS + 1);
	text[PROFCONV_MAX_SUPPRESSIONS + 1] = '\0';
	cr_expect(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	cr_expect(strstr(profconv_errmsg(), "longer than 1024 KiB") != NULL,
	    "%s", profconv_errmsg());
	text[PROFCONV_MAX_SUPPRESSIONS] = '\0';
	cr_expect(eq(int, profconv_view_options_check(&o), 0), "%s", ERRMSG);
	free(text);
}

/* The suppressions TEXT (named "x.supp") over P into *SP. */
static void
suppress_new(struct pc_suppress **sp, const char *text, bool builtin)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	o.suppressions = text;
	o.suppressions_name = "x.supp";
	o.default_suppressions = builtin;
	cr_assert(eq(int, profconv__suppress_new(sp, p, &o), 0), "%s", ERRMSG);
	cr_assert(not(zero(ptr, *sp)));
}

/* Which of the one-frame samples on functions NAMES (bit I: sample I)
 * the single pattern PAT hides. */
static unsigned
hidden(const char *pat, const char *const *names, size_t n)
{
	struct pc_suppress *sp = NULL;
	char text[64];
	unsigned mask = 0;
	int64_t v = 1;
	size_t i;

	teardown();	/* a profile of these samples alone */
	setup();
	for (i = 0; i < n; i++) {
		uint32_t fn = add_fn(p, names[i], "");
		uint32_t loc = LOC1(p, 0, 0x1000 + i, fn, 1);

		cr_assert(eq(int, profconv_profile_add_sample(p, &loc, 1, &v,
		    NULL, 0), 0));
	}
	snprintf(text, sizeof(text), "leak:%s\n", pat);
	suppress_new(&sp, text, false);
	for (i = 0; i < n; i++)
		if (profconv__suppress_sample(sp, i))
			mask |= 1u << i;
	profconv__suppress_free(sp);
	return mask;
}

/*
 * LLVM's TemplateMatch (sanitizer_common.cpp) by hand: the parts between
 * '*' are found left to right, each at its first place, without going
 * back; '^' anchors the first part, '$' needs the string used up right
 * after the last part.  So "b$" and "a*b$" miss "abab": its first 'b'
 * is taken, which leaves "ab".
 */
static void
template_match_as_llvm(void)
{
	static const char *const names[] = { "abc", "xaYc", "ca", "abab",
	    "aXb", "cb" };

	cr_expect(eq(u32, hidden("a*c", names, 6), 0x3));
	cr_expect(eq(u32, hidden("^ab", names, 6), 0x9));
	cr_expect(eq(u32, hidden("b$", names, 6), 0x30));
	cr_expect(eq(u32, hidden("a*b$", names, 6), 0x10));
	cr_expect(eq(u32, hidden("^c*a$", names, 6), 0x4));
}

/* LeakSanitizer's matching: on functions, files and modules, and LLVM's
 * TemplateMatch itself.  The first case uses the suite's fresh profile;
 * the second makes a profile of its own for each pattern. */
Test(suppress, matches_as_lsan)
{
	lsan_matcher_on_functions_files_modules();
	template_match_as_llvm();
}

/*
 * The frame nearest the leaf with a match names the suppression, though
 * a frame nearer the root matches one listed first; within a location
 * (an inline chain) the first listed wins.  What each hid is summed.
 */
Test(suppress, nearest_leaf_then_first_listed)
{
	struct profconv_suppression s;
	struct pc_suppress *sp = NULL;
	uint32_t leaf = LOC1(p, 0, 0x10, add_fn(p, "alloc_x", ""), 1);
	uint32_t mid = LOC1(p, 0, 0x20, add_fn(p, "init_y", ""), 1);
	uint32_t root = LOC1(p, 0, 0x30, add_fn(p, "main", ""), 1);
	uint32_t chain = LOCN(p, 0, 0x40, 1, add_fn(p, "inner_q", ""),
	    add_fn(p, "outer_q", ""));

	SAMPLE(p, (int64_t[]){ 3 }, leaf, mid, root);
	SAMPLE(p, (int64_t[]){ 4 }, leaf, root);
	SAMPLE(p, (int64_t[]){ 5 }, mid, root);
	SAMPLE(p, (int64_t[]){ 6 }, chain, root);
	suppress_new(&sp, "leak:main\nleak:init\nleak:outer\nleak:inner\n"
	    "leak:alloc\n", false);
	cr_assert(eq(sz, profconv__suppress_count(sp), 5));
	for (size_t i = 0; i < 4; i++)
		cr_expect(profconv__suppress_sample(sp, i), "sample %zu", i);
	profconv__suppress_get(sp, 0, &s);
	cr_expect(eq(sz, s.samples, 0));
	profconv__suppress_get(sp, 1, &s);
	cr_expect(eq(sz, s.samples, 1));
	cr_expect(eq(i64, s.values[0], 5));
	profconv__suppress_get(sp, 2, &s);
	cr_expect(eq(sz, s.samples, 1));
	cr_expect(eq(i64, s.values[0], 6));
	cr_expect(eq(str, (char *)s.pattern, "outer"));
	profconv__suppress_get(sp, 3, &s);
	cr_expect(eq(sz, s.samples, 0));
	profconv__suppress_get(sp, 4, &s);
	cr_expect(eq(sz, s.samples, 2));
	cr_expect(eq(i64, s.values[0], 7));
	cr_expect(eq(sz, s.line, 5));
	cr_expect(eq(str, (char *)s.file, "x.supp"));
	profconv__suppress_free(sp);
}

/*
 * A name is matched once and remembered (suppress.c keeps each string's
 * answer): locations of the same function, or in the same file, still
 * get their own answer each, a miss as well as a hit.
 */
Test(suppress, names_met_again)
{
	struct profconv_suppression s;
	struct pc_suppress *sp = NULL;
	uint32_t keep = add_fn(p, "keep_me", "a.c");
	uint32_t drop = add_fn(p, "drop_me", "a.c");
	uint32_t other = add_fn(p, "keep_too", "b.c");
	uint32_t l1 = LOC1(p, 0, 0x10, keep, 1), l2 = LOC1(p, 0, 0x20, keep, 2);
	uint32_t l3 = LOC1(p, 0, 0x30, drop, 1), l4 = LOC1(p, 0, 0x40, drop, 2);
	uint32_t l5 = LOC1(p, 0, 0x50, other, 1);
	uint32_t l6 = LOC1(p, 0, 0x60, other, 2);
	const bool want[] = { false, false, true, true, true, true, false };

	SAMPLE(p, (int64_t[]){ 1 }, l1);
	SAMPLE(p, (int64_t[]){ 2 }, l2);
	SAMPLE(p, (int64_t[]){ 3 }, l3);
	SAMPLE(p, (int64_t[]){ 4 }, l4);
	SAMPLE(p, (int64_t[]){ 5 }, l5);
	SAMPLE(p, (int64_t[]){ 6 }, l6);
	SAMPLE(p, (int64_t[]){ 7 }, l2, l1);
	suppress_new(&sp, "leak:nothing\nleak:drop_*$\nleak:^b.c$\n", false);
	for (size_t i = 0; i < 7; i++)
		cr_expect(eq(int, profconv__suppress_sample(sp, i), want[i]),
		    "sample %zu", i);
	profconv__suppress_get(sp, 0, &s);
	cr_expect(eq(sz, s.samples, 0));
	profconv__suppress_get(sp, 1, &s);
	cr_expect(eq(sz, s.samples, 2));
	cr_expect(eq(i64, s.values[0], 7));
	profconv__suppress_get(sp, 2, &s);
	cr_expect(eq(sz, s.samples, 2));
	cr_expect(eq(i64, s.values[0], 11));
	profconv__suppress_free(sp);
}

Test(suppress, built_in_list_comes_first)
{
	const char *const *b = profconv_default_suppressions();
	struct profconv_suppression s;
	struct pc_suppress *sp = NULL;
	size_t n = 0;

	while (b[n] != NULL)
		n++;
	cr_assert(eq(sz, n, 10));
	cr_expect(eq(str, (char *)b[0], "__nss_module_allocate"));
	SAMPLE(p, (int64_t[]){ 8 }, LOC1(p, 0, 0x10,
	    add_fn(p, "_dl_allocate_tls", ""), 1));
	SAMPLE(p, (int64_t[]){ 9 }, LOC1(p, 0, 0x20,
	    add_fn(p, "mine", ""), 1));
	suppress_new(&sp, "# c\n\nrace:x\nleak:mine\n", true);
	cr_assert(eq(sz, profconv__suppress_count(sp), n + 1));
	cr_expect(profconv__suppress_sample(sp, 0));
	cr_expect(profconv__suppress_sample(sp, 1));
	profconv__suppress_get(sp, 5, &s);
	cr_expect(eq(str, (char *)s.pattern, "_dl_allocate_tls"));
	cr_expect(eq(str, (char *)s.file, "built-in"));
	cr_expect(eq(sz, s.line, 0));
	cr_expect(eq(i64, s.values[0], 8));
	profconv__suppress_get(sp, n, &s);
	cr_expect(eq(str, (char *)s.pattern, "mine"));
	cr_expect(eq(sz, s.line, 4));
	profconv__suppress_free(sp);
}

/* No suppressions: no state, and nothing is hidden. */
Test(suppress, none)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct pc_suppress *sp = (struct pc_suppress *)&o;

	SAMPLE(p, (int64_t[]){ 1 }, LOC1(p, 0, 0x10, add_fn(p, "f", ""), 1));
	cr_assert(eq(int, profconv__suppress_new(&sp, p, &o), 0));
	cr_expect(zero(ptr, sp));
	cr_expect(eq(sz, profconv__suppress_count(sp), 0));
	cr_expect(not(profconv__suppress_sample(sp, 0)));
	profconv__suppress_free(sp);
}

static void
refusals_say_why(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct pc_suppress *sp = NULL;

	o.suppressions_name = "x.supp";
	o.suppressions = "leak:ok\n  leak:^** \n";
	cr_expect(eq(int, profconv__suppress_new(&sp, p, &o),
	    PROFCONV_EINVAL));
	cr_expect(zero(ptr, sp));
	cr_expect(eq(str, ERRMSG, "x.supp:2: bad pattern '^**': the pattern "
	    "matches every frame"));
	o.suppressions = "leak:a$b\n";
	cr_expect(eq(int, profconv__suppress_new(&sp, p, &o),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "x.supp:1: bad pattern 'a$b': '$' may only "
	    "end a pattern"));
	o.suppressions = "\nmy_init\n";
	cr_expect(eq(int, profconv__suppress_new(&sp, p, &o),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "x.supp:2: not a suppression (TYPE:PATTERN, "
	    "such as leak:my_init)"));
}

/* Suppressions refused: bad patterns and lines, and too many or too long
 * ones, each saying file, line and why.  None changes the profile. */
Test(suppress, bad_suppressions_refused)
{
	bad_suppressions_name_file_and_line();
	suppressions_bounded();
	refusals_say_why();
}
