/* SPDX-License-Identifier: MIT */
/*
 * test_scale.c - scaling a profile's values in place and normalizing it
 * to another's totals, pprof's -normalize (lib/transform/scale.c).
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "helpers.h"
#include "merge_fixture.h"

TestSuite(scale, .fini = drop);

static void
scale_rounds_and_drops_zeroed_samples(void)
{
	double r[2] = { 0.5, 1 };
	struct profconv_sample s;

	a = app(0x1000, 3, 1, NULL);		/* objects 3 and 1 */
	cr_assert(eq(int, profconv_profile_scale(a, r), 0));
	/* 1.5 rounds to 2 (away from zero); 0.5 rounds to 1. */
	cr_assert(eq(sz, profconv_profile_sample_count(a), 2));
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[0], 2));
	cr_assert(eq(i64, s.values[1], 48));
	r[0] = 0.1;
	cr_assert(eq(int, profconv_profile_scale(a, r), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(a), 0));
}

static void
scale_refuses_ratios_that_are_not_numbers(void)
{
	double r[2] = { NAN, 1 };
	struct profconv_sample s;

	a = app(0x1000, 3, 1, NULL);
	cr_assert(eq(int, profconv_profile_scale(a, r), PROFCONV_EINVAL));
	r[0] = 2;
	r[1] = INFINITY;	/* INFINITY * 0 would be NaN too */
	cr_assert(eq(int, profconv_profile_scale(a, r), PROFCONV_EINVAL));
	r[1] = -INFINITY;
	cr_assert(eq(int, profconv_profile_scale(a, r), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_profile_scale(NULL, r), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_profile_scale(a, NULL), PROFCONV_EINVAL));
	/* Refused before anything changed. */
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[0], 3));
	cr_assert(eq(i64, s.values[1], 48));
}

static void
normalize_matches_totals(void)
{
	a = app(0x1000, 10, 30, NULL);		/* 40 objects */
	b = app(0x2000, 1, 3, NULL);		/* 4 objects */
	cr_assert(eq(int, profconv_profile_normalize(b, a), 0));
	cr_assert(eq(i64, total(b, 0), 40));
	cr_assert(eq(i64, total(b, 1), 640));
}

/* A, new, of objects and space with no samples yet; returns the id of
 * its one location, for the samples a test adds. */
static uint32_t
objects_and_space(void)
{
	uint32_t loc;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	profconv_profile_add_sample_type(a, "space", "bytes");
	profconv_profile_add_location(a, 0, 0x10, NULL, 0, 0, &loc);
	return loc;
}

/* Products beyond int64 stop at its ends; a type scaled by 1 is left
 * as it is. */
static void
saturates_at_the_ends(void)
{
	double r[2] = { 4, 1 };
	struct profconv_sample s;
	int64_t v[2] = { (int64_t)1 << 62, 7 };
	uint32_t loc = objects_and_space();

	profconv_profile_add_sample(a, &loc, 1, v, NULL, 0);
	v[0] = -v[0];
	profconv_profile_add_sample(a, &loc, 1, v, NULL, 0);
	cr_assert(eq(int, profconv_profile_scale(a, r), 0));
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[0], INT64_MAX));
	cr_assert(eq(i64, s.values[1], 7));
	profconv_profile_sample(a, 1, &s);
	cr_assert(eq(i64, s.values[0], INT64_MIN));
}

/*
 * A sample stays when a type that was scaled is nonzero: scaling only
 * space drops a sample whose space is 0 even though it has objects;
 * ratios all 1 change nothing, zero samples included.
 */
static void
keeps_samples_by_the_scaled_types(void)
{
	double ones[2] = { 1, 1 }, half_space[2] = { 1, 0.5 };
	int64_t v[2] = { 5, 0 };
	struct profconv_sample s;
	uint32_t loc = objects_and_space();

	profconv_profile_add_sample(a, &loc, 1, v, NULL, 0);
	v[1] = 3;
	profconv_profile_add_sample(a, &loc, 1, v, NULL, 0);
	cr_assert(eq(int, profconv_profile_scale(a, ones), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(a), 2));
	cr_assert(eq(int, profconv_profile_scale(a, half_space), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(a), 1));
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[0], 5));
	cr_assert(eq(i64, s.values[1], 2));	/* 1.5 away from zero */
}

Test(scale, scales_values_in_place)
{
	scale_rounds_and_drops_zeroed_samples();
	drop();
	scale_refuses_ratios_that_are_not_numbers();
	drop();
	saturates_at_the_ends();
	drop();
	keeps_samples_by_the_scaled_types();
}

/* Normalizing needs the same types in the same order; a type whose
 * total is 0 has nothing to scale up, and stays 0. */
static void
normalize_refuses_other_types_and_keeps_zero_totals(void)
{
	int64_t v[2] = { 0, 16 };
	uint32_t loc;

	a = app(0x1000, 10, 30, NULL);		/* 40 objects, 640 bytes */
	cr_assert(eq(int, profconv_profile_new(&b), 0));
	profconv_profile_add_sample_type(b, "space", "bytes");
	profconv_profile_add_sample_type(b, "objects", "count");
	profconv_profile_set_period(b, "space", "bytes", 512);
	cr_assert(eq(int, profconv_profile_normalize(b, a), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "profiles have different sample types"));
	profconv_profile_free(b);
	cr_assert(eq(int, profconv_profile_new(&b), 0));
	profconv_profile_add_sample_type(b, "objects", "count");
	profconv_profile_add_sample_type(b, "space", "bytes");
	profconv_profile_set_period(b, "space", "bytes", 512);
	profconv_profile_add_location(b, 0, 0x10, NULL, 0, 0, &loc);
	profconv_profile_add_sample(b, &loc, 1, v, NULL, 0);
	cr_assert(eq(int, profconv_profile_normalize(b, a), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(b), 1));
	cr_assert(eq(i64, total(b, 0), 0));
	cr_assert(eq(i64, total(b, 1), 640));
}

Test(scale, normalizes_to_totals)
{
	normalize_matches_totals();
	drop();
	normalize_refuses_other_types_and_keeps_zero_totals();
}
