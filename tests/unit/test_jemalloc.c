/* SPDX-License-Identifier: MIT */
/* test_jemalloc.c - tests for the jemalloc heap_v2 reader in lib/jemalloc.c. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "helpers.h"
#include <criterion/parameterized.h>

/*
 * R = 2^19.  Scaled per pair and truncated: (2, 8192) -> 257, 1052677;
 * (4, 16384) -> 514, 2105354; (1, 4096) -> 128, 526338; (0, 32) stays.
 */
static const char two_threads[] =
	"heap_v2/524288\n"
	"  t*: 3: 100 [5: 200]\n"
	"  t0: 2: 50 [3: 120] main thread\n"
	"  t1: 1: 50 [2: 80]\n"
	"@ 0x1010 0x2020\n"
	"  t*: 2: 8192 [4: 16384]\n"
	"  t0: 1: 4096 [2: 8192]\n"
	"  t1: 1: 4096 [2: 8192]\n"
	"@ 0x3000\n"
	"  t*: 0: 32 [1: 4096]\n"
	"  t1: 0: 32 [1: 4096]\n"
	"\n"
	"MAPPED_LIBRARIES:\n"
	"00001000-00004000 r-xp 00000000 08:01 123 /usr/bin/prog\n";

static struct profconv_profile *prof;

static void
drop_profile(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(jemalloc, .fini = drop_profile);

static int
read_text(const char *text, int threads)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	enum profconv_format fmt;
	int rc;

	opts.threads = threads;
	rc = profconv_profile_read_mem(&prof, text, strlen(text), &opts, &fmt);
	if (rc == 0)
		cr_assert(eq(int, fmt, PROFCONV_FORMAT_JEMALLOC));
	return rc;
}

static void
expect_label(size_t i, size_t j, const char *key, const char *str,
    int64_t num)
{
	struct profconv_label l;

	cr_assert(eq(int, profconv_profile_sample_label(prof, i, j, &l), 0));
	cr_expect(eq(str, (char *)l.key, (char *)key));
	if (str != NULL) {
		cr_expect(eq(str, (char *)l.str, (char *)str));
	} else {
		cr_expect(l.str == NULL, "label %s is a string", key);
		cr_expect(eq(i64, l.num, num));
	}
}

static void
expect_type(size_t i, const char *type, const char *unit)
{
	struct profconv_value_type vt;

	cr_assert(eq(int, profconv_profile_sample_type(prof, i, &vt), 0));
	cr_expect(eq(str, (char *)vt.type, (char *)type));
	cr_expect(eq(str, (char *)vt.unit, (char *)unit));
}

