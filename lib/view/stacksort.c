/* SPDX-License-Identifier: MIT */
/*
 * stacksort.c - sort stacks (sequences of frame ids) by their frames'
 * keys, on a few threads.
 *
 * A comparison that walks two stacks through memory for every step of a
 * sort of millions of them spends its time waiting for cache lines.  So
 * each stack's keys are packed first, a fixed number of bits per key,
 * into a 256-bit record that sorts by plain word comparison; only stacks
 * longer than the record holds, tied on all of it, are walked again.
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

#define REC_BITS 256

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

/* Key of frame I of item SEQ (N frames): END's for the last frame. */
static inline uint32_t
key_at(const struct pc_seqsort *s, const uint32_t *seq, size_t n, size_t i)
{
	uint32_t f = seq[s->reverse ? n - 1 - i : i];

	return i + 1 < n ? s->cont[f] : s->end[f];
}

/* The keys of records tied on their packed keys, compared whole. */
static int
compare_keys(const struct pc_seqsort *s, const struct srec *x,
    const struct srec *y)
{
	size_t nx, ny, i;
	const uint32_t *fx = s->seq(s->arg, x->item, &nx);
	const uint32_t *fy = s->seq(s->arg, y->item, &ny);

	for (i = 0; i < nx && i < ny; i++) {
		uint32_t a = key_at(s, fx, nx, i), b = key_at(s, fy, ny, i);

		if (a != b)
			return a < b ? -1 : 1;
	}
	return nx < ny ? -1 : nx > ny;
}

/* ... and then by item. */
static int
compare_full(const struct pc_seqsort *s, const struct srec *x,
    const struct srec *y)
{
	int c = compare_keys(s, x, y);

	if (c != 0)
		return c;
	return x->item < y->item ? -1 : x->item > y->item;
}

static inline int
compare(const struct sorter *st, const struct srec *x, const struct srec *y)
{
	size_t i;

	for (i = 0; i < REC_BITS / 64; i++)
		if (x->w[i] != y->w[i])
			return x->w[i] < y->w[i] ? -1 : 1;
	if (x->n > st->cap || y->n > st->cap)
		return compare_full(st->s, x, y);
	return x->item < y->item ? -1 : x->item > y->item;
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

static int
build_task(void *arg, size_t c)
{
	struct sorter *st = arg;
	const struct pc_seqsort *s = st->s;
	size_t k, i, n, lo = c * st->chunk, hi = lo + st->chunk;

	if (hi > s->n)
		hi = s->n;
	for (k = lo; k < hi; k++) {
		struct srec *r = &st->a[k];
		const uint32_t *seq = s->seq(s->arg, k, &n);
		size_t m = n < st->cap ? n : st->cap;

		memset(r, 0, sizeof(*r));
		r->item = (uint32_t)k;
		r->n = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
		for (i = 0; i < m; i++)
			pack(r, (unsigned int)i * st->bits, st->bits,
			    key_at(s, seq, n, i));
	}
	return 0;
}

/* Merge the sorted runs A[0, NA) and B[0, NB) into OUT. */
static void
merge(const struct sorter *st, const struct srec *a, size_t na,
    const struct srec *b, size_t nb, struct srec *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = compare(st, &b[j], &a[i]) < 0 ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	memcpy(out + (na - i), b + j, (nb - j) * sizeof(*b));
}

/* Sort A[0, N), using TMP (as long): the result is in TMP when TO_TMP,
 * else in A.  Each level merges from one array into the other, so that
 * nothing is copied but by the merges. */
static void
merge_sort(const struct sorter *st, struct srec *a, struct srec *tmp, size_t n,
    bool to_tmp)
{
	size_t i, j, h;
	struct srec *src, *dst;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			struct srec x = a[i];

			for (j = i; j > 0 && compare(st, &x, &a[j - 1]) < 0; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		if (to_tmp)
			memcpy(tmp, a, n * sizeof(*a));
		return;
	}
	h = n / 2;
	merge_sort(st, a, tmp, h, !to_tmp);
	merge_sort(st, a + h, tmp + h, n - h, !to_tmp);
	src = to_tmp ? a : tmp;
	dst = to_tmp ? tmp : a;
	merge(st, src, h, src + h, n - h, dst);
}

/* Byte POS (0: the most significant) of R's key. */
static inline unsigned int
byte_at(const struct srec *r, unsigned int pos)
{
	return (unsigned int)(r->w[pos / 8] >> (56 - 8 * (pos % 8))) & 0xff;
}

#define SMALL 48	/* groups merged, not split */

/*
 * Are the records A[0, N) all alike, and none longer than a record
 * holds?  Then they are already in order: every move kept the order in
 * which they were made, which is the items' (a profile's samples that
 * share a stack).  If so, the result is put where TO_TMP says.
 */
static bool
in_order(const struct sorter *st, const struct srec *a, struct srec *tmp,
    size_t n, bool to_tmp)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (a[i].n > st->cap)
			return false;
		for (j = 0; j < REC_BITS / 64; j++)
			if (a[i].w[j] != a[0].w[j])
				return false;
	}
	if (to_tmp)
		memcpy(tmp, a, n * sizeof(*a));
	return true;
}

