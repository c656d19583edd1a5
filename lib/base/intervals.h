/* SPDX-License-Identifier: MIT */
/*
 * intervals.h - which of a set of address intervals holds a point
 * (intervals.c): the legacy readers' mapping search.
 */
#ifndef PROFCONV_INTERVALS_H
#define PROFCONV_INTERVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Which of a set of half-open intervals [lo, hi), numbered from 0, holds
 * a point: the lowest number, in O(log n).  All end points are given to
 * init; intervals are then added (stab_add) or, for a set whose members
 * can be removed, given at once (stab_build_removable).
 */
struct pc_stab {
	uint64_t *x;		/* distinct end points, sorted */
	size_t nx, size;	/* leaves: the gaps between end points */
	uint32_t *tag;		/* per node: lowest id added over it */
	uint32_t *list;		/* removable: ids per node, ascending */
	size_t *first;		/* removable: node i's ids at first[i] */
	size_t *cursor;		/* removable: ids before it are dead */
};
#define PC_STAB_NONE UINT32_MAX

int profconv__stab_init(struct pc_stab *s, const uint64_t *ends, size_t n);
void profconv__stab_free(struct pc_stab *s);
/* Add interval ID, [LO, HI), whose ends were given to init. */
void profconv__stab_add(struct pc_stab *s, uint64_t lo, uint64_t hi,
    uint32_t id);
/* The lowest id added that holds A, or PC_STAB_NONE. */
uint32_t profconv__stab_min(const struct pc_stab *s, uint64_t a);
/* Intervals 0..N-1, [LO[i], HI[i]), of which some may later die. */
int profconv__stab_build_removable(struct pc_stab *s, const uint64_t *lo,
    const uint64_t *hi, size_t n);
/* The lowest id of those built that holds A and is not DEAD[id]. */
uint32_t profconv__stab_min_alive(struct pc_stab *s, uint64_t a,
    const bool *dead);

#endif /* PROFCONV_INTERVALS_H */
