/* SPDX-License-Identifier: MIT */
/*
 * report_data_stream.c - the Explore tab's call tree of one profile,
 * pruned while it is built: only the nodes the page can show are held.
 *
 * report_data_json.c builds the whole tree of a view's stacks (one node
 * per path, in the order the stacks first meet them), then keeps the
 * BUDGET heaviest and writes them.  On a profile of millions of stacks
 * that tree has tens of millions of nodes, most of them never shown.
 * This file makes the same nodes in the same order, walking the view's
 * stacks as a depth-first walk of the tree: the view sorts its stacks by
 * their folded text, so the stacks through a node come together, and a
 * node's values are complete once the walk has left it.  Each finished
 * node is offered to a heap of the BUDGET + 1 heaviest; what is kept,
 * what is dropped and the dropped values below each kept node follow
 * from those and from the sums, exactly as the whole tree gives them.
 *
 * One exception to "together": a stack that ends at a node sorts before
 * the node's callees only by its text, so a sibling whose text starts
 * with the node's and a byte below ';' ("f a.c:12" and "f a.c:123") may
 * come between; such a node, left without callees, waits beside its
 * parent until a sibling shows that it cannot come back.
 *
 * The walk gives the whole tree's answer only under conditions it
 * checks: every value is at least 0 and every total below INT64_MAX (so
 * no sum saturates and sums can be taken in any order), no frame's text
 * holds ';' (so a stack's text is its frames), each frame is one of the
 * page's (function, file, line) frames, and the stacks come in the order
 * of their texts.  Otherwise (and for a budget of 0) it says so, and the
 * caller builds the whole tree as before.
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

/* A node met by the walk: on the path, waiting, or in the heap. */
struct snode {
	uint32_t id;		/* the whole tree's node number */
	uint32_t parent;	/* its parent's */
	uint32_t gid;		/* the page's frame */
	uint32_t vf;		/* the view's frame (0: the root) */
	bool kids;		/* has had a callee */
	double share;		/* set when finished */
	int64_t *v;		/* self[nt], then cum[nt] */
};

struct walk {
	const struct profconv_view *view;
	const int64_t *total;
	size_t nt;
	uint32_t *gid_of;	/* view frame -> page frame */
	/* View frame -> its text's place in byte order, and (bit 31)
	 * whether that text begins another frame's: two frames' order by
	 * text is their places' unless one has the bit. */
	uint32_t *rank;
	uint32_t count;		/* nodes made, the root too */
	/* The path: node d at depth d (the root at 0). */
	struct snode *path;
	size_t depth, pcap;
	/* Per depth, the nodes that wait (a stack of prefixes). */
	struct snode **wait;
	size_t *nwait, *wcap;
	/* The heap of the BUDGET + 1 heaviest finished nodes (least
	 * share on top), and their values. */
	struct snode *heap;
	size_t nheap, hcap;
	/* Once the heap is full, per sample type: the largest cum
	 * magnitude whose share is at most the heap's least, so that a
	 * node too light for it is told without a division. */
	uint64_t *limit;
	/* Free value blocks, for nodes that leave the path. */
	int64_t **spare;
	size_t nspare, scap;
	bool stop;		/* not the whole tree's answer: give up */
};

static int64_t *
block(struct walk *w)
{
	int64_t *b;

	if (w->nspare > 0)
		b = w->spare[--w->nspare];
	else if ((b = malloc(2 * w->nt * sizeof(*b) + 1)) == NULL)
		return NULL;
	memset(b, 0, 2 * w->nt * sizeof(*b));
	return b;
}

static int
give_back(struct walk *w, int64_t *b)
{
	if (PC_GROW(w->spare, w->scap, w->nspare, 1) < 0) {
		free(b);
		return PROFCONV_ENOMEM;
	}
	w->spare[w->nspare++] = b;
	return 0;
}

/* Node N's largest share of a total over the sample types (as
 * report_data_json.c's share()). */
static double
share_of(const struct walk *w, const int64_t *cum)
{
	double s = 0, v;
	size_t k;

	for (k = 0; k < w->nt; k++) {
		if (w->total[k] == 0)
			continue;
		v = (double)profconv__report_mag(cum[k]) /
		    (double)profconv__report_mag(w->total[k]);
		if (v > s)
			s = v;
	}
	return s;
}

