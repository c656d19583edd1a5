/* SPDX-License-Identifier: MIT */
/*
 * view_fixture.h - an empty profile in P, made afresh for every test,
 * for the tests of view/ that build their samples by hand; an inline
 * chain under main, for test_view.c and test_view_names.c.
 */
#ifndef PROFCONV_TEST_VIEW_FIXTURE_H
#define PROFCONV_TEST_VIEW_FIXTURE_H

#include "view_helpers.h"

static struct profconv_profile *p;

static inline void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
}

static inline void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

/* A heap profile: one sample type in bytes. */
static inline void
heap_types(void)
{
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
}

/* One sample of 9 counts: main (0x10) calling a location (0x20) where
 * leaf is inlined into middle, inlined into outer. */
static inline void
inline_chain(void)
{
	uint32_t m, a, b, c, lm, l;
	int64_t val = 9;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	a = add_fn(p, "leaf", "");
	b = add_fn(p, "middle", "");
	c = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	l = LOCN(p, 0, 0x20, 1, a, b, c);
	SAMPLE(p, &val, l, lm);
}

#endif /* PROFCONV_TEST_VIEW_FIXTURE_H */
