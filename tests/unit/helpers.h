/* SPDX-License-Identifier: MIT */
/* helpers.h - shared bits of the Criterion unit tests. */
#ifndef PROFCONV_TEST_HELPERS_H
#define PROFCONV_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

/* Criterion's eq(str, ...) wants char *. */
#define ERRMSG ((char *)profconv_errmsg())

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* Fail the running test when LeakSanitizer finds a leak now. */
#define ASSERT_NO_LEAKS() \
	cr_assert(eq(int, __lsan_do_recoverable_leak_check(), 0), "leak found")
#else
#define ASSERT_NO_LEAKS() ((void)0)
#endif

/* A stream into memory: once it is closed, *BUF (malloc'd, the
 * caller's) and *LEN hold what was written. */
static inline FILE *
mem_stream(char **buf, size_t *len)
{
	FILE *fp;

	*buf = NULL;
	fp = open_memstream(buf, len);
	cr_assert(not(zero(ptr, fp)));
	return fp;
}

/* Location id J (leaf first) of sample I of PROF, which has one. */
static inline uint32_t
sample_location(const struct profconv_profile *prof, size_t i, size_t j)
{
	uint32_t *ids, id;
	size_t n = 0;

	cr_assert(eq(int, profconv_profile_sample_locations(prof, i, NULL, 0,
	    &n), 0));
	cr_assert(lt(sz, j, n), "sample %zu has %zu locations", i, n);
	ids = malloc(n * sizeof(*ids));
	cr_assert(not(zero(ptr, ids)));
	cr_assert(eq(int, profconv_profile_sample_locations(prof, i, ids, n,
	    NULL), 0));
	id = ids[j];
	free(ids);
	return id;
}

/* Sample I of PROF has the N addresses WANT, leaf first. */
static inline void
expect_stack(const struct profconv_profile *prof, size_t i,
    const uint64_t *want, size_t n)
{
	struct profconv_location loc;
	struct profconv_sample s;
	size_t j;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(sz, s.nlocations, n), "sample %zu", i);
	for (j = 0; j < n; j++) {
		cr_assert(eq(int, profconv_profile_location(prof,
		    sample_location(prof, i, j), &loc), 0));
		cr_assert(eq(u64, loc.address, want[j]), "sample %zu frame %zu",
		    i, j);
	}
}

/* Sample I of PROF has V0 and V1 in its first two value slots. */
static inline void
expect_two_values(const struct profconv_profile *prof, size_t i, int64_t v0,
    int64_t v1)
{
	struct profconv_sample s;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(i64, s.values[0], v0), "sample %zu", i);
	cr_assert(eq(i64, s.values[1], v1), "sample %zu", i);
}

/* Sample I of PROF has the N values WANT, through the public API; every
 * slot is checked, so one wrong value does not hide the next. */
static inline void
expect_values(const struct profconv_profile *prof, size_t i,
    const int64_t *want, size_t n)
{
	struct profconv_sample s;
	size_t j;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	for (j = 0; j < n; j++)
		cr_expect(eq(i64, s.values[j], want[j]), "sample %zu value %zu",
		    i, j);
}

#endif /* PROFCONV_TEST_HELPERS_H */
