/* SPDX-License-Identifier: MIT */
/*
 * test_hostile.c - inputs built to cost time or memory (issue 16): each
 * runs under a memory limit and a timeout far above what the fixed code
 * needs, so only a regression fails.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "helpers.h"
#include "base/intervals.h"
#include "view/view.h"

/* Cap the address space (not under ASan, whose shadow needs terabytes). */
static void
limit_memory(rlim_t bytes)
{
#if !defined(__SANITIZE_ADDRESS__)
	struct rlimit rl = { bytes, bytes };

	cr_assert(eq(int, setrlimit(RLIMIT_AS, &rl), 0));
#else
	(void)bytes;
#endif
}

/* --- item 7: drop_frames costs bounded ---------------------------------- */

static void
bounds_counted_repetition(void)
{
	char why[96];

	cr_expect(eq(int, profconv__rx_check("malloc|free|tc_.*", why,
	    sizeof(why)), 0));
	cr_expect(eq(int, profconv__rx_check("x{0,1000}", why, sizeof(why)), 0));
	cr_expect(eq(int, profconv__rx_check("((x{0,10}){0,10}){0,10}", why,
	    sizeof(why)), 0));
	cr_expect(eq(int, profconv__rx_check("(((x{0,40}){0,40}){0,40})", why,
	    sizeof(why)), -1));
	cr_expect(eq(str, why, "counted repetitions multiply to more than 1000"));
	cr_expect(eq(int, profconv__rx_check("x{2}{600}", why, sizeof(why)), -1));
	cr_expect(eq(int, profconv__rx_check("(x{0,1000})(y{0,1000})(z{0,1000})"
	    "(w{0,1000})(v{0,1000})", why, sizeof(why)), -1));
	cr_expect(eq(str, why, "more than 4000 atoms with its counted "
	    "repetitions expanded"));
	cr_expect(eq(int, profconv__rx_check("(a)\\1", why, sizeof(why)), -1));
	cr_expect(eq(str, why, "back-reference '\\1'"));
	/* Brackets are one atom; "{" without a count is a literal. */
	cr_expect(eq(int, profconv__rx_check("[{}()]{0,900}a{b", why,
	    sizeof(why)), 0));
}

static void
depth_is_bounded(void)
{
	char rx[512], why[96];
	size_t i;

	for (i = 0; i < 150; i++)
		rx[i] = '(';
	rx[i] = '\0';
	cr_expect(eq(int, profconv__rx_check(rx, why, sizeof(why)), -1));
	cr_expect(eq(str, why, "groups nest more than 100 deep"));
}

/* The default allocator lists are themselves within the bound. */
static void
defaults_pass(void)
{
	static const char *const types[][2] = {
		{ "inuse_objects", "inuse_space" }, { "contentions", "delay" },
		{ "samples", "cpu" },
	};
	const char *drop, *keep;
	char why[96];

	for (size_t i = 0; i < 3; i++) {
		struct profconv_profile *prof;

		cr_assert(eq(int, profconv_profile_new(&prof), 0));
		profconv_profile_add_sample_type(prof, types[i][0], "count");
		profconv_profile_add_sample_type(prof, types[i][1], "bytes");
		profconv__default_frames(prof, &drop, &keep);
		cr_expect(eq(int, profconv__rx_check(drop, why, sizeof(why)), 0),
		    "%s", why);
		profconv_profile_free(prof);
	}
}

Test(rx, check_bounds_patterns)
{
	bounds_counted_repetition();
	depth_is_bounded();
	defaults_pass();
}

/* A heap profile whose stack is main -> operator new -> malloc. */
static struct profconv_profile *
heap_profile(const char *drop_frames)
{
	static const char *const names[] = { "malloc", "operator new", "main" };
	struct profconv_profile *prof;
	uint32_t locs[3], fid;
	int64_t v[2] = { 1, 64 };

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	profconv_profile_add_sample_type(prof, "inuse_objects", "count");
	profconv_profile_add_sample_type(prof, "inuse_space", "bytes");
	for (uint32_t i = 0; i < 3; i++) {
		struct profconv_function f = { names[i], names[i], "a.c", 1 };
		struct profconv_line ln = { 0, 10, 0 };

		cr_assert(eq(int, profconv_profile_add_function(prof, &f, &fid), 0));
		ln.function_id = fid;
		cr_assert(eq(int, profconv_profile_add_location(prof, 0,
		    0x1000 + i, &ln, 1, 0, &locs[i]), 0));
	}
	cr_assert(eq(int, profconv_profile_add_sample(prof, locs, 3, v, NULL, 0), 0));
	cr_assert(eq(int, profconv_profile_set_drop_frames(prof, drop_frames), 0));
	return prof;
}

