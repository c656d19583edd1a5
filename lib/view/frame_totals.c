/* SPDX-License-Identifier: MIT */
/*
 * frame_totals.c - a view's stack values summed per frame: flat (the
 * stack's leaf) and cum (each distinct frame of the stack, once), in one
 * walk of the stacks, on the view's jobs when the stacks are many and no
 * sum can saturate.  rows.c turns the sums into function rows.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"

/* Fewer stacks stay on one thread; at most PARTS_MAX. */
#define PARALLEL_MIN ((size_t)1 << 15)
#define PARTS_MAX 8

/* Bits of a part's met[]: the frame was a leaf, was in a stack. */
#define MET_LEAF 1
#define MET_ANY 2

/* One range of stacks, walked by one task. */
struct part {
	size_t from, to;
	uint64_t *flat, *cum;	/* (frame id) * nt + type, wrapping */
	uint32_t *stamp;	/* frame -> last stack counted in cum + 1 */
	uint8_t *met;		/* frame -> MET_* */
	uint32_t *leaves, *frames;	/* frames in the order first met */
	size_t nleaves, nframes;
	uint64_t *mag;		/* per type: the values' magnitudes, summed */
	bool unfit;		/* a magnitude reached INT64_MAX */
};

struct walk {
	const struct profconv_view *view;
	size_t nt, nslots;	/* types; frames + 1 */
	bool flat, cum;
	struct part *parts;
};

static void
part_free(struct part *p)
{
	free(p->flat);
	free(p->cum);
	free(p->stamp);
	free(p->met);
	free(p->leaves);
	free(p->frames);
	free(p->mag);
}

static int
part_alloc(const struct walk *w, struct part *p)
{
	size_t n = w->nslots;

	p->met = calloc(n, 1);
	p->mag = calloc(w->nt + 1, sizeof(*p->mag));
	if (w->flat) {
		p->flat = calloc(n * w->nt + 1, sizeof(*p->flat));
		p->leaves = malloc(n * sizeof(*p->leaves));
	}
	if (w->cum) {
		p->cum = calloc(n * w->nt + 1, sizeof(*p->cum));
		p->stamp = calloc(n, sizeof(*p->stamp));
		p->frames = malloc(n * sizeof(*p->frames));
	}
	if (p->met == NULL || p->mag == NULL ||
	    (w->flat && (p->flat == NULL || p->leaves == NULL)) ||
	    (w->cum && (p->cum == NULL || p->stamp == NULL ||
	    p->frames == NULL)))
		return profconv__nomem();
	return 0;
}

static inline void
add(uint64_t *restrict dst, const int64_t *restrict v, size_t nt)
{
	size_t t;

	for (t = 0; t < nt; t++)
		dst[t] += (uint64_t)v[t];
}

/* The magnitudes of V (NT values) into MAG; false once one of them, or
 * their sum, reaches INT64_MAX. */
static inline bool
add_magnitudes(uint64_t *restrict mag, const int64_t *restrict v, size_t nt)
{
	bool fit = true;
	size_t t;

	for (t = 0; t < nt; t++) {
		uint64_t m = v[t] < 0 ? 0 - (uint64_t)v[t] : (uint64_t)v[t];

		mag[t] += m;
		fit &= m < (uint64_t)INT64_MAX && mag[t] < (uint64_t)INT64_MAX;
	}
	return fit;
}

/* Slot F in the order list LIST (*LEN long) when it is not in it yet
 * (BIT of MET[F]). */
static inline void
meet(uint8_t *met, uint32_t f, uint8_t bit, uint32_t *list, size_t *len)
{
	if (!(met[f] & bit)) {
		met[f] |= bit;
		list[(*len)++] = f;
	}
}

/* Part K's stacks; what the walk reads and writes in locals, as the
 * stores into the sums could otherwise be taken to change any of
 * them. */
static int
walk_task(void *arg, size_t k)
{
	struct walk *w = arg;
	struct part *p = &w->parts[k];
	const size_t nt = w->nt;
	struct pc_view_stack st;
	uint64_t *flat, *cum, *mag;
	uint32_t *stamp;
	uint8_t *met;
	size_t i, j, nleaves = 0, nframes = 0;
	int rc;

	if ((rc = part_alloc(w, p)) < 0)
		return rc;
	flat = p->flat;
	cum = p->cum;
	mag = p->mag;
	stamp = p->stamp;
	met = p->met;
	for (i = p->from; i < p->to; i++) {
		uint32_t s = (uint32_t)(i + 1);	/* stacks < UINT32_MAX */

		profconv__view_stack(w->view, i, &st);
		if (!add_magnitudes(mag, st.values, nt)) {
			p->unfit = true;
			break;
		}
		if (st.nframes == 0) {
			/* Slot 0: the stacks without frames. */
			if (flat != NULL) {
				add(flat, st.values, nt);
				meet(met, 0, MET_LEAF, p->leaves, &nleaves);
			}
			if (cum != NULL) {
				add(cum, st.values, nt);
				meet(met, 0, MET_ANY, p->frames, &nframes);
			}
			continue;
		}
		if (flat != NULL) {
			uint32_t f = pc_stack_at(st.frames, st.nframes - 1);

			add(flat + (size_t)f * nt, st.values, nt);
			meet(met, f, MET_LEAF, p->leaves, &nleaves);
		}
		for (j = 0; cum != NULL && j < st.nframes; j++) {
			uint32_t f = pc_stack_at(st.frames, j);

			if (stamp[f] == s)
				continue;	/* recursion: counted once */
			stamp[f] = s;
			add(cum + (size_t)f * nt, st.values, nt);
			meet(met, f, MET_ANY, p->frames, &nframes);
		}
	}
	p->nleaves = nleaves;
	p->nframes = nframes;
	return 0;
}

