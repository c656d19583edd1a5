/* SPDX-License-Identifier: MIT */
/*
 * test_gocount.c - tests for the Go count profile reader
 * (read/gocount.c: goroutine, threadcreate and their kin); expected
 * numbers are what google/pprof's parser gives.
 */

#include "config.h"

#include <stdint.h>

#include "read_helpers.h"

static void
reads_a_goroutine_profile(void)
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

static void
any_type_word_names_the_profile(void)
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

static void
rejects_lines_that_are_not_samples(void)
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
static void
reads_frameless_samples_with_an_empty_stack(void)
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

static void
rejects_bad_numbers(void)
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

Test(gocount, rejects_malformed_samples)
{
	rejects_lines_that_are_not_samples();
	rejects_bad_numbers();
}

/* pprof's isSpaceOrComment: any white space TrimSpace knows, Unicode too. */
static void
header_after_lines_of_unicode_white_space(void)
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

Test(gocount, reads_count_profiles)
{
	reads_a_goroutine_profile();
	any_type_word_names_the_profile();
	reads_frameless_samples_with_an_empty_stack();
	header_after_lines_of_unicode_white_space();
}
