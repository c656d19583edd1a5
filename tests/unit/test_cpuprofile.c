/* SPDX-License-Identifier: MIT */
/*
 * test_cpuprofile.c - tests for the legacy binary CPU profile reader
 * (lib/read/cpuprofile.c).
 */

#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "helpers.h"

#include <criterion/parameterized.h>

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(cpu, .fini = drop);

/* A profile being written: words of WIDTH bytes in one byte order. */
struct wbuf {
	unsigned char data[8192];
	size_t len;
	int width;
	bool big;
};

static void
put(struct wbuf *b, uint64_t v)
{
	int k;

	cr_assert(b->len + (size_t)b->width <= sizeof(b->data));
	for (k = 0; k < b->width; k++)
		b->data[b->len + (size_t)(b->big ? b->width - 1 - k : k)] =
		    (unsigned char)(v >> (8 * k));
	b->len += (size_t)b->width;
}

static void
start(struct wbuf *b, int width, bool big, uint64_t period_us)
{
	b->len = 0;
	b->width = width;
	b->big = big;
	put(b, 0);
	put(b, 3);
	put(b, 0);
	put(b, period_us);
	put(b, 0);
}

/* A record: COUNT, then N raw addresses. */
static void
record(struct wbuf *b, uint64_t count, size_t n, ...)
{
	va_list ap;
	size_t i;

	put(b, count);
	put(b, n);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		put(b, va_arg(ap, uint64_t));
	va_end(ap);
}

static void
end_marker(struct wbuf *b)
{
	record(b, 0, 1, (uint64_t)0);
}

static void
text(struct wbuf *b, const char *s)
{
	size_t n = strlen(s);

	cr_assert(b->len + n <= sizeof(b->data));
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

static int
read_buf(const struct wbuf *b)
{
	enum profconv_format fmt;
	int rc;

	rc = profconv_profile_read_mem(&prof, b->data, b->len, NULL, &fmt);
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_CPU));
	return rc;
}

struct kind {
	int width;
	bool big;
};

ParameterizedTestParameters(cpu, reads_every_word_size_and_byte_order)
{
	static struct kind kinds[] = {
		{ 4, false }, { 4, true }, { 8, false }, { 8, true },
	};

	return cr_make_param_array(struct kind, kinds,
	    sizeof(kinds) / sizeof(kinds[0]));
}

ParameterizedTest(struct kind *k, cpu, reads_every_word_size_and_byte_order)
{
	static const uint64_t s0[] = { 0x1000, 0x2000, 0x3000 };
	static const uint64_t s1[] = { 0x1100, 0x2100 };
	struct profconv_value_type vt;
	struct wbuf b;

	start(&b, k->width, k->big, 10000);
	record(&b, 3, 3, (uint64_t)0x1000, (uint64_t)0x2001, (uint64_t)0x3001);
	record(&b, 1, 2, (uint64_t)0x1100, (uint64_t)0x2101);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 10000000));
	cr_assert(eq(str, (char *)vt.type, "cpu"));
	cr_assert(eq(str, (char *)vt.unit, "nanoseconds"));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 2));
	cr_assert(eq(int, profconv_profile_sample_type(prof, 0, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, "samples"));
	cr_assert(eq(str, (char *)vt.unit, "count"));
	cr_assert(eq(int, profconv_profile_sample_type(prof, 1, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, "cpu"));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	/* The leaf is exact; callers are return addresses, moved back. */
	expect_stack(prof, 0, s0, 3);
	expect_stack(prof, 1, s1, 2);
	expect_two_values(prof, 0, 3, 30000000);
	expect_two_values(prof, 1, 1, 10000000);
	/* No memory map: one fake mapping covers everything. */
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_assert(eq(str, (char *)profconv_profile_drop_frames(prof),
	    "ProfileData::Add|ProfileData::prof_handler|"
	    "CpuProfiler::prof_handler|__pthread_sighandler|__restore"));
	ASSERT_NO_LEAKS();
}

/* pprof's TestCpuParse: a bogus frame 999 in every sample is the signal
 * handler's; the unwinder's copy of the leaf is then dropped too. */
static void
strips_signal_frame_and_duplicate_leaf(void)
{
	static const uint64_t w0[] = { 100 };
	static const uint64_t w1[] = { 200, 500, 501 };
	static const uint64_t w2[] = { 300, 600, 601, 602, 603, 604, 605, 606,
		607, 608 };
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 1, 3, (uint64_t)100, (uint64_t)999, (uint64_t)100);
	record(&b, 1, 5, (uint64_t)200, (uint64_t)999, (uint64_t)200,
	    (uint64_t)501, (uint64_t)502);
	record(&b, 1, 12, (uint64_t)300, (uint64_t)999, (uint64_t)300,
	    (uint64_t)601, (uint64_t)602, (uint64_t)603, (uint64_t)604,
	    (uint64_t)605, (uint64_t)606, (uint64_t)607, (uint64_t)608,
	    (uint64_t)609);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	expect_stack(prof, 0, w0, 1);
	expect_stack(prof, 1, w1, 3);
	expect_stack(prof, 2, w2, 10);
	expect_two_values(prof, 0, 1, 1000);
	drop();
}

