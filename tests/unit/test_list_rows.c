/* SPDX-License-Identifier: MIT */
/*
 * test_list_rows.c - the annotated listing's tree of frames and its rows
 * (lib/report/list_rows.c): calls inlined under a line, cum counted once
 * per stack, rows for far or extreme line numbers, the page budget, and
 * functions matched by exact name, on profiles built by hand.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/base.h"

/* Before list_fixture.h, which writes into it. */
static char dir[] = "/tmp/profconv-list-rows-XXXXXX";

#include "list_fixture.h"

TestSuite(list_rows, .init = setup, .fini = teardown);

/*
 * A function at lines 3..6 of a file with CRLF line ends and no newline
 * at its end: the range runs from its first line to 5 past its last
 * sampled line, cut at the end of the file; cum counts a line recurring
 * in a stack once; the call inlined at line 5 is nested under it, with
 * its own line's text.
 */
Test(list_rows, whole_listing)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_function fw = { "work", "work", NULL, 3 };
	uint32_t map, work, go, mainf, a, b, m;
	int64_t v1 = 1024, v2 = 3072;
	char path[256], want[2048], *got;

	snprintf(path, sizeof(path), "%s/w.c", dir);
	write_file("w.c", "int x;\r\n\r\nvoid work(void)\r\n{\r\n\tgo();\r\n}\r\n"
	    "static inline void go(void) { m(); }");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	map = add_map(p, 0x400000, 0x500000, "/bin/w");
	fw.file = path;
	cr_assert(eq(int, profconv_profile_add_function(p, &fw, &work), 0));
	go = add_fn(p, "go", path);
	mainf = add_fn(p, "main", "");
	a = loc(map, 0x401000, (struct profconv_line[]){ { go, 7, 0 },
	    { work, 5, 0 } }, 2);
	b = loc(map, 0x401100, (struct profconv_line[]){ { work, 5, 0 } }, 1);
	m = loc(map, 0x401200, (struct profconv_line[]){ { mainf, 1, 0 } }, 1);
	SAMPLE(p, &v1, a, m);
	SAMPLE(p, &v2, a, b, m);
	/* The file is read from beneath a root: here the trim path's. */
	o.trim_path = dir;
	got = listing(p, NULL, "^work$", &o);
	snprintf(want, sizeof(want),
	    "Total: 4kB\n"
	    "ROUTINE ======================== work in w.c\n"
	    "         0        4kB (flat, cum)   100%% of Total\n"
	    "         .          .      3:void work(void)\n"
	    "         .          .      4:{\n"
	    "         .        4kB      5:\tgo();\n"
	    "       4kB        4kB         + go w.c:7: static inline void go(void) { m(); }\n"
	    "         .          .      6:}\n"
	    "         .          .      7:static inline void go(void) { m(); }\n");
	cr_expect(eq(str, got, want));
	free(got);

	/* The change from a base that held a quarter: -diff_base. */
	{
		struct profconv_profile *base = NULL;
		uint32_t bm, bw, bg, ba, bmm;

		cr_assert(eq(int, profconv_profile_new(&base), 0));
		profconv_profile_add_sample_type(base, "inuse_space", "bytes");
		bm = add_map(base, 0x400000, 0x500000, "/bin/w");
		fw.file = path;
		cr_assert(eq(int, profconv_profile_add_function(base, &fw,
		    &bw), 0));
		bg = add_fn(base, "go", path);
		cr_assert(ne(int, bg, 0));
		{
			struct profconv_function fm = { "main", "main", "", 1 };

			cr_assert(eq(int, profconv_profile_add_function(base,
			    &fm, &bmm), 0));
		}
		{
			struct profconv_line la[2] = { { bg, 7, 0 }, { bw, 5, 0 } };
			struct profconv_line lm[1] = { { bmm, 1, 0 } };
			uint32_t l1 = 0, l2 = 0;

			cr_assert(eq(int, profconv_profile_add_location(base,
			    bm, 0x401000, la, 2, 0, &l1), 0));
			cr_assert(eq(int, profconv_profile_add_location(base,
			    bm, 0x401200, lm, 1, 0, &l2), 0));
			ba = l1;
			SAMPLE(base, &v1, ba, l2);
		}
		got = listing(p, base, "^work$", &o);
		snprintf(want, sizeof(want),
		    "Total: 1kB\n"
		    "ROUTINE ======================== work in w.c\n"
		    "         0        3kB (flat, cum) 300.00%% of Total\n"
		    "         .          .      3:void work(void)\n"
		    "         .          .      4:{\n"
		    "         .        3kB      5:\tgo();\n"
		    "       3kB        3kB         + go w.c:7: static inline void go(void) { m(); }\n"
		    "         .          .      6:}\n"
		    "         .          .      7:static inline void go(void) { m(); }\n");
		cr_expect(eq(str, got, want), "got:\n%s", got);
		free(got);
		profconv_profile_free(base);
	}
}

