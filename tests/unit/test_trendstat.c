/* SPDX-License-Identifier: MIT */
/*
 * test_trendstat.c - proftrend's statistics without a profile: the robust
 * fit (Theil-Sen, Mann-Kendall), the verdict on synthetic series of every
 * shape and their edge cases, and what a dump's file name says.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/trend.h"
#include "helpers.h"

TestSuite(trendstat);

#define K ((int64_t)1024)
#define N 12

static double scratch[PC_FIT_SCRATCH];

/* The verdict on V[0..n) with the default rule (4 KiB floor, no
 * fraction of intervals). */
static enum profconv_trend_verdict
judge_floor(const int64_t *v, size_t n, int64_t floor)
{
	struct pc_rule rule = { floor, 0, 0, 0, 0 };
	struct pc_shape sh;

	return profconv__trend_verdict(v, NULL, n, 1, &rule, scratch, &sh);
}

static enum profconv_trend_verdict
judge(const int64_t *v, size_t n)
{
	return judge_floor(v, n, 4 * K);
}

#define VERDICT(v, n, want) \
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(judge(v, n)), \
	    (char *)profconv_trend_verdict_name(want)), #v)

/* A deterministic jitter in [-amp, amp]. */
static int64_t
jitter(size_t i, int64_t amp)
{
	uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ULL;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return (int64_t)(x % (uint64_t)(2 * amp + 1)) - amp;
}

Test(trendstat, verdict_names)
{
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_LEAK), "leak"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_FREED_AT_EXIT), "freed-at-exit"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_SATURATING), "saturating"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_PERIODIC), "periodic"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_TRANSIENT), "transient"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    PROFCONV_TREND_STABLE), "stable"));
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    (enum profconv_trend_verdict)99), "?"));
}

static void
theil_sen_and_mann_kendall(void)
{
	int64_t line[10], spiked[10], flat[6] = { 5, 5, 5, 5, 5, 5 };
	int64_t two_cols[] = { 0, -7, 10, -7, 20, -7 };
	struct pc_fit f;
	size_t i;

	for (i = 0; i < 10; i++)
		line[i] = spiked[i] = 100 * (int64_t)i;
	spiked[4] = 1000000;	/* one wild point: the median slope holds */
	profconv__trend_fit(line, 10, 1, scratch, &f);
	cr_assert(eq(dbl, f.theil_sen, 100.0));
	/* S = 45 pairs up; Var = 10 * 9 * 25 / 18 = 125; Z = 44 / sqrt(125). */
	cr_assert(eq(dbl, f.mk_s, 45.0));
	cr_assert(ieee_ulp_eq(dbl, f.mk_z, 44 / sqrt(125.0), 4));
	profconv__trend_fit(spiked, 10, 1, scratch, &f);
	cr_assert(eq(dbl, f.theil_sen, 100.0));
	profconv__trend_fit(flat, 6, 1, scratch, &f);
	cr_assert(eq(dbl, f.theil_sen, 0.0));
	cr_assert(eq(dbl, f.mk_z, 0.0));
	/* Stride: every other column. */
	profconv__trend_fit(two_cols, 3, 2, scratch, &f);
	cr_assert(eq(dbl, f.theil_sen, 10.0));
	cr_assert(eq(sz, f.points, 3));
}

static void
long_series_fit_on_spread_points(void)
{
	static int64_t v[1000];
	struct pc_fit f;
	size_t i;

	for (i = 0; i < 1000; i++)
		v[i] = 7 * (int64_t)i;
	profconv__trend_fit(v, 1000, 1, scratch, &f);
	cr_assert(eq(sz, f.points, PC_FIT_POINTS));
	cr_assert(ieee_ulp_eq(dbl, f.theil_sen, 7.0, 64), "%g", f.theil_sen);
	cr_assert(f.mk_z > 10);
}

static void
steady_leak(void)
{
	int64_t v[N];
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = 64 * K * (int64_t)(i + 1);
	VERDICT(v, N, PROFCONV_TREND_LEAK);
}

static void
small_leak_is_a_leak_whatever_its_size(void)
{
	static int64_t v[1000];
	size_t i;

	/* 300 bytes a dump, 1000 dumps: far below 1% of any big leak. */
	for (i = 0; i < 1000; i++)
		v[i] = 300 * (int64_t)i + 17;
	VERDICT(v, 1000, PROFCONV_TREND_LEAK);
	/* 200 bytes a dump, 30 dumps: 5.8 KiB, above the 4 KiB floor. */
	VERDICT(v, 30, PROFCONV_TREND_LEAK);
	/* ... but 10 dumps of it are 2.7 KiB: within the noise floor. */
	VERDICT(v, 10, PROFCONV_TREND_STABLE);
}

static void
leak_that_starts_late_or_dips(void)
{
	int64_t late[N], dip[N], steps[30];
	size_t i;

	for (i = 0; i < N; i++) {
		late[i] = i < N / 2 ? 8 * K : 8 * K + 32 * K * (int64_t)i;
		dip[i] = 16 * K * (int64_t)(i + 1) - (i == 5 ? 20 * K : 0);
	}
	VERDICT(late, N, PROFCONV_TREND_LEAK);
	VERDICT(dip, N, PROFCONV_TREND_LEAK);
	/* A sampled leak: a step of one sample every third dump. */
	for (i = 0; i < 30; i++)
		steps[i] = 512 * K * (int64_t)(i / 3);
	cr_assert(eq(int, judge_floor(steps, 30, 512 * K),
	    PROFCONV_TREND_LEAK));
}