/* Add N two-frame records; the first SHARED have frame 1 at 0x5001. */
static void
frame1_records(struct wbuf *b, size_t n, size_t shared)
{
	size_t i;

	for (i = 0; i < n; i++)
		record(b, 1, 2, (uint64_t)(0x100 + i),
		    (uint64_t)(i < shared ? 0x5001 : 0x6001 + 16 * i));
}

/* 33 samples allow one outlier (33/32 = 1): 32 sharing is enough. */
static void
strips_a_frame_shared_by_all_but_n_over_32(void)
{
	static const uint64_t leaf[] = { 0x100 };
	static const uint64_t outlier[] = { 0x120, 0x6001 + 16 * 32 - 1 };
	struct wbuf b;

	start(&b, 8, false, 1000);
	frame1_records(&b, 33, 32);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	expect_stack(prof, 0, leaf, 1);
	expect_stack(prof, 32, outlier, 2);
	drop();
}

static void
keeps_a_frame_shared_by_fewer(void)
{
	static const uint64_t kept[] = { 0x100, 0x5000 };
	struct wbuf b;

	start(&b, 8, false, 1000);
	frame1_records(&b, 33, 31);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	expect_stack(prof, 0, kept, 2);
	drop();
}

/* Two handler frames are stripped (two rounds), a third is kept. */
static void
strips_at_most_two_frames(void)
{
	static const uint64_t want[] = { 0x10, 0x7000, 0x9000 };
	struct wbuf b;

	start(&b, 4, true, 1);
	record(&b, 1, 5, (uint64_t)0x10, (uint64_t)0x5001, (uint64_t)0x6001,
	    (uint64_t)0x7001, (uint64_t)0x9001);
	record(&b, 1, 5, (uint64_t)0x20, (uint64_t)0x5001, (uint64_t)0x6001,
	    (uint64_t)0x7001, (uint64_t)0x8001);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	expect_stack(prof, 0, want, 3);
	drop();
}

/* pprof numbers locations before dropping a duplicate leaf, so the
 * dropped copy keeps its location (and its place in the numbering). */
static void
numbers_locations_before_dropping_duplicate_leaves(void)
{
	static const uint64_t s0[] = { 0x500, 0x5ff };
	struct profconv_location loc;
	struct profconv_sample s;
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 1, 3, (uint64_t)0x500, (uint64_t)0x500, (uint64_t)0x600);
	record(&b, 1, 2, (uint64_t)0x700, (uint64_t)0x801);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	expect_stack(prof, 0, s0, 2);
	cr_assert(eq(sz, profconv_profile_location_count(prof), 5));
	cr_assert(eq(int, profconv_profile_location(prof, 2, &loc), 0));
	cr_assert(eq(u64, loc.address, 0x4ff));
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_assert(eq(u32, sample_location(prof, 0, 1), 3));
	drop();
}

static void
accepts_a_missing_end_marker_on_a_record_boundary(void)
{
	static const uint64_t s0[] = { 0x42 };
	struct wbuf b;

	start(&b, 8, true, 100);
	record(&b, 7, 1, (uint64_t)0x42);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	expect_stack(prof, 0, s0, 1);
	expect_two_values(prof, 0, 7, 700000);
	drop();
}

/* Like pprof: an empty stack and a zero count are samples too. */
static void
keeps_empty_and_zero_count_records(void)
{
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 5, 0);
	record(&b, 0, 1, (uint64_t)0x10);
	end_marker(&b);
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	expect_stack(prof, 0, NULL, 0);
	expect_two_values(prof, 0, 5, 5000);
	expect_two_values(prof, 1, 0, 0);
	drop();
}

static void
names_the_offset_of_a_truncated_stack(void)
{
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 1, 1, (uint64_t)0x10);
	put(&b, 1);
	put(&b, 3);
	put(&b, 0x10);
	put(&b, 0x20);
	cr_assert(eq(int, read_buf(&b), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG, "offset 32: truncated record: stack of 3 "
	    "addresses, only 8 bytes left"));
	drop();
}

