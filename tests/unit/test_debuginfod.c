/* SPDX-License-Identifier: MIT */
/*
 * test_debuginfod.c - asking debuginfod for a source file, without the
 * network: what is refused before a server is asked, and the answer when
 * no server is set (lib/symbolize/debuginfod.c).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define ID "0011223344556677889900aabbccddeeff001122"

static void
refuses_what_is_no_build_id(void)
{
	static const char *const bad[] = { "", "abc", "../x", "00/11" };
	char *path = (char *)"set";
	size_t i;

	cr_assert(eq(int, profconv_debuginfod_find_source(NULL, "/a.c", &path,
	    NULL), PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, path));
	cr_assert(eq(str, ERRMSG, "no build id"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert(eq(int, profconv_debuginfod_find_source(bad[i],
		    "/a.c", &path, NULL), PROFCONV_ENOTFOUND), "%s", bad[i]);
		cr_assert(eq(str, ERRMSG, "no build id"), "%s", bad[i]);
	}
}

/* debuginfod serves sources by their absolute recorded path only. */
static void
refuses_a_relative_path(void)
{
	char *path = (char *)"set";

	cr_assert(eq(int, profconv_debuginfod_find_source(ID, "src/a.c", &path,
	    NULL), PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, path));
	cr_assert(eq(str, ERRMSG, "not an absolute path"));
	cr_assert(eq(int, profconv_debuginfod_find_source(ID, NULL, &path,
	    NULL), PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG, "not an absolute path"));
}

/*
 * With DEBUGINFOD_URLS unset, elfutils' client asks no server and
 * answers -ENOSYS (debuginfod_find_source(3)); without the client
 * library, the message names it.  Either way, no network.
 */
static void
answers_not_found_without_a_server(void)
{
	static const char enosys[] = "Function not implemented for build "
	    "id " ID;
	char *path = (char *)"set";

	cr_assert(eq(int, unsetenv("DEBUGINFOD_URLS"), 0));
	cr_assert(eq(int, profconv_debuginfod_find_source(ID, "/src/a.c",
	    &path, NULL), PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, path));
	if (strncmp(profconv_errmsg(), "libdebuginfod.so.1 not loaded: ",
	    31) != 0)
		cr_assert(eq(str, ERRMSG, (char *)enosys));
}

/* Refused before a server is asked, or no server set: not found. */
Test(debuginfod, not_found_without_the_network)
{
	refuses_what_is_no_build_id();
	refuses_a_relative_path();
	answers_not_found_without_a_server();
}
