/* SPDX-License-Identifier: MIT */
/*
 * graph_count.c - one build of the call graph (pprof's newGraph): every
 * sample's weight into its nodes, edges and tags, a step per frame of
 * every sample, on several threads when the samples are many and no sum
 * can saturate (graph_build.c has the keys and the samples, graph.c
 * the builds' order).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/graph_build.h"

/* A build of fewer samples stays on one thread; at most PARTS_MAX. */
#define PARALLEL_MIN ((size_t)1 << 15)
#define PARTS_MAX 8

/* --- one part's walk ----------------------------------------------------------- */

/*
 * The index of P's edges by their ends: open addressing, at most half
 * full, each slot an edge's place + 1 (0: empty), whose ends say whether
 * it is the edge looked for.  A build looks up an edge for nearly every
 * frame of every sample, and the same few thousand come back: a slot
 * and the edge, two reads, most of the time.
 */
#define EIDX_MIN ((size_t)1 << 12)

/* The first slot of edge SRC -> DST in an index of CAP slots (a power
 * of two): the product's top bits, which all of both ends' bits make. */
static inline size_t
edge_hash(uint32_t src, uint32_t dst, size_t cap)
{
	return (size_t)((((uint64_t)src << 32 | dst) *
	    UINT64_C(0x9e3779b97f4a7c15)) >> (64 - __builtin_ctzll(cap)));
}

/* P's index twice as large, or first made. */
static int
edge_index_grow(struct gpart *p)
{
	size_t cap = p->eidx_cap != 0 ? 2 * p->eidx_cap : EIDX_MIN, i;
	uint32_t *x;

	if (cap > SIZE_MAX / sizeof(*x) || p->nedges >= UINT32_MAX)
		return profconv__nomem();
	if ((x = calloc(cap, sizeof(*x))) == NULL)
		return profconv__nomem();
	for (i = 0; i < p->nedges; i++) {
		size_t h = edge_hash(p->edges[i].src, p->edges[i].dst, cap);

		while (x[h] != 0)
			h = (h + 1) & (cap - 1);
		x[h] = (uint32_t)(i + 1);
	}
	free(p->eidx);
	p->eidx = x;
	p->eidx_cap = cap;
	return 0;
}

/* The edge SRC -> DST of P, new, into *OUT, made with RESIDUAL and INL
 * and no weight, at slot H of the index (or where it falls in the
 * index grown first).  Out of line: edge_get() finds the edge most of
 * the time. */
static __attribute__((noinline)) int
edge_new(struct gpart *p, uint32_t src, uint32_t dst, size_t h,
    bool residual, bool inl, uint32_t *out)
{
	int rc;

	if (2 * (p->nedges + 1) > p->eidx_cap) {
		if ((rc = edge_index_grow(p)) < 0)
			return rc;
		for (h = edge_hash(src, dst, p->eidx_cap); p->eidx[h] != 0;
		    h = (h + 1) & (p->eidx_cap - 1))
			;
	}
	if ((rc = PC_GROW(p->edges, p->edges_cap, p->nedges, 1)) < 0)
		return rc;
	*out = (uint32_t)p->nedges;
	p->edges[p->nedges++] = (struct bedge){ src, dst, 0, 0, residual, inl,
		false };
	p->eidx[h] = *out + 1;
	return 0;
}

/* The edge SRC -> DST of P into *OUT (its place), made with RESIDUAL
 * and INL and no weight when new (an index not made yet is empty). */
static inline int
edge_get(struct gpart *p, uint32_t src, uint32_t dst, bool residual,
    bool inl, uint32_t *out)
{
	size_t mask = p->eidx_cap - 1, h;

	if (p->eidx_cap == 0)
		return edge_new(p, src, dst, 0, residual, inl, out);
	for (h = edge_hash(src, dst, p->eidx_cap); p->eidx[h] != 0;
	    h = (h + 1) & mask) {
		const struct bedge *e = &p->edges[p->eidx[h] - 1];

		if (e->src == src && e->dst == dst) {
			*out = p->eidx[h] - 1;
			return 0;
		}
	}
	return edge_new(p, src, dst, h, residual, inl, out);
}

