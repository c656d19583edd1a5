/* SPDX-License-Identifier: MIT */
/*
 * test_sizes.c - the histogram of average block sizes per stack
 * (lib/report/sizes.c): bytes / objects of each stack into its power of
 * two, stacks with one of the two but not the other left out, and the
 * types it refuses.
 */

#include "config.h"

#include <stdlib.h>

#include "view_helpers.h"

static struct profconv_profile *p;
static struct profconv_view *v;

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
}

static void
teardown(void)
{
	profconv_view_free(v);
	profconv_profile_free(p);
	v = NULL;
	p = NULL;
}

TestSuite(sizes, .init = setup, .fini = teardown);

/* Four stacks of one frame each, with (objects, bytes) VALS[i]. */
static void
four_stacks(const int64_t vals[4][2])
{
	static const char *const names[] = { "a", "b", "c", "d" };
	uint32_t map = add_map(p, 0x1000, 0x9000, "/bin/x");
	size_t i;

	for (i = 0; i < 4; i++) {
		uint32_t f = add_fn(p, names[i], "x.c");
		uint32_t l = LOC1(p, map, 0x1000 + 16 * i, f, 1);

		SAMPLE(p, vals[i], l);
	}
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
}

/*
 * Averages 64/4 = 16 and 40/2 = 20 fall in [16 B, 32 B), 1000/1 in
 * [512 B, 1 KiB), and the buckets between are shown empty; 8 bytes of no
 * object is left out and said so.  Of 7 objects and 1104 bytes, the
 * first bucket has 6 (85.71%) and 104 (9.42%: 2 marks of 5%), the last
 * 1 (14.29%) and 1000 (90.58%: 18 marks).
 */
Test(sizes, histogram_of_averages)
{
	static const int64_t vals[4][2] = { { 4, 64 }, { 1, 1000 },
	    { 2, 40 }, { 0, 8 } };
	char *out = NULL;

	cr_assert(eq(int, profconv_profile_add_sample_type(p, "inuse_objects",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "inuse_space",
	    "bytes"), 0));
	four_stacks(vals);
	CAPTURE(out, profconv_sizes_print(v, fp, NULL));
	cr_expect(eq(str, out,
	    "average block size per stack, inuse_space / inuse_objects:\n"
	    "a dump keeps only each stack's bytes and objects, not the size "
	    "of any one\nblock: each stack counts at its average (bytes / "
	    "objects); jemalloc counts\nthe bytes of its size classes, not "
	    "the bytes asked for\n\n"
	    "             average size   stacks      objects   objs%"
	    "            bytes  bytes%\n"
	    "             [16 B, 32 B)        2            6  85.71%"
	    "              104   9.42% ##\n"
	    "             [32 B, 64 B)        0            0   0.00%"
	    "                0   0.00% \n"
	    "            [64 B, 128 B)        0            0   0.00%"
	    "                0   0.00% \n"
	    "           [128 B, 256 B)        0            0   0.00%"
	    "                0   0.00% \n"
	    "           [256 B, 512 B)        0            0   0.00%"
	    "                0   0.00% \n"
	    "           [512 B, 1 KiB)        1            1  14.29%"
	    "             1000  90.58% ##################\n"
	    "                    total                     7"
	    "                     1104\n"
	    "(1 stack with bytes but no objects, or the reverse, left out)\n"));
	free(out);
}

/* A named type: alloc_space goes with alloc_objects. */
Test(sizes, named_type_and_its_objects)
{
	static const int64_t vals[4][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 },
	    { 1, 3 } };
	char *out = NULL;

	cr_assert(eq(int, profconv_profile_add_sample_type(p, "alloc_objects",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "alloc_space",
	    "bytes"), 0));
	four_stacks(vals);
	CAPTURE(out, profconv_sizes_print(v, fp, "alloc_space"));
	cr_expect(not(zero(ptr, strstr(out, "alloc_space / alloc_objects:"))));
	/* 1, 1, 1 in [1 B, 2 B); 3 in [2 B, 4 B). */
	cr_expect(not(zero(ptr, strstr(out, "               [1 B, 2 B)"
	    "        3            3"))), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "               [2 B, 4 B)"
	    "        1            1"))), "%s", out);
	cr_expect(zero(ptr, strstr(out, "left out")));
	free(out);
}

Test(sizes, refused_without_a_pair_of_types)
{
	static const int64_t vals[4][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 },
	    { 1, 1 } };
	FILE *fp = fopen("/dev/null", "w");

	cr_assert(eq(int, profconv_profile_add_sample_type(p, "samples",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "alloc_space",
	    "bytes"), 0));
	four_stacks(vals);
	cr_expect(eq(int, profconv_sizes_print(v, fp, NULL),
	    PROFCONV_ENOTFOUND));
	cr_expect(eq(str, ERRMSG, "profile has no inuse_space or space sample "
	    "type: --sizes needs bytes and objects per stack"));
	cr_expect(eq(int, profconv_sizes_print(v, fp, "alloc_space"),
	    PROFCONV_ENOTFOUND));
	cr_expect(eq(str, ERRMSG, "sample type 'alloc_space' has no objects "
	    "type beside it (--sizes needs X_space and X_objects)"));
	fclose(fp);
}
