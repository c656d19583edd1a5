/* SPDX-License-Identifier: MIT */
/*
 * test_text.c - the text writer (write/text.c, profconv_profile_print):
 * the full dump and the summary, checked to the byte on profiles built
 * by hand.
 */

#include "config.h"

#include <stdint.h>

#include "writer_fixture.h"

TestSuite(print, .fini = teardown);

/* A small heap profile with every header field, a label, an inline
 * chain, a mapping and a C++ name. */
static struct profconv_profile *
small(void)
{
	struct profconv_profile *p;
	struct profconv_mapping mp = { 0x400000, 0x500000, 0x1000,
		"/usr/bin/app", "abc123", 1, 1, 1, 0 };
	struct profconv_function f = { "app::Pool<int>::grow(unsigned long)",
		"_ZN3app4PoolIiE4growEm", "/src/pool.cc", 40 };
	struct profconv_label lb[2] = { { "thread", "worker", 0, NULL },
		{ "bytes", NULL, 64, "bytes" } };
	uint32_t map, m, g, lm, lg;
	int64_t v1[2] = { 2, 128 }, v2[2] = { 1, 4096 };

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "inuse_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 524288);
	profconv_profile_set_time(p, 1700000000000000000, 5000000000);
	profconv_profile_add_comment(p, "made by hand");
	profconv_profile_set_drop_frames(p, "malloc");
	profconv_profile_set_keep_frames(p, "xmalloc");
	profconv_profile_set_doc_url(p, "https://example.com/doc");
	cr_assert(eq(int, profconv_profile_add_mapping(p, &mp, &map), 0));
	m = add_fn(p, "main", "/src/main.cc");
	cr_assert(eq(int, profconv_profile_add_function(p, &f, &g), 0));
	lm = LOC1(p, map, 0x401000, m, 12);
	lg = LOCN(p, map, 0x402000, 40, g, m);
	cr_assert(eq(int, profconv_profile_add_sample(p, (uint32_t[]){ lg, lm },
	    2, v1, lb, 2), 0));
	SAMPLE(p, v2, lm);
	return p;
}

#define HEADER "sample types: inuse_objects/count " \
	"inuse_space/bytes[default]\n" \
	"period: 524288 space/bytes\n" \
	"time: 1700000000000000000 ns\n" \
	"duration: 5000000000 ns\n" \
	"comment: made by hand\n"

/* The dump: every field, function names in the view's demangle mode
 * (the linker's name in brackets). */
Test(print, dump)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small();
	CAPTURE(out, profconv_profile_print(a, fp, NULL));
	cr_expect(eq(str, out, HEADER
	    "drop frames: malloc\n"
	    "keep frames: xmalloc\n"
	    "doc url: https://example.com/doc\n"
	    "samples: 2\n"
	    "          2        128: 2 1\n"
	    "   labels: thread=\"worker\" bytes=64\n"
	    "          1       4096: 1\n"
	    "locations: 2\n"
	    "      1: 0x401000 M=1\n"
	    "         F=1 main /src/main.cc:12:0\n"
	    "      2: 0x402000 M=1\n"
	    "         F=2 app::Pool::grow /src/pool.cc:40:0\n"
	    "         F=1 main /src/main.cc:41:0\n"
	    "functions: 2\n"
	    "      1: main [main] /src/main.cc s=1\n"
	    "      2: app::Pool::grow [_ZN3app4PoolIiE4growEm] /src/pool.cc "
	    "s=40\n"
	    "mappings: 1\n"
	    "      1: 0x400000/0x500000/0x1000 /usr/bin/app abc123 "
	    "[FN] [FL] [LN]\n"));
	free(out);
	vo.demangle = PROFCONV_DEMANGLE_TEMPLATES;
	po.view = &vo;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, "      2: app::Pool<int>::grow "
	    "[_ZN3app4PoolIiE4growEm] /src/pool.cc s=40\n") != NULL, "%s", out);
}

/* The summary: totals, then the view's top stacks and functions, flat
 * and cum (a frame counted once per stack). */