static void
saturating_cache(void)
{
	int64_t v[N], jittery[40];
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = 128 * K * (int64_t)(i < 4 ? i : 4);
	VERDICT(v, N, PROFCONV_TREND_SATURATING);
	/* Filled once before the second dump. */
	v[0] = 0;
	for (i = 1; i < N; i++)
		v[i] = 512 * K;
	VERDICT(v, N, PROFCONV_TREND_SATURATING);
	/* An LRU cache: fills, then wobbles under its cap. */
	for (i = 0; i < 40; i++)
		jittery[i] = (int64_t)(i < 10 ? i : 10) * 100 * K +
		    (i >= 10 ? jitter(i, 20 * K) - 20 * K : 0);
	VERDICT(jittery, 40, PROFCONV_TREND_SATURATING);
	/* Three snapshots, the last two at the cap. */
	VERDICT(((int64_t[]){ 0, 512 * K, 512 * K }), 3,
	    PROFCONV_TREND_SATURATING);
	/* Seen on perl's bounded cache under jemalloc (a sample every 4
	 * KiB, so a 165 KiB row moves by tens of KiB from dump to dump):
	 * up to 209 KiB, back to 140 (less than half its range, no fall),
	 * then up again by more than a fifth of what it holds but not
	 * back to its old high.  A level with noise, not a leak. */
	VERDICT(((int64_t[]){ 12 * K, 14 * K, 100 * K, 130 * K, 180 * K,
	    209 * K, 185 * K, 180 * K, 160 * K, 155 * K, 150 * K, 140 * K,
	    140 * K, 150 * K, 165 * K, 175 * K }), 16,
	    PROFCONV_TREND_SATURATING);
}

static void
periodic(void)
{
	int64_t saw[N], ramp[30], dips[10];
	size_t i;

	for (i = 0; i < N; i++)
		saw[i] = i % 2 ? 256 * K : 0;
	VERDICT(saw, N, PROFCONV_TREND_PERIODIC);
	/* Sawtooth: climbs for five dumps, drops, again. */
	for (i = 0; i < 30; i++)
		ramp[i] = 64 * K * (int64_t)(i % 6);
	VERDICT(ramp, 30, PROFCONV_TREND_PERIODIC);
	/* Grows, but falls back to nothing once: comes and goes. */
	for (i = 0; i < 10; i++)
		dips[i] = i == 6 ? 0 : 16 * K * (int64_t)(i + 1);
	VERDICT(dips, 10, PROFCONV_TREND_PERIODIC);
}

static void
transient(void)
{
	int64_t hump[N], spike[N] = { 0 }, dropped[N];
	size_t i;

	for (i = 0; i < N; i++) {
		hump[i] = i < 6 ? 128 * K * (int64_t)(i + 1) : 0;
		dropped[i] = i < 3 ? 900 * K : 100 * K;
	}
	VERDICT(hump, N, PROFCONV_TREND_TRANSIENT);
	spike[5] = 300 * K;
	VERDICT(spike, N, PROFCONV_TREND_TRANSIENT);
	/* Held at the start and let go. */
	VERDICT(dropped, N, PROFCONV_TREND_TRANSIENT);
}

static void
freed_at_exit(void)
{
	int64_t v[N];
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = 64 * K * (int64_t)(i + 1);
	v[N - 1] = 0;
	VERDICT(v, N, PROFCONV_TREND_FREED_AT_EXIT);
	/* Back to where it started, not to zero. */
	for (i = 0; i < N; i++)
		v[i] = 1024 * K + 64 * K * (int64_t)i;
	v[N - 1] = 1024 * K + 1000;
	VERDICT(v, N, PROFCONV_TREND_FREED_AT_EXIT);
	/* Half of it still there at the end: not freed at exit. */
	v[N - 1] = 1024 * K + 32 * K * (int64_t)N;
	cr_assert(ne(int, judge(v, N), PROFCONV_TREND_FREED_AT_EXIT));
}

static void
stable_flat_and_noise(void)
{
	int64_t flat[N], noise[50], below[N];
	size_t i;

	for (i = 0; i < N; i++) {
		flat[i] = 777 * K;
		below[i] = 1000 + 300 * (int64_t)i;	/* 3.3 KiB in all */
	}
	VERDICT(flat, N, PROFCONV_TREND_STABLE);
	VERDICT(below, N, PROFCONV_TREND_STABLE);
	for (i = 0; i < 50; i++)
		noise[i] = 1024 * K + jitter(i, 1500);
	VERDICT(noise, 50, PROFCONV_TREND_STABLE);
	/* Noise wider than the floor but with no trend is never a leak. */
	for (i = 0; i < 50; i++)
		noise[i] = 1024 * K + jitter(i, 6 * K);
	cr_assert(ne(int, judge(noise, 50), PROFCONV_TREND_LEAK));
}

