/* SPDX-License-Identifier: MIT */
/*
 * test_heap.c - tests for the "heap profile:" reader and the Go count
 * profile reader; expected numbers are what google/pprof's parser gives.
 */

#include "config.h"

#include <stdint.h>

#include "helpers.h"

static int
read_text(const char *text, struct profconv_profile **prof)
{
	return profconv_profile_read_mem(prof, text, strlen(text), NULL, NULL);
}

static struct profconv_profile *
read_ok(const char *text)
{
	struct profconv_profile *prof = NULL;

	cr_assert(eq(int, read_text(text, &prof), 0), "%s", profconv_errmsg());
	return prof;
}

static void
expect_fail(const char *text, int code, const char *msg)
{
	struct profconv_profile *prof = NULL;

	cr_assert(eq(int, read_text(text, &prof), code), "%s",
	    profconv_errmsg());
	cr_expect(eq(ptr, prof, NULL));
	cr_expect(eq(str, ERRMSG, (char *)msg));
}

/* The sample types as "type/unit", space separated. */
static void
expect_types(const struct profconv_profile *prof, const char *want)
{
	struct profconv_value_type vt;
	char buf[256] = "";
	size_t i, n = 0;

	for (i = 0; i < profconv_profile_sample_type_count(prof); i++) {
		cr_assert(eq(int, profconv_profile_sample_type(prof, i, &vt),
		    0));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s/%s",
		    i != 0 ? " " : "", vt.type, vt.unit);
	}
	cr_expect(eq(str, buf, (char *)want));
}

static void
expect_period(const struct profconv_profile *prof, const char *type,
    const char *unit, int64_t period)
{
	struct profconv_value_type vt;

	cr_expect(eq(i64, profconv_profile_period(prof, &vt), period));
	cr_expect(eq(str, (char *)vt.type, (char *)type));
	cr_expect(eq(str, (char *)vt.unit, (char *)unit));
}

/* Sample I's values (as many as WANT has) and its stack size. */
static void
expect_sample(const struct profconv_profile *prof, size_t i,
    const int64_t *want, size_t nwant, size_t nlocs)
{
	struct profconv_sample s;
	size_t k;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), nwant));
	for (k = 0; k < nwant; k++)
		cr_expect(eq(i64, s.values[k], want[k]), "sample %zu value %zu",
		    i, k);
	cr_expect(eq(sz, s.nlocations, nlocs), "sample %zu", i);
}

#define EXPECT_SAMPLE(prof, i, nlocs, ...) do { \
	static const int64_t want_[] = { __VA_ARGS__ }; \
	expect_sample((prof), (i), want_, PC_LEN(want_), (nlocs)); \
} while (0)
#define PC_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Sample I has exactly one label, "bytes" = WANT with no unit. */
static void
expect_bytes_label(const struct profconv_profile *prof, size_t i,
    int64_t want)
{
	struct profconv_sample s;
	struct profconv_label l;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(sz, s.nlabels, 1), "sample %zu", i);
	cr_assert(eq(int, profconv_profile_sample_label(prof, i, 0, &l), 0));
	cr_expect(eq(str, (char *)l.key, "bytes"));
	cr_expect(eq(ptr, (void *)l.str, NULL));
	cr_expect(eq(ptr, (void *)l.unit, NULL));
	cr_expect(eq(i64, l.num, want), "sample %zu", i);
}

/* Frame J of sample I is at ADDR. */
static void
expect_frame(const struct profconv_profile *prof, size_t i, size_t j,
    uint64_t addr)
{
	struct profconv_sample s;
	struct profconv_location l;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(lt(sz, j, s.nlocations));
	cr_assert(eq(int, profconv_profile_location(prof, s.location_ids[j],
	    &l), 0));
	cr_expect(eq(u64, l.address, addr), "sample %zu frame %zu", i, j);
}

/* --- headers and scaling -------------------------------------------------- */

Test(heap, unsamples_heapz_v2_exactly)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile:    144:  8498176 [   144:  8498176] @ heapz_v2/524288\n"
	    "     1:     9216 [     1:     9216] @ 0x1000 0x2000\n");

	expect_types(prof, "objects/count space/bytes");
	expect_period(prof, "space", "bytes", 524288);
	/* cppbench.heap.string's first sample. */
	EXPECT_SAMPLE(prof, 0, 2, 57, 528909);
	expect_bytes_label(prof, 0, 9216);
	/* Every frame, the leaf too, moves back onto its call. */
	expect_frame(prof, 0, 0, 0xfff);
	expect_frame(prof, 0, 1, 0x1fff);
	profconv_profile_free(prof);
}

