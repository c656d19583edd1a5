/* SPDX-License-Identifier: MIT */
/* test_version.c - the version macros agree with the library. */

#include "config.h"

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <string.h>

#include <profconv.h>

static void
macro_matches_runtime_number(void)
{
	cr_assert(eq(u32, profconv_version_number(), PROFCONV_VERSION_NUMBER));
}

static void
string_matches_package_version(void)
{
	cr_assert(eq(str, (char *)profconv_version(), PACKAGE_VERSION));
	cr_assert(eq(str, (char *)profconv_version(), PROFCONV_VERSION_STRING));
}

static void
details_name_every_dependency(void)
{
	const char *d = profconv_version_details();

	cr_assert(strncmp(d, "libprofconv " PACKAGE_VERSION " ", 
	    strlen("libprofconv " PACKAGE_VERSION " ")) == 0, "%s", d);
	cr_assert(strstr(d, " protobuf-c/") != NULL, "%s", d);
	cr_assert(strstr(d, " zlib/") != NULL, "%s", d);
	cr_assert(strstr(d, " libdw/") != NULL, "%s", d);
}

/* Number, string and details: the macros and the library agree. */
Test(version, agrees_with_the_library)
{
	macro_matches_runtime_number();
	string_matches_package_version();
	details_name_every_dependency();
}
