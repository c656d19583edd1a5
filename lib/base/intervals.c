/* SPDX-License-Identifier: MIT */
/*
 * intervals.c - the lowest-numbered of many intervals that holds a point, in
 * O(log n): a segment tree over the intervals' end points.  Legacy
 * profiles attach each address to the first map entry holding it; a
 * linear search made 1M addresses against 100k entries take a minute.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/intervals.h"

int
profconv__stab_init(struct pc_stab *s, const uint64_t *ends, size_t n)
{
	size_t i, k = 0;

	memset(s, 0, sizeof(*s));
	s->x = malloc((n != 0 ? n : 1) * sizeof(*s->x));
	if (s->x == NULL)
		return profconv__nomem();
	if (n > 0) {	/* ENDS may be NULL when there are none */
		memcpy(s->x, ends, n * sizeof(*s->x));
		qsort(s->x, n, sizeof(*s->x), profconv__cmp_u64);
	}
	for (i = 0; i < n; i++)
		if (k == 0 || s->x[k - 1] != s->x[i])
			s->x[k++] = s->x[i];
	s->nx = k;
	for (s->size = 1; s->size < k; s->size *= 2)
		;
	s->tag = malloc(2 * s->size * sizeof(*s->tag));
	if (s->tag == NULL) {
		profconv__stab_free(s);
		return profconv__nomem();
	}
	memset(s->tag, 0xff, 2 * s->size * sizeof(*s->tag));
	return 0;
}

void
profconv__stab_free(struct pc_stab *s)
{
	free(s->x);
	free(s->tag);
	free(s->list);
	free(s->first);
	free(s->cursor);
	memset(s, 0, sizeof(*s));
}

size_t
profconv__upper_bound(const void *v, size_t n, size_t size, size_t off,
    uint64_t x)
{
	const unsigned char *p = v;
	size_t lo = 0, hi = n, mid;
	uint64_t key;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		memcpy(&key, p + mid * size + off, sizeof(key));
		if (key <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The leaf of point A: the last end point <= A; false when none is. */
static bool
leaf_of(const struct pc_stab *s, uint64_t a, size_t *leaf)
{
	size_t n = profconv__upper_bound(s->x, s->nx, sizeof(*s->x), 0, a);

	*leaf = n - 1;
	return n != 0;
}

/* The leaf of end point V, which is one of the init's ENDS. */
static size_t
leaf_at(const struct pc_stab *s, uint64_t v)
{
	size_t leaf;

	(void)leaf_of(s, v, &leaf);
	return leaf;
}

/* Call FN on the tree nodes that together cover [LO, HI). */
#define FOR_COVER(s, lo, hi, node, body) do {				\
	size_t l_ = leaf_at(s, lo) + (s)->size;				\
	size_t r_ = leaf_at(s, hi) + (s)->size;				\
	for (; l_ < r_; l_ /= 2, r_ /= 2) {				\
		if (l_ & 1) { size_t node = l_++; body; }		\
		if (r_ & 1) { size_t node = --r_; body; }		\
	}								\
} while (0)

void
profconv__stab_add(struct pc_stab *s, uint64_t lo, uint64_t hi, uint32_t id)
{
	if (lo >= hi)
		return;
	FOR_COVER(s, lo, hi, node, {
		if (id < s->tag[node])
			s->tag[node] = id;
	});
}

uint32_t
profconv__stab_min(const struct pc_stab *s, uint64_t a)
{
	uint32_t best = PC_STAB_NONE;
	size_t i;

	if (s->nx == 0 || !leaf_of(s, a, &i))
		return PC_STAB_NONE;
	for (i += s->size; i >= 1; i /= 2)
		if (s->tag[i] < best)
			best = s->tag[i];
	return best;
}

int
profconv__stab_build_removable(struct pc_stab *s, const uint64_t *lo,
    const uint64_t *hi, size_t n)
{
	size_t nodes = 2 * s->size, i, total = 0;
	uint32_t *fill;

	s->first = calloc(nodes + 1, sizeof(*s->first));
	s->cursor = calloc(nodes, sizeof(*s->cursor));
	if (s->first == NULL || s->cursor == NULL)
		return profconv__nomem();
	/* Count, then place: CSR lists, each in increasing id order. */
	for (i = 0; i < n; i++)
		if (lo[i] < hi[i])
			FOR_COVER(s, lo[i], hi[i], node, s->first[node + 1]++);
	for (i = 0; i < nodes; i++)
		s->first[i + 1] += s->first[i];
	total = s->first[nodes];
	s->list = malloc((total != 0 ? total : 1) * sizeof(*s->list));
	fill = calloc(nodes, sizeof(*fill));
	if (s->list == NULL || fill == NULL) {
		free(fill);
		return profconv__nomem();
	}
	for (i = 0; i < n; i++)
		if (lo[i] < hi[i])
			FOR_COVER(s, lo[i], hi[i], node,
			    s->list[s->first[node] + fill[node]++] = (uint32_t)i);
	free(fill);
	return 0;
}

uint32_t
profconv__stab_min_alive(struct pc_stab *s, uint64_t a, const bool *dead)
{
	uint32_t best = PC_STAB_NONE;
	size_t i;

	if (s->nx == 0 || !leaf_of(s, a, &i))
		return PC_STAB_NONE;
	for (i += s->size; i >= 1; i /= 2) {
		size_t end = s->first[i + 1] - s->first[i];

		/* Ids only die, so a cursor past the dead never goes back. */
		while (s->cursor[i] < end &&
		    dead[s->list[s->first[i] + s->cursor[i]]])
			s->cursor[i]++;
		if (s->cursor[i] < end &&
		    s->list[s->first[i] + s->cursor[i]] < best)
			best = s->list[s->first[i] + s->cursor[i]];
	}
	return best;
}
