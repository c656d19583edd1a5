/* SPDX-License-Identifier: MIT */
/*
 * test_merge_samples.c - the merger's samples (lib/transform/
 * merge_samples.c), and the census by which a subtraction never makes
 * the samples that cancel: profconv_profile_subtract() must give, byte
 * for byte, the profile the merger makes when it makes every sample
 * (profconv__subtract_each()), on random pairs of profiles loaded at
 * different addresses, with labels, repeated stacks, values that do
 * not cancel and a library only cancelled samples of CUR use.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "transform/merger.h"

static struct profconv_profile *cur, *base, *got, *want;

static void
drop(void)
{
	profconv_profile_free(cur);
	profconv_profile_free(base);
	profconv_profile_free(got);
	profconv_profile_free(want);
	cur = base = got = want = NULL;
}

TestSuite(merge_samples, .fini = drop);

enum { NLOC = 12, NSAMPLES = 3000, MAXDEPTH = 5 };

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A sample as the generator keeps it, to write into either profile. */
struct gen {
	int depth;
	int loc[MAXDEPTH];	/* index into a profile's locations */
	int label;		/* 0 none, 1 thread a, 2 thread b, 3 size */
	int64_t v[2];
};

/* A profile of two PIE objects, "/bin/app" at AT and "/lib/libx.so"
 * (NLOC locations each) and "/lib/libz.so" (one), with GEN's samples
 * in the order ORDER gives (NULL: as they come). */
static struct profconv_profile *
make(uint64_t at, const struct gen *g, size_t n, const size_t *order)
{
	struct profconv_profile *p;
	struct profconv_mapping m[3] = {
		{ at, at + 0x10000, 0, "/bin/app", "b1d", 0, 0, 0, 0 },
		{ at + 0x100000, at + 0x110000, 0, "/lib/libx.so", "",
		    0, 0, 0, 0 },
		{ at + 0x200000, at + 0x201000, 0, "/lib/libz.so", "",
		    0, 0, 0, 0 },
	};
	uint32_t loc[2 * NLOC + 1], ids[MAXDEPTH], mid;
	size_t k;
	int j;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	for (j = 0; j < 3; j++)
		cr_assert(eq(int, profconv_profile_add_mapping(p, &m[j],
		    &mid), 0));
	for (j = 0; j < 2 * NLOC; j++)
		cr_assert(eq(int, profconv_profile_add_location(p,
		    (uint32_t)(j / NLOC + 1), m[j / NLOC].start + 0x100 +
		    (uint64_t)(j % NLOC) * 0x40, NULL, 0, 0, &loc[j]), 0));
	cr_assert(eq(int, profconv_profile_add_location(p, 3,
	    m[2].start + 0x80, NULL, 0, 0, &loc[2 * NLOC]), 0));
	for (k = 0; k < n; k++) {
		const struct gen *x = &g[order != NULL ? order[k] : k];
		struct profconv_label l[1];

		for (j = 0; j < x->depth; j++)
			ids[j] = loc[x->loc[j]];
		if (x->label == 1 || x->label == 2)
			l[0] = (struct profconv_label){ "thread",
			    x->label == 1 ? "a" : "b", 0, NULL };
		if (x->label == 3)
			l[0] = (struct profconv_label){ "bytes", NULL, 64,
			    "bytes" };
		cr_assert(eq(int, profconv_profile_add_sample(p, ids,
		    (size_t)x->depth, x->v, l, x->label != 0), 0));
	}
	return p;
}

static void
random_gen(struct gen *x, uint64_t *s)
{
	int j;

	x->depth = 1 + (int)(next(s) % MAXDEPTH);
	for (j = 0; j < x->depth; j++)
		x->loc[j] = (int)(next(s) % (2 * NLOC));
	x->label = (int)(next(s) % 4);
	x->v[0] = 1 + (int64_t)(next(s) % 9);
	x->v[1] = x->v[0] * 64;
}

