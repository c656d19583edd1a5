/* SPDX-License-Identifier: MIT */
/* test_access.c - tests for the profile model's public getters
 * (lib/model/access.c): what they hand back, and what they refuse. */

#include "config.h"

#include "helpers.h"

static struct profconv_profile *prof;

static void
make(void)
{
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
}

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(access, .init = make, .fini = drop);

/* Two types; a mapping; main, and grow inlined into it at one place;
 * two samples, the second without a stack, with a label. */
static void
build(void)
{
	struct profconv_mapping m = { .start = 0x400000, .limit = 0x500000,
		.file = "/bin/app", .build_id = "abcd", .has_functions = 1,
		.has_inline_frames = 1 };
	struct profconv_function fm = { "main", "main", "app.c", 10 };
	struct profconv_function fg = { "grow", "_Z4growv", "grow.h", 3 };
	struct profconv_line inl[2] = { { 2, 4, 0 }, { 1, 12, 7 } };
	struct profconv_label lab = { .key = "bytes", .num = 64,
		.unit = "bytes" };
	uint32_t id, locs[3];
	int64_t v0[2] = { 2, 128 }, v1[2] = { 1, 16 };

	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "objects",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "space",
	    "bytes"), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	cr_assert(eq(int, profconv_profile_add_function(prof, &fm, &id), 0));
	cr_assert(eq(int, profconv_profile_add_function(prof, &fg, &id), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 1, 0x401000,
	    inl, 2, 0, &locs[0]), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 1, 0x402000,
	    &inl[1], 1, 0, &locs[1]), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 0x9000,
	    NULL, 0, 1, &locs[2]), 0));
	cr_assert(eq(int, profconv_profile_add_sample(prof, locs, 3, v0, NULL,
	    0), 0));
	cr_assert(eq(int, profconv_profile_add_sample(prof, NULL, 0, v1, &lab,
	    1), 0));
}

Test(access, reads_back_what_was_built)
{
	struct profconv_mapping m;
	struct profconv_function f;
	struct profconv_location l;
	struct profconv_sample s;
	struct profconv_label lab;

	build();
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_assert(eq(sz, profconv_profile_function_count(prof), 2));
	cr_assert(eq(sz, profconv_profile_location_count(prof), 3));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_expect(eq(u64, m.limit, 0x500000));
	cr_expect(eq(str, (char *)m.build_id, "abcd"));
	cr_expect(eq(u32, m.has_inline_frames, 1));
	cr_expect(eq(u32, m.has_filenames, 0));
	cr_assert(eq(int, profconv_profile_function(prof, 2, &f), 0));
	cr_expect(eq(str, (char *)f.system_name, "_Z4growv"));
	cr_expect(eq(i64, f.start_line, 3));
	/* Lines innermost first: grow inlined into main. */
	cr_assert(eq(int, profconv_profile_location(prof, 1, &l), 0));
	cr_assert(eq(sz, l.nlines, 2));
	cr_expect(eq(u32, l.lines[0].function_id, 2));
	cr_expect(eq(u32, l.lines[1].function_id, 1));
	cr_expect(eq(i64, l.lines[1].column, 7));
	cr_assert(eq(int, profconv_profile_location(prof, 3, &l), 0));
	cr_expect(zero(ptr, (void *)l.lines));
	cr_expect(eq(u32, l.mapping_id, 0));
	cr_expect(eq(int, l.is_folded, 1));
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_expect(eq(sz, s.nlocations, 3));
	cr_expect(eq(i64, s.values[1], 128));
	cr_expect(eq(sz, s.nlabels, 0));
	cr_assert(eq(int, profconv_profile_sample(prof, 1, &s), 0));
	cr_expect(eq(sz, s.nlocations, 0));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 1, 0, &lab), 0));
	cr_expect(eq(str, (char *)lab.key, "bytes"));
	cr_expect(zero(ptr, (void *)lab.str));
	cr_expect(eq(str, (char *)lab.unit, "bytes"));
	cr_expect(eq(i64, lab.num, 64));
}

/* The ids are copied as far as the buffer holds, the count always
 * given; a sample without a stack copies nothing. */
Test(access, copies_a_samples_ids_out)
{
	uint32_t ids[4] = { 0, 0, 0, 99 };
	size_t n = 0;

	build();
	cr_assert(eq(int, profconv_profile_sample_locations(prof, 0, ids, 4,
	    &n), 0));
	cr_expect(eq(sz, n, 3));
	cr_expect(eq(u32, ids[0], 1));
	cr_expect(eq(u32, ids[1], 2));
	cr_expect(eq(u32, ids[2], 3));
	cr_expect(eq(u32, ids[3], 99), "past the sample's ids: untouched");
	ids[0] = ids[1] = 0;
	cr_assert(eq(int, profconv_profile_sample_locations(prof, 0, ids, 1,
	    NULL), 0));
	cr_expect(eq(u32, ids[0], 1));
	cr_expect(eq(u32, ids[1], 0), "past CAP: untouched");
	n = 7;
	cr_assert(eq(int, profconv_profile_sample_locations(prof, 0, NULL, 0,
	    &n), 0));
	cr_expect(eq(sz, n, 3));
	cr_assert(eq(int, profconv_profile_sample_locations(prof, 1, ids, 4,
	    &n), 0));
	cr_expect(eq(sz, n, 0));
	cr_expect(eq(int, profconv_profile_sample_locations(prof, 2, ids, 4,
	    &n), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no sample 2"));
}

Test(access, refuses_ids_and_indexes_out_of_range)
{
	struct profconv_mapping m;
	struct profconv_function f;
	struct profconv_location l;
	struct profconv_sample s;
	struct profconv_label lab;
	struct profconv_value_type vt;

	build();
	cr_expect(eq(int, profconv_profile_mapping(prof, 0, &m),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no mapping 0"));
	cr_expect(eq(int, profconv_profile_function(prof, 3, &f),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no function 3"));
	cr_expect(eq(int, profconv_profile_location(prof, 4, &l),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no location 4"));
	cr_expect(eq(int, profconv_profile_sample(prof, 2, &s),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no sample 2"));
	cr_expect(eq(int, profconv_profile_sample_label(prof, 0, 0, &lab),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no label 0 in sample 0"));
	cr_expect(eq(int, profconv_profile_sample_type(prof, 2, &vt),
	    PROFCONV_EINVAL));
}

Test(access, totals_sum_one_slot_and_saturate)
{
	int64_t big[2] = { INT64_MAX, -1000 }, t;

	build();
	cr_assert(eq(int, profconv_profile_total(prof, 0, &t), 0));
	cr_expect(eq(i64, t, 3));
	cr_assert(eq(int, profconv_profile_total(prof, 1, &t), 0));
	cr_expect(eq(i64, t, 144));
	cr_assert(eq(int, profconv_profile_add_sample(prof, NULL, 0, big, NULL,
	    0), 0));
	cr_assert(eq(int, profconv_profile_total(prof, 0, &t), 0));
	cr_expect(eq(i64, t, INT64_MAX));
	cr_assert(eq(int, profconv_profile_total(prof, 1, &t), 0));
	cr_expect(eq(i64, t, -856));
	cr_expect(eq(int, profconv_profile_total(prof, 2, &t),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no sample type 2"));
}
