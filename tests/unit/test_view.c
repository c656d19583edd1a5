/* SPDX-License-Identifier: MIT */
/*
 * test_view.c - views (view.c): what every writer shows of a profile,
 * checked exactly on profiles built by hand.
 */

#include "config.h"

#include "view/view.h"
#include "model/model.h"
#include "model/seams.h"
#include "view_fixture.h"

TestSuite(view, .init = setup, .fini = teardown);

/* Into P: two sample types, main at line 1 (*LM) and grow at line 5
 * (*LG), returning grow's function. */
static uint32_t
main_and_grow(uint32_t *lm, uint32_t *lg)
{
	uint32_t g;

	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	*lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 1);
	g = add_fn(p, "grow", "");
	*lg = LOC1(p, 0, 0x20, g, 5);
	return g;
}

/* Samples whose values are all zero are left out; two samples that show
 * the same frames are one stack with their values added; the totals
 * are the profile's. */
static void
zeros_merges_and_totals(void)
{
	struct profconv_view *v = NULL;
	uint32_t g, lm, lg1, lg2;
	int64_t a[2] = { 1, 100 }, b[2] = { 2, 200 }, z[2] = { 0, 0 };
	int64_t half[2] = { 0, 5 }, t, want;
	size_t i;

	g = main_and_grow(&lm, &lg1);
	lg2 = LOC1(p, 0, 0x28, g, 6);
	SAMPLE(p, a, lg1, lm);
	SAMPLE(p, b, lg2, lm);
	SAMPLE(p, z, lm);
	SAMPLE(p, half, lm);
	expect_view(p, NULL, "main 0 5\nmain;grow 3 300\n");
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	for (i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_view_total(v, i, &t), 0));
		cr_assert(eq(int, profconv_profile_total(p, i, &want), 0));
		cr_expect(eq(i64, t, want), "type %zu", i);
	}
	cr_assert(eq(int, profconv_view_total(v, 2, &t), PROFCONV_EINVAL));
	profconv_view_free(v);
	teardown();
	setup();
}

/* A sample without locations is a stack without frames. */
static void
empty_stack(void)
{
	int64_t v = 4;

	profconv_profile_add_sample_type(p, "samples", "count");
	cr_assert(eq(int, profconv_profile_add_sample(p, NULL, 0, &v, NULL,
	    0), 0));
	expect_view(p, NULL, "- 4\n");
	teardown();
	setup();
}

Test(view, folds_samples_into_stacks)
{
	zeros_merges_and_totals();
	empty_stack();
}

