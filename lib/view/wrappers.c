/* SPDX-License-Identifier: MIT */
/*
 * wrappers.c - allocation wrappers found by their shape in a profile: a
 * function that is (almost) only ever seen directly above the allocator,
 * called from many places, and holds a fair share of the profile.  A row
 * named after one says nothing about who allocated, so the view cuts it
 * like malloc (its find_wrappers option).  The rule and its numbers are
 * PC_WRAP_* in base/bounds.h.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "view/view.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char *
profconv_wrapper_rule(void)
{
	return "the leaf in >= " STR(PC_WRAP_LEAF_PERCENT) "% of the value "
	    "of its samples, under >= " STR(PC_WRAP_MIN_CALLERS) " callers, "
	    ">= " STR(PC_WRAP_MIN_PERMILLE) " per mille of the profile; "
	    "repeated";
}

/* A leaf and the frame directly above it: a function's name (string
 * index), or a location without one (the number of strings plus its
 * id), each a frame of its own in the view. */
struct pair {
	uint32_t leaf;
	uint64_t caller;
};

struct found {
	uint32_t name;
	int64_t self;
};

struct state {
	struct pc_pruner *p;
	size_t type;
	int64_t *self;		/* name -> value where it is the leaf */
	int64_t *total;		/* name -> value of samples it is in */
	uint32_t *stamp;	/* name -> last sample counted in total + 1 */
	uint8_t *cut;		/* name -> found so far */
	struct pair *pairs;
	size_t npairs;
};

static int
pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = PC_CMP(x->leaf, y->leaf);

	return c != 0 ? c : PC_CMP(x->caller, y->caller);
}

static int
found_cmp(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	int c = PC_CMP(y->self, x->self);

	return c != 0 ? c : PC_CMP(x->name, y->name);
}

