/* SPDX-License-Identifier: MIT */
/*
 * test_contention.c - tests for the contention reader
 * (read/contention.c): pprof's and Go's mutex and contention profiles.
 */

#include "config.h"

#include <stdint.h>

#include "read_fixture.h"

#include <criterion/parameterized.h>

TestSuite(contention, .fini = drop);

/* The first sample of pprof's cppbench.contention and its golden values. */
static void
unsamples_like_pprof(void)
{
	static const char text[] =
	    "--- contentionz 1 ---\n"
	    "cycles/second = 3201000000\n"
	    "sampling period = 100\n"
	    "ms since reset = 16502830\n"
	    "discarded samples = 0\n"
	    "  19490304       27 @ 0xbccc97 0xc61202 0x42ed5f\n"
	    "--- Memory map: ---\n"
	    "  00400000-00fcb000: cppbench_server_main\n";
	static const uint64_t want[] = { 0xbccc96, 0xc61201, 0x42ed5e };
	struct profconv_value_type vt;
	struct profconv_mapping m;

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 100));
	cr_assert(eq(str, (char *)vt.type, "contentions"));
	cr_assert(eq(str, (char *)vt.unit, "count"));
	cr_assert(eq(int, profconv_profile_sample_type(prof, 1, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, "delay"));
	cr_assert(eq(str, (char *)vt.unit, "nanoseconds"));
	cr_assert(eq(i64, profconv_profile_duration_nanos(prof),
	    16502830000000));
	expect_two_values(prof, 0, 2700, 608881724);
	expect_stack(prof, 0, want, 3);	/* every frame moved back by one */
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(eq(str, (char *)m.file, "cppbench_server_main"));
	cr_assert(eq(int, strncmp(profconv_profile_drop_frames(prof),
	    "RecordLockProfileData|", 22), 0));
	ASSERT_NO_LEAKS();
	drop();
}

/* Go's mutex profile: no attribute but a period; no clock, no scaling. */
static void
reads_go_mutex_profiles(void)
{
	static const char text[] =
	    "--- mutex:\n"
	    "cycles/second=2394000000\n"
	    "sampling period=5\n"
	    "# a comment\n"
	    "\n"
	    "1000 2 @ 0x10 0x20\n";
	static const uint64_t want[] = { 0xf, 0x1f };

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	expect_two_values(prof, 0, 10, 2088);	/* 1000 * 5 / 2.394 */
	expect_stack(prof, 0, want, 2);
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	drop();
}

static void
scales_counts_only_without_a_clock(void)
{
	static const char text[] =
	    "--- contention:\nsampling period = 3\n7 2 @ 0x10\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	expect_two_values(prof, 0, 6, 7);
	drop();
}

static void
does_not_scale_with_a_zero_period(void)
{
	static const char text[] =
	    "--- contention:\ncycles/second = 1000\nsampling period = 0\n"
	    "7 2 @ 0x10\n";
	struct profconv_value_type vt;

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 0));
	expect_two_values(prof, 0, 2, 7);
	drop();
}

Test(contention, scales_like_pprof)
{
	unsamples_like_pprof();
	reads_go_mutex_profiles();
	scales_counts_only_without_a_clock();
	does_not_scale_with_a_zero_period();
}

/* Attribute values are read like Go's strconv.ParseInt(s, 0, 64). */
static void
reads_go_integer_syntax_in_attributes(void)
{
	static const char text[] =
	    "--- contention:\nsampling period = 0x10\n"
	    "cycles/second = 1_000_000_000\nms since reset = 010\n"
	    "1 1 @ 0x10\n";
	struct profconv_value_type vt;

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 16));
	cr_assert(eq(i64, profconv_profile_duration_nanos(prof), 8000000));
	expect_two_values(prof, 0, 16, 16);
	drop();
}

/* The sample pattern's leftmost-first choice: "123 @" is 12 and 3. */
static void
splits_adjacent_numbers_like_the_regexp(void)
{
	static const char text[] =
	    "--- contention:\nx 123 @ 0x10 0x20\n";
	static const uint64_t want[] = { 0xf, 0x1f };

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	expect_two_values(prof, 0, 3, 12);
	expect_stack(prof, 0, want, 2);
	drop();
}

/* pprof's regexp ends the stack at the first token that is no address,
 * dropping the rest; that is refused instead. */
static void
rejects_a_token_that_is_no_address(void)
{
	static const char text[] =
	    "--- contention:\n1 1 @ 0x10 0x20 zz 0x30\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 2: malformed address 'zz' in stack"));
	drop();
}

static void
stops_samples_at_a_dashed_line(void)
{
	static const char text[] =
	    "--- contention:\n1 1 @ 0x400010\n--- other section ---\n"
	    "not a sample\n"
	    "MAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 00:00 0 /a\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION), 0),
	    "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	drop();
}

Test(contention, parses_like_pprof)
{
	reads_go_integer_syntax_in_attributes();
	splits_adjacent_numbers_like_the_regexp();
	stops_samples_at_a_dashed_line();
}

static void
rejects_java_profiles(void)
{
	static const char text[] =
	    "--- contentionz 1 ---\nformat = java\n1 1 @ 0x10\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_CONTENTION),
	    PROFCONV_EUNSUPPORTED));
	cr_assert(eq(str, ERRMSG,
	    "Java contention profiles are not supported"));
	drop();
}

Test(contention, rejects_unreadable_input)
{
	rejects_a_token_that_is_no_address();
	rejects_java_profiles();
}

struct bad_input {
	char text[96];
	char msg[96];
};

ParameterizedTestParameters(contention, rejects)
{
	static struct bad_input cases[] = {
		{ "--- contention:\nfoo = 1\n",
		    "line 2: unknown contention profile attribute 'foo'" },
		{ "--- contention:\ncycles/second = 12x\n",
		    "line 2: invalid value '12x' for attribute "
		    "'cycles/second'" },
		{ "--- contention:\nsampling period = 1__0\n",
		    "line 2: invalid value '1__0' for attribute "
		    "'sampling period'" },
		{ "--- contention:\n\nhello\n",
		    "line 3: expected 'delay count @ addresses', got 'hello'" },
		{ "--- contention:\n99999999999999999999 1 @ 0x1\n",
		    "line 2: sample value '99999999999999999999' is out of "
		    "range" },
		{ "--- contention:\n1 1 @ 0x10000000000000000\n",
		    "line 2: address '0x10000000000000000' does not fit in 64 "
		    "bits" },
		{ "--- mutex:\nresolution = ms\n",
		    "Java contention profiles are not supported" },
	};

	return cr_make_param_array(struct bad_input, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_input *c, contention, rejects)
{
	cr_assert(lt(int, read_text(c->text, PROFCONV_FORMAT_CONTENTION), 0));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG, c->msg));
}
