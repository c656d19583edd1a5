/* SPDX-License-Identifier: MIT */
/* test_profile.c - tests for the profile model: builders, accessors and the
 * seams through which the rest of the library changes its layout. */

#include "config.h"

#include "helpers.h"
#include "model/seams.h"

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

TestSuite(model, .init = make, .fini = drop);

/* A heap-shaped profile: two types, a mapping, a function, two locations. */
static void
build_small(void)
{
	struct profconv_mapping m = { .start = 0x400000, .limit = 0x500000,
		.file = "/bin/app", .build_id = "abcd", .has_functions = 1 };
	struct profconv_function f = { "main", "main", "app.c", 10 };
	struct profconv_line ln = { 1, 12, 3 };
	struct profconv_label lab[2] = {
		{ .key = "bytes", .num = 64 },
		{ .key = "thread", .str = "worker" },
	};
	uint32_t id, locs[2];
	int64_t v[2] = { 2, 128 };

	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "objects", "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "space", "bytes"), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	cr_assert(eq(u32, id, 1));
	cr_assert(eq(int, profconv_profile_add_function(prof, &f, &id), 0));
	cr_assert(eq(u32, id, 1));
	cr_assert(eq(int, profconv_profile_add_location(prof, 1, 0x401000, &ln, 1, 0, &locs[0]), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 1, 0x402000, NULL, 0, 0, &locs[1]), 0));
	cr_assert(eq(int, profconv_profile_add_sample(prof, locs, 2, v, lab, 2), 0));
}

static void
new_profile_is_empty(void)
{
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 0));
	cr_assert(eq(int, profconv_profile_default_sample_index(prof),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, (char *)profconv_profile_drop_frames(prof), ""));
}

Test(model, builds_and_reads_back_a_sample)
{
	struct profconv_sample s;
	struct profconv_label l;
	struct profconv_location loc;
	struct profconv_function f;
	struct profconv_mapping m;

	build_small();
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_assert(eq(sz, s.nlocations, 2));
	cr_assert(eq(u32, sample_location(prof, 0, 0), 1));
	cr_assert(eq(u32, sample_location(prof, 0, 1), 2));
	cr_assert(eq(i64, s.values[0], 2));
	cr_assert(eq(i64, s.values[1], 128));
	cr_assert(eq(sz, s.nlabels, 2));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 0, 0, &l), 0));
	cr_assert(eq(str, (char *)l.key, "bytes"));
	cr_assert(zero(ptr, (void *)l.str));
	cr_assert(eq(i64, l.num, 64));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 0, 1, &l), 0));
	cr_assert(eq(str, (char *)l.str, "worker"));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_assert(eq(u64, loc.address, 0x401000));
	cr_assert(eq(sz, loc.nlines, 1));
	cr_assert(eq(i64, loc.lines[0].line, 12));
	cr_assert(eq(i64, loc.lines[0].column, 3));
	cr_assert(eq(int, profconv_profile_function(prof, loc.lines[0].function_id, &f), 0));
	cr_assert(eq(str, (char *)f.name, "main"));
	cr_assert(eq(i64, f.start_line, 10));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(eq(str, (char *)m.file, "/bin/app"));
	cr_assert(eq(str, (char *)m.build_id, "abcd"));
	cr_assert(eq(int, m.has_functions, 1));
	cr_assert(eq(int, m.has_filenames, 0));
}

Test(model, default_sample_type_is_named_or_last)
{
	build_small();
	cr_assert(eq(int, profconv_profile_default_sample_index(prof), 1));
	cr_assert(eq(int, profconv_profile_set_default_sample_type(prof, "objects"), 0));
	cr_assert(eq(int, profconv_profile_default_sample_index(prof), 0));
	cr_assert(eq(int, profconv_profile_sample_type_index(prof, "space"), 1));
	cr_assert(eq(int, profconv_profile_sample_type_index(prof, "nope"),
	    PROFCONV_ENOTFOUND));
}

Test(model, rejects_sample_type_after_samples)
{
	build_small();
	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "x", "y"), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "sample types must be added before samples"));
}

