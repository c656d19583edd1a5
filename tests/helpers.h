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

#endif /* PROFCONV_TEST_HELPERS_H */
