/* SPDX-License-Identifier: MIT */
/*
 * test_compat.c - making profiles comparable (lib/transform/compat.c):
 * the sample types all of them have, kept in the first one's order, and
 * pprof's two names for a heap profile's values (objects/space against
 * alloc_* and inuse_*).
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "model/seams.h"
#include "transform/types.h"
#include "merge_fixture.h"

TestSuite(compat, .fini = drop);

static void
compatibilize_keeps_common_types_in_first_order(void)
{
	struct profconv_profile *in[2];
	struct profconv_value_type vt;
	struct profconv_sample s;
	uint32_t loc;
	int64_t v[3] = { 1, 2, 3 };

	a = app(0x1000, 1, 1, NULL);		/* objects, space */
	profconv_profile_new(&b);
	profconv_profile_add_sample_type(b, "space", "bytes");
	profconv_profile_add_sample_type(b, "extra", "count");
	profconv_profile_add_sample_type(b, "objects", "count");
	profconv_profile_add_location(b, 0, 0x10, NULL, 0, 0, &loc);
	profconv_profile_add_sample(b, &loc, 1, v, NULL, 0);
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profiles_compatibilize(in, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(b), 2));
	profconv_profile_sample_type(b, 0, &vt);
	cr_assert(eq(str, (char *)vt.type, "objects"));
	profconv_profile_sample(b, 0, &s);
	cr_assert(eq(i64, s.values[0], 3));
	cr_assert(eq(i64, s.values[1], 1));
	drop();
}

/* The first dump of a process (nothing freed: objects/space) and a later
 * one (alloc_* and inuse_*) compare with all four heap types. */
static void
compatibilize_widens_objects_space_to_heap_types(void)
{
	static const char *const names[] = { "alloc_objects", "alloc_space",
		"inuse_objects", "inuse_space" };
	struct profconv_profile *in[2];
	struct profconv_sample s;
	size_t i;

	a = app(0x1000, 3, 5, NULL);
	b = heap4(0x1000, 9, 4);
	profconv_profile_set_default_sample_type(a, "space");
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profiles_compatibilize(in, 2), 0));
	for (i = 0; i < 4; i++) {
		expect_type(a, i, names[i]);
		expect_type(b, i, names[i]);
	}
	cr_assert(eq(str, (char *)profconv_profile_default_sample_type(a),
	    "inuse_space"));
	cr_assert(eq(sz, profconv_profile_sample_count(a), 2));
	profconv_profile_sample(a, 1, &s);
	cr_assert(eq(i64, s.values[0], 5));
	cr_assert(eq(i64, s.values[1], 80));
	cr_assert(eq(i64, s.values[2], 5));
	cr_assert(eq(i64, s.values[3], 80));
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[2], 3));
	cr_assert(eq(i64, s.values[3], 48));
	cr_assert(eq(int, profconv_profile_subtract(&out, b, a), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(out), 4));
	ASSERT_NO_LEAKS();
	drop();
}

/* jemalloc without prof_accum (inuse only) against one with it, and
 * against an objects/space dump: the in-use pair is what they share. */
static void
compatibilize_keeps_inuse_of_jemalloc_without_accum(void)
{
	struct profconv_profile *in[3], *c;
	uint32_t loc;
	int64_t v[2] = { 2, 32 };

	profconv_profile_new(&c);
	profconv_profile_add_sample_type(c, "inuse_objects", "count");
	profconv_profile_add_sample_type(c, "inuse_space", "bytes");
	profconv_profile_set_period(c, "space", "bytes", 512);
	profconv_profile_add_location(c, 0, 0x10, NULL, 0, 0, &loc);
	profconv_profile_add_sample(c, &loc, 1, v, NULL, 0);
	a = heap4(0x1000, 9, 4);
	b = app(0x1000, 3, 5, NULL);
	in[0] = c;
	in[1] = a;
	in[2] = b;
	cr_assert(eq(int, profconv_profiles_compatibilize(in, 3), 0));
	for (size_t i = 0; i < 3; i++) {
		cr_assert(eq(sz, profconv_profile_sample_type_count(in[i]), 2));
		expect_type(in[i], 0, "inuse_objects");
		expect_type(in[i], 1, "inuse_space");
	}
	cr_assert(eq(i64, total(a, 1), 64));
	cr_assert(eq(i64, total(b, 1), 128));
	profconv_profile_free(c);
	drop();
}