Test(model, rejects_unknown_location_in_sample)
{
	uint32_t loc = 9;
	int64_t v[2] = { 0, 0 };

	build_small();
	cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v, NULL, 0), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "sample refers to unknown location 9"));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
}

Test(model, rejects_unknown_mapping_and_function)
{
	struct profconv_line ln = { 5, 0, 0 };

	build_small();
	cr_assert(eq(int, profconv_profile_add_location(prof, 3, 1, NULL, 0, 0, NULL), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "location refers to unknown mapping 3"));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 1, &ln, 1, 0, NULL), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "location line refers to unknown function 5"));
}

Test(model, rejects_empty_string_label)
{
	struct profconv_label l = { .key = "k", .str = "" };
	int64_t v[2] = { 0, 0 };

	build_small();
	cr_assert(eq(int, profconv_profile_add_sample(prof, NULL, 0, v, &l, 1), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "string label 'k' has an empty value"));
}

Test(model, header_fields_round_trip)
{
	struct profconv_value_type vt;

	cr_assert(eq(int, profconv_profile_set_period(prof, "space", "bytes", 524288), 0));
	cr_assert(eq(int, profconv_profile_set_drop_frames(prof, "malloc|free"), 0));
	cr_assert(eq(int, profconv_profile_set_keep_frames(prof, "keep"), 0));
	cr_assert(eq(int, profconv_profile_set_doc_url(prof, "https://example.org/doc"), 0));
	cr_assert(eq(int, profconv_profile_add_comment(prof, "first"), 0));
	cr_assert(eq(int, profconv_profile_add_comment(prof, "second"), 0));
	profconv_profile_set_time(prof, 1234, 5678);
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 524288));
	cr_assert(eq(str, (char *)vt.type, "space"));
	cr_assert(eq(str, (char *)vt.unit, "bytes"));
	cr_assert(eq(str, (char *)profconv_profile_drop_frames(prof), "malloc|free"));
	cr_assert(eq(str, (char *)profconv_profile_keep_frames(prof), "keep"));
	cr_assert(eq(str, (char *)profconv_profile_doc_url(prof), "https://example.org/doc"));
	cr_assert(eq(sz, profconv_profile_comment_count(prof), 2));
	cr_assert(eq(str, (char *)profconv_profile_comment(prof, 1), "second"));
	cr_assert(zero(ptr, (void *)profconv_profile_comment(prof, 2)));
	cr_assert(eq(i64, profconv_profile_time_nanos(prof), 1234));
	cr_assert(eq(i64, profconv_profile_duration_nanos(prof), 5678));
}

Test(model, holds_a_million_samples)
{
	int64_t v[1];
	uint32_t locs[3] = { 1, 1, 1 };
	size_t i;
	int64_t t;

	profconv_profile_add_sample_type(prof, "samples", "count");
	profconv_profile_add_location(prof, 0, 0x10, NULL, 0, 0, NULL);
	for (i = 0; i < 1000000; i++) {
		v[0] = (int64_t)i;
		cr_assert(eq(int, profconv_profile_add_sample(prof, locs, 3, v, NULL, 0), 0));
	}
	profconv_profile_total(prof, 0, &t);
	cr_assert(eq(i64, t, 499999500000));
	ASSERT_NO_LEAKS();
}

static void
free_accepts_null(void)
{
	profconv_profile_free(NULL);
}

/* A new profile, and freeing none. */
Test(model, new_and_free)
{
	new_profile_is_empty();
	free_accepts_null();
}

/* --- the seams: only profile.c changes the layout ----------------------------- */

static void
expect_type(size_t i, const char *type, const char *unit)
{
	struct profconv_value_type vt;

	cr_assert(eq(int, profconv_profile_sample_type(prof, i, &vt), 0));
	cr_expect(eq(str, (char *)vt.type, (char *)type), "type %zu", i);
	cr_expect(eq(str, (char *)vt.unit, (char *)unit), "type %zu", i);
}

/* Add N one-frame samples at location 1, valued (I + 1, 10 * (I + 1)). */
static void
add_samples(size_t n)
{
	uint32_t loc = 1;
	int64_t v[2];
	size_t i;

	for (i = 0; i < n; i++) {
		v[0] = (int64_t)i + 1;
		v[1] = 10 * ((int64_t)i + 1);
		cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v,
		    NULL, 0), 0));
	}
}

