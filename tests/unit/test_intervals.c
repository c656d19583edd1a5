/* SPDX-License-Identifier: MIT */
/*
 * test_intervals.c - which of a set of half-open address intervals holds
 * a point, the lowest numbered (lib/base/intervals.c): by hand, and
 * against a plain scan over random sets.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "base/base.h"
#include "base/intervals.h"

/* The lowest i with LO[i] <= A < HI[i] and not DEAD[i]: the reference. */
static uint32_t
scan(const uint64_t *lo, const uint64_t *hi, const bool *dead, size_t n,
    uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (lo[i] <= a && a < hi[i] && (dead == NULL || !dead[i]))
			return (uint32_t)i;
	return PC_STAB_NONE;
}

/* Nested and overlapping mappings, added highest id first: the lowest
 * id holding the point wins, the high end is outside. */
static void
lowest_id_holding_the_point(void)
{
	static const uint64_t lo[] = { 0x1000, 0x2000, 0x1800, 0x9000 };
	static const uint64_t hi[] = { 0x3000, 0x5000, 0x2000, 0x9000 };
	struct pc_stab s;
	uint64_t ends[8];

	for (size_t i = 0; i < 4; i++) {
		ends[2 * i] = lo[i];
		ends[2 * i + 1] = hi[i];
	}
	cr_assert(eq(int, profconv__stab_init(&s, ends, 8), 0));
	for (size_t i = 4; i-- > 0;)
		profconv__stab_add(&s, lo[i], hi[i], (uint32_t)i);
	cr_assert(eq(u32, profconv__stab_min(&s, 0xfff), PC_STAB_NONE));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x1000), 0));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x1900), 0));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x2fff), 0));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x3000), 1));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x4fff), 1));
	cr_assert(eq(u32, profconv__stab_min(&s, 0x5000), PC_STAB_NONE));
	/* [0x9000, 0x9000) is empty: nothing holds its point. */
	cr_assert(eq(u32, profconv__stab_min(&s, 0x9000), PC_STAB_NONE));
	cr_assert(eq(u32, profconv__stab_min(&s, UINT64_MAX), PC_STAB_NONE));
	profconv__stab_free(&s);
}

/* A set with no intervals holds nothing. */
static void
empty_set(void)
{
	struct pc_stab s;

	cr_assert(eq(int, profconv__stab_init(&s, NULL, 0), 0));
	cr_assert(eq(u32, profconv__stab_min(&s, 42), PC_STAB_NONE));
	profconv__stab_free(&s);
}

/* Removable: as intervals die, the next lowest living one answers. */
static void
removable_skips_the_dead(void)
{
	static const uint64_t lo[] = { 0x1000, 0x2000, 0x1800 };
	static const uint64_t hi[] = { 0x3000, 0x5000, 0x2800 };
	bool dead[3] = { false, false, false };
	struct pc_stab s;
	uint64_t ends[6];

	for (size_t i = 0; i < 3; i++) {
		ends[2 * i] = lo[i];
		ends[2 * i + 1] = hi[i];
	}
	cr_assert(eq(int, profconv__stab_init(&s, ends, 6), 0));
	cr_assert(eq(int, profconv__stab_build_removable(&s, lo, hi, 3), 0));
	cr_assert(eq(u32, profconv__stab_min_alive(&s, 0x2400, dead), 0));
	dead[0] = true;
	cr_assert(eq(u32, profconv__stab_min_alive(&s, 0x2400, dead), 1));
	cr_assert(eq(u32, profconv__stab_min_alive(&s, 0x1900, dead), 2));
	dead[1] = true;
	cr_assert(eq(u32, profconv__stab_min_alive(&s, 0x2400, dead), 2));
	dead[2] = true;
	cr_assert(eq(u32, profconv__stab_min_alive(&s, 0x2400, dead),
	    PC_STAB_NONE));
	profconv__stab_free(&s);
}

/* By hand: the lowest id holding a point, in a full, empty or removable set. */
Test(intervals, lowest_id_holding_the_point_by_hand)
{
	lowest_id_holding_the_point();
	empty_set();
	removable_skips_the_dead();
}

/* Random sets of 1 to 60 intervals on a small grid (so that they share
 * ends and overlap), with some killed in random order: the same answers
 * as the scan at every point of the grid. */
Test(intervals, agrees_with_a_scan)
{
	uint64_t lo[60], hi[60], ends[120];
	bool dead[60];
	struct pc_stab s, r;
	uint32_t x = 7;

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + round % 60;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245 + 12345;
			lo[i] = (x >> 8) % 40 * 16;
			x = x * 1103515245 + 12345;
			hi[i] = lo[i] + (x >> 8) % 12 * 16;
			ends[2 * i] = lo[i];
			ends[2 * i + 1] = hi[i];
			dead[i] = false;
		}
		cr_assert(eq(int, profconv__stab_init(&s, ends, 2 * n), 0));
		cr_assert(eq(int, profconv__stab_init(&r, ends, 2 * n), 0));
		for (size_t i = 0; i < n; i++)
			profconv__stab_add(&s, lo[i], hi[i], (uint32_t)i);
		cr_assert(eq(int, profconv__stab_build_removable(&r, lo, hi,
		    n), 0));
		for (uint64_t a = 0; a < 52 * 16; a += 8)
			cr_assert(eq(u32, profconv__stab_min(&s, a),
			    scan(lo, hi, NULL, n, a)), "round %d at %llu",
			    round, (unsigned long long)a);
		for (size_t k = 0; k < n; k += 2) {
			x = x * 1103515245 + 12345;
			dead[(x >> 8) % n] = true;
			for (uint64_t a = 0; a < 52 * 16; a += 8)
				cr_assert(eq(u32, profconv__stab_min_alive(&r,
				    a, dead), scan(lo, hi, dead, n, a)));
		}
		profconv__stab_free(&s);
		profconv__stab_free(&r);
	}
}
