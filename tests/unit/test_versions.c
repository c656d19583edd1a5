/* SPDX-License-Identifier: MIT */
/*
 * test_versions.c - the one check of an options struct's version
 * (lib/base/versions.c): an older layout read up to where it ended,
 * the fields appended since at their defaults, versions 0 and newer
 * than the library refused; and the write options' real layouts.
 */

#include "config.h"

#include <stddef.h>

#include "helpers.h"
#include "base/base.h"

/* Three versions of one struct: a (1), b (2), c (3). */
struct opts {
	unsigned int version;
	int a;
	int b;
	long c;
};

static const struct opts defaults = { 3, 1, 2, 3 };
static const size_t ends[] = {
	offsetof(struct opts, a) + sizeof(int),
	offsetof(struct opts, b) + sizeof(int),
	sizeof(struct opts),
};
static const struct pc_options_layout layout = { "test", 1, ends, 3,
	&defaults, sizeof(struct opts) };

static void
older_layouts_keep_later_defaults(void)
{
	struct opts src = { 2, 10, 20, 99 }, dst;

	cr_assert(eq(int, profconv__options_take(&dst, &src, &layout), 0));
	cr_assert(eq(u32, dst.version, 3));
	cr_assert(eq(int, dst.a, 10));
	cr_assert(eq(int, dst.b, 20));
	cr_assert(eq(long, dst.c, 3));
	src.version = 1;
	cr_assert(eq(int, profconv__options_take(&dst, &src, &layout), 0));
	cr_assert(eq(int, dst.a, 10));
	cr_assert(eq(int, dst.b, 2));
	src.version = 3;
	cr_assert(eq(int, profconv__options_take(&dst, &src, &layout), 0));
	cr_assert(eq(long, dst.c, 99));
	cr_assert(eq(int, profconv__options_take(&dst, NULL, &layout), 0));
	cr_assert(eq(int, dst.a, 1));
	cr_assert(eq(long, dst.c, 3));
}

static void
refuses_zero_and_newer_versions(void)
{
	struct opts src = { 0, 10, 20, 99 }, dst;

	cr_assert(eq(int, profconv__options_take(&dst, &src, &layout),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "test options version 0 is not one this "
	    "library reads (1 to 3)"));
	src.version = 4;
	cr_assert(eq(int, profconv__options_take(&dst, &src, &layout),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "test options version 4 is not one this "
	    "library reads (1 to 3)"));
}

/* The write options: version 1 had the level only, so a caller built
 * then gets the default thread count (0) whatever follows its struct. */
static void
write_options_version_1(void)
{
	struct profconv_write_options src = { 1, 3, 7 }, dst;

	cr_assert(eq(int, profconv__options_take(&dst, &src,
	    &profconv__options_write), 0));
	cr_assert(eq(u32, dst.version, PROFCONV_WRITE_OPTIONS_VERSION));
	cr_assert(eq(int, dst.level, 3));
	cr_assert(eq(u32, dst.jobs, 0));
	src.version = PROFCONV_WRITE_OPTIONS_VERSION + 1;
	cr_assert(eq(int, profconv__options_take(&dst, &src,
	    &profconv__options_write), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "write options version 3 is not one this "
	    "library reads (1 to 2)"));
}

/* Options structs of every version: defaults, refusals, write options. */
Test(versions, takes_options_by_version)
{
	older_layouts_keep_later_defaults();
	refuses_zero_and_newer_versions();
	write_options_version_1();
}