/* jemalloc's case: alloc types put in front after samples exist. */
Test(model, retype_widens_with_zeros_in_front)
{
	static const ptrdiff_t from[4] = { -1, -1, 0, 1 };
	struct pc_vtype t[4];
	static const int64_t want0[4] = { 0, 0, 1, 10 };
	static const int64_t want2[4] = { 0, 0, 2, 20 };

	build_small();
	add_samples(2);
	cr_assert(eq(int, profconv_profile_set_default_sample_type(prof,
	    "space"), 0));
	t[2] = prof->sample_types[0];
	t[3] = prof->sample_types[1];
	cr_assert(eq(int, profconv__intern(prof, "alloc_objects", &t[0].type), 0));
	cr_assert(eq(int, profconv__intern(prof, "count", &t[0].unit), 0));
	cr_assert(eq(int, profconv__intern(prof, "alloc_space", &t[1].type), 0));
	cr_assert(eq(int, profconv__intern(prof, "bytes", &t[1].unit), 0));
	cr_assert(eq(int, profconv__retype(prof, t, from, 4), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 4));
	expect_type(0, "alloc_objects", "count");
	expect_type(3, "space", "bytes");
	expect_values(prof, 1, want0, 4);
	expect_values(prof, 2, want2, 4);
	cr_expect(eq(int, profconv_profile_default_sample_index(prof), 3));
	/* Samples added afterwards have the new width. */
	cr_assert(eq(int, profconv__add_sample_raw(prof, NULL, 0, want2, NULL,
	    0), 0));
	expect_values(prof, 3, want2, 4);
	cr_expect(eq(sz, prof->nvalues, 4 * prof->nsamples));
}

/* merge's case: keep the types in common, in a new order. */
Test(model, retype_narrows_and_moves_a_lost_default)
{
	static const ptrdiff_t from[1] = { 0 };
	static const int64_t want[1] = { 2 };
	struct pc_vtype t[1];

	build_small();
	add_samples(1);
	cr_assert(eq(int, profconv_profile_set_default_sample_type(prof,
	    "space"), 0));
	t[0] = prof->sample_types[0];
	cr_assert(eq(int, profconv__retype(prof, t, from, 1), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 1));
	expect_type(0, "objects", "count");
	expect_values(prof, 0, want, 1);
	expect_values(prof, 1, (const int64_t[]){ 1 }, 1);
	cr_expect(eq(str, (char *)profconv_profile_default_sample_type(prof),
	    "objects"));
	/* Down to none: no types, no values, no default. */
	cr_assert(eq(int, profconv__retype(prof, NULL, NULL, 0), 0));
	cr_expect(eq(sz, profconv_profile_sample_type_count(prof), 0));
	cr_expect(eq(sz, profconv_profile_sample_count(prof), 2));
	cr_expect(eq(str, (char *)profconv_profile_default_sample_type(prof),
	    ""));
}

/* Keep every other sample, asked once each, in order. */
static bool
keep_even(const struct profconv_profile *p, size_t i, void *payload)
{
	size_t *calls = payload;

	(void)p;
	cr_assert(eq(sz, i, (*calls)++), "called out of order");
	return i % 2 == 0;
}

Test(model, keep_samples_keeps_stacks_labels_and_order)
{
	struct profconv_sample s;
	struct profconv_label l;
	size_t calls = 0;

	build_small();		/* sample 0: two frames, two labels */
	add_samples(4);		/* samples 1..4: one frame, values (1..4) */
	profconv__keep_samples(prof, keep_even, &calls);
	cr_assert(eq(sz, calls, 5));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_expect(eq(sz, s.nlocations, 2));
	cr_expect(eq(u32, sample_location(prof, 0, 1), 2));
	cr_expect(eq(sz, s.nlabels, 2));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 0, 1, &l), 0));
	cr_expect(eq(str, (char *)l.str, "worker"));
	expect_values(prof, 0, (const int64_t[]){ 2, 128 }, 2);
	expect_values(prof, 1, (const int64_t[]){ 2, 20 }, 2);
	expect_values(prof, 2, (const int64_t[]){ 4, 40 }, 2);
	cr_expect(eq(sz, prof->nvalues, 3 * 2));
}