/* What a frame says of itself. */
static void
frame_fields(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view_frame fr;
	struct profconv_view_stack st;
	uint32_t ids[2] = { 0, 0 };
	size_t nids = 0;
	struct profconv_view *v = NULL;
	uint32_t map, g, l1, l2, l3;
	int64_t val = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x1000, 0x9000, "/opt/lib/libpool.so");
	g = add_fn(p, "app::Pool<int>::grow(unsigned long)", "/src/pool.cc");
	l1 = LOC1(p, map, 0x1100, g, 42);
	l2 = LOC1(p, map, 0x1200, g, 43);
	l3 = add_loc(p, map, 0x1300, NULL, 0, 0);
	SAMPLE(p, &val, l1);
	SAMPLE(p, &val, l2);
	SAMPLE(p, &val, l3);
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0));
	cr_assert(eq(sz, profconv_view_frame_count(v), 2));
	cr_assert(eq(sz, profconv_view_stack_count(v), 2));
	cr_assert(eq(int, profconv_view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 1));
	cr_assert(eq(i64, st.values[0], 2));
	/* The copy-out: the count with no room, then the ids. */
	cr_assert(eq(int, profconv_view_stack_frames(v, 0, NULL, 0, &nids), 0));
	cr_assert(eq(sz, nids, 1));
	cr_assert(eq(int, profconv_view_stack_frames(v, 0, ids, 2, NULL), 0));
	cr_expect(eq(u32, ids[1], 0), "nothing past the stack's frames");
	cr_assert(eq(int, profconv_view_frame(v, ids[0], &fr), 0));
	cr_expect(eq(str, (char *)fr.name, "app::Pool::grow"));
	cr_expect(eq(str, (char *)fr.function, "app::Pool::grow"));
	cr_expect(eq(str, (char *)fr.file, "/src/pool.cc"));
	cr_expect(eq(i64, fr.line, 42));
	cr_expect(eq(str, (char *)fr.module, "libpool.so"));
	cr_assert(eq(int, profconv_view_stack(v, 1, &st), 0));
	cr_assert(eq(int, profconv_view_stack_frames(v, 1, ids, 1, &nids), 0));
	cr_assert(eq(sz, nids, 1));
	cr_assert(eq(int, profconv_view_frame(v, ids[0], &fr), 0));
	cr_expect(eq(str, (char *)fr.name, "libpool.so+0x300"));
	cr_expect(eq(str, (char *)fr.function, ""));
	cr_expect(eq(str, (char *)fr.file, ""));
	cr_expect(eq(i64, fr.line, 0));
	cr_expect(eq(str, (char *)fr.module, "libpool.so"));
	cr_assert(eq(int, profconv_view_frame(v, 0, &fr), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_view_frame(v, 3, &fr), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_view_stack(v, 2, &st), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_view_stack_frames(v, 2, ids, 2, &nids),
	    PROFCONV_EINVAL));
	cr_assert(profconv_view_profile(v) == p);
	profconv_view_free(v);
	o.demangle = PROFCONV_DEMANGLE_FULL;
	o.granularity = PROFCONV_BY_LINE;
	expect_view(p, &o, "app::Pool<int>::grow(unsigned long) pool.cc:42 1\n"
	    "app::Pool<int>::grow(unsigned long) pool.cc:43 1\n"
	    "libpool.so+0x300 1\n");
	teardown();
	setup();
}

static void
sample_index_and_options(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	size_t i = 99;

	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	cr_assert(eq(int, profconv_view_sample_index(v, NULL, &i), 0));
	cr_assert(eq(sz, i, 1));
	cr_assert(eq(int, profconv_view_sample_index(v, "alloc_space", &i),
	    0));
	cr_assert(eq(sz, i, 0));
	cr_assert(eq(int, profconv_view_sample_index(v, "cpu", &i),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG, "profile has no sample type 'cpu'"));
	profconv_view_free(v);
	profconv_view_free(NULL);
	o.version = 99;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	o.version = PROFCONV_VIEW_OPTIONS_VERSION;
	o.granularity = (enum profconv_granularity)7;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	cr_assert(v == NULL);
	teardown();
	setup();
}

/* The folded text of stack I of V, root first, ';' between frames. */
static char *
folded_text(const struct profconv_view *v, size_t i)
{
	struct pc_view_stack st;
	struct profconv_view_frame fr;
	char *buf = NULL;
	size_t len = 0, k;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	cr_assert(eq(int, profconv__view_stack(v, i, &st), 0));
	for (k = 0; k < st.nframes; k++) {
		cr_assert(eq(int, profconv_view_frame(v, pc_stack_at(st.frames, k), &fr), 0));
		fprintf(fp, "%s%s", k != 0 ? ";" : "", fr.name);
	}
	fclose(fp);
	return buf;
}

/*
 * Many stacks, deep enough that their frames' keys overflow a sort record
 * (so that ties on it are settled frame by frame), names one another's
 * prefixes ("f1", "f10", "f1+x", "f1:y"), samples that repeat a stack:
 * the view is in byte order of the folded text, sums repeated stacks, and
 * is the same with 1, 2, 3 and 8 threads.
 */
