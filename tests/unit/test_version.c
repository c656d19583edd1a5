/* SPDX-License-Identifier: MIT */
/* test_version.c - the version macros agree with the library. */

#include "config.h"

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <string.h>

#include <profconv.h>

Test(version, macro_matches_runtime_number)
{
	cr_assert(eq(u32, profconv_version_number(), PROFCONV_VERSION_NUMBER));
}

Test(version, string_matches_package_version)
{
	cr_assert(eq(str, (char *)profconv_version(), PACKAGE_VERSION));
	cr_assert(eq(str, (char *)profconv_version(), PROFCONV_VERSION_STRING));
}

Test(version, details_name_every_dependency)
{
	const char *d = profconv_version_details();

	cr_assert(strncmp(d, "libprofconv " PACKAGE_VERSION " ", 
	    strlen("libprofconv " PACKAGE_VERSION " ")) == 0, "%s", d);
	cr_assert(strstr(d, " protobuf-c/") != NULL, "%s", d);
	cr_assert(strstr(d, " zlib/") != NULL, "%s", d);
	cr_assert(strstr(d, " libdw/") != NULL, "%s", d);
}