Test(model, compact_mappings_renumbers_locations)
{
	struct profconv_mapping m = { .start = 0x1000, .limit = 0x2000,
		.file = "/lib/b.so" };
	struct profconv_location loc;
	bool keep[4] = { false, false, true, true };
	uint32_t id;

	build_small();		/* mapping 1 holds locations 1 and 2 */
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	m.file = "/lib/c.so";
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 3, 0x1100, NULL,
	    0, 0, &id), 0));
	cr_assert(eq(int, profconv__compact_mappings(prof, keep), 0));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 2));
	cr_expect(eq(str, (char *)profconv__pstr(prof,
	    pc_mapping(prof, 1)->file), "/lib/b.so"));
	cr_assert(eq(int, profconv_profile_location(prof, 3, &loc), 0));
	cr_expect(eq(u32, loc.mapping_id, 2));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_expect(eq(u32, loc.mapping_id, 0));
}

Test(model, set_location_lines_replaces_and_unfolds)
{
	struct pc_line lines[2] = { { 1, 7, 0 }, { 1, 9, 2 } };
	struct profconv_location loc;

	build_small();
	cr_assert(eq(int, profconv_profile_add_location(prof, 1, 0x403000,
	    NULL, 0, 1, NULL), 0));
	cr_assert(eq(int, profconv__set_location_lines(prof, 3, lines, 2), 0));
	cr_assert(eq(int, profconv_profile_location(prof, 3, &loc), 0));
	cr_expect(eq(sz, loc.nlines, 2));
	cr_expect(eq(i64, loc.lines[1].line, 9));
	cr_expect(eq(int, loc.is_folded, 0));
	/* The others keep their own lines. */
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_expect(eq(sz, loc.nlines, 1));
	cr_expect(eq(i64, loc.lines[0].line, 12));
	profconv__set_location_mapping(prof, 3, 0);
	cr_expect(eq(u32, pc_location(prof, 3)->mapping, 0));
}

/* Reserved room is used without moving the arrays; raw adds number ids. */
Test(model, reserve_then_add_raw)
{
	struct pc_reserve room = { .mappings = 100, .functions = 100,
		.samples = 1000, .values = 2000, .stack = 1000 };
	struct pc_mapping pm = { .start = 1, .limit = 2 };
	struct pc_function pf = { 0 };
	const void *before;
	uint32_t id = 0, loc = 1;
	int64_t v[2] = { 1, 1 };
	size_t i;

	build_small();
	cr_assert(eq(int, profconv__reserve(prof, &room), 0));
	before = prof->mappings;
	for (i = 0; i < 100; i++)
		cr_assert(eq(int, profconv__add_mapping_raw(prof, &pm, &id), 0));
	cr_expect(eq(u32, id, 101));
	cr_expect(eq(ptr, (void *)prof->mappings, (void *)before));
	for (i = 0; i < 100; i++)
		cr_assert(eq(int, profconv__add_function_raw(prof, &pf, &id), 0));
	cr_expect(eq(u32, id, 101));
	before = prof->values;
	for (i = 0; i < 1000; i++)
		cr_assert(eq(int, profconv__add_sample_raw(prof, &loc, 1, v,
		    NULL, 0), 0));
	cr_expect(eq(ptr, (void *)prof->values, (void *)before));
	cr_assert(eq(int, profconv__add_comment_raw(prof, 0), 0));
	cr_expect(eq(sz, profconv_profile_comment_count(prof), 1));
	cr_expect(eq(sz, profconv_profile_sample_count(prof), 1001));
}

/* Sample I of PROF has one label, KEY with number NUM (or string STR). */
static void
expect_label(const struct profconv_profile *p, size_t i, const char *key,
    const char *str, int64_t num)
{
	struct profconv_label l;
	struct profconv_sample s;

	cr_assert(eq(int, profconv_profile_sample(p, i, &s), 0));
	cr_assert(eq(sz, s.nlabels, 1), "sample %zu", i);
	cr_assert(eq(int, profconv_profile_sample_label(p, i, 0, &l), 0));
	cr_expect(eq(str, (char *)l.key, (char *)key), "sample %zu", i);
	if (str != NULL)
		cr_expect(eq(str, (char *)l.str, (char *)str), "sample %zu", i);
	else
		cr_expect(eq(i64, l.num, num), "sample %zu", i);
}

