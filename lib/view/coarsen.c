/* SPDX-License-Identifier: MIT */
/*
 * coarsen.c - the view by function made from the view by line of the
 * same options, without the profile's stacks: each frame by line maps to
 * the frame by function its text begins with, and the stacks that then
 * have the same frames are one.  Part of the view (view.c); view_build.h
 * holds their shared state.
 *
 * Why it gives profconv_view_new()'s view by function, number for
 * number: both builds meet the same locations' lines in the same order,
 * one frame per line, and differ only in each frame's text.  A frame by
 * function is made where its text is first met, which is where the
 * first frame by line of that function is made (with the same parts);
 * so taking the frames by line in their order and keeping the first of
 * each text by function numbers the frames alike.  Each sample keeps its
 * place in the frames' array (the same counts per sample), its stack
 * ends up with the samples of the same frames by function, and a stack
 * by function takes its frames (and inline marks) from its first
 * sample, the first of its stacks by line's first samples, and its
 * values are its samples' added in sample order.  The rows and listings
 * read between the two steps add the stacks by line's sums, which give
 * the same sums only when no sum can saturate: the view by line is
 * coarse only then (values_fit()).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"
#include "view/view_build.h"

bool
profconv__view_is_coarse(const struct profconv_view *v)
{
	return v != NULL && v->lines_asked && v->line_texts && v->coarse &&
	    v->borrowed == NULL;
}

/* CV's frames, each the first of LV's with its text by function, in LV's
 * order; MAP[F] the frame of CV that LV's frame F is.  The texts by
 * function are interned in LV's strings, which CV reads too. */
static int
map_frames(struct profconv_view *cv, struct profconv_view *lv, uint32_t *map)
{
	uint32_t *of_text = NULL, t;
	size_t cap = 0, tmp_cap = 0, i;
	char *tmp = NULL;
	int rc = 0;

	for (i = 0; rc == 0 && i < lv->nframes; i++) {
		const struct vframe *f = &lv->frames[i];

		t = f->text;
		if (f->fn_len != 0) {
			/* Copied first: interning may move the strings. */
			rc = PC_GROW(tmp, tmp_cap, 0, (size_t)f->fn_len + 1);
			if (rc == 0) {
				memcpy(tmp, profconv__str(&lv->strs, f->text),
				    f->fn_len);
				rc = profconv__strtab_intern(&lv->strs, tmp,
				    f->fn_len, &t);
			}
		}
		if (rc == 0)
			rc = PC_GROW_ZEROED(of_text, cap, (size_t)t + 1);
		if (rc == 0 && of_text[t] == 0) {
			rc = PC_GROW(cv->frames, cv->frames_cap, cv->nframes,
			    1);
			if (rc == 0) {
				cv->frames[cv->nframes] = *f;
				cv->frames[cv->nframes].text = t;
				cv->frames[cv->nframes].fn_len = 0;
				of_text[t] = (uint32_t)++cv->nframes;
			}
		}
		if (rc == 0)
			map[i + 1] = of_text[t];
	}
	free(tmp);
	free(of_text);
	return rc;
}

/* CV's frames of every sample: LV's, each mapped by MAP. */
static int
map_sframes(struct profconv_view *cv, const struct profconv_view *lv,
    const uint32_t *map)
{
	size_t i, n = lv->nsframes;

	cv->sframes_wide = cv->nframes > UINT16_MAX;
	cv->sframes = profconv__malloc_big((n + 1) *
	    (cv->sframes_wide ? sizeof(uint32_t) : sizeof(uint16_t)));
	if (cv->sframes == NULL)
		return profconv__nomem();
	cv->nsframes = n;
	cv->sframes_cap = n + 1;
	if (cv->sframes_wide) {
		/* Fewer frames than LV's: LV's are wide too. */
		const uint32_t *src = lv->sframes;
		uint32_t *dst = cv->sframes;

		for (i = 0; i < n; i++)
			dst[i] = map[src[i]];
	} else if (lv->sframes_wide) {
		const uint32_t *src = lv->sframes;
		uint16_t *dst = cv->sframes;

		for (i = 0; i < n; i++)
			dst[i] = (uint16_t)map[src[i]];
	} else {
		const uint16_t *src = lv->sframes;
		uint16_t *dst = cv->sframes;

		for (i = 0; i < n; i++)
			dst[i] = (uint16_t)map[src[i]];
	}
	return 0;
}

static int
copy_legend(struct profconv_view *cv, const struct profconv_view *lv)
{
	size_t i;

	for (i = 0; i < lv->nlegend; i++) {
		if ((cv->legend[i] = strdup(lv->legend[i])) == NULL)
			return profconv__nomem();
		cv->nlegend = i + 1;
	}
	return 0;
}

