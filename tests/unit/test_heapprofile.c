/* SPDX-License-Identifier: MIT */
/*
 * test_heapprofile.c - tests for the "heap profile:" reader
 * (read/heapprofile.c); expected numbers are what google/pprof's parser
 * gives.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "read/lex.h"
#include "read_helpers.h"

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

/* --- headers and scaling -------------------------------------------------- */

static void
unsamples_heapz_v2_exactly(void)
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

/*
 * A gperftools dump whose header counts more than its samples hold was
 * cut (gperftools writes at most 1 MiB per dump): read, with one line
 * saying so and the figures; a whole dump has no warning.  The warning
 * is not part of the profile.
 */
Test(heap, cut_dump_is_read_with_a_warning)
{
	static const char whole[] =
	    "heap profile:      2:      300 [     2:      300] @ heapprofile\n"
	    "     1:      100 [     1:      100] @ 0x1000\n"
	    "     1:      200 [     1:      200] @ 0x2000\n"
	    "\nMAPPED_LIBRARIES:\n"
	    "00000000-00003000 r-xp 00000000 00:00 0   /bin/prog\n";
	static const char cut[] =
	    "heap profile:      9:     9000 [     9:     9000] @ heapprofile\n"
	    "     1:      100 [     1:      100] @ 0x1000\n"
	    "     1:      200 [     1:      200] @ 0x2000\n"
	    "\nMAPPED_LIBRARIES:\n"
	    "00000000-00003000 r-xp 00000000 00:00 0   /bin/prog\n";
	struct profconv_profile *prof = read_ok(whole);
	const char *w;

	cr_expect(zero(ptr, (void *)profconv_profile_read_warning(prof)));
	profconv_profile_free(prof);
	prof = read_ok(cut);
	w = profconv_profile_read_warning(prof);
	cr_assert(not(zero(ptr, (void *)w)));
	cr_expect(not(zero(ptr, strstr(w, "9000"))), "%s", w);
	cr_expect(not(zero(ptr, strstr(w, "300"))), "%s", w);
	cr_expect(not(zero(ptr, strstr(w, "the dump was cut"))), "%s", w);
	cr_expect(zero(ptr, strchr(w, '\n')), "%s", w);
	profconv_profile_free(prof);
}

static void
heap_v2_with_alloc_values_has_four_types(void)
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

static void
old_go_heap_uses_half_the_rate(void)
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

static void
heap_without_a_rate_is_not_scaled(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap\n"
	    "7: 700 [1: 1] @ 0x1\n");

	expect_period(prof, "space", "bytes", 0);
	EXPECT_SAMPLE(prof, 0, 1, 7, 700);
	profconv_profile_free(prof);
}

static void
rate_one_is_not_scaled(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap_v2/1\n"
	    "7: 700 [7: 700] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 7, 700);
	profconv_profile_free(prof);
}

static void
v2_zero_bytes_zeroes_the_count(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 3: 0 [3: 0] @ heap_v2/512\n"
	    "3: 0 [3: 0] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 0, 0);
	expect_bytes_label(prof, 0, 0);
	profconv_profile_free(prof);
}

static void
overflowing_scale_gives_go_amd64_result(void)
{
	/* 1 - exp(-tiny) is 0, the scale infinite; Go on amd64 converts
	 * that to INT64_MIN. */
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 1 [ 1: 1] @ heap_v2/4611686018427387904\n"
	    "1000000000000000000: 1 [1: 1] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, INT64_MIN, INT64_MIN);
	profconv_profile_free(prof);
}

static void
heapprofile_has_period_one_and_no_scaling(void)
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

static void
growth_and_fragmentation_never_have_alloc_values(void)
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

static void
alloc_rule_compares_header_text(void)
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

static void
header_spacing_is_tolerated_as_in_pprof(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile:1:2[3:4]@heap_v2/8\n");

	expect_period(prof, "space", "bytes", 8);
	profconv_profile_free(prof);
}

/* --- samples -------------------------------------------------------------- */

static void
bytes_label_comes_from_the_last_nonzero_pair(void)
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

static void
stacks_may_be_empty(void)
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
static void
rejects_stack_tokens_that_are_no_addresses(void)
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

static void
sample_lines_match_anywhere_in_the_line(void)
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

static void
samples_are_never_merged(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ growthz\n"
	    "1: 2 [1: 2] @ 0x10 0x20\n"
	    "1: 2 [1: 2] @ 0x10 0x20\n");

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	cr_expect(eq(sz, profconv_profile_location_count(prof), 2));
	profconv_profile_free(prof);
}

static void
skips_comments_and_blank_lines(void)
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

static void
heap_profile_total_is_a_count_profile(void)
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

static void
rejects_zero_count_with_bytes(void)
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

static void
ignores_alloc_fields_without_alloc_values(void)
{
	/* Without alloc values pprof never reads them. */
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [0: 99999999999999999999] @ 0x1\n");

	EXPECT_SAMPLE(prof, 0, 1, 1, 2);
	profconv_profile_free(prof);
}

