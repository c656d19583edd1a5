/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c - the comparison itself (lib/report/diff.c): the checks of
 * its inputs, on heap and plain profiles built by hand (its table and
 * JSON are in test_diff_table.c).
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "diff_fixture.h"

TestSuite(diff, .fini = teardown);

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
static void
warns_when_base_and_cur_look_swapped(void)
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

static void
different_types_refused(void)
{
	struct profconv_diff *d = NULL;

	a = plain("contentions", "delay", 5, 1000, 2, 50);
	b = plain("goroutine", NULL, 1, 0, 4, 0);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), PROFCONV_EINVAL));
	cr_assert(d == NULL);
	cr_expect(eq(str, ERRMSG, "profiles have different sample types "
	    "(make them compatible first)"));
}

/* Swapped inputs warned of, different types refused; each case frees
 * what it built before the next. */
Test(diff, checks_its_inputs)
{
	warns_when_base_and_cur_look_swapped();
	teardown();
	different_types_refused();
}