/* The bytes of P's pprof, uncompressed, into *BUF (*LEN). */
static void
bytes_of(const struct profconv_profile *p, char **buf, size_t *len)
{
	struct profconv_write_options o = PROFCONV_WRITE_OPTIONS_INIT;
	FILE *fp = open_memstream(buf, len);

	cr_assert(not(zero(ptr, fp)));
	o.level = 0;
	cr_assert(eq(int, profconv_profile_write(p, fp, &o), 0), "%s",
	    profconv_errmsg());
	fclose(fp);
}

/* CUR - BASE both ways: the same bytes; the census found PAIRS. */
static void
same_delta(size_t pairs, const char *what)
{
	uint8_t *sc = NULL, *sb = NULL;
	char *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0, n = 0;

	cr_assert(eq(int, profconv__merge_census(cur, base, &sc, &sb, &n), 0));
	cr_expect(eq(sz, n, pairs), "%s: pairs", what);
	free(sc);
	free(sb);
	cr_assert(eq(int, profconv_profile_subtract(&got, cur, base), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(int, profconv__subtract_each(&want, cur, base), 0),
	    "%s", profconv_errmsg());
	bytes_of(got, &x, &nx);
	bytes_of(want, &y, &ny);
	cr_expect(eq(sz, profconv_profile_sample_count(got),
	    profconv_profile_sample_count(want)), "%s", what);
	cr_expect(eq(sz, nx, ny), "%s", what);
	cr_expect(nx == ny && memcmp(x, y, nx) == 0, "%s: bytes differ",
	    what);
	free(x);
	free(y);
	profconv_profile_free(got);
	profconv_profile_free(want);
	got = want = NULL;
}

static bool
same_sample(const struct gen *x, const struct gen *y)
{
	return x->depth == y->depth && x->label == y->label &&
	    memcmp(x->loc, y->loc, sizeof(x->loc[0]) * (size_t)x->depth) == 0;
}

/* How many samples of G cancel against H: H has each once, with its
 * values (none INT64_MIN), and neither has it twice. */
static size_t
cancelling(const struct gen *g, size_t ng, const struct gen *h, size_t nh)
{
	size_t i, j, k = 0;

	for (i = 0; i < ng; i++) {
		size_t in_cur = 0, in_base = 0, same = 0;

		for (j = 0; j < ng; j++)
			in_cur += same_sample(&g[j], &g[i]);
		for (j = 0; j < nh; j++)
			if (same_sample(&h[j], &g[i])) {
				in_base++;
				same += memcmp(h[j].v, g[i].v,
				    sizeof(g[i].v)) == 0 &&
				    g[i].v[0] != INT64_MIN;
			}
		k += in_cur == 1 && in_base == 1 && same == 1;
	}
	return k;
}

/*
 * BASE from CUR's samples, shuffled, loaded elsewhere: most kept as
 * they are (these cancel, unless their stack comes twice), some with
 * other values, some gone, some new.  Returns how many cancel.
 */
static size_t
pair_of(uint64_t seed, struct gen *g, struct gen *h, size_t *order,
    size_t *nh)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15u + 7;
	size_t i, n = 0;

	for (i = 0; i < NSAMPLES; i++)
		random_gen(&g[i], &s);
	for (i = 0; i < NSAMPLES; i++) {
		unsigned r = (unsigned)(next(&s) % 20);

		if (r < 2)
			continue;			/* gone */
		h[n] = g[i];
		if (r < 5)
			h[n].v[0] += 1;			/* changed */
		else if (r < 6)
			random_gen(&h[n], &s);		/* new */
		n++;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = next(&s) % i, t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	*nh = n;
	return cancelling(g, NSAMPLES, h, n);
}

/*
 * Random pairs, their BASE walked against the census's table by one
 * thread, then in parts of 1, 97 and 1,000 samples on the threads: a
 * stack BASE has twice (depth 1: 96 such stacks, 3,000 samples) then
 * often lies in two parts, whose threads meet its slot in no set order.
 */
Test(merge_samples, a_subtraction_is_the_same_without_what_cancels)
{
	static const size_t chunks[] = { 0, 1, 97, 1000 };
	static struct gen g[NSAMPLES], h[NSAMPLES];
	static size_t order[NSAMPLES];
	size_t i, nc = PC_ARRAY_LEN(chunks);

	/* Seeds 1 to 4, each walked in every way. */
	for (i = 0; i < 4 * nc; i++) {
		uint64_t seed = 1 + i / nc;
		size_t ci = i % nc, nh, k = pair_of(seed, g, h, order, &nh);
		char what[48];

		profconv__test_census_chunk = chunks[ci];
		snprintf(what, sizeof(what), "seed %d, parts of %zu",
		    (int)seed, chunks[ci]);
		cr_assert(gt(sz, k, NSAMPLES / 2), "%s", what);
		cur = make(0x555500000000, g, NSAMPLES, NULL);
		base = make(0x563400000000, h, nh, order);
		same_delta(k, what);
		/* BASE - CUR: the census reads either way round. */
		profconv_profile_free(got);
		got = cur;
		cur = base;
		base = got;
		got = NULL;
		same_delta(k, what);
		drop();
	}
	profconv__test_census_chunk = 0;
}

/* A profile less itself loaded elsewhere: every sample cancels, none
 * is made; libz, which only a cancelled sample used, goes too. */
Test(merge_samples, a_profile_less_itself_is_empty)
{
	static struct gen g[64];
	uint64_t s = 99;
	size_t i;

	for (i = 0; i < 64; i++)
		random_gen(&g[i], &s);
	g[0].depth = 2;
	g[0].loc[0] = 2 * NLOC;	/* libz */
	cur = make(0x555500000000, g, 64, NULL);
	base = make(0x7f0000000000, g, 64, NULL);
	cr_assert(gt(sz, cancelling(g, 64, g, 64), 32));
	same_delta(cancelling(g, 64, g, 64), "itself");
	cr_assert(eq(int, profconv_profile_subtract(&got, cur, base), 0));
	cr_expect(eq(sz, profconv_profile_sample_count(got), 0));
	cr_expect(eq(sz, profconv_profile_location_count(got), 0));
}

/*
 * What must not cancel: a stack CUR has twice, a sample whose values
 * differ, one of other labels, one of INT64_MIN (its negation
 * saturates), and a library that only cancelled samples of CUR use but
 * a sample of BASE alone uses too, loaded elsewhere: its mapping must
 * come out as CUR's, as the merger of every sample makes it.
 */
Test(merge_samples, what_does_not_cancel_stays)
{
	struct gen g[6] = {
		{ 2, { 0, 1 }, 0, { 1, 64 } },
		{ 2, { 0, 1 }, 0, { 2, 128 } },		/* twice */
		{ 1, { 3 }, 0, { 5, 320 } },		/* other values */
		{ 1, { 4 }, 1, { 1, 64 } },		/* other labels */
		{ 1, { 5 }, 0, { INT64_MIN, 64 } },
		{ 2, { 2 * NLOC, 6 }, 3, { 3, 192 } },	/* libz, cancels */
	};
	struct gen h[6] = {
		{ 2, { 0, 1 }, 0, { 1, 64 } },
		{ 1, { 3 }, 0, { 6, 320 } },
		{ 1, { 4 }, 2, { 1, 64 } },
		{ 1, { 5 }, 0, { INT64_MIN, 64 } },
		{ 2, { 2 * NLOC, 6 }, 3, { 3, 192 } },
		{ 1, { 2 * NLOC }, 0, { 7, 448 } },	/* libz, BASE alone */
	};

	cur = make(0x555500000000, g, 6, NULL);
	base = make(0x563400000000, h, 6, NULL);
	same_delta(1, "kept");
	cr_assert(eq(int, profconv_profile_subtract(&got, cur, base), 0));
	cr_expect(eq(sz, cancelling(g, 6, h, 6), 1));
	/* main; g2 less h1; g3; h2; g4 less h3; h5. */
	cr_expect(eq(sz, profconv_profile_sample_count(got), 6));
}