/*
 * Sort A[0, N), whose records agree on their key bytes before POS, using
 * TMP (as long): the result is in TMP when TO_TMP, else in A.  A split
 * moves the records into the other array, so the groups it makes sort
 * with the arrays' roles swapped.
 */
static void
radix_sort(const struct sorter *st, struct srec *a, struct srec *tmp, size_t n,
    unsigned int pos, bool to_tmp)
{
	size_t count[256], at[256], i, start;
	unsigned int c;

	if (n > SMALL && in_order(st, a, tmp, n, to_tmp))
		return;
	for (; pos < st->nbytes && n > SMALL; pos++) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[byte_at(&a[i], pos)]++;
		if (count[byte_at(&a[0], pos)] == n)
			continue;	/* all alike: the next byte */
		for (c = 0, start = 0; c < 256; c++) {
			at[c] = start;
			start += count[c];
		}
		for (i = 0; i < n; i++)
			tmp[at[byte_at(&a[i], pos)]++] = a[i];
		for (c = 0, start = 0; c < 256; start += count[c], c++)
			if (count[c] != 0)
				radix_sort(st, tmp + start, a + start,
				    count[c], pos + 1, !to_tmp);
		return;
	}
	merge_sort(st, a, tmp, n, to_tmp);
}

/*
 * A split on the job threads: records A[0, N) that agree on their key
 * bytes before POS are counted and moved by chunks, on the first byte
 * from POS they do not all share, into TMP; each group is then sorted
 * back into A (the arrays' roles swap at every level, TO_TMP says where
 * the result must end).  A group too large for one thread is split the
 * same way; the others are sorted as tasks.
 */
struct split {
	const struct sorter *st;
	struct srec *a, *tmp;
	size_t n, nchunks, chunk;
	unsigned int pos;
	bool to_tmp;
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
		    !sp->to_tmp);
	return 0;
}

static int
split_sort(const struct sorter *st, struct srec *a, struct srec *tmp,
    size_t n, unsigned int pos, bool to_tmp, unsigned int jobs)
{
	struct split sp = { .st = st, .a = a, .tmp = tmp, .n = n, .pos = pos,
		.to_tmp = to_tmp };
	size_t c, v, start, sum;
	int rc = 0;

	if (jobs <= 1 || n < SPLIT_MIN) {
		radix_sort(st, a, tmp, n, pos, to_tmp);
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
				    sp.pos + 1, !to_tmp, jobs);
		}
	} else if (rc == 0 && !in_order(st, a, tmp, n, to_tmp)) {
		merge_sort(st, a, tmp, n, to_tmp);
	}
	free(sp.counts);
	return rc;
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
		if (st->same[i] && a[i].n > st->cap)
			st->same[i] = compare_keys(st->s, &a[i - 1], &a[i]) == 0;
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
	st.a = malloc(s->n * sizeof(*st.a));
	st.tmp = malloc(s->n * sizeof(*st.tmp));
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
		rc = split_sort(&st, st.a, st.tmp, s->n, 0, false, jobs);
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