static void
unsamples_every_backtrace_total(void)
{
	static const int64_t s0[] = { 514, 2105354, 257, 1052677 };
	static const int64_t s1[] = { 128, 526338, 0, 32 };
	struct profconv_value_type pt;
	int64_t total;

	cr_assert(eq(int, read_text(two_threads, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 4));
	expect_type(0, "alloc_objects", "count");
	expect_type(1, "alloc_space", "bytes");
	expect_type(2, "inuse_objects", "count");
	expect_type(3, "inuse_space", "bytes");
	cr_expect(eq(i64, profconv_profile_period(prof, &pt), 524288));
	cr_expect(eq(str, (char *)pt.type, "space"));
	cr_expect(eq(str, (char *)pt.unit, "bytes"));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	expect_values(prof, 0, s0, 4);
	expect_values(prof, 1, s1, 4);
	/* Totals from the backtraces, not the header's (3, 100). */
	cr_assert(eq(int, profconv_profile_total(prof, 3, &total), 0));
	cr_expect(eq(i64, total, 1052709));
	ASSERT_NO_LEAKS();
	drop_profile();
}

static void
labels_average_block_size(void)
{
	cr_assert(eq(int, read_text(two_threads, 0), 0), "%s", ERRMSG);
	expect_label(0, 0, "bytes", NULL, 4096);
	/* No current objects: the accumulated pair's average. */
	expect_label(1, 0, "bytes", NULL, 4096);
	drop_profile();
}

static void
decrements_every_frame_and_maps_them(void)
{
	struct profconv_location loc;
	struct profconv_sample s;
	struct profconv_mapping m;

	cr_assert(eq(int, read_text(two_threads, 0), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_assert(eq(sz, s.nlocations, 2));
	cr_assert(eq(int, profconv_profile_location(prof,
	    sample_location(prof, 0, 0), &loc), 0));
	cr_expect(eq(u64, loc.address, 0x100f));
	cr_assert(eq(int, profconv_profile_location(prof,
	    sample_location(prof, 0, 1), &loc), 0));
	cr_expect(eq(u64, loc.address, 0x201f));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	cr_expect(eq(u32, loc.mapping_id, 1));
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_expect(eq(str, (char *)m.file, "/usr/bin/prog"));
	drop_profile();
}

static void
splits_by_thread_on_request(void)
{
	static const int64_t t0[] = { 257, 1052677, 128, 526338 };
	static const int64_t t1b[] = { 128, 526338, 0, 32 };
	struct profconv_sample s;

	cr_assert(eq(int, read_text(two_threads, 1), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	/* Each thread line is scaled on its own: 128 + 128, not 257. */
	expect_values(prof, 0, t0, 4);
	expect_values(prof, 1, t0, 4);
	expect_values(prof, 2, t1b, 4);
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_assert(eq(sz, s.nlabels, 3));
	expect_label(0, 0, "bytes", NULL, 4096);
	expect_label(0, 1, "thread", NULL, 0);
	expect_label(0, 2, "thread_name", "main thread", 0);
	cr_assert(eq(int, profconv_profile_sample(prof, 1, &s), 0));
	cr_assert(eq(sz, s.nlabels, 2));
	expect_label(1, 1, "thread", NULL, 1);
	drop_profile();
}

Test(jemalloc, reads_a_two_thread_profile)
{
	unsamples_every_backtrace_total();
	labels_average_block_size();
	decrements_every_frame_and_maps_them();
	splits_by_thread_on_request();
}

static void
keeps_only_inuse_types_without_prof_accum(void)
{
	static const char text[] =
	    "heap_v2/1\n"
	    "  t*: 2: 48 [0: 0]\n"
	    "@ 0x10\n"
	    "  t*: 2: 48 [0: 0]\n";
	static const int64_t want[] = { 2, 48 };

	cr_assert(eq(int, read_text(text, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 2));
	expect_type(0, "inuse_objects", "count");
	expect_type(1, "inuse_space", "bytes");
	expect_values(prof, 0, want, 2);
	cr_expect(strstr(profconv_profile_drop_frames(prof), "|malloc|") != NULL);
	cr_expect(strstr(profconv_profile_drop_frames(prof),
	    "|je_prof_.*|") != NULL);
	drop_profile();
}

static void
adds_alloc_types_when_a_backtrace_has_them(void)
{
	/* The header's pre-biased accumulated total rounded to 0. */
	static const char text[] =
	    "heap_v2/0\n"
	    "  t*: 1: 16 [0: 0]\n"
	    "@ 0x10\n"
	    "  t*: 1: 16 [0: 0]\n"
	    "@ 0x20\n"
	    "  t*: 0: 0 [3: 96]\n";
	static const int64_t s0[] = { 0, 0, 1, 16 };
	static const int64_t s1[] = { 3, 96, 0, 0 };

	cr_assert(eq(int, read_text(text, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 4));
	expect_type(0, "alloc_objects", "count");
	expect_type(3, "inuse_space", "bytes");
	/* R = 0: jeprof does not scale. */
	expect_values(prof, 0, s0, 4);
	expect_values(prof, 1, s1, 4);
	drop_profile();
}

Test(jemalloc, chooses_sample_types)
{
	keeps_only_inuse_types_without_prof_accum();
	adds_alloc_types_when_a_backtrace_has_them();
}

Test(jemalloc, reads_an_empty_backtrace_and_no_maps)
{
	static const char text[] =
	    "heap_v2/1\n"
	    "  t*: 0: 0 [0: 0]\n"
	    "@\n"
	    "  t*: 1: 4096 [1: 4096]\n";
	struct profconv_sample s;

	cr_assert(eq(int, read_text(text, 0), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &s), 0));
	cr_expect(eq(sz, s.nlocations, 0));
	cr_expect(eq(i64, s.values[1], 4096));
}

struct bad_input {
	char text[160];
	char msg[100];
};

ParameterizedTestParameters(jemalloc, rejects)
{
	static struct bad_input cases[] = {
		{ "heap_v2/abc\n",
		    "line 1: expected 'heap_v2/<sampling rate>', got "
		    "'heap_v2/abc'" },
		{ "heap_v2/1\n  t*: 1: 1 [1: 1]\n@ 0x10\n  t*: 1: x [0: 0]\n",
		    "line 4: malformed counts 't*: 1: x [0: 0]'" },
		{ "heap_v2/1\n@ 0x10\n  t*: 1: 1 [0: 0\n",
		    "line 3: malformed counts 't*: 1: 1 [0: 0'" },
		{ "heap_v2/1\n@ 0x10 0xzz 0x30\n",
		    "line 2: bad address '0xzz'" },
		{ "heap_v2/1\n@ 0x10\nbogus line\n",
		    "line 3: unexpected line 'bogus line'" },
		{ "heap_v2/1\n@ 0x10\n  t*: 1: 18446744073709551615 [0: 0]\n",
		    "line 3: counts too large" },
		{ "heap_v2/1\n@ 0x10\n  t*: 1: 18446744073709551616 [0: 0]\n",
		    "line 3: malformed counts 't*: 1: 18446744073709551616 "
		    "[0: 0]'" },
	};

	return cr_make_param_array(struct bad_input, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_input *c, jemalloc, rejects)
{
	cr_assert(eq(int, read_text(c->text, 0), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG, c->msg));
}

/*
 * Unsampling far above the rate (every allocation sampled, or objects
 * much larger than it) is 1: the reader skips exp() from an average
 * size of 40 times the rate on.  Against jeprof's formula, computed
 * here, with counts large enough (10^12) that a scale of 1 + 2^-52
 * would show: averages of 20 to 100 times the rate.
 */
Test(jemalloc, unsampling_far_above_the_rate)
{
	static const double xs[] = { 20, 30, 36, 37.5, 38, 39.9, 40, 41, 45,
	    100 };
	const uint64_t rate = 1024, count = 1000000000000ULL;
	char text[4096];
	size_t i, at;

	at = (size_t)snprintf(text, sizeof(text), "heap_v2/%llu\n"
	    "  t*: 1: 1 [1: 1]\n", (unsigned long long)rate);
	for (i = 0; i < (sizeof(xs) / sizeof(xs[0])); i++) {
		uint64_t bytes = (uint64_t)(xs[i] * (double)rate) * count;

		at += (size_t)snprintf(text + at, sizeof(text) - at,
		    "@ 0x%zx\n  t*: %llu: %llu [%llu: %llu]\n", 0x1000 + i,
		    (unsigned long long)count, (unsigned long long)bytes,
		    (unsigned long long)count, (unsigned long long)bytes);
	}
	cr_assert(lt(sz, at, sizeof(text)));
	cr_assert(eq(int, read_text(text, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof),
	    (sizeof(xs) / sizeof(xs[0]))));
	for (i = 0; i < (sizeof(xs) / sizeof(xs[0])); i++) {
		uint64_t bytes = (uint64_t)(xs[i] * (double)rate) * count;
		double c = (double)count, b = (double)bytes;
		double scale = 1 / (1 - exp(-(b / c) / (double)rate));
		int64_t want[4];

		want[0] = want[2] = (int64_t)(c * scale);
		want[1] = want[3] = (int64_t)(b * scale);
		expect_values(prof, i, want, 4);
	}
	/* The test can tell: below 37.4 times the rate, the scale is not
	 * 1 at these counts. */
	{
		int64_t scaled = (int64_t)((double)count /
		    (1 - exp(-20.0)));

		cr_assert(ne(i64, scaled, (int64_t)count));
	}
}

/*
 * A dump of 40,000 stacks of two frames each, every frame at its own
 * address: past the 32,768th stack the reader brings a location id past
 * 65,535, and the model widens the ids it has read so far.  Every stack
 * reads back, before and after that point.
 */
Test(jemalloc, reads_more_locations_than_two_bytes_count)
{
	static const size_t n = 40000, check[] = { 0, 1, 32767, 32768,
	    32769, 39999 };
	size_t len = 0, cap = 64 * n + 64, i, k;
	char *text = malloc(cap);

	cr_assert(not(zero(ptr, text)));
	len += (size_t)snprintf(text, cap, "heap_v2/0\n  t*: %zu: %zu [0: 0]\n",
	    n, 16 * n);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
		    "@ 0x%zx 0x%zx\n  t*: 1: 16 [0: 0]\n", 0x10000 + 32 * i,
		    0x10010 + 32 * i);
	cr_assert(lt(sz, len, cap));
	cr_assert(eq(int, read_text(text, 0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), n));
	cr_assert(eq(sz, profconv_profile_location_count(prof), 2 * n));
	for (k = 0; k < sizeof(check) / sizeof(check[0]); k++) {
		uint64_t want[2] = { 0x10000 + 32 * check[k] - 1,
		    0x10010 + 32 * check[k] - 1 };

		expect_stack(prof, check[k], want, 2);
	}
	free(text);
}
