/* SPDX-License-Identifier: MIT */
/*
 * test_builder.c - tests for the legacy readers' builder's finishing
 * heuristics (read/builder.c): map entries merged and ordered into
 * mappings, and every location attached to one, as pprof does.
 */

#include "config.h"

#include <stdint.h>

#include "helpers.h"
#include "read/builder.h"
#include "read/maps.h"

/* A builder with one sample type and one sample per address. */
static void
build(struct pc_legacy *b, const char *const *lines, size_t nlines,
    const uint64_t *addrs, size_t naddrs)
{
	enum pc_map_line kind;
	int64_t one = 1;
	size_t i;

	cr_assert(eq(int, profconv__legacy_init(b), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(b->prof, "samples",
	    "count"), 0));
	for (i = 0; i < nlines; i++)
		cr_assert(eq(int, profconv__maps_parse_line(&b->maps, lines[i],
		    strlen(lines[i]), &kind), 0), "%s", profconv_errmsg());
	for (i = 0; i < naddrs; i++)
		cr_assert(eq(int, profconv__legacy_add_sample(b, &addrs[i], 1,
		    &one, NULL, 0), 0));
}

static struct profconv_profile *
finish(struct pc_legacy *b)
{
	struct profconv_profile *prof;

	cr_assert(eq(int, profconv__legacy_finish(b, &prof), 0));
	profconv__legacy_free(b);
	return prof;
}

static void
expect_mapping(const struct profconv_profile *prof, uint32_t id,
    uint64_t start, uint64_t limit, uint64_t offset, const char *file)
{
	struct profconv_mapping m;

	cr_assert(eq(int, profconv_profile_mapping(prof, id, &m), 0));
	cr_expect(eq(u64, m.start, start), "mapping %u", id);
	cr_expect(eq(u64, m.limit, limit), "mapping %u", id);
	cr_expect(eq(u64, m.offset, offset), "mapping %u", id);
	cr_expect(eq(str, (char *)m.file, (char *)file), "mapping %u", id);
}

static uint32_t
mapping_of(const struct profconv_profile *prof, uint32_t loc)
{
	struct profconv_location l;

	cr_assert(eq(int, profconv_profile_location(prof, loc, &l), 0));
	return l.mapping_id;
}

static void
moves_the_main_binary_first(void)
{
	static const char *const lines[] = {
		"7f0000000000-7f0000001000: /lib/libc-2.15.so",
		"7f0000001000-7f0000002000: [vdso]",
		"7f0000003000-7f0000004000: (deleted)",
		"7f0000005000-7f0000006000: /lib/libm.so.6",
		"00500000-00600000: /usr/bin/app",
		"00700000-00800000: /usr/bin/other",
	};
	static const uint64_t addrs[] = { 0x7f0000000010, 0x500010 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, PC_ARRAY_LEN(lines), addrs, 2);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 6));
	/* Swapped, not rotated: libc takes the app's old place. */
	expect_mapping(prof, 1, 0x500000, 0x600000, 0, "/usr/bin/app");
	expect_mapping(prof, 2, 0x7f0000001000, 0x7f0000002000, 0, "[vdso]");
	expect_mapping(prof, 5, 0x7f0000000000, 0x7f0000001000, 0,
	    "/lib/libc-2.15.so");
	cr_expect(eq(u32, mapping_of(prof, 1), 5));
	cr_expect(eq(u32, mapping_of(prof, 2), 1));
	profconv_profile_free(prof);
}

static void
merges_adjacent_entries_of_one_file(void)
{
	static const char *const lines[] = {
		"00400000-00401000 r-xp 00001000 08:01 1 /bin/app",
		"00401000-00402000 r-xp 00002000 08:01 1 /bin/app",
		/* Adjacent, but the offset does not continue: kept apart. */
		"00402000-00403000 r-xp 00005000 08:01 1 /bin/app",
		/* A nameless piece joins the file before it. */
		"00403000-00404000 r-xp 00000000 00:00 0",
	};
	static const uint64_t addrs[] = { 0x401800, 0x403800 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, PC_ARRAY_LEN(lines), addrs, 2);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 2));
	expect_mapping(prof, 1, 0x400000, 0x402000, 0x1000, "/bin/app");
	expect_mapping(prof, 2, 0x402000, 0x404000, 0x5000, "/bin/app");
	cr_expect(eq(u32, mapping_of(prof, 1), 1));
	cr_expect(eq(u32, mapping_of(prof, 2), 2));
	profconv_profile_free(prof);
}

