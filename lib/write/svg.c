/* SPDX-License-Identifier: MIT */
/*
 * svg.c - a flame graph as one self-contained SVG, drawn from a view.
 *
 * The layout follows flamegraph.pl's (the format its users know: the same
 * geometry, titles "name (N unit, P%)", palettes and difference colours),
 * written from the description in the project's notes; the script is our
 * own.  The view gives distinct root-first stacks; sorted by their frames'
 * names they form the tree in order, so one pass with a stack of open
 * frames lays it out (a frame's width is where the running total stands
 * when it closes minus where it stood when it opened) and only frames wide
 * enough to draw are kept: memory follows the picture, not the profile.
 *
 * With a base the graph is differential (svg_diff.c colours it): the
 * base's stacks join the current ones under one set of frame ids (names
 * only the base has get ids after the current view's), stacks with the
 * same frames become one with both values, and every frame sums, over
 * the stacks beneath it, the values before and after and the growth and
 * shrinkage apart.  A frame too narrow to draw hands its change to its
 * parent, so nothing is lost on the way to the root.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view/delta.h"
#include "view/view.h"
#include "write/write.h"

/* Geometry, in pixels (flamegraph.pl's); the rest is svg_emit.c's. */
#define XPAD 10

/*
 * The stacks to lay out are kept as places, 4 bytes each: stack P - 1 of
 * the current view, or with PLACE_BASE stack P - 1 of the base, whose
 * frames are in base_frames, in the ids of both views' names.  Their
 * frames and values are read from the views as the walks come to them:
 * copied, at 32 bytes a stack, they were 93 MB of new pages on the
 * 1.27 GB profile (3.4M stacks), the flame graph's whole peak above its
 * view's.  With a base, each stack's two values are kept beside its
 * place (stacks with the same frames become one, their values added).
 */
#define PLACE_BASE ((uint32_t)1 << 31)

/* One stack to lay out, read from its place: its frames, how many, and
 * its values. */
struct entry {
	struct pc_stack frames;
	uint32_t n;
	int64_t cur, base;
};

/* A frame of the current path while laying out: where it started, and
 * the sums of the stacks beneath it so far. */
struct open {
	uint32_t frame;
	int64_t start;
	struct pc_frame_sums sums;
};

struct svg {
	const struct profconv_view *cur, *base;
	const struct profconv_svg_options *o;
	FILE *fp;
	size_t type, base_type;
	const char *countname;
	char unit_buf[64];
	uint32_t *place;		/* the stacks, see PLACE_BASE */
	int64_t *vcur, *vbase;		/* with a base: their values */
	size_t nentries;
	uint32_t *base_frames;		/* base stacks in the ids of names */
	size_t *base_off;		/* base stack -> its place in them */
	struct pc_svg_names names;	/* both views' frames as one */
	uint32_t *extra;		/* names.extra, owned */
	uint32_t *rank;			/* frame id -> rank in name order */
	struct open *path;
	size_t path_cap;
	struct pc_drawn *drawn;
	size_t ndrawn, drawn_cap;
	int64_t total, maxdelta;
	int64_t base_total, cur_total;	/* of the values, not the widths */
	struct pc_delta_scale scale;
	bool fit;			/* sum_widths(): no sum can saturate */
	double threshold;		/* narrowest drawn width, in values */
	double per_value;		/* pixels per unit of value */
	unsigned int width, fheight, maxdepth;
	double height;
	const struct pc_palette *palette;
	struct pc_svg_style style;
};

/* --- sorting the stacks by their frames' names --------------------------- */

static int
by_name(const void *a, const void *b, void *arg)
{
	const struct pc_svg_names *names = arg;
	const char *fn;

	return strcmp(profconv__svg_frame_name(names, *(const uint32_t *)a,
	    &fn), profconv__svg_frame_name(names, *(const uint32_t *)b, &fn));
}