Test(view, many_deep_stacks_any_thread_count)
{
	static const char *const names[] = { "f1", "f10", "f1+x", "f1:y",
		"f2", "main", "g", "g<int>", "h", "h h", "z" };
	enum { NF = sizeof(names) / sizeof(names[0]), NS = 40000, DEPTH = 90 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v[4] = { NULL };
	static const unsigned int jobs[4] = { 1, 2, 3, 8 };
	uint32_t loc[NF], stk[DEPTH];
	uint64_t r;
	int64_t val, total = 0, sum = 0;
	size_t i, k, n, j;
	char *prev = NULL, *cur;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < NF; i++)
		loc[i] = LOC1(p, 0, 0x100 + 16 * i, add_fn(p, names[i], ""), 1);
	for (i = 0; i < NS; i++) {
		/* Deep shared roots, then a few varied frames at the leaf end;
		 * every fifth sample repeats an earlier stack. */
		uint64_t s = i % 5 == 4 ? (i - 4) * 7919 : i * 7919;

		n = DEPTH - 8 + s % 9;
		for (k = 0; k < n; k++) {
			r = s * 0x9e3779b97f4a7c15ULL + k;
			r = (r ^ (r >> 31)) * 0xbf58476d1ce4e5b9ULL;
			r ^= r >> 27;
			stk[n - 1 - k] = loc[k < n - 6 ? (k % 3 == 0 ? 5 : 6) :
			    r % NF];
		}
		val = (int64_t)(i % 7) + 1;
		total += val;
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, n, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 4; j++) {
		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&v[j], p, &o), 0), "%s",
		    ERRMSG);
	}
	n = profconv_view_stack_count(v[0]);
	cr_assert(gt(sz, n, NS / 2), "%zu stacks", n);
	cr_assert(lt(sz, n, NS));	/* repeated stacks are one */
	for (i = 0; i < n; i++) {
		struct pc_view_stack st;

		cur = folded_text(v[0], i);
		if (prev != NULL)
			cr_assert(lt(int, strcmp(prev, cur), 0),
			    "stack %zu is not after the one before", i);
		free(prev);
		prev = cur;
		cr_assert(eq(int, profconv__view_stack(v[0], i, &st), 0));
		sum += st.values[0];
		for (j = 1; j < 4; j++) {
			char *other = folded_text(v[j], i);
			struct pc_view_stack so;

			cr_assert(eq(str, other, cur), "-j %u, stack %zu",
			    jobs[j], i);
			cr_assert(eq(int, profconv__view_stack(v[j], i, &so), 0));
			cr_assert(eq(i64, so.values[0], st.values[0]));
			free(other);
		}
	}
	free(prev);
	cr_assert(eq(i64, sum, total));
	for (j = 0; j < 4; j++)
		profconv_view_free(v[j]);
}

static void
options_check_without_a_profile(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	cr_assert(eq(int, profconv_view_options_check(NULL), 0));
	o.focus = "a|b";
	o.ignore = "^c$";
	cr_assert(eq(int, profconv_view_options_check(&o), 0), "%s", ERRMSG);
	o.focus = "(";
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "invalid focus expression '(': Unmatched ( "
	    "or \\("));
	o.focus = NULL;
	o.ignore = "x[";
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	o.ignore = NULL;
	o.demangle = (enum profconv_demangle)9;
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	o.demangle = PROFCONV_DEMANGLE_SIMPLE;
	o.version = 99;
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	teardown();
	setup();
}

Test(view, checks_options_and_sample_index)
{
	sample_index_and_options();
	options_check_without_a_profile();
}

/* The well-known allocation wrappers are cut like malloc in allocation
 * profiles, unless no_wrappers, even when drop_frames names them (as
 * the pprof files profconv writes do); CPU profiles keep them. */
static void
wrappers_cut_like_malloc(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t m, pa, x, ma;
	int64_t v = 5;
	char *written;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	m = add_fn(p, "main", "");
	pa = add_fn(p, "parse", "");
	x = add_fn(p, "xmalloc", "");
	ma = add_fn(p, "malloc", "");
	SAMPLE(p, &v, LOC1(p, 0, 0x40, ma, 1), LOC1(p, 0, 0x30, x, 1),
	    LOC1(p, 0, 0x20, pa, 1), LOC1(p, 0, 0x10, m, 1));
	expect_view(p, NULL, "main;parse 5\n");
	o.no_wrappers = 1;
	expect_view(p, &o, "main;parse;xmalloc 5\n");
	written = profconv__drop_with("malloc", profconv__wrappers_rx, true);
	cr_assert(written != NULL);
	profconv_profile_set_drop_frames(p, written);
	free(written);
	expect_view(p, NULL, "main;parse 5\n");
	expect_view(p, &o, "main;parse;xmalloc 5\n");
	teardown();
	setup();
}