static void
adds_one_fake_mapping_when_there_is_no_map(void)
{
	static const uint64_t addrs[] = { 0x1000, 0x2000, 0 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, NULL, 0, addrs, 3);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	expect_mapping(prof, 1, 0, UINT64_MAX, 0, "");
	cr_expect(eq(u32, mapping_of(prof, 1), 1));
	cr_expect(eq(u32, mapping_of(prof, 2), 1));
	/* Address 0 stays without a mapping, as in pprof. */
	cr_expect(eq(u32, mapping_of(prof, 3), 0));
	cr_expect(eq(str, (char *)profconv_profile_drop_frames(prof),
	    "ProfileData::Add|ProfileData::prof_handler|"
	    "CpuProfiler::prof_handler|__pthread_sighandler|__restore"));
	profconv_profile_free(prof);
}

static void
drops_a_leading_anon_hugepage(void)
{
	static const char *const lines[] = {
		"00200000-00400000: /anon_hugepage",
		"00400000-00500000: /bin/app",
	};
	static const uint64_t addrs[] = { 0x400010 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, PC_ARRAY_LEN(lines), addrs, 1);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	expect_mapping(prof, 1, 0x400000, 0x500000, 0, "/bin/app");
	profconv_profile_free(prof);
}

static void
starts_a_main_binary_at_0x400000(void)
{
	static const char *const lines[] = {
		"00500000-00600000: /bin/tool (@100000)",
	};
	static const uint64_t addrs[] = { 0x500010 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, 1, addrs, 1);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	expect_mapping(prof, 1, 0x400000, 0x600000, 0, "/bin/tool");
	profconv_profile_free(prof);
}

/* The main binary: first among the mappings, after no anon hugepage,
 * and starting at 0x400000. */
Test(builder, places_the_main_binary)
{
	moves_the_main_binary_first();
	drops_a_leading_anon_hugepage();
	starts_a_main_binary_at_0x400000();
}

static void
grows_a_split_mapping_back_to_its_start(void)
{
	static const char *const lines[] = {
		"7f0000002000-7f0000003000: /lib/libc.so.6 (@2000)",
	};
	static const uint64_t addrs[] = { 0x7f0000000010 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, 1, addrs, 1);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	expect_mapping(prof, 1, 0x7f0000000000, 0x7f0000003000, 0,
	    "/lib/libc.so.6");
	cr_expect(eq(u32, mapping_of(prof, 1), 1));
	profconv_profile_free(prof);
}

/* Pieces of one file joined into one mapping. */
Test(builder, joins_split_mappings)
{
	merges_adjacent_entries_of_one_file();
	grows_a_split_mapping_back_to_its_start();
}

static void
fake_mapping_wins_over_the_split_repair(void)
{
	static const char *const lines[] = {
		"7f0000002000-7f0000003000: /lib/libc.so.6 (@2000)",
	};
	/* pprof keeps the fake mapping in its list: a later address that
	 * the repair would catch falls into the fake one first. */
	static const uint64_t addrs[] = { 0x10, 0x7f0000000010 };
	struct pc_legacy b;
	struct profconv_profile *prof;

	build(&b, lines, 1, addrs, 2);
	prof = finish(&b);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 2));
	expect_mapping(prof, 1, 0x7f0000002000, 0x7f0000003000, 0x2000,
	    "/lib/libc.so.6");
	expect_mapping(prof, 2, 0, UINT64_MAX, 0, "");
	cr_expect(eq(u32, mapping_of(prof, 1), 2));
	cr_expect(eq(u32, mapping_of(prof, 2), 2));
	profconv_profile_free(prof);
}

/* The fake mapping for addresses no map entry holds. */
Test(builder, fake_mapping_for_unmapped_addresses)
{
	adds_one_fake_mapping_when_there_is_no_map();
	fake_mapping_wins_over_the_split_repair();
}
