/* SPDX-License-Identifier: MIT */
/*
 * stacksort.c - sort stacks (sequences of frame ids) by their frames'
 * keys, on a few threads.
 *
 * A comparison that walks two stacks through memory for every step of a
 * sort of millions of them spends its time waiting for cache lines.  So
 * each stack's keys are packed first, a fixed number of bits per key,
 * into a 192-bit record that sorts by plain word comparison: a window of
 * its keys, the first ones.  Records that all agree on their window and
 * go on past it (deep stacks that part only near their leaves) get the
 * next window of their keys and are sorted on that, and so on; only
 * small groups are compared key by key past their window.
 * Records are sorted by their bytes, most significant first (a radix
 * sort: one pass counts a byte, one moves the records, and a byte all
 * records of a group share costs the count alone), groups of a few
 * dozen records by merging.  The first split runs on the job threads,
 * by chunks, and the groups it makes are sorted as tasks; a group too
 * large for one thread (stacks that share their first frames, as most
 * do) is split on the threads again.  The order is
 * total (equal sequences go by item number), so the result does not
 * depend on the thread count or on the sort.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"

/* 192 bits and the item and length: 32 bytes a record, whose two arrays
 * become the view's stacks and values after the sort (view_order.c).
 * 256 bits took 40 bytes for the same time; 128 took 24 but half as
 * long again, in the windows that deep stacks then need. */
#define REC_BITS 192

struct srec {
	uint64_t w[REC_BITS / 64];
	uint32_t item;
	uint32_t n;		/* frames, for the long-stack fallback */
};

struct sorter {
	const struct pc_seqsort *s;
	unsigned int bits, cap;	/* bits per key; keys a record holds */
	struct srec *a, *tmp;
	size_t nchunks, chunk;
	unsigned int nbytes;	/* key bytes the records use */
	uint32_t *order, *lens;	/* the results */
	uint8_t *same;
};

/* Frame I of SEQ (N frames) in key order. */
static inline uint32_t
frame_at(const struct pc_seqsort *s, struct pc_stack seq, size_t n, size_t i)
{
	return pc_stack_at(seq, s->reverse ? n - 1 - i : i);
}

/* Key of frame I of item SEQ (N frames): END's for the last frame. */
static inline uint32_t
key_at(const struct pc_seqsort *s, struct pc_stack seq, size_t n, size_t i)
{
	uint32_t f = frame_at(s, seq, n, i);

	return i + 1 < n ? s->cont[f] : s->end[f];
}

/* The keys of X and Y compared from key FROM on (those before agree). */
static int
compare_keys(const struct pc_seqsort *s, const struct srec *x,
    const struct srec *y, size_t from)
{
	size_t nx, ny, i;
	struct pc_stack fx = s->seq(s->arg, x->item, &nx);
	struct pc_stack fy = s->seq(s->arg, y->item, &ny);

	for (i = from; i < nx && i < ny; i++) {
		uint32_t a = key_at(s, fx, nx, i), b = key_at(s, fy, ny, i);

		if (a != b)
			return PC_CMP(a, b);
	}
	return PC_CMP(nx, ny);
}

/* ... and then by item. */
static int
compare_full(const struct pc_seqsort *s, const struct srec *x,
    const struct srec *y, size_t from)
{
	int c = compare_keys(s, x, y, from);

	return c != 0 ? c : PC_CMP(x->item, y->item);
}

/* X and Y, whose keys before WIN agree and whose records hold the
 * window of keys from WIN. */
static inline int
compare(const struct sorter *st, const struct srec *x, const struct srec *y,
    size_t win)
{
	size_t i;

	for (i = 0; i < REC_BITS / 64; i++)
		if (x->w[i] != y->w[i])
			return PC_CMP(x->w[i], y->w[i]);
	if (x->n > win + st->cap || y->n > win + st->cap)
		return compare_full(st->s, x, y, win + st->cap);
	return PC_CMP(x->item, y->item);
}