/* How many parts the stacks are walked in. */
static size_t
parts_for(const struct profconv_view *view, size_t nstacks, size_t nslots)
{
	size_t n = profconv__jobs_count(profconv__view_jobs(view));

	if (n > PARTS_MAX)
		n = PARTS_MAX;
	if (nstacks < PARALLEL_MIN || n < 2)
		return 1;
	/* Each part has sums for every frame: no more frames over all
	 * parts than there are stacks. */
	while (n > 1 && n * nslots > nstacks)
		n--;
	return n;
}

/* Part K's order list L (LEAVES or FRAMES) after part 0's, each frame
 * once: BIT marks, in part 0's met[], those already there. */
static void
append_order(struct part *to, uint32_t *list, size_t *len,
    const uint32_t *from, size_t n, uint8_t bit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(to->met[from[i]] & bit)) {
			to->met[from[i]] |= bit;
			list[(*len)++] = from[i];
		}
}

/* The other parts into part 0, in order. */
static void
merge_parts(struct walk *w, size_t nparts)
{
	struct part *p0 = &w->parts[0];
	size_t k, i, n = w->nslots * w->nt;

	for (k = 1; k < nparts; k++) {
		struct part *p = &w->parts[k];

		for (i = 0; i < w->nt; i++) {
			if (p->mag[i] > (uint64_t)INT64_MAX - p0->mag[i])
				p0->unfit = true;
			p0->mag[i] += p->mag[i];
		}
		p0->unfit |= p->unfit;
		for (i = 0; w->flat && i < n; i++)
			p0->flat[i] += p->flat[i];
		for (i = 0; w->cum && i < n; i++)
			p0->cum[i] += p->cum[i];
		if (w->flat)
			append_order(p0, p0->leaves, &p0->nleaves, p->leaves,
			    p->nleaves, MET_LEAF);
		if (w->cum)
			append_order(p0, p0->frames, &p0->nframes, p->frames,
			    p->nframes, MET_ANY);
	}
}

int
profconv__frame_totals(struct pc_frame_totals *out,
    const struct profconv_view *view, bool flat, bool cum)
{
	struct walk w = { view, profconv_profile_sample_type_count(
	    profconv_view_profile(view)), profconv_view_frame_count(view) + 1,
	    flat, cum, NULL };
	size_t k, n = profconv_view_stack_count(view);
	size_t nparts = parts_for(view, n, w.nslots);
	struct part *p0;
	int rc;

	memset(out, 0, sizeof(*out));
	w.parts = calloc(nparts, sizeof(*w.parts));
	if (w.parts == NULL)
		return profconv__nomem();
	for (k = 0; k < nparts; k++) {
		w.parts[k].from = n / nparts * k;
		w.parts[k].to = k + 1 == nparts ? n : n / nparts * (k + 1);
	}
	rc = profconv__jobs_run(profconv__view_jobs(view), nparts, walk_task,
	    &w);
	p0 = &w.parts[0];
	if (rc == 0)
		merge_parts(&w, nparts);
	if (rc == 0 && !p0->unfit) {
		/* Sums that fit are the same in any order, wrapped or not. */
		out->nt = w.nt;
		out->flat = (int64_t *)p0->flat;
		out->cum = (int64_t *)p0->cum;
		out->leaves = p0->leaves;
		out->nleaves = p0->nleaves;
		out->frames = p0->frames;
		out->nframes = p0->nframes;
		p0->flat = p0->cum = NULL;
		p0->leaves = p0->frames = NULL;
		rc = 1;
	}
	for (k = 0; k < nparts; k++)
		part_free(&w.parts[k]);
	free(w.parts);
	return rc;
}

void
profconv__frame_totals_free(struct pc_frame_totals *s)
{
	free(s->flat);
	free(s->cum);
	free(s->leaves);
	free(s->frames);
	memset(s, 0, sizeof(*s));
}