Test(heap, heap_v2_with_alloc_values_has_four_types)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 2: 300 [ 5: 900] @ heap_v2/1024\n"
	    " 1: 100 [ 2: 300] @ 0x10 0x20\n");

	expect_types(prof, "alloc_objects/count alloc_space/bytes "
	    "inuse_objects/count inuse_space/bytes");
	expect_period(prof, "space", "bytes", 1024);
	/* Each pair is unsampled with its own average size. */
	EXPECT_SAMPLE(prof, 0, 2, 14, 2201, 10, 1074);
	expect_bytes_label(prof, 0, 100);
	cr_expect(eq(str, (char *)profconv_profile_keep_frames(prof),
	    "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*"));
	profconv_profile_free(prof);
}

Test(heap, old_go_heap_uses_half_the_rate)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 13: 1595680 [47130736: 2584596557304] @ heap/1048576\n"
	    "1: 524288 [3: 1572864] @ 0x420cef\n");

	expect_period(prof, "space", "bytes", 524288);
	/* gobench.heap.string's first sample. */
	EXPECT_SAMPLE(prof, 0, 1, 4, 2488234, 1, 829411);
	expect_bytes_label(prof, 0, 524288);
	profconv_profile_free(prof);
}

Test(heap, heap_without_a_rate_is_not_scaled)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap\n"
	    "7: 700 [1: 1] @ 0x1\n");

	expect_period(prof, "space", "bytes", 0);
	EXPECT_SAMPLE(prof, 0, 1, 7, 700);
	profconv_profile_free(prof);
}

Test(heap, rate_one_is_not_scaled)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap_v2/1\n"
	    "7: 700 [7: 700] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 7, 700);
	profconv_profile_free(prof);
}

Test(heap, v2_zero_bytes_zeroes_the_count)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 3: 0 [3: 0] @ heap_v2/512\n"
	    "3: 0 [3: 0] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 0, 0);
	expect_bytes_label(prof, 0, 0);
	profconv_profile_free(prof);
}

Test(heap, overflowing_scale_gives_go_amd64_result)
{
	/* 1 - exp(-tiny) is 0, the scale infinite; Go on amd64 converts
	 * that to INT64_MIN. */
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap_v2/4611686018427387904\n"
	    "1000000000000000000: 1 [1: 1] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, INT64_MIN, INT64_MIN);
	profconv_profile_free(prof);
}

Test(heap, heapprofile_has_period_one_and_no_scaling)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 2: 300 [ 2: 300] @ heapprofile/524288\n"
	    "2: 300 [2: 300] @ 0x10\n");

	expect_types(prof, "objects/count space/bytes");
	expect_period(prof, "space", "bytes", 1);
	EXPECT_SAMPLE(prof, 0, 1, 2, 300);
	expect_bytes_label(prof, 0, 150);
	profconv_profile_free(prof);
}

Test(heap, growth_and_fragmentation_never_have_alloc_values)
{
	static const char *const headers[] = {
		"heap profile: 1: 2 [ 3: 4] @ growthz\n",
		"heap profile: 1: 2 [ 3: 4] @ growth\n",
		"heap profile: 1: 2 [ 3: 4] @ fragmentationz\n",
		"heap profile: 1: 2 [ 3: 4] @ fragmentation\n",
	};
	char text[128];
	size_t i;

	for (i = 0; i < PC_LEN(headers); i++) {
		struct profconv_profile *prof;

		snprintf(text, sizeof(text), "%s3: 2097152 [5: 9] @ 0xb83003\n",
		    headers[i]);
		prof = read_ok(text);
		expect_types(prof, "objects/count space/bytes");
		expect_period(prof, "space", "bytes", 1);
		EXPECT_SAMPLE(prof, 0, 1, 3, 2097152);
		expect_bytes_label(prof, 0, 699050);
		profconv_profile_free(prof);
	}
}

Test(heap, alloc_rule_compares_header_text)
{
	struct profconv_profile *prof;

	/* "01" is not "1", so pprof sees alloc values. */
	prof = read_ok("heap profile: 1: 2 [01: 2] @ heapprofile\n");
	expect_types(prof, "alloc_objects/count alloc_space/bytes "
	    "inuse_objects/count inuse_space/bytes");
	profconv_profile_free(prof);
	/* Zero alloc totals mean "not recorded". */
	prof = read_ok("heap profile: 5: 10 [0: 0] @ heapprofile\n");
	expect_types(prof, "objects/count space/bytes");
	profconv_profile_free(prof);
	prof = read_ok("heap profile: 5: 10 [5: 0] @ heapprofile\n");
	expect_types(prof, "objects/count space/bytes");
	profconv_profile_free(prof);
	prof = read_ok("heap profile: 5: 10 [5: 11] @ heapprofile\n");
	expect_types(prof, "alloc_objects/count alloc_space/bytes "
	    "inuse_objects/count inuse_space/bytes");
	profconv_profile_free(prof);
}

