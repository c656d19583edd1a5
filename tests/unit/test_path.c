/* SPDX-License-Identifier: MIT */
/*
 * test_path.c - file paths as Go's path/filepath treats them
 * (lib/base/path.c): lists split as SplitList does, the prefixes
 * pprof's trimPath takes off, and a few more of Clean's cases (Go's own
 * are in test_list.c).
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "base/base.h"

Test(path, clean_trailing_and_leading_dots)
{
	static const char *const c[][2] = {
		{ "./", "." }, { "../", ".." }, { "//abc//", "/abc" },
		{ "a/../../b/./c/", "../b/c" }, { "/..", "/" },
		{ "a/b/../../..", ".." },
	};

	for (size_t i = 0; i < PC_ARRAY_LEN(c); i++) {
		char *d = profconv__clean_path(c[i][0]);

		cr_assert(not(zero(ptr, d)));
		cr_expect(eq(str, d, (char *)c[i][1]), "'%s'", c[i][0]);
		free(d);
	}
}

/* "a::b" has an empty element; NULL has none. */
Test(path, list_elements_as_split_list)
{
	const char *list = "a::bc", *el;
	size_t len;

	cr_assert(profconv__path_next_elem(&list, &el, &len));
	cr_assert(eq(sz, len, 1));
	cr_assert(eq(int, strncmp(el, "a", 1), 0));
	cr_assert(profconv__path_next_elem(&list, &el, &len));
	cr_assert(eq(sz, len, 0));
	cr_assert(profconv__path_next_elem(&list, &el, &len));
	cr_assert(eq(sz, len, 2));
	cr_assert(eq(int, strncmp(el, "bc", 2), 0));
	cr_assert(not(profconv__path_next_elem(&list, &el, &len)));
	list = NULL;
	cr_assert(not(profconv__path_next_elem(&list, &el, &len)));
}

/* The first TRIM prefix that PATH has, at a '/'; Bazel's sandbox
 * prefix whatever TRIM is; else PATH itself. */
static void
trim_takes_the_first_prefix_at_a_slash(void)
{
	static const char p[] = "/some/path/to/x.c";

	cr_assert(eq(str, (char *)profconv__trim_path(p, "/some/path", NULL),
	    "to/x.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(p, "/some/path/", NULL),
	    "to/x.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(p, "/nope:/some", NULL),
	    "path/to/x.c"));
	/* Not at a component boundary: no trim. */
	cr_assert(eq(str, (char *)profconv__trim_path(p, "/some/pa", NULL),
	    (char *)p));
	cr_assert(eq(str, (char *)profconv__trim_path(
	    "/proc/self/cwd/./src/a.c", "/x", NULL), "src/a.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(
	    "/proc/self/cwd/src/a.c", NULL, NULL), "src/a.c"));
	cr_assert(eq(str, (char *)profconv__trim_path("rel/a.c", "", ""),
	    "rel/a.c"));
}

/* Without TRIM, the name starts after "/BASE/" of the first search
 * directory whose base is in the path; with TRIM, search is unused. */
static void
trim_by_search_directory_base(void)
{
	static const char p[] = "/build/tmp/project/src/x.c";

	cr_assert(eq(str, (char *)profconv__trim_path(p, NULL,
	    "/home/me/other:/home/me/project"), "src/x.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(p, "",
	    "/home/me/project/"), "src/x.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(p, "/build",
	    "/home/me/project"), "tmp/project/src/x.c"));
	cr_assert(eq(str, (char *)profconv__trim_path(p, NULL, "/home/me/none"),
	    (char *)p));
}

/* What trim_path takes off: a TRIM prefix, else a search directory's base. */
Test(path, trim_path_prefixes)
{
	trim_takes_the_first_prefix_at_a_slash();
	trim_by_search_directory_base();
}