static void
wrappers_kept_in_cpu_profile(void)
{
	uint32_t m, x;
	int64_t v = 3;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	x = add_fn(p, "xmalloc", "");
	SAMPLE(p, &v, LOC1(p, 0, 0x20, x, 1), LOC1(p, 0, 0x10, m, 1));
	expect_view(p, NULL, "main;xmalloc 3\n");
	teardown();
	setup();
}

/* A drop_frames alternative added or taken out whole. */
static void
drop_with_whole_alternatives(void)
{
	static const struct { const char *drop, *alt; bool with;
	    const char *want; } c[] = {
		{ "a|W|b", "W", false, "a|b" },
		{ "W|b", "W", false, "b" },
		{ "a|W", "W", false, "a" },
		{ "W", "W", false, "" },
		{ "aW|b", "W", false, "aW|b" },
		{ "a|Wb", "W", false, "a|Wb" },
		{ "a", "W", true, "a|W" },
		{ "", "W", true, "W" },
		{ "a|W", "W", true, "a|W" },
		{ "aW", "W", true, "aW|W" },
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(c); i++) {
		char *got = profconv__drop_with(c[i].drop, c[i].alt,
		    c[i].with);

		cr_assert(got != NULL);
		cr_expect(eq(str, got, (char *)c[i].want), "case %zu", i);
		free(got);
	}
}

Test(view, cuts_allocation_wrappers)
{
	wrappers_cut_like_malloc();
	wrappers_kept_in_cpu_profile();
	drop_with_whole_alternatives();
}

/* Marks (for the annotated source): a frame inlined into the one before
 * it in its location is marked; a location's outermost frame is not;
 * with no_inline there are none. */
static void
inline_marks(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	struct pc_view_stack st;
	const uint8_t *mk;

	inline_chain();
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 4));
	mk = profconv__view_stack_inline(v, 0);
	cr_assert(not(zero(ptr, (void *)mk)));
	cr_expect(eq(u8, mk[0], 0));	/* main */
	cr_expect(eq(u8, mk[1], 0));	/* outer: its location's outermost */
	cr_expect(eq(u8, mk[2], 1));	/* middle, inlined into outer */
	cr_expect(eq(u8, mk[3], 1));	/* leaf, inlined into middle */
	cr_expect(eq(i64, profconv__view_frame_start_line(v, pc_stack_at(st.frames, 1)), 1));
	profconv_view_free(v);
	o.no_inline = 1;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0));
	cr_assert(eq(int, profconv__view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 2));
	/* No frame of the view is inlined: no marks at all. */
	cr_expect(zero(ptr, (void *)profconv__view_stack_inline(v, 0)));
	profconv_view_free(v);
	teardown();
	setup();
}

Test(view, describes_frames)
{
	frame_fields();
	inline_marks();
}


/* An unmerged view: a stack per shown sample, in the samples' order,
 * with the same frames, values and totals; merged, as a plain view,
 * when a sum could depend on the grouping. */
