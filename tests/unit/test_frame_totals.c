/* SPDX-License-Identifier: MIT */
/*
 * test_frame_totals.c - a view's stack values summed per frame
 * (lib/view/frame_totals.c): flat and cum sums and the order frames are
 * first met in, checked against a plain walk of the view's stacks, on
 * one thread and on several (a view of more stacks than the 32,768 a
 * walk splits), and nothing when a sum could saturate.
 */

#include "config.h"

#include <stdint.h>

#include "view/view.h"
/* Last: its globals A and B would shadow parameters of base.h. */
#include "writer_fixture.h"

TestSuite(frame_totals, .fini = teardown);

enum {
	NFN = 40,
	MAXDEPTH = 9,
	NSAMPLES = 60000
};

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* NSAMPLES random stacks of NFN functions, recursion too, two types,
 * some values negative, some samples without locations. */
static struct profconv_profile *
random_profile(uint64_t seed)
{
	struct profconv_profile *p;
	uint32_t loc[NFN], ids[MAXDEPTH];
	uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
	char name[8];
	int i, j;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	for (i = 0; i < NFN; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		loc[i] = LOC1(p, 0, 0x100 + (uint64_t)i * 16,
		    add_fn(p, name, ""), 0);
	}
	for (i = 0; i < NSAMPLES; i++) {
		size_t depth = next(&s) % (MAXDEPTH + 1);
		bool late = next(&s) % 16 == 0;
		int64_t v[2];

		/* The last four functions only in stacks whose root is the
		 * last, which the view sorts last: frames first met, as
		 * leaves and at all, by the walk's last part. */
		for (j = 0; j < (int)depth; j++)
			ids[j] = loc[next(&s) % (late ? NFN : NFN - 4)];
		if (late && depth > 0)
			ids[depth - 1] = loc[NFN - 1];
		v[0] = 1 + (int64_t)(next(&s) % 9);
		v[1] = (int64_t)(next(&s) % 100000) * (i % 7 == 0 ? -1 : 1);
		cr_assert(eq(int, profconv_profile_add_sample(p, ids, depth, v,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	return p;
}

static struct profconv_view *
view_on(const struct profconv_profile *p, unsigned int jobs)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;

	o.jobs = jobs;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	return v;
}

/* What the sums must be: a plain walk of V's stacks. */
struct expect {
	int64_t *flat, *cum;
	uint32_t *leaves, *frames;
	size_t nleaves, nframes;
};

static void
expect_of(const struct profconv_view *v, size_t nt, struct expect *e)
{
	size_t nslots = profconv_view_frame_count(v) + 1, i, j, k, t;
	uint8_t *leaf = calloc(nslots, 1), *any = calloc(nslots, 1);
	size_t *seen = calloc(nslots, sizeof(*seen));
	struct pc_view_stack st;

	e->flat = calloc(nslots * nt, sizeof(*e->flat));
	e->cum = calloc(nslots * nt, sizeof(*e->cum));
	e->leaves = calloc(nslots, sizeof(*e->leaves));
	e->frames = calloc(nslots, sizeof(*e->frames));
	e->nleaves = e->nframes = 0;
	for (i = 0; i < profconv_view_stack_count(v); i++) {
		uint32_t lf;

		profconv__view_stack(v, i, &st);
		lf = st.nframes == 0 ? 0 : pc_stack_at(st.frames, st.nframes - 1);
		for (t = 0; t < nt; t++)
			e->flat[lf * nt + t] += st.values[t];
		if (!leaf[lf]) {
			leaf[lf] = 1;
			e->leaves[e->nleaves++] = lf;
		}
		if (st.nframes == 0) {
			if (!any[0]) {
				any[0] = 1;
				e->frames[e->nframes++] = 0;
			}
			for (k = 0; k < nt; k++)
				e->cum[k] += st.values[k];
			continue;
		}
		for (j = 0; j < st.nframes; j++) {
			uint32_t f = pc_stack_at(st.frames, j);

			if (!any[f]) {
				any[f] = 1;
				e->frames[e->nframes++] = f;
			}
			if (seen[f] == i + 1)
				continue;
			seen[f] = i + 1;
			for (k = 0; k < nt; k++)
				e->cum[f * nt + k] += st.values[k];
		}
	}
	free(leaf);
	free(any);
	free(seen);
}

static void
expect_free(struct expect *e)
{
	free(e->flat);
	free(e->cum);
	free(e->leaves);
	free(e->frames);
}

/* One kind of sums (ASKED or not): SUMS and the order list LIST (N
 * slots) as the walk's, or none. */
static void
expect_slots(bool asked, const int64_t *sums, const uint32_t *list,
    size_t n, const int64_t *want, const uint32_t *want_list, size_t want_n,
    size_t len)
{
	size_t i;

	if (!asked) {
		cr_assert(eq(ptr, (void *)sums, NULL));
		cr_assert(eq(ptr, (void *)list, NULL));
		return;
	}
	cr_assert(eq(sz, n, want_n));
	/* Element by element: Criterion's array assertions leak. */
	for (i = 0; i < want_n; i++)
		cr_assert(eq(u32, list[i], want_list[i]), "place %zu", i);
	for (i = 0; i < len; i++)
		cr_assert(eq(i64, sums[i], want[i]), "sum %zu", i);
}

static void
check_sums(const struct profconv_view *v, bool flat, bool cum)
{
	size_t nt = 2, nslots = profconv_view_frame_count(v) + 1;
	struct pc_frame_totals fs;
	struct expect e;

	expect_of(v, nt, &e);
	cr_assert(eq(int, profconv__frame_totals(&fs, v, flat, cum), 1));
	cr_assert(eq(sz, fs.nt, nt));
	expect_slots(flat, fs.flat, fs.leaves, fs.nleaves, e.flat, e.leaves,
	    e.nleaves, nslots * nt);
	expect_slots(cum, fs.cum, fs.frames, fs.nframes, e.cum, e.frames,
	    e.nframes, nslots * nt);
	profconv__frame_totals_free(&fs);
	expect_free(&e);
}

/* One thread and several: the sums of a plain walk, in its order. */
Test(frame_totals, match_a_plain_walk_on_any_number_of_threads)
{
	unsigned int jobs[] = { 1, 2, 3, 8 };
	size_t k;

	a = random_profile(7);
	cr_assert(gt(sz, profconv_profile_sample_count(a), 32768));
	for (k = 0; k < sizeof(jobs) / sizeof(*jobs); k++) {
		va = view_on(a, jobs[k]);
		cr_assert(gt(sz, profconv_view_stack_count(va), 32768));
		check_sums(va, true, true);
		check_sums(va, true, false);
		check_sums(va, false, true);
		profconv_view_free(va);
		va = NULL;
	}
}

/* The recursive stack counts once in cum; the stack without frames
 * is slot 0, met where its stack is. */
Test(frame_totals, recursion_once_and_the_empty_stack)
{
	uint32_t m, fa, la, lm;
	int64_t v1[2] = { 1, 10 }, v2[2] = { 2, 20 }, v3[2] = { 4, 40 };
	struct pc_frame_totals fs;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	profconv_profile_add_sample_type(a, "space", "bytes");
	m = add_fn(a, "main", "");
	fa = add_fn(a, "a", "");
	lm = LOC1(a, 0, 0x10, m, 1);
	la = LOC1(a, 0, 0x20, fa, 1);
	SAMPLE(a, v1, la, la, lm);
	cr_assert(eq(int, profconv_profile_add_sample(a, NULL, 0, v2, NULL, 0),
	    0));
	SAMPLE(a, v3, lm);
	va = view_on(a, 1);
	check_sums(va, true, true);
	cr_assert(eq(int, profconv__frame_totals(&fs, va, true, true), 1));
	/* Three slots: the empty stack's, main's and a's. */
	cr_assert(eq(sz, fs.nframes, 3));
	cr_assert(eq(sz, fs.nleaves, 3));
	profconv__frame_totals_free(&fs);
}

/* Magnitudes that reach INT64_MAX: the sums would depend on the order;
 * nothing is returned. */
Test(frame_totals, nothing_when_a_sum_could_saturate)
{
	uint32_t la, lb, lc;
	int64_t big[2] = { 1, INT64_MAX / 2 + 1 }, neg[2] = { 1, -2 };
	struct pc_frame_totals fs;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	profconv_profile_add_sample_type(a, "space", "bytes");
	la = LOC1(a, 0, 0x10, add_fn(a, "a", ""), 1);
	lb = LOC1(a, 0, 0x20, add_fn(a, "b", ""), 1);
	lc = LOC1(a, 0, 0x30, add_fn(a, "c", ""), 1);
	/* Stacks of 2^62, 2^62 and -2: 2^63 + 2 in magnitude, though
	 * they add up to 2^63 - 2. */
	SAMPLE(a, big, la);
	SAMPLE(a, big, lb);
	SAMPLE(a, neg, lc);
	va = view_on(a, 1);
	cr_assert(eq(int, profconv__frame_totals(&fs, va, true, true), 0));
	cr_assert(eq(ptr, fs.flat, NULL));
	cr_assert(eq(ptr, fs.cum, NULL));
	profconv__frame_totals_free(&fs);
}
