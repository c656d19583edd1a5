/* SPDX-License-Identifier: MIT */
/*
 * report_data_change.c - the Explore tab's call tree of a change (report
 * --base), pruned while it is built (report_data_stream.c has the walk
 * and why it gives the whole tree's answer).
 *
 * The whole tree of a change is the base's stacks added, then the
 * profile's, each in columns of its own.  Both views sort their stacks
 * by text, so one walk takes the two in turn, the next stack the one
 * whose text comes first, and walks the union of their paths as one
 * view's, in the page's frames (the same text is the same frame in
 * both).  Its nodes are numbered in the whole tree's order still: the
 * base's in the order the base's stacks reach them, then the others in
 * the order they are made.
 */

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "model/model.h"
#include "view/view.h"
#include "report/report_tree.h"
#include "report/report_stream.h"

/*
 * One of a change's two views, its stacks read in turn: frame F of the
 * view is frame GID[F] of the walk (the page's frame + 1), each of its
 * types K goes to column COLS[K] (none when SIZE_MAX).  S: stack I, its
 * frames the walk's, in BUF[AT] (the view has no stack I: I == N); the
 * other buffer holds the stack before it, which the walk may still
 * compare with.
 */
struct side {
	const struct profconv_view *v;
	uint32_t *gid;
	const size_t *cols;
	size_t ncols;
	bool base;
	size_t i, n;
	struct pc_view_stack s;
	uint32_t *buf[2];
	size_t cap[2], at;
};

/* X's stack X->i into X->s, in the buffer the stack before it is not
 * in. */
static int
side_load(struct side *x)
{
	struct pc_view_stack s;
	size_t j, at = x->at ^ 1;
	int rc;

	if (x->i >= x->n)
		return 0;
	if ((rc = profconv__view_stack(x->v, x->i, &s)) < 0)
		return rc;
	if (PC_GROW(x->buf[at], x->cap[at], 0, s.nframes + 1) < 0)
		return PROFCONV_ENOMEM;
	for (j = 0; j < s.nframes; j++)
		x->buf[at][j] = x->gid[pc_stack_at(s.frames, j)];
	x->at = at;
	x->s.frames = pc_stack_make(x->buf[at], true, 0, s.nframes);
	x->s.nframes = s.nframes;
	x->s.values = s.values;
	return 0;
}

/* The side whose stack comes next in the order of their texts, the
 * base's first of two alike. */
static struct side *
next_side(const struct walk *w, struct side *sd)
{
	size_t l;

	if (sd[1].i >= sd[1].n)
		return &sd[0];
	if (sd[0].i >= sd[0].n)
		return &sd[1];
	l = profconv__stream_shared(&sd[0].s, &sd[1].s);
	if (l == sd[0].s.nframes && l == sd[1].s.nframes)
		return &sd[0];
	return profconv__stream_in_order(w, &sd[0].s, &sd[1].s, l) ?
	    &sd[0] : &sd[1];
}

/* A stack of the base goes through the first L nodes of the path: those
 * no stack of the base went through yet are marked, from the root down
 * (the nodes a base's stack reached form a tree). */
static void
mark_path(struct walk *w, size_t l)
{
	size_t d = l;

	while (d > 0 && !w->path[d].base)
		d--;
	for (d++; d <= l; d++) {
		w->path[d].base = true;
		w->path[d].mark = w->marks++;
	}
}

/*
 * The stacks of both sides (SD[0] the base's), in the order of their
 * texts, as one view's: every node finished.  Frames of the two that
 * are one of the page's are one, so a path in both is one node, whose
 * columns take each side's values.
 */
static int
walk_change(struct walk *w, struct side *sd)
{
	struct pc_view_stack prev = { { NULL, NULL }, 0, NULL }, s;
	size_t k, l;
	bool prev_base = false, first = true;
	int64_t *to;
	int rc = 0;

	while (rc == 0 && (sd[0].i < sd[0].n || sd[1].i < sd[1].n)) {
		struct side *x = next_side(w, sd);

		s = x->s;
		for (k = 0; k < x->ncols; k++)
			if (x->cols[k] != SIZE_MAX && s.values[k] < 0)
				w->stop = true;
		l = first ? 0 : profconv__stream_shared(&prev, &s);
		/* Stacks alike come once from each side, the base's first. */
		if (!first && !(l == s.nframes && l == prev.nframes &&
		    prev_base && !x->base) &&
		    !profconv__stream_in_order(w, &prev, &s, l))
			w->stop = true;
		if (w->stop)
			break;
		while (rc == 0 && w->depth > l)
			rc = profconv__stream_leave(w);
		w->in_base = x->base;
		if (x->base)
			mark_path(w, l);
		for (; rc == 0 && l < s.nframes; l++)
			rc = profconv__stream_enter(w,
			    pc_stack_at(s.frames, l));
		if (rc < 0)
			break;
		to = w->path[w->depth].v;
		for (k = 0; k < x->ncols; k++) {
			size_t c = x->cols[k];

			if (c == SIZE_MAX)
				continue;
			to[c] += s.values[k];
			to[w->nt + c] += s.values[k];
		}
		/* The side reads its next stack into its other buffer. */
		prev = s;
		prev_base = x->base;
		first = false;
		x->i++;
		rc = side_load(x);
	}
	while (rc == 0 && !w->stop && w->depth > 0)
		rc = profconv__stream_leave(w);
	if (rc == 0 && !w->stop && w->pcap > 1)
		rc = profconv__stream_finish_waiting(w, 1);
	return rc;
}