/* The largest C in [0, |TOTAL|] whose share of TOTAL (share_of()'s
 * division, which never falls as C grows) is at most S. */
static uint64_t
share_limit(double s, int64_t total)
{
	uint64_t all = profconv__report_mag(total), lo, hi, mid, slack;
	double t = (double)all, guess = s * t;

	if ((double)all / t <= s)
		return all;
	/* Near S * |TOTAL|, then halving: (double)LO / t <= S and
	 * (double)HI / t > S throughout. */
	slack = (all >> 40) + 4;
	mid = guess <= 0 ? 0 : guess >= t ? all : (uint64_t)guess;
	lo = mid > slack ? mid - slack : 0;
	hi = all - mid > slack ? mid + slack : all;
	if (!((double)lo / t <= s))
		lo = 0;
	if (!((double)hi / t > s))
		hi = all;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if ((double)mid / t <= s)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The heap is full and its least node may have changed: the limits. */
static void
set_limits(struct walk *w)
{
	size_t k;

	for (k = 0; k < w->nt; k++)
		if (w->total[k] != 0)
			w->limit[k] = share_limit(w->heap[0].share, w->total[k]);
}

/* Is the share of CUM above the heap's least (the heap full)? */
static bool
over_limit(const struct walk *w, const int64_t *cum)
{
	size_t k;

	for (k = 0; k < w->nt; k++)
		if (w->total[k] != 0 &&
		    profconv__report_mag(cum[k]) > w->limit[k])
			return true;
	return false;
}

static void
sift_down(struct snode *h, size_t n, size_t i)
{
	struct snode t;
	size_t c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && h[c + 1].share < h[c].share)
			c++;
		if (!(h[c].share < h[i].share))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void
sift_up(struct snode *h, size_t i)
{
	struct snode t;

	while (i > 0 && h[i].share < h[(i - 1) / 2].share) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* Node N is finished: its values into its parent's cum (P), N into the
 * heap when among the heaviest (else its values are given back). */
static int
finish(struct walk *w, struct snode *n, int64_t *p)
{
	int64_t *old;
	size_t k;

	for (k = 0; k < w->nt; k++)
		p[w->nt + k] += n->v[w->nt + k];	/* no sum reaches INT64_MAX */
	if (w->nheap == w->hcap && !over_limit(w, n->v + w->nt))
		return give_back(w, n->v);	/* as light as the least */
	n->share = share_of(w, n->v + w->nt);
	if (w->nheap < w->hcap) {
		w->heap[w->nheap] = *n;
		sift_up(w->heap, w->nheap++);
		if (w->nheap == w->hcap)
			set_limits(w);
		return 0;
	}
	if (!(n->share > w->heap[0].share))
		return give_back(w, n->v);
	old = w->heap[0].v;
	w->heap[0] = *n;
	sift_down(w->heap, w->nheap, 0);
	set_limits(w);
	return give_back(w, old);
}

/* Finish the nodes waiting at depth D (their parent, at D - 1, is being
 * left). */
static int
finish_waiting(struct walk *w, size_t d)
{
	int rc = 0;

	while (w->nwait[d] > 0 && rc == 0) {
		struct snode n = w->wait[d][--w->nwait[d]];

		rc = finish(w, &n, w->path[d - 1].v);
	}
	return rc;
}

/* Leave the node at the path's end: finished, or, without callees, to
 * wait beside its parent's other callees. */
static int
leave(struct walk *w)
{
	size_t d = w->depth;
	struct snode *n = &w->path[d];
	int rc;

	if (d + 1 < w->pcap && (rc = finish_waiting(w, d + 1)) < 0)
		return rc;
	w->depth--;
	if (n->kids)
		return finish(w, n, w->path[d - 1].v);
	if (PC_GROW(w->wait[d], w->wcap[d], w->nwait[d], 1) < 0)
		return PROFCONV_ENOMEM;
	w->wait[d][w->nwait[d]++] = *n;
	return 0;
}

/* Is A (ALEN bytes) a prefix of B, or B itself? */
static bool
prefix_of(const char *a, size_t alen, const char *b)
{
	return strncmp(a, b, alen) == 0;
}

/* Room for depth D on the path and in the waiting lists, the new lists
 * empty.  The four arrays grow alike from one capacity. */
static int
room(struct walk *w, size_t d)
{
	size_t cap[4] = { w->pcap, w->pcap, w->pcap, w->pcap };
	int rc = PC_GROW_ZEROED(w->path, cap[0], d + 1);

	if (rc == 0)
		rc = PC_GROW_ZEROED(w->wait, cap[1], d + 1);
	if (rc == 0)
		rc = PC_GROW_ZEROED(w->nwait, cap[2], d + 1);
	if (rc == 0)
		rc = PC_GROW_ZEROED(w->wcap, cap[3], d + 1);
	if (rc == 0)
		w->pcap = cap[0];
	return rc;
}

/* Enter view frame VF below the path's end: a waiting node when it is
 * one (the walk comes back to it), else a new one. */
static int
enter(struct walk *w, uint32_t vf)
{
	size_t d = w->depth + 1;
	const char *t = NULL, *wt;
	struct snode n;
	int rc;

	if (d + 1 >= w->pcap && (rc = room(w, d + 1)) < 0)
		return rc;
	/* The waiting nodes whose text is no prefix of T's: no stack
	 * after this one goes through them. */
	while (w->nwait[d] > 0) {
		n = w->wait[d][w->nwait[d] - 1];
		if (t == NULL)
			t = profconv__view_frame_text(w->view, vf);
		wt = profconv__view_frame_text(w->view, n.vf);
		if (prefix_of(wt, strlen(wt), t))
			break;
		w->nwait[d]--;
		if ((rc = finish(w, &n, w->path[d - 1].v)) < 0)
			return rc;
	}
	if (w->nwait[d] > 0 && w->wait[d][w->nwait[d] - 1].vf == vf) {
		n = w->wait[d][--w->nwait[d]];
	} else {
		if (w->count == UINT32_MAX - 1)
			return profconv__fail(PROFCONV_ENOMEM,
			    "call tree too large");
		n = (struct snode){ w->count++, w->path[d - 1].id,
		    w->gid_of[vf], vf, false, 0, block(w) };
		if (n.v == NULL)
			return profconv__nomem();
	}
	w->path[d - 1].kids = true;
	w->path[d] = n;
	w->depth = d;
	return 0;
}

#define RANK_PREFIX ((uint32_t)1 << 31)

static int
by_text(const void *a, const void *b, void *arg)
{
	const struct profconv_view *v = arg;

	return strcmp(profconv__view_frame_text(v, *(const uint32_t *)a),
	    profconv__view_frame_text(v, *(const uint32_t *)b));
}

/* W's ranks: the view's frames sorted by text; a text that begins the
 * next one in that order is one that begins another (any text it
 * begins sorts between them). */
static int
rank_frames(struct walk *w)
{
	const struct profconv_view *v = w->view;
	size_t i, nf = profconv_view_frame_count(v);
	uint32_t *ids = malloc((nf + 1) * sizeof(*ids));

	w->rank = calloc(nf + 1, sizeof(*w->rank));
	if (ids == NULL || w->rank == NULL || nf >= RANK_PREFIX) {
		free(ids);
		return profconv__nomem();
	}
	for (i = 0; i < nf; i++)
		ids[i] = (uint32_t)i + 1;
	qsort_r(ids, nf, sizeof(*ids), by_text, (void *)v);
	for (i = 0; i < nf; i++) {
		const char *t = profconv__view_frame_text(v, ids[i]);

		w->rank[ids[i]] = (uint32_t)i;
		if (i + 1 < nf && strncmp(t, profconv__view_frame_text(v,
		    ids[i + 1]), strlen(t)) == 0)
			w->rank[ids[i]] |= RANK_PREFIX;
	}
	free(ids);
	return 0;
}

/* Do stacks A and then B come in the order of their texts, B not A? */
static bool
in_order(const struct walk *w, const struct profconv_view_stack *a,
    const struct profconv_view_stack *b, size_t l)
{
	const struct profconv_view *v = w->view;
	const char *x, *y;
	size_t nx, ny, i;
	uint32_t rx, ry;

	if (l == b->nframes)
		return false;	/* B is A, or A's prefix */
	if (l == a->nframes)
		return true;	/* A is B's prefix */
	/* Frames a byte of whose texts differs: the texts' order. */
	rx = w->rank[a->frames[l]];
	ry = w->rank[b->frames[l]];
	if (!((rx | ry) & RANK_PREFIX))
		return rx < ry;
	x = profconv__view_frame_text(v, a->frames[l]);
	y = profconv__view_frame_text(v, b->frames[l]);
	nx = strlen(x);
	ny = strlen(y);
	for (i = 0; i < nx && i < ny; i++)
		if (x[i] != y[i])
			return (unsigned char)x[i] < (unsigned char)y[i];
	/* One frame's text is the other's prefix: the byte after it in
	 * its stack's text is ';' or the end. */
	if (nx < ny)
		return l + 1 == a->nframes || ';' < (unsigned char)y[nx];
	return l + 1 < b->nframes && (unsigned char)x[ny] < ';';
}

/* Walk V's stacks: every node finished, the root's cum the sums. */
static int
walk_stacks(struct walk *w)
{
	const struct profconv_view *v = w->view;
	size_t i, k, l, n = profconv_view_stack_count(v);
	struct profconv_view_stack prev = { NULL, 0, NULL }, s;
	int64_t *to;
	int rc;

	for (i = 0; i < n; i++) {
		if ((rc = profconv_view_stack(v, i, &s)) < 0)
			return rc;
		for (k = 0; k < w->nt; k++)
			if (s.values[k] < 0) {
				w->stop = true;
				return 0;
			}
		for (l = 0; l < prev.nframes && l < s.nframes &&
		    prev.frames[l] == s.frames[l]; l++)
			;
		if (i > 0 && !in_order(w, &prev, &s, l)) {
			w->stop = true;
			return 0;
		}
		while (w->depth > l)
			if ((rc = leave(w)) < 0)
				return rc;
		for (; l < s.nframes; l++)
			if ((rc = enter(w, s.frames[l])) < 0)
				return rc;
		to = w->path[w->depth].v;
		for (k = 0; k < w->nt; k++) {
			to[k] += s.values[k];
			to[w->nt + k] += s.values[k];
		}
		prev = s;
	}
	while (w->depth > 0)
		if ((rc = leave(w)) < 0)
			return rc;
	return w->pcap > 1 ? finish_waiting(w, 1) : 0;
}

/* The page's frame of each of V's frames; *ONE_EACH false when two of
 * V's frames are one of the page's. */
static int
page_frames(struct walk *w, struct gframes *g, bool *one_each)
{
	size_t f, nf = profconv_view_frame_count(w->view);
	int rc;

	*one_each = true;
	if ((w->gid_of = calloc(nf + 1, sizeof(*w->gid_of))) == NULL)
		return profconv__nomem();
	for (f = 1; f <= nf; f++) {
		const char *t = profconv__view_frame_text(w->view, (uint32_t)f);

		if (strchr(t, ';') != NULL) {
			*one_each = false;
			return 0;
		}
		if ((rc = profconv__report_gframe(g, w->view, (uint32_t)f,
		    &w->gid_of[f])) < 0)
			return rc;
		if (g->n != f) {	/* not new */
			*one_each = false;
			return 0;
		}
	}
	return 0;
}

static int
by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct snode *)a)->id;
	uint32_t y = ((const struct snode *)b)->id;

	return PC_CMP(x, y);
}