static void
summary(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small();
	po.summary = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out, HEADER
	    "samples: 2  locations: 2  functions: 2  mappings: 1\n"
	    "total inuse_objects/count: 3\n"
	    "total inuse_space/bytes: 4224 [default]\n"
	    "top 2 stacks by inuse_space (of 2):\n"
	    "           4096  96.97% main\n"
	    "            128   3.03% main;main;app::Pool::grow\n"
	    "top 2 functions by inuse_space (flat, flat%, cum, cum%) (of 2):\n"
	    "           4096  96.97%           4224 100.00% main\n"
	    "            128   3.03%            128   3.03% app::Pool::grow\n"));
	free(out);
	po.sample_type = "inuse_objects";
	po.top = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out, HEADER
	    "samples: 2  locations: 2  functions: 2  mappings: 1\n"
	    "total inuse_objects/count: 3\n"
	    "total inuse_space/bytes: 4224 [default]\n"
	    "top 1 stacks by inuse_objects (of 2):\n"
	    "              2  66.67% main;main;app::Pool::grow\n"
	    "top 1 functions by inuse_objects (flat, flat%, cum, cum%) "
	    "(of 2):\n"
	    "              2  66.67%              2  66.67% app::Pool::grow\n"));
	po.sample_type = "cpu";
	free(out);
	out = NULL;
	{
		size_t len = 0;
		FILE *fp = open_memstream(&out, &len);

		cr_assert(eq(int, profconv_profile_print(a, fp, &po),
		    PROFCONV_ENOTFOUND));
		cr_expect(eq(str, ERRMSG, "profile has no sample type 'cpu'"));
		fclose(fp);
	}
	teardown();
}

/* INT64_MIN has no magnitude in int64: ranking and totals must not
 * overflow (run under -fsanitize=undefined in CI). */
/* A summary that fails writes nothing: the type is checked first. */
static void
nothing_written_on_error(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	size_t len = 0;
	FILE *fp;

	a = small();
	po.summary = 1;
	po.sample_type = "cpu";
	fp = open_memstream(&out, &len);
	cr_assert(eq(int, profconv_profile_print(a, fp, &po),
	    PROFCONV_ENOTFOUND));
	fclose(fp);
	cr_expect(eq(str, out, ""));
	teardown();
}

static void
int64_min_summary(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	uint32_t f, g, lf, lg;
	int64_t min = INT64_MIN, one = 1;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "delta", "count");
	f = add_fn(a, "f", "");
	g = add_fn(a, "g", "");
	lf = LOC1(a, 0, 0x10, f, 1);
	lg = LOC1(a, 0, 0x20, g, 1);
	SAMPLE(a, &min, lf);
	SAMPLE(a, &min, lg, lf);
	SAMPLE(a, &one, lg);
	po.summary = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	/* Saturated at INT64_MIN, then 1 added; the shares of the samples'
	 * magnitudes (saturated at INT64_MAX), as pprof takes them. */
	cr_expect(strstr(out, "total delta/count: -9223372036854775807 "
	    "[default]\npercentages of 9223372036854775807 delta/count: "
	    "every sample's magnitude, before filters\n") != NULL, "%s", out);
	cr_expect(strstr(out, "top 3 stacks by delta (of 3):\n"
	    " -9223372036854775808 -100.00% f\n"
	    " -9223372036854775808 -100.00% f;g\n") != NULL, "%s", out);
	teardown();
}

/* pprof's -traces: the header, each sample's labels (strings, then
 * numbers scaled) and stack leaf first, its value of the sample type;
 * an inlined frame marked.  Version 4 of the options. */
static void
traces(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small();
	po.traces = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strncmp(out, "File: app\n"
	    "Build ID: abc123\n"
	    "made by hand\n"
	    "Type: inuse_space\n"
	    "Time: Nov 1", 64) == 0, "%s", out);
	/* Go's "Jan 2, 2006 at 3:04pm (MST)", in local time. */
	cr_expect(strstr(out, ", 2023 at ") != NULL &&
	    (strstr(out, "m (") != NULL), "%s", out);
	cr_expect(strstr(out, "\nDuration: 5s, Total samples = 4.12kB \n"
	    "-----------+-------------------------------------------------------\n"
	    "    thread:  worker\n"
	    "     bytes:  64B\n"
	    "      128B   app::Pool::grow (inline)\n"
	    "             main\n"
	    "             main\n"
	    "-----------+-------------------------------------------------------\n"
	    "       4kB   main\n"
	    "-----------+-------------------------------------------------------\n")
	    != NULL, "%s", out);
	teardown();
}

/* pprof's -tags: a key's values, largest first, their totals and shares
 * in a table aligned right; numeric values in --unit. */
