/* SPDX-License-Identifier: MIT */
/*
 * test_source_path.c - the names and roots of an annotated listing's
 * sources (lib/report/source_path.c): pprof's trimPath and Go's
 * filepath.Clean on a displayed name, and what lies beneath a root.
 */

#include "config.h"

#include <stdlib.h>

#include "base/base.h"
#include "report/list.h"
#include "report/sources.h"
#include "helpers.h"

static char *
display(const char *search, const char *trim, const char *file)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	struct pc_sources *s;
	char *d;

	o.source_path = search;
	o.trim_path = trim;
	cr_assert(eq(int, profconv__sources_new(&s, &o), 0));
	d = profconv__source_display(s, file);
	profconv__sources_free(s);
	return d;
}

#define DISPLAY(search, trim, file, want) do { \
	char *d_ = display((search), (trim), (file)); \
	cr_expect(eq(str, d_, (char *)(want)), "%s", (file)); \
	free(d_); \
} while (0)

/* pprof's trimPath, then Go's filepath.Clean. */
static void
names_as_pprof_shows_them(void)
{
	DISPLAY(NULL, NULL, "/a/b/../c//d.c", "/a/c/d.c");
	DISPLAY(NULL, NULL, "./x/./y.c", "x/y.c");
	DISPLAY(NULL, NULL, "../../x.c", "../../x.c");
	DISPLAY(NULL, NULL, "/..", "/");
	DISPLAY(NULL, NULL, "/proc/self/cwd/src/a.c", "src/a.c");
	DISPLAY(NULL, "/build", "/build/src/a.c", "src/a.c");
	DISPLAY(NULL, "/build/", "/build/src/a.c", "src/a.c");
	DISPLAY(NULL, "/buil", "/build/src/a.c", "/build/src/a.c");
	DISPLAY(NULL, "/x:/build", "/build/src/a.c", "src/a.c");
	/* Without a trim path, a search directory's last component. */
	DISPLAY("/home/me/proj", NULL, "/ci/proj/src/a.c", "src/a.c");
	DISPLAY("/home/me/proj", "/nothing", "/ci/proj/src/a.c",
	    "/ci/proj/src/a.c");
}

/* The part of ABS under DIR, whole components only: "/a/bc" is not
 * under "/a/b". */
static void
beneath_a_root(void)
{
	cr_expect(eq(str, (char *)profconv__source_beneath("/a/b/c.c", "/a/b"),
	    "c.c"));
	cr_expect(eq(str, (char *)profconv__source_beneath("/a/b", "/a/b"),
	    "."));
	cr_expect(eq(str, (char *)profconv__source_beneath("/a/b/c/d", "/"),
	    "a/b/c/d"));
	cr_expect(zero(ptr, (void *)profconv__source_beneath("/a/bc", "/a/b")));
	cr_expect(zero(ptr, (void *)profconv__source_beneath("/a", "/a/b")));
}

/* A source's displayed name, and the part of it beneath a root. */
Test(source_path, names_and_roots)
{
	names_as_pprof_shows_them();
	beneath_a_root();
}
