/* SPDX-License-Identifier: MIT */
/*
 * test_graph_tags.c - the call graph's tags (lib/view/graph_tags.c):
 * pprof's Node.addSample, a sample's weight once per node into the tag
 * of each of its labels (its string labels' group, each numeric
 * "bytes"), and into its leaf's flat.  A build counts the tags per
 * class of labels when it can, else sample by sample; on random
 * profiles both ways are checked against the same sums worked out here,
 * and against each other: the same tags, in the same order.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_view_fixture.h"
#include "view/graph_build.h"

TestSuite(graph_tags, .init = count_setup, .fini = teardown);

enum {
	NFN = 8,		/* functions f0 .. f7 */
	NGROUP = 3,		/* no string label, thread:a, thread:b */
	NSIZE = 5,		/* the "bytes" values below */
	NKIND = NGROUP * (1 + NSIZE),
	MAXDEPTH = 6
};

static const int64_t sizes[NSIZE] = { 8, 16, 24, 4096, 12345 };
static const char *const threads[NGROUP] = { NULL, "a", "b" };
static const char *const groups[NGROUP] = { "", "thread:a", "thread:b" };

/* The sums worked out sample by sample: function, then kind (group,
 * then 0 for the string tag or 1 + the size's index). */
struct oracle {
	int64_t cum[NFN][NKIND], flat[NFN][NKIND];
	bool seen[NFN][NKIND];
};

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
oracle_add(struct oracle *o, int fn, int kind, int64_t w, bool flat)
{
	o->seen[fn][kind] = true;
	if (flat)
		o->flat[fn][kind] += w;
	else
		o->cum[fn][kind] += w;
}

/*
 * N random samples into P (whose functions LOC are), and their sums
 * into O: stacks of 1 to MAXDEPTH frames that may recur, with no
 * string label or a thread, and none, one or two "bytes" (two may be
 * equal: that tag then takes the weight twice).
 */
static void
random_samples(uint64_t seed, int n, const uint32_t *loc, struct oracle *o)
{
	uint64_t s = seed * 2654435761u + 1;
	int i, j;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < n; i++) {
		struct profconv_label lab[3];
		uint32_t ids[MAXDEPTH];
		int fns[MAXDEPTH], sz[2];
		bool in[NFN] = { false };
		int depth = 1 + (int)(next(&s) % MAXDEPTH);
		int gi = (int)(next(&s) % NGROUP);
		int nnum = (int)(next(&s) % 3), nlab = 0;
		int64_t w = 1 + (int64_t)(next(&s) % 1000);

		for (j = 0; j < depth; j++) {
			fns[j] = (int)(next(&s) % NFN);
			ids[j] = loc[fns[j]];	/* leaf first */
		}
		if (gi != 0)
			lab[nlab++] = (struct profconv_label){ "thread",
			    threads[gi], 0, NULL };
		for (j = 0; j < nnum; j++) {
			sz[j] = (int)(next(&s) % NSIZE);
			lab[nlab++] = (struct profconv_label){ "bytes", NULL,
			    sizes[sz[j]], NULL };
		}
		cr_assert(eq(int, profconv_profile_add_sample(p, ids,
		    (size_t)depth, &w, lab, (size_t)nlab), 0));
		for (j = 0; j < depth; j++) {
			int f = fns[j], k;

			if (in[f])
				continue;
			in[f] = true;
			if (gi != 0)
				oracle_add(o, f, gi * (1 + NSIZE), w, false);
			for (k = 0; k < nnum; k++)
				oracle_add(o, f, gi * (1 + NSIZE) + 1 + sz[k],
				    w, false);
		}
		if (gi != 0)
			oracle_add(o, fns[0], gi * (1 + NSIZE), w, true);
		for (j = 0; j < nnum; j++)
			oracle_add(o, fns[0], gi * (1 + NSIZE) + 1 + sz[j], w,
			    true);
	}
}

/* The kind of tag T, as the oracle numbers them. */
static int
kind_of(const struct pc_gtag *t)
{
	int gi, si;

	for (gi = 0; gi < NGROUP; gi++)
		if (strcmp(t->group, groups[gi]) == 0)
			break;
	cr_assert(lt(int, gi, NGROUP), "group '%s'", t->group);
	if (!t->numeric)
		return gi * (1 + NSIZE);
	for (si = 0; si < NSIZE; si++)
		if (sizes[si] == t->value)
			break;
	cr_assert(lt(int, si, NSIZE), "size %" PRId64, t->value);
	return gi * (1 + NSIZE) + 1 + si;
}

