/* SPDX-License-Identifier: MIT */
/*
 * ids.h - a run of ids held in two bytes while every id fits, else in
 * four: a sample's location ids (model/) and a view stack's frame ids
 * (view/) alike.  Not installed.
 */
#ifndef PROFCONV_BASE_IDS_H
#define PROFCONV_BASE_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Ids in the width their array holds them: exactly one of NARROW and
 * WIDE is set, or neither for a run of none (no arithmetic on an array
 * that may not exist yet).  Read them with pc_stack_at(); a loop over
 * them costs one branch per id that always goes the same way.
 */
struct pc_stack {
	const uint16_t *narrow;
	const uint32_t *wide;
};

/* The N ids at OFF of the array IDS, uint32_t when WIDE, else uint16_t
 * (neither set when N is 0). */
static inline struct pc_stack
pc_stack_make(const void *ids, bool wide, size_t off, size_t n)
{
	struct pc_stack k = { NULL, NULL };

	if (n == 0)
		return k;
	if (wide)
		k.wide = (const uint32_t *)ids + off;
	else
		k.narrow = (const uint16_t *)ids + off;
	return k;
}

/* Id I of K (I below its length). */
static inline uint32_t
pc_stack_at(struct pc_stack k, size_t i)
{
	return k.wide != NULL ? k.wide[i] : k.narrow[i];
}

/* Are the N ids of K those at IDS? */
static inline bool
pc_stack_equal(struct pc_stack k, const uint32_t *ids, size_t n)
{
	size_t i;

	if (k.wide != NULL)
		return memcmp(k.wide, ids, n * sizeof(*ids)) == 0;
	for (i = 0; i < n; i++)
		if (k.narrow[i] != ids[i])
			return false;
	return true;
}

/* Are the first N ids of A and B the same?  (Either width each.) */
static inline bool
pc_stack_same(struct pc_stack a, struct pc_stack b, size_t n)
{
	size_t i;

	if (n == 0)
		return true;
	if (a.wide != NULL && b.wide != NULL)
		return memcmp(a.wide, b.wide, n * sizeof(*a.wide)) == 0;
	if (a.narrow != NULL && b.narrow != NULL)
		return memcmp(a.narrow, b.narrow, n * sizeof(*a.narrow)) == 0;
	for (i = 0; i < n; i++)
		if (pc_stack_at(a, i) != pc_stack_at(b, i))
			return false;
	return true;
}

/* Where id I of K lies, for __builtin_prefetch() (NULL for K empty). */
static inline const void *
pc_stack_addr(struct pc_stack k, size_t i)
{
	if (k.wide != NULL)
		return k.wide + i;
	return k.narrow != NULL ? (const void *)(k.narrow + i) : NULL;
}

#endif
