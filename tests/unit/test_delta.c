/* SPDX-License-Identifier: MIT */
/*
 * test_delta.c - the rules of a change between two profiles
 * (view/delta.c): the reference for percentages (the base's total, as
 * pprof's -diff_base), the noise floor, and how a change is judged.
 */

#include "config.h"

#include <stdint.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "view/delta.h"

#include <profconv.h>

static void
reference_is_the_base_total_else_the_current(void)
{
	struct pc_delta_scale s;

	profconv__delta_scale(&s, 200, 300, 0);
	cr_expect(eq(i64, s.reference, 200));
	cr_expect(eq(i64, s.floor, 1));
	cr_expect(eq(dbl, profconv__delta_percent(&s, 50), 25.0));
	profconv__delta_scale(&s, 0, 300, 0);
	cr_expect(eq(i64, s.reference, 300));
	profconv__delta_scale(&s, 0, 0, 0);
	cr_expect(eq(dbl, profconv__delta_percent(&s, 5), 0.0));
}

static void
floor_is_a_share_of_the_reference_rounded_up(void)
{
	struct pc_delta_scale s;

	profconv__delta_scale(&s, 200, 1000, 1);
	cr_expect(eq(i64, s.floor, 2));
	cr_expect(eq(int, profconv__delta_change(&s, 1, 100, 101), PC_SAME));
	cr_expect(eq(int, profconv__delta_change(&s, -1, 100, 99), PC_SAME));
	cr_expect(eq(int, profconv__delta_change(&s, 2, 100, 102), PC_GREW));
	profconv__delta_scale(&s, 201, 0, 1);
	cr_expect(eq(i64, s.floor, 3));
	profconv__delta_scale(&s, INT64_MAX, 0, 100);
	cr_expect(eq(i64, s.floor, INT64_MAX));
	profconv__delta_scale(&s, 10, 0, -5);	/* nonsense: no floor */
	cr_expect(eq(i64, s.floor, 1));
}

static void
judges_direction_new_and_gone(void)
{
	struct pc_delta_scale s;

	profconv__delta_scale(&s, 100, 100, 0);
	cr_expect(eq(int, profconv__delta_change(&s, 0, 5, 5), PC_SAME));
	cr_expect(eq(int, profconv__delta_change(&s, 20, 0, 20), PC_NEW));
	cr_expect(eq(int, profconv__delta_change(&s, -20, 20, 0), PC_GONE));
	cr_expect(eq(int, profconv__delta_change(&s, 20, 10, 30), PC_GREW));
	cr_expect(eq(int, profconv__delta_change(&s, -5, 10, 5), PC_SHRANK));
	/* inferno#295: judged by the given change, a whole one here. */
	cr_expect(eq(int, profconv__delta_change(&s, 40, 20, 60), PC_GREW));
	/* An own change of 0 in a frame that grew is no change. */
	cr_expect(eq(int, profconv__delta_change(&s, 0, 20, 60), PC_SAME));
	cr_expect(eq(int, profconv__delta_change(&s, INT64_MIN, 1, 1), PC_SHRANK));
}

Test(delta, scales_and_judges_a_change)
{
	reference_is_the_base_total_else_the_current();
	floor_is_a_share_of_the_reference_rounded_up();
	judges_direction_new_and_gone();
}

static void
saturates_and_names(void)
{
	cr_expect(eq(i64, profconv__delta(5, 8), 3));
	cr_expect(eq(i64, profconv__delta(-1, INT64_MAX), INT64_MAX));
	cr_expect(eq(i64, profconv__delta(1, INT64_MIN), INT64_MIN));
	cr_expect(eq(str, (char *)profconv__change_name(PC_GONE), "gone"));
	cr_expect(eq(str, (char *)profconv__change_name(PC_NEW), "new"));
	cr_expect(eq(str, (char *)profconv__change_name((enum pc_change)42),
	    "same"));
}

/* A base's samples count negated, so the parts add up to the change. */
static void
parts_of_a_change(void)
{
	int64_t sum = 0;

	cr_expect(eq(i64, profconv__delta_part(7, false), 7));
	cr_expect(eq(i64, profconv__delta_part(7, true), -7));
	cr_expect(eq(i64, profconv__delta_part(-7, true), 7));
	cr_expect(eq(i64, profconv__delta_part(INT64_MIN, true), INT64_MAX));
	/* base 30 + 20, cur 45: -50 + 45 = profconv__delta(50, 45). */
	sum += profconv__delta_part(30, true);
	sum += profconv__delta_part(20, true);
	sum += profconv__delta_part(45, false);
	cr_expect(eq(i64, sum, profconv__delta(50, 45)));
}

Test(delta, saturating_arithmetic_and_names)
{
	saturates_and_names();
	parts_of_a_change();
}

/* pprof's computeTotal: the magnitudes of one sample type, saturating. */
Test(delta, profile_total_of_magnitudes)
{
	struct profconv_profile *p = NULL;
	uint32_t loc = 0;
	int64_t v[2];

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	cr_assert(eq(int, profconv_profile_add_location(p, 0, 0x10, NULL, 0,
	    0, &loc), 0));
	v[0] = 3, v[1] = -40;
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc, 1, v, NULL, 0),
	    0));
	v[0] = -2, v[1] = 100;
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc, 1, v, NULL, 0),
	    0));
	cr_expect(eq(i64, profconv__delta_total(p, 0), 5));
	cr_expect(eq(i64, profconv__delta_total(p, 1), 140));
	cr_expect(eq(i64, profconv__delta_total(p, 2), 0));	/* no such type */
	v[0] = INT64_MIN, v[1] = INT64_MAX;
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc, 1, v, NULL, 0),
	    0));
	cr_expect(eq(i64, profconv__delta_total(p, 0), INT64_MAX));
	cr_expect(eq(i64, profconv__delta_total(p, 1), INT64_MAX));
	profconv_profile_free(p);
}
