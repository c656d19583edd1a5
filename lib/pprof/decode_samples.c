/* SPDX-License-Identifier: MIT */
/*
 * decode_samples.c - the samples of a pprof protobuf into the model: in
 * chunks decoded on threads and added in order, under the bound on
 * memory.  Cut from decode.c because the samples are the one part of the
 * decoder that runs on threads and that the bound on memory watches;
 * they need only the tables' id maps and the string map, which decode.c
 * has finished before (wire.h's struct decoder).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "pprof/pprof.h"
#include "pprof/wire.h"

/*
 * The samples of one chunk, decoded on some thread, waiting to be added
 * to the model in order; RC and MSG: how decoding them failed.
 */
struct sample_batch {
	uint32_t *locs;
	int64_t *vals;
	struct pc_label *labels;
	uint32_t *counts;		/* per sample: locations, labels */
	size_t locs_len, vals_len, labels_len, count;
	size_t locs_cap, vals_cap, labels_cap, counts_cap;
	int rc;
	char msg[256];
};

/* Location ID of sample SI as the batch's next (room is made). */
static inline int
add_location(const struct decoder *d, struct sample_batch *b, uint64_t id,
    size_t si)
{
	if (d->location_ids.dense && id != 0 && id <= d->location_ids.n) {
		b->locs[b->locs_len++] = (uint32_t)id;
		return 0;
	}
	if (!id_lookup(&d->location_ids, id, &b->locs[b->locs_len]))
		return profconv__fail(PROFCONV_EFORMAT,
		    "sample %zu refers to unknown location %llu", si + 1,
		    (unsigned long long)id);
	b->locs_len++;
	return 0;
}