/* Glibc needed 3 GB and 11 s for this pattern; now it is refused and the
 * default allocator frames are dropped instead. */
Test(rx, hostile_drop_frames_in_flame, .timeout = 60)
{
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;
	struct profconv_profile *prof;
	struct profconv_view *view;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	prof = heap_profile("(((x{0,80}){0,80}){0,80})|malloc");
	limit_memory((rlim_t)512 << 20);
	cr_assert(eq(int, profconv_view_new(&view, prof, NULL), 0), "%s",
	    ERRMSG);
	fp = open_memstream(&buf, &len);
	cr_assert(eq(int, profconv_flame_write(view, NULL, fp, &fo), 0), "%s",
	    ERRMSG);
	fclose(fp);
	cr_expect(eq(str, buf, "main 64\n"));
	free(buf);
	profconv_view_free(view);
	profconv_profile_free(prof);
}

static void
pruner_says_why(void)
{
	struct profconv_profile *prof = heap_profile("(x{0,40}){0,40}");
	struct pc_pruner p;

	cr_assert(eq(int, profconv__pruner_init(&p, prof, true, true), 0));
	cr_expect(eq(str, p.refused, "drop_frames or keep_frames refused "
	    "(counted repetitions multiply to more than 1000); default "
	    "allocator frames used"));
	cr_expect(p.alloc_profile);
	profconv__pruner_free(&p);
	profconv_profile_free(prof);
}

static void
collect(const char *msg, void *payload)
{
	char *seen = payload;

	snprintf(seen, 256, "%s", msg);
}

/* The view hands the refusal to its caller's warn callback, once. */
static void
view_warns_of_a_refused_pattern(void)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_profile *prof = heap_profile("(x{0,40}){0,40}");
	struct profconv_view *view;
	char seen[256] = "";

	vo.warn = collect;
	vo.payload = seen;
	cr_assert(eq(int, profconv_view_new(&view, prof, &vo), 0));
	cr_expect(eq(str, seen, "drop_frames or keep_frames refused "
	    "(counted repetitions multiply to more than 1000); default "
	    "allocator frames used"));
	profconv_view_free(view);
	seen[0] = '\0';
	profconv_profile_set_drop_frames(prof, "malloc|operator new");
	cr_assert(eq(int, profconv_view_new(&view, prof, &vo), 0));
	cr_expect(eq(str, seen, ""));
	profconv_view_free(view);
	profconv_profile_free(prof);
}

Test(rx, refused_pattern_is_explained)
{
	pruner_says_why();
	view_warns_of_a_refused_pattern();
}

/* --- item 9: the address table cannot be flooded ----------------------- */

