/* SPDX-License-Identifier: MIT */
/*
 * test_list.c - the annotated source listing (report/list.c, source.c):
 * pprof's numbers, its rules for finding a source, and whole listings of
 * profiles built by hand over source files written here.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/base.h"

/* Before list_fixture.h, which writes into it. */
static char dir[] = "/tmp/profconv-list-XXXXXX";

#include "list_fixture.h"

TestSuite(list, .init = setup, .fini = teardown);

#define VALUE(v, unit, want) do { \
	char b_[48]; \
	cr_expect(eq(str, (char *)profconv__list_value(b_, (v), (unit)), \
	    (char *)(want))); \
} while (0)

/* pprof's measurement.ScaledLabel with the "minimum" output unit. */
static void
values_as_pprof(void)
{
	VALUE(0, "bytes", "0");
	VALUE(1, "bytes", "1B");
	VALUE(1536, "bytes", "1.50kB");
	VALUE(1048576, "bytes", "1MB");
	VALUE(-3 * 1048576 / 2, "bytes", "-1.50MB");
	VALUE(7500, "count", "7500");
	VALUE(7500, "objects", "7500");
	VALUE(1500000, "nanoseconds", "1.50ms");
	VALUE(90, "seconds", "90s");
}

static void
percentages_as_pprof(void)
{
	char b[32];

	cr_expect(eq(str, (char *)profconv__list_percent(b, 1, 3), "33.33%"));
	cr_expect(eq(str, (char *)profconv__list_percent(b, 5, 5), "  100%"));
	cr_expect(eq(str, (char *)profconv__list_percent(b, -5, 5), "  100%"));
	cr_expect(eq(str, (char *)profconv__list_percent(b, 1, 200), "  0.5%"));
	cr_expect(eq(str, (char *)profconv__list_percent(b, 1, 0), "    0%"));
}

/* The one path cleaning (lib/base/path.c) on Go's own filepath.Clean
 * cases: what the graph's file keys and list's sources both use. */
Test(list, clean_path_as_go)
{
	static const char *const c[][2] = {
		{ "", "." }, { "abc", "abc" }, { "abc/def", "abc/def" },
		{ "a/b/c", "a/b/c" }, { ".", "." }, { "..", ".." },
		{ "../..", "../.." }, { "../../abc", "../../abc" },
		{ "/abc", "/abc" }, { "/", "/" }, { "abc/", "abc" },
		{ "abc/def/", "abc/def" }, { "///", "/" },
		{ "//abc", "/abc" }, { "abc//def//ghi", "abc/def/ghi" },
		{ "abc/./def", "abc/def" }, { "/./abc/def", "/abc/def" },
		{ "abc/.", "abc" }, { "abc/def/ghi/../jkl", "abc/def/jkl" },
		{ "abc/def/../ghi/../jkl", "abc/jkl" }, { "abc/def/..", "abc" },
		{ "abc/def/../..", "." }, { "/abc/def/../..", "/" },
		{ "abc/def/../../..", ".." }, { "/abc/def/../../..", "/" },
		{ "abc/def/../../../ghi/jkl/../../../mno", "../../mno" },
		{ "/../abc", "/abc" }, { "abc/./../def", "def" },
		{ "abc//./../def", "def" }, { "abc/../../././../def", "../../def" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *d = profconv__clean_path(c[i][0]);

		cr_expect(eq(str, d, (char *)c[i][1]), "'%s'", c[i][0]);
		free(d);
	}
}

/* The one rule for bytes a person reads (base.h): binary units, the
 * largest in which the value is at least 1, exact divisions. */
static void
bytes_for_people(void)
{
	static const struct { int64_t v; const char *unit; double x; } c[] = {
		{ 0, "B", 0 }, { 1023, "B", 1023 }, { -1023, "B", -1023 },
		{ 1024, "KiB", 1 }, { -1536, "KiB", -1.5 },
		{ 1048575, "KiB", 1048575 / 1024.0 }, { 1048576, "MiB", 1 },
		{ 3 * ((int64_t)1 << 30), "GiB", 3 },
		{ (int64_t)1 << 40, "TiB", 1 }, { (int64_t)1 << 50, "PiB", 1 },
		{ INT64_MAX, "EiB", 8 }, { INT64_MIN, "EiB", -8 },
	};
	size_t i;
	double x;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cr_expect(eq(str, (char *)profconv__bytes_unit(c[i].v, &x),
		    (char *)c[i].unit), "%" PRId64, c[i].v);
		cr_expect(eq(dbl, x, c[i].x), "%" PRId64, c[i].v);
	}
	cr_expect(eq(u32, profconv__bytes_power(4.0 * (1 << 20)), 2));
}

/* Numbers as a listing prints them: values and percentages as pprof
 * writes them, and bytes in binary units.  None uses the suite's
 * profile or directory. */
Test(list, numbers_as_people_read_them)
{
	values_as_pprof();
	percentages_as_pprof();
	bytes_for_people();
}