/* rank[id]: the frame's place in byte order of names. */
static int
rank_frames(struct svg *g)
{
	size_t n = g->names.ncur + g->names.nextra, i;
	uint32_t *ids = malloc((n + 1) * sizeof(*ids));

	g->rank = calloc(n + 1, sizeof(*g->rank));
	if (ids == NULL || g->rank == NULL) {
		free(ids);
		return profconv__nomem();
	}
	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i + 1;
	qsort_r(ids, n, sizeof(*ids), by_name, &g->names);
	for (i = 0; i < n; i++)
		g->rank[ids[i]] = (uint32_t)i + 1;
	free(ids);
	return 0;
}

/* Stack K to lay out into *E. */
static inline void
entry_load(const struct svg *g, size_t k, struct entry *e)
{
	uint32_t p = g->place[k];
	struct pc_view_stack s;

	if (p & PLACE_BASE) {
		p = (p & ~PLACE_BASE) - 1;
		e->n = (uint32_t)profconv__view_stack_depth(g->base, p);
		e->frames = pc_stack_make(g->base_frames, true,
		    g->base_off[p], e->n);
	} else {
		profconv__view_stack_at(g->cur, p - 1, &s);
		e->frames = s.frames;
		e->n = (uint32_t)s.nframes;
	}
	if (g->vcur != NULL) {
		e->cur = g->vcur[k];
		e->base = g->vbase[k];
	} else {
		e->cur = s.values[g->type];
		e->base = 0;
	}
}

/* Frame I of E, counted from where the merge starts (the root, or the
 * leaf with --reverse). */
static inline uint32_t
frame_at(const struct entry *e, size_t i, bool reverse)
{
	return pc_stack_at(e->frames, reverse ? e->n - 1 - i : i);
}

static int
compare_entries(const struct entry *x, const struct entry *y,
    const uint32_t *rank, bool reverse)
{
	size_t i, n = x->n < y->n ? x->n : y->n;

	for (i = 0; i < n; i++) {
		uint32_t a = rank[frame_at(x, i, reverse)];
		uint32_t b = rank[frame_at(y, i, reverse)];

		if (a != b)
			return PC_CMP(a, b);
	}
	return PC_CMP(x->n, y->n);
}

/* Stacks ahead of a walk of the entries whose frames are asked for. */
#define ENTRIES_AHEAD 16

/* Stack K's frames asked for, ahead of a walk (not their inline
 * marks, which the flame graph does not read). */
static PC_PREFETCHER void
prefetch_entry(const struct svg *g, size_t k)
{
	uint32_t p = g->place[k];
	struct pc_view_stack s;

	if (p & PLACE_BASE) {
		__builtin_prefetch(g->base_frames +
		    g->base_off[(p & ~PLACE_BASE) - 1]);
		return;
	}
	profconv__view_stack_at(g->cur, p - 1, &s);
	if (s.nframes != 0) {
		__builtin_prefetch(pc_stack_addr(s.frames, 0));
		__builtin_prefetch(pc_stack_addr(s.frames, s.nframes - 1));
	}
}

static struct pc_stack
entry_frames(const void *arg, size_t k, size_t *len)
{
	struct entry e;

	entry_load(arg, k, &e);
	*len = e.n;
	return e.frames;
}

/* *A, N items of W bytes (NULL: none), put in ORDER in a new array. */
static int
reorder(void **a, size_t w, const uint32_t *order, size_t n)
{
	const unsigned char *from = *a;
	unsigned char *to;
	size_t i;

	if (from == NULL)
		return 0;
	if ((to = malloc((n + 1) * w)) == NULL)
		return profconv__nomem();
	for (i = 0; i < n; i++)
		memcpy(to + i * w, from + (size_t)order[i] * w, w);
	free(*a);
	*a = to;
	return 0;
}

/* The view's order (folded text) is nearly frame order; sort only when a
 * name with a character below ';' or --reverse says it is not, with
 * stacksort.c on the view's threads (equal stacks keep their order). */
