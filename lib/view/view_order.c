/* SPDX-License-Identifier: MIT */
/*
 * view_order.c - the last passes of building a view: the shown samples
 * in the folded text's byte order (pass 3) and the stacks they make
 * (pass 4), and the build that runs all four.  Part of the view
 * (view.c); view_build.h holds their shared state.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"
#include "view/view_build.h"

/* --- order: folded text, byte order ------------------------------------------ */

/* A frame where another follows (';' after its text in the folded form)
 * or where its stack ends. */
struct fkey {
	uint32_t frame;
	int after;		/* ';', or -1 at the end */
};

/*
 * The folded text's byte order on a frame's text and what follows it,
 * which is all that decides between two stacks at the first frame where
 * they differ.
 */
static int
by_folded(const void *a, const void *b, void *payload)
{
	const struct profconv_view *v = payload;
	const struct fkey *x = a, *y = b;
	uint32_t tx = v->frames[x->frame - 1].text;
	uint32_t ty = v->frames[y->frame - 1].text;
	size_t lx = v->strs.lens[tx], ly = v->strs.lens[ty];
	size_t n = lx < ly ? lx : ly;
	int c = memcmp(profconv__str(&v->strs, tx), profconv__str(&v->strs, ty),
	    n), cx, cy;

	if (c != 0)
		return c;
	cx = n < lx ? (unsigned char)profconv__str(&v->strs, tx)[n] : x->after;
	cy = n < ly ? (unsigned char)profconv__str(&v->strs, ty)[n] : y->after;
	c = PC_CMP(cx, cy);
	/* One text and what follows it begins the other's. */
	return c != 0 ? c : PC_CMP(lx, ly);
}

int
profconv__view_frame_keys(const struct profconv_view *v, uint32_t **cont,
    uint32_t **end)
{
	size_t n = 2 * v->nframes, i;
	struct fkey *k = malloc((n + 1) * sizeof(*k));

	*cont = calloc(v->nframes + 1, sizeof(**cont));
	*end = calloc(v->nframes + 1, sizeof(**end));
	if (k == NULL || *cont == NULL || *end == NULL) {
		free(k);
		return profconv__nomem();
	}
	for (i = 0; i < v->nframes; i++) {
		k[2 * i] = (struct fkey){ (uint32_t)i + 1, ';' };
		k[2 * i + 1] = (struct fkey){ (uint32_t)i + 1, -1 };
	}
	qsort_r(k, n, sizeof(*k), by_folded, (void *)v);
	for (i = 0; i < n; i++)
		(k[i].after == -1 ? *end : *cont)[k[i].frame] =
		    (uint32_t)i + 1;
	free(k);
	return 0;
}

/* The sample shown K-th. */
static inline size_t
shown_at(const struct build *b, size_t k)
{
	return b->shown != NULL ? b->shown[k] : k;
}

static struct pc_stack
shown_path(const void *arg, size_t k, size_t *len)
{
	const struct build *b = arg;
	size_t si = shown_at(b, k);

	*len = b->off[si + 1] - b->off[si];
	return pc_stack_make(b->path, b->wide, b->off[si], *len);
}

/* Pass 3: the shown samples in the folded text's order. */
static int
sort_samples(struct build *b)
{
	struct profconv_view *v = b->v;
	struct pc_seqsort s = { 0 };
	size_t si, n = v->prof->nsamples;
	int rc;

	for (si = 0; si < n; si++)
		b->nshown += b->first[si] != NOT_SHOWN;
	if (b->nshown < n) {
		b->shown = profconv__malloc_big((b->nshown + 1) * sizeof(*b->shown));
		if (b->shown == NULL)
			return profconv__nomem();
		for (si = 0, b->nshown = 0; si < n; si++)
			if (b->first[si] != NOT_SHOWN)
				b->shown[b->nshown++] = (uint32_t)si;
	}
	/* Which frames each sample shows is in the path now: the arrays
	 * that said so go before the sort makes its own. */
	free(b->first);
	free(b->last);
	b->first = b->last = NULL;
	b->order = profconv__malloc_big((b->nshown + 1) * sizeof(*b->order));
	b->same = profconv__malloc_big(b->nshown + 1);
	if (b->order == NULL || b->same == NULL)
		return profconv__nomem();
	if (v->unmerged) {
		/* Each shown sample a stack, where it is. */
		for (si = 0; si < b->nshown; si++) {
			b->order[si] = (uint32_t)si;
			b->same[si] = 0;
		}
		return 0;
	}
	s.n = b->nshown;
	s.seq = shown_path;
	s.arg = b;
	s.maxkey = (uint32_t)(2 * v->nframes);
	s.jobs = b->jobs;
	s.keep = b->scratch;
	s.keep_size = &b->scratch_size;
	/* Keys name frames: equal keys are equal frames. */
	rc = profconv__view_frame_keys(v, (uint32_t **)&s.cont,
		    (uint32_t **)&s.end);
	if (rc == 0)
		rc = profconv__seqsort(&s, b->order, NULL, b->same);
	free((void *)s.cont);
	free((void *)s.end);
	return rc;
}

/* Pass 4, counting: the stacks that begin in range R of places (a range
 * begins where a stack does). */
static int
count_task(void *arg, size_t r)
{
	struct build *b = arg;
	size_t p, n = 0;

	for (p = b->range_at[r]; p < b->range_at[r + 1]; p++)
		n += !b->same[p];
	b->range_stack[r] = n;
	return 0;
}

/* ... and making them: where their frames are, their values, and each
 * sample pointed at its stack. */