/* Put KEY at bit O (from the most significant) of R's words. */
static inline void
pack(struct srec *r, unsigned int o, unsigned int bits, uint64_t key)
{
	unsigned int j = o / 64, at = o % 64;

	if (at + bits <= 64) {
		r->w[j] |= key << (64 - at - bits);
	} else {
		unsigned int hi = 64 - at;

		r->w[j] |= key >> (bits - hi);
		r->w[j + 1] |= key << (64 - (bits - hi));
	}
}

/* R's window of keys from WIN. */
static void
pack_window(const struct sorter *st, struct srec *r, size_t win)
{
	const struct pc_seqsort *s = st->s;
	size_t n, i;
	struct pc_stack seq = s->seq(s->arg, r->item, &n);
	size_t m = n < win + st->cap ? n : win + st->cap;

	memset(r->w, 0, sizeof(r->w));
	for (i = win; i < m; i++)
		pack(r, (unsigned int)(i - win) * st->bits, st->bits,
		    key_at(s, seq, n, i));
}

static int
build_task(void *arg, size_t c)
{
	struct sorter *st = arg;
	const struct pc_seqsort *s = st->s;
	size_t k, n, lo = c * st->chunk, hi = lo + st->chunk;

	if (hi > s->n)
		hi = s->n;
	for (k = lo; k < hi; k++) {
		struct srec *r = &st->a[k];

		(void)s->seq(s->arg, k, &n);
		r->item = (uint32_t)k;
		r->n = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
		pack_window(st, r, 0);
	}
	return 0;
}

/* Merge the sorted runs A[0, NA) and B[0, NB) into OUT. */
static void
merge(const struct sorter *st, const struct srec *a, size_t na,
    const struct srec *b, size_t nb, struct srec *out, size_t win)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = compare(st, &b[j], &a[i], win) < 0 ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	memcpy(out + (na - i), b + j, (nb - j) * sizeof(*b));
}

/* Sort A[0, N), using TMP (as long): the result is in TMP when TO_TMP,
 * else in A.  Each level merges from one array into the other, so that
 * nothing is copied but by the merges. */
static void
merge_sort(const struct sorter *st, struct srec *a, struct srec *tmp, size_t n,
    bool to_tmp, size_t win)
{
	size_t i, j, h;
	struct srec *src, *dst;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			struct srec x = a[i];

			for (j = i; j > 0 && compare(st, &x, &a[j - 1], win) < 0;
			    j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		if (to_tmp)
			memcpy(tmp, a, n * sizeof(*a));
		return;
	}
	h = n / 2;
	merge_sort(st, a, tmp, h, !to_tmp, win);
	merge_sort(st, a + h, tmp + h, n - h, !to_tmp, win);
	src = to_tmp ? a : tmp;
	dst = to_tmp ? tmp : a;
	merge(st, src, h, src + h, n - h, dst, win);
}

/* Byte POS (0: the most significant) of R's key. */
static inline unsigned int
byte_at(const struct srec *r, unsigned int pos)
{
	return (unsigned int)(r->w[pos / 8] >> (56 - 8 * (pos % 8))) & 0xff;
}

#define SMALL 48	/* groups merged, not split */

/* Splits deeper than this (sorting deep stacks window after window)
 * merge instead: the stack of calls stays small. */
#define MAX_LEVELS 96

enum alike { DIFFER, SAME, SAME_WINDOW };

/*
 * Do the records A[0, N), whose keys before WIN agree, all hold the same
 * window of keys from WIN?  SAME when that is all their keys: they are
 * already in order (every move kept the order in which they were made,
 * which is the items': a profile's samples that share a stack), and are
 * put where TO_TMP says.  SAME_WINDOW when some go on past it.
 */
static enum alike
alike(const struct sorter *st, const struct srec *a, struct srec *tmp,
    size_t n, bool to_tmp, size_t win)
{
	size_t i, j;
	bool longer = false;

	for (i = 0; i < n; i++) {
		for (j = 0; j < REC_BITS / 64; j++)
			if (a[i].w[j] != a[0].w[j])
				return DIFFER;
		longer |= a[i].n > win + st->cap;
	}
	if (longer)
		return SAME_WINDOW;
	if (to_tmp)
		memcpy(tmp, a, n * sizeof(*a));
	return SAME;
}

