/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c - the comparison itself (lib/report/diff.c): the checks of
 * its inputs, on heap and plain profiles built by hand (its table and
 * JSON are in test_diff_table.c).
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "writer_fixture.h"

TestSuite(diff, .fini = teardown);

/*
 * A heap profile with alloc and inuse counters, values per stack
 * { alloc_objects, alloc_space, inuse_objects, inuse_space }.
 */
static struct profconv_profile *
heap(const int64_t (*v)[4], const char *const *leaf, size_t n)
{
	static const char *const types[] = { "alloc_objects", "alloc_space",
		"inuse_objects", "inuse_space" };
	struct profconv_profile *p;
	uint32_t m, f, lm, l;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	for (i = 0; i < 4; i++)
		profconv_profile_add_sample_type(p, types[i],
		    i % 2 ? "bytes" : "count");
	m = add_fn(p, "main", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	for (i = 0; i < n; i++) {
		f = add_fn(p, leaf[i], "");
		l = LOC1(p, 0, 0x100 + 16 * i, f, 1);
		SAMPLE(p, v[i], l, lm);
	}
	return p;
}

/* A profile of TYPES (units "count" but for "delay") with two stacks. */
static struct profconv_profile *
plain(const char *t1, const char *t2, int64_t g1, int64_t g2, int64_t s1,
    int64_t s2)
{
	struct profconv_profile *p;
	uint32_t m, g, s, lm, lg, ls;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, t1, "count");
	if (t2 != NULL)
		profconv_profile_add_sample_type(p, t2, "nanoseconds");
	m = add_fn(p, "main", "/src/main.go");
	g = add_fn(p, "sync.(*Mutex).Lock", "/go/src/sync/mutex.go");
	s = add_fn(p, "runtime.gopark", "/go/src/runtime/proc.go");
	lm = LOC1(p, 0, 0x10, m, 7);
	lg = LOC1(p, 0, 0x20, g, 81);
	ls = LOC1(p, 0, 0x30, s, 363);
	SAMPLE(p, ((int64_t[]){ g1, g2 }), lg, lm);
	SAMPLE(p, ((int64_t[]){ s1, s2 }), ls, lm);
	return p;
}

/* The warnings a comparison gives, one line each, joined by '|'. */
static char warned[1024];

static void
collect_warning(const char *msg, void *payload)
{
	size_t n = strlen(warned);

	(void)payload;
	snprintf(warned + n, sizeof(warned) - n, "%s%s", n != 0 ? "|" : "",
	    msg);
}

/*
 * Cumulative alloc counters that go down mean BASE and CUR are swapped:
 * one warning naming both and the figures; none the right way round, and
 * none without a callback (or with an older options layout).
 */
Test(diff, warns_when_base_and_cur_look_swapped)
{
	static const char *const leaf[] = { "grow" };
	static const int64_t early[][4] = { { 10, 1000, 5, 500 } };
	static const int64_t late[][4] = { { 30, 3000, 20, 2000 } };
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff *d = NULL;

	a = heap(early, leaf, 1);
	b = heap(late, leaf, 1);
	o.warn = collect_warning;
	o.base_name = "early.heap";
	o.cur_name = "late.heap";
	warned[0] = '\0';
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	cr_expect(eq(str, warned, ""));
	profconv_diff_free(d);
	o.base_name = "late.heap";
	o.cur_name = "early.heap";
	cr_assert(eq(int, profconv_diff_new(&d, b, a, &o), 0), "%s", ERRMSG);
	cr_expect(not(zero(ptr, strstr(warned, "'early.heap' allocated fewer "
	    "bytes in all than 'late.heap' (1000 < 3000)"))), "%s", warned);
	cr_expect(not(zero(ptr, strstr(warned, "swapped"))), "%s", warned);
	cr_expect(zero(ptr, strchr(warned, '\n')));
	profconv_diff_free(d);
	/* No callback: nothing to call, the comparison is the same. */
	o.warn = NULL;
	cr_assert(eq(int, profconv_diff_new(&d, b, a, &o), 0), "%s", ERRMSG);
	profconv_diff_free(d);
}

Test(diff, different_types_refused)
{
	struct profconv_diff *d = NULL;

	a = plain("contentions", "delay", 5, 1000, 2, 50);
	b = plain("goroutine", NULL, 1, 0, 4, 0);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), PROFCONV_EINVAL));
	cr_assert(d == NULL);
	cr_expect(eq(str, ERRMSG, "profiles have different sample types "
	    "(make them compatible first)"));
}
