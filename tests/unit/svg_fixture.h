/* SPDX-License-Identifier: MIT */
/*
 * svg_fixture.h - a profile of two stacks for the picture writers, and
 * a count of a text's occurrences in a picture, and a check of a colour.
 * For test_svg.c, test_svg_palmap.c, test_svg_diff.c and
 * test_svg_palette.c.
 */
#ifndef PROFCONV_TEST_SVG_FIXTURE_H
#define PROFCONV_TEST_SVG_FIXTURE_H

#include <string.h>

#include "helpers.h"

/* Colour C is R, G, B; each channel checked on its own, so a wrong one
 * does not hide the others. */
#define EXPECT_RGB(c, R, G, B) do { \
	struct pc_rgb c_ = (c); \
	cr_expect(eq(int, c_.r, R)); \
	cr_expect(eq(int, c_.g, G)); \
	cr_expect(eq(int, c_.b, B)); \
} while (0)

/*
 * A profile of objects and space with two stacks over the functions
 * NAMES[0..2], root first: NAMES[2] <- NAMES[1] <- NAMES[0] (3 objects,
 * 300 bytes), and NAMES[0] alone (1, 100).
 */
static inline struct profconv_profile *
two_stacks(const char *const names[3])
{
	struct profconv_profile *p;
	struct profconv_function fn = { 0 };
	struct profconv_line ln = { 0, 1, 0 };
	uint32_t loc[3], id;
	int64_t v[2] = { 3, 300 };
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "objects",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	for (i = 0; i < 3; i++) {
		fn.name = names[i];
		fn.file = "x.c";
		cr_assert(eq(int, profconv_profile_add_function(p, &fn, &id), 0));
		ln.function_id = id;
		cr_assert(eq(int, profconv_profile_add_location(p, 0,
		    0x1000 + i, &ln, 1, 0, &loc[2 - i]), 0));
	}
	/* Leaf first, as samples hold their stacks. */
	cr_assert(eq(int, profconv_profile_add_sample(p, loc, 3, v, NULL, 0), 0));
	v[0] = 1;
	v[1] = 100;
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc[2], 1, v, NULL,
	    0), 0));
	return p;
}

/* How many times NEEDLE occurs in HAY, overlapping ones included. */
static inline size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay++;
	}
	return n;
}

#endif /* PROFCONV_TEST_SVG_FIXTURE_H */
