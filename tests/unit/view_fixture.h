/* SPDX-License-Identifier: MIT */
/*
 * view_fixture.h - an empty profile in P, made afresh for every test,
 * for the tests of view/ that build their samples by hand.
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

#endif /* PROFCONV_TEST_VIEW_FIXTURE_H */