/* Every tag of G's functions is O's, and every tag of O is G's. */
static void
check_oracle(const struct oracle *o, uint64_t seed)
{
	char name[8];
	int f, k;

	for (f = 0; f < NFN; f++) {
		const struct pc_gnode *n;
		size_t i, want = 0;

		for (k = 0; k < NKIND; k++)
			want += o->seen[f][k];
		snprintf(name, sizeof(name), "f%d", f);
		for (i = 0; i < g->nnodes; i++)
			if (strcmp(g->nodes[i].printable, name) == 0)
				break;
		if (i == g->nnodes) {
			cr_expect(eq(sz, want, 0), "seed %" PRIu64 " %s",
			    seed, name);
			continue;
		}
		n = &g->nodes[i];
		cr_expect(eq(sz, n->ntags, want), "seed %" PRIu64 " %s",
		    seed, name);
		for (i = n->tag_off; i < n->tag_off + n->ntags; i++) {
			const struct pc_gtag *t = &g->tags[i];

			k = kind_of(t);
			cr_expect(eq(i64, t->cum, o->cum[f][k]),
			    "seed %" PRIu64 " %s kind %d", seed, name, k);
			cr_expect(eq(i64, t->flat, o->flat[f][k]),
			    "seed %" PRIu64 " %s kind %d", seed, name, k);
		}
	}
}

/* A copy of G's nodes and tags, their texts with them (G is freed). */
struct snap {
	struct pc_gnode nodes[NFN + 2];
	struct pc_gtag tags[(NFN + 2) * NKIND + 32];
	char names[NFN + 2][8];
	char tag_group[(NFN + 2) * NKIND + 32][16];
	char tag_name[(NFN + 2) * NKIND + 32][16];
	size_t nnodes;
};

static void
snapshot(struct snap *sn)
{
	size_t i;

	cr_assert(le(sz, g->nnodes, NFN + 2));
	cr_assert(le(sz, g->ntags, PC_ARRAY_LEN(sn->tags)));
	sn->nnodes = g->nnodes;
	memcpy(sn->nodes, g->nodes, g->nnodes * sizeof(*g->nodes));
	memcpy(sn->tags, g->tags, g->ntags * sizeof(*g->tags));
	for (i = 0; i < g->nnodes; i++)
		snprintf(sn->names[i], sizeof(sn->names[i]), "%s",
		    g->nodes[i].printable);
	for (i = 0; i < g->ntags; i++) {
		snprintf(sn->tag_group[i], sizeof(sn->tag_group[i]), "%s",
		    g->tags[i].group);
		snprintf(sn->tag_name[i], sizeof(sn->tag_name[i]), "%s",
		    g->tags[i].name);
	}
}

/* G's functions f0 .. f7 have A's nodes and tags, in the same order. */
static void
same_as(const struct snap *a, uint64_t seed)
{
	size_t i, j;

	for (i = 0; i < a->nnodes; i++) {
		const struct pc_gnode *x = &a->nodes[i], *y = node(a->names[i]);

		cr_expect(eq(i64, x->flat, y->flat), "seed %" PRIu64, seed);
		cr_expect(eq(i64, x->cum, y->cum), "seed %" PRIu64, seed);
		cr_assert(eq(sz, x->ntags, y->ntags), "seed %" PRIu64 " %s",
		    seed, a->names[i]);
		for (j = 0; j < x->ntags; j++) {
			size_t at = x->tag_off + j;
			const struct pc_gtag *s = &a->tags[at];
			const struct pc_gtag *t = &g->tags[y->tag_off + j];

			cr_expect(eq(str, (char *)a->tag_group[at],
			    (char *)t->group));
			cr_expect(eq(str, (char *)a->tag_name[at],
			    (char *)t->name));
			cr_expect(eq(int, s->numeric, t->numeric));
			cr_expect(eq(i64, s->value, t->value));
			cr_expect(eq(i64, s->flat, t->flat), "seed %" PRIu64
			    " %s tag %zu", seed, a->names[i], j);
			cr_expect(eq(i64, s->cum, t->cum));
		}
	}
}

/* The functions' locations in a new P. */
static void
functions(uint32_t *loc)
{
	char name[8];
	int f;

	for (f = 0; f < NFN; f++) {
		snprintf(name, sizeof(name), "f%d", f);
		loc[f] = LOC1(p, 0, 0x100 + (uint64_t)f * 16,
		    add_fn(p, name, ""), 0);
	}
}

/*
 * Random profiles, counted by class; then the same samples and one
 * more, of a function "x" of its own with 16 "bytes" labels, too many
 * for a class, so that the build counts sample by sample.  Both agree
 * with the sums worked out here, and f0 .. f7 have the same tags in the
 * same order either way.
 */
