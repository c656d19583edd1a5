/* SPDX-License-Identifier: MIT */
/*
 * test_view_build.c - the first passes of building a view (lib/view/view_build.c):
 * the expressions compiled within their bounds, focus and ignore on
 * locations, and the plan of which samples show with which frames on
 * the job threads as on one.
 */

#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "view/view.h"
#include "view/view_build.h"
#include "model/model.h"
#include "model/seams.h"
#include "view_fixture.h"

TestSuite(view_build, .init = setup, .fini = teardown);

/* focus keeps the stacks with a matching frame, ignore drops them; the
 * expressions are searched in the frame's text. */
Test(view_build, focus_and_ignore)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	uint32_t m, g, s, lm, lg, ls;
	int64_t a = 10, b = 20;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	g = add_fn(p, "Pool::grow", "");
	s = add_fn(p, "shrink", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	ls = LOC1(p, 0, 0x30, s, 1);
	SAMPLE(p, &a, lg, lm);
	SAMPLE(p, &b, ls, lm);
	o.focus = "gro";
	expect_view(p, &o, "main;Pool::grow 10\n");
	o.focus = NULL;
	o.ignore = "^shr";
	expect_view(p, &o, "main;Pool::grow 10\n");
	o.focus = "main";
	o.ignore = "grow";
	expect_view(p, &o, "main;shrink 20\n");
	o.ignore = "(";
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	cr_assert(v == NULL);
	cr_assert(strncmp(ERRMSG, "invalid ignore expression '(': ", 31) == 0,
	    "%s", ERRMSG);
}

/* The command line's expressions have the bounds a profile's own
 * drop_frames has (bounds.h): '((a{1000}){1000}){1000}', 23 bytes,
 * took 16 GB and 44 s in regcomp.  Refused, by profconv_view_new() and
 * profconv_view_options_check() alike, for every one of them. */
static void
command_line_expressions_bounded(void)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	const char *rx = "((a{1000}){1000}){1000}";
	const char **fields[] = { &o.focus, &o.ignore, &o.hide, &o.show,
	    &o.show_from, &o.prune_from, &o.tagfocus, &o.tagignore,
	    &o.tagshow, &o.taghide };
	size_t i;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		/* Beyond the bound yet cheap to compile: fails fast without
		 * the bound, before the costly one below is tried. */
		*fields[i] = "(a{1000}){2}";
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		*fields[i] = rx;
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		cr_assert(strstr(ERRMSG, "counted repetitions multiply to "
		    "more than 1000") != NULL, "%s", ERRMSG);
		/* tagshow and taghide are for show's dump, not views. */
		if (fields[i] != &o.tagshow && fields[i] != &o.taghide) {
			cr_assert(eq(int, profconv_view_new(&v, p, &o),
			    PROFCONV_EINVAL), "field %zu", i);
			cr_assert(v == NULL);
		}
		*fields[i] = "(a{10}){10}";
		cr_assert(eq(int, profconv_view_options_check(&o), 0),
		    "field %zu: %s", i, ERRMSG);
		*fields[i] = "(a)\\1";
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		*fields[i] = NULL;
	}
}

/* The samples V's suppressions hid, on one thread. */
static size_t
suppressed_samples(const struct profconv_view_options *base)
{
	struct profconv_view_options o = *base;
	struct profconv_view *v = NULL;
	struct profconv_suppression s;
	size_t i, n = 0;

	o.jobs = 1;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	for (i = 0; i < profconv_view_suppression_count(v); i++) {
		cr_assert(eq(int, profconv_view_suppression(v, i, &s), 0));
		n += s.samples;
	}
	profconv_view_free(v);
	return n;
}

/*
 * Pass 1 on the threads (40,000 samples: enough ranges) numbers frames
 * as the one-thread pass does and shows the same stacks, totals and
 * frames: allocator frames cut (a location met first only beneath the
 * cut, later above it), zero samples, inline chains, with and without
 * focus, ignore, hide and show, with suppressions (what each hid
 * too); and with stacks that could be cut at
 * PC_VIEW_MAX_DEPTH (the serial pass then runs on any thread count).
 */