/* The edge SRC -> DST of a sample of weight W (number STAMP - 1) in P,
 * made when new, with W once per sample. */
static int
add_edge(struct gpart *p, uint32_t src, uint32_t dst, uint32_t stamp,
    int64_t w, bool residual, bool inl)
{
	struct bedge *e;
	uint32_t idx;
	int rc;

	if ((rc = edge_get(p, src, dst, residual, inl, &idx)) < 0)
		return rc;
	e = &p->edges[idx];
	if (e->stamp == stamp)
		return 0;	/* once per sample */
	e->stamp = stamp;
	pc_add_sat(&e->w, w);
	e->residual |= residual;
	if (!inl)
		e->inl = false;
	return 0;
}

/* The counts of a walk, in locals (count_weights(), count_sample()). */
struct walk {
	size_t *stamp, now, nt;
	int64_t *cum, *cum_base, w;
	uint32_t *touched;
	bool base;
};

/* Key K's cum, once per sample: whether this is its first time in it. */
static inline bool
count_node(struct walk *c, uint32_t k)
{
	if (c->stamp[k] == c->now)
		return false;
	if (c->stamp[k] == 0)
		c->touched[c->nt++] = k;
	c->stamp[k] = c->now;
	pc_add_sat(&c->cum[k], c->w);
	if (c->base)
		pc_add_sat(&c->cum_base[k], c->w);
	return true;
}

/* count_sample() of a build of weights only: no edges, no tags. */
static void
count_weights(const struct pc_graph_build *b, struct gpart *p,
    const struct gsample *s, size_t si, const uint8_t *kept)
{
	const uint32_t *fk = b->by_address || b->tree ? NULL :
	    b->frame_key[s->view];
	struct pc_stack frames = gsample_frames(s);
	struct walk c = { p->stamp, si + 1, p->ntouched, p->cum, p->cum_base,
		s->w, p->touched, s->view == 1 };
	size_t j, n = s->nframes;
	uint32_t parent = NONE;
	bool residual = false;

	for (j = 0; j < n; j++) {
		uint32_t f = pc_stack_at(frames, j);
		uint32_t k = fk != NULL ? fk[f] : f;

		if (kept != NULL && !kept[k]) {
			residual = true;
			continue;
		}
		count_node(&c, k);
		parent = k;
		residual = false;
	}
	p->ntouched = c.nt;
	if (parent != NONE && !residual)
		pc_add_sat(&p->flat[parent], c.w);
}

/*
 * S's weight (sample SI) into its nodes' cum and tags in P, once per
 * node, and its edges, then its leaf's flat; frames whose key KEPT does
 * not have are left out (KEPT NULL: none).  What it reads of the build
 * is in locals, which the compiler would otherwise reload each frame.
 * Tags one sample at a time (not by class) change B: part 0 only.
 */