/* The location ids of field F (packed or not) onto sample SI's. */
static int
add_locations(const struct decoder *d, struct sample_batch *b,
    const struct field *f, size_t si)
{
	struct rd r = { f->p, f->p + f->len };
	uint64_t id;
	int rc;

	if (f->wt == WT_VARINT) {
		if (PC_GROW(b->locs, b->locs_cap, b->locs_len, 1) < 0)
			return PROFCONV_ENOMEM;
		return add_location(d, b, f->v, si);
	}
	if (f->wt != WT_LEN)
		return PB_WIRE;
	/* At most one id per byte. */
	if (b->locs_cap - b->locs_len < f->len &&
	    PC_GROW(b->locs, b->locs_cap, b->locs_len, f->len) < 0)
		return PROFCONV_ENOMEM;
	while (r.p < r.end) {
		if (!rd_varint(&r, &id))
			return PB_WIRE;
		rc = add_location(d, b, id, si);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
add_label(const struct decoder *d, struct sample_batch *b,
    const struct field *f)
{
	struct pc_label *l;
	uint64_t v[4] = { 0, 0, 0, 0 };
	int rc;

	if (f->wt != WT_LEN || rd_varints(f->p, f->len, v, 4) < 0)
		return PB_WIRE;
	if (b->labels_cap == b->labels_len &&
	    PC_GROW(b->labels, b->labels_cap, b->labels_len, 1) < 0)
		return PROFCONV_ENOMEM;
	l = &b->labels[b->labels_len++];
	memset(l, 0, sizeof(*l));
	rc = dstr(d, (int64_t)v[0], "label key", &l->key);
	if (rc == 0)
		rc = dstr(d, (int64_t)v[1], "label str", &l->str);
	if (rc == 0)
		rc = dstr(d, (int64_t)v[3], "label num_unit", &l->unit);
	if (rc != 0)
		return rc;
	/* As in pprof, a string value wins over a number. */
	l->num = l->str != 0 ? 0 : (int64_t)v[2];
	if (l->str != 0)
		l->unit = 0;
	return 0;
}

/* Sample SI, the LEN bytes at P, onto batch B. */
static int
decode_sample(const struct decoder *d, struct sample_batch *b, size_t si,
    const unsigned char *p, size_t len)
{
	struct rd r = { p, p + len };
	struct field f;
	size_t nloc = b->locs_len, nval = b->vals_len, nlab = b->labels_len;
	int k, rc = 0;

	while (rc == 0 && (k = rd_field(&r, &f)) > 0) {
		switch (f.num) {
		case SF_LOCATION_ID:
			rc = add_locations(d, b, &f, si);
			break;
		case SF_VALUE:
			rc = add_numbers(&f, &b->vals, &b->vals_len, &b->vals_cap);
			break;
		case SF_LABEL:
			rc = add_label(d, b, &f);
			break;
		default:
			break;		/* unknown: skipped */
		}
	}
	if (rc != 0)
		return rc;
	if (k < 0)
		return PB_WIRE;
	if (b->vals_len - nval != d->sample_types.n)
		return profconv__fail(PROFCONV_EFORMAT,
		    "sample %zu has %zu values, but there are %zu sample types",
		    si + 1, b->vals_len - nval, d->sample_types.n);
	if (b->locs_len - nloc > UINT32_MAX || b->labels_len - nlab > UINT32_MAX)
		return profconv__fail(PROFCONV_EINVAL, "sample is too large");
	if (PC_GROW(b->counts, b->counts_cap, 2 * b->count, 2) < 0)
		return PROFCONV_ENOMEM;
	b->counts[2 * b->count] = (uint32_t)(b->locs_len - nloc);
	b->counts[2 * b->count + 1] = (uint32_t)(b->labels_len - nlab);
	b->count++;
	return 0;
}

static int
budget_fail(const struct decoder *d)
{
	return profconv__fail(PROFCONV_EFORMAT, "decoding this pprof "
	    "protobuf (%zu bytes) needs more than the input bound, %llu MiB, "
	    "of memory", d->len, (unsigned long long)(d->budget >> 20));
}

/* The model's bytes for the samples so far, its location ids counted at
 * four bytes (the most one takes). */
static uint64_t
samples_bytes(const struct profconv_profile *prof)
{
	return (uint64_t)prof->nsamples * sizeof(struct pc_sample) +
	    (uint64_t)prof->nstack * sizeof(uint32_t) +
	    (uint64_t)prof->nvalues * sizeof(int64_t) +
	    (uint64_t)prof->nlabels * sizeof(struct pc_label);
}

/*
 * Room for the samples, their values, and their stacks as far as the
 * bytes tell (a location id takes two bytes or so), taken before anything
 * else is decoded; beyond the bound on memory, refused before it is taken.
 */
int
profconv__pb_reserve_samples(struct decoder *d)
{
	struct pc_reserve room = { 0 };
	size_t nt = d->sample_types.n;

	room.samples = d->sample_count;
	if (nt != 0 && d->sample_count > SIZE_MAX / 16 / nt)
		return profconv__nomem();
	room.values = d->sample_count * nt;
	room.stack = d->sample_bytes / 2;
	if (d->budget != 0 &&
	    (uint64_t)room.samples * sizeof(struct pc_sample) +
	    (uint64_t)room.values * sizeof(int64_t) > d->budget)
		return budget_fail(d);
	return profconv__reserve(d->prof, &room);
}

struct sample_round {
	const struct decoder *d;
	size_t first;			/* chunk of batches[0] */
	struct sample_batch *batches;
};

/* Decode chunk FIRST + I of the samples into its batch; failures are
 * kept in the batch, to be reported in order. */
static int
decode_chunk(void *arg, size_t i)
{
	struct sample_round *sr = arg;
	const struct decoder *d = sr->d;
	struct sample_batch *b = &sr->batches[i];
	size_t c = sr->first + i, si = c * DECODE_CHUNK;
	size_t end = si + DECODE_CHUNK < d->sample_count ? si + DECODE_CHUNK :
	    d->sample_count;
	struct rd r = { d->data + d->chunk_at[c], d->data + d->len };
	struct field f;
	int rc = 0;

	while (rc == 0 && si < end && rd_field(&r, &f) > 0)
		if (f.num == PF_SAMPLE)
			rc = decode_sample(d, b, si++, f.p, f.len);
	if (rc == PB_WIRE)
		rc = profconv__pb_invalid_from(d->data, d->len, d->released);
	else if (rc == PROFCONV_ENOMEM)
		rc = profconv__nomem();
	if (rc < 0) {
		b->rc = rc;
		snprintf(b->msg, sizeof(b->msg), "%s", profconv_errmsg());
	}
	return 0;
}

/* The arrays of a batch stay NULL until something is put in them
 * (samples without labels, say): NULL + 0 is undefined, so say NULL. */
#define BATCH_AT(a, i) ((a) != NULL ? (a) + (i) : NULL)

/* Batch B's samples into the model, in order. */
static int
add_batch(struct decoder *d, const struct sample_batch *b)
{
	size_t k, lo = 0, bo = 0, nt = d->sample_types.n;
	int rc = 0;

	if (b->rc < 0)
		return profconv__fail(b->rc, "%s", b->msg);
	for (k = 0; rc == 0 && k < b->count; k++) {
		rc = profconv__add_sample_raw(d->prof, BATCH_AT(b->locs, lo),
		    b->counts[2 * k], BATCH_AT(b->vals, k * nt),
		    BATCH_AT(b->labels, bo), b->counts[2 * k + 1]);
		lo += b->counts[2 * k];
		bo += b->counts[2 * k + 1];
	}
	if (rc == 0 && d->budget != 0 && samples_bytes(d->prof) > d->budget)
		rc = budget_fail(d);
	return rc;
}

static void
batch_clear(struct sample_batch *b)
{
	b->locs_len = b->vals_len = b->labels_len = b->count = 0;
	b->rc = 0;
}

static void
batch_free(struct sample_batch *b)
{
	free(b->locs);
	free(b->vals);
	free(b->labels);
	free(b->counts);
}

/*
 * The samples, chunk by chunk: a round of chunks decoded on the threads,
 * then added to the model in order, so that what is kept and the first
 * error reported are the same whatever the number of threads.
 */
int
profconv__pb_decode_samples(struct decoder *d)
{
	struct sample_round sr = { .d = d };
	size_t per_round, k, i;
	int rc = 0;

	per_round = (size_t)profconv__jobs_count(d->jobs) * 2;
	sr.batches = calloc(per_round, sizeof(*sr.batches));
	if (sr.batches == NULL)
		return profconv__nomem();
	for (sr.first = 0; rc == 0 && sr.first < d->nchunks; sr.first += k) {
		k = d->nchunks - sr.first < per_round ?
		    d->nchunks - sr.first : per_round;
		for (i = 0; i < k; i++)
			batch_clear(&sr.batches[i]);
		rc = profconv__jobs_run(d->jobs, k, decode_chunk, &sr);
		for (i = 0; rc == 0 && i < k; i++)
			rc = add_batch(d, &sr.batches[i]);
		/* The bytes before the next round's are read no more: the
		 * model grows as they go. */
		if (rc == 0 && d->release != NULL &&
		    sr.first + k < d->nchunks) {
			d->released = d->chunk_at[sr.first + k];
			d->release(d->release_arg, d->released);
		}
	}
	for (i = 0; i < per_round; i++)
		batch_free(&sr.batches[i]);
	free(sr.batches);
	return rc;
}