static void
unmerged_in_sample_order(void)
{
	struct profconv_view *v = NULL, *w = NULL;
	struct pc_view_stack st;
	uint32_t lm, lg;
	int64_t a[2] = { 1, 100 }, b[2] = { 2, 200 }, z[2] = { 0, 0 };
	int64_t t, want;
	size_t i;

	main_and_grow(&lm, &lg);
	SAMPLE(p, a, lg, lm);
	SAMPLE(p, b, lm);
	SAMPLE(p, z, lm);
	SAMPLE(p, b, lg, lm);
	cr_assert(eq(int, profconv__view_new_unmerged(&v, p, NULL, false), 0));
	cr_assert(eq(sz, profconv_view_stack_count(v), 3), "zeros left out");
	cr_assert(eq(sz, profconv__view_sample_stack(v, 0), 1));
	cr_assert(eq(sz, profconv__view_sample_stack(v, 1), 2));
	cr_assert(eq(sz, profconv__view_sample_stack(v, 2), 0));
	cr_assert(eq(sz, profconv__view_sample_stack(v, 3), 3));
	profconv__view_stack(v, 0, &st);
	cr_assert(eq(sz, st.nframes, 2));
	cr_expect(eq(str, (char *)profconv__view_frame_text(v, pc_stack_at(st.frames, 1)),
	    "grow"));
	cr_expect(eq(i64, st.values[1], 100));
	profconv__view_stack(v, 2, &st);
	cr_expect(eq(i64, st.values[1], 200));
	for (i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_view_total(v, i, &t), 0));
		cr_assert(eq(int, profconv_profile_total(p, i, &want), 0));
		cr_expect(eq(i64, t, want), "type %zu", i);
	}
	profconv_view_free(v);
	/* Two values that add up past INT64_MAX: merged after all. */
	a[1] = INT64_MAX - 1;
	SAMPLE(p, a, lg, lm);
	cr_assert(eq(int, profconv__view_new_unmerged(&v, p, NULL, false), 0));
	cr_assert(eq(int, profconv_view_new(&w, p, NULL), 0));
	cr_expect(eq(sz, profconv_view_stack_count(v), 2));
	cr_expect(eq(sz, profconv_view_stack_count(v),
	    profconv_view_stack_count(w)));
	profconv_view_free(v);
	profconv_view_free(w);
	teardown();
	setup();
}

Test(view, unmerged_views)
{
	unmerged_in_sample_order();
}

/*
 * A view of leaves: the unmerged view's stacks, each cut to its leaf
 * frame, with the same frames, values, totals and suppressions, under
 * every option that changes the leaf (hide, focus, pseudo-frames of
 * labels, inline lines, line granularity, stacks cut at
 * PC_VIEW_MAX_DEPTH); rows of anything but leaves are refused.
 */
static void
leaves_of(const struct profconv_view_options *o, const char *what)
{
	struct profconv_view *u = NULL, *l = NULL;
	struct pc_view_stack a, b;
	struct pc_rows *r = NULL;
	size_t i, t;

	cr_assert(eq(int, profconv__view_new_unmerged(&u, p, o, false), 0), "%s",
	    what);
	cr_assert(eq(int, profconv__view_new_leaves(&l, p, o), 0), "%s", what);
	cr_expect(profconv__view_is_leaves(l), "%s", what);
	cr_expect(not(profconv__view_is_leaves(u)), "%s", what);
	cr_assert(eq(sz, profconv_view_stack_count(l),
	    profconv_view_stack_count(u)), "%s", what);
	cr_assert(eq(sz, profconv_view_frame_count(l),
	    profconv_view_frame_count(u)), "%s", what);
	for (i = 1; i <= profconv_view_frame_count(u); i++)
		cr_expect(eq(str, (char *)profconv__view_frame_text(l,
		    (uint32_t)i), (char *)profconv__view_frame_text(u,
		    (uint32_t)i)), "%s", what);
	for (i = 0; i < profconv_profile_sample_count(p); i++)
		cr_expect(eq(sz, profconv__view_sample_stack(l, i),
		    profconv__view_sample_stack(u, i)), "%s", what);
	for (i = 0; i < profconv_view_stack_count(u); i++) {
		profconv__view_stack(u, i, &a);
		profconv__view_stack(l, i, &b);
		cr_assert(eq(sz, b.nframes, a.nframes != 0), "%s %zu", what, i);
		if (a.nframes != 0)
			cr_expect(eq(u32, pc_stack_at(b.frames, 0),
			    pc_stack_at(a.frames, a.nframes - 1)), "%s %zu", what, i);
		for (t = 0; t < profconv_profile_sample_type_count(p); t++)
			cr_expect(eq(i64, b.values[t], a.values[t]), "%s", what);
	}
	for (t = 0; t < profconv_profile_sample_type_count(p); t++) {
		int64_t x, y;

		profconv_view_total(u, t, &x);
		profconv_view_total(l, t, &y);
		cr_expect(eq(i64, x, y), "%s", what);
	}
	cr_assert(eq(int, profconv__rows_new(&r, 4), 0));
	cr_expect(eq(int, profconv__rows_add(r, l, PC_ROWS_FUNCTION, false,
	    0), 0), "%s", what);
	cr_expect(eq(int, profconv__rows_add(r, l, PC_ROWS_FUNCTION, true,
	    0), PROFCONV_EINVAL), "%s", what);
	cr_expect(eq(int, profconv__rows_add(r, l, PC_ROWS_STACK, false, 0),
	    PROFCONV_EINVAL), "%s", what);
	profconv__rows_free(r);
	profconv_view_free(u);
	profconv_view_free(l);
}

