/* SPDX-License-Identifier: MIT */
/*
 * test_view_order.c - the last passes of building a view (lib/view/view_order.c):
 * stacks in the folded text's byte order, and repeated stacks summed in
 * sample order on any number of threads.
 */

#include "config.h"

#include <stdint.h>

#include "view/view.h"
#include "view_helpers.h"
#include "model/model.h"
#include "model/seams.h"

static struct profconv_profile *p;

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
}

static void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

TestSuite(view_order, .init = setup, .fini = teardown);

/*
 * Stacks sort by their folded text in byte order, ';' between frames:
 * ':' and '.' sort before it, '<' and letters after it.
 */
Test(view_order, sorted_by_folded_text)
{
	const char *names[] = { "main", "main:x", "a", "main<x>", "a.b", "bc",
		"ab", "c" };
	uint32_t f[8], l[8];
	int64_t v = 1;
	size_t i;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < 8; i++) {
		f[i] = add_fn(p, names[i], "");
		l[i] = LOC1(p, 0, 0x100 + 16 * i, f[i], 1);
	}
	SAMPLE(p, &v, l[0]);		/* main */
	SAMPLE(p, &v, l[1]);		/* main:x */
	SAMPLE(p, &v, l[2], l[0]);	/* main;a */
	SAMPLE(p, &v, l[3]);		/* main<x> */
	SAMPLE(p, &v, l[4]);		/* a.b */
	SAMPLE(p, &v, l[5], l[2]);	/* a;bc */
	SAMPLE(p, &v, l[7], l[6]);	/* ab;c */
	expect_view(p, NULL, "a.b 1\na;bc 1\nab;c 1\nmain 1\nmain:x 1\n"
	    "main;a 1\nmain<x> 1\n");
}

/*
 * Few stacks, many samples (runs of one stack longer than a task's range
 * of places): each stack's values are the saturating sum of its samples
 * in sample order (large values of both signs, so that any other order
 * gives another sum), and each sample points at its stack, with 1, 2
 * and 3 threads.
 */
static int64_t
sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* Large values first, saturating each stack's sum, then small negative
 * ones: summed in another order, the sums are others. */
static int64_t
value_at(size_t i)
{
	if (i % 1000 == 999)
		return 0;
	return i < 50000 ? INT64_MAX / 4 + (int64_t)i : -(INT64_MAX / 100000);
}

Test(view_order, repeated_stacks_sum_in_sample_order)
{
	enum { NS = 100000, NSTK = 3 };
	static const char *const leaf[NSTK] = { "a", "b", "c" };
	static const unsigned int jobs[3] = { 1, 2, 3 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	static uint8_t which[NS];
	int64_t want[NSTK] = { 0 }, back[NSTK] = { 0 }, val;
	uint32_t root, loc[NSTK], stk[2];
	size_t i, j, k;

	profconv_profile_add_sample_type(p, "samples", "count");
	root = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 1);
	for (k = 0; k < NSTK; k++)
		loc[k] = LOC1(p, 0, 0x20 + 16 * k, add_fn(p, leaf[k], ""), 2);
	for (i = 0; i < NS; i++) {
		/* Long runs of c, a and b mixed elsewhere; every 1,000th
		 * sample zero (not shown).  NS is value_at()'s 100,000. */
		which[i] = i >= NS / 4 && i < NS * 3 / 4 ? 2 :
		    (uint8_t)((i * i) % 2);
		val = value_at(i);
		stk[0] = loc[which[i]];
		stk[1] = root;
		want[which[i]] = sat_add(want[which[i]], val);
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, 2, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 3; j++) {
		struct profconv_view *v = NULL;
		struct pc_view_stack st;
		struct profconv_view_frame fr;
		size_t place[NSTK];

		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_stack_count(v), NSTK));
		for (k = 0; k < NSTK; k++) {
			cr_assert(eq(int, profconv__view_stack(v, k, &st), 0));
			cr_assert(eq(sz, st.nframes, 2));
			cr_assert(eq(int, profconv_view_frame(v, pc_stack_at(st.frames, 1),
			    &fr), 0));
			cr_assert(eq(str, (char *)fr.name, (char *)leaf[k]));
			cr_assert(eq(i64, st.values[0], want[k]),
			    "stack %s, -j %u", leaf[k], jobs[j]);
			place[k] = k;
		}
		for (i = 0; i < NS; i++)
			cr_assert(eq(sz, profconv__view_sample_stack(v, i),
			    i % 1000 == 999 ? 0 : place[which[i]] + 1),
			    "sample %zu, -j %u", i, jobs[j]);
		profconv_view_free(v);
	}
	/* Summed from the last sample back, no stack gives the same. */
	for (i = NS; i-- > 0;) {
		val = value_at(i);
		back[which[i]] = sat_add(back[which[i]], val);
	}
	for (k = 0; k < NSTK; k++)
		cr_assert(ne(i64, back[k], want[k]), "stack %s", leaf[k]);
}