/* The inverse of A modulo 2^64 (A odd), by Newton's iteration. */
static uint64_t
inverse(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/* The key the unkeyed mixer sends to hash H: fmix64 run backwards. */
static uint64_t
unmix(uint64_t h)
{
	h ^= h >> 33;
	h *= inverse(0xc4ceb9fe1a85ec53ULL);
	h ^= h >> 33;
	h *= inverse(0xff51afd7ed558ccdULL);
	h ^= h >> 33;
	return h;
}

/* 200,000 keys whose unkeyed hashes all end in 24 zero bits: one probe
 * chain took minutes; with the per-process seed they spread. */
Test(hash, crafted_keys_do_not_collide, .timeout = 60)
{
	struct pc_u64map m = { 0 };
	uint32_t v;

	cr_assert(eq(u64, profconv__hash_u64(unmix(12345)), 12345));
	for (uint32_t i = 1; i <= 200000; i++)
		cr_assert(eq(int, profconv__u64map_put(&m, unmix((uint64_t)i << 24),
		    i), 0));
	for (uint32_t i = 1; i <= 200000; i++) {
		cr_assert(profconv__u64map_get(&m, unmix((uint64_t)i << 24), &v));
		cr_assert(eq(u32, v, i));
	}
	profconv__u64map_free(&m);
}

Test(hash, seed_is_stable_within_a_process)
{
	uint64_t a = profconv__hash_bytes("abc", 3, 7);

	cr_expect(eq(u64, profconv__hash_seed(), profconv__hash_seed()));
	cr_expect(eq(u64, profconv__hash_bytes("abc", 3, 7), a));
}

/* --- item 12: map entries found by search, not one by one -------------- */

/* The stabbing index gives what a linear search gives: the lowest id of
 * the live intervals holding a point, with overlaps, empty intervals,
 * shared end points and removals. */
Test(stab, agrees_with_linear_search)
{
	enum { N = 300, Q = 3000 };
	uint64_t lo[N], hi[N], ends[2 * N];
	bool dead[N] = { false };
	struct pc_stab added, removable;
	unsigned seed = 12345;

	for (size_t i = 0; i < N; i++) {
		seed = seed * 1103515245 + 12345;
		lo[i] = (seed >> 8) % 1000;
		seed = seed * 1103515245 + 12345;
		hi[i] = lo[i] + (seed >> 8) % 60;	/* some empty */
		ends[2 * i] = lo[i];
		ends[2 * i + 1] = hi[i];
	}
	cr_assert(eq(int, profconv__stab_init(&added, ends, 2 * N), 0));
	cr_assert(eq(int, profconv__stab_init(&removable, ends, 2 * N), 0));
	cr_assert(eq(int, profconv__stab_build_removable(&removable, lo, hi, N), 0));
	for (size_t i = 0; i < N; i++)
		profconv__stab_add(&added, lo[i], hi[i], (uint32_t)i);
	for (uint64_t a = 0; a < Q; a++) {
		uint32_t want = PC_STAB_NONE, want_alive = PC_STAB_NONE;

		if (a % 7 == 0)
			dead[(a * 31) % N] = true;
		for (size_t i = N; i > 0; i--) {
			if (lo[i - 1] <= a % 1100 && a % 1100 < hi[i - 1]) {
				want = (uint32_t)(i - 1);
				if (!dead[i - 1])
					want_alive = (uint32_t)(i - 1);
			}
		}
		cr_assert(eq(u32, profconv__stab_min(&added, a % 1100), want),
		    "point %llu", (unsigned long long)(a % 1100));
		cr_assert(eq(u32, profconv__stab_min_alive(&removable, a % 1100,
		    dead), want_alive), "point %llu", (unsigned long long)(a % 1100));
	}
	profconv__stab_free(&added);
	profconv__stab_free(&removable);
}

/* --- item 16: merged durations saturate -------------------------------- */

static void
duration_saturates(void)
{
	struct profconv_profile *p[2], *m;

	for (int i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_profile_new(&p[i]), 0));
		profconv_profile_add_sample_type(p[i], "samples", "count");
		profconv_profile_set_time(p[i], 1000, INT64_MAX - 1);
	}
	cr_assert(eq(int, profconv_profile_merge(&m, p, 2), 0), "%s", ERRMSG);
	cr_expect(eq(i64, profconv_profile_duration_nanos(m), INT64_MAX));
	profconv_profile_free(m);
	for (int i = 0; i < 2; i++) {
		profconv_profile_set_time(p[i], 1000, INT64_MIN + 1);
	}
	cr_assert(eq(int, profconv_profile_merge(&m, p, 2), 0), "%s", ERRMSG);
	cr_expect(eq(i64, profconv_profile_duration_nanos(m), INT64_MIN));
	profconv_profile_free(m);
	profconv_profile_free(p[0]);
	profconv_profile_free(p[1]);
}

/* --- item 17: a comparison names the base, and "none" for no type ------- */

static void
subtract_names_the_base(void)
{
	struct profconv_profile *cur, *base, *d;

	cr_assert(eq(int, profconv_profile_new(&cur), 0));
	cr_assert(eq(int, profconv_profile_new(&base), 0));
	profconv_profile_add_sample_type(cur, "space", "bytes");
	profconv_profile_add_sample_type(base, "space", "bytes");
	profconv_profile_set_period(cur, "space", "bytes", 524288);
	cr_assert(eq(int, profconv_profile_subtract(&d, cur, base),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "the base profile is incompatible: period "
	    "type none, not space/bytes"));
	profconv_profile_free(cur);
	profconv_profile_free(base);
}

Test(merge, header_values_of_hostile_profiles)
{
	duration_saturates();
	subtract_names_the_base();
}