/*
 * Where the next window of A[0, N) can start, their keys before FROM
 * agreeing: past the frames every record shares with A[0] and goes on
 * after (equal frames there have equal keys), and at FROM at least.  So
 * stacks that share hundreds of frames skip them in one pass.
 */
static size_t
next_start(const struct sorter *st, const struct srec *a, size_t n,
    size_t from)
{
	const struct pc_seqsort *s = st->s;
	size_t n0, ni, i, j, lim;
	struct pc_stack f0 = s->seq(s->arg, a[0].item, &n0), fi;
	size_t w = n0 != 0 ? n0 - 1 : 0;

	for (i = 1; i < n && w > from; i++) {
		fi = s->seq(s->arg, a[i].item, &ni);
		lim = ni != 0 && ni - 1 < w ? ni - 1 : ni != 0 ? w : 0;
		for (j = from; j < lim && frame_at(s, fi, ni, j) ==
		    frame_at(s, f0, n0, j); j++)
			;
		w = j;
	}
	return w > from ? w : from;
}

/* A[0, N) given their window of keys from WIN. */
static void
next_window(const struct sorter *st, struct srec *a, size_t n, size_t win)
{
	size_t i;

	for (i = 0; i < n; i++)
		pack_window(st, &a[i], win);
}

/*
 * Sort A[0, N), whose records agree on their keys before WIN and on
 * their window's bytes before POS, using TMP (as long): the result is in
 * TMP when TO_TMP, else in A.  A split moves the records into the other
 * array, so the groups it makes sort with the arrays' roles swapped.
 * LEVEL counts the splits above.
 */
static void
radix_sort(const struct sorter *st, struct srec *a, struct srec *tmp, size_t n,
    unsigned int pos, bool to_tmp, size_t win, unsigned int level)
{
	size_t count[256], at[256], i, start;
	unsigned int c;
	enum alike same;

	while (n > SMALL && level < MAX_LEVELS) {
		same = alike(st, a, tmp, n, to_tmp, win);
		if (same == SAME)
			return;
		if (same == SAME_WINDOW) {
			/* Alike so far, and some go on: their next keys. */
			win = next_start(st, a, n, win + st->cap);
			next_window(st, a, n, win);
			pos = 0;
			continue;
		}
		for (; pos < st->nbytes; pos++) {
			memset(count, 0, sizeof(count));
			for (i = 0; i < n; i++)
				count[byte_at(&a[i], pos)]++;
			if (count[byte_at(&a[0], pos)] != n)
				break;	/* it splits them */
		}
		for (c = 0, start = 0; c < 256; c++) {
			at[c] = start;
			start += count[c];
		}
		for (i = 0; i < n; i++)
			tmp[at[byte_at(&a[i], pos)]++] = a[i];
		for (c = 0, start = 0; c < 256; start += count[c], c++)
			if (count[c] != 0)
				radix_sort(st, tmp + start, a + start,
				    count[c], pos + 1, !to_tmp, win,
				    level + 1);
		return;
	}
	merge_sort(st, a, tmp, n, to_tmp, win);
}

/*
 * A split on the job threads: records A[0, N) that agree on their keys
 * before WIN and their window's bytes before POS are counted and moved
 * by chunks, on the first byte from POS they do not all share, into
 * TMP; each group is then sorted back into A (the arrays' roles swap at
 * every level, TO_TMP says where the result must end).  A group too
 * large for one thread is split the same way; the others are sorted as
 * tasks.  Records that share their whole window and go on past it get
 * their next window on the threads, and are split on it.
 */
struct split {
	const struct sorter *st;
	struct srec *a, *tmp;
	size_t n, nchunks, chunk;
	unsigned int pos;
	bool to_tmp;
	size_t win;
	unsigned int level;
	size_t (*counts)[256];
	size_t group[257];
	size_t big;		/* groups above this are split again */
};

/* Records per thread-level split: below, one thread sorts them. */
#define SPLIT_MIN ((size_t)1 << 16)