/*
 * Two deep stacks (longer than a sort record holds) that differ only at
 * the leaf, each repeated by tens of thousands of samples (more than one
 * thread sorts alone), interleaved: two stacks, each the sum of its
 * samples, at 1 and 3 threads.
 */
Test(view_order, repeated_deep_stacks_apart)
{
	enum { NS = 70000, DEPTH = 100 };
	static uint32_t stk[DEPTH + 1];
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t loc[DEPTH + 1];
	int64_t val = 1, want[2] = { 0, 0 };
	size_t i, j;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i <= DEPTH; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%zu", i);
		loc[i] = LOC1(p, 0, 0x100 + 16 * i, add_fn(p, name, ""), 1);
	}
	for (i = 0; i < NS; i++) {
		size_t which = (i * 7 / 3) % 2;

		/* Leaf first: f0 or f100, then the same 99 callers. */
		stk[0] = loc[which != 0 ? DEPTH : 0];
		for (j = 1; j < DEPTH; j++)
			stk[j] = loc[j];
		val = (int64_t)(i % 5) + 1;
		want[which] += val;
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, DEPTH,
		    &val, NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 2; j++) {
		struct profconv_view *v = NULL;
		struct pc_view_stack st;
		struct profconv_view_frame fr;
		size_t k;

		o.jobs = j == 0 ? 1 : 3;
		cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_stack_count(v), 2));
		for (k = 0; k < 2; k++) {
			cr_assert(eq(int, profconv__view_stack(v, k, &st), 0));
			cr_assert(eq(sz, st.nframes, DEPTH));
			cr_assert(eq(int, profconv_view_frame(v,
			    pc_stack_at(st.frames, DEPTH - 1), &fr), 0));
			/* "f0" sorts before "f100". */
			cr_assert(eq(str, (char *)fr.name, k == 0 ? "f0" :
			    "f100"));
			cr_assert(eq(i64, st.values[0], want[k]), "-j %u",
			    o.jobs);
		}
		for (i = 0; i < NS; i++)
			cr_assert(eq(sz, profconv__view_sample_stack(v, i),
			    (i * 7 / 3) % 2 + 1), "sample %zu", i);
		profconv_view_free(v);
	}
}

/*
 * The sort's record arrays become the view's stacks and values when
 * they are big enough: with 6 sample types a stack's values (48 bytes)
 * are more than a record (32), so new arrays are made and the records
 * given back.  Every stack and value comes out either way, here 3,000
 * distinct stacks (and 1,000 repeats summed into them) of 1 to 6 types.
 */
Test(view_order, stacks_and_values_past_the_records)
{
	static const char *const types[] = { "a", "b", "c", "d", "e", "f" };
	static uint32_t leaf[3000];
	size_t nt, i, t;

	for (nt = 1; nt <= 6; nt++) {
		struct profconv_view *v = NULL;
		uint32_t m, lm;
		char name[16], *got, *want = NULL;
		size_t wlen = 0;
		FILE *fp;

		teardown();
		setup();
		for (t = 0; t < nt; t++)
			profconv_profile_add_sample_type(p, types[t], "count");
		m = add_fn(p, "main", "");
		lm = LOC1(p, 0, 0x10, m, 1);
		fp = open_memstream(&want, &wlen);
		cr_assert(fp != NULL);
		for (i = 0; i < 4000; i++) {
			int64_t val[6];

			snprintf(name, sizeof(name), "f%04zu", i % 3000);
			for (t = 0; t < nt; t++)
				val[t] = (int64_t)(i % 3000 + 1) *
				    (int64_t)(t + 1);
			/* The last 1,000 repeat the first 1,000's stacks. */
			if (i < 3000)
				leaf[i] = LOC1(p, 0, 0x1000 + 16 * i,
				    add_fn(p, name, ""), 1);
			SAMPLE(p, val, leaf[i % 3000], lm);
		}
		for (i = 0; i < 3000; i++) {
			fprintf(fp, "main;f%04zu", i);
			for (t = 0; t < nt; t++)
				fprintf(fp, " %lld", (long long)((int64_t)(i + 1) *
				    (int64_t)(t + 1) * (i < 1000 ? 2 : 1)));
			fputs("\n", fp);
		}
		fclose(fp);
		cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s",
		    ERRMSG);
		got = view_text(v);
		cr_expect(eq(int, strcmp(got, want), 0), "%zu types", nt);
		free(got);
		free(want);
		profconv_view_free(v);
	}
}