static int
count_sample(struct pc_graph_build *b, struct gpart *p,
    const struct gsample *s, size_t si, const uint8_t *kept)
{
	const uint32_t *fk = b->by_address || b->tree ? NULL :
	    b->frame_key[s->view];
	const uint8_t *il = s->inl;
	struct pc_stack frames = gsample_frames(s);
	struct walk c = { p->stamp, si + 1, p->ntouched, p->cum, p->cum_base,
		s->w, p->touched, s->view == 1 };
	size_t j, n = s->nframes, nct = p->nctouched, ncl = b->nclasses;
	uint32_t cls = s->cls;
	int64_t *ccum = p->ccum, w = s->w;
	uint32_t *ctouched = p->ctouched;
	uint32_t parent = NONE;
	uint64_t *cseen = p->cseen;
	bool each = !b->by_class;	/* tags one sample at a time */
	bool by_class = b->by_class && cls != NONE;
	bool residual = false, chain = true;
	int rc = 0;

	if (b->weights_only) {
		count_weights(b, p, s, si, kept);
		return 0;
	}
	if (each && (rc = profconv__graph_sample_kinds(b, s)) < 0)
		return rc;
	for (j = 0; j < n; j++) {
		uint32_t f = pc_stack_at(frames, j);
		uint32_t k = fk != NULL ? fk[f] : f;
		bool inl = il != NULL && il[j];

		/* In a call tree an edge past contexts left out is inline
		 * when every call it stands for was, as pprof's TrimTree
		 * joins them; else as the last. */
		chain = chain && inl;
		if (kept != NULL && !kept[k]) {
			residual = true;
			continue;
		}
		if (count_node(&c, k)) {
			if (by_class) {
				size_t cell = (size_t)k * ncl + cls;

				if (!pc_bit(cseen, cell)) {
					cseen[cell / 64] |= UINT64_C(1) << cell % 64;
					ctouched[nct++] = (uint32_t)cell;
				}
				pc_add_sat(&ccum[cell], w);
			} else if (each && (rc = profconv__graph_node_tags(b,
			    k, s, false)) < 0) {
				break;
			}
		}
		/* An edge into a frame that is not its location's
		 * outermost line is inline. */
		if (parent != NONE && k != parent &&
		    (rc = add_edge(p, parent, k, (uint32_t)c.now, w, residual,
		    b->tree ? chain : inl)) < 0)
			break;
		parent = k;
		residual = false;
		chain = true;
	}
	p->ntouched = c.nt;
	p->nctouched = nct;
	if (rc < 0 || parent == NONE || residual)
		return rc;
	pc_add_sat(&p->flat[parent], w);
	if (by_class)
		pc_add_sat(&p->cflat[(size_t)parent * ncl + cls], w);
	else if (each)
		rc = profconv__graph_node_tags(b, parent, s, true);
	return rc;
}

/* --- the parts ------------------------------------------------------------------ */

/* Part 0: the build's own arrays. */
static void
own_part(const struct pc_graph_build *b, struct gpart *p)
{
	p->stamp = b->stamp;
	p->cum = b->cum;
	p->flat = b->flat;
	p->cum_base = b->cum_base;
	p->touched = b->touched;
	p->ntouched = b->ntouched;
	p->edges = b->edges;
	p->nedges = b->nedges;
	p->edges_cap = b->edges_cap;
	p->eidx = b->eidx;
	p->eidx_cap = b->eidx_cap;
	p->ccum = b->ccum;
	p->cflat = b->cflat;
	p->cseen = b->cseen;
	p->ctouched = b->ctouched;
	p->nctouched = b->nctouched;
}

/* Part 0's counts and arrays back into the build. */
static void
store_own_part(struct pc_graph_build *b, const struct gpart *p)
{
	b->ntouched = p->ntouched;
	b->edges = p->edges;
	b->nedges = p->nedges;
	b->edges_cap = p->edges_cap;
	b->eidx = p->eidx;
	b->eidx_cap = p->eidx_cap;
	b->nctouched = p->nctouched;
}

/* P zeroed where the last build touched it. */
static void
part_reset(struct gpart *p)
{
	size_t i;

	for (i = 0; i < p->ntouched; i++) {
		uint32_t k = p->touched[i];

		p->flat[k] = p->cum[k] = p->cum_base[k] = 0;
		p->stamp[k] = 0;
	}
	p->ntouched = 0;
	for (i = 0; i < p->nctouched; i++) {
		uint32_t c = p->ctouched[i];

		p->ccum[c] = p->cflat[c] = 0;
		p->cseen[c / 64] = 0;
	}
	p->nctouched = 0;
	p->nedges = 0;
	if (p->eidx != NULL)
		memset(p->eidx, 0, p->eidx_cap * sizeof(*p->eidx));
}

/* The arrays of a part of its own, P, for B's keys (and class cells
 * when B counts tags by class), once. */
