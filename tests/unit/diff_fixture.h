/* SPDX-License-Identifier: MIT */
/*
 * diff_fixture.h - heap profiles built by hand, for the tests of
 * diffing two profiles: the diff, its table and retention.
 */
#ifndef PROFCONV_TEST_DIFF_FIXTURE_H
#define PROFCONV_TEST_DIFF_FIXTURE_H

#include "writer_fixture.h"

/*
 * A heap profile with alloc and inuse counters, values per stack
 * { alloc_objects, alloc_space, inuse_objects, inuse_space }.
 */
static inline struct profconv_profile *
heap(const int64_t (*v)[4], const char *const *leaf, size_t n)
{
	static const char *const types[] = { "alloc_objects", "alloc_space",
		"inuse_objects", "inuse_space" };
	struct profconv_profile *p;
	uint32_t m, f, lm, l;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	for (i = 0; i < 4; i++)
		profconv_profile_add_sample_type(p, types[i],
		    i % 2 ? "bytes" : "count");
	m = add_fn(p, "main", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	for (i = 0; i < n; i++) {
		f = add_fn(p, leaf[i], "");
		l = LOC1(p, 0, 0x100 + 16 * i, f, 1);
		SAMPLE(p, v[i], l, lm);
	}
	return p;
}

/* A profile of TYPES (units "count" but for "delay") with two stacks. */
static inline struct profconv_profile *
plain(const char *t1, const char *t2, int64_t g1, int64_t g2, int64_t s1,
    int64_t s2)
{
	struct profconv_profile *p;
	uint32_t m, g, s, lm, lg, ls;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, t1, "count");
	if (t2 != NULL)
		profconv_profile_add_sample_type(p, t2, "nanoseconds");
	m = add_fn(p, "main", "/src/main.go");
	g = add_fn(p, "sync.(*Mutex).Lock", "/go/src/sync/mutex.go");
	s = add_fn(p, "runtime.gopark", "/go/src/runtime/proc.go");
	lm = LOC1(p, 0, 0x10, m, 7);
	lg = LOC1(p, 0, 0x20, g, 81);
	ls = LOC1(p, 0, 0x30, s, 363);
	SAMPLE(p, ((int64_t[]){ g1, g2 }), lg, lm);
	SAMPLE(p, ((int64_t[]){ s1, s2 }), ls, lm);
	return p;
}

#endif /* PROFCONV_TEST_DIFF_FIXTURE_H */
