/* SPDX-License-Identifier: MIT */
/* test_merge.c - tests for merge, subtract and the merger. */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "helpers.h"
#include "merge_fixture.h"

TestSuite(merge, .fini = drop);

static void
identical_profiles_add_up_sample_by_sample(void)
{
	struct profconv_profile *in[2];

	a = app(0x555500000000, 3, 5, NULL);
	b = app(0x555500000000, 3, 5, NULL);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0), "%s", profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_sample_count(out), 2));
	cr_assert(eq(sz, profconv_profile_location_count(out), 3));
	cr_assert(eq(sz, profconv_profile_mapping_count(out), 1));
	cr_assert(eq(i64, total(out, 0), 16));
	cr_assert(eq(i64, total(out, 1), 256));
	ASSERT_NO_LEAKS();
	drop();
}

static void
two_runs_of_a_pie_binary_merge_despite_aslr(void)
{
	struct profconv_profile *in[2];
	struct profconv_location l;
	struct profconv_mapping m;

	a = app(0x555500000000, 1, 1, NULL);
	b = app(0x563400000000, 2, 2, NULL);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 2));
	cr_assert(eq(sz, profconv_profile_location_count(out), 3));
	cr_assert(eq(sz, profconv_profile_mapping_count(out), 1));
	profconv_profile_mapping(out, 1, &m);
	cr_assert(eq(u64, m.start, 0x555500000000));
	profconv_profile_location(out, 1, &l);
	cr_assert(eq(u64, l.address, 0x555500001200));
	cr_assert(eq(i64, total(out, 0), 6));
	drop();
}

static void
subtract_of_itself_cancels_everything(void)
{
	a = app(0x555500000000, 3, 5, NULL);
	b = app(0x777700000000, 3, 5, NULL);
	cr_assert(eq(int, profconv_profile_subtract(&out, a, b), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 0));
	cr_assert(eq(sz, profconv_profile_location_count(out), 0));
	/* As in pprof, the main binary's mapping stays. */
	cr_assert(eq(sz, profconv_profile_mapping_count(out), 1));
	ASSERT_NO_LEAKS();
	drop();
}

static void
subtract_keeps_growth_and_negatives(void)
{
	struct profconv_sample s;

	a = app(0x555500000000, 10, 2, NULL);	/* current */
	b = app(0x777700000000, 4, 5, NULL);	/* base */
	cr_assert(eq(int, profconv_profile_subtract(&out, a, b), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 2));
	profconv_profile_sample(out, 0, &s);
	cr_assert(eq(i64, s.values[0], 6));
	cr_assert(eq(i64, s.values[1], 96));
	profconv_profile_sample(out, 1, &s);
	cr_assert(eq(i64, s.values[0], -3));
	cr_assert(eq(i64, s.values[1], -48));
	drop();
}

Test(merge, subtract_leaves_the_difference)
{
	subtract_of_itself_cancels_everything();
	subtract_keeps_growth_and_negatives();
}

static void
labels_are_part_of_the_sample_key(void)
{
	struct profconv_profile *in[2];

	a = app(0x1000000, 1, 1, "t1");
	b = app(0x1000000, 1, 1, "t2");
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 4));
	drop();
}

static void
label_order_does_not_matter(void)
{
	struct profconv_label l1[2] = { { .key = "a", .str = "x" }, { .key = "n", .num = 4, .unit = "bytes" } };
	struct profconv_label l2[2] = { l1[1], l1[0] };
	struct profconv_profile *in[1];
	int64_t v[1] = { 1 };
	uint32_t loc;

	profconv_profile_new(&a);
	profconv_profile_add_sample_type(a, "samples", "count");
	profconv_profile_add_location(a, 0, 0x10, NULL, 0, 0, &loc);
	profconv_profile_add_sample(a, &loc, 1, v, l1, 2);
	profconv_profile_add_sample(a, &loc, 1, v, l2, 2);
	in[0] = a;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 1), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 1));
	cr_assert(eq(i64, total(out, 0), 2));
	drop();
}

static void
drops_all_zero_samples_and_what_only_they_use(void)
{
	struct profconv_profile *in[1];
	int64_t z[1] = { 0 }, one[1] = { 1 };
	uint32_t l1, l2;

	profconv_profile_new(&a);
	profconv_profile_add_sample_type(a, "samples", "count");
	profconv_profile_add_location(a, 0, 0x10, NULL, 0, 0, &l1);
	profconv_profile_add_location(a, 0, 0x20, NULL, 0, 0, &l2);
	profconv_profile_add_sample(a, &l1, 1, z, NULL, 0);
	profconv_profile_add_sample(a, &l2, 1, one, NULL, 0);
	in[0] = a;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 1), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 1));
	cr_assert(eq(sz, profconv_profile_location_count(out), 1));
	drop();
}