Test(heap, header_spacing_is_tolerated_as_in_pprof)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile:1:2[3:4]@heap_v2/8\n");

	expect_period(prof, "space", "bytes", 8);
	profconv_profile_free(prof);
}

/* --- samples -------------------------------------------------------------- */

Test(heap, bytes_label_comes_from_the_last_nonzero_pair)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [01: 2] @ heapprofile/9\n"
	    "3: 0 [1: 7] @ 0x1\n"
	    "-2: -100 [4: 400] @ 0x2\n"
	    "0: 0 [4: 400] @\n"
	    "0: 0 [0: 0] @ 0x5\n");

	/* Inuse counted: its (integer) block size, even when 0. */
	EXPECT_SAMPLE(prof, 0, 1, 1, 7, 3, 0);
	expect_bytes_label(prof, 0, 0);
	/* Inuse may be negative; alloc may not. */
	EXPECT_SAMPLE(prof, 1, 1, 4, 400, -2, -100);
	expect_bytes_label(prof, 1, 50);
	/* Inuse not counted: the alloc pair's block size. */
	EXPECT_SAMPLE(prof, 2, 0, 4, 400, 0, 0);
	expect_bytes_label(prof, 2, 100);
	EXPECT_SAMPLE(prof, 3, 1, 0, 0, 0, 0);
	expect_bytes_label(prof, 3, 0);
	profconv_profile_free(prof);
}

Test(heap, stacks_may_be_empty)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @\n"
	    "1: 2 [1: 2] @   \n"
	    "1: 2 [1: 2] @ 0x10\t0x2f0 \n");

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	EXPECT_SAMPLE(prof, 0, 0, 1, 2);
	EXPECT_SAMPLE(prof, 1, 0, 1, 2);
	EXPECT_SAMPLE(prof, 2, 2, 1, 2);
	expect_frame(prof, 2, 0, 0xf);
	expect_frame(prof, 2, 1, 0x2ef);
	profconv_profile_free(prof);
}

/* pprof's regexp would end the stack at the first character that is not
 * [ x0-9a-f] and drop the rest; every token must be an address instead. */
Test(heap, rejects_stack_tokens_that_are_no_addresses)
{
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0xABC 0x5\n", PROFCONV_EFORMAT,
	    "line 2: malformed address '0xABC' in stack");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x10 0x2f0X20 0x30\n", PROFCONV_EFORMAT,
	    "line 2: malformed address '0x2f0X20' in stack");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x10 0x\n", PROFCONV_EFORMAT,
	    "line 2: malformed address '0x' in stack");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x10 0x20 trailing 0x30\n", PROFCONV_EFORMAT,
	    "line 2: malformed address 'trailing' in stack");
}

Test(heap, sample_lines_match_anywhere_in_the_line)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "x 12 -3:4[5:6] @ 0x10 0x20\n"
	    "  7:   8 [  9:  10 ] @ 0x10\n");

	/* The match starts at "-3". */
	EXPECT_SAMPLE(prof, 0, 2, -3, 4);
	EXPECT_SAMPLE(prof, 1, 1, 7, 8);
	profconv_profile_free(prof);
}

Test(heap, samples_are_never_merged)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ growthz\n"
	    "1: 2 [1: 2] @ 0x10 0x20\n"
	    "1: 2 [1: 2] @ 0x10 0x20\n");

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	cr_expect(eq(sz, profconv_profile_location_count(prof), 2));
	profconv_profile_free(prof);
}

Test(heap, skips_comments_and_blank_lines)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "# --- Memory map: --- in a comment is only a comment\n"
	    "\n"
	    " \t\n"
	    "\xc2\xa0\n"
	    "1: 2 [1: 2] @ 0x10\n");

	cr_expect(eq(sz, profconv_profile_sample_count(prof), 1));
	profconv_profile_free(prof);
}