Test(view, views_of_leaves)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t fn[6], loc[8], deep[PC_VIEW_MAX_DEPTH + 8];
	struct profconv_label lab = { "thread", "worker", 0, NULL };
	int64_t v[2] = { 3, 300 };
	uint64_t s = 5;
	size_t i, j;

	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	fn[0] = add_fn(p, "main", "m.c");
	fn[1] = add_fn(p, "run", "r.c");
	fn[2] = add_fn(p, "grow", "g.c");
	fn[3] = add_fn(p, "make", "g.c");
	fn[4] = add_fn(p, "hidden", "h.c");
	fn[5] = add_fn(p, "malloc", "");
	loc[0] = LOC1(p, 0, 0x10, fn[0], 3);
	loc[1] = LOC1(p, 0, 0x20, fn[1], 7);
	loc[2] = LOCN(p, 0, 0x30, 11, fn[3], fn[2]);	/* make in grow */
	loc[3] = LOC1(p, 0, 0x40, fn[4], 2);
	loc[4] = LOC1(p, 0, 0x50, fn[2], 13);
	loc[5] = LOC1(p, 0, 0x60, fn[5], 1);
	loc[6] = LOC1(p, 0, 0x70, fn[3], 17);
	loc[7] = LOC1(p, 0, 0x80, fn[1], 9);
	for (i = 0; i < 200; i++) {
		uint32_t ids[6];
		size_t n = 1 + (size_t)(s % 6);

		s = s * 6364136223846793005u + 1442695040888963407u;
		for (j = 0; j + 1 < n; j++)
			ids[j] = loc[1 + (s >> (8 + 3 * j)) % 7];
		ids[n - 1] = loc[0];
		v[0] = 1 + (int64_t)(s >> 40) % 5;
		cr_assert(eq(int, profconv_profile_add_sample(p, ids, n, v,
		    &lab, (s >> 20) % 2), 0));
	}
	/* A stack deeper than a view shows: cut under one frame. */
	for (i = 0; i < PC_VIEW_MAX_DEPTH + 8; i++)
		deep[i] = loc[i + 1 < PC_VIEW_MAX_DEPTH + 8 ? 1 + i % 2 : 0];
	cr_assert(eq(int, profconv_profile_add_sample(p, deep,
	    PC_VIEW_MAX_DEPTH + 8, v, NULL, 0), 0));
	leaves_of(&o, "plain");
	o.hide = "hidden|make";
	leaves_of(&o, "hide");
	o.hide = NULL;
	o.focus = "grow";
	leaves_of(&o, "focus");
	o.focus = NULL;
	o.tagleaf = "thread";
	leaves_of(&o, "tagleaf");
	o.tagleaf = NULL;
	o.tagroot = "thread";
	leaves_of(&o, "tagroot");
	o.tagroot = NULL;
	o.granularity = PROFCONV_BY_LINE;
	leaves_of(&o, "lines");
	o.no_inline = 1;
	leaves_of(&o, "no inline");
}