static int
part_arrays(const struct pc_graph_build *b, struct gpart *p)
{
	size_t n = b->nkeys + 1, cells = b->nclasses * n;
	char *at;

	if (p->block == NULL) {
		p->block = calloc(n, sizeof(size_t) + 3 * sizeof(int64_t) +
		    sizeof(uint32_t));
		if (p->block == NULL)
			return profconv__nomem();
		at = p->block;
		p->stamp = (size_t *)(void *)at;
		p->cum = (int64_t *)(void *)(at + n * sizeof(size_t));
		p->flat = p->cum + n;
		p->cum_base = p->flat + n;
		p->touched = (uint32_t *)(void *)(p->cum_base + n);
	}
	if (b->by_class && p->cseen == NULL) {
		p->ccum = calloc(cells, sizeof(*p->ccum));
		p->cflat = calloc(cells, sizeof(*p->cflat));
		p->cseen = calloc(cells / 64 + 1, sizeof(*p->cseen));
		p->ctouched = malloc(cells * sizeof(*p->ctouched));
		if (p->ccum == NULL || p->cflat == NULL || p->cseen == NULL ||
		    p->ctouched == NULL)
			return profconv__nomem();
	}
	return 0;
}

void
profconv__graph_free_parts(struct pc_graph_build *b)
{
	size_t i;

	for (i = 1; i < b->nparts; i++) {
		struct gpart *p = &b->parts[i];

		free(p->block);
		free(p->eidx);
		free(p->edges);
		free(p->ccum);
		free(p->cflat);
		free(p->cseen);
		free(p->ctouched);
	}
	free(b->parts);
	b->parts = NULL;
	b->nparts = 0;
}

/*
 * Part Q's counts added to the build's (part 0's, stored back): its keys
 * first counted, edges first made and cells first touched, in order,
 * after the build's, since all its samples come after theirs; then Q
 * is zeroed for the next build.
 */
static int
merge_part(struct pc_graph_build *b, struct gpart *q)
{
	struct gpart p;
	size_t i;
	int rc = 0;

	for (i = 0; i < q->ntouched; i++) {
		uint32_t k = q->touched[i];

		if (b->stamp[k] == 0) {
			b->touched[b->ntouched++] = k;
			b->stamp[k] = SIZE_MAX;
		}
		pc_add_sat(&b->cum[k], q->cum[k]);
		pc_add_sat(&b->flat[k], q->flat[k]);
		pc_add_sat(&b->cum_base[k], q->cum_base[k]);
	}
	own_part(b, &p);
	for (i = 0; rc == 0 && i < q->nedges; i++) {
		const struct bedge *x = &q->edges[i];
		struct bedge *e;
		uint32_t idx;

		if ((rc = edge_get(&p, x->src, x->dst, x->residual, x->inl,
		    &idx)) < 0)
			break;
		e = &p.edges[idx];
		pc_add_sat(&e->w, x->w);
		e->residual |= x->residual;
		e->inl = e->inl && x->inl;
	}
	store_own_part(b, &p);
	if (rc < 0)
		return rc;
	for (i = 0; i < q->nctouched; i++) {
		uint32_t c = q->ctouched[i];

		if (!pc_bit(b->cseen, c)) {
			b->cseen[c / 64] |= UINT64_C(1) << c % 64;
			b->ctouched[b->nctouched++] = c;
		}
		pc_add_sat(&b->ccum[c], q->ccum[c]);
		pc_add_sat(&b->cflat[c], q->cflat[c]);
	}
	part_reset(q);
	return 0;
}

/* How many parts the next build takes: one unless there are threads,
 * many samples, sums that cannot saturate, and no tags to count one
 * sample at a time (those go to tables of the build's own). */
static size_t
parts_for(const struct pc_graph_build *b)
{
	size_t n = b->jobs < PARTS_MAX ? b->jobs : PARTS_MAX;

	if (n < 2 || b->ngsamples < PARALLEL_MIN || !b->sums_fit ||
	    (!b->weights_only && !b->by_class))
		return 1;
	return n;
}

struct count_run {
	struct pc_graph_build *b;
	const uint8_t *kept;
};

/*
 * Part I's samples, counted into a copy of the part on this thread's
 * stack and stored back at the end: the parts lie side by side, and a
 * part's counts, stored after every sample, shared a cache line with
 * the next part's arrays, which its thread reads for every sample (14%
 * of profgraph's samples on the 1.27 GB profile waited on that line).
 */