/* A source not found: the lines with values, after a note naming what
 * was tried; a relative name is found under the search path's parents. */
Test(list, not_found_and_parents)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	uint32_t map, f, g, l1, l2;
	int64_t v = 7;
	char sub[256], *got;

	profconv_profile_add_sample_type(p, "objects", "count");
	map = add_map(p, 0x400000, 0x500000, "/bin/w");
	f = add_fn(p, "lost", "/nonexistent/l.c");
	g = add_fn(p, "found", "src/f.c");
	l1 = loc(map, 0x401000, (struct profconv_line[]){ { f, 40, 0 } }, 1);
	l2 = loc(map, 0x401100, (struct profconv_line[]){ { g, 2, 0 } }, 1);
	SAMPLE(p, &v, l1, l2);
	got = listing(p, NULL, "lost", &o);
	cr_expect(eq(str, got,
	    "Total: 7\n"
	    "ROUTINE ======================== lost in /nonexistent/l.c\n"
	    "         7          7 (flat, cum)   100% of Total\n"
	    " Note: source withheld; tried /nonexistent/l.c (outside the "
	    "source roots)\n"
	    "         7          7     40:\n"));
	free(got);
	snprintf(sub, sizeof(sub), "%s/src", dir);
	cr_assert(eq(int, mkdir(sub, 0700), 0));
	write_file("src/f.c", "a\nb\n");
	snprintf(sub, sizeof(sub), "%s/src/deep", dir);
	cr_assert(eq(int, mkdir(sub, 0700), 0));
	o.source_path = sub;
	/* The search climbs parents only while they are beneath a root. */
	got = listing(p, NULL, "found", &o);
	cr_expect(not(zero(ptr, strstr(got, ", nothing above the source "
	    "roots\n"))), "%s", got);
	cr_expect(zero(ptr, strstr(got, "1:a")), "%s", got);
	free(got);
	o.trim_path = dir;
	got = listing(p, NULL, "found", &o);
	cr_expect(eq(str, got,
	    "Total: 7\n"
	    "ROUTINE ======================== found in src/f.c\n"
	    "         0          7 (flat, cum)   100% of Total\n"
	    "         .          .      1:a\n"
	    "         .          7      2:b\n"));
	free(got);
}

/*
 * Forty functions, each in a file of its own (half of them found): every
 * routine names its own file and what was tried for it, however many
 * files the listing met after it.
 */
Test(list, many_files)
{
	enum { N = 40 };
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	uint32_t map, f, l[N];
	int64_t v = 3;
	char name[64], file[64], want[256], *got;
	size_t i;

	profconv_profile_add_sample_type(p, "objects", "count");
	map = add_map(p, 0x400000, 0x500000, "/bin/w");
	o.source_path = dir;
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "fn%02zu", i);
		snprintf(file, sizeof(file), "%s%02zu.c", i % 2 ? "gone" :
		    "here", i);
		if (i % 2 == 0)
			write_file(file, "one\ntwo\n");
		f = add_fn(p, name, file);
		l[i] = loc(map, 0x401000 + 16 * i,
		    (struct profconv_line[]){ { f, 2, 0 } }, 1);
		SAMPLE(p, &v, l[i]);
	}
	got = listing(p, NULL, "^fn", &o);
	for (i = 0; i < N; i++) {
		snprintf(want, sizeof(want), "ROUTINE ======================== "
		    "fn%02zu in %s%02zu.c\n", i, i % 2 ? "gone" : "here", i);
		cr_expect(not(zero(ptr, strstr(got, want))), "%s", want);
		if (i % 2 == 0)
			snprintf(want, sizeof(want), "      2:two\n");
		else
			snprintf(want, sizeof(want), " Note: source not found; "
			    "tried gone%02zu.c under %s and up, nothing above the "
			    "source roots\n", i, dir);
		cr_expect(not(zero(ptr, strstr(got, want))), "%s", want);
	}
	free(got);
}

/* No function matches: pprof's message. */
Test(list, no_match)
{
	int64_t v = 1;
	uint32_t f, l;
	FILE *fp = fopen("/dev/null", "w");

	profconv_profile_add_sample_type(p, "objects", "count");
	f = add_fn(p, "f", "f.c");
	l = loc(0, 0x10, (struct profconv_line[]){ { f, 1, 0 } }, 1);
	SAMPLE(p, &v, l);
	cr_expect(eq(int, profconv_list_write(p, NULL, "^g$", fp, NULL),
	    PROFCONV_ENOTFOUND));
	cr_expect(eq(str, ERRMSG, "no matches found for regexp: ^g$"));
	cr_expect(eq(int, profconv_list_write(p, NULL, "(", fp, NULL),
	    PROFCONV_EINVAL));
	fclose(fp);
}

/* A listing of PROF's functions whose file is FILE in a root or not. */
static char *
try_listing(const char *rx, const struct profconv_list_options *o, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(not(zero(ptr, fp)));
	*rc = profconv_list_write(p, NULL, rx, fp, o);
	fclose(fp);
	return text;
}