static int
count_task(void *arg, size_t c)
{
	struct split *sp = arg;
	size_t i, lo = c * sp->chunk, hi = lo + sp->chunk;

	if (hi > sp->n)
		hi = sp->n;
	memset(sp->counts[c], 0, sizeof(sp->counts[c]));
	for (i = lo; i < hi; i++)
		sp->counts[c][byte_at(&sp->a[i], sp->pos)]++;
	return 0;
}

/* ... moving: chunk C's records to their places in TMP, in order. */
static int
move_task(void *arg, size_t c)
{
	struct split *sp = arg;
	size_t i, lo = c * sp->chunk, hi = lo + sp->chunk, *at = sp->counts[c];

	if (hi > sp->n)
		hi = sp->n;
	for (i = lo; i < hi; i++)
		sp->tmp[at[byte_at(&sp->a[i], sp->pos)]++] = sp->a[i];
	return 0;
}

/* ... and group G of the split sorted back, unless it is split again. */
static int
group_task(void *arg, size_t g)
{
	struct split *sp = arg;
	size_t lo = sp->group[g], n = sp->group[g + 1] - lo;

	if (n != 0 && n <= sp->big)
		radix_sort(sp->st, sp->tmp + lo, sp->a + lo, n, sp->pos + 1,
		    !sp->to_tmp, sp->win, sp->level + 1);
	return 0;
}

/* ... or chunk C's records given their next window. */
static int
window_task(void *arg, size_t c)
{
	struct split *sp = arg;
	size_t lo = c * sp->chunk, hi = lo + sp->chunk;

	if (hi > sp->n)
		hi = sp->n;
	if (lo < hi)
		next_window(sp->st, sp->a + lo, hi - lo, sp->win);
	return 0;
}

static int
split_sort(const struct sorter *st, struct srec *a, struct srec *tmp,
    size_t n, unsigned int pos, bool to_tmp, unsigned int jobs, size_t win,
    unsigned int level)
{
	struct split sp = { .st = st, .a = a, .tmp = tmp, .n = n, .pos = pos,
		.to_tmp = to_tmp, .win = win, .level = level };
	size_t c, v, start, sum;
	int rc = 0;

	if (jobs <= 1 || n < SPLIT_MIN || level >= MAX_LEVELS) {
		radix_sort(st, a, tmp, n, pos, to_tmp, win, level);
		return 0;
	}
	/* Chunks: a few per thread; their number does not change the
	 * result. */
	sp.nchunks = (size_t)jobs * 2;
	sp.chunk = (n + sp.nchunks - 1) / sp.nchunks;
	sp.big = n / jobs > SPLIT_MIN ? n / jobs : SPLIT_MIN;
	sp.counts = malloc(sp.nchunks * sizeof(*sp.counts));
	if (sp.counts == NULL)
		return profconv__nomem();
	for (; rc == 0 && sp.pos < st->nbytes; sp.pos++) {
		rc = profconv__jobs_run(jobs, sp.nchunks, count_task, &sp);
		for (v = 0; rc == 0 && v < 256; v++) {
			for (c = 0, start = 0; c < sp.nchunks; c++)
				start += sp.counts[c][v];
			if (start != 0 && start != n)
				break;
		}
		if (rc < 0 || v < 256)
			break;		/* it splits them */
	}
	if (rc == 0 && sp.pos < st->nbytes) {
		/* Each chunk's records of value V after those of the chunks
		 * before it: the order within a group stays. */
		for (v = 0, sum = 0; v < 256; v++) {
			sp.group[v] = sum;
			for (c = 0; c < sp.nchunks; c++) {
				start = sp.counts[c][v];
				sp.counts[c][v] = sum;
				sum += start;
			}
		}
		sp.group[256] = sum;
		rc = profconv__jobs_run(jobs, sp.nchunks, move_task, &sp);
		if (rc == 0)
			rc = profconv__jobs_run(jobs, 256, group_task, &sp);
		for (v = 0; rc == 0 && v < 256; v++) {
			size_t lo = sp.group[v], k = sp.group[v + 1] - lo;

			if (k > sp.big)
				rc = split_sort(st, tmp + lo, a + lo, k,
				    sp.pos + 1, !to_tmp, jobs, win, level + 1);
		}
	} else if (rc == 0) {
		/* Alike on the whole window: in order (and put in place)
		 * if that is all their keys, else on to the next window. */
		if (alike(st, a, tmp, n, to_tmp, win) == SAME_WINDOW) {
			sp.win = next_start(st, a, n, win + st->cap);
			rc = profconv__jobs_run(jobs, sp.nchunks, window_task,
			    &sp);
			if (rc == 0)
				rc = split_sort(st, a, tmp, n, 0, to_tmp, jobs,
				    sp.win, level + 1);
		}
	}
	free(sp.counts);
	return rc;
}