Test(heap, reads_the_memory_map_after_the_sentinel)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x7f0000000100 0x400100\n"
	    "--- Memory map: ---\n"
	    "\tsource=/home\n"
	    "  7f0000000000-7f0000001000: /lib/libc-2.15.so\n"
	    "  00400000-00fcb000: $source/app\n"
	    "1: 2 [1: 2] @ 0x10\n");
	struct profconv_mapping m;
	struct profconv_location l;

	/* Lines after the sentinel are map lines, never samples. */
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 2));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_expect(eq(str, (char *)m.file, "/home/app"));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &l), 0));
	cr_expect(eq(u32, l.mapping_id, 2));
	profconv_profile_free(prof);
}

Test(heap, heap_profile_total_is_a_count_profile)
{
	/* pprof hands a non-heap first line to its Go count parser. */
	struct profconv_profile *prof = read_ok(
	    "heap profile: total 2\n"
	    "2 @ 0x10\n");

	expect_types(prof, "heap/count");
	EXPECT_SAMPLE(prof, 0, 1, 2);
	profconv_profile_free(prof);
}

/* --- heap errors ---------------------------------------------------------- */

Test(heap, rejects_zero_count_with_bytes)
{
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x1\n"
	    "0: 5 [1: 2] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 3: inuse count was 0 but inuse bytes was 5");
	expect_fail("heap profile: 1: 2 [3: 4] @ heapprofile\n"
	    "\n"
	    "1: 2 [0: -7] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 3: malformed heap sample, expected 'N: N [N: N] @ 0x...'");
	expect_fail("heap profile: 1: 2 [3: 4] @ heapprofile\n"
	    "0: 5 [0: 7] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: allocation count was 0 but allocation bytes was 7");
}

Test(heap, ignores_alloc_fields_without_alloc_values)
{
	/* Without alloc values pprof never reads them. */
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [0: 99999999999999999999] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 1, 2);
	profconv_profile_free(prof);
}

Test(heap, rejects_malformed_samples)
{
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [-1: 2] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: malformed heap sample, expected 'N: N [N: N] @ 0x...'");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2]@ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: malformed heap sample, expected 'N: N [N: N] @ 0x...'");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 99999999999999999999 [1: 2] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: inuse bytes '99999999999999999999' out of range");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "-9223372036854775809: 2 [1: 2] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: inuse count '-9223372036854775809' out of range");
	expect_fail("heap profile: 1: 2 [1: 3] @ heapprofile\n"
	    "1: 2 [99999999999999999999: 2] @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: allocation count '99999999999999999999' out of range");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x1 0x10000000000000000\n", PROFCONV_EFORMAT,
	    "line 2: address '0x10000000000000000' does not fit in 64 bits");
}

Test(heap, reads_sixteen_digit_addresses_and_tabs)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0xffffffffffffffff\t0x10 0x0123456789abcdef\n");

	expect_frame(prof, 0, 0, UINT64_MAX - 1);
	expect_frame(prof, 0, 1, 0xf);
	expect_frame(prof, 0, 2, 0x0123456789abcdeeULL);
	profconv_profile_free(prof);
}

Test(heap, accepts_leading_zeros_in_addresses)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0x000000000000000000000000ffffffffffffffff\n");

	expect_frame(prof, 0, 0, UINT64_MAX - 1);
	profconv_profile_free(prof);
}

Test(heap, rejects_bad_headers)
{
	expect_fail("heap profile: 1: 2 [1: 2]\n", PROFCONV_EFORMAT,
	    "line 1: malformed heap profile header");
	expect_fail("heap profile: 1: 2 [1: 2] @\theap\n", PROFCONV_EFORMAT,
	    "line 1: malformed heap profile header");
	/* growth needs exactly one space around '@'. */
	expect_fail("heap profile: 1: 2 [1: 2]  @ growthz\n", PROFCONV_EFORMAT,
	    "line 1: malformed heap profile header");
	expect_fail("heap profile: 1: 2 [1: 2] @ heapfoo/3\n",
	    PROFCONV_EUNSUPPORTED,
	    "line 1: unsupported heap profile type 'heapfoo'");
	expect_fail("heap profile: 1: 2 [1: 2] @ heap_v2/9223372036854775808\n",
	    PROFCONV_EFORMAT,
	    "line 1: heap profile sampling rate out of range");
}

/* --- Go count profiles ---------------------------------------------------- */