static void
compatibilize_fails_without_common_type(void)
{
	struct profconv_profile *in[2];

	profconv_profile_new(&a);
	profconv_profile_add_sample_type(a, "x", "count");
	profconv_profile_new(&b);
	profconv_profile_add_sample_type(b, "y", "count");
	in[0] = a;
	in[1] = b;
	cr_assert(eq(int, profconv_profiles_compatibilize(in, 2), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "profiles have no sample type in common"));
	drop();
}

/* The slot standing for a type under the other heap naming: objects/
 * space for alloc_* and inuse_*, inuse_* for objects/space; -1 for any
 * other pair. */
Test(compat, heap_alias_maps_between_the_namings)
{
	const struct profconv_profile *heap, *plain;

	a = heap4(0x1000, 9, 4);		/* alloc_*, inuse_* */
	b = app(0x1000, 3, 5, NULL);		/* objects, space */
	heap = a;
	plain = b;
	cr_assert(eq(int, profconv__heap_alias(plain, heap,
	    heap->sample_types[0].type), 0));
	cr_assert(eq(int, profconv__heap_alias(plain, heap,
	    heap->sample_types[1].type), 1));
	cr_assert(eq(int, profconv__heap_alias(plain, heap,
	    heap->sample_types[3].type), 1));
	cr_assert(eq(int, profconv__heap_alias(heap, plain,
	    plain->sample_types[0].type), 2));
	cr_assert(eq(int, profconv__heap_alias(heap, plain,
	    plain->sample_types[1].type), 3));
	/* Same naming on both sides: no alias. */
	cr_assert(eq(int, profconv__heap_alias(heap, heap,
	    heap->sample_types[0].type), -1));
	cr_assert(eq(int, profconv__heap_alias(plain, plain,
	    plain->sample_types[0].type), -1));
}

/* Types kept by index, in the order given, with their values. */
static void
select_types_reorders_values(void)
{
	static const size_t keep[] = { 3, 0 };
	struct profconv_sample s;

	a = heap4(0x1000, 9, 4);
	cr_assert(eq(int, profconv__select_types(a, keep, 2), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(a), 2));
	expect_type(a, 0, "inuse_space");
	expect_type(a, 1, "alloc_objects");
	profconv_profile_sample(a, 0, &s);
	cr_assert(eq(i64, s.values[0], 64));
	cr_assert(eq(i64, s.values[1], 9));
	drop();
}

/* Every type in its order: nothing to do, and the values are not
 * copied (profdiff of two dumps of one program). */
static void
select_types_leaves_every_type_in_order_in_place(void)
{
	static const size_t keep[] = { 0, 1, 2, 3 };
	struct profconv_sample s;
	const int64_t *before;

	a = heap4(0x1000, 9, 4);
	profconv_profile_sample(a, 0, &s);
	before = s.values;
	cr_assert(eq(int, profconv__select_types(a, keep, 4), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(a), 4));
	expect_type(a, 0, "alloc_objects");
	expect_type(a, 3, "inuse_space");
	profconv_profile_sample(a, 0, &s);
	cr_expect(eq(ptr, (void *)s.values, (void *)before));
	cr_expect(eq(i64, s.values[0], 9));
	cr_expect(eq(i64, s.values[3], 64));
	drop();
}

/* Types selected by index: reordered, or left in place when all stay. */
Test(compat, select_types_by_index)
{
	select_types_reorders_values();
	select_types_leaves_every_type_in_order_in_place();
}

/* No profiles, or one: nothing to make comparable, nothing changes. */
static void
zero_or_one_profile_is_left_alone(void)
{
	struct profconv_profile *in[1];

	cr_assert(eq(int, profconv_profiles_compatibilize(in, 0), 0));
	a = heap4(0x1000, 9, 4);
	in[0] = a;
	cr_assert(eq(int, profconv_profiles_compatibilize(in, 1), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(a), 4));
	drop();
}

/* profconv_profiles_compatibilize(): the types every profile has, in the
 * first one's order, heap namings widened or narrowed to match, and an
 * error when nothing is shared.  Each case frees its profiles (drop()). */
Test(compat, compatibilize_makes_profiles_comparable)
{
	compatibilize_keeps_common_types_in_first_order();
	compatibilize_widens_objects_space_to_heap_types();
	compatibilize_keeps_inuse_of_jemalloc_without_accum();
	compatibilize_fails_without_common_type();
	zero_or_one_profile_is_left_alone();
}