static int64_t
abs_sat(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

/* Count sample SI: its leaf once the cut frames are gone, the function
 * above that leaf, and every function it holds. */
static void
count_sample(struct state *st, size_t si)
{
	const struct profconv_profile *prof = st->p->prof;
	const struct pc_sample *s = pc_sample(prof, si);
	struct pc_stack stk = pc_sample_stack(prof, s);
	int64_t v = abs_sat(pc_sample_values(prof, si)[st->type]);
	uint32_t leaf = 0, stamp = (uint32_t)si + 1;
	uint64_t caller = 0;
	bool have_leaf = false, have_caller = false;
	size_t k, first;
	uint32_t j;

	if (v == 0)
		return;
	first = profconv__prune_stack(st->p, stk, s->nlocs);
	for (k = first; k < s->nlocs; k++) {
		uint32_t id = pc_stack_at(stk, k);
		const struct pc_location *l = pc_location(prof, id);
		const struct pc_line *ln = pc_location_lines(prof, l);
		uint32_t from = profconv__prune_skip(st->p, id);

		if (l->nlines == 0) {
			/* A frame without a name: no wrapper; a caller. */
			if (!have_leaf) {
				have_leaf = true;
			} else if (!have_caller) {
				have_caller = true;
				caller = prof->strings.len + id;
			}
			continue;
		}
		for (j = from; j < l->nlines; j++) {
			uint32_t nm = pc_function(prof, ln[j].function)->name;

			if (!have_leaf) {
				if (nm != 0 && st->cut[nm])
					continue;
				have_leaf = true;
				leaf = nm;
			} else if (!have_caller && nm != leaf) {
				/* Recursion is not a caller. */
				have_caller = true;
				caller = nm;
			}
			if (nm != 0 && st->stamp[nm] != stamp) {
				st->stamp[nm] = stamp;
				pc_add_sat(&st->total[nm], v);
			}
		}
	}
	if (leaf == 0)
		return;
	pc_add_sat(&st->self[leaf], v);
	if (caller != 0)
		st->pairs[st->npairs++] = (struct pair){ leaf, caller };
}

/* One round: the functions the rule cuts now, into F (*NF of them). */
static void
round_find(struct state *st, int64_t grand, struct found *f, size_t *nf)
{
	const struct profconv_profile *prof = st->p->prof;
	size_t nstr = prof->strings.len, i, j, callers;

	memset(st->self, 0, nstr * sizeof(*st->self));
	memset(st->total, 0, nstr * sizeof(*st->total));
	memset(st->stamp, 0, nstr * sizeof(*st->stamp));
	st->npairs = 0;
	for (i = 0; i < prof->nsamples; i++)
		count_sample(st, i);
	if (st->npairs > 1)
		qsort(st->pairs, st->npairs, sizeof(*st->pairs), pair_cmp);
	*nf = 0;
	for (i = 0; i < st->npairs; i = j) {
		uint32_t nm = st->pairs[i].leaf;

		callers = 0;
		for (j = i; j < st->npairs && st->pairs[j].leaf == nm; j++)
			if (j == i || st->pairs[j].caller !=
			    st->pairs[j - 1].caller)
				callers++;
		if (callers < PC_WRAP_MIN_CALLERS || st->cut[nm])
			continue;
		if ((__int128)st->self[nm] * 100 <
		    (__int128)st->total[nm] * PC_WRAP_LEAF_PERCENT)
			continue;
		if ((__int128)st->self[nm] * 1000 <
		    (__int128)grand * PC_WRAP_MIN_PERMILLE)
			continue;
		f[(*nf)++] = (struct found){ nm, st->self[nm] };
	}
	if (*nf > 1)
		qsort(f, *nf, sizeof(*f), found_cmp);
}

int
profconv__find_wrappers(struct pc_pruner *p, uint32_t **names, size_t *n)
{
	const struct profconv_profile *prof = p->prof;
	struct state st = { .p = p };
	struct found *f = NULL;
	size_t nstr = prof->strings.len, nf, i, round;
	int64_t grand = 0;
	uint32_t *out = NULL;
	size_t nout = 0;
	int type, rc = 0;

	*names = NULL;
	*n = 0;
	type = profconv_profile_default_sample_index(prof);
	if (!p->active || !p->alloc_profile || type < 0 ||
	    prof->nsamples == 0 || prof->nsamples >= UINT32_MAX)
		return 0;
	st.type = (size_t)type;
	for (i = 0; i < prof->nsamples; i++)
		pc_add_sat(&grand, abs_sat(pc_sample_values(prof, i)[st.type]));
	if (grand == 0)
		return 0;
	st.self = calloc(nstr, sizeof(*st.self));
	st.total = calloc(nstr, sizeof(*st.total));
	st.stamp = calloc(nstr, sizeof(*st.stamp));
	st.cut = calloc(nstr, 1);
	st.pairs = malloc(prof->nsamples * sizeof(*st.pairs));
	f = malloc(prof->nsamples * sizeof(*f));
	out = malloc(PC_WRAP_MAX_FOUND * sizeof(*out));
	if (st.self == NULL || st.total == NULL || st.stamp == NULL ||
	    st.cut == NULL || st.pairs == NULL || f == NULL || out == NULL) {
		rc = profconv__nomem();
		goto done;
	}
	for (round = 0; round < PC_WRAP_MAX_ROUNDS &&
	    nout < PC_WRAP_MAX_FOUND; round++) {
		round_find(&st, grand, f, &nf);
		if (nf == 0)
			break;
		for (i = 0; i < nf && nout < PC_WRAP_MAX_FOUND; i++) {
			st.cut[f[i].name] = 1;
			out[nout++] = f[i].name;
		}
	}
	if (nout > 0) {
		p->cut_fn = calloc(prof->nfunctions + 1, 1);
		if (p->cut_fn == NULL) {
			rc = profconv__nomem();
			goto done;
		}
		for (i = 1; i <= prof->nfunctions; i++)
			p->cut_fn[i] = st.cut[pc_function(prof,
			    (uint32_t)i)->name];
		/* Classify every location again, with the wrappers. */
		memset(p->state, 0, prof->nlocations + 1);
		memset(p->skip, 0, (prof->nlocations + 1) * sizeof(*p->skip));
		*names = out;
		*n = nout;
		out = NULL;
	}
done:
	free(st.self);
	free(st.total);
	free(st.stamp);
	free(st.cut);
	free(st.pairs);
	free(f);
	free(out);
	return rc;
}