static void
tags(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_label lb[3] = { { "k", "long value", 0, NULL },
		{ "k", "b", 0, NULL }, { "size", NULL, 2048, "bytes" } };
	int64_t v1 = 3000, v2 = 1000;
	uint32_t f, l;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "space", "bytes");
	f = add_fn(a, "f", "");
	l = LOC1(a, 0, 0x10, f, 1);
	cr_assert(eq(int, profconv_profile_add_sample(a, &l, 1, &v1, lb, 3),
	    0));
	cr_assert(eq(int, profconv_profile_add_sample(a, &l, 1, &v2, lb + 1,
	    1), 0));
	po.tags = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out, " k: Total 6.8kB\n"
	    "    3.9kB (57.14%): b\n"
	    "    2.9kB (42.86%): long value\n"
	    "\n"
	    " size: Total 2.9kB\n"
	    "       2.9kB (  100%): 2kB\n"
	    "\n"), "%s", out);
	free(out);
	po.unit = "B";
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, " size: Total 3000.0B\n"
	    "       3000.0B (  100%): 2048B\n") != NULL, "%s", out);
	teardown();
}

/* One report at a time; an older caller's options know no traces. */
static void
traces_options(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	size_t len = 0;
	FILE *mem;

	a = small();
	po.traces = po.tags = 1;
	mem = open_memstream(&out, &len);
	cr_assert(eq(int, profconv_profile_print(a, mem, &po),
	    PROFCONV_EINVAL));
	fclose(mem);
	cr_expect(eq(str, out, ""));
	cr_expect(strstr(profconv_errmsg(), "ask for one") != NULL, "%s",
	    profconv_errmsg());
	free(out);
	po.version = 3;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strncmp(out, "sample types:", 13) == 0, "%s", out);
	teardown();
}

Test(print, pprof_traces_and_tags)
{
	traces();
	tags();
	traces_options();
}

/* small() and a third stack, 1 kB: main calls run, which calls grow
 * (not inlined this time). */
static struct profconv_profile *
small_with_run(void)
{
	struct profconv_profile *p = small();
	int64_t v[2] = { 1, 1024 };
	uint32_t run, lr, lg;

	run = add_fn(p, "run", "/src/run.cc");
	lr = LOC1(p, 0, 0x403000, run, 5);
	lg = LOC1(p, 0, 0x404000, 2, 44);
	SAMPLE(p, v, lg, lr, 1);
	return p;
}

/* pprof's -text: a row per function of the call graph, by flat value;
 * one unit for every value (kB here, as the smallest is 1kB); a function
 * called inline from one caller and not from another is
 * "(partial-inline)".  Version 7 of the options. */
static void
text(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small_with_run();
	po.text = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out,
	    "Showing nodes accounting for 5.12kB, 100% of 5.12kB total\n"
	    "      flat  flat%   sum%        cum   cum%\n"
	    "       4kB 78.05% 78.05%     5.12kB   100%  main\n"
	    "    1.12kB 21.95%   100%     1.12kB 21.95%  app::Pool::grow "
	    "(partial-inline)\n"
	    "         0     0%   100%        1kB 19.51%  run\n"), "%s", out);
	free(out);
	/* By cum, and at most two rows: run left out, its call of grow
	 * joins main's inlined one in one edge, not inlined every time. */
	po.by_cum = 1;
	po.nodecount = 2;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out,
	    "Showing nodes accounting for 5.12kB, 100% of 5.12kB total\n"
	    "Showing top 2 nodes out of 3\n"
	    "      flat  flat%   sum%        cum   cum%\n"
	    "       4kB 78.05% 78.05%     5.12kB   100%  main\n"
	    "    1.12kB 21.95%   100%     1.12kB 21.95%  app::Pool::grow\n"),
	    "%s", out);
	free(out);
	out = NULL;
	/* An older caller's options know no text report. */
	po.version = 6;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strncmp(out, "sample types:", 13) == 0, "%s", out);
	teardown();
}

/* pprof's -topproto: the rows of -text as samples of cum and flat, cut
 * to whole kB; a location and a function each. */
