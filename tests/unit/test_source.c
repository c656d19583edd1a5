/* SPDX-License-Identifier: MIT */
/*
 * test_source.c - finding and reading the sources an annotated listing
 * shows (lib/report/source.c): lines as Go's ScanLines splits them, a
 * file found under the search path, one not found, one read once.
 */

#include "config.h"

#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/base.h"
#include "report/list.h"

/* Before source_fixture.h, which writes into it. */
static char dir[] = "/tmp/profconv-source-XXXXXX";

#include "source_fixture.h"

static void
setup(void)
{
	cr_assert(not(zero(ptr, mkdtemp(dir))));
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)system(cmd);
}

TestSuite(source, .init = setup, .fini = teardown);

/* Lines as Go's ScanLines splits them, past the index's marks. */
Test(source, text_lines)
{
	struct pc_text t = { 0 };
	char buf[4096];
	const char *x;
	size_t n = 0, len;
	int i;

	for (i = 1; i <= 200; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "l%d\r\n", i);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "last");
	cr_assert(eq(int, profconv__text_index(&t, buf, n), 0));
	cr_expect(eq(sz, t.line_count, 201));
	for (i = 1; i <= 200; i++) {
		char want[16];

		snprintf(want, sizeof(want), "l%d", i);
		cr_assert(profconv__text_line(&t, i, &x, &len));
		cr_expect(eq(int, (int)len, (int)strlen(want)));
		cr_expect(zero(int, strncmp(x, want, len)), "line %d", i);
	}
	cr_assert(profconv__text_line(&t, 201, &x, &len));
	cr_expect(eq(int, (int)len, 4));
	cr_expect(not(profconv__text_line(&t, 202, &x, &len)));
	cr_expect(not(profconv__text_line(&t, 0, &x, &len)));
	free(t.mark);
}

/* One file by many names is read once: the same text. */
static void
one_file_read_once(void)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	const struct pc_source *a, *b;
	struct pc_sources *s;
	char l[256];

	write_file("one.c", "x\ny\n");
	snprintf(l, sizeof(l), "%s/two.c", dir);
	cr_assert(eq(int, symlink("one.c", l), 0));
	o.source_path = dir;
	cr_assert(eq(int, profconv__sources_new(&s, &o), 0));
	cr_assert(eq(int, profconv__source_get(s, "one.c", "one.c", "", &a), 0));
	cr_assert(eq(int, profconv__source_get(s, "two.c", "two.c", "", &b), 0));
	cr_expect(not(zero(ptr, (void *)a->text)));
	cr_expect(eq(ptr, (void *)a->text, (void *)b->text));
	profconv__sources_free(s);
}

/* A relative name under the search path: found, its lines numbered from
 * 1, the last without its line break; none past it. */
static void
found_under_the_search_path(void)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	const struct pc_source *src;
	struct pc_sources *s;
	char want[256];
	const char *x;
	size_t len;

	write_file("a.c", "first\nsecond\n");
	o.source_path = dir;
	cr_assert(eq(int, profconv__sources_new(&s, &o), 0));
	cr_assert(eq(int, profconv__source_get(s, "a.c", "a.c", "", &src), 0),
	    "%s", ERRMSG);
	cr_assert(not(zero(ptr, (void *)src->text)));
	snprintf(want, sizeof(want), "%s/a.c", dir);
	cr_expect(eq(str, src->path, want));
	cr_assert(profconv__source_line(src, 2, &x, &len));
	cr_expect(eq(sz, len, 6));
	cr_expect(zero(int, strncmp(x, "second", 6)));
	cr_expect(not(profconv__source_line(src, 3, &x, &len)));
	cr_expect(not(profconv__source_line(NULL, 1, &x, &len)));
	profconv__sources_free(s);
}

/* A file not found is no error: no text, no path, and a note that says
 * what was tried. */
static void
not_found_is_a_note(void)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	const struct pc_source *src;
	struct pc_sources *s;

	o.source_path = dir;
	cr_assert(eq(int, profconv__sources_new(&s, &o), 0));
	cr_assert(eq(int, profconv__source_get(s, "gone.c", "gone.c", "",
	    &src), 0), "%s", ERRMSG);
	cr_expect(zero(ptr, (void *)src->text));
	cr_expect(zero(ptr, src->path));
	cr_assert(not(zero(ptr, src->note)));
	cr_expect(not(zero(ptr, strstr(src->note, "gone.c"))), "%s",
	    src->note);
	profconv__sources_free(s);
	profconv__sources_free(NULL);
}

/* Names looked up under the search path: not found, found, read once. */
Test(source, files_looked_up_under_the_search_path)
{
	not_found_is_a_note();
	found_under_the_search_path();
	one_file_read_once();
}