static void
rejects_malformed_samples(void)
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

static void
reads_sixteen_digit_addresses_and_tabs(void)
{
	struct profconv_profile *prof = read_ok(
	    "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	    "1: 2 [1: 2] @ 0xffffffffffffffff\t0x10 0x0123456789abcdef\n");

	expect_frame(prof, 0, 0, UINT64_MAX - 1);
	expect_frame(prof, 0, 1, 0xf);
	expect_frame(prof, 0, 2, 0x0123456789abcdeeULL);
	profconv_profile_free(prof);
}

static void
accepts_leading_zeros_in_addresses(void)
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

/* --- hex addresses ------------------------------------------------------- */

/* The plain digit-by-digit reading, as lex.c did before its SSE2 path. */
static bool
hex_ref(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int d;

	for (; p < end; p++) {
		char c = *p;

		d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
		    c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (v >> 60 != 0)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (p == *pp)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* Every length of token from 0 to 20 digits, of every case, with every
 * kind of byte after it, as much input after it as a line may have or
 * none: the value, the end and the refusals the reference gives. */
Test(heap, hex_addresses_read_as_digit_by_digit)
{
	static const char digits[] = "0123456789abcdefABCDEF";
	static const char after[] = { ' ', '\t', '\n', 'g', 'G', '/', ':',
		'@', '`', 'x', (char)0x80, (char)0xe6, (char)0xff, '\0' };
	char buf[64];
	unsigned seed = 12345;
	size_t len, a, k, tail;

	for (len = 0; len <= 20; len++)
		for (a = 0; a < sizeof(after); a++)
			for (tail = 0; tail < 40; tail += 13)
				for (k = 0; k < 20; k++) {
					const char *p1 = buf, *p2 = buf;
					uint64_t v1 = 7, v2 = 7;
					size_t i;
					bool r1, r2;

					for (i = 0; i < len; i++) {
						seed = seed * 1103515245 + 12345;
						buf[i] = digits[(seed >> 16) % 22];
						/* Leading zeros, which 17+
						 * digits may have. */
						if (k == 0 && i + 16 < len)
							buf[i] = '0';
					}
					buf[len] = after[a];
					memset(buf + len + 1, 'f', tail);
					r1 = profconv__parse_hex(&p1,
					    buf + len + 1 + tail, &v1);
					r2 = hex_ref(&p2, buf + len + 1 + tail,
					    &v2);
					cr_assert(eq(int, r1, r2), "len %zu", len);
					cr_assert(eq(ptr, (void *)p1, (void *)p2));
					if (r1)
						cr_assert(eq(u64, v1, v2),
						    "'%.*s'", (int)len, buf);
					/* The input ends with the token. */
					p1 = p2 = buf;
					r1 = profconv__parse_hex(&p1, buf + len,
					    &v1);
					r2 = hex_ref(&p2, buf + len, &v2);
					cr_assert(eq(int, r1, r2));
					cr_assert(eq(ptr, (void *)p1, (void *)p2));
					if (r1)
						cr_assert(eq(u64, v1, v2));
				}
}

/* --- the cases above, one test per behaviour ------------------------------ */

/* Each header type and rate: the sample types, period and scaling. */
Test(heap, scales_samples_by_the_header_rate)
{
	unsamples_heapz_v2_exactly();
	heap_v2_with_alloc_values_has_four_types();
	old_go_heap_uses_half_the_rate();
	heap_without_a_rate_is_not_scaled();
	rate_one_is_not_scaled();
	v2_zero_bytes_zeroes_the_count();
	overflowing_scale_gives_go_amd64_result();
	heapprofile_has_period_one_and_no_scaling();
	growth_and_fragmentation_never_have_alloc_values();
}

/* Headers read as pprof reads them. */
Test(heap, reads_header_variants)
{
	alloc_rule_compares_header_text();
	header_spacing_is_tolerated_as_in_pprof();
	heap_profile_total_is_a_count_profile();
}

/* Sample lines: values, labels, stacks and what is skipped. */
Test(heap, reads_sample_lines)
{
	bytes_label_comes_from_the_last_nonzero_pair();
	stacks_may_be_empty();
	sample_lines_match_anywhere_in_the_line();
	samples_are_never_merged();
	skips_comments_and_blank_lines();
	ignores_alloc_fields_without_alloc_values();
}

/* Addresses of every width in a stack. */
Test(heap, reads_stack_addresses)
{
	reads_sixteen_digit_addresses_and_tabs();
	accepts_leading_zeros_in_addresses();
}

/* Sample lines refused, with the message that names the fault. */
Test(heap, rejects_malformed_sample_lines)
{
	rejects_stack_tokens_that_are_no_addresses();
	rejects_zero_count_with_bytes();
	rejects_malformed_samples();
}
