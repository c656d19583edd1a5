/* SPDX-License-Identifier: MIT */
/*
 * merge_fixture.h - small heap profiles of one PIE binary, "/bin/app",
 * for the merge, compat and scale tests.  drop is the suites' .fini.
 */
#ifndef PROFCONV_TEST_MERGE_FIXTURE_H
#define PROFCONV_TEST_MERGE_FIXTURE_H

#include "helpers.h"

static struct profconv_profile *a, *b, *out;

static inline void
drop(void)
{
	profconv_profile_free(a);
	profconv_profile_free(b);
	profconv_profile_free(out);
	a = b = out = NULL;
}

/*
 * A heap-shaped profile of "/bin/app" loaded at BASE: two stacks,
 * main->alloc (values V1) and main->other (values V2); addresses are
 * BASE + fixed offsets, as with two runs of one PIE binary.
 */
static inline struct profconv_profile *
app(uint64_t base, int64_t v1, int64_t v2, const char *label)
{
	struct profconv_profile *p;
	struct profconv_mapping m = { base, base + 0x5000, 0, "/bin/app",
		"b1d", 0, 0, 0, 0 };
	struct profconv_label l = { .key = "thread", .str = label };
	uint32_t loc[3], s1[2], s2[2];
	int64_t x1[2] = { v1, v1 * 16 }, x2[2] = { v2, v2 * 16 };

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 512);
	profconv_profile_add_mapping(p, &m, NULL);
	profconv_profile_add_location(p, 1, base + 0x1100, NULL, 0, 0, &loc[0]);
	profconv_profile_add_location(p, 1, base + 0x1200, NULL, 0, 0, &loc[1]);
	profconv_profile_add_location(p, 1, base + 0x2300, NULL, 0, 0, &loc[2]);
	s1[0] = loc[1];
	s1[1] = loc[0];
	s2[0] = loc[2];
	s2[1] = loc[0];
	profconv_profile_add_sample(p, s1, 2, x1, label ? &l : NULL, label ? 1 : 0);
	profconv_profile_add_sample(p, s2, 2, x2, label ? &l : NULL, label ? 1 : 0);
	return p;
}

static inline int64_t
total(const struct profconv_profile *p, size_t i)
{
	int64_t t;

	cr_assert(eq(int, profconv_profile_total(p, i, &t), 0));
	return t;
}

/* APP's profile with pprof's four heap types: alloc = X, in use = Y. */
static inline struct profconv_profile *
heap4(uint64_t base, int64_t x, int64_t y)
{
	struct profconv_profile *p;
	struct profconv_mapping m = { base, base + 0x5000, 0, "/bin/app",
		"b1d", 0, 0, 0, 0 };
	uint32_t loc[2];
	int64_t v[4] = { x, x * 16, y, y * 16 };

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	profconv_profile_add_sample_type(p, "inuse_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 512);
	profconv_profile_add_mapping(p, &m, NULL);
	profconv_profile_add_location(p, 1, base + 0x1100, NULL, 0, 0, &loc[1]);
	profconv_profile_add_location(p, 1, base + 0x1200, NULL, 0, 0, &loc[0]);
	profconv_profile_add_sample(p, loc, 2, v, NULL, 0);
	return p;
}

static inline void
expect_type(const struct profconv_profile *p, size_t i, const char *type)
{
	struct profconv_value_type vt;

	cr_assert(eq(int, profconv_profile_sample_type(p, i, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, (char *)type));
}

#endif /* PROFCONV_TEST_MERGE_FIXTURE_H */