/*
 * A view of the samples with a frame of some functions
 * (profconv__view_new_unmerged_with()): each sample is in it when a
 * frame of its stack in the unmerged view has one of the functions,
 * inlined ones too, and then with the same frames and values; its
 * totals are its own samples'.  On one thread, and on two past the
 * 32,768 samples that put pass 1 on the threads.  No names, no
 * samples; no focus beside the names.
 */
static void
with_names(unsigned jobs, const char *const *names, size_t n,
    const char *what)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *u = NULL, *w = NULL;
	struct pc_view_stack a, b;
	struct profconv_view_frame f;
	int64_t want[2] = { 0, 0 }, got;
	size_t i, j, k, kept = 0;

	o.jobs = jobs;
	o.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv__view_new_unmerged(&u, p, &o, false), 0));
	cr_assert(eq(int, profconv__view_new_unmerged_with(&w, p, &o, names,
	    n), 0), "%s: %s", what, ERRMSG);
	for (i = 0; i < profconv_profile_sample_count(p); i++) {
		size_t su = profconv__view_sample_stack(u, i);
		size_t sw = profconv__view_sample_stack(w, i);
		bool has = false;

		if (su == 0) {
			cr_expect(eq(sz, sw, 0), "%s: sample %zu", what, i);
			continue;
		}
		profconv__view_stack(u, su - 1, &a);
		for (j = 0; j < a.nframes && !has; j++) {
			profconv_view_frame(u, pc_stack_at(a.frames, j), &f);
			for (k = 0; k < n && !has; k++)
				has = strcmp(f.function, names[k]) == 0;
		}
		cr_assert(eq(int, sw != 0, has), "%s: sample %zu", what, i);
		if (!has)
			continue;
		kept++;
		profconv__view_stack(w, sw - 1, &b);
		cr_assert(eq(sz, b.nframes, a.nframes), "%s: sample %zu", what,
		    i);
		for (j = 0; j < a.nframes; j++)
			cr_expect(eq(str, (char *)profconv__view_frame_text(w,
			    pc_stack_at(b.frames, j)), (char *)profconv__view_frame_text(u,
			    pc_stack_at(a.frames, j))), "%s: sample %zu", what, i);
		for (k = 0; k < 2; k++) {
			cr_expect(eq(i64, b.values[k], a.values[k]), "%s", what);
			want[k] += a.values[k];
		}
	}
	cr_expect(eq(sz, profconv_view_stack_count(w), kept), "%s", what);
	for (k = 0; k < 2; k++) {
		cr_assert(eq(int, profconv_view_total(w, k, &got), 0));
		cr_expect(eq(i64, got, want[k]), "%s: total %zu", what, k);
	}
	profconv_view_free(u);
	profconv_view_free(w);
}

Test(view, views_of_some_functions_samples)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *w = NULL;
	uint32_t lm, la, lb, lci, ld, fb;
	int64_t x[2], zero[2] = { 0, 0 };
	size_t i;
	unsigned jobs;

	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	lm = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 1);
	la = LOC1(p, 0, 0x20, add_fn(p, "a", ""), 2);
	fb = add_fn(p, "b", "");
	lb = LOC1(p, 0, 0x30, fb, 3);
	/* inl inlined into c */
	lci = LOCN(p, 0, 0x40, 4, add_fn(p, "inl", ""), add_fn(p, "c", ""));
	ld = LOC1(p, 0, 0x50, add_fn(p, "d", ""), 5);
	for (i = 0; i < 10000; i++) {
		x[0] = (int64_t)i % 5 + 1;
		x[1] = 8 * x[0] + (int64_t)i % 3;
		SAMPLE(p, x, la, lm);
		SAMPLE(p, x, lb, lm);
		SAMPLE(p, x, lci, lb, lm);
		SAMPLE(p, x, ld);
		SAMPLE(p, zero, lb, lm);
	}
	for (jobs = 1; jobs <= 2; jobs++) {
		with_names(jobs, (const char *[]){ "b" }, 1, "b");
		with_names(jobs, (const char *[]){ "inl" }, 1, "inl");
		with_names(jobs, (const char *[]){ "d", "a" }, 2, "d a");
		with_names(jobs, (const char *[]){ "nosuch" }, 1, "nosuch");
		with_names(jobs, (const char *[]){ NULL }, 0, "none");
	}
	o.focus = "b";
	cr_expect(eq(int, profconv__view_new_unmerged_with(&w, p, &o,
	    (const char *[]){ "b" }, 1), PROFCONV_EINVAL));
	cr_expect(zero(ptr, w));
}