static void
expect_same_views(const struct profconv_view_options *base, const char *what)
{
	static const unsigned int jobs[] = { 2, 3, 8 };
	struct profconv_view_options o = *base;
	struct profconv_view *v1 = NULL, *vj = NULL;
	size_t j, i, k;

	o.jobs = 1;
	cr_assert(eq(int, profconv_view_new(&v1, p, &o), 0), "%s", ERRMSG);
	for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
		int64_t t1, tj;

		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&vj, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_frame_count(vj),
		    profconv_view_frame_count(v1)), "%s -j%u", what, jobs[j]);
		for (i = 1; i <= profconv_view_frame_count(v1); i++) {
			struct profconv_view_frame f1, fj;

			cr_assert(eq(int, profconv_view_frame(v1, (uint32_t)i,
			    &f1), 0));
			cr_assert(eq(int, profconv_view_frame(vj, (uint32_t)i,
			    &fj), 0));
			cr_assert(eq(str, (char *)fj.name, (char *)f1.name),
			    "%s -j%u: frame %zu", what, jobs[j], i);
		}
		cr_assert(eq(sz, profconv_view_stack_count(vj),
		    profconv_view_stack_count(v1)), "%s -j%u", what, jobs[j]);
		for (i = 0; i < profconv_view_stack_count(v1); i++) {
			struct pc_view_stack s1, sj;

			profconv__view_stack(v1, i, &s1);
			profconv__view_stack(vj, i, &sj);
			cr_assert(eq(sz, sj.nframes, s1.nframes));
			for (k = 0; k < s1.nframes; k++)
				cr_assert(eq(u32, pc_stack_at(sj.frames, k), pc_stack_at(s1.frames, k)),
				    "%s -j%u: stack %zu", what, jobs[j], i);
			cr_assert(eq(i64, sj.values[0], s1.values[0]));
		}
		cr_assert(eq(int, profconv_view_total(v1, 0, &t1), 0));
		cr_assert(eq(int, profconv_view_total(vj, 0, &tj), 0));
		cr_assert(eq(i64, tj, t1), "%s -j%u", what, jobs[j]);
		/* What each suppression hid. */
		cr_assert(eq(sz, profconv_view_suppression_count(vj),
		    profconv_view_suppression_count(v1)));
		for (i = 0; i < profconv_view_suppression_count(v1); i++) {
			struct profconv_suppression s1, sj;

			cr_assert(eq(int, profconv_view_suppression(v1, i,
			    &s1), 0));
			cr_assert(eq(int, profconv_view_suppression(vj, i,
			    &sj), 0));
			cr_assert(eq(sz, sj.samples, s1.samples),
			    "%s -j%u: suppression %zu", what, jobs[j], i);
			cr_assert(eq(i64, sj.values[0], s1.values[0]),
			    "%s -j%u: suppression %zu", what, jobs[j], i);
		}
		profconv_view_free(vj);
		vj = NULL;
	}
	profconv_view_free(v1);
}