static void
top_profile(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_profile *top = NULL;
	struct profconv_value_type vt;
	struct profconv_sample s;
	struct profconv_location l;
	struct profconv_function f;
	const int64_t want[3][2] = { { 5, 4 }, { 1, 1 }, { 1, 0 } };
	const char *names[3] = { "main", "app::Pool::grow", "run" };
	size_t i;

	a = small_with_run();
	po.nodecount = 0;
	cr_assert(eq(int, profconv_profile_top(&top, a, &po), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(top), 2));
	cr_assert(eq(int, profconv_profile_sample_type(top, 0, &vt), 0));
	cr_expect(eq(str, (char *)vt.type, "cum"));
	cr_expect(eq(str, (char *)vt.unit, "kB"));
	cr_assert(eq(int, profconv_profile_sample_type(top, 1, &vt), 0));
	cr_expect(eq(str, (char *)vt.type, "flat"));
	cr_expect(eq(i64, profconv_profile_period(top, &vt), 524288));
	cr_expect(eq(i64, profconv_profile_duration_nanos(top), 5000000000));
	cr_assert(eq(sz, profconv_profile_sample_count(top), 3));
	for (i = 0; i < 3; i++) {
		cr_assert(eq(int, profconv_profile_sample(top, i, &s), 0));
		cr_assert(eq(sz, s.nlocations, 1));
		cr_expect(eq(i64, s.values[0], want[i][0]), "row %zu", i);
		cr_expect(eq(i64, s.values[1], want[i][1]), "row %zu", i);
		cr_assert(eq(int, profconv_profile_location(top,
		    sample_location(top, i, 0), &l), 0));
		cr_assert(eq(sz, l.nlines, 1));
		cr_assert(eq(int, profconv_profile_function(top,
		    l.lines[0].function_id, &f), 0));
		cr_expect(eq(str, (char *)f.name, (char *)names[i]));
	}
	profconv_profile_free(top);
	/* A sample type the profile lacks: nothing made. */
	po.sample_type = "nope";
	top = a;
	cr_expect(eq(int, profconv_profile_top(&top, a, &po),
	    PROFCONV_ENOTFOUND));
	cr_expect(top == NULL);
	teardown();
}

Test(print, pprof_text_and_top)
{
	text();
	top_profile();
}

/* The summary's top stacks: largest magnitude first, equal ones by name
 * whatever order the samples came in, at most TOP, "of" those with a
 * value; a function whose name holds ';' makes the same text as a stack
 * of two, and the two are one row, as in the folded stacks. */
static void
summary_top_stacks(void)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	static const char *names[] = { "zeta", "alpha", "mid", "gone" };
	int64_t v[4] = { 50, 50, 70, 0 }, w = 5;
	uint32_t f[4], l[4], root, lr, ab, a1, b1, lab, la, lb;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "space", "bytes");
	root = add_fn(a, "root", "");
	lr = LOC1(a, 0, 0x10, root, 1);
	for (i = 0; i < 4; i++) {
		f[i] = add_fn(a, names[i], "");
		l[i] = LOC1(a, 0, 0x100 + i, f[i], 1);
		SAMPLE(a, &v[i], l[i], lr);
	}
	po.summary = 1;
	po.top = 2;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, "top 2 stacks by space (of 3):\n"
	    "             70  41.18% root;mid\n"
	    "             50  29.41% root;alpha\n"
	    "top 2 functions") != NULL, "%s", out);
	free(out);
	po.top = 10;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, "top 3 stacks by space (of 3):\n"
	    "             70  41.18% root;mid\n"
	    "             50  29.41% root;alpha\n"
	    "             50  29.41% root;zeta\n") != NULL, "%s", out);
	free(out);
	/* "x;y" as one function, and x calling y: one text, one row. */
	ab = add_fn(a, "x;y", "");
	a1 = add_fn(a, "x", "");
	b1 = add_fn(a, "y", "");
	lab = LOC1(a, 0, 0x200, ab, 1);
	la = LOC1(a, 0, 0x201, a1, 1);
	lb = LOC1(a, 0, 0x202, b1, 1);
	SAMPLE(a, &w, lab, lr);
	SAMPLE(a, &w, lb, la, lr);
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, "top 4 stacks by space (of 4):\n"
	    "             70  38.89% root;mid\n"
	    "             50  27.78% root;alpha\n"
	    "             50  27.78% root;zeta\n"
	    "             10   5.56% root;x;y\n") != NULL, "%s", out);
	teardown();
}

Test(print, summarises_the_profile)
{
	summary();
	nothing_written_on_error();
	int64_min_summary();
	summary_top_stacks();
}
