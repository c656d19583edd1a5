/* SPDX-License-Identifier: MIT */
/*
 * test_stacksort.c - sorting stacks by their frames' keys
 * (lib/view/stacksort.c): a few sequences ordered by hand, forwards and
 * backwards, and many against a plain comparison sort on 1 to 3 threads.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "view/view.h"

TestSuite(stacksort);

/*
 * Frames 1..3 with keys where another frame follows (CONT) and where
 * the sequence ends (END), so that neither frame ids nor one key table
 * gives the order (CONT 5 1 3 and END 6 4 2 for frames 1 2 3):
 *   item 0: 1 2    -> 5 4       item 3: 1 2 -> 5 4 (a repeat of 0)
 *   item 1: 1      -> 6         item 4: 2   -> 4
 *   item 2: 3 1    -> 3 6       item 5: 1 2 3 -> 5 1 2
 * Forwards: (3 6) 2, (4) 4, (5 1 2) 5, (5 4) 0, (5 4) 3, (6) 1.
 * Backwards each is read from its end (item 0 is 2 1 -> 1 6, item 2 is
 * 1 3 -> 5 2, item 5 is 3 2 1 -> 3 1 6): 0, 3, 5, 4, 2, 1.
 */
static const uint32_t hand_frames[6][3] = {
	{ 1, 2 }, { 1 }, { 3, 1 }, { 1, 2 }, { 2 }, { 1, 2, 3 },
};
static const size_t hand_len[6] = { 2, 1, 2, 2, 1, 3 };
static const uint32_t hand_cont[4] = { 0, 5, 1, 3 };
static const uint32_t hand_end[4] = { 0, 6, 4, 2 };

static struct pc_stack
hand_seq(const void *arg, size_t k, size_t *len)
{
	struct pc_stack f = { NULL, hand_frames[k] };

	(void)arg;
	*len = hand_len[k];
	return f;
}

static struct pc_seqsort
hand_sort(bool reverse)
{
	struct pc_seqsort s = { 0 };

	s.n = 6;
	s.seq = hand_seq;
	s.cont = hand_cont;
	s.end = hand_end;
	s.maxkey = 6;
	s.reverse = reverse;
	s.jobs = 1;
	return s;
}

static void
by_hand_forwards_and_backwards(void)
{
	static const uint32_t fwd[6] = { 2, 4, 5, 0, 3, 1 };
	static const uint32_t fwd_len[6] = { 2, 1, 3, 2, 2, 1 };
	static const uint8_t fwd_same[6] = { 0, 0, 0, 0, 1, 0 };
	static const uint32_t bwd[6] = { 0, 3, 5, 4, 2, 1 };
	static const uint8_t bwd_same[6] = { 0, 1, 0, 0, 0, 0 };
	struct pc_seqsort s = hand_sort(false);
	uint32_t order[6], lens[6];
	uint8_t same[6];
	size_t i;

	cr_assert(eq(int, profconv__seqsort(&s, order, lens, same), 0));
	for (i = 0; i < 6; i++) {
		cr_expect(eq(u32, order[i], fwd[i]), "place %zu", i);
		cr_expect(eq(u32, lens[i], fwd_len[i]), "place %zu", i);
		cr_expect(eq(u8, same[i], fwd_same[i]), "place %zu", i);
	}
	s = hand_sort(true);
	cr_assert(eq(int, profconv__seqsort(&s, order, NULL, same), 0));
	for (i = 0; i < 6; i++) {
		cr_expect(eq(u32, order[i], bwd[i]), "place %zu", i);
		cr_expect(eq(u8, same[i], bwd_same[i]), "place %zu", i);
	}
}

/* No items: nothing written; the work arrays handed back when asked. */
static void
empty_and_kept_arrays(void)
{
	struct pc_seqsort s = hand_sort(false);
	uint32_t order[6] = { 77 };
	void *keep[2] = { NULL, NULL };
	size_t size = 0;

	s.n = 0;
	cr_expect(eq(int, profconv__seqsort(&s, order, NULL, NULL), 0));
	cr_expect(eq(u32, order[0], 77));
	s.n = 6;
	s.keep = keep;
	s.keep_size = &size;
	cr_assert(eq(int, profconv__seqsort(&s, order, NULL, NULL), 0));
	cr_expect(eq(u32, order[0], 2));
	cr_expect(not(zero(ptr, keep[0])));
	cr_expect(not(zero(ptr, keep[1])));
	cr_expect(ge(sz, size, 6 * sizeof(uint32_t)));
	free(keep[0]);
	free(keep[1]);
}

/* Six items sorted by hand: both ways, none, and the arrays kept. */
Test(stacksort, small_sets_by_hand)
{
	by_hand_forwards_and_backwards();
	empty_and_kept_arrays();
}

/* profconv__seqsort (stacksort.c) against a plain comparison sort of the
 * same items: short and long sequences, shared prefixes, repeats (by
 * item number; thousands of copies of one short and one long sequence
 * among them), read forwards and backwards, on 1 to 3 threads; and
 * whether each place has the keys of the one before.  Enough of them
 * (200,000) that the threads split them, and that the group of the most
 * shared first frame (5 in 6) is split on the threads again. */