static void
symbolized_locations_keep_their_lines_and_functions(void)
{
	struct profconv_function f = { "main", "main", "a.c", 1 };
	struct profconv_line ln = { 1, 7, 2 };
	struct profconv_profile *in[2];
	struct profconv_location l;
	int64_t v[1] = { 1 };
	uint32_t loc;

	for (int i = 0; i < 2; i++) {
		struct profconv_profile *p;

		profconv_profile_new(&p);
		profconv_profile_add_sample_type(p, "samples", "count");
		profconv_profile_add_function(p, &f, NULL);
		profconv_profile_add_location(p, 0, 0x40, &ln, 1, 0, &loc);
		profconv_profile_add_sample(p, &loc, 1, v, NULL, 0);
		in[i] = p;
	}
	a = in[0];
	b = in[1];
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(sz, profconv_profile_function_count(out), 1));
	profconv_profile_location(out, 1, &l);
	cr_assert(eq(sz, l.nlines, 1));
	cr_assert(eq(i64, l.lines[0].column, 2));
	cr_assert(eq(i64, total(out, 0), 2));
	drop();
}

/* Samples with one stack and one set of labels add up, the rest stay apart. */
Test(merge, adds_up_samples_of_one_stack_and_labels)
{
	identical_profiles_add_up_sample_by_sample();
	two_runs_of_a_pie_binary_merge_despite_aslr();
	labels_are_part_of_the_sample_key();
	label_order_does_not_matter();
	drops_all_zero_samples_and_what_only_they_use();
	symbolized_locations_keep_their_lines_and_functions();
}

Test(merge, combines_headers)
{
	struct profconv_profile *in[2];

	a = app(0x1000, 1, 1, NULL);
	b = app(0x1000, 1, 1, NULL);
	profconv_profile_set_period(b, "space", "bytes", 4096);
	profconv_profile_set_time(a, 0, 10);
	profconv_profile_set_time(b, 500, 20);
	profconv_profile_add_comment(a, "c1");
	profconv_profile_add_comment(b, "c1");
	profconv_profile_add_comment(b, "c2");
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(i64, profconv_profile_period(out, NULL), 4096));
	cr_assert(eq(i64, profconv_profile_duration_nanos(out), 30));
	cr_assert(eq(i64, profconv_profile_time_nanos(out), 500));
	cr_assert(eq(sz, profconv_profile_comment_count(out), 2));
}

static void
rejects_incompatible_profiles(void)
{
	struct profconv_profile *in[2];

	a = app(0x1000, 1, 1, NULL);
	profconv_profile_new(&b);
	profconv_profile_add_sample_type(b, "samples", "count");
	profconv_profile_set_period(b, "cpu", "nanoseconds", 1);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), PROFCONV_EINVAL));
	cr_assert(zero(ptr, out));
	cr_assert(eq(str, ERRMSG, "profile 2 is incompatible: period type "
	    "cpu/nanoseconds, not space/bytes"));
	profconv_profile_set_period(b, "space", "bytes", 1);
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "profiles have no sample type in common"));
	cr_assert(eq(int, profconv_profile_merge(&out, in, 0), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "no profiles to merge"));
	drop();
}

static void
rejects_a_type_in_another_unit(void)
{
	struct profconv_profile *in[2];

	a = app(0x1000, 1, 1, NULL);
	profconv_profile_new(&b);
	profconv_profile_add_sample_type(b, "space", "kilobytes");
	profconv_profile_set_period(b, "space", "bytes", 1);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "profile 2 is incompatible: space is in "
	    "kilobytes, not bytes"));
	drop();
}

Test(merge, rejects_profiles_that_do_not_fit)
{
	rejects_incompatible_profiles();
	rejects_a_type_in_another_unit();
}

static void
keeps_only_common_types_and_drops_samples_left_zero(void)
{
	struct profconv_profile *in[2];
	struct profconv_value_type vt;
	int64_t v[2] = { 0, 7 };
	uint32_t loc;

	a = app(0x1000, 1, 1, NULL);		/* objects, space */
	profconv_profile_new(&b);
	profconv_profile_add_sample_type(b, "extra", "count");
	profconv_profile_add_sample_type(b, "objects", "count");
	profconv_profile_set_period(b, "space", "bytes", 1);
	profconv_profile_add_location(b, 0, 0x10, NULL, 0, 0, &loc);
	profconv_profile_add_sample(b, &loc, 1, v, NULL, 0);
	v[0] = 5;
	v[1] = 0;			/* nonzero only in "extra" */
	profconv_profile_add_sample(b, &loc, 1, v, NULL, 0);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0), "%s",
	    profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_sample_type_count(out), 1));
	profconv_profile_sample_type(out, 0, &vt);
	cr_assert(eq(str, (char *)vt.type, "objects"));
	cr_assert(eq(sz, profconv_profile_sample_count(out), 3));
	cr_assert(eq(i64, total(out, 0), 9));
	drop();
}

Test(merge, merger_takes_sources_one_at_a_time)
{
	struct profconv_merger *mg;
	struct profconv_profile *p;
	int i;

	cr_assert(eq(int, profconv_merger_new(&mg), 0));
	for (i = 0; i < 3; i++) {
		p = app(0x1000 + (uint64_t)i * 0x100000, 2, 3, NULL);
		cr_assert(eq(int, profconv_merger_add(mg, p), 0));
		profconv_profile_free(p);	/* not needed any more */
	}
	cr_assert(eq(int, profconv_merger_finish(&out, mg), 0));
	cr_assert(eq(int, profconv_merger_finish(&a, mg), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "merger already finished"));
	profconv_merger_free(mg);
	cr_assert(eq(sz, profconv_profile_sample_count(out), 2));
	cr_assert(eq(i64, total(out, 0), 15));
	ASSERT_NO_LEAKS();
}