int
profconv__view_coarsen(struct profconv_view **out, struct profconv_view *lv)
{
	struct profconv_view *cv;
	uint32_t *map;
	int rc;

	*out = NULL;
	if (!profconv__view_is_coarse(lv))
		return profconv__fail(PROFCONV_EINVAL, "the view by line does "
		    "not make the view by function");
	cv = calloc(1, sizeof(*cv));
	map = calloc(lv->nframes + 1, sizeof(*map));
	if (cv == NULL || map == NULL) {
		free(cv);
		free(map);
		return profconv__nomem();
	}
	cv->prof = lv->prof;
	cv->opts = lv->opts;
	cv->opts.granularity = PROFCONV_BY_FUNCTION;
	cv->ntypes = lv->ntypes;
	cv->jobs = lv->jobs;
	cv->filters = lv->filters;
	cv->matched = lv->matched;
	cv->borrows = true;
	cv->totals = calloc(lv->ntypes + 1, sizeof(*cv->totals));
	rc = cv->totals == NULL ? profconv__nomem() : 0;
	if (rc == 0) {
		memcpy(cv->totals, lv->totals, lv->ntypes *
		    sizeof(*cv->totals));
		rc = copy_legend(cv, lv);
	}
	if (rc == 0)
		rc = map_frames(cv, lv, map);
	if (rc == 0)
		rc = map_sframes(cv, lv, map);
	if (rc == 0 && lv->cut_frame != 0)
		cv->cut_frame = map[lv->cut_frame];
	free(map);
	/* Borrowed: LV's strings (the texts by function added), stacks
	 * (by line: not merged yet), inline marks, values, samples'
	 * stacks and tag names. */
	cv->strs = lv->strs;
	cv->tagnames = lv->tagnames;
	cv->stacks = lv->stacks;
	cv->nstacks = lv->nstacks;
	cv->stacks_cap = lv->stacks_cap;
	cv->sinline = lv->sinline;
	cv->vals = lv->vals;
	cv->nvals = lv->nvals;
	cv->vals_cap = lv->vals_cap;
	cv->sample_stack = lv->sample_stack;
	if (rc < 0) {
		profconv_view_free(cv);
		return rc;
	}
	*out = cv;
	return 0;
}

static struct pc_stack
stack_seq(const void *arg, size_t k, size_t *len)
{
	const struct profconv_view *v = arg;

	*len = v->stacks[k].n;
	return pc_stack_make(v->sframes, v->sframes_wide, v->stacks[k].off,
	    v->stacks[k].n);
}

/* Samples read ahead in merge()'s last loop: their stacks, and the
 * stacks' places. */
#define AHEAD 16

/*
 * V's stacks in the order of their frames in memory, which is their
 * first samples' order: the sort then reads the frames as they lie
 * (in the view by line's order, its first pass over them waited on
 * memory for each stack).  Each sample pointed at its stack's new place.
 */
static int
by_place(struct profconv_view *v)
{
	size_t n = v->nstacks, ns = v->prof->nsamples, si, i = 0, k;
	uint32_t *at = profconv__malloc_big((n + 1) * sizeof(*at));
	uint64_t *seen = calloc(n / 64 + 1, sizeof(*seen));
	struct vstack *stacks = profconv__malloc_big((n + 1) *
	    sizeof(*stacks));

	if (at == NULL || seen == NULL || stacks == NULL) {
		free(at);
		free(seen);
		free(stacks);
		return profconv__nomem();
	}
	/* AT: stack -> its place, in the order its first sample comes. */
	for (si = 0; si < ns; si++) {
		uint32_t st = v->sample_stack[si];

		if (st == 0 || (seen[(st - 1) / 64] >> ((st - 1) % 64) & 1))
			continue;
		seen[(st - 1) / 64] |= (uint64_t)1 << ((st - 1) % 64);
		at[st - 1] = (uint32_t)i++;
	}
	free(seen);
	if (i != n) {		/* every stack is some sample's */
		free(at);
		free(stacks);
		return profconv__fail(PROFCONV_EINVAL, "a stack of no sample");
	}
	for (k = 0; k < n; k++)
		stacks[at[k]] = v->stacks[k];
	for (si = 0; si < ns; si++) {
		uint32_t st = v->sample_stack[si];

		if (si + AHEAD < ns && v->sample_stack[si + AHEAD] != 0)
			__builtin_prefetch(&at[v->sample_stack[si + AHEAD] -
			    1]);
		if (st != 0)
			v->sample_stack[si] = at[st - 1] + 1;
	}
	free(at);
	free(v->stacks);
	v->stacks = stacks;
	v->stacks_cap = n + 1;
	return 0;
}

/*
 * V's stacks (by line, mapped: some have the same frames) in the folded
 * text's order, those with the same frames one: its frames its first
 * sample's, its values its samples' added in their order (as
 * profconv_view_new() adds them); each sample pointed at its stack.
 * A stack's frames lie where its first sample's do, and the samples'
 * frames lie in sample order: the first sample of a run of stacks by
 * line is that of the stack whose frames come first.  The values by
 * line go first (the samples have theirs), the new stacks and values
 * take the sort's work arrays' pages.
 */