static int
sort_entries(struct svg *g)
{
	struct pc_seqsort s = { 0 };
	struct entry e[2];
	uint32_t *order;
	size_t i;
	int rc;

	if (g->nentries != 0)
		entry_load(g, 0, &e[0]);
	for (i = 1; i < g->nentries; i++) {
		/* The frames lie where the view's samples put them, not in
		 * this order: ask for those of a stack further on now. */
		if (i + ENTRIES_AHEAD < g->nentries)
			prefetch_entry(g, i + ENTRIES_AHEAD);
		entry_load(g, i, &e[i & 1]);
		if (compare_entries(&e[(i - 1) & 1], &e[i & 1], g->rank,
		    g->o->reverse != 0) > 0)
			break;
	}
	if (i >= g->nentries)
		return 0;
	s.n = g->nentries;
	s.seq = entry_frames;
	s.arg = g;
	s.cont = s.end = g->rank;
	s.maxkey = g->names.ncur + g->names.nextra;
	s.reverse = g->o->reverse != 0;
	s.jobs = profconv__view_jobs(g->cur);
	order = malloc(g->nentries * sizeof(*order));
	rc = order == NULL ? profconv__nomem() :
	    profconv__seqsort(&s, order, NULL, NULL);
	if (rc == 0)
		rc = reorder((void **)&g->place, sizeof(*g->place), order,
		    g->nentries);
	if (rc == 0)
		rc = reorder((void **)&g->vcur, sizeof(*g->vcur), order,
		    g->nentries);
	if (rc == 0)
		rc = reorder((void **)&g->vbase, sizeof(*g->vbase), order,
		    g->nentries);
	free(order);
	return rc;
}

/* One line per stack: a base stack and the current one with the same
 * frames become one, whose change is the difference of the two. */
static void
merge_entries(struct svg *g)
{
	bool rev = g->o->reverse != 0;
	struct entry last, e;
	size_t i, n = 0;

	for (i = 0; i < g->nentries; i++) {
		if (i + ENTRIES_AHEAD < g->nentries)
			prefetch_entry(g, i + ENTRIES_AHEAD);
		entry_load(g, i, &e);
		if (n != 0 && compare_entries(&last, &e, g->rank, rev) == 0) {
			pc_add_sat(&g->vcur[n - 1], e.cur);
			pc_add_sat(&g->vbase[n - 1], e.base);
			continue;
		}
		g->place[n] = g->place[i];
		g->vcur[n] = g->vcur[i];
		g->vbase[n] = g->vbase[i];
		n++;
		last = e;
	}
	g->nentries = n;
}

/* --- collecting the stacks ----------------------------------------------- */

static int
negative(const struct profconv_view *v, const struct pc_view_stack *s,
    const char *which)
{
	struct profconv_view_frame f;
	const char *leaf = "";

	if (s->nframes != 0 &&
	    profconv_view_frame(v, pc_stack_at(s->frames, s->nframes - 1),
	    &f) == 0)
		leaf = f.name;
	return profconv__fail(PROFCONV_EFORMAT, "%s stack ending in '%s' has "
	    "a negative value (a delta profile?); compare with a base instead",
	    which, leaf);
}

/* Room for the places of N current and NB base stacks, and with a
 * base their values. */
static int
entries_alloc(struct svg *g, size_t n, size_t nb)
{
	if (n >= PLACE_BASE - 1 || nb >= PLACE_BASE - 1)
		return profconv__fail(PROFCONV_ENOMEM, "too many stacks for "
		    "a flame graph: %zu", n > nb ? n : nb);
	g->place = malloc((n + nb + 1) * sizeof(*g->place));
	if (g->place == NULL)
		return profconv__nomem();
	if (g->base == NULL)
		return 0;
	g->vcur = malloc((n + nb + 1) * sizeof(*g->vcur));
	g->vbase = malloc((n + nb + 1) * sizeof(*g->vbase));
	if (g->vcur == NULL || g->vbase == NULL)
		return profconv__nomem();
	return 0;
}