static int
id_key(const void *key, const void *elem)
{
	uint32_t x = *(const uint32_t *)key;
	uint32_t y = ((const struct snode *)elem)->id;

	return PC_CMP(x, y);
}

/*
 * The kept nodes out of the heap: those above the cut (all when it is
 * negative) whose parent is kept, in the whole tree's order, as tree T
 * (the root first, parents as kept indexes) and O (kept all, the
 * dropped nodes and values), with each kept node's dropped values below
 * it in *PRUNED.
 */
static int
keep(struct walk *w, double fraction, size_t budget, struct tree *t,
    struct out_lean *o)
{
	struct snode *h = w->heap, *p = NULL;
	const int64_t *root = w->path[0].v;
	size_t i, k, m = 0, nt = w->nt;
	uint32_t *pos = NULL;
	double cut = -1, f;
	uint32_t node;
	int rc;

	if (w->count - 1 > budget)
		cut = h[0].share;	/* the BUDGET + 1'th heaviest */
	f = cut > fraction ? cut : fraction;
	o->fraction = f;
	for (i = 0, rc = 0; i < w->nheap; i++)
		if (f < 0 || h[i].share > f)
			h[m++] = h[i];
		else if (rc == 0)
			rc = give_back(w, h[i].v);
		else
			free(h[i].v);
	w->nheap = m;
	if (rc < 0)
		return rc;
	qsort(h, m, sizeof(*h), by_id);
	if ((pos = malloc((m + 1) * sizeof(*pos))) == NULL)
		return profconv__nomem();
	t->nt = nt;
	if ((rc = profconv__report_node_add(t, 0, 0, &node)) < 0)
		goto out;
	memcpy(t->self, root, nt * sizeof(*root));
	for (i = 0; i < m; i++) {
		uint32_t up = 0;

		pos[i] = 0;
		if (h[i].parent != 0) {
			p = bsearch(&h[i].parent, h, m, sizeof(*h), id_key);
			if (p == NULL || pos[p - h] == 0)
				continue;	/* its parent is not kept */
			up = pos[p - h];
		}
		if ((rc = profconv__report_node_add(t, up, h[i].gid,
		    &node)) < 0)
			goto out;
		pos[i] = node;
		memcpy(&t->self[node * nt], h[i].v, nt * sizeof(int64_t));
	}
	/* Dropped below each kept node: its cum less its self and its kept
	 * callees' cums (exact: no sum saturates). */
	o->pruned = calloc(t->n * nt + 1, sizeof(*o->pruned));
	o->dropped_sum = calloc(nt + 1, sizeof(*o->dropped_sum));
	if (o->pruned == NULL || o->dropped_sum == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	for (k = 0; k < nt; k++) {
		o->pruned[k] = root[nt + k] - root[k];
		o->dropped_sum[k] = root[nt + k];
	}
	for (i = 0; i < m; i++) {
		if (pos[i] == 0)
			continue;
		for (k = 0; k < nt; k++) {
			o->pruned[pos[i] * nt + k] += h[i].v[nt + k] - h[i].v[k];
			o->pruned[t->parent[pos[i]] * nt + k] -= h[i].v[nt + k];
		}
	}
	for (i = 0; i < t->n; i++)
		for (k = 0; k < nt; k++)
			o->dropped_sum[k] -= t->self[i * nt + k];
	o->dropped = w->count - t->n;
out:
	free(pos);
	return rc;
}

static void
walk_free(struct walk *w)
{
	size_t i, j;

	for (i = 0; i < w->pcap; i++) {
		if (i <= w->depth && w->path != NULL)
			free(w->path[i].v);
		for (j = 0; w->wait != NULL && j < w->nwait[i]; j++)
			free(w->wait[i][j].v);
		if (w->wait != NULL)
			free(w->wait[i]);
	}
	free(w->path);
	free(w->wait);
	free(w->nwait);
	free(w->wcap);
	for (i = 0; i < w->nheap; i++)
		free(w->heap[i].v);
	free(w->heap);
	free(w->limit);
	for (i = 0; i < w->nspare; i++)
		free(w->spare[i]);
	free(w->spare);
	free(w->gid_of);
	free(w->rank);
}

int
profconv__report_tree_stream(const struct profconv_view *v,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, struct tree *t, struct out_lean *o)
{
	struct walk w;
	bool one_each;
	size_t k;
	int rc;

	memset(&w, 0, sizeof(w));
	w.view = v;
	w.total = total;
	w.nt = profconv_profile_sample_type_count(profconv_view_profile(v));
	if (budget == 0 || budget >= SIZE_MAX / 2)
		return 1;
	for (k = 0; k < w.nt; k++)
		if (total[k] < 0 || total[k] == INT64_MAX)
			return 1;
	if ((rc = page_frames(&w, g, &one_each)) < 0 || !one_each ||
	    (rc = rank_frames(&w)) < 0) {
		walk_free(&w);
		return rc < 0 ? rc : 1;
	}
	w.hcap = budget + 1;
	if ((w.heap = calloc(w.hcap, sizeof(*w.heap))) == NULL ||
	    (w.limit = calloc(w.nt + 1, sizeof(*w.limit))) == NULL ||
	    (rc = room(&w, 1)) < 0) {
		walk_free(&w);
		return rc < 0 ? rc : profconv__nomem();
	}
	w.path[0] = (struct snode){ 0, 0, 0, 0, false, 0, block(&w) };
	w.count = 1;
	if (w.path[0].v == NULL) {
		walk_free(&w);
		return profconv__nomem();
	}
	rc = walk_stacks(&w);
	if (rc == 0 && !w.stop)
		rc = keep(&w, fraction, budget, t, o);
	walk_free(&w);
	return rc < 0 ? rc : w.stop ? 1 : 0;
}