/* Line numbers are the profile's: far apart, at the ends of int64, or
 * negative, a listing without the source still has one row per line
 * with a value, and takes no time. */
Test(list_rows, hostile_line_numbers, .timeout = 10)
{
	struct profconv_function fh = { "far", "far", "/nonexistent/f.c", 1 };
	uint32_t f, l1, l2, l3;
	int64_t v = 1;
	char *got;

	profconv_profile_add_sample_type(p, "objects", "count");
	cr_assert(eq(int, profconv_profile_add_function(p, &fh, &f), 0));
	l1 = loc(0, 0x10, (struct profconv_line[]){ { f, 3, 0 } }, 1);
	l2 = loc(0, 0x20, (struct profconv_line[]){ { f, INT64_MAX, 0 } }, 1);
	l3 = loc(0, 0x30, (struct profconv_line[]){ { f, -7, 0 } }, 1);
	SAMPLE(p, &v, l1);
	SAMPLE(p, &v, l2);
	SAMPLE(p, &v, l3);
	got = listing(p, NULL, "far", NULL);
	cr_expect(eq(str, got,
	    "Total: 3\n"
	    "ROUTINE ======================== far in /nonexistent/f.c\n"
	    "         3          3 (flat, cum)   100% of Total\n"
	    " Note: source withheld; tried /nonexistent/f.c (outside the "
	    "source roots)\n"
	    "         1          1      3:\n"
	    "         1          1 9223372036854775807:\n"), "%s", got);
	free(got);
}

/* Lines far from every sampled line are one row; a page budget cuts. */
Test(list_rows, far_lines_and_budget, .timeout = 20)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_function ff = { "far", "far", NULL, 1 };
	const char *names[] = { "far" };
	char path[256], *got = NULL;
	size_t len = 0;
	uint32_t f;
	int64_t v = 1;
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "%s/far.c", dir);
	fp = fopen(path, "w");
	cr_assert(not(zero(ptr, fp)));
	for (i = 0; i < 100000; i++)
		fprintf(fp, "line %d with some text to make it long enough\n", i + 1);
	fclose(fp);
	profconv_profile_add_sample_type(p, "objects", "count");
	ff.file = path;
	cr_assert(eq(int, profconv_profile_add_function(p, &ff, &f), 0));
	SAMPLE(p, &v, loc(0, 0x10, (struct profconv_line[]){ { f, 99000, 0 } }, 1));
	o.source_path = dir;
	got = listing(p, NULL, "far", &o);
	cr_expect(not(zero(ptr, strstr(got, "[98798 lines not shown"))), "%.3000s", got);
	cr_expect(lt(sz, strlen(got), 30000), "%zu bytes", strlen(got));
	free(got);
	got = NULL;
	fp = open_memstream(&got, &len);
	cr_assert(eq(int, profconv__list_write_fragment(p, NULL, names, 1, fp,
	    &o, 4000), 0), "%s", ERRMSG);
	fclose(fp);
	cr_expect(not(zero(ptr, strstr(got, "Cut here"))), "%s", got);
	cr_expect(lt(sz, len, 20000), "%zu bytes", len);
	free(got);
}

/* Exact names, however many: no regex to compile, none in a message. */
Test(list_rows, names_not_a_regex, .timeout = 20)
{
	enum { N = 100000 };
	const char **names = calloc(N, sizeof(*names));
	char **own = calloc(N, sizeof(*own));
	char *got = NULL;
	size_t len = 0, i;
	uint32_t f;
	int64_t v = 1;
	FILE *fp;

	profconv_profile_add_sample_type(p, "objects", "count");
	for (i = 0; i < N; i++) {
		cr_assert(asprintf(&own[i], "f(%zu)|.*", i) > 0);
		names[i] = own[i];
	}
	f = add_fn(p, "f(7)|.*", "");
	SAMPLE(p, &v, loc(0, 0x10, (struct profconv_line[]){ { f, 3, 0 } }, 1));
	fp = open_memstream(&got, &len);
	cr_expect(eq(int, profconv__list_write_fragment(p, NULL, names, N, fp,
	    NULL, 0), 0), "%s", ERRMSG);
	fclose(fp);
	cr_expect(not(zero(ptr, strstr(got, "No source information"))), "%s", got);
	free(got);
	got = NULL;
	fp = open_memstream(&got, &len);
	names[7] = "g";
	cr_expect(eq(int, profconv__list_write_fragment(p, NULL, names, N, fp,
	    NULL, 0), PROFCONV_ENOTFOUND));
	fclose(fp);
	cr_expect(zero(ptr, strstr(ERRMSG, "regexp")), "%s", ERRMSG);
	cr_expect(not(zero(ptr, strstr(ERRMSG, "no source information"))), "%s", ERRMSG);
	free(got);
	for (i = 0; i < N; i++)
		free(own[i]);
	free(own);
	free(names);
}
