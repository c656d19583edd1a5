/* SPDX-License-Identifier: MIT */
/*
 * merge_samples.c - the merger's samples (merge.c has the rest): each
 * sample is its stack and its labels, found by that identity in a table
 * of the merged ones; a source's samples are added a batch at a time.
 * And the census of a subtraction: which samples of the two profiles
 * cancel one for one, so that the merger need not make them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "transform/merger.h"
#include "transform/types.h"

static int
label_cmp(const void *a, const void *b)
{
	const struct pc_label *x = a, *y = b;
	int c = PC_CMP(x->key, y->key);

	if (c == 0)
		c = PC_CMP(x->str, y->str);
	if (c == 0)
		c = PC_CMP(x->unit, y->unit);
	return c != 0 ? c : PC_CMP(x->num, y->num);
}


/* --- samples by identity --------------------------------------------------- */

/* One step of the sample hash: cheap, since every frame goes through it;
 * the table's seed and a full mix at the end (sample_hash_end) spread it. */
static inline uint64_t
sample_hash_step(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static inline uint64_t
sample_hash_end(uint64_t h, size_t nlocs, size_t nlabels)
{
	return profconv__hash_u64(h ^ ((uint64_t)nlocs << 32 | nlabels));
}

/* The hash of a stack of merged location ids and its sorted labels. */
static uint64_t
sample_hash(const uint32_t *stk, size_t nlocs, const struct pc_label *lab,
    size_t nlabels)
{
	uint64_t h = profconv__hash_seed();
	size_t i;

	for (i = 0; i + 1 < nlocs; i += 2)
		h = sample_hash_step(h, (uint64_t)stk[i] << 32 | stk[i + 1]);
	if (i < nlocs)
		h = sample_hash_step(h, stk[i]);
	for (i = 0; i < nlabels; i++) {
		h = sample_hash_step(h, (uint64_t)lab[i].key << 32 | lab[i].str);
		h = sample_hash_step(h, lab[i].unit);
		h = sample_hash_step(h, (uint64_t)lab[i].num);
	}
	return sample_hash_end(h, nlocs, nlabels);
}

/* Is merged sample IDX this stack with these (sorted) labels? */
static bool
sample_is(const struct profconv_profile *dst, uint32_t idx,
    const uint32_t *stk, size_t nlocs, const struct pc_label *lab,
    size_t nlabels)
{
	const struct pc_sample *s = pc_sample(dst, idx);

	if (s->nlocs != nlocs || s->nlabels != nlabels)
		return false;
	if (nlocs != 0 && !pc_stack_equal(pc_sample_stack(dst, s), stk, nlocs))
		return false;
	return pc_labels_equal(pc_sample_labels(dst, s), lab, nlabels);
}

void
profconv__merge_samples_free(struct merger *m)
{
	struct sample_set *t = &m->samples;

	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}

/* Double the table (or make its first one). */
static int
sample_set_grow(struct sample_set *t)
{
	size_t cap = t->cap != 0 ? t->cap * 2 : 1024, i, j;
	uint32_t *slots = calloc(cap, sizeof(*slots));
	uint64_t *hashes = malloc(cap * sizeof(*hashes));

	if (slots == NULL || hashes == NULL) {
		free(slots);
		free(hashes);
		return profconv__nomem();
	}
	for (i = 0; i < t->cap; i++) {
		if (t->slots[i] == 0)
			continue;
		for (j = t->hashes[i] & (cap - 1); slots[j] != 0;
		    j = (j + 1) & (cap - 1))
			;
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->cap = cap;
	return 0;
}

/*
 * The slot of the merged sample with this stack and these labels, or the
 * empty slot where it goes; the table has room for one more.
 */
static size_t
sample_slot(const struct merger *m, uint64_t h, const uint32_t *stk,
    size_t nlocs, const struct pc_label *lab, size_t nlabels)
{
	const struct sample_set *t = &m->samples;
	size_t mask = t->cap - 1, i;

	for (i = h & mask; t->slots[i] != 0; i = (i + 1) & mask)
		if (t->hashes[i] == h && sample_is(m->dst, t->slots[i] - 1,
		    stk, nlocs, lab, nlabels))
			break;
	return i;
}

/* --- adding a source's samples ------------------------------------------------- */

/* The merged ids of source sample S's stack into m->stack at AT. */
static int
map_stack(struct merger *m, const struct pc_sample *s, size_t at)
{
	struct pc_stack stk = pc_sample_stack(m->src, s);
	const uint32_t *seen = m->loc_id;
	uint32_t *out, id, from;
	size_t i, n = s->nlocs;
	int rc;

	rc = PC_GROW(m->stack, m->stack_cap, at, n);
	if (rc < 0)
		return rc;
	out = m->stack + at;
	for (i = 0; i < n; i++) {
		/* Most frames were seen before: a look-up, no call. */
		from = pc_stack_at(stk, i);
		id = seen[from - 1];
		if (id == 0) {
			rc = profconv__merge_location(m, from, &id);
			if (rc < 0)
				return rc;
		}
		out[i] = id;
	}
	return 0;
}

/* Source sample S's labels, in merged strings, sorted, into OUT (room
 * for S's labels and one more); how many. */
static size_t
labels_into(const struct merger *m, const struct pc_sample *s,
    struct pc_label *out)
{
	const struct pc_label *lab = pc_sample_labels(m->src, s);
	size_t i, n = 0;

	for (i = 0; i < s->nlabels; i++) {
		out[n] = lab[i];
		out[n].key = dstr(m, lab[i].key);
		out[n].str = dstr(m, lab[i].str);
		out[n].unit = dstr(m, lab[i].unit);
		/* pprof's SetLabel replaces the key's values. */
		if (!m->mark_base || out[n].key != m->base_key)
			n++;
	}
	if (m->mark_base)
		out[n++] = (struct pc_label){ m->base_key, m->base_true, 0, 0 };
	/* Labels are a set: sort them so their order does not matter. */
	if (n > 1)
		qsort(out, n, sizeof(*out), label_cmp);
	return n;
}

/* ... into m->labels at AT; their count into *NLABELS. */
static int
map_labels(struct merger *m, const struct pc_sample *s, size_t at,
    size_t *nlabels)
{
	int rc = PC_GROW(m->labels, m->labels_cap, at, s->nlabels + 1);

	if (rc < 0)
		return rc;
	*nlabels = labels_into(m, s, m->labels + at);
	return 0;
}

/*
 * Source samples are added a batch at a time: each one's stack and
 * labels are mapped and hashed first, and the table's slot it falls in
 * asked for, then what that slot holds, then the sample's stack and
 * values; then the batch is looked up and added, in order.  A big
 * table's slot, and the merged sample it names, are each a cache miss.
 */
#define BATCH 16

struct pending {
	size_t si;		/* the source sample */
	size_t stack_at, nlocs;	/* its merged stack in m->stack */
	size_t labels_at, nlabels;	/* its labels in m->labels */
	uint64_t h;
};

/* Pending sample P into the merged profile: its values added to the
 * sample with its stack and labels, made when new. */
static int
map_sample(struct merger *m, const struct pending *p, int sign)
{
	const struct profconv_profile *src = m->src;
	const int64_t *sv = src->nsample_types != 0 ?
	    pc_sample_values(src, p->si) : NULL;
	const uint32_t *stk = m->stack + p->stack_at;
	const struct pc_label *lab = m->labels + p->labels_at;
	struct profconv_profile *dst = m->dst;
	struct sample_set *t = &m->samples;
	size_t i, nt = dst->nsample_types, slot;
	int64_t *dv;
	int rc;

	slot = sample_slot(m, p->h, stk, p->nlocs, lab, p->nlabels);
	/* The source's values in the merged slots, negated for a base. */
	for (i = 0; i < nt; i++) {
		int64_t v = m->slot[i] >= 0 ? sv[m->slot[i]] : 0;

		m->row[i] = sign >= 0 ? v : v == INT64_MIN ? INT64_MAX : -v;
	}
	if (t->slots[slot] == 0) {
		if (dst->nsamples >= UINT32_MAX - 1)
			return profconv__fail(PROFCONV_ENOMEM,
			    "too many samples");
		rc = profconv__add_sample_raw(dst, stk, p->nlocs, m->row, lab,
		    p->nlabels);
		if (rc < 0)
			return rc;
		t->slots[slot] = (uint32_t)dst->nsamples;	/* index + 1 */
		t->hashes[slot] = p->h;
		t->n++;
		return 0;
	}
	dv = pc_sample_values_mut(dst, t->slots[slot] - 1);
	for (i = 0; i < nt; i++)
		pc_add_sat(&dv[i], m->row[i]);
	return 0;
}

/* Ask for what the pending samples' look-ups read: STAGE 0 their slots,
 * 1 the merged samples those name, 2 those samples' stacks and values. */
static PC_PREFETCHER void
prefetch_batch(const struct merger *m, const struct pending *b, size_t n,
    int stage)
{
	const struct sample_set *t = &m->samples;
	const struct profconv_profile *dst = m->dst;
	size_t k, mask = t->cap - 1;

	for (k = 0; k < n; k++) {
		size_t i = b[k].h & mask;
		uint32_t idx;

		if (stage == 0) {
			__builtin_prefetch(&t->slots[i]);
			__builtin_prefetch(&t->hashes[i]);
		} else if ((idx = t->slots[i]) != 0 && stage == 1) {
			__builtin_prefetch(pc_sample(dst, idx - 1));
		} else if (idx != 0) {
			__builtin_prefetch(pc_stack_addr(pc_sample_stack(dst,
			    pc_sample(dst, idx - 1)), 0));
			__builtin_prefetch(pc_sample_values(dst, idx - 1));
		}
	}
}

/* Does source sample SI have a nonzero value in a type still common? */
static bool
counts(const struct merger *m, const struct profconv_profile *src, size_t si)
{
	const int64_t *sv = pc_sample_values(src, si);
	size_t k;

	for (k = 0; k < m->dst->nsample_types; k++)
		if (m->live[k] && sv[m->slot[k]] != 0)
			return true;
	return false;
}

void
profconv__merge_source_done(struct merger *m)
{
	free(m->str);
	free(m->map_id);
	free(m->map_delta);
	free(m->func_id);
	free(m->loc_id);
	m->str = m->map_id = m->func_id = m->loc_id = NULL;
	m->map_delta = NULL;
}

/* SRC becomes M's current source: its translations made, its strings
 * taken in, and the first mapping seen kept first (the main binary). */
static int
source_begin(struct merger *m, const struct profconv_profile *src)
{
	size_t i;
	uint32_t mid;
	int64_t delta;
	int rc = 0;

	m->src = src;
	m->str = malloc((src->strings.len + 1) * sizeof(*m->str));
	m->map_id = calloc(src->nmappings + 1, sizeof(*m->map_id));
	m->map_delta = calloc(src->nmappings + 1, sizeof(*m->map_delta));
	m->func_id = calloc(src->nfunctions + 1, sizeof(*m->func_id));
	m->loc_id = calloc(src->nlocations + 1, sizeof(*m->loc_id));
	m->locs_left = src->nlocations;
	if (m->str == NULL || m->map_id == NULL || m->map_delta == NULL ||
	    m->func_id == NULL || m->loc_id == NULL)
		rc = profconv__nomem();
	for (i = 0; rc == 0 && i < src->strings.len; i++)
		rc = profconv__strtab_intern(&m->dst->strings, src->strings.strs[i],
		    src->strings.lens[i], &m->str[i]);
	/* The first mapping seen is the main binary: keep it first. */
	if (rc == 0 && m->dst->nmappings == 0 && src->nmappings != 0)
		rc = profconv__merge_mapping(m, 1, &mid, &delta);
	return rc;
}

int
profconv__merge_source(struct merger *m, const struct profconv_profile *src,
    int sign, const uint8_t *skip)
{
	size_t i;
	int rc = source_begin(m, src);

	for (i = 0; rc == 0 && i < src->nsamples;) {
		struct pending b[BATCH];
		size_t n = 0, k, sat = 0, lat = 0;

		/* Room for the whole batch: the slots asked for stay. */
		while (rc == 0 && (m->samples.n + BATCH) * 2 > m->samples.cap)
			rc = sample_set_grow(&m->samples);
		for (; rc == 0 && i < src->nsamples && n < BATCH; i++) {
			const struct pc_sample *s = pc_sample(src, i);
			struct pending *p = &b[n];

			if (!counts(m, src, i))
				continue;
			if (skip != NULL && skip[i]) {
				if (m->locs_left != 0)
					rc = map_stack(m, s, sat);
				continue;
			}
			*p = (struct pending){ i, sat, s->nlocs, lat, 0, 0 };
			rc = map_stack(m, s, sat);
			if (rc == 0)
				rc = map_labels(m, s, lat, &p->nlabels);
			if (rc < 0)
				break;
			p->h = sample_hash(m->stack + sat, p->nlocs,
			    m->labels + lat, p->nlabels);
			sat += p->nlocs;
			lat += p->nlabels;
			n++;
		}
		prefetch_batch(m, b, n, 0);
		prefetch_batch(m, b, n, 1);
		prefetch_batch(m, b, n, 2);
		for (k = 0; rc == 0 && k < n; k++)
			rc = map_sample(m, &b[k], sign);
	}
	profconv__merge_source_done(m);
	return rc;
}

/* --- the census of what a subtraction cancels ---------------------------- */

/*
 * A scratch merger takes in both profiles' locations, as the real one
 * will (identity does not depend on the order they come in), and each
 * sample's hash is made from them on the job threads.  A table then
 * keeps, per sample of CUR, the one sample of BASE that cancels it.  No
 * stack is copied: a slot names its sample of CUR, and a sample's stack
 * is read through its profile's translations.
 */
struct census_slot {
	uint32_t fp;		/* the hash's high half */
	uint32_t cur;		/* the sample of CUR + 1; 0: empty */
	uint32_t base;		/* the sample of BASE it cancels + 1;
				 * 0: none yet; NO_PAIR: none can */
};

#define NO_PAIR UINT32_MAX
#define SLOTS_AHEAD 16

/* One profile as the census reads it: the scratch merger's state with
 * it as the source (its translations, every location taken in), and
 * its samples' hashes. */
struct side {
	struct merger m;
	uint64_t *h;
	size_t chunk;
};

struct census {
	struct side cur, base;
	struct census_slot *t;
	size_t cap;		/* slots: half as many again as CUR's samples */
};

/* The slot where hash H's probe starts: its low half scaled to the
 * table (its high half is the slot's FP). */
static inline size_t
census_home(const struct census *c, uint64_t h)
{
	return (size_t)(((uint64_t)(uint32_t)h * c->cap) >> 32);
}

/* A walk's scratch: two samples' labels. */
struct census_scratch {
	struct pc_label *lx, *ly;
	size_t lx_cap, ly_cap;
};

/* The hashes of SD's samples [LO, HI) into H[0 .. HI - LO). */
static int
hash_range(const struct side *sd, size_t lo, size_t hi, uint64_t *h)
{
	const struct profconv_profile *p = sd->m.src;
	size_t i, k, scap = 0, lcap = 0;
	uint32_t *stk = NULL;
	struct pc_label *lab = NULL;
	int rc = 0;

	for (i = lo; rc == 0 && i < hi; i++) {
		const struct pc_sample *s = pc_sample(p, i);
		struct pc_stack x = pc_sample_stack(p, s);

		if (all_zero(pc_sample_values(p, i), p->nsample_types))
			continue;	/* the merger leaves it out */
		if ((rc = PC_GROW(stk, scap, 0, s->nlocs + 1)) < 0 ||
		    (rc = PC_GROW(lab, lcap, 0, s->nlabels + 1)) < 0)
			break;
		for (k = 0; k < s->nlocs; k++)
			stk[k] = sd->m.loc_id[pc_stack_at(x, k) - 1];
		h[i - lo] = sample_hash(stk, s->nlocs, lab,
		    labels_into(&sd->m, s, lab));
	}
	free(stk);
	free(lab);
	return rc;
}

/* A thread's share of a side's hashes: samples [C * CHUNK, ...). */
static int
hash_task(void *arg, size_t c)
{
	struct side *sd = arg;
	size_t lo = c * sd->chunk, hi = lo + sd->chunk;

	if (hi > sd->m.src->nsamples)
		hi = sd->m.src->nsamples;
	return hash_range(sd, lo, hi, sd->h + lo);
}

/* How many of N samples a census task takes: all of them below 65,536,
 * else a quarter of a thread's share (at least 1, so that N / it tasks
 * cover N). */
static size_t
census_chunk(size_t n, unsigned int jobs)
{
	size_t parts = n < 65536 ? 1 : (size_t)jobs * 4;

	return n == 0 ? 1 : (n + parts - 1) / parts;
}

/* P as M's source, every location taken in, into SD, which takes M's
 * translations of it; then, when HASHES, its samples' hashes (else its
 * walk makes them a chunk at a time). */
static int
side_begin(struct merger *m, struct side *sd,
    const struct profconv_profile *p, bool hashes)
{
	unsigned int jobs = profconv__jobs_count(0);
	size_t id;
	uint32_t out;
	int rc = source_begin(m, p);

	for (id = 1; rc == 0 && id <= p->nlocations; id++)
		rc = profconv__merge_location(m, (uint32_t)id, &out);
	sd->m = *m;	/* reads only: src, str and loc_id */
	m->str = m->map_id = m->func_id = m->loc_id = NULL;
	m->map_delta = NULL;
	free(sd->m.map_id);
	free(sd->m.map_delta);
	free(sd->m.func_id);
	if (rc < 0 || !hashes)
		return rc;
	if ((sd->h = profconv__malloc_big((p->nsamples + 1) *
	    sizeof(*sd->h))) == NULL)
		return profconv__nomem();
	sd->chunk = census_chunk(p->nsamples, jobs);
	return profconv__jobs_run(jobs, (p->nsamples + sd->chunk - 1) /
	    sd->chunk, hash_task, sd);
}

static void
side_free(struct side *sd)
{
	free(sd->m.str);
	free(sd->m.loc_id);
	free(sd->h);
}

/* Is sample R of CUR sample J of SD?  SC: the walk's scratch. */
static int
census_same(const struct census *c, struct census_scratch *sc, uint32_t r,
    const struct side *sd, size_t j, bool *out)
{
	const struct profconv_profile *cp = c->cur.m.src, *p = sd->m.src;
	const struct pc_sample *x = pc_sample(cp, r), *y = pc_sample(p, j);
	struct pc_stack xs = pc_sample_stack(cp, x);
	struct pc_stack ys = pc_sample_stack(p, y);
	size_t k, n;
	int rc;

	*out = false;
	if (x->nlocs != y->nlocs || x->nlabels != y->nlabels)
		return 0;
	for (k = 0; k < x->nlocs; k++)
		if (c->cur.m.loc_id[pc_stack_at(xs, k) - 1] !=
		    sd->m.loc_id[pc_stack_at(ys, k) - 1])
			return 0;
	if (x->nlabels != 0 &&
	    ((rc = PC_GROW(sc->lx, sc->lx_cap, 0, x->nlabels + 1)) < 0 ||
	    (rc = PC_GROW(sc->ly, sc->ly_cap, 0, y->nlabels + 1)) < 0))
		return rc;
	n = x->nlabels != 0 ? labels_into(&c->cur.m, x, sc->lx) : 0;
	*out = n == 0 || (labels_into(&sd->m, y, sc->ly) == n &&
	    pc_labels_equal(sc->lx, sc->ly, n));
	return 0;
}

/* The slot of sample J of SD (hash H), or the empty slot where it
 * goes. */
static int
census_slot(const struct census *c, struct census_scratch *sc,
    const struct side *sd, size_t j, uint64_t h, struct census_slot **out)
{
	size_t i;
	bool same;
	int rc;

	for (i = census_home(c, h); c->t[i].cur != 0;
	    i = i + 1 < c->cap ? i + 1 : 0) {
		if (c->t[i].fp != (uint32_t)(h >> 32))
			continue;
		if ((rc = census_same(c, sc, c->t[i].cur - 1, sd, j,
		    &same)) < 0)
			return rc;
		if (same)
			break;
	}
	*out = &c->t[i];
	return 0;
}

/* Have samples I of A and J of B the same values, which cancel (none
 * INT64_MIN, whose negation saturates)? */
static bool
same_values(const struct profconv_profile *a, size_t i,
    const struct profconv_profile *b, size_t j)
{
	const int64_t *x = pc_sample_values(a, i), *y = pc_sample_values(b, j);
	size_t k;

	for (k = 0; k < a->nsample_types; k++)
		if (x[k] != y[k] || x[k] == INT64_MIN)
			return false;
	return true;
}

/* Sample J of SD's walk of samples [LO, END), whose hashes are H[0 ..
 * END - LO): its slot, or the empty one where it goes, into *OUT; NULL
 * when its values are all zero (the merger leaves it out). */
static int
census_meet(const struct census *c, struct census_scratch *sc,
    const struct side *sd, const uint64_t *h, size_t lo, size_t j,
    size_t end, struct census_slot **out)
{
	const struct profconv_profile *p = sd->m.src;

	if (j + SLOTS_AHEAD < end)
		__builtin_prefetch(&c->t[census_home(c,
		    h[j - lo + SLOTS_AHEAD])]);
	*out = NULL;
	if (all_zero(pc_sample_values(p, j), p->nsample_types))
		return 0;
	return census_slot(c, sc, sd, j, h[j - lo], out);
}

/* CUR's samples into the table, each distinct one once. */
static int
census_cur(struct census *c)
{
	const struct side *sd = &c->cur;
	const struct profconv_profile *p = sd->m.src;
	struct census_scratch sc = { 0 };
	struct census_slot *t;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < p->nsamples; i++) {
		if ((rc = census_meet(c, &sc, sd, sd->h, 0, i, p->nsamples,
		    &t)) < 0)
			break;
		if (t == NULL)
			continue;
		if (t->cur == 0)
			*t = (struct census_slot){ (uint32_t)(sd->h[i] >> 32),
				(uint32_t)i + 1, 0 };
		else	/* twice in CUR */
			t->base = NO_PAIR;
	}
	free(sc.lx);
	free(sc.ly);
	return rc;
}

/* BASE's samples against the table, CHUNK at a time. */
struct census_walk {
	struct census *c;
	size_t chunk;
};

/*
 * A thread's share of BASE, samples [K * CHUNK, ...), against the table:
 * the one sample of BASE that cancels each of CUR's.  The table is only
 * read here but for the slots' BASE, set with one compare-and-swap: the
 * first sample of BASE to meet a slot leaves its own number there when
 * the values cancel, else NO_PAIR; every later one leaves NO_PAIR.  So
 * a slot met once says whether that one cancels and a slot met twice
 * says none does, in whatever order the threads meet them.
 */
static int
census_base_task(void *arg, size_t k)
{
	const struct census_walk *w = arg;
	const struct census *c = w->c;
	const struct side *sd = &c->base;
	const struct profconv_profile *p = sd->m.src;
	struct census_scratch sc = { 0 };
	struct census_slot *t;
	size_t i, lo = k * w->chunk, hi = lo + w->chunk;
	uint64_t *h;
	int rc;

	if (hi > p->nsamples)
		hi = p->nsamples;
	/* The chunk's hashes, made here: the whole side's would be held
	 * beside the table. */
	if ((h = calloc(hi - lo + 1, sizeof(*h))) == NULL)
		return profconv__nomem();
	rc = hash_range(sd, lo, hi, h);
	for (i = lo; rc == 0 && i < hi; i++) {
		uint32_t want, none = 0;

		if ((rc = census_meet(c, &sc, sd, h, lo, i, hi, &t)) < 0)
			break;
		if (t == NULL || t->cur == 0)
			continue;	/* all zero, or in BASE alone */
		want = same_values(c->cur.m.src, t->cur - 1, p, i) ?
		    (uint32_t)i + 1 : NO_PAIR;
		if (!__atomic_compare_exchange_n(&t->base, &none, want, false,
		    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			__atomic_store_n(&t->base, NO_PAIR, __ATOMIC_RELAXED);
	}
	free(h);
	free(sc.lx);
	free(sc.ly);
	return rc;
}

size_t profconv__test_census_chunk;

static int
census_base(struct census *c)
{
	unsigned int jobs = profconv__jobs_count(0);
	size_t n = c->base.m.src->nsamples;
	struct census_walk w = { c, profconv__test_census_chunk };

	if (w.chunk == 0)
		w.chunk = census_chunk(n, jobs);
	return profconv__jobs_run(jobs, (n + w.chunk - 1) / w.chunk,
	    census_base_task, &w);
}

/* The pairs the table found into the skips. */
static int
census_pairs(struct census *c, uint8_t **skip_cur, uint8_t **skip_base,
    size_t *n)
{
	size_t i;

	for (i = 0; i < c->cap; i++) {
		const struct census_slot *t = &c->t[i];

		if (t->cur == 0 || t->base == 0 || t->base == NO_PAIR)
			continue;
		if (*skip_cur == NULL &&
		    ((*skip_cur = calloc(c->cur.m.src->nsamples, 1)) == NULL ||
		    (*skip_base = calloc(c->base.m.src->nsamples, 1)) == NULL))
			return profconv__nomem();
		(*skip_cur)[t->cur - 1] = 1;
		(*skip_base)[t->base - 1] = 1;
		(*n)++;
	}
	return 0;
}

int
profconv__merge_census(const struct profconv_profile *cur,
    const struct profconv_profile *base, uint8_t **skip_cur,
    uint8_t **skip_base, size_t *n)
{
	struct profconv_merger *mg = NULL;
	struct census c = { 0 };
	uint64_t cap;
	int rc;

	*skip_cur = *skip_base = NULL;
	*n = 0;
	if (!profconv__same_types(cur, base) || cur->nsamples >= UINT32_MAX - 1 ||
	    base->nsamples >= UINT32_MAX - 1)
		return 0;
	/* A third of the slots stay empty, which keeps probes short; at
	 * most 2^32 - 1 of them, more than CUR's samples. */
	cap = (uint64_t)cur->nsamples + cur->nsamples / 2 + 64;
	if (cap > UINT32_MAX)
		cap = UINT32_MAX;
	c.cap = (size_t)cap;
	c.t = profconv__calloc_big(c.cap, sizeof(*c.t));
	rc = c.t == NULL ? profconv__nomem() : profconv_merger_new(&mg);
	if (rc == 0)
		rc = side_begin(&mg->m, &c.cur, cur, true);
	if (rc == 0)
		rc = census_cur(&c);
	/* CUR's hashes are in the table now. */
	free(c.cur.h);
	c.cur.h = NULL;
	if (rc == 0)
		rc = side_begin(&mg->m, &c.base, base, false);
	if (rc == 0)
		rc = census_base(&c);
	if (rc == 0)
		rc = census_pairs(&c, skip_cur, skip_base, n);
	if (rc < 0) {
		free(*skip_cur);
		free(*skip_base);
		*skip_cur = *skip_base = NULL;
		*n = 0;
	}
	free(c.t);
	side_free(&c.cur);
	side_free(&c.base);
	profconv_merger_free(mg);
	return rc;
}
