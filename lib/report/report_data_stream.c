/* SPDX-License-Identifier: MIT */
/*
 * report_data_stream.c - the Explore tab's call tree of one profile, or
 * of a change, pruned while it is built: only the nodes the page can
 * show are held.
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
 *
 * A change's tree (report --base) is walked by report_data_change.c,
 * with this file's walk (report_stream.h).
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

/* The text of frame VF of the walk (its view's, or a change's page's). */
static const char *
text_of(const struct walk *w, uint32_t vf)
{
	return w->text != NULL ? w->text[vf] :
	    profconv__view_frame_text(w->view, vf);
}

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

/* Finished node N into the heap when among the heaviest (else its
 * values are given back). */
static int
offer(struct walk *w, struct snode *n)
{
	int64_t *old;

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

/* Node N is finished: its values into its parent's cum (P), N offered
 * to the heap.  A borrowed node's values are the part's only: kept for
 * the merge, which finishes it. */
static int
finish(struct walk *w, struct snode *n, int64_t *p)
{
	size_t k;

	if (n->id <= w->borrowed) {
		w->stored[n->id] = n->v;
		return 0;
	}
	for (k = 0; k < w->nt; k++)
		p[w->nt + k] += n->v[w->nt + k];	/* no sum reaches INT64_MAX */
	return offer(w, n);
}

/* Finish the nodes waiting at depth D (their parent, at D - 1, is being
 * left). */
int
profconv__stream_finish_waiting(struct walk *w, size_t d)
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
int
profconv__stream_leave(struct walk *w)
{
	size_t d = w->depth;
	struct snode *n = &w->path[d];
	int rc;

	if (d + 1 < w->pcap &&
	    (rc = profconv__stream_finish_waiting(w, d + 1)) < 0)
		return rc;
	w->depth--;
	if (n->kids || n->id <= w->borrowed)
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

/* View frame VF comes next at depth D: finish the nodes waiting there
 * whose text is no prefix of VF's, through which no later stack goes. */
static int
pass_waiting(struct walk *w, size_t d, uint32_t vf)
{
	const char *t = NULL, *wt;
	struct snode n;
	int rc;

	while (w->nwait[d] > 0) {
		n = w->wait[d][w->nwait[d] - 1];
		if (t == NULL)
			t = text_of(w, vf);
		wt = text_of(w, n.vf);
		if (prefix_of(wt, strlen(wt), t))
			break;
		w->nwait[d]--;
		if ((rc = finish(w, &n, w->path[d - 1].v)) < 0)
			return rc;
	}
	return 0;
}

/* Enter view frame VF below the path's end: a waiting node when it is
 * one (the walk comes back to it), else a new one. */
int
profconv__stream_enter(struct walk *w, uint32_t vf)
{
	size_t d = w->depth + 1;
	struct snode n;
	int rc;

	if (d + 1 >= w->pcap && (rc = room(w, d + 1)) < 0)
		return rc;
	if ((rc = pass_waiting(w, d, vf)) < 0)
		return rc;
	if (w->nwait[d] > 0 && w->wait[d][w->nwait[d] - 1].vf == vf) {
		n = w->wait[d][--w->nwait[d]];
	} else {
		if (w->count == UINT32_MAX - 1)
			return profconv__fail(PROFCONV_ENOMEM,
			    "call tree too large");
		n = (struct snode){ w->count++, w->path[d - 1].id,
		    w->gid_of[vf], vf, false, false, 0, 0, block(w) };
		if (n.v == NULL)
			return profconv__nomem();
	}
	if (w->in_base && !n.base) {
		n.base = true;
		n.mark = w->marks++;
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
	const struct walk *w = arg;

	return strcmp(text_of(w, *(const uint32_t *)a),
	    text_of(w, *(const uint32_t *)b));
}

/* W's ranks: its NF frames sorted by text; a text that begins the next
 * one in that order is one that begins another (any text it begins
 * sorts between them). */
int
profconv__stream_rank(struct walk *w, size_t nf)
{
	size_t i;
	uint32_t *ids = malloc((nf + 1) * sizeof(*ids));

	w->rank = calloc(nf + 1, sizeof(*w->rank));
	if (ids == NULL || w->rank == NULL || nf >= RANK_PREFIX) {
		free(ids);
		return profconv__nomem();
	}
	for (i = 0; i < nf; i++)
		ids[i] = (uint32_t)i + 1;
	qsort_r(ids, nf, sizeof(*ids), by_text, w);
	for (i = 0; i < nf; i++) {
		const char *t = text_of(w, ids[i]);

		w->rank[ids[i]] = (uint32_t)i;
		if (i + 1 < nf && strncmp(t, text_of(w, ids[i + 1]),
		    strlen(t)) == 0)
			w->rank[ids[i]] |= RANK_PREFIX;
	}
	free(ids);
	return 0;
}

/* Do stacks A and then B come in the order of their texts, B not A? */
bool
profconv__stream_in_order(const struct walk *w, const struct pc_view_stack *a,
    const struct pc_view_stack *b, size_t l)
{
	const char *x, *y;
	size_t nx, ny, i;
	uint32_t rx, ry;

	if (l == b->nframes)
		return false;	/* B is A, or A's prefix */
	if (l == a->nframes)
		return true;	/* A is B's prefix */
	/* Frames a byte of whose texts differs: the texts' order. */
	rx = w->rank[pc_stack_at(a->frames, l)];
	ry = w->rank[pc_stack_at(b->frames, l)];
	if (!((rx | ry) & RANK_PREFIX))
		return rx < ry;
	x = text_of(w, pc_stack_at(a->frames, l));
	y = text_of(w, pc_stack_at(b->frames, l));
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

/* The frames stacks A and B begin with alike. */
size_t
profconv__stream_shared(const struct pc_view_stack *a,
    const struct pc_view_stack *b)
{
	size_t l;

	for (l = 0; l < a->nframes && l < b->nframes &&
	    pc_stack_at(a->frames, l) == pc_stack_at(b->frames, l); l++)
		;
	return l;
}

/*
 * A part that is not the last ends where stack NEXT, the next part's
 * first, begins: leave down to the L frames they share, and pass the
 * nodes waiting beside NEXT's frame L.  A node still waiting on the
 * path left open is one NEXT's part might come back to, unseen here.
 */
static int
stop_at(struct walk *w, const struct pc_view_stack *next, size_t l)
{
	size_t d;
	int rc;

	while (w->depth > l)
		if ((rc = profconv__stream_leave(w)) < 0)
			return rc;
	if (l + 1 < w->pcap && l < next->nframes &&
	    (rc = pass_waiting(w, l + 1, pc_stack_at(next->frames, l))) < 0)
		return rc;
	for (d = 1; d <= l + 1 && d < w->pcap; d++)
		if (w->nwait[d] > 0)
			w->unsafe = true;
	return 0;
}

/* Walk V's stacks FROM to TO: every node finished (in a part, every
 * node left; the root's cum the sums). */
static int
walk_stacks(struct walk *w)
{
	const struct profconv_view *v = w->view;
	size_t i, k, l, n = profconv_view_stack_count(v);
	struct pc_view_stack prev = { { NULL, NULL }, 0, NULL }, s;
	int64_t *to;
	int rc;

	if (w->from > 0 && (rc = profconv__view_stack(v, w->from - 1,
	    &prev)) < 0)
		return rc;
	for (i = w->from; i < w->to; i++) {
		if ((rc = profconv__view_stack(v, i, &s)) < 0)
			return rc;
		for (k = 0; k < w->nt; k++)
			if (s.values[k] < 0) {
				w->stop = true;
				return 0;
			}
		l = profconv__stream_shared(&prev, &s);
		if (i > 0 && !profconv__stream_in_order(w, &prev, &s, l)) {
			w->stop = true;
			return 0;
		}
		while (w->depth > l)
			if ((rc = profconv__stream_leave(w)) < 0)
				return rc;
		for (; l < s.nframes; l++)
			if ((rc = profconv__stream_enter(w,
			    pc_stack_at(s.frames, l))) < 0)
				return rc;
		to = w->path[w->depth].v;
		for (k = 0; k < w->nt; k++) {
			to[k] += s.values[k];
			to[w->nt + k] += s.values[k];
		}
		prev = s;
	}
	if (w->to < n) {
		if ((rc = profconv__view_stack(v, w->to, &s)) < 0)
			return rc;
		return stop_at(w, &s, profconv__stream_shared(&prev, &s));
	}
	while (w->depth > 0)
		if ((rc = profconv__stream_leave(w)) < 0)
			return rc;
	return w->pcap > 1 ? profconv__stream_finish_waiting(w, 1) : 0;
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

/*
 * Node N's place in the whole tree's order: its number; in a change's
 * tree, which takes the base's stacks first, then the profile's, the
 * base's nodes in the order its stacks reached them, then the others
 * in the order they were made.
 */
static uint64_t
whole_order(const struct walk *w, const struct snode *n)
{
	if (!w->change)
		return n->id;
	return n->base ? n->mark : ((uint64_t)1 << 32) + n->id;
}

static int
by_whole_order(const void *a, const void *b, void *arg)
{
	uint64_t x = whole_order(arg, a), y = whole_order(arg, b);

	return PC_CMP(x, y);
}

/* Heap places (of the nodes at ARG) by their nodes' numbers. */
static int
by_id(const void *a, const void *b, void *arg)
{
	const struct snode *h = arg;
	uint32_t x = h[*(const uint32_t *)a].id;
	uint32_t y = h[*(const uint32_t *)b].id;

	return PC_CMP(x, y);
}

/* The place among the M heap nodes H, by BYID (by_id()), of node ID;
 * M when it is not there. */
static size_t
find_id(const struct snode *h, const uint32_t *byid, size_t m, uint32_t id)
{
	size_t lo = 0, hi = m;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h[byid[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m && h[byid[lo]].id == id ? byid[lo] : m;
}

/*
 * The kept nodes out of the heap: those above the cut (all when it is
 * negative) whose parent is kept, in the whole tree's order, as tree T
 * (the root first, parents as kept indexes) and O (kept all, the
 * dropped nodes and values), with each kept node's dropped values below
 * it in *PRUNED.
 */
int
profconv__stream_keep(struct walk *w, double fraction, size_t budget,
    struct tree *t, struct out_lean *o)
{
	struct snode *h = w->heap;
	const int64_t *root = w->path[0].v;
	size_t i, k, m = 0, nt = w->nt, p;
	uint32_t *pos = NULL, *byid = NULL;
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
	/* In the whole tree's order, which has every parent before its
	 * callees. */
	qsort_r(h, m, sizeof(*h), by_whole_order, w);
	pos = calloc(m + 1, sizeof(*pos));
	byid = malloc((m + 1) * sizeof(*byid));
	if (pos == NULL || byid == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	for (i = 0; i < m; i++)
		byid[i] = (uint32_t)i;
	qsort_r(byid, m, sizeof(*byid), by_id, h);
	t->nt = nt;
	if ((rc = profconv__report_node_add(t, 0, 0, &node)) < 0)
		goto out;
	memcpy(t->self, root, nt * sizeof(*root));
	for (i = 0; i < m; i++) {
		uint32_t up = 0;

		if (h[i].parent != 0) {
			p = find_id(h, byid, m, h[i].parent);
			if (p == m || pos[p] == 0)
				continue;	/* its parent is not kept */
			up = pos[p];
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
	free(byid);
	return rc;
}

void
profconv__stream_free(struct walk *w)
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
	for (i = 0; w->stored != NULL && i <= w->borrowed; i++)
		free(w->stored[i]);
	free(w->stored);
	if (!w->shares) {
		free(w->gid_of);
		free(w->rank);
	}
}

/*
 * W ready to walk V's stacks FROM to TO (TOTAL, BUDGET; its frames
 * set): when FROM is not 0, on the path stack FROM shares with the one
 * before it, its nodes borrowed.
 */
int
profconv__stream_start(struct walk *w, size_t budget, size_t from, size_t to)
{
	struct pc_view_stack a, b;
	size_t d, l = 0;
	int rc;

	w->from = from;
	w->to = to;
	if (from > 0) {
		if ((rc = profconv__view_stack(w->view, from - 1, &a)) < 0 ||
		    (rc = profconv__view_stack(w->view, from, &b)) < 0)
			return rc;
		l = profconv__stream_shared(&a, &b);
	}
	w->hcap = budget + 1;
	if ((w->heap = calloc(w->hcap, sizeof(*w->heap))) == NULL ||
	    (w->limit = calloc(w->nt + 1, sizeof(*w->limit))) == NULL ||
	    (w->stored = calloc(l + 1, sizeof(*w->stored))) == NULL)
		return profconv__nomem();
	if ((rc = room(w, l + 1)) < 0)
		return rc;
	w->borrowed = l;
	for (d = 0; d <= l; d++) {
		uint32_t vf = d > 0 ? pc_stack_at(b.frames, d - 1) : 0;

		/* Depth D's node is D here, and it has a callee but at the
		 * path's end (which gets one before it is left). */
		w->path[d] = (struct snode){ (uint32_t)d,
		    d > 0 ? (uint32_t)d - 1 : 0, w->gid_of[vf], vf, d < l,
		    false, 0, 0, block(w) };
		w->depth = d;
		if (w->path[d].v == NULL)
			return profconv__nomem();
	}
	w->count = (uint32_t)l + 1;
	return 0;
}

/*
 * Part P, walked after the parts merged into S so far, into S.  P's
 * node X is S's node on the path at depth X when borrowed, else the
 * next of S's numbers in P's order.  The borrowed nodes P left are
 * finished now, deepest first, with both parts' values; those it left
 * open have both parts' values; P's own open nodes go on S's path.
 */
static int
merge(struct walk *s, struct walk *p)
{
	size_t b = p->borrowed, top = p->depth, d, i, k;
	uint32_t base = s->count - (uint32_t)(b + 1);
	int rc = 0;

#define S_ID(x) ((x) <= b ? s->path[(x)].id : (x) + base)
	if (p->count - (b + 1) >= UINT32_MAX - 1 - s->count)
		return profconv__fail(PROFCONV_ENOMEM, "call tree too large");
	for (i = 0; i < p->nheap; i++) {
		struct snode n = p->heap[i];

		n.id = S_ID(n.id);
		n.parent = S_ID(n.parent);
		p->heap[i].v = NULL;
		if (rc == 0)
			rc = offer(s, &n);
		else
			free(n.v);
	}
	p->nheap = 0;
	if (rc < 0)
		return rc;
	if ((rc = room(s, top + 1)) < 0)
		return rc;
	/* The borrowed nodes P left: those below the least depth it went
	 * back to, each with a callee in P (see profconv__stream_start()). */
	for (d = b; d > 0 && p->stored[d] != NULL; d--) {
		for (k = 0; k < 2 * s->nt; k++)
			s->path[d].v[k] += p->stored[d][k];
		s->path[d].kids = true;
		if ((rc = profconv__stream_leave(s)) < 0)
			return rc;
	}
	for (d = 0; d <= top && p->path[d].id <= b; d++) {
		for (k = 0; k < 2 * s->nt; k++)
			s->path[d].v[k] += p->path[d].v[k];
		s->path[d].kids |= p->path[d].kids;
	}
	for (; d <= top; d++) {
		s->path[d] = p->path[d];
		s->path[d].id = S_ID(p->path[d].id);
		s->path[d].parent = S_ID(p->path[d].parent);
		p->path[d].v = NULL;
		s->depth = d;
	}
#undef S_ID
	s->count += p->count - (uint32_t)(b + 1);
	return 0;
}
/* The parts of one walk, each walked on a thread of its own. */
struct parts {
	struct walk *w;
	size_t n;
};

static int
part_task(void *arg, size_t i)
{
	return walk_stacks(&((struct parts *)arg)->w[i]);
}

/*
 * W's stacks (W started on them all) in NPARTS parts on the view's
 * threads, merged into W: 1 when a part ended with nodes waiting, and
 * W must walk them in one part.
 */
static int
walk_parts(struct walk *w, size_t budget, size_t nparts)
{
	size_t i, n = profconv_view_stack_count(w->view);
	struct parts ps = { NULL, nparts };
	int rc = 0;

	if ((ps.w = calloc(nparts, sizeof(*ps.w))) == NULL)
		return profconv__nomem();
	w->to = n / nparts;
	ps.w[0] = *w;
	for (i = 1; i < nparts && rc == 0; i++) {
		ps.w[i] = (struct walk){ .view = w->view, .total = w->total,
		    .nt = w->nt, .gid_of = w->gid_of, .rank = w->rank,
		    .shares = true };
		rc = profconv__stream_start(&ps.w[i], budget, i * n / nparts,
		    (i + 1) * n / nparts);
	}
	if (rc == 0)
		rc = profconv__jobs_run(profconv__view_jobs(w->view), nparts,
		    part_task, &ps);
	for (i = 0; i < nparts && rc == 0; i++) {
		if (ps.w[i].stop)
			ps.w[0].stop = true;
		if (ps.w[i].unsafe)
			rc = 1;
	}
	for (i = 1; i < nparts && rc == 0 && !ps.w[0].stop; i++)
		rc = merge(&ps.w[0], &ps.w[i]);
	*w = ps.w[0];
	for (i = 1; i < nparts; i++)
		profconv__stream_free(&ps.w[i]);
	free(ps.w);
	return rc;
}

/* A part of a walk holds at least this many stacks. */
#define PART_STACKS 65536

int
profconv__report_tree_stream(const struct profconv_view *v,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, struct tree *t, struct out_lean *o)
{
	size_t jobs = profconv__jobs_count(profconv__view_jobs(v));
	size_t n = profconv_view_stack_count(v) / PART_STACKS;

	return profconv__report_tree_stream_parts(v, g, total, fraction,
	    budget, jobs < n ? jobs : n, t, o);
}

int
profconv__report_tree_stream_parts(const struct profconv_view *v,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, size_t nparts, struct tree *t, struct out_lean *o)
{
	struct walk w;
	bool one_each;
	size_t k, n = profconv_view_stack_count(v);
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
	    (rc = profconv__stream_rank(&w,
	    profconv_view_frame_count(v))) < 0) {
		profconv__stream_free(&w);
		return rc < 0 ? rc : 1;
	}
	if (nparts > n)
		nparts = n;
	if ((rc = profconv__stream_start(&w, budget, 0, n)) == 0 &&
	    nparts > 1 && (rc = walk_parts(&w, budget, nparts)) == 1) {
		/* Again, in one part. */
		struct walk again = { .view = v, .total = total, .nt = w.nt,
		    .gid_of = w.gid_of, .rank = w.rank };

		w.shares = true;
		profconv__stream_free(&w);
		w = again;
		rc = profconv__stream_start(&w, budget, 0, n);
		nparts = 1;
	}
	if (rc == 0 && nparts <= 1)
		rc = walk_stacks(&w);
	if (rc == 0 && !w.stop)
		rc = profconv__stream_keep(&w, fraction, budget, t, o);
	profconv__stream_free(&w);
	return rc < 0 ? rc : w.stop ? 1 : 0;
}
