/* SPDX-License-Identifier: MIT */
/* helpers.h - shared bits of the Criterion unit tests. */
#ifndef PROFCONV_TEST_HELPERS_H
#define PROFCONV_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
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
		    s.location_ids[j], &loc), 0));
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

#endif /* PROFCONV_TEST_HELPERS_H */