Test(view_build, plan_on_threads_as_on_one)
{
	enum { NF = 24, NS = 40000 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t fn[NF], loc[NF], stk[40], deep[1100], ma, lma;
	uint64_t r = 0x2545F4914F6CDD1DULL;
	size_t i, k, n;
	int64_t val;
	char name[16];

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	ma = add_fn(p, "malloc", "");
	for (i = 0; i < NF; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		fn[i] = add_fn(p, name, "a.c");
	}
	lma = LOC1(p, 0, 0x10, ma, 1);
	for (i = 0; i < NF; i++)
		loc[i] = i % 5 == 4 ? LOCN(p, 0, 0x100 + 16 * i, 3,
		    fn[i], fn[(i + 1) % NF], fn[(i + 7) % NF]) :
		    LOC1(p, 0, 0x100 + 16 * i, fn[i], 2);
	for (i = 0; i < NS; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		n = 3 + r % 30;
		/* Leaf first: malloc, then (for a few early samples) f23
		 * beneath the cut, then program frames. */
		stk[0] = lma;
		k = 1;
		if (i < 50)
			stk[k++] = loc[NF - 1];
		for (; k < n; k++)
			stk[k] = loc[(r >> (k % 50)) % (i < 20000 ? NF - 1 :
			    NF)];
		/* Some stacks of f3 alone, which hide and show empty. */
		if (i % 1000 == 999)
			for (k = 1, n = 3; k < n; k++)
				stk[k] = loc[3];
		val = i % 9 == 0 ? 0 : (int64_t)(r % 1000);
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, n, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	expect_same_views(&o, "plain");
	o.focus = "f1$|f2";
	o.ignore = "f7";
	expect_same_views(&o, "focus and ignore");
	o.focus = o.ignore = NULL;
	o.hide = "f3";
	expect_same_views(&o, "hide");
	o.hide = NULL;
	o.show = "f[0-24-9]$";
	expect_same_views(&o, "show");
	o.hide = "f3";
	o.show = "f[0-9]$";
	expect_same_views(&o, "hide and show");
	o.hide = o.show = NULL;
	o.no_inline = 1;
	expect_same_views(&o, "no inline");
	o.no_inline = 0;
	/* Suppressions: alone the threads apply them too (and count what
	 * each hid in sample order); beside focus or ignore they do not. */
	o.suppressions = "leak:^f5$\nleak:f1[0-2]\nleak:nothing\n";
	o.default_suppressions = 1;
	expect_same_views(&o, "suppressions");
	cr_assert(not(eq(sz, suppressed_samples(&o), 0)));
	o.ignore = "f7";
	expect_same_views(&o, "suppressions and ignore");
	o.ignore = NULL;
	o.suppressions = NULL;
	o.default_suppressions = 0;
	/* One sample deeper than PC_VIEW_MAX_DEPTH: cut, a frame made. */
	for (i = 0; i < PC_ARRAY_LEN(deep); i++)
		deep[i] = loc[i % (NF - 1)];
	val = 5;
	cr_assert(eq(int, profconv_profile_add_sample(p, deep,
	    PC_ARRAY_LEN(deep), &val, NULL, 0), 0), "%s", ERRMSG);
	expect_same_views(&o, "deep");
}
/* The one way an expression is compiled: none for NULL, the bound
 * before regcomp, and errors that name the option. */
static void
compile_names_the_option(void)
{
	regex_t re;
	bool ok = true;

	cr_expect(eq(int, profconv__view_compile(&re, NULL, &ok, "focus"), 0));
	cr_expect(not(ok));
	cr_assert(eq(int, profconv__view_compile(&re, "a|b", &ok, "focus"), 0));
	cr_expect(ok);
	cr_expect(eq(int, regexec(&re, "xbx", 0, NULL, 0), 0));
	regfree(&re);
	cr_expect(eq(int, profconv__view_compile(&re, "a{1001}", &ok, "hide"),
	    PROFCONV_EINVAL));
	cr_expect(not(ok));
	cr_expect(eq(str, ERRMSG, "invalid hide expression 'a{1001}': counted "
	    "repetitions multiply to more than 1000"));
	cr_expect(eq(int, profconv__view_compile(&re, "a[", &ok, "show"),
	    PROFCONV_EINVAL));
	cr_expect(strncmp(ERRMSG, "invalid show expression 'a[': ", 30) == 0,
	    "%s", ERRMSG);
}

/* Expressions compiled within their bounds, errors naming the option. */
Test(view_build, expressions_compiled_within_bounds)
{
	command_line_expressions_bounded();
	teardown();	/* a fresh profile for the next case */
	setup();
	compile_names_the_option();
}

/*
 * Pass 2 writes the frames in two bytes each while every frame id fits
 * in them (65,535 frames), else in four: NLEAF leaves under main;run,
 * each its own frame, read back whole through the public copy-out and
 * drawn by the flame graph, whose entries keep the width.
 */
static void
frames_in_their_width(size_t nleaf, bool wide)
{
	struct profconv_svg_options so = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	uint32_t m, r, f, lm, lr, l;
	char name[32], *got, *want = NULL, *svg = NULL;
	size_t i, wlen = 0, slen = 0;
	FILE *fp;

	heap_types();
	m = add_fn(p, "main", "");
	r = add_fn(p, "run", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lr = LOC1(p, 0, 0x20, r, 1);
	fp = open_memstream(&want, &wlen);
	cr_assert(fp != NULL);
	for (i = 0; i < nleaf; i++) {
		int64_t val = i + 1 == nleaf ? 7 : 1;

		snprintf(name, sizeof(name), "f%06zu", i);
		f = add_fn(p, name, "");
		l = LOC1(p, 0, 0x1000 + 16 * i, f, 1);
		SAMPLE(p, &val, l, lr, lm);
		fprintf(fp, "main;run;%s %lld\n", name, (long long)val);
	}
	fclose(fp);
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_view_frame_count(v), nleaf + 2));
	cr_expect(eq(int, v->sframes_wide, wide));
	got = view_text(v);
	cr_expect(eq(int, strcmp(got, want), 0), "%zu leaves: the stacks "
	    "differ", nleaf);
	free(got);
	free(want);

	fp = open_memstream(&svg, &slen);
	cr_assert(fp != NULL);
	so.minwidth = "0";
	cr_assert(eq(int, profconv_svg_write(v, NULL, fp, &so), 0), "%s",
	    ERRMSG);
	fclose(fp);
	snprintf(name, sizeof(name), "<title>f%06zu (7 bytes, ", nleaf - 1);
	cr_expect(strstr(svg, name) != NULL, "%s", name);
	cr_expect(strstr(svg, "<title>run (") != NULL);
	free(svg);
	profconv_view_free(v);
}

Test(view_build, frames_in_two_bytes_while_they_fit)
{
	frames_in_their_width(65533, false);	/* 65,535 frames */
}

Test(view_build, frames_in_four_bytes_past_that)
{
	frames_in_their_width(65534, true);	/* 65,536 frames */
}