/* Into Q: FILLER locations no sample uses, then five functions, one of
 * them inlined, and four samples on them. */
static void
build_behind(struct profconv_profile *q, size_t filler)
{
	int64_t v1[2] = { 1, 100 }, v2[2] = { 2, 300 }, v3[2] = { 4, 50 };
	uint32_t fm, fa, fb, fg, fi, lm, la, lb, lg, lab, id;
	size_t i;

	profconv_profile_add_sample_type(q, "alloc_objects", "count");
	profconv_profile_add_sample_type(q, "alloc_space", "bytes");
	for (i = 0; i < filler; i++)
		cr_assert(eq(int, profconv_profile_add_location(q, 0,
		    0x100000 + i, NULL, 0, 0, &id), 0));
	fm = add_fn(q, "main", "m.c");
	fa = add_fn(q, "alpha", "a.c");
	fb = add_fn(q, "beta", "b.c");
	fg = add_fn(q, "grow", "g.c");
	fi = add_fn(q, "inlined", "a.c");
	lm = LOC1(q, 0, 0x10, fm, 3);
	la = LOC1(q, 0, 0x20, fa, 7);
	lb = LOC1(q, 0, 0x30, fb, 9);
	lg = LOC1(q, 0, 0x40, fg, 11);
	lab = LOCN(q, 0, 0x50, 20, fi, fa);
	SAMPLE(q, v1, lg, lb, la, lm);
	SAMPLE(q, v2, lg, lab, lm);
	SAMPLE(q, v3, lb, lm);
	SAMPLE(q, v1, lg, lb, la, lm);
}

/*
 * The same samples on locations whose ids fit in two bytes, and past
 * 65,535, where the model holds them in four: every view of the two is
 * the same, its stacks, names and values, with or without name filters.
 */
Test(view, same_whether_ids_take_two_bytes_or_four)
{
	struct profconv_view_options opts[3] = { { 0 } };
	struct profconv_profile *narrow = NULL, *wide = NULL;
	size_t k;

	for (k = 0; k < 3; k++)
		opts[k].version = PROFCONV_VIEW_OPTIONS_VERSION;
	opts[1].focus = "beta";
	opts[2].ignore = "inlined";
	opts[2].hide = "alpha";
	cr_assert(eq(int, profconv_profile_new(&narrow), 0));
	cr_assert(eq(int, profconv_profile_new(&wide), 0));
	build_behind(narrow, 10);
	build_behind(wide, 70000);
	cr_assert(not(narrow->stack_wide));
	cr_assert(wide->stack_wide);
	for (k = 0; k < 3; k++) {
		struct profconv_view *vn = NULL, *vw = NULL;
		char *tn, *tw;

		cr_assert(eq(int, profconv_view_new(&vn, narrow, &opts[k]), 0),
		    "%s", ERRMSG);
		cr_assert(eq(int, profconv_view_new(&vw, wide, &opts[k]), 0),
		    "%s", ERRMSG);
		tn = view_text(vn);
		tw = view_text(vw);
		cr_expect(eq(str, tw, tn), "options %zu", k);
		cr_expect(not(eq(str, tn, "")), "options %zu", k);
		free(tn);
		free(tw);
		profconv_view_free(vn);
		profconv_view_free(vw);
	}
	profconv_profile_free(narrow);
	profconv_profile_free(wide);
}
