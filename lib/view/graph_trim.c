/* SPDX-License-Identifier: MIT */
/*
 * graph_trim.c - the call graph's order (pprof's EntropyOrder) and trimming:
 * tags and edges under their cutoffs, the first nodecount nodes, residual
 * edges whose ends are joined another way (graph.c drives the cuts).
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/delta.h"
#include "view/graph.h"
#include "view/graph_build.h"
#include "view/view.h"
/* --- order: pprof's EntropyOrder ---------------------------------------------- */

/* |V|, wrapping as Go's does: INT64_MIN stays INT64_MIN. */
int64_t
profconv__graph_abs64(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* Go's int64(X) on amd64: NaN and values out of range are INT64_MIN. */
static int64_t
go_int64(double x)
{
	if (isnan(x) || x >= 9223372036854775808.0 ||
	    x < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)x;
}

/* The edges into and out of each node, the live ones. */
static void
adjacency(struct pc_graph_build *b)
{
	size_t i, n = b->nkeys;

	memset(b->in_off, 0, (n + 1) * sizeof(uint32_t));
	memset(b->out_off, 0, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < b->nedges; i++) {
		if (b->edges[i].dead)
			continue;
		b->in_off[b->edges[i].dst + 1]++;
		b->out_off[b->edges[i].src + 1]++;
	}
	for (i = 0; i < n; i++) {
		b->in_off[i + 1] += b->in_off[i];
		b->out_off[i + 1] += b->out_off[i];
	}
	for (i = 0; i < b->nedges; i++) {
		const struct bedge *e = &b->edges[i];

		if (e->dead)
			continue;
		b->in[b->in_off[e->dst]++] = (uint32_t)i;
		b->out[b->out_off[e->src]++] = (uint32_t)i;
	}
	for (i = n; i > 0; i--) {
		b->in_off[i] = b->in_off[i - 1];
		b->out_off[i] = b->out_off[i - 1];
	}
	b->in_off[0] = b->out_off[0] = 0;
}

static double
edge_entropy(const struct pc_graph_build *b, const uint32_t *edges,
    size_t n, int64_t self)
{
	double score = 0, total = (double)self, frac;
	int64_t t = self;
	size_t i;

	for (i = 0; i < n; i++)
		if (b->edges[edges[i]].w > 0)
			t += profconv__graph_abs64(b->edges[edges[i]].w);
	total = (double)t;
	if (t == 0)
		return 0;
	for (i = 0; i < n; i++) {
		frac = (double)profconv__graph_abs64(b->edges[edges[i]].w) / total;
		score += -frac * log2(frac);
	}
	if (self > 0) {
		frac = (double)profconv__graph_abs64(self) / total;
		score += -frac * log2(frac);
	}
	return score;
}

static int64_t
entropy_score(const struct pc_graph_build *b, uint32_t k)
{
	size_t nin = b->in_off[k + 1] - b->in_off[k];
	size_t nout = b->out_off[k + 1] - b->out_off[k];
	double score = 0;

	score += nin == 0 ? 1 : edge_entropy(b, b->in + b->in_off[k], nin, 0);
	score += nout == 0 ? 1 : edge_entropy(b, b->out + b->out_off[k], nout,
	    b->flat[k]);
	/* An edge of weight 0 makes the score NaN, as in pprof (0 * log2 0):
	 * such a node sorts last.  Sums wrap as Go's. */
	return (int64_t)((uint64_t)go_int64(score * (double)b->cum[k]) +
	    (uint64_t)b->flat[k]);
}

/* Nodes L and R by the magnitude of FIRST, largest first, then by name,
 * by the magnitude of THEN, by number. */
static int
by_two(const struct pc_graph_build *b, const int64_t *first,
    const int64_t *then, uint32_t l, uint32_t r)
{
	int c = PC_CMP(profconv__graph_abs64(first[r]),
	    profconv__graph_abs64(first[l]));

	if (c == 0)
		c = strcmp(b->keys[l].printable, b->keys[r].printable);
	if (c == 0)
		c = PC_CMP(profconv__graph_abs64(then[r]),
		    profconv__graph_abs64(then[l]));
	return c != 0 ? c : PC_CMP(l, r);
}

static int
by_score(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph_build *b = payload;

	return by_two(b, b->score, b->flat, *(const uint32_t *)pa,
	    *(const uint32_t *)pb);
}

/* pprof's FlatNameOrder: flat, name, cum. */
static int
by_flat(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph_build *b = payload;

	return by_two(b, b->flat, b->cum, *(const uint32_t *)pa,
	    *(const uint32_t *)pb);
}

void
profconv__graph_sort_nodes(struct pc_graph_build *b, enum pc_graph_order order)
{
	size_t i;

	adjacency(b);
	if (order == PC_GRAPH_FLAT) {
		qsort_r(b->nodes, b->nnodes, sizeof(*b->nodes), by_flat, b);
		return;
	}
	/* CumNameOrder is the entropy order with cum for the score. */
	for (i = 0; i < b->nnodes; i++)
		b->score[b->nodes[i]] = order == PC_GRAPH_CUM ?
		    b->cum[b->nodes[i]] : entropy_score(b, b->nodes[i]);
	qsort_r(b->nodes, b->nnodes, sizeof(*b->nodes), by_score, b);
}

/* --- trimming ------------------------------------------------------------------ */

/* POS[K]: the place of key K in the graph's nodes + 1, 0 when not in. */
void
profconv__graph_mark_nodes(struct pc_graph_build *b)
{
	size_t i;

	memset(b->pos, 0, b->nkeys * sizeof(*b->pos));
	for (i = 0; i < b->nnodes; i++)
		b->pos[b->nodes[i]] = (uint32_t)i + 1;
}

void
profconv__graph_trim_tags(struct pc_graph_build *b, int64_t cutoff)
{
	size_t i;

	for (i = 0; i < b->ntags; i++)
		if (profconv__graph_abs64(b->tags[i].flat) < cutoff &&
		    profconv__graph_abs64(b->tags[i].cum) < cutoff)
			b->tags[i].dead = true;
}

/* Edges into nodes of the graph under CUTOFF go; how many.  (An edge
 * into a node whose values cancelled out, which is not in the graph,
 * stays, as in pprof: it still counts as an out edge of its source.) */
size_t
profconv__graph_trim_edges(struct pc_graph_build *b, int64_t cutoff)
{
	size_t i, n = 0;

	profconv__graph_mark_nodes(b);
	for (i = 0; i < b->nedges; i++) {
		struct bedge *e = &b->edges[i];

		if (!e->dead && b->pos[e->dst] != 0 && profconv__graph_abs64(e->w) < cutoff) {
			e->dead = true;
			n++;
		}
	}
	return n;
}

/* pprof's countTags: the live tags with a flat value. */
static size_t
count_tags(const struct pc_graph_build *b, uint32_t k, const size_t *first)
{
	size_t i, n = 0;

	for (i = first[k]; i < b->ntags && b->tags[i].key == k; i++)
		if (!b->tags[i].dead && b->tags[i].flat != 0)
			n++;
	return n;
}

static int
by_tag_key(const void *pa, const void *pb)
{
	const struct btag *a = pa, *b = pb;
	int c = PC_CMP(a->key, b->key);

	if (c == 0)
		c = PC_CMP(a->group, b->group);
	if (c == 0)
		c = PC_CMP(a->numeric, b->numeric);
	return c != 0 ? c : PC_CMP(a->name, b->name);
}

/* The tags sorted by node (the tag map is rebuilt by the next build);
 * FIRST[K] is the first of key K's. */
int
profconv__graph_group_tags(struct pc_graph_build *b, size_t **first)
{
	size_t i;

	if (b->ntags > 0)
		qsort(b->tags, b->ntags, sizeof(*b->tags), by_tag_key);
	*first = malloc((b->nkeys + 1) * sizeof(**first));
	if (*first == NULL)
		return profconv__nomem();
	for (i = 0; i <= b->nkeys; i++)
		(*first)[i] = b->ntags;
	for (i = b->ntags; i > 0; i--)
		(*first)[b->tags[i - 1].key] = i - 1;
	return 0;
}

/* pprof's selectTopNodes in visual mode: how many nodes to keep. */
int
profconv__graph_top_nodes(struct pc_graph_build *b, size_t max, size_t *keep)
{
	size_t i, count = 0, *first, t;
	int rc = profconv__graph_group_tags(b, &first);

	if (rc < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++) {
		t = count_tags(b, b->nodes[i], first);
		count += (t < 4 ? t : 4) + 1;
		if (count >= max) {
			max = i + 1;
			break;
		}
	}
	free(first);
	*keep = max < b->nnodes ? max : b->nnodes;
	return 0;
}

static int
by_edge(const struct pc_graph_build *b, const struct bedge *x,
    const struct bedge *y)
{
	int c = PC_CMP(profconv__graph_abs64(y->w), profconv__graph_abs64(x->w));

	if (c == 0)
		c = strcmp(b->keys[x->src].printable, b->keys[y->src].printable);
	if (c == 0)
		c = strcmp(b->keys[x->dst].printable,
		    b->keys[y->dst].printable);
	return c;
}

int
profconv__graph_by_edge_id(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph_build *b = payload;

	return by_edge(b, &b->edges[*(const uint32_t *)pa],
	    &b->edges[*(const uint32_t *)pb]);
}

/* Can E's source reach its destination through other live edges? */
static int
redundant(struct pc_graph_build *b, uint32_t eid, bool *out)
{
	const struct bedge *e = &b->edges[eid];
	uint32_t *queue = malloc((b->nkeys + 1) * sizeof(*queue));
	uint8_t *seen = calloc(b->nkeys + 1, 1);
	size_t head = 0, tail = 0, i;

	*out = false;
	if (queue == NULL || seen == NULL) {
		free(queue);
		free(seen);
		return profconv__nomem();
	}
	queue[tail++] = e->dst;
	seen[e->dst] = 1;
	while (head < tail && !*out) {
		uint32_t n = queue[head++];

		for (i = b->in_off[n]; i < b->in_off[n + 1]; i++) {
			const struct bedge *ie = &b->edges[b->in[i]];

			if (b->in[i] == eid || ie->dead || seen[ie->src])
				continue;
			if (ie->src == e->src) {
				*out = true;
				break;
			}
			seen[ie->src] = 1;
			queue[tail++] = ie->src;
		}
	}
	free(queue);
	free(seen);
	return 0;
}

/* pprof's RemoveRedundantEdges. */
int
profconv__graph_remove_redundant(struct pc_graph_build *b)
{
	size_t i, j, n;
	uint32_t *in;
	bool r;
	int rc = 0;

	adjacency(b);
	for (i = b->nnodes; rc == 0 && i > 0; i--) {
		uint32_t k = b->nodes[i - 1];

		n = b->in_off[k + 1] - b->in_off[k];
		in = malloc((n + 1) * sizeof(*in));
		if (in == NULL)
			return profconv__nomem();
		memcpy(in, b->in + b->in_off[k], n * sizeof(*in));
		qsort_r(in, n, sizeof(*in), profconv__graph_by_edge_id, b);
		for (j = n; rc == 0 && j > 0; j--) {
			struct bedge *e = &b->edges[in[j - 1]];

			if (e->dead)
				continue;
			if (!e->residual)
				break;
			rc = redundant(b, in[j - 1], &r);
			if (rc == 0 && r)
				e->dead = true;
		}
		free(in);
	}
	return rc;
}