static int
merge(struct profconv_view *v)
{
	size_t n = v->nstacks, nt = v->ntypes, si, p, t, m = 0, k = 0;
	size_t have = 0, ns = v->prof->nsamples;
	struct pc_seqsort s = { 0 };
	struct vstack *stacks = NULL;
	uint32_t *order, *to = NULL;
	void *scratch[2] = { NULL, NULL };
	uint8_t *same;
	int64_t *vals = NULL;
	int rc;

	free(v->vals);
	v->vals = NULL;
	v->nvals = v->vals_cap = 0;
	if ((rc = by_place(v)) < 0)
		return rc;
	order = profconv__malloc_big((n + 1) * sizeof(*order));
	same = profconv__malloc_big(n + 1);
	rc = order == NULL || same == NULL ? profconv__nomem() : 0;
	s.n = n;
	s.seq = stack_seq;
	s.arg = v;
	s.maxkey = (uint32_t)(2 * v->nframes);
	s.jobs = v->jobs;
	s.keep = scratch;
	s.keep_size = &have;
	if (rc == 0)
		rc = profconv__view_frame_keys(v, (uint32_t **)&s.cont,
		    (uint32_t **)&s.end);
	if (rc == 0)
		rc = profconv__seqsort(&s, order, NULL, same);
	free((void *)s.cont);
	free((void *)s.end);
	for (p = 0; rc == 0 && p < n; p++)
		m += !same[p];
	if (rc == 0) {
		to = profconv__malloc_big((n + 1) * sizeof(*to));
		stacks = profconv__view_reuse(&scratch[0], have,
		    (m + 1) * sizeof(*stacks));
		vals = profconv__view_reuse(&scratch[1], have,
		    (m * nt + 1) * sizeof(*vals));
		if (to == NULL || stacks == NULL || vals == NULL)
			rc = profconv__nomem();
	}
	/* Each run's stack by line whose frames come first. */
	for (p = 0; rc == 0 && p < n; p++) {
		uint32_t j = order[p];

		if (p + AHEAD < n)
			__builtin_prefetch(&v->stacks[order[p + AHEAD]]);
		if (!same[p])
			stacks[k++] = v->stacks[j];
		else if (v->stacks[j].off < stacks[k - 1].off)
			stacks[k - 1] = v->stacks[j];
		to[j] = (uint32_t)k;
	}
	free(order);
	free(same);
	free(scratch[0]);
	free(scratch[1]);
	if (rc < 0) {
		free(to);
		free(stacks);
		free(vals);
		return rc;
	}
	free(v->stacks);
	v->stacks = stacks;
	v->nstacks = m;
	v->stacks_cap = m + 1;
	memset(vals, 0, (m * nt + 1) * sizeof(*vals));
	v->vals = vals;
	v->nvals = m * nt;
	v->vals_cap = m * nt + 1;
	for (si = 0; si < ns; si++) {
		const int64_t *x = pc_sample_values(v->prof, si);
		uint32_t st = v->sample_stack[si];

		if (si + 2 * AHEAD < ns && v->sample_stack[si + 2 * AHEAD] != 0)
			__builtin_prefetch(&to[v->sample_stack[si + 2 * AHEAD] -
			    1]);
		if (si + AHEAD < ns && v->sample_stack[si + AHEAD] != 0)
			__builtin_prefetch(vals + (size_t)(to[
			    v->sample_stack[si + AHEAD] - 1] - 1) * nt, 1);
		if (st == 0)
			continue;
		k = to[st - 1] - 1;
		for (t = 0; t < nt; t++)
			pc_add_sat(&vals[k * nt + t], x[t]);
		v->sample_stack[si] = (uint32_t)k + 1;
	}
	free(to);
	return 0;
}

int
profconv__view_coarsen_finish(struct profconv_view *cv,
    struct profconv_view *lv)
{
	if (cv == NULL || lv == NULL || !cv->borrows ||
	    cv->stacks != lv->stacks || cv->sample_stack != lv->sample_stack)
		return profconv__fail(PROFCONV_EINVAL, "not the view by "
		    "function made from that view by line");
	/* What CV borrowed is its own now, and the suppressions go with
	 * it; the rest of LV goes. */
	cv->borrows = false;
	cv->supp = lv->supp;
	lv->supp = NULL;
	memset(&lv->strs, 0, sizeof(lv->strs));
	memset(&lv->tagnames, 0, sizeof(lv->tagnames));
	lv->stacks = NULL;
	lv->sinline = NULL;
	lv->vals = NULL;
	lv->sample_stack = NULL;
	profconv_view_free(lv);
	return merge(cv);
}
