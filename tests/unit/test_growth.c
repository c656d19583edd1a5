/* SPDX-License-Identifier: MIT */
/*
 * test_growth.c - keeping only some samples (lib/transform/growth.c):
 * the one definition of "grew" for each set of sample types, the leak
 * view that keeps what grew, and samples kept as a caller marked them.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "transform/transform.h"

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(growth, .fini = drop);

/* A profile of the NT types TYPES (all "count"), no samples. */
static struct profconv_profile *
typed(const char *const *types, size_t nt)
{
	struct profconv_profile *p;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	for (size_t i = 0; i < nt; i++)
		cr_assert(eq(int, profconv_profile_add_sample_type(p, types[i],
		    "count"), 0));
	return p;
}

/* Only in-use counters decide when there are any: alloc going up with
 * in-use going down is no growth. */
static void
inuse_counters_decide(void)
{
	static const char *const t[] = { "alloc_objects", "alloc_space",
		"inuse_objects", "inuse_space" };
	static const int64_t alloc_up[] = { 5, 500, -1, -100 };
	static const int64_t objects_up[] = { 0, 0, 1, -100 };
	static const int64_t bytes_up[] = { 0, 0, -1, 8 };
	static const int64_t flat[] = { 9, 9, 0, 0 };

	prof = typed(t, 4);
	cr_assert(not(profconv__grew(prof, alloc_up)));
	cr_assert(profconv__grew(prof, objects_up));
	cr_assert(profconv__grew(prof, bytes_up));
	cr_assert(not(profconv__grew(prof, flat)));
	drop();
}

/* objects/space stand for in-use counters when there are none; with
 * neither, any value going up is growth. */
static void
objects_space_then_any_value(void)
{
	static const char *const os[] = { "space", "objects" };
	static const char *const cpu[] = { "samples", "cpu" };
	static const int64_t second_up[] = { -3, 1 };
	static const int64_t down[] = { -3, 0 };

	prof = typed(os, 2);
	cr_assert(profconv__grew(prof, second_up));
	cr_assert(not(profconv__grew(prof, down)));
	drop();
	prof = typed(cpu, 2);
	cr_assert(profconv__grew(prof, second_up));
	cr_assert(not(profconv__grew(prof, down)));
	drop();
}

/* The one definition of "grew" for each set of sample types. */
Test(growth, which_values_decide_growth)
{
	inuse_counters_decide();
	objects_space_then_any_value();
}

/* Three samples of a delta profile: the one whose in-use bytes went up
 * is kept; alloc up but in-use down, and nothing changed, go. */
static void
keep_growth_keeps_what_grew(void)
{
	static const char *const t[] = { "alloc_space", "inuse_space" };
	int64_t v[3][2] = { { 100, -50 }, { 0, 0 }, { 10, 30 } };
	struct profconv_sample s;
	uint32_t loc;

	prof = typed(t, 2);
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 0x10, NULL,
	    0, 0, &loc), 0));
	for (size_t i = 0; i < 3; i++)
		cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1,
		    v[i], NULL, 0), 0));
	cr_assert(eq(int, profconv_profile_keep_growth(prof), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_assert(eq(i64, s.values[0], 10));
	cr_assert(eq(i64, s.values[1], 30));
	drop();
}

/* Marked samples stay, in their order. */
static void
keep_marked_keeps_order(void)
{
	static const char *const t[] = { "samples" };
	static const bool keep[] = { true, false, false, true, true };
	struct profconv_sample s;
	uint32_t loc;
	int64_t v;

	prof = typed(t, 1);
	profconv_profile_add_location(prof, 0, 0x10, NULL, 0, 0, &loc);
	for (v = 0; v < 5; v++)
		profconv_profile_add_sample(prof, &loc, 1, &v, NULL, 0);
	profconv__keep_marked(prof, keep);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	for (size_t i = 0; i < 3; i++) {
		profconv_profile_sample(prof, i, &s);
		cr_assert(eq(i64, s.values[0], i == 0 ? 0 : (int64_t)i + 2));
	}
	drop();
}

/* Samples kept because they grew, or because a caller marked them. */
Test(growth, keeps_some_samples)
{
	keep_growth_keeps_what_grew();
	keep_marked_keeps_order();
}