/* Have X and Y the same frames? */
static bool
same_frames(const struct pc_seqsort *s, const struct srec *x,
    const struct srec *y)
{
	size_t nx, ny;
	struct pc_stack fx = s->seq(s->arg, x->item, &nx);
	struct pc_stack fy = s->seq(s->arg, y->item, &ny);

	return nx == ny && pc_stack_same(fx, fy, nx);
}

/* Records [C * CHUNK, ...) of the sorted A out: items, lengths and
 * whether each has the keys of the one before it. */
static int
out_task(void *arg, size_t c)
{
	struct sorter *st = arg;
	const struct srec *a = st->a;
	size_t i, j, lo = c * st->chunk, hi = lo + st->chunk;

	if (hi > st->s->n)
		hi = st->s->n;
	for (i = lo; i < hi; i++) {
		st->order[i] = a[i].item;
		if (st->lens != NULL)
			st->lens[i] = a[i].n;
		if (st->same == NULL)
			continue;
		st->same[i] = i > 0 && a[i].n == a[i - 1].n;
		for (j = 0; st->same[i] && j < REC_BITS / 64; j++)
			st->same[i] = a[i].w[j] == a[i - 1].w[j];
		/* Records no longer than a window keep their first; longer
		 * ones may hold a later one: the same frames (quickly) or the
		 * same keys. */
		if (st->same[i] && a[i].n > st->cap)
			st->same[i] = same_frames(st->s, &a[i - 1], &a[i]) ||
			    compare_keys(st->s, &a[i - 1], &a[i], 0) == 0;
	}
	return 0;
}

int
profconv__seqsort(const struct pc_seqsort *s, uint32_t *order, uint32_t *lens,
    uint8_t *same)
{
	struct sorter st = { .s = s, .order = order, .lens = lens,
		.same = same };
	unsigned int jobs = profconv__jobs_count(s->jobs);
	int rc;

	if (s->n == 0)
		return 0;
	if (s->n > UINT32_MAX)
		return profconv__fail(PROFCONV_ENOMEM, "too many stacks to "
		    "sort: %zu", s->n);
	for (st.bits = 1; st.bits < 32 && (s->maxkey >> st.bits) != 0;
	    st.bits++)
		;
	st.cap = REC_BITS / st.bits;
	st.nbytes = (st.cap * st.bits + 7) / 8;
	st.a = profconv__malloc_big(s->n * sizeof(*st.a));
	st.tmp = profconv__malloc_big(s->n * sizeof(*st.tmp));
	if (st.a == NULL || st.tmp == NULL) {
		free(st.a);
		free(st.tmp);
		return profconv__nomem();
	}
	/* Chunks: a few per thread, none tiny; their number does not change
	 * the result. */
	st.nchunks = jobs > 1 ? (size_t)jobs * 2 : 1;
	if (st.nchunks > s->n / 4096 + 1)
		st.nchunks = s->n / 4096 + 1;
	st.chunk = (s->n + st.nchunks - 1) / st.nchunks;
	rc = profconv__jobs_run(jobs, st.nchunks, build_task, &st);
	if (rc == 0)
		rc = split_sort(&st, st.a, st.tmp, s->n, 0, false, jobs, 0, 0);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, st.nchunks, out_task, &st);
	if (s->keep != NULL) {
		s->keep[0] = st.a;
		s->keep[1] = st.tmp;
		*s->keep_size = s->n * sizeof(*st.a);
		return rc;
	}
	free(st.a);
	free(st.tmp);
	return rc;
}