/*
 * Nothing outside the source roots is read: an absolute name elsewhere,
 * a relative one whose ".." climbs out, a symbolic link inside the search
 * path pointing out, with openat2() and with the check that replaces it.
 */
Test(list, outside_the_roots_withheld)
{
	struct profconv_list_options o = PROFCONV_LIST_OPTIONS_INIT;
	const struct pc_source *src;
	struct pc_sources *s;
	char root[256], secret[256], link[256], *got;
	uint32_t map, f1, f2, f3;
	int64_t v = 1;
	int rc, pass;

	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(secret, sizeof(secret), "%s/secret.c", dir);
	snprintf(link, sizeof(link), "%s/root/link.c", dir);
	cr_assert(eq(int, mkdir(root, 0700), 0));
	write_file("secret.c", "a\nSECRET\nc\n");
	cr_assert(eq(int, symlink(secret, link), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	map = add_map(p, 0x400000, 0x500000, "/bin/w");
	f1 = add_fn(p, "abs", secret);
	f2 = add_fn(p, "dotdot", "../secret.c");
	f3 = add_fn(p, "linked", "link.c");
	SAMPLE(p, &v, loc(map, 0x401000, (struct profconv_line[]){ { f1, 2, 0 } }, 1));
	SAMPLE(p, &v, loc(map, 0x401100, (struct profconv_line[]){ { f2, 2, 0 } }, 1));
	SAMPLE(p, &v, loc(map, 0x401200, (struct profconv_line[]){ { f3, 2, 0 } }, 1));
	o.source_path = root;
	got = try_listing(".", &o, &rc);
	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	cr_expect(zero(ptr, strstr(got, "SECRET")), "%s", got);
	cr_expect(not(zero(ptr, strstr(got, "withheld; tried ../secret.c "
	    "under"))), "%s", got);
	cr_expect(not(zero(ptr, strstr(got, "(outside the source roots)"))),
	    "%s", got);
	cr_expect(not(zero(ptr, strstr(got, "(a symbolic link or '..' leads "
	    "out of its source root)"))), "%s", got);
	free(got);
	/* Both ways of opening beneath a root refuse the link. */
	for (pass = 0; pass < 2; pass++) {
		cr_assert(eq(int, profconv__sources_new(&s, &o), 0));
		if (pass == 1)
			profconv__sources_no_openat2(s);
		cr_assert(eq(int, profconv__source_get(s, "link.c", "link.c",
		    "", &src), 0));
		cr_expect(zero(ptr, (void *)src->text), "pass %d", pass);
		cr_expect(src->withheld, "pass %d", pass);
		cr_assert(eq(int, profconv__source_get(s, "../secret.c",
		    "../secret.c", "", &src), 0));
		cr_expect(zero(ptr, (void *)src->text), "pass %d", pass);
		profconv__sources_free(s);
	}
	/* The root's own files are read. */
	unlink(link);
	cr_assert(eq(int, rename(secret, link), 0));
	got = try_listing("linked", &o, &rc);
	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	cr_expect(not(zero(ptr, strstr(got, "2:SECRET"))), "%s", got);
	free(got);
}

/* A base of other sample types is refused, not printed in the wrong
 * unit; a regex beyond the bounds is refused before it is compiled. */
Test(list, base_types_and_regex_bounds, .timeout = 10)
{
	struct profconv_profile *base = NULL;
	uint32_t f, bf;
	int64_t v = 1;
	FILE *fp = fopen("/dev/null", "w");

	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	f = add_fn(p, "f", "");
	SAMPLE(p, &v, loc(0, 0x10, (struct profconv_line[]){ { f, 1, 0 } }, 1));
	cr_assert(eq(int, profconv_profile_new(&base), 0));
	profconv_profile_add_sample_type(base, "cpu", "nanoseconds");
	bf = add_fn(base, "f", "");
	{
		uint32_t id = 0;

		cr_assert(eq(int, profconv_profile_add_location(base, 0, 0x10,
		    (struct profconv_line[]){ { bf, 1, 0 } }, 1, 0, &id), 0));
		SAMPLE(base, &v, id);
	}
	cr_expect(eq(int, profconv_list_write(p, base, "f", fp, NULL),
	    PROFCONV_EINVAL));
	cr_expect(not(zero(ptr, strstr(ERRMSG, "sample type 'cpu'"))), "%s", ERRMSG);
	cr_expect(eq(int, profconv_list_write(p, NULL,
	    "((a{1000}){1000}){1000}", fp, NULL), PROFCONV_EINVAL));
	cr_expect(not(zero(ptr, strstr(ERRMSG, "counted repetitions"))), "%s", ERRMSG);
	cr_expect(eq(int, profconv_list_check("((a{1000}){1000}){1000}", NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_list_check("(", NULL), PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_list_check("a|b", NULL), 0));
	profconv_profile_free(base);
	fclose(fp);
}
