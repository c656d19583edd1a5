/* SPDX-License-Identifier: MIT */
/*
 * read_helpers.h - what the "heap profile:" and Go count reader tests
 * share: read a text (it must read, or fail with a given message), then
 * check its sample types, period, samples and frames through the public
 * API.  Not in helpers.h: other reader tests have their own read_text(),
 * read_ok() and expect_fail().
 */
#ifndef PROFCONV_TEST_READ_HELPERS_H
#define PROFCONV_TEST_READ_HELPERS_H

#include <stdint.h>
#include <stdio.h>

#include "helpers.h"

static inline int
read_text(const char *text, struct profconv_profile **prof)
{
	return profconv_profile_read_mem(prof, text, strlen(text), NULL, NULL);
}

static inline struct profconv_profile *
read_ok(const char *text)
{
	struct profconv_profile *prof = NULL;

	cr_assert(eq(int, read_text(text, &prof), 0), "%s", profconv_errmsg());
	return prof;
}

static inline void
expect_fail(const char *text, int code, const char *msg)
{
	struct profconv_profile *prof = NULL;

	cr_assert(eq(int, read_text(text, &prof), code), "%s",
	    profconv_errmsg());
	cr_expect(eq(ptr, prof, NULL));
	cr_expect(eq(str, ERRMSG, (char *)msg));
}

/* The sample types as "type/unit", space separated. */
static inline void
expect_types(const struct profconv_profile *prof, const char *want)
{
	struct profconv_value_type vt;
	char buf[256] = "";
	size_t i, n = 0;

	for (i = 0; i < profconv_profile_sample_type_count(prof); i++) {
		cr_assert(eq(int, profconv_profile_sample_type(prof, i, &vt),
		    0));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s/%s",
		    i != 0 ? " " : "", vt.type, vt.unit);
	}
	cr_expect(eq(str, buf, (char *)want));
}

static inline void
expect_period(const struct profconv_profile *prof, const char *type,
    const char *unit, int64_t period)
{
	struct profconv_value_type vt;

	cr_expect(eq(i64, profconv_profile_period(prof, &vt), period));
	cr_expect(eq(str, (char *)vt.type, (char *)type));
	cr_expect(eq(str, (char *)vt.unit, (char *)unit));
}

/* Sample I's values (as many as WANT has) and its stack size. */
static inline void
expect_sample(const struct profconv_profile *prof, size_t i,
    const int64_t *want, size_t nwant, size_t nlocs)
{
	struct profconv_sample s;
	size_t k;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), nwant));
	for (k = 0; k < nwant; k++)
		cr_expect(eq(i64, s.values[k], want[k]), "sample %zu value %zu",
		    i, k);
	cr_expect(eq(sz, s.nlocations, nlocs), "sample %zu", i);
}

#define EXPECT_SAMPLE(prof, i, nlocs, ...) do { \
	static const int64_t want_[] = { __VA_ARGS__ }; \
	expect_sample((prof), (i), want_, PC_LEN(want_), (nlocs)); \
} while (0)
#define PC_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Frame J of sample I is at ADDR. */
static inline void
expect_frame(const struct profconv_profile *prof, size_t i, size_t j,
    uint64_t addr)
{
	struct profconv_sample s;
	struct profconv_location l;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(lt(sz, j, s.nlocations));
	cr_assert(eq(int, profconv_profile_location(prof,
	    sample_location(prof, i, j), &l), 0));
	cr_expect(eq(u64, l.address, addr), "sample %zu frame %zu", i, j);
}

#endif /* PROFCONV_TEST_READ_HELPERS_H */