#define SQ_N 200000
static uint32_t sq_frames[SQ_N][40];
static uint16_t sq_narrow[SQ_N][40];	/* the same, in two bytes */
static bool sq_use_narrow;
static size_t sq_len[SQ_N];
static uint32_t sq_cont[300], sq_end[300];
static bool sq_reverse;

static struct pc_stack
sq_seq(const void *arg, size_t k, size_t *len)
{
	struct pc_stack f = { NULL, NULL };

	(void)arg;
	*len = sq_len[k];
	if (sq_use_narrow)
		f.narrow = sq_narrow[k];
	else
		f.wide = sq_frames[k];
	return f;
}

static int
sq_keys_cmp(uint32_t x, uint32_t y)
{
	size_t nx = sq_len[x], ny = sq_len[y], i;

	for (i = 0; i < nx && i < ny; i++) {
		uint32_t fx = sq_frames[x][sq_reverse ? nx - 1 - i : i];
		uint32_t fy = sq_frames[y][sq_reverse ? ny - 1 - i : i];
		uint32_t kx = i + 1 < nx ? sq_cont[fx] : sq_end[fx];
		uint32_t ky = i + 1 < ny ? sq_cont[fy] : sq_end[fy];

		if (kx != ky)
			return kx < ky ? -1 : 1;
	}
	return nx < ny ? -1 : nx > ny;
}

static int
sq_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = sq_keys_cmp(x, y);

	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

Test(stacksort, seqsort_matches_a_comparison_sort)
{
	enum { N = SQ_N, NFR = 150 };
	static uint32_t want[N], got[N], lens[N];
	static uint8_t same[N];
	struct pc_seqsort s = { 0 };
	uint64_t r = 88172645463325252ULL;
	size_t i, k, round, longest = 0, nsame = 0;

	for (i = 1; i <= NFR; i++) {
		/* Keys 1..2 * NFR, each once. */
		sq_cont[i] = (uint32_t)(2 * ((i * 37) % NFR) + 1);
		sq_end[i] = (uint32_t)(2 * ((i * 91) % NFR) + 2 -
		    (i % 2));
		if (sq_end[i] == sq_cont[i])
			sq_end[i] = (uint32_t)(2 * ((i * 37) % NFR) + 2);
	}
	for (i = 0; i < N; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		if (i % 7 == 6 || i % 13 == 12) {
			/* A repeat of an earlier item; every 13th of the
			 * longest of the first 100 or of item 1, or the
			 * longest with its first or last frame another
			 * (the same keys as far as a record holds). */
			size_t from = i % 7 == 6 ? r % i :
			    (i / 13) % 4 == 0 ? 1 : longest;

			sq_len[i] = sq_len[from];
			memcpy(sq_frames[i], sq_frames[from],
			    sizeof(sq_frames[i]));
			if (i % 7 != 6 && (i / 13) % 4 == 2)
				sq_frames[i][0] = sq_frames[i][0] % NFR + 1;
			if (i % 7 != 6 && (i / 13) % 4 == 3)
				sq_frames[i][sq_len[i] - 1] =
				    sq_frames[i][sq_len[i] - 1] % NFR + 1;
			continue;
		}
		sq_len[i] = i % 11 == 0 ? 25 + r % 15 : 1 + r % 12;
		for (k = 0; k < sq_len[i]; k++)
			sq_frames[i][k] = k < (r >> 20) % 6 ? (uint32_t)(1 + k) :
			    (uint32_t)(1 + (r >> (k % 40)) % (k < 8 ? 4 : NFR));
		if (i < 100 && sq_len[i] > sq_len[longest])
			longest = i;
	}
	/* Longer than a record of 9-bit keys holds (21), by a window and
	 * more. */
	cr_assert(gt(sz, sq_len[longest], 28));
	for (i = 0; i < N; i++)
		for (k = 0; k < 40; k++)
			sq_narrow[i][k] = (uint16_t)sq_frames[i][k];
	/* Each round in four-byte ids, then again in two-byte ones. */
	for (round = 0; round < 12; round++) {
		sq_use_narrow = round >= 6;
		sq_reverse = round % 6 >= 3;
		s.n = N;
		s.seq = sq_seq;
		s.cont = sq_cont;
		s.end = sq_end;
		s.maxkey = 2 * NFR;
		s.reverse = sq_reverse;
		s.jobs = (unsigned int)(1 + round % 3);
		for (i = 0; i < N; i++)
			want[i] = (uint32_t)i;
		qsort(want, N, sizeof(*want), sq_cmp);
		cr_assert(eq(int, profconv__seqsort(&s, got, lens,
		    round % 2 ? same : NULL), 0), "%s", ERRMSG);
		for (i = 0; i < N; i++) {
			cr_assert(eq(u32, got[i], want[i]),
			    "place %zu (-j %u, reverse %d)", i, s.jobs,
			    sq_reverse);
			cr_assert(eq(u32, lens[i], (uint32_t)sq_len[got[i]]));
			if (round % 2 == 0)
				continue;
			cr_assert(eq(u8, same[i], i > 0 &&
			    sq_keys_cmp(got[i - 1], got[i]) == 0),
			    "place %zu (-j %u, reverse %d)", i, s.jobs,
			    sq_reverse);
			nsame += same[i];
		}
	}
	/* The copies above, at the least, in each of the 6 rounds. */
	cr_assert(gt(sz, nsame, 6 * (N / 13)));
}