static int
add_current(struct svg *g)
{
	size_t n = profconv_view_stack_count(g->cur), i;
	struct pc_view_stack s;
	int rc;

	if ((rc = entries_alloc(g, n, g->base != NULL ?
	    profconv_view_stack_count(g->base) : 0)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		rc = profconv__view_stack(g->cur, i, &s);
		if (rc < 0)
			return rc;
		if (s.values[g->type] < 0)
			return negative(g->cur, &s, "a");
		if (s.values[g->type] == 0)
			continue;
		if (g->vcur != NULL) {
			g->vcur[g->nentries] = s.values[g->type];
			g->vbase[g->nentries] = 0;
		}
		g->place[g->nentries++] = (uint32_t)i + 1;
		pc_add_sat(&g->cur_total, s.values[g->type]);
	}
	return 0;
}

/* Base frame id -> the id of its name among both views' frames: the
 * current view's frame of that name, or a new id after them. */
static int
map_base_frames(struct svg *g, uint32_t **out)
{
	size_t nc = profconv_view_frame_count(g->cur);
	size_t nb = profconv_view_frame_count(g->base), i;
	struct profconv_view_frame f;
	struct pc_keymap names = { 0 };
	uint32_t *map = calloc(nb + 1, sizeof(*map)), v;
	bool added;
	int rc = map == NULL ? profconv__nomem() : 0;

	g->extra = calloc(nb + 1, sizeof(*g->extra));
	if (rc == 0 && g->extra == NULL)
		rc = profconv__nomem();
	for (i = 1; rc == 0 && i <= nc; i++) {
		rc = profconv_view_frame(g->cur, (uint32_t)i, &f);
		if (rc == 0)
			rc = profconv__keymap_intern(&names, f.name,
			    strlen(f.name), (uint32_t)i, &v, &added);
	}
	for (i = 1; rc == 0 && i <= nb; i++) {
		rc = profconv_view_frame(g->base, (uint32_t)i, &f);
		if (rc == 0)
			rc = profconv__keymap_intern(&names, f.name,
			    strlen(f.name), g->names.ncur + g->names.nextra + 1,
			    &map[i], &added);
		if (rc == 0 && added)
			g->extra[g->names.nextra++] = (uint32_t)i;
	}
	g->names.extra = g->extra;
	profconv__keymap_free(&names);
	if (rc < 0) {
		free(map);
		return rc;
	}
	*out = map;
	return 0;
}

/* Base stacks join the current ones, in the frame ids of both views. */
static int
add_base(struct svg *g)
{
	size_t n = profconv_view_stack_count(g->base), i, j, nf = 0, at = 0;
	struct pc_view_stack s;
	uint32_t *map;
	int rc;

	for (i = 0; i < n; i++) {
		if ((rc = profconv__view_stack(g->base, i, &s)) < 0)
			return rc;
		nf += s.nframes;
	}
	if ((rc = map_base_frames(g, &map)) < 0)
		return rc;
	g->base_frames = malloc((nf + 1) * sizeof(*g->base_frames));
	g->base_off = malloc((n + 1) * sizeof(*g->base_off));
	if (g->base_off == NULL || g->base_frames == NULL) {
		free(map);
		return profconv__nomem();
	}
	for (i = 0; i < n; i++) {
		int64_t v;

		profconv__view_stack(g->base, i, &s);
		v = s.values[g->base_type];
		if (v < 0) {
			free(map);
			return negative(g->base, &s, "a base");
		}
		if (v == 0)
			continue;
		for (j = 0; j < s.nframes; j++)
			g->base_frames[at + j] = map[pc_stack_at(s.frames, j)];
		g->base_off[i] = at;
		g->vcur[g->nentries] = 0;
		g->vbase[g->nentries] = v;
		g->place[g->nentries++] = PLACE_BASE | ((uint32_t)i + 1);
		pc_add_sat(&g->base_total, v);
		at += s.nframes;
	}
	free(map);
	return 0;
}

/* --- layout -------------------------------------------------------------- */

/* How wide stack E is: its value, or with a base what diff_width says. */
static int64_t
width_of(const struct svg *g, const struct entry *e)
{
	int64_t d;

	if (g->base == NULL)
		return e->cur;
	switch (g->o->diff_width) {
	case PROFCONV_DIFF_WIDTH_CUR:
		return e->cur;
	case PROFCONV_DIFF_WIDTH_BASE:
		return e->base;
	case PROFCONV_DIFF_WIDTH_DELTA:
		d = profconv__delta(e->base, e->cur);
		return d == INT64_MIN ? INT64_MAX : d < 0 ? -d : d;
	default:
		return e->cur > e->base ? e->cur : e->base;
	}
}

/* Add the sums S of a child (or of a stack) into TO. */
static void
add_sums(struct pc_frame_sums *to, const struct pc_frame_sums *s)
{
	pc_add_sat(&to->base, s->base);
	pc_add_sat(&to->cur, s->cur);
	pc_add_sat(&to->up, s->up);
	pc_add_sat(&to->down, s->down);
}

static int
keep(struct svg *g, const struct open *o, uint32_t depth, int64_t width)
{
	int rc;

	rc = PC_GROW(g->drawn, g->drawn_cap, g->ndrawn, 1);
	if (rc < 0)
		return rc;
	g->drawn[g->ndrawn++] = (struct pc_drawn){ o->frame, depth, o->start,
	    width, 0, o->sums, PC_SAME };
	if (depth > g->maxdepth)
		g->maxdepth = depth;
	return 0;
}

/*
 * Close the open frames deeper than TO: each is as wide as the running
 * total X has grown since it opened, and hands its sums to its parent
 * (ROOT under the first).  One too narrow to draw also hands its whole
 * change to its parent's own, so that colouring by own change
 * (self_diff) loses none of it either.
 */
static int
close_frames(struct svg *g, size_t *depth, size_t to, int64_t x,
    struct open *root)
{
	int rc = 0;

	while (rc == 0 && *depth > to) {
		const struct open *o = &g->path[--*depth];
		struct open *parent = *depth > 0 ? &g->path[*depth - 1] : root;
		int64_t width = x - o->start;

		add_sums(&parent->sums, &o->sums);
		if (width > 0 && (double)width >= g->threshold)
			rc = keep(g, o, (uint32_t)*depth + 1, width);
		else
			pc_add_sat(&parent->sums.self, profconv__delta(
			    o->sums.base, o->sums.cur));
	}
	return rc;
}

/* The values of stack E into the frame O where it ends. */
static void
add_stack(struct open *o, const struct entry *e)
{
	int64_t delta = profconv__delta(e->base, e->cur);

	pc_add_sat(&o->sums.base, e->base);
	pc_add_sat(&o->sums.cur, e->cur);
	pc_add_sat(delta > 0 ? &o->sums.up : &o->sums.down, delta);
	pc_add_sat(&o->sums.self, delta);
}

/* Do stacks E and F begin with the same N frames? */
static bool
same_start(const struct entry *e, const struct entry *f, size_t n, bool rev)
{
	size_t i;

	if (f->n < n)
		return false;
	if (!rev)
		return pc_stack_same(e->frames, f->frames, n);
	for (i = 0; i < n; i++)
		if (frame_at(e, i, rev) != frame_at(f, i, rev))
			return false;
	return true;
}

/*
 * The frame at depth D of stack I, about to open: when it is too narrow
 * to draw, so is everything beneath it, and its stacks, I and those
 * after it that share its first D + 1 frames, are added into PARENT at
 * once, as closing the frames would add them.  Returns the end of those
 * stacks, or I when the frame is to be drawn (the look stops as soon as
 * the stacks seen are wide enough).  Only when the sums fit: this adds
 * them in another order.
 */
static size_t
skip_narrow(struct svg *g, size_t i, size_t d, struct open *parent,
    int64_t *x)
{
	bool rev = g->o->reverse != 0;
	struct pc_frame_sums r = { 0 };
	struct entry le, lf;
	const struct entry *e = &le, *f = &lf;
	int64_t w = 0;
	size_t j;

	entry_load(g, i, &le);
	for (j = i; j < g->nentries; j++) {
		if (j + ENTRIES_AHEAD < g->nentries)
			prefetch_entry(g, j + ENTRIES_AHEAD);
		entry_load(g, j, &lf);
		if (j > i && !same_start(e, f, d + 1, rev))
			break;
		w += width_of(g, f);
		if (w > 0 && (double)w >= g->threshold)
			return i;
	}
	for (j = i; j < g->nentries; j++) {
		int64_t delta;

		entry_load(g, j, &lf);
		if (j > i && !same_start(e, f, d + 1, rev))
			break;
		delta = profconv__delta(f->base, f->cur);
		r.base += f->base;
		r.cur += f->cur;
		*(delta > 0 ? &r.up : &r.down) += delta;
	}
	add_sums(&parent->sums, &r);
	pc_add_sat(&parent->sums.self, profconv__delta(r.base, r.cur));
	*x += w;
	return j;
}

/* flamegraph.pl's flow: walk the sorted stacks, closing the frames the
 * next one does not share and opening the ones it adds.  A stack's
 * values belong to the frame where it ends; a frame's sums grow as its
 * children close.  A frame too narrow to draw is not opened when the
 * sums fit: its stacks go to its parent at once. */
static int
layout(struct svg *g)
{
	bool rev = g->o->reverse != 0, fit = g->fit;
	size_t depth = 0, i, d, next;
	struct open root = { 0 };
	int64_t x = 0;
	int rc = 0;

	for (i = 0; rc == 0 && i < g->nentries; i = next) {
		struct entry le;
		const struct entry *e = &le;

		if (i + ENTRIES_AHEAD < g->nentries)
			prefetch_entry(g, i + ENTRIES_AHEAD);
		entry_load(g, i, &le);
		next = i + 1;
		for (d = 0; d < depth && d < e->n &&
		    g->path[d].frame == frame_at(e, d, rev); d++)
			;
		rc = close_frames(g, &depth, d, x, &root);
		if (rc == 0)
			rc = PC_GROW(g->path, g->path_cap, 0, e->n + 1);
		if (rc < 0)
			break;
		for (; depth < e->n; depth++) {
			if (fit && (next = skip_narrow(g, i, depth, depth > 0 ?
			    &g->path[depth - 1] : &root, &x)) != i)
				break;
			next = i + 1;
			g->path[depth] = (struct open){ frame_at(e, depth, rev),
			    x, { 0 } };
		}
		if (next != i + 1 || depth < e->n)
			continue;	/* skipped */
		add_stack(e->n != 0 ? &g->path[e->n - 1] : &root, e);
		pc_add_sat(&x, width_of(g, e));
	}
	if (rc == 0)
		rc = close_frames(g, &depth, 0, x, &root);
	if (rc == 0 && x > 0)
		rc = keep(g, &root, 0, x);
	return rc;
}

/*
 * The picture's 100%, the sum of the stacks' widths; and G->fit, whether
 * no sum of the layout can saturate: the stacks' values, as magnitudes,
 * add up below INT64_MAX (every width, change and sum is at most that).
 * Sums can then be taken in any order.
 */
static void
sum_widths(struct svg *g)
{
	uint64_t m = 0, v;
	struct entry e;
	size_t i;

	g->total = 0;
	g->fit = true;
	for (i = 0; i < g->nentries; i++) {
		entry_load(g, i, &e);
		pc_add_sat(&g->total, width_of(g, &e));
		v = (e.cur < 0 ? 0 - (uint64_t)e.cur : (uint64_t)e.cur) +
		    (e.base < 0 ? 0 - (uint64_t)e.base : (uint64_t)e.base);
		if (v >= (uint64_t)INT64_MAX || m + v >= (uint64_t)INT64_MAX)
			g->fit = false;
		else
			m += v;
	}
}

static int
by_position(const void *a, const void *b)
{
	const struct pc_drawn *x = a, *y = b;
	int c = PC_CMP(x->start, y->start);

	return c != 0 ? c : PC_CMP(x->depth, y->depth);
}

/* --- options ------------------------------------------------------------- */

/* The word after a value: what the sample type counts. */
static const char *
count_name(struct svg *g)
{
	const struct profconv_profile *prof = profconv_view_profile(g->cur);
	struct profconv_value_type vt;
	size_t n;

	if (g->o->countname != NULL)
		return g->o->countname;
	if (profconv_profile_sample_type(prof, g->type, &vt) < 0)
		return "samples";
	if (strcmp(vt.unit, "count") == 0 || *vt.unit == '\0') {
		n = strlen(vt.type);
		if (n >= 7 && strcmp(vt.type + n - 7, "objects") == 0)
			return "objects";
		return *vt.type != '\0' ? vt.type : "samples";
	}
	if (strcmp(vt.unit, "nanoseconds") == 0)
		return "ns";
	snprintf(g->unit_buf, sizeof(g->unit_buf), "%s", vt.unit);
	return g->unit_buf;
}

/* "0.1" pixels or "2.5%" of the total, as flamegraph.pl takes it. */
static int
parse_minwidth(struct svg *g)
{
	const char *text = g->o->minwidth != NULL ? g->o->minwidth : "0.1";
	size_t n = strlen(text), digits = strspn(text, "0123456789.");
	bool pct = n > 0 && text[n - 1] == '%';
	double v;
	char *end;

	if (n == 0 || digits != n - (pct ? 1 : 0) || digits == 0)
		return profconv__fail(PROFCONV_EINVAL, "invalid minimum width "
		    "'%s': pixels or a percentage expected", text);
	v = strtod(text, &end);
	if (end != text + digits || !isfinite(v))
		return profconv__fail(PROFCONV_EINVAL, "invalid minimum width "
		    "'%s': pixels or a percentage expected", text);
	g->threshold = pct ? (double)g->total * v / 100.0 :
	    v / g->per_value;
	return 0;
}

static int
check_options(struct svg *g)
{
	const struct profconv_svg_options *o = g->o;

	g->width = o->width != 0 ? o->width : 1200;
	g->fheight = o->frame_height != 0 ? o->frame_height : 16;
	if (g->width < 2 * XPAD + 10 || g->width > 1000000)
		return profconv__fail(PROFCONV_EINVAL, "invalid width %u: "
		    "%d to 1000000 pixels", g->width, 2 * XPAD + 10);
	if (g->fheight < 2 || g->fheight > 1000)
		return profconv__fail(PROFCONV_EINVAL, "invalid frame height "
		    "%u: 2 to 1000 pixels", g->fheight);
	if ((unsigned)o->diff_width > PROFCONV_DIFF_WIDTH_DELTA)
		return profconv__fail(PROFCONV_EINVAL, "invalid differential "
		    "width %d", (int)o->diff_width);
	if (!(o->min_delta >= 0 && o->min_delta <= 100))
		return profconv__fail(PROFCONV_EINVAL, "invalid noise floor "
		    "%g: 0 to 100 (percent of the base's total) expected",
		    o->min_delta);
	g->palette = profconv__palette(o->colors != NULL ? o->colors : "hot");
	if (g->palette == NULL)
		return profconv__fail(PROFCONV_EINVAL, "unknown palette '%s' "
		    "(%s)", o->colors, profconv__palette_names());
	return profconv__svg_style(o, g->palette, &g->style);
}

static int
choose_types(struct svg *g)
{
	struct profconv_value_type vt;
	int rc;

	rc = profconv_view_sample_index(g->cur, g->o->sample_type, &g->type);
	if (rc < 0 || g->base == NULL)
		return rc;
	rc = profconv_profile_sample_type(profconv_view_profile(g->cur),
	    g->type, &vt);
	if (rc == 0)
		rc = profconv_view_sample_index(g->base, vt.type,
		    &g->base_type);
	return rc;
}

/* --- the whole picture --------------------------------------------------- */

static int
draw(struct svg *g)
{
	struct profconv_value_type vt;
	int rc;

	rc = check_options(g);
	if (rc == 0)
		rc = choose_types(g);
	if (rc == 0)
		rc = add_current(g);
	if (rc == 0 && g->base != NULL)
		rc = add_base(g);
	if (rc < 0)
		return rc;
	/* --total: widths and shares out of more than this profile holds. */
	if ((rc = rank_frames(g)) < 0)
		return rc;
	if ((rc = sort_entries(g)) < 0)
		return rc;
	if (g->base != NULL)
		merge_entries(g);
	sum_widths(g);
	if (g->o->total != 0 && g->o->total < g->total)
		return profconv__fail(PROFCONV_EINVAL, "invalid total %" PRId64
		    ": less than the profile's %" PRId64, g->o->total, g->total);
	if (g->o->total != 0)
		g->total = g->o->total;
	g->per_value = g->total > 0 ?
	    (double)(g->width - 2 * XPAD) / (double)g->total : 0;
	if (g->total > 0 && (rc = parse_minwidth(g)) < 0)
		return rc;
	if ((rc = layout(g)) < 0)
		return rc;
	if (g->ndrawn > 1)
		qsort(g->drawn, g->ndrawn, sizeof(*g->drawn), by_position);
	/* Changes are measured as pprof's -diff_base measures them, and as
	 * the call graph and the listing do: against the base profile's
	 * total before focus, ignore and the other filters. */
	if (g->base != NULL)
		profconv__delta_scale(&g->scale, profconv__delta_total(
		    profconv_view_profile(g->base), g->base_type),
		    profconv__delta_total(profconv_view_profile(g->cur),
		    g->type), g->o->min_delta);
	else
		profconv__delta_scale(&g->scale, g->base_total, g->cur_total,
		    g->o->min_delta);
	if (g->base != NULL) {
		g->maxdelta = profconv__svg_classify(g->drawn, g->ndrawn,
		    &g->scale, g->o);
		g->style.pad_legend = g->style.font_size * 2;
	}
	g->height = profconv__svg_height(&g->style, g->o, g->maxdepth,
	    g->fheight);
	g->countname = count_name(g);
	if (profconv_profile_sample_type(profconv_view_profile(g->cur),
	    g->type, &vt) < 0)
		vt.type = vt.unit = "";
	return profconv__svg_emit(g->fp, &(struct pc_svg_picture){
	    .cur = g->cur, .names = &g->names, .opts = g->o,
	    .style = &g->style, .palette = g->palette,
	    .drawn = g->drawn, .ndrawn = g->ndrawn, .total = g->total,
	    .maxdelta = g->maxdelta, .diff = g->base != NULL,
	    .scale = &g->scale,
	    .per_value = g->per_value, .width = g->width,
	    .height = g->height, .fheight = g->fheight,
	    .countname = g->countname, .type = vt.type, .unit = vt.unit,
	    .cur_total = g->cur_total, .base_total = g->base_total });
}

int
profconv_svg_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_svg_options *opts)
{
	struct profconv_svg_options o;
	struct svg g;
	int rc;

	if (cur == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no view or no file");
	if ((rc = profconv__options_take(&o, opts, &profconv__options_svg)) < 0)
		return rc;
	memset(&g, 0, sizeof(g));
	g.cur = cur;
	g.base = base;
	g.names.cur = cur;
	g.names.base = base;
	g.names.ncur = (uint32_t)profconv_view_frame_count(cur);
	g.fp = fp;
	g.o = &o;
	errno = 0;	/* what a failed write leaves is the reason */
	rc = draw(&g);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	free(g.place);
	free(g.vcur);
	free(g.vbase);
	free(g.base_off);
	free(g.base_frames);
	free(g.extra);
	free(g.rank);
	free(g.path);
	free(g.drawn);
	return rc;
}