Test(gocount, reads_a_goroutine_profile)
{
	struct profconv_profile *prof = read_ok(
	    "\n"
	    "# leading comments are skipped\n"
	    "goroutine profile: total 3\n"
	    "2 @ 0x1000 0x2000\n"
	    "#\t0x1000\tmain.f+0x1\t/x.go:3\n"
	    "\n"
	    "010 @ 0x2000\n"
	    "--- Memory map: ---\n"
	    "00000000-00010000: /bin/app\n");
	struct profconv_mapping m;

	expect_types(prof, "goroutine/count");
	expect_period(prof, "goroutine", "count", 1);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	EXPECT_SAMPLE(prof, 0, 2, 2);
	expect_frame(prof, 0, 0, 0xfff);
	expect_frame(prof, 0, 1, 0x1fff);
	/* strconv.ParseInt(s, 0, 64): a leading 0 means octal. */
	EXPECT_SAMPLE(prof, 1, 1, 8);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_expect(eq(str, (char *)m.file, "/bin/app"));
	profconv_profile_free(prof);
}

Test(gocount, any_type_word_names_the_profile)
{
	struct profconv_profile *prof = read_ok(
	    "threadcreate profile: total 1\n"
	    "1 @ 0x44cb3 0x45045\n"
	    "--- other section\n"
	    "5 @ 0x1\n");

	expect_types(prof, "threadcreate/count");
	expect_period(prof, "threadcreate", "count", 1);
	/* "---" ends the samples even when no map follows. */
	cr_expect(eq(sz, profconv_profile_sample_count(prof), 1));
	cr_expect(eq(sz, profconv_profile_mapping_count(prof), 1));
	profconv_profile_free(prof);
}

Test(gocount, rejects_lines_that_are_not_samples)
{
	static const char *const bad[] = {
		"1 @ 0x1 ", " 1 @ 0x1", "1 @  0x1", "1 @ ", "1 @ 0x", "1 @ 0xA",
		"1@ 0x1", "x", "-1 @ 0x1",
	};
	char text[128];
	size_t i;

	for (i = 0; i < PC_LEN(bad); i++) {
		snprintf(text, sizeof(text), "goroutine profile: total 1\n%s\n",
		    bad[i]);
		expect_fail(text, PROFCONV_EFORMAT, "line 2: malformed count "
		    "profile sample, expected 'N @ 0x...'");
	}
}

/* "1012 @": the Go runtime has no stack for these threads; pprof refuses
 * the line, people still need the profile read. */
Test(gocount, reads_frameless_samples_with_an_empty_stack)
{
	struct profconv_profile *prof = read_ok(
	    "threadcreate profile: total 1015\n1012 @\n3 @ 0x1001 0x2001\n");
	struct profconv_sample s;

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	profconv_profile_sample(prof, 0, &s);
	cr_assert(eq(sz, s.nlocations, 0));
	cr_assert(eq(i64, s.values[0], 1012));
	profconv_profile_sample(prof, 1, &s);
	cr_assert(eq(sz, s.nlocations, 2));
	profconv_profile_free(prof);
}

Test(gocount, rejects_bad_numbers)
{
	expect_fail("goroutine profile: total 1\n09 @ 0x1\n", PROFCONV_EFORMAT,
	    "line 2: invalid octal sample count '09'");
	expect_fail("goroutine profile: total 1\n1 @ 0x1\n"
	    "9223372036854775808 @ 0x1\n", PROFCONV_EFORMAT,
	    "line 3: sample count '9223372036854775808' out of range");
	expect_fail("goroutine profile: total 1\n"
	    "1 @ 0x1 0x10000000000000000\n", PROFCONV_EFORMAT,
	    "line 2: address '0x10000000000000000' does not fit in 64 bits");
}

/* pprof's isSpaceOrComment: any white space TrimSpace knows, Unicode too. */
Test(gocount, header_after_lines_of_unicode_white_space)
{
	static const char *const blank[] = {
		"\f", "\v", "\r", " \t#x", "\xc2\xa0", "\xe3\x80\x80 # y",
		"\xc2\x85\xe2\x80\xa8",
	};
	struct profconv_profile *prof;
	enum profconv_format fmt;
	char text[128];
	size_t i;

	for (i = 0; i < PC_LEN(blank); i++) {
		snprintf(text, sizeof(text), "%s\ngoroutine profile: total 1\n"
		    "1 @ 0x1000\n", blank[i]);
		prof = NULL;
		cr_assert(eq(int, profconv_profile_read_mem(&prof, text,
		    strlen(text), NULL, &fmt), 0), "case %zu: %s", i,
		    profconv_errmsg());
		cr_expect(eq(int, fmt, PROFCONV_FORMAT_GOCOUNT), "case %zu", i);
		expect_types(prof, "goroutine/count");
		cr_expect(eq(sz, profconv_profile_sample_count(prof), 1));
		profconv_profile_free(prof);
	}
}