Test(graph_tags, by_class_as_sample_by_sample)
{
	static struct oracle o;
	static struct snap a;
	uint64_t seed;

	for (seed = 1; seed <= 60; seed++) {
		struct profconv_label many[16];
		uint32_t loc[NFN], x;
		int64_t w = 7;
		int i;

		functions(loc);
		random_samples(seed, 40 + (int)(seed % 7) * 10, loc, &o);
		graph_by(PROFCONV_BY_FUNCTION, false);
		cr_assert(g->build->by_class, "seed %" PRIu64, seed);
		check_oracle(&o, seed);
		snapshot(&a);
		teardown();
		count_setup();

		functions(loc);
		random_samples(seed, 40 + (int)(seed % 7) * 10, loc, &o);
		x = LOC1(p, 0, 0x900, add_fn(p, "x", ""), 0);
		for (i = 0; i < 16; i++)
			many[i] = (struct profconv_label){ "bytes", NULL,
			    sizes[i % NSIZE], NULL };
		cr_assert(eq(int, profconv_profile_add_sample(p, &x, 1, &w,
		    many, 16), 0));
		graph_by(PROFCONV_BY_FUNCTION, false);
		cr_assert(not(g->build->by_class), "seed %" PRIu64, seed);
		check_oracle(&o, seed);
		same_as(&a, seed);
		teardown();
		count_setup();
	}
}

/*
 * Weights whose sum could saturate are counted sample by sample, where
 * the additions come in the samples' order.  Three samples of the
 * thread "a" through main: +B with size 8, +B with 16, -B with 8.  Sample by sample
 * the thread's tag stops at INT64_MAX, then takes B off; by class the
 * first and the last would cancel first and leave B.
 */
Test(graph_tags, sums_that_could_saturate_sample_by_sample)
{
	uint32_t l[2];
	int64_t big = INT64_MAX / 2 + 1, w[3] = { big, big, -big };
	int64_t size[3] = { 8, 16, 8 };
	const struct pc_gnode *n;
	size_t i;

	l[0] = LOC1(p, 0, 0x20, add_fn(p, "f", ""), 0);
	l[1] = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
	/* The last on f -> main: a stack of its own, not joined to the
	 * first's before the build. */
	for (i = 0; i < 3; i++)
		cr_assert(eq(int, profconv_profile_add_sample(p,
		    i == 2 ? l : l + 1, i == 2 ? 2 : 1, &w[i],
		    (struct profconv_label[]){ { "thread", "a", 0, NULL },
		    { "bytes", NULL, size[i], NULL } }, 2), 0));
	graph_by(PROFCONV_BY_FUNCTION, false);
	cr_expect(not(g->build->by_class));
	n = node("main");
	cr_assert(eq(sz, n->ntags, 3));
	for (i = n->tag_off; i < n->tag_off + n->ntags; i++)
		if (!g->tags[i].numeric)
			cr_expect(eq(i64, g->tags[i].cum, INT64_MAX - big));
}

/*
 * Two sizes with one name ("1MB"): one tag a node, whose value is that
 * of the first sample that reached the node, as in pprof: main's is the
 * first sample's, f's the second's.
 */
Test(graph_tags, sizes_of_one_name_take_the_first_value)
{
	int64_t size[2] = { 1048576, 1048577 }, w;
	char a[64], b[64];
	int order, i;

	profconv__measure_label(a, sizeof(a), size[0], "bytes", "minimum");
	profconv__measure_label(b, sizeof(b), size[1], "bytes", "minimum");
	cr_assert(eq(str, a, b));
	for (order = 0; order < 2; order++) {
		uint32_t l[2];
		const struct pc_gnode *n;

		l[0] = LOC1(p, 0, 0x20, add_fn(p, "f", ""), 0);
		l[1] = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 0);
		/* main (1, A); f main (2, B); main (3, B); f main (4, A) */
		for (i = 0; i < 4; i++) {
			bool with_f = i % 2 == 1;

			w = 1 + i;
			cr_assert(eq(int, profconv_profile_add_sample(p,
			    with_f ? l : l + 1, with_f ? 2 : 1, &w,
			    (struct profconv_label[]){ { "bytes", NULL,
			    size[(order + (i == 1 || i == 2)) % 2], NULL } },
			    1), 0));
		}
		graph_by(PROFCONV_BY_FUNCTION, false);
		cr_expect(g->build->by_class);
		n = node("main");
		cr_assert(eq(sz, n->ntags, 1));
		cr_expect(eq(i64, g->tags[n->tag_off].value, size[order]));
		cr_expect(eq(i64, g->tags[n->tag_off].cum, 10));
		cr_expect(eq(i64, g->tags[n->tag_off].flat, 4));
		n = node("f");
		cr_assert(eq(sz, n->ntags, 1));
		cr_expect(eq(i64, g->tags[n->tag_off].value,
		    size[1 - order]));
		cr_expect(eq(i64, g->tags[n->tag_off].cum, 6));
		cr_expect(eq(i64, g->tags[n->tag_off].flat, 6));
		teardown();
		count_setup();
	}
}