/*
 * Samples with the same labels share one copy of them, as a heap
 * profile's samples share a few dozen sizes; every sample still reads
 * back its own, through sets that come back after others took their
 * slot, and after the samples are handed to another profile.
 */
Test(model, samples_share_their_sets_of_labels)
{
	struct profconv_profile *to = NULL;
	struct profconv_label l = { .key = "bytes", .unit = "bytes" };
	uint32_t loc;
	int64_t v[1] = { 1 };
	size_t i, n = 3 * PC_LABELSETS;

	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "space",
	    "bytes"), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 0x1000,
	    NULL, 0, 0, &loc), 0));
	/* 30 sizes, over and over: 30 copies. */
	for (i = 0; i < 3000; i++) {
		l.num = 16 * (int64_t)(i % 30 + 1);
		cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v,
		    &l, 1), 0));
	}
	cr_expect(eq(sz, prof->nlabels, 30));
	for (i = 0; i < 3000; i++)
		expect_label(prof, i, "bytes", NULL, 16 * (int64_t)(i % 30 + 1));
	/* More sizes than slots, each twice, far apart: all read back. */
	for (i = 0; i < 2 * n; i++) {
		l.num = (int64_t)(i % n) * 8 + 1;
		cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v,
		    &l, 1), 0));
	}
	for (i = 0; i < 2 * n; i++)
		expect_label(prof, 3000 + i, "bytes", NULL,
		    (int64_t)(i % n) * 8 + 1);
	cr_expect(le(sz, prof->nlabels, 30 + 2 * n));
	cr_expect(ge(sz, prof->nlabels, 30 + n));
	/* A string label: a set of its own. */
	l = (struct profconv_label){ .key = "thread", .str = "main" };
	cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v, &l,
	    1), 0));
	expect_label(prof, 3000 + 2 * n, "thread", "main", 0);
	/* Handed over, the samples keep their labels; the profile they
	 * left starts afresh, its sets forgotten. */
	cr_assert(eq(int, profconv_profile_new(&to), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(to, "space",
	    "bytes"), 0));
	profconv__samples_handoff(prof, to);
	expect_label(to, 5, "bytes", NULL, 16 * 6);
	l = (struct profconv_label){ .key = "bytes", .num = 96,
		.unit = "bytes" };
	cr_assert(eq(int, profconv_profile_add_sample(prof, &loc, 1, v, &l,
	    1), 0));
	cr_expect(eq(sz, prof->nlabels, 1));
	expect_label(prof, 0, "bytes", NULL, 96);
	expect_label(to, 5, "bytes", NULL, 16 * 6);
	profconv_profile_free(to);
}

/* Sample I of P has the N ids WANT, leaf first, read back whole, and as
 * far as a buffer one short holds. */
static void
expect_ids(const struct profconv_profile *p, size_t i, const uint32_t *want,
    size_t n)
{
	uint32_t got[8] = { 0 };
	size_t have = 0, j;

	cr_assert(lt(sz, n, PC_ARRAY_LEN(got)));
	cr_assert(eq(int, profconv_profile_sample_locations(p, i, got, n,
	    &have), 0));
	cr_assert(eq(sz, have, n), "sample %zu", i);
	for (j = 0; j < n; j++)
		cr_expect(eq(u32, got[j], want[j]), "sample %zu id %zu", i, j);
	memset(got, 0, sizeof(got));
	cr_assert(eq(int, profconv_profile_sample_locations(p, i, got,
	    n - 1, NULL), 0));
	for (j = 0; j + 1 < n; j++)
		cr_expect(eq(u32, got[j], want[j]), "sample %zu id %zu", i, j);
	cr_expect(eq(u32, got[n - 1], 0), "sample %zu: past the buffer", i);
}

/*
 * The model holds its ids in two bytes while they fit: the first sample
 * with an id past 65,535 widens every stack held before it, and every
 * sample reads back as it was added, through the getter, the pprof
 * writer and reader, and a merge with a profile still narrow.
 */