/*
 * The walk's frames: each frame of both views is the page's frame G
 * makes of it, + 1, and its text is the view's.  *OK false when the
 * walk cannot give the whole tree's answer: a text holds ';', two
 * frames of one view are one of the page's, or one of the page's has
 * two texts.
 */
static int
change_frames(struct walk *w, struct gframes *g, struct side *sd, bool *ok)
{
	uint8_t *seen = NULL;
	size_t cap = 0, tcap = 0, s, f, nf;
	uint32_t gid;
	int rc = 0;

	*ok = true;
	for (s = 0; s < 2 && rc == 0 && *ok; s++) {
		nf = profconv_view_frame_count(sd[s].v);
		if ((sd[s].gid = calloc(nf + 1, sizeof(*sd[s].gid))) == NULL) {
			rc = profconv__nomem();
			break;
		}
		for (f = 1; f <= nf && rc == 0 && *ok; f++) {
			const char *t = profconv__view_frame_text(sd[s].v,
			    (uint32_t)f);

			if (strchr(t, ';') != NULL ||
			    (rc = profconv__report_gframe(g, sd[s].v,
			    (uint32_t)f, &gid)) < 0)
				*ok = rc < 0;
			else if (PC_GROW_ZEROED(seen, cap, g->n + 1) < 0 ||
			    PC_GROW_ZEROED(w->text, tcap, g->n + 2) < 0)
				rc = PROFCONV_ENOMEM;
			else if (seen[gid] == s + 1 || (w->text[gid + 1] !=
			    NULL && strcmp(w->text[gid + 1], t) != 0))
				*ok = false;
			else {
				seen[gid] = (uint8_t)(s + 1);
				w->text[gid + 1] = t;
				sd[s].gid[f] = gid + 1;
			}
		}
	}
	free(seen);
	if (rc < 0 || !*ok)
		return rc;
	/* The page's frame of each of the walk's. */
	if ((w->gid_of = calloc(g->n + 1, sizeof(*w->gid_of))) == NULL)
		return profconv__nomem();
	for (f = 1; f <= g->n; f++)
		w->gid_of[f] = (uint32_t)f - 1;
	w->text[0] = "";
	return 0;
}

int
profconv__report_tree_stream_change(const struct profconv_view *bv,
    const size_t *bcols, const struct profconv_view *v, size_t nt,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, struct tree *t, struct out_lean *o)
{
	struct side sd[2] = {
		{ bv, NULL, bcols, profconv_profile_sample_type_count(
		    profconv_view_profile(bv)), true, 0,
		    profconv_view_stack_count(bv), { { NULL, NULL }, 0, NULL },
		    { NULL, NULL }, { 0, 0 }, 0 },
		{ v, NULL, NULL, nt, false, 0, profconv_view_stack_count(v),
		    { { NULL, NULL }, 0, NULL }, { NULL, NULL }, { 0, 0 }, 0 }
	};
	size_t *ccols = NULL, k, s;
	struct walk w;
	bool ok = false;
	int rc;

	memset(&w, 0, sizeof(w));
	w.view = v;
	w.change = true;
	w.total = total;
	w.nt = 2 * nt;
	if (budget == 0 || budget >= SIZE_MAX / 2)
		return 1;
	for (k = 0; k < w.nt; k++)
		if (total[k] < 0 || total[k] == INT64_MAX)
			return 1;
	/* The profile's types K in columns NT + K. */
	if ((ccols = malloc((nt + 1) * sizeof(*ccols))) == NULL)
		return profconv__nomem();
	for (k = 0; k < nt; k++)
		ccols[k] = nt + k;
	sd[1].cols = ccols;
	rc = change_frames(&w, g, sd, &ok);
	if (rc == 0 && ok)
		rc = profconv__stream_rank(&w, g->n);
	for (s = 0; rc == 0 && ok && s < 2; s++)
		rc = side_load(&sd[s]);
	if (rc == 0 && ok)
		rc = profconv__stream_start(&w, budget, 0, 0);
	if (rc == 0 && ok)
		rc = walk_change(&w, sd);
	if (rc == 0 && ok && !w.stop)
		rc = profconv__stream_keep(&w, fraction, budget, t, o);
	profconv__stream_free(&w);
	free(w.text);
	for (s = 0; s < 2; s++) {
		free(sd[s].gid);
		free(sd[s].buf[0]);
		free(sd[s].buf[1]);
	}
	free(ccols);
	return rc < 0 ? rc : !ok || w.stop ? 1 : 0;
}