/* The merger matches the two namings in either order. */
static void
merger_matches_objects_space_with_heap_types(void)
{
	struct profconv_profile *in[2];

	a = heap4(0x1000, 9, 4);
	b = app(0x1000, 3, 5, NULL);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(out), 4));
	cr_assert(eq(i64, total(out, 0), 9 + 3 + 5));
	cr_assert(eq(i64, total(out, 3), (4 + 3 + 5) * 16));
	profconv_profile_free(out);
	in[0] = b;
	in[1] = a;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(out), 2));
	expect_type(out, 1, "space");
	cr_assert(eq(i64, total(out, 1), (3 + 5 + 4) * 16));
	drop();
}

Test(merge, matches_sample_types)
{
	keeps_only_common_types_and_drops_samples_left_zero();
	merger_matches_objects_space_with_heap_types();
}

/*
 * NSTACKS samples over 64 locations of binary FILE at BASE: sample i has
 * a stack of 1 + i % 23 frames drawn from i, so that stacks repeat and
 * many are prefixes of others; one in three has a thread label and a
 * numeric label (listed in the order SWAP says), and sample 0 has no
 * stack at all.  Values are (i + 1) * SCALE and 32 times that.  REVERSED
 * adds them last to first.
 */
#define NSTACKS 3000

static struct profconv_profile *
big(const char *file, uint64_t base, int64_t scale, bool reversed, bool swap)
{
	struct profconv_profile *p;
	struct profconv_mapping m = { base, base + 0x10000, 0, file, NULL,
		0, 0, 0, 0 };
	struct profconv_label l[2] = {
		{ .key = "thread", .str = "worker" },
		{ .key = "bytes", .num = 0, .unit = "bytes" },
	}, sl[2];
	uint32_t loc[64], stk[23];
	int64_t v[2];
	size_t i, k, n, j;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	profconv_profile_add_mapping(p, &m, NULL);
	for (i = 0; i < 64; i++)
		profconv_profile_add_location(p, 1, base + 0x1000 + 16 * i,
		    NULL, 0, 0, &loc[i]);
	for (k = 0; k < NSTACKS; k++) {
		i = reversed ? NSTACKS - 1 - k : k;
		n = i == 0 ? 0 : 1 + i % 23;
		for (j = 0; j < n; j++)
			stk[j] = loc[(i / (j + 1) + j * 7) % 64];
		v[0] = (int64_t)(i + 1) * scale;
		v[1] = v[0] * 32;
		l[1].num = (int64_t)(i % 5);
		sl[0] = l[swap ? 1 : 0];
		sl[1] = l[swap ? 0 : 1];
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, n, v,
		    i % 3 == 0 ? sl : NULL, i % 3 == 0 ? 2 : 0), 0), "%s",
		    profconv_errmsg());
	}
	return p;
}

Test(merge, many_samples_merge_by_stack_and_labels)
{
	struct profconv_profile *in[3];
	struct profconv_sample s;
	size_t nsamples, i;

	/* Merging one profile adds up its repeated stacks. */
	a = big("/bin/big", 0x555500000000, 1, false, false);
	cr_assert(eq(int, profconv_profile_merge(&out, &a, 1), 0), "%s",
	    profconv_errmsg());
	nsamples = profconv_profile_sample_count(out);
	cr_assert(gt(sz, nsamples, 1024), "%zu samples", nsamples);
	cr_assert(lt(sz, nsamples, NSTACKS), "%zu samples", nsamples);
	profconv_profile_free(out);
	out = NULL;

	/* The same samples from another run of the binary, in the other
	 * order, labels listed the other way round, twice the values: every
	 * one meets its twin. */
	b = big("/bin/big", 0x7f0000000000, 2, true, true);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&out, in, 2), 0), "%s",
	    profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_sample_count(out), nsamples));
	cr_assert(eq(i64, total(out, 0), 3 * total(a, 0)));
	cr_assert(eq(i64, total(out, 1), 3 * total(a, 1)));
	for (i = 0; i < nsamples; i++) {
		cr_assert(eq(int, profconv_profile_sample(out, i, &s), 0));
		cr_assert(eq(i64, s.values[1], 32 * s.values[0]));
	}
	profconv_profile_free(out);
	out = NULL;

	/* Another binary's samples, at the same addresses, meet none. */
	in[2] = big("/bin/other", 0x555500000000, 1, false, false);
	cr_assert(eq(int, profconv_profile_merge(&out, in, 3), 0), "%s",
	    profconv_errmsg());
	/* The stackless sample is the same in all three. */
	cr_assert(eq(sz, profconv_profile_sample_count(out), 2 * nsamples - 1));
	cr_assert(eq(i64, total(out, 0), 4 * total(a, 0)));
	profconv_profile_free(in[2]);
	ASSERT_NO_LEAKS();
}