Test(model, ids_widen_past_two_bytes)
{
	static const uint32_t s0[] = { 1, 65535, 2 }, s1[] = { 7, 3 };
	static const uint32_t s2[] = { 65536 }, s3[] = { 70000, 1 };
	struct profconv_profile *back = NULL, *small = NULL, *merged = NULL;
	struct profconv_profile *both[2];
	int64_t v = 1;
	uint32_t id;
	char *buf;
	size_t len, i;
	FILE *fp;

	cr_assert(eq(int, profconv_profile_add_sample_type(prof, "space",
	    "bytes"), 0));
	for (i = 0; i < 70000; i++)
		cr_assert(eq(int, profconv_profile_add_location(prof, 0,
		    0x1000 + i, NULL, 0, 0, &id), 0));
	cr_assert(eq(int, profconv_profile_add_sample(prof, s0, 3, &v, NULL,
	    0), 0));
	cr_assert(eq(int, profconv_profile_add_sample(prof, s1, 2, &v, NULL,
	    0), 0));
	cr_expect(not(prof->stack_wide));
	expect_ids(prof, 0, s0, 3);
	v = 2;
	cr_assert(eq(int, profconv_profile_add_sample(prof, s2, 1, &v, NULL,
	    0), 0));
	cr_expect(prof->stack_wide);
	cr_assert(eq(int, profconv_profile_add_sample(prof, s3, 2, &v, NULL,
	    0), 0));
	expect_ids(prof, 0, s0, 3);
	expect_ids(prof, 1, s1, 2);
	expect_ids(prof, 2, s2, 1);
	expect_ids(prof, 3, s3, 2);

	fp = mem_stream(&buf, &len);
	cr_assert(eq(int, profconv_profile_write(prof, fp, NULL), 0));
	fclose(fp);
	cr_assert(eq(int, profconv_profile_read_mem(&back, buf, len, NULL,
	    NULL), 0), "%s", ERRMSG);
	free(buf);
	expect_ids(back, 0, s0, 3);
	expect_ids(back, 2, s2, 1);
	expect_ids(back, 3, s3, 2);

	/* Merged with a narrow profile of the same first locations: the
	 * merger renumbers, so each stack is found by its addresses; the
	 * one both hold sums. */
	cr_assert(eq(int, profconv_profile_new(&small), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(small, "space",
	    "bytes"), 0));
	for (i = 0; i < 8; i++)
		cr_assert(eq(int, profconv_profile_add_location(small, 0,
		    0x1000 + i, NULL, 0, 0, &id), 0));
	v = 5;
	cr_assert(eq(int, profconv_profile_add_sample(small, s1, 2, &v, NULL,
	    0), 0));
	cr_expect(not(small->stack_wide));
	both[0] = prof;
	both[1] = small;
	cr_assert(eq(int, profconv_profile_merge(&merged, both, 2), 0), "%s",
	    ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(merged), 4));
	for (i = 0; i < 4; i++) {
		const struct { const uint32_t *ids; size_t n; int64_t v; }
		    want[] = { { s0, 3, 1 }, { s1, 2, 6 }, { s2, 1, 2 },
		    { s3, 2, 2 } };
		struct profconv_location loc;
		struct profconv_sample s;
		uint32_t got[3];
		size_t n, j, k;

		cr_assert(eq(int, profconv_profile_sample(merged, i, &s), 0));
		cr_assert(eq(int, profconv_profile_sample_locations(merged, i,
		    got, 3, &n), 0));
		for (k = 0; k < 4; k++) {
			for (j = 0; j < n && n == want[k].n; j++) {
				cr_assert(eq(int, profconv_profile_location(
				    merged, got[j], &loc), 0));
				if (loc.address != 0x1000 + want[k].ids[j] - 1)
					break;
			}
			if (j == want[k].n)
				break;
		}
		cr_assert(lt(sz, k, 4), "merged sample %zu is none added", i);
		cr_expect(eq(i64, s.values[0], want[k].v), "stack %zu", k);
	}
	profconv_profile_free(merged);
	profconv_profile_free(small);
	profconv_profile_free(back);
}