/* pprof would read zeros here (its check divides by 4 for 8-byte words);
 * a short record is an error whatever the word size. */
static void
rejects_a_short_64_bit_record(void)
{
	struct wbuf b;

	start(&b, 8, false, 1);
	put(&b, 1);
	put(&b, 3);
	put(&b, 0x10);
	put(&b, 0x20);
	cr_assert(eq(int, read_buf(&b), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "offset 40: truncated record: stack of 3 "
	    "addresses, only 16 bytes left"));
	drop();
}

static void
names_the_offset_of_a_partial_record_header(void)
{
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 1, 1, (uint64_t)0x10);
	b.data[b.len++] = 1;
	b.data[b.len++] = 0;
	cr_assert(eq(int, read_buf(&b), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "offset 32: truncated record: 2 bytes "
	    "left, a record needs at least 8"));
	drop();
}

static void
rejects_java_profiles(void)
{
	struct wbuf b;

	start(&b, 4, false, 1);
	memset(b.data + 8, 0, 4);
	b.data[8] = 1;
	record(&b, 1, 1, (uint64_t)0x10);
	cr_assert(eq(int, read_buf(&b), PROFCONV_EUNSUPPORTED));
	cr_assert(eq(str, ERRMSG, "Java CPU profiles are not supported"));
	drop();
}

static void
reads_the_memory_map_after_the_end_marker(void)
{
	struct profconv_mapping m;
	struct profconv_location loc;
	struct wbuf b;

	start(&b, 8, false, 1);
	record(&b, 1, 2, (uint64_t)0x7f0000000100, (uint64_t)0x400101);
	record(&b, 1, 2, (uint64_t)0x400200, (uint64_t)0x400301);
	end_marker(&b);
	text(&b, "00400000-00500000 r-xp 00000000 08:01 12 /usr/bin/app\r\n"
	    "00500000-00600000 rw-p 00100000 08:01 12 /usr/bin/app\n"
	    "7f0000000000-7f0000100000 r-xp 00000000 08:01 13 "
	    "/lib/libc.so.6");
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 2));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(eq(str, (char *)m.file, "/usr/bin/app"));
	cr_assert(eq(u64, m.start, 0x400000));
	cr_assert(eq(int, profconv_profile_mapping(prof, 2, &m), 0));
	cr_assert(eq(str, (char *)m.file, "/lib/libc.so.6"));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_assert(eq(u32, loc.mapping_id, 2));
	cr_assert(eq(int, profconv_profile_location(prof, 2, &loc), 0));
	cr_assert(eq(u32, loc.mapping_id, 1));
	drop();
}

/* pprof's map regexp backtracks "4000000x500000" into 400000 and 0x500000
 * (lib/maps.c once read an empty range here). */
static void
reads_a_map_range_whose_start_runs_into_0x(void)
{
	struct profconv_mapping m;
	struct wbuf b;

	start(&b, 4, false, 1);
	record(&b, 1, 1, (uint64_t)0x400100);
	end_marker(&b);
	text(&b, "4000000x500000 /bin/app\n");
	cr_assert(eq(int, read_buf(&b), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(eq(u64, m.start, 0x400000));
	cr_assert(eq(u64, m.limit, 0x500000));
	cr_assert(eq(str, (char *)m.file, "/bin/app"));
	drop();
}

/* --- the cases above, one test per behaviour ------------------------------ */

/* The signal handler's frames and the duplicate leaf, as pprof strips them. */
Test(cpu, strips_signal_handler_frames)
{
	strips_signal_frame_and_duplicate_leaf();
	strips_a_frame_shared_by_all_but_n_over_32();
	keeps_a_frame_shared_by_fewer();
	strips_at_most_two_frames();
	numbers_locations_before_dropping_duplicate_leaves();
}

/* Records pprof reads though they look odd. */
Test(cpu, reads_records_pprof_reads)
{
	accepts_a_missing_end_marker_on_a_record_boundary();
	keeps_empty_and_zero_count_records();
}

/* Profiles refused, with the message that names the fault. */
Test(cpu, rejects_truncated_and_java_profiles)
{
	names_the_offset_of_a_truncated_stack();
	rejects_a_short_64_bit_record();
	names_the_offset_of_a_partial_record_header();
	rejects_java_profiles();
}

/* The memory map after the records. */
Test(cpu, reads_the_memory_map)
{
	reads_the_memory_map_after_the_end_marker();
	reads_a_map_range_whose_start_runs_into_0x();
}