static void
two_snapshots(void)
{
	VERDICT(((int64_t[]){ 0, 64 * K }), 2, PROFCONV_TREND_LEAK);
	VERDICT(((int64_t[]){ 64 * K, 0 }), 2, PROFCONV_TREND_TRANSIENT);
	VERDICT(((int64_t[]){ 0, 100 }), 2, PROFCONV_TREND_STABLE);
	VERDICT(((int64_t[]){ 5, 5 }), 2, PROFCONV_TREND_STABLE);
	/* One snapshot: nothing to judge. */
	VERDICT(((int64_t[]){ 5 }), 1, PROFCONV_TREND_STABLE);
}

static void
rule_settings(void)
{
	/* Grew in 4 of the 5 intervals that moved. */
	int64_t v[] = { 0, 10 * K, 20 * K, 15 * K, 30 * K, 40 * K };
	struct pc_rule rule = { 4 * K, 0.8, 0, 0, 0 };
	struct pc_shape sh;

	cr_assert(eq(int, profconv__trend_verdict(v, NULL, 6, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_LEAK));
	cr_assert(eq(sz, sh.grew, 4));
	cr_assert(eq(sz, sh.fell, 1));
	rule.min_grew_fraction = 0.81;		/* needs 5 of 5 */
	cr_assert(ne(int, profconv__trend_verdict(v, NULL, 6, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_LEAK));
	rule.min_grew_fraction = 0.8;
	rule.floor = 41 * K;			/* grew 40 KiB: noise */
	cr_assert(eq(int, profconv__trend_verdict(v, NULL, 6, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_STABLE));
	/* The extremes of int64 do not overflow. */
	rule.floor = 1;
	cr_assert(eq(int, profconv__trend_verdict(((int64_t[]){ INT64_MIN,
	    INT64_MAX }), NULL, 2, 1, &rule, scratch, &sh),
	    PROFCONV_TREND_LEAK));
}

#define M (1024 * K)

static void
sampling_noise_is_no_leak(void)
{
	/* perl's bounded cache under jemalloc, a sample every 4 KiB: one
	 * row, dump after dump (KiB), a level from the ninth dump on that
	 * sampling moves by tens of KiB, ending on a high. */
	static const int64_t kib[] = { 12, 20, 44, 76, 113, 133, 157, 169,
		189, 169, 161, 157, 173, 141, 141, 145, 141, 145, 145, 185,
		197, 201, 201, 201 };
	int64_t v[24], leak[24];
	struct pc_rule rule = { 4 * K, 0, 4 * K, 0, 0 };
	struct pc_shape sh;
	size_t i;

	for (i = 0; i < 24; i++) {
		v[i] = kib[i] * K;
		/* A leak sampled the same way: 128 KiB a dump. */
		leak[i] = 128 * K * (int64_t)i + (i % 2 ? 20 * K : 0);
	}
	cr_assert(eq(int, profconv__trend_verdict(v, NULL, 24, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_SATURATING));
	cr_assert(eq(int, profconv__trend_verdict(leak, NULL, 24, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_LEAK));
	/* Recorded whole (no sampling), the same end is a rise. */
	rule.period = 0;
	cr_assert(eq(int, profconv__trend_verdict(v, NULL, 24, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_LEAK));
}

/* The verdict on V[0..n) at the places X on the x axis. */
static enum profconv_trend_verdict
judge_x(const int64_t *v, const double *x, size_t n)
{
	struct pc_rule rule = { 4 * K, 0, 0, 0, 0 };
	struct pc_shape sh;

	return profconv__trend_verdict(v, x, n, 1, &rule, scratch, &sh);
}

static void
ramp_with_gc_dips_is_a_leak(void)
{
	int64_t v[32], exit_dump[33];
	size_t i;

	/* Kept Buffers climb 12 MiB a dump; a collection frees 20 MiB of
	 * garbage every third dump: the lows rise with the ramp. */
	for (i = 0; i < 32; i++)
		v[i] = 26 * K + 12 * M * (int64_t)i - (i % 3 == 2 ? 20 * M : 0);
	VERDICT(v, 32, PROFCONV_TREND_LEAK);
	/* The same, then everything freed in the dump at exit. */
	memcpy(exit_dump, v, sizeof(v));
	exit_dump[32] = 26 * K;
	VERDICT(exit_dump, 33, PROFCONV_TREND_FREED_AT_EXIT);
}

static void
never_falls_and_still_grows_is_a_leak(void)
{
	int64_t v[40];
	size_t i, k, steps;
	static const size_t at[] = { 2, 4, 6, 8, 10, 12, 14, 16, 24, 36 };

	/* An arena that grows by 4 MiB chunks, often early, seldom late:
	 * it never falls and took a step in the last quarter. */
	for (i = 0; i < 40; i++) {
		for (k = 0, steps = 0; k < sizeof(at) / sizeof(at[0]); k++)
			steps += i >= at[k];
		v[i] = 2 * M + 4 * M * (int64_t)steps;
	}
	VERDICT(v, 40, PROFCONV_TREND_LEAK);
	/* Its twin at another scale gets the same verdict. */
	for (i = 0; i < 40; i++)
		v[i] = v[i] / 3;
	VERDICT(v, 40, PROFCONV_TREND_LEAK);
}

static void
plateau_over_the_last_quarter_saturates(void)
{
	int64_t v[40];
	size_t i;

	/* Fills until 70% of the series, then holds. */
	for (i = 0; i < 40; i++)
		v[i] = 64 * K * (int64_t)(i < 28 ? i : 28);
	VERDICT(v, 40, PROFCONV_TREND_SATURATING);
}

static void
x_axis_of_allocation(void)
{
	int64_t v[40];
	double alloc[40], even[40];
	size_t i;

	/* Dumps by time: a leak of a share of what is allocated, over 20
	 * busy dumps, then 20 idle ones in which nothing is allocated.  By
	 * snapshot it looks like a plateau; by allocation the idle dumps
	 * are at one place and the leak still grows to the end. */
	for (i = 0; i < 40; i++) {
		alloc[i] = (double)(1 + (i < 20 ? i : 19)) * 100e6;
		v[i] = 256 * K * (int64_t)(i < 20 ? i : 19);
		even[i] = 5e6 * (double)i;
	}
	cr_assert(eq(int, judge_x(v, NULL, 40), PROFCONV_TREND_SATURATING));
	cr_assert(eq(int, judge_x(v, alloc, 40), PROFCONV_TREND_LEAK));
	/* Dumps by allocation volume: evenly spaced, as snapshots are. */
	cr_assert(eq(int, judge_x(v, even, 20), judge_x(v, NULL, 20)));
	cr_assert(eq(int, judge_x(v, even, 20), PROFCONV_TREND_LEAK));
}

/*
 * node 20 under jemalloc, buffers.js keep 40 (tests/trend/programs):
 * Buffers kept, garbage freed every other step; a dump every 2 MiB
 * allocated, a sample every 512 KiB, on a loaded machine.  The row of
 * the Buffers over the 76 dumps before the one at exit, and the bytes
 * allocated at each.  Its last quarter rose 8.8 MiB, under the row's
 * noise (9.4 MiB), and topped the earlier peak by less than that: the
 * old test called it saturating.  Its second half rose 24.5 MiB.
 */
static const int64_t node_kept[76] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3195140, 5332566, 1075766,
	2151533, 3213122, 3757374, 4833007, 6454598, 8045516, 5397932,
	6454598, 8576586, 6010054, 9194879, 10247667, 12419611,
	9340203, 10359192, 8924442, 11428628, 14093500, 10597776,
	11073111, 13640703, 14674824, 13285646, 15423220, 17561315,
	20251759, 15478361, 17129494, 17129494, 17651980, 16733330,
	18329185, 22068115, 21671400, 22666330, 23175662, 26322659,
	25948236, 28592752, 33293725, 28224110, 28724624, 31291844,
	32991760, 34019842, 35055450, 30515644, 33067118, 30677771,
	31706118, 34228189, 38334986, 33379004, 34903779, 36451645,
	36167272, 39648305, 41773300, 37371104, 41367604, 41367604
};
static const double node_alloc[76] = {
	4766348, 7390116, 11063863, 13686431, 14734576, 16831808,
	18408265, 20581184, 23373519, 28139396, 29724580, 33018670,
	36213810, 38351236, 39940795, 41013785, 42078613, 42619589,
	45822468, 47978803, 50116208, 52769891, 53834529, 56488553,
	59177159, 62389473, 63982260, 66140362, 67746728, 68810842,
	71998085, 74658652, 77339085, 79477495, 80009600, 82680123,
	83744388, 85874481, 88012055, 90150150, 93889810, 96018173,
	98746374, 100362654, 100894027, 102506842, 104651467,
	108423722, 112159892, 113221061, 113751834, 116951246,
	120721856, 123928007, 128177195, 130871619, 131402855,
	133528228, 138891621, 139954438, 141541765, 143148324,
	145817945, 149028515, 150103483, 152773246, 156495071,
	159170004, 160776550, 162383097, 165069077, 168259051,
	170408766, 172008261, 176265766, 176790374
};

static void
sampled_ramp_that_kept_climbing_is_a_leak(void)
{
	struct pc_rule rule = { 1 << 19, 0, 1 << 19, 0, 0 };
	struct pc_shape sh;

	cr_assert(eq(int, profconv__trend_verdict(node_kept, node_alloc, 76,
	    1, &rule, scratch, &sh), PROFCONV_TREND_LEAK));
}

/*
 * perl 5.36 under jemalloc, a sample every 512 KiB, a dump every MiB
 * allocated: a loop keeps a 20 KB string each turn (6 MB in all) while
 * hashes come and go.  The row of the kept strings, in samples of about
 * 512 KiB: 1 1 2 2 2 2 3 4 4 5 5 6 7 7.  Its noise at its height (3.9
 * MiB) is more than its last quarter's rise, so the old rule called it
 * saturating; but it never went down: each sample it gained is still
 * live, and its last quarter tops all before it.
 */
static const int64_t perl_kept[14] = {
	524344, 534586, 1058930, 1058930, 1058930, 1069172, 1593516,
	2128102, 2138344, 2662688, 2672931, 3207517, 3731813, 3731861
};
static const double perl_alloc[14] = {
	2665904, 3200490, 3724834, 4249178, 6346522, 6881108, 7405452,
	8988726, 9523312, 10047656, 11630931, 12689829, 13214125, 13738469
};

static void
sampled_row_that_never_went_down_is_a_leak(void)
{
	struct pc_rule rule = { 1 << 19, 0, 1 << 19, 0, 0 };
	struct pc_shape sh;
	int64_t held[14];
	size_t i;

	cr_assert(eq(int, profconv__trend_verdict(perl_kept, perl_alloc, 14,
	    1, &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* The same row that gains nothing over its last quarter. */
	for (i = 0; i < 14; i++)
		held[i] = i < 10 ? perl_kept[i] : perl_kept[9];
	cr_assert(eq(int, profconv__trend_verdict(held, perl_alloc, 14, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_SATURATING));
}

/*
 * Another run of the same perl loop: the row lost one sampled object
 * (a temporary string) once, then gained four in its last dumps, each
 * a new high.  The old rule called it saturating.
 */
static const int64_t perl_dip[15] = {
	1069172, 3197274, 3197274, 3742103, 4276689, 5335619, 4811275,
	4811275, 4811275, 4811275, 4811275, 5345862, 5870206, 6404792,
	6939378
};
static const double perl_dip_alloc[15] = {
	2160050, 4288152, 5861184, 7454669, 7989255, 9048185, 9572497,
	10621153, 11145465, 11669777, 13242713, 13777300, 14825988,
	16409262, 17468192
};

static void
sampled_row_that_dipped_once_and_climbs_at_the_end(void)
{
	struct pc_rule rule = { 1 << 19, 0, 1 << 19, 0, 0 };
	struct pc_shape sh;
	int64_t v[15];

	cr_assert(eq(int, profconv__trend_verdict(perl_dip, perl_dip_alloc,
	    15, 1, &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* Its last quarter going down by three samples at once is no
	 * longer sure growth. */
	memcpy(v, perl_dip, sizeof(v));
	v[13] = perl_dip[12] - 3 * (1 << 19);
	cr_assert(ne(int, profconv__trend_verdict(v, perl_dip_alloc, 15, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* By one sample at a time (a temporary), it is. */
	v[13] = perl_dip[12] - (1 << 19);
	cr_assert(eq(int, profconv__trend_verdict(v, perl_dip_alloc, 15, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
}

/*
 * A C program under jemalloc's default sampling (one sample every
 * 512 KiB) keeps two 640 KiB buffers, one halfway and one near the end
 * of its run, among batches of 4 KiB temporaries; a dump every 1 MiB
 * allocated.  The buffer row: 32 dumps at 0, 25 at one buffer (922,906
 * bytes, its estimate), 8 at two.  A count of small samples this short
 * would be noise; objects larger than the period are nearly always
 * sampled, so these are not.
 */
static const double pool_alloc[65] = {
	4251328, 5304905, 6885342, 7412165, 8992656, 10573166, 12153689,
	14261064, 16368449, 16895297, 17422144, 17948409, 18474678,
	21106638, 22160319, 23214002, 24794530, 27428751, 29536132,
	30062978, 32697212, 33224059, 33750907, 34277171, 34803437,
	35855978, 36909668, 37963358, 40597588, 43758670, 46392908,
	46919756, 48896358, 49423206, 51530600, 52583119, 55215024,
	56268717, 57322410, 58376103, 59429797, 60483491, 61010338,
	64698272, 66277644, 67330173, 68910133, 70490673, 72598060,
	74705449, 75232296, 75759144, 77339686, 78393382, 79447078,
	80500774, 82607578, 84056747, 84583595, 86164139, 87744683,
	88798379, 90378924, 92486318, 92486318
};

static void
large_sampled_objects_are_not_noise(void)
{
	struct pc_rule rule = { 1 << 19, 0, 1 << 19, 0, 0 };
	struct pc_shape sh;
	int64_t v[65];
	size_t i;

	for (i = 0; i < 65; i++)
		v[i] = i < 32 ? 0 : i < 57 ? 922906 : 1845814;
	/* Its objects' size not known: taken as small, within the noise. */
	cr_assert(eq(int, profconv__trend_verdict(v, pool_alloc, 65, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_STABLE));
	/* The row's bytes per object, as the dumps give it. */
	rule.object_size = 922906;
	cr_assert(eq(int, profconv__trend_verdict(v, pool_alloc, 65, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* Also when the readers' counts did not round (the size itself). */
	rule.object_size = 655360;
	cr_assert(eq(int, profconv__trend_verdict(v, pool_alloc, 65, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* Objects smaller than the period: as before. */
	rule.object_size = 4096;
	cr_assert(eq(int, profconv__trend_verdict(v, pool_alloc, 65, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_STABLE));
	/* Every allocation recorded: no noise whatever the size. */
	rule.period = 0;
	rule.object_size = 0;
	cr_assert(eq(int, profconv__trend_verdict(v, pool_alloc, 65, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
}

/*
 * perl keeping the last 3,000 records of a loop in a hash, under
 * jemalloc sampling every 4 KiB, a dump every 1 MiB allocated: one of
 * its rows fills (12 to 200 KiB), then wanders between 130 and 240 KiB
 * as temporaries come and go; a run of 400 steps keeps it there.  In
 * about one run in five, as here, its last quarter ends a little above
 * its earlier high (by 37 KiB) after the second half climbed out of a
 * 70 KiB dip: no leak, since the level has gone down further than it
 * ended up.
 */
static const int64_t perl_level[44] = {
	12368, 20608, 37096, 65936, 78296, 86536, 107136, 127736,
	144216, 131856, 160697, 173057, 168937, 177177, 193657, 185417,
	181297, 201897, 181297, 168937, 164817, 144216, 144216, 152456,
	148336, 148336, 156576, 131856, 140096, 144216, 173057, 160697,
	193657, 193657, 197777, 201897, 206017, 189537, 177177, 193657,
	185417, 226617, 234857, 238977
};
static const double perl_level_alloc[44] = {
	1014268, 2028504, 3079606, 4102072, 5133765, 6241892, 7283267,
	8264901, 9314954, 10364079, 11448282, 12574220, 13629725,
	14644487, 15626648, 16784712, 17794056, 18876930, 19789792,
	20784948, 21869991, 22887131, 23879758, 25038938, 26110475,
	27218121, 28270216, 29356221, 30366652, 31366502, 32538362,
	33600094, 34713889, 35857021, 36957836, 38020623, 38952810,
	40050121, 40959693, 42005705, 42954188, 43997498, 45035857,
	45393028
};

static void
churning_level_that_ends_on_a_high_is_no_leak(void)
{
	struct pc_rule rule = { 1 << 12, 0, 1 << 12, 0, 0 };
	struct pc_shape sh;
	int64_t v[44];
	size_t i;

	cr_assert(ne(int, profconv__trend_verdict(perl_level,
	    perl_level_alloc, 44, 1, &rule, scratch, &sh),
	    PROFCONV_TREND_LEAK));
	/* Ending above its old high by more than it ever fell: a leak. */
	memcpy(v, perl_level, sizeof(v));
	for (i = 41; i < 44; i++)
		v[i] += 40000;
	cr_assert(eq(int, profconv__trend_verdict(v, perl_level_alloc, 44, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
}

/*
 * Another run of the same perl loop: the row of perl's globs fills at
 * the first dumps (12 to 32 KiB) and gains one sampled object (4 KiB)
 * at the last.  It never went down, but one object more is no growth.
 */
static const double perl_glob_alloc[44] = {
	1107228, 2164586, 3170489, 4100637, 5163457, 6185723, 7250031,
	8357820, 9344924, 10357614, 11409543, 12433250, 13505669,
	14474368, 15401568, 16407087, 17460376, 18505762, 19600237,
	20595698, 21639769, 22746704, 23731666, 24757630, 25798433,
	26832531, 27912819, 28885650, 29922674, 31069847, 32267179,
	33300748, 34346155, 35462102, 36592962, 37608753, 38668750,
	39719190, 40801633, 41874952, 42850190, 43806573, 44919517,
	45240751
};

static void
one_sampled_object_more_at_the_end_is_no_leak(void)
{
	struct pc_rule rule = { 1 << 12, 0, 1 << 12, 0, 0 };
	struct pc_shape sh;
	int64_t v[44];
	size_t i;

	for (i = 0; i < 44; i++)
		v[i] = i == 0 ? 12408 : i < 43 ? 33088 : 37224;
	cr_assert(ne(int, profconv__trend_verdict(v, perl_glob_alloc, 44, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
	/* Two more: a leak. */
	v[43] = 33088 + 2 * 4136;
	cr_assert(eq(int, profconv__trend_verdict(v, perl_glob_alloc, 44, 1,
	    &rule, scratch, &sh), PROFCONV_TREND_LEAK));
}

/*
 * tests/producers/threadleak.c recorded whole under jemalloc, its three
 * threads in one row: worker-2 leaks 8 KiB a step while the churner's
 * 40 KiB come and go, ten dumps.  The dips are deeper than what the
 * last quarter adds over the old high, yet every low is above the one
 * before: a leak.  (Requiring any row that fell by more than the margin
 * to top its old high by the fall called it stable.)
 */
static void
leak_under_deep_churn_is_a_leak(void)
{
	static const int64_t hold[10] = {
		1073152, 1130496, 1089536, 1146880, 1105920, 1163264, 1122304,
		1179648, 1138688, 1196032
	};
	struct pc_rule rule = { 4 * K, 0, 0, 0, 0 };
	struct pc_shape sh;

	cr_assert(eq(int, profconv__trend_verdict(hold, NULL, 10, 1, &rule,
	    scratch, &sh), PROFCONV_TREND_LEAK));
}

static void
x_axis_choice(void)
{
	int64_t alloc[4] = { 100, 200, 200, 300 };
	double x[4];

	cr_assert(eq(int, profconv__trend_x(x, alloc, 4, 0), PC_X_ALLOCATED));
	cr_assert(ieee_ulp_eq(dbl, x[3], 300.0, 0));
	alloc[2] = 150;		/* allocation went down: not cumulative */
	cr_assert(eq(int, profconv__trend_x(x, alloc, 4, 0), PC_X_SNAPSHOTS));
	cr_assert(ieee_ulp_eq(dbl, x[3], 3.0, 0));
	alloc[2] = -1;		/* unknown in one snapshot */
	cr_assert(eq(int, profconv__trend_x(x, alloc, 4, 0), PC_X_SNAPSHOTS));
	cr_assert(eq(int, profconv__trend_x(x, NULL, 4, 0), PC_X_SNAPSHOTS));
}

static void
x_axis_of_a_sampled_total(void)
{
	/* node under jemalloc (lg_prof_interval:21, a sample every
	 * 512 KiB): the unsampled total of alloc_space in dump 44 came out
	 * 540,848 bytes under dump 43's, within twice the 7.2 MB spread
	 * sampling gives a total of 99.7 MB. */
	int64_t alloc[3] = { 95000000, 99726647, 99185799 };
	double x[3];

	cr_assert(eq(int, profconv__trend_x(x, alloc, 3, 1 << 19),
	    PC_X_ALLOCATED));
	cr_assert(ieee_ulp_eq(dbl, x[2], 99726647.0, 0));
	/* Recorded whole, the total cannot go down. */
	cr_assert(eq(int, profconv__trend_x(x, alloc, 3, 0), PC_X_SNAPSHOTS));
	/* Nor, sampled, by more than sampling spreads it. */
	alloc[2] = 80000000;
	cr_assert(eq(int, profconv__trend_x(x, alloc, 3, 1 << 19),
	    PC_X_SNAPSHOTS));
}

/* GROUP and KIND of NAME. */
static void
name_is(const char *name, const char *group, char kind)
{
	struct pc_dump_name dn;

	cr_assert(eq(int, profconv__dump_name(name, &dn), 0));
	if (group == NULL)
		cr_assert(dn.group == NULL, "%s: %s", name, dn.group);
	else
		cr_assert(dn.group != NULL && strcmp(dn.group, group) == 0,
		    "%s: %s", name, dn.group != NULL ? dn.group : "(null)");
	cr_assert(eq(int, dn.kind, kind), "%s", name);
	free(dn.group);
}

Test(trendstat, dump_names)
{
	name_is("/d/je.123.7.u3.heap", "/d/je.123.*", 'u');
	name_is("je.123.4006.f.heap", "je.123.*", 'f');
	name_is("/d/jeprof.9.0.i0.heap", "/d/jeprof.9.*", 'i');
	name_is("a.b.77.10.m9.heap", "a.b.77.*", 'm');
	name_is("/d/prog.0001.heap", "/d/prog.*.heap", 0);
	name_is("/d/prog_4242.0012.heap", "/d/prog_4242.*.heap", 0);
	name_is("/d/prog.12345.heap", "/d/prog.*.heap", 0);
	name_is("je.5.6.i2.heap.gz", "je.5.*", 'i');
	name_is("/d/prog.0002.heap.gz", "/d/prog.*.heap", 0);
	/* Neither. */
	name_is("x.heap", NULL, 0);
	name_is(".heap", NULL, 0);
	name_is("mem.pb.gz", NULL, 0);
	name_is("je.1.2.x3.heap", NULL, 0);
	name_is("je.1.2.i.heap", NULL, 0);
	name_is("je.1.i3.heap", NULL, 0);
	name_is("p.001.heap", NULL, 0);
	name_is("massif.out.1#3", NULL, 0);
}

/* Only the exit dump fell: the verdict is what came before it, as
 * CPython's finalizer frees a bounded cache and its tables (seen on
 * python3 under jemalloc with prof_final). */
static void
exit_dump_does_not_hide_a_plateau(void)
{
	int64_t v[N + 1];
	size_t i;

	/* A cache that fills by the third dump and stays, freed at exit. */
	for (i = 0; i < N; i++)
		v[i] = 512 * K * (int64_t)(i < 2 ? i : 2);
	v[N] = 0;
	VERDICT(v, N + 1, PROFCONV_TREND_SATURATING);
	/* Held flat all along, freed at exit: stable before it. */
	for (i = 0; i < N; i++)
		v[i] = 300 * K;
	v[N] = 0;
	VERDICT(v, N + 1, PROFCONV_TREND_STABLE);
	/* A fall before the exit dump is still transient. */
	for (i = 0; i < N; i++)
		v[i] = i < 3 ? 300 * K : 0;
	v[N] = 0;
	VERDICT(v, N + 1, PROFCONV_TREND_TRANSIENT);
}

/*
 * python3 under profconv record (jemalloc, a sample every 512 KiB, a dump
 * every 4 MiB): a list keeps a 10 KB string a turn (30 MB) and is freed
 * at exit.  In about one run in 200 the samples of the last quarter
 * bunch up, its rise stays under the noise of the whole height, and the
 * series before the exit dump was called saturating (CI saw it: "0 -> 0
 * saturating").  That series was not kept; this one, in samples of
 * 529,420 bytes, is drawn from the same sampling (106 kept strings per
 * dump, each sampled with p = 1 - exp(-10016 / 2^19)).  Its row never
 * went down before the exit dump, so the sampled leak test holds on
 * what came before it.
 */
static void
sampled_ramp_freed_at_exit_is_freed_at_exit(void)
{
	static const int64_t samples[30] = {
		0, 2, 8, 9, 12, 16, 18, 18, 21, 24, 25, 28, 29, 34, 36, 37,
		40, 42, 43, 47, 50, 52, 54, 55, 56, 56, 56, 56, 57, 0
	};
	struct pc_rule rule = { 1 << 19, 0, 1 << 19, 0, 10016 };
	struct pc_shape sh;
	int64_t v[30];
	double x[30];
	size_t i;

	for (i = 0; i < 30; i++) {
		v[i] = samples[i] * 529420;
		x[i] = 4194304.0 * (double)(i + 1);
	}
	x[29] = x[28] + 100000;
	cr_assert(eq(str, (char *)profconv_trend_verdict_name(
	    profconv__trend_verdict(v, x, 30, 1, &rule, scratch, &sh)),
	    "freed-at-exit"));
}

/*
 * perl's bounded cache (records.pl bounded 80) under jemalloc, a sample
 * every 4 KiB, a dump every MiB allocated: the row of its record bodies
 * fills to about 200 KiB by the ninth dump and wanders between 128 and
 * 214 KiB after it, each dump a few sampled objects more or less.  Its
 * last quarter sank 86 KiB below the old high (214,249 bytes) and climbed
 * back to 197,769, short of it.  The last quarter's Theil-Sen rise (the
 * climb out of its own dip) passed the noise, and in 14 runs of 200 a row
 * of this kind made perl's bounded cache a suspect.  A sampled row whose
 * last quarter sank below its old high by more than the margin grows only
 * when it tops that high by the margin (or its second half kept climbing);
 * this one is now "stable" (not a plateau: its last quarter still moves
 * by more than a fifth of its climb).  Recorded whole (no sampling) the same numbers are memory, and their
 * rise at the end is growth.
 */
static void
sampled_level_that_dips_and_climbs_back_is_no_leak(void)
{
	static const int64_t v[44] = {
		12368, 20608, 61808, 82408, 86528, 107128, 144208, 156568,
		135968, 156568, 164809, 164809, 148328, 148328, 144208, 148328,
		140088, 144208, 164809, 185409, 185409, 206009, 214249, 197769,
		181289, 185409, 173049, 164809, 181289, 177169, 164809, 168929,
		156568, 135968, 135968, 135968, 127728, 140088, 152448, 148328,
		189529, 197769, 189529, 197769
	};
	static const double x[44] = {
		1056627, 2135195, 3129219, 4158744, 5233757, 6351936, 7348036,
		8403879, 9478423, 10570745, 11597204, 12528870, 13653786,
		14746933, 15709253, 16735278, 17785426, 18841069, 19874269,
		20931830, 21976988, 23010652, 24114048, 25094843, 26131898,
		27231706, 28283724, 29334552, 30554934, 31568166, 32564516,
		33727429, 34793247, 35802977, 36838346, 37841883, 38752990,
		39747230, 40799883, 41805309, 42842784, 43811404, 44926487,
		45271528
	};
	struct pc_rule rule = { 4 * K, 0, 4 * K, 0, 0 };
	struct pc_shape sh;

	cr_assert(ne(int, profconv__trend_verdict(v, x, 44, 1, &rule, scratch,
	    &sh), PROFCONV_TREND_LEAK));
	rule.period = 0;
	cr_assert(eq(int, profconv__trend_verdict(v, x, 44, 1, &rule, scratch,
	    &sh), PROFCONV_TREND_LEAK));
}

/* Theil-Sen and Mann-Kendall, on short and long series. */
Test(trendstat, robust_fit)
{
	theil_sen_and_mann_kendall();
	long_series_fit_on_spread_points();
}

/* Series that grow: leaks, however they climb. */
Test(trendstat, leak_shapes)
{
	steady_leak();
	small_leak_is_a_leak_whatever_its_size();
	leak_that_starts_late_or_dips();
	ramp_with_gc_dips_is_a_leak();
	never_falls_and_still_grows_is_a_leak();
	leak_under_deep_churn_is_a_leak();
}

/* Series that fill and hold: plateaus, also before an exit dump. */
Test(trendstat, level_shapes)
{
	saturating_cache();
	plateau_over_the_last_quarter_saturates();
	exit_dump_does_not_hide_a_plateau();
}

/* Series that fall back: periodic, transient, freed at exit. */
Test(trendstat, falling_shapes)
{
	periodic();
	transient();
	freed_at_exit();
}

/* Flat, noisy and two-point series. */
Test(trendstat, stable_and_short_series)
{
	stable_flat_and_noise();
	two_snapshots();
}

/* What each field of the rule changes. */
Test(trendstat, rule_fields)
{
	rule_settings();
	sampling_noise_is_no_leak();
	large_sampled_objects_are_not_noise();
}

/* Which x axis a series gets, and the verdict along it. */
Test(trendstat, x_axis)
{
	x_axis_choice();
	x_axis_of_a_sampled_total();
	x_axis_of_allocation();
}

/* Recorded sampled rows that grow. */
Test(trendstat, sampled_rows_that_grow)
{
	sampled_ramp_that_kept_climbing_is_a_leak();
	sampled_row_that_never_went_down_is_a_leak();
	sampled_row_that_dipped_once_and_climbs_at_the_end();
	sampled_ramp_freed_at_exit_is_freed_at_exit();
}

/* Recorded sampled levels that wander but do not grow. */
Test(trendstat, sampled_levels_are_no_leak)
{
	churning_level_that_ends_on_a_high_is_no_leak();
	one_sampled_object_more_at_the_end_is_no_leak();
	sampled_level_that_dips_and_climbs_back_is_no_leak();
}