static int
count_task(void *arg, size_t i)
{
	struct count_run *r = arg;
	struct gpart p = r->b->parts[i];
	size_t si;
	int rc = 0;

	for (si = p.from; rc == 0 && si < p.to; si++)
		rc = count_sample(r->b, &p, &r->b->gsamples[si], si, r->kept);
	r->b->parts[i] = p;
	return rc;
}

/* The samples counted in N parts (N > 1) and added up. */
static int
count_in_parts(struct pc_graph_build *b, size_t n, const uint8_t *kept)
{
	struct count_run r = { b, kept };
	size_t i;
	int rc;

	if (b->nparts < n) {
		struct gpart *p = realloc(b->parts, n * sizeof(*p));

		if (p == NULL)
			return profconv__nomem();
		memset(p + b->nparts, 0, (n - b->nparts) * sizeof(*p));
		b->parts = p;
		b->nparts = n;
	}
	for (i = 1; i < n; i++)
		if ((rc = part_arrays(b, &b->parts[i])) < 0)
			return rc;
	own_part(b, &b->parts[0]);
	for (i = 0; i < n; i++) {
		b->parts[i].from = b->ngsamples * i / n;
		b->parts[i].to = b->ngsamples * (i + 1) / n;
	}
	rc = profconv__jobs_run((unsigned int)n, n, count_task, &r);
	store_own_part(b, &b->parts[0]);
	for (i = 1; rc == 0 && i < n; i++)
		rc = merge_part(b, &b->parts[i]);
	return rc;
}

/* --- a build ------------------------------------------------------------------------ */

/* Before a build: the last one's counts zeroed, in the build's own
 * arrays (through part 0) and its tags. */
static void
reset(struct pc_graph_build *b)
{
	struct gpart p;

	own_part(b, &p);
	part_reset(&p);
	store_own_part(b, &p);
	profconv__graph_reset_tags(b);
}

/* B->sums_fit: whether the samples' weights, added up as magnitudes,
 * stay below INT64_MAX. */
static void
sums(struct pc_graph_build *b)
{
	int64_t total = 0;
	size_t si;

	b->sums_known = true;
	b->sums_fit = false;
	for (si = 0; si < b->ngsamples; si++) {
		int64_t w = b->gsamples[si].w;

		if (w == INT64_MIN)
			return;
		pc_add_sat(&total, w < 0 ? -w : w);
		if (total == INT64_MAX)
			return;
	}
	b->sums_fit = true;
}

int
profconv__graph_build(struct pc_graph_build *b, const uint8_t *kept)
{
	size_t si, j, n;
	int rc = 0;

	/* A sample's number + 1 is an edge's stamp. */
	if (b->ngsamples >= UINT32_MAX)
		return profconv__fail(PROFCONV_ENOMEM, "too many samples for "
		    "a call graph: %zu", b->ngsamples);
	reset(b);
	if (!b->sums_known)
		sums(b);
	if (!b->weights_only && !b->classes_done &&
	    (rc = profconv__graph_classes(b)) < 0)
		return rc;
	if ((n = parts_for(b)) > 1) {
		rc = count_in_parts(b, n, kept);
	} else {
		struct gpart p;

		own_part(b, &p);
		for (si = 0; rc == 0 && si < b->ngsamples; si++)
			rc = count_sample(b, &p, &b->gsamples[si], si, kept);
		store_own_part(b, &p);
	}
	if (rc == 0 && b->by_class && !b->weights_only)
		rc = profconv__graph_class_tags(b);
	/* Room for the adjacency of the edges made (graph_trim.c): the
	 * cuts only ever take edges away. */
	if (rc == 0 && (rc = PC_GROW(b->in, b->in_cap, 0, b->nedges + 1)) == 0)
		rc = PC_GROW(b->out, b->out_cap, 0, b->nedges + 1);
	if (rc < 0)
		return rc;
	/* pprof's selectNodesForGraph. */
	b->nnodes = 0;
	for (j = 0; j < b->ntouched; j++) {
		uint32_t k = b->touched[j];

		if (b->cum[k] != 0 || b->flat[k] != 0)
			b->nodes[b->nnodes++] = k;
	}
	return 0;
}