static int
stack_task(void *arg, size_t r)
{
	struct build *b = arg;
	struct profconv_view *v = b->v;
	size_t p, k = b->range_stack[r], t, nt = v->ntypes;
	int64_t *acc = NULL;

	for (p = b->range_at[r]; p < b->range_at[r + 1]; p++) {
		size_t si = shown_at(b, b->order[p]);
		const int64_t *vals = pc_sample_values(v->prof, si);

		/* Samples are met in no order: what the next ones read and
		 * write is asked for early. */
		if (b->shown != NULL && p + 2 * SAMPLES_AHEAD < b->nshown)
			__builtin_prefetch(&b->shown[b->order[p +
			    2 * SAMPLES_AHEAD]]);
		if (p + SAMPLES_AHEAD < b->nshown) {
			size_t ahead = shown_at(b, b->order[p + SAMPLES_AHEAD]);

			__builtin_prefetch(pc_sample_values(v->prof, ahead));
			__builtin_prefetch(&b->off[ahead]);
			__builtin_prefetch(&v->sample_stack[ahead], 1);
		}

		if (!b->same[p]) {
			v->stacks[k].off = v->leaves ? si : b->off[si];
			v->stacks[k].n = (uint32_t)(b->off[si + 1] -
			    b->off[si]);
			if (v->leaves && v->stacks[k].n > 1)
				v->stacks[k].n = 1;
			acc = v->vals + k * nt;
			memset(acc, 0, nt * sizeof(*acc));
			k++;
		}
		for (t = 0; t < nt; t++)
			pc_add_sat(&acc[t], vals[t]);
		v->sample_stack[si] = (uint32_t)k;
	}
	return 0;
}

void *
profconv__view_reuse(void **p, size_t have, size_t size)
{
	void *q;

	if (*p == NULL || size > have) {
		/* Too small: given back first, not held beside. */
		free(*p);
		*p = NULL;
		return profconv__malloc_big(size);
	}
	q = realloc(*p, size);
	if (q == NULL)
		q = *p;		/* still whole */
	*p = NULL;
	return q;
}

/*
 * The view's stacks in their order.  Their frames stay where pass 2 put
 * them (each sample's together, root first; copying them into the
 * stacks' order cost more in fresh pages than the writers gain).
 */
static int
lay_out(struct build *b)
{
	struct profconv_view *v = b->v;
	size_t n, r, at = v->leaves ? v->prof->nsamples :
	    b->off[v->prof->nsamples];
	int rc;

	b->nranges = (b->nshown + RANGE - 1) / RANGE;
	b->range_at = malloc((b->nranges + 1) * sizeof(*b->range_at));
	b->range_stack = malloc((b->nranges + 1) * sizeof(*b->range_stack));
	if (b->range_at == NULL || b->range_stack == NULL)
		return profconv__nomem();
	/* Each range from the first stack to begin in it: one stack's
	 * samples are added by one task, in order. */
	for (r = 0; r < b->nranges; r++) {
		size_t p = r * RANGE;

		while (p < b->nshown && b->same[p])
			p++;
		b->range_at[r] = p;
	}
	b->range_at[b->nranges] = b->nshown;
	rc = profconv__jobs_run(b->jobs, b->nranges, count_task, b);
	if (rc < 0)
		return rc;
	for (r = 0, n = 0; r < b->nranges; r++) {
		size_t k = b->range_stack[r];

		b->range_stack[r] = n;
		n += k;
	}
	v->nstacks = n;
	v->stacks = profconv__view_reuse(&b->scratch[0], b->scratch_size,
	    (n + 1) * sizeof(*v->stacks));
	v->vals = profconv__view_reuse(&b->scratch[1], b->scratch_size,
	    (n * v->ntypes + 1) * sizeof(*v->vals));
	if (v->stacks == NULL || v->vals == NULL)
		return profconv__nomem();
	v->stacks_cap = n + 1;
	v->vals_cap = n * v->ntypes + 1;
	v->nvals = n * v->ntypes;
	v->sframes = b->path;
	v->sframes_wide = b->wide;
	v->sinline = b->pinl;
	b->path = NULL;
	b->pinl = NULL;
	v->sframes_cap = at + 1;
	v->nsframes = at;
	return profconv__jobs_run(b->jobs, b->nranges, stack_task, b);
}

static void
build_free(struct build *b)
{
	free(b->first);
	free(b->last);
	free(b->off);
	free(b->path);
	free(b->pinl);
	free(b->shown);
	free(b->order);
	free(b->same);
	free(b->range_at);
	free(b->range_stack);
	free(b->scratch[0]);
	free(b->scratch[1]);
}

int
profconv__view_build(struct profconv_view *v, unsigned int jobs)
{
	struct build b = { .v = v, .jobs = jobs };
	size_t ns = v->prof->nsamples;
	int rc;

	rc = profconv__view_plan(&b);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, (ns + RANGE - 1) / RANGE,
		    profconv__view_path_task, &b);
	/* Every stack is in the path now: the profile's, when given, go
	 * before the sort makes its arrays (by line for
	 * profconv__view_new_by_line(), only when it is the view by
	 * function too, or makes it: every frame is made by now). */
	if (rc == 0 && v->take != NULL && !(v->lines_asked &&
	    v->line_texts && !v->coarse)) {
		profconv_profile_drop_stacks(v->take);
		v->take = NULL;
	}
	if (rc == 0)
		rc = sort_samples(&b);
	if (rc == 0)
		rc = lay_out(&b);
	build_free(&b);
	return rc;
}
