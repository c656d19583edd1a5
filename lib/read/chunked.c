/* SPDX-License-Identifier: MIT */
/*
 * chunked.c - legacy text parsed in chunks on several threads, merged in
 * file order (chunked.h).
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/chunked.h"

/* Bytes per chunk: the input shared out, CHUNKS_PER_JOB per thread per
 * batch, within these bounds.  Below CHUNK_MIN bytes no thread is
 * started; CHUNK_MAX bounds what a batch holds. */
#define CHUNK_MIN ((size_t)256 << 10)
#define CHUNK_MAX ((size_t)4 << 20)
#define CHUNKS_PER_JOB 4
/* What a batch covers, unless the threads need more: its text (for
 * compressed or piped input) and its chunks' results are held at once. */
#define BATCH_BYTES ((size_t)64 << 20)
/* Slots a chunk's address table starts with (a power of two): the
 * distinct frames of a program's allocation paths mostly fit, and it
 * grows past half full. */
#define SEEN_SLOTS ((size_t)1 << 14)

size_t profconv__test_chunk_bytes;

int
profconv__chunk_fail(struct pc_chunk *c, int code, bool at_line,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	c->rc = code;
	c->err_line = at_line ? c->lines_read : 0;
	return code;
}

int
profconv__chunk_failed(struct pc_chunk *c, int rc)
{
	return profconv__chunk_fail(c, rc, false, "%s", profconv_errmsg());
}

int
profconv__chunk_failed_at_line(struct pc_chunk *c, int rc)
{
	const char *msg = profconv_errmsg(), *p = msg + 5;

	/* "line N: why": keep the why, the line is counted here. */
	if (strncmp(msg, "line ", 5) != 0 || *p < '0' || *p > '9')
		return profconv__chunk_failed(c, rc);
	while (*p >= '0' && *p <= '9')
		p++;
	if (p[0] != ':' || p[1] != ' ')
		return profconv__chunk_failed(c, rc);
	return profconv__chunk_fail(c, rc, true, "%s", p + 2);
}

/* The slot of address A in C's table: its own, or the empty one it
 * would take. */
static inline struct pc_chunk_seen *
seen_slot(const struct pc_chunk *c, uint64_t a)
{
	size_t i = profconv__hash_u64(a ^ c->seed) & c->seen_mask;

	while (c->seen[i].id1 != 0 && c->seen[i].addr != a)
		i = (i + 1) & c->seen_mask;
	return &c->seen[i];
}

/* Twice the slots, once the table is half full. */
static int
seen_grow(struct pc_chunk *c)
{
	struct pc_chunk_seen *old = c->seen;
	size_t n = c->seen_mask + 1, i;

	if (old != NULL && c->nloc < n / 2)
		return 0;
	if (old != NULL && n > SIZE_MAX / 2 / sizeof(*old))
		return profconv__nomem();
	c->seen = calloc(old != NULL ? 2 * n : SEEN_SLOTS, sizeof(*c->seen));
	if (c->seen == NULL) {
		c->seen = old;
		return profconv__nomem();
	}
	if (old == NULL) {
		c->seen_mask = SEEN_SLOTS - 1;
		c->seed = profconv__hash_seed();
		return 0;
	}
	c->seen_mask = 2 * n - 1;
	for (i = 0; i < n; i++)
		if (old[i].id1 != 0)
			*seen_slot(c, old[i].addr) = old[i];
	free(old);
	return 0;
}

int
profconv__chunk_add_stack(struct pc_chunk *c, const uint64_t *addrs,
    size_t n, uint32_t from, size_t reuse, uint32_t *out)
{
	size_t i = 0;
	int rc;

	if (c->nstacks >= UINT32_MAX - 2 || n > UINT32_MAX)
		return profconv__chunk_fail(c, PROFCONV_ENOMEM, false,
		    "too many stacks");
	rc = PC_GROW(c->stacks, c->stacks_cap, c->nstacks, 1);
	if (rc == 0)
		rc = PC_GROW(c->ids, c->ids_cap, c->nids, n);
	if (rc < 0)
		return profconv__chunk_failed(c, rc);
	if (reuse != 0) {
		memcpy(c->ids + c->nids, c->ids + c->stacks[from].off,
		    reuse * sizeof(*c->ids));
		i = reuse;
	}
	for (; i < n; i++) {
		struct pc_chunk_seen *s;

		if (c->seen == NULL && (rc = seen_grow(c)) < 0)
			return profconv__chunk_failed(c, rc);
		s = seen_slot(c, addrs[i]);
		if (s->id1 == 0) {
			if (c->nloc >= UINT32_MAX - 1)
				return profconv__chunk_fail(c,
				    PROFCONV_ENOMEM, false,
				    "too many locations");
			rc = PC_GROW(c->loc_addr, c->loc_cap, c->nloc, 1);
			if (rc < 0)
				return profconv__chunk_failed(c, rc);
			s->addr = addrs[i];
			s->id1 = (uint32_t)c->nloc + 1;
			c->loc_addr[c->nloc++] = addrs[i];
			c->ids[c->nids + i] = s->id1 - 1;
			if ((rc = seen_grow(c)) < 0)
				return profconv__chunk_failed(c, rc);
			continue;
		}
		c->ids[c->nids + i] = s->id1 - 1;
	}
	c->stacks[c->nstacks].off = c->nids;
	c->stacks[c->nstacks].n = (uint32_t)n;
	c->nids += n;
	*out = (uint32_t)c->nstacks++;
	return 0;
}

int
profconv__chunk_locations(struct pc_legacy *b, const struct pc_chunk *c,
    uint32_t **map, size_t *cap)
{
	size_t i;
	int rc;

	rc = profconv__grow((void **)map, cap, 0, c->nloc, sizeof(**map));
	for (i = 0; rc == 0 && i < c->nloc; i++)
		rc = profconv__legacy_location(b, c->loc_addr[i], &(*map)[i]);
	return rc;
}

static void
chunk_free(struct pc_chunked *r, struct pc_chunk *c)
{
	if (r->free_data != NULL && c->data != NULL)
		r->free_data(c->data);
	free(c->seen);
	free(c->loc_addr);
	free(c->ids);
	free(c->stacks);
	memset(c, 0, sizeof(*c));
}

/* Larger address tables are not kept for the next chunk. */
#define SEEN_KEEP (4 * SEEN_SLOTS)

/*
 * Chunk C made new for the text [TEXT, END), with DATA (DATA_SIZE
 * bytes): emptied, keeping the arrays it grew for its last text, so
 * that a round's chunks write into memory already theirs instead of
 * fresh pages.
 */
static void
chunk_renew(struct pc_chunked *r, struct pc_chunk *c, const char *text,
    const char *end, void *data)
{
	struct pc_chunk keep = *c;

	memset(c, 0, sizeof(*c));
	if (keep.seen != NULL && keep.seen_mask + 1 <= SEEN_KEEP) {
		c->seen = keep.seen;
		c->seen_mask = keep.seen_mask;
		c->seed = keep.seed;
		memset(c->seen, 0, (c->seen_mask + 1) * sizeof(*c->seen));
	} else {
		free(keep.seen);
	}
	c->loc_addr = keep.loc_addr;
	c->loc_cap = keep.loc_cap;
	c->ids = keep.ids;
	c->ids_cap = keep.ids_cap;
	c->stacks = keep.stacks;
	c->stacks_cap = keep.stacks_cap;
	c->text = text;
	c->end = end;
	c->data = data;
	if (data != NULL)
		r->renew_data(data);
}

/* Parse the lines of chunk C up to its end or a memory-map sentinel. */
static int
chunk_parse(struct pc_chunked *r, struct pc_chunk *c)
{
	const char *p = c->text, *end = c->end, *nl, *le;
	int rc;

	if (r->start != NULL)
		r->start(r->arg, c);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		le = nl != NULL ? nl : end;
		c->lines_read++;
		if ((size_t)(le - p) > PC_MAX_LINE)
			return profconv__chunk_fail(c, PROFCONV_EFORMAT, true,
			    "longer than %zu bytes", PC_MAX_LINE);
		/* As bufio.ScanLines: a CR before the newline goes. */
		rc = r->line(r->arg, c, p, le > p && le[-1] == '\r' ? le - 1 :
		    le);
		p = nl != NULL ? nl + 1 : end;
		if (rc < 0)
			return rc;
		if (rc > 0) {
			c->sentinel = true;
			break;
		}
	}
	c->used = (size_t)(p - c->text);
	return 0;
}

/*
 * A batch of chunks.  Its merge runs as task 0 of the next batch's jobs,
 * while the other threads parse that batch: one thread merges (in file
 * order, as it must), the others never wait for it.
 */
struct batch {
	struct pc_chunk *chunks;
	unsigned char *data;
	size_t n;			/* chunks parsed, to merge */
};

struct run {
	struct pc_chunked *r;
	bool ahead;			/* the next batch is read beside */
	struct batch *parse, *merge;	/* MERGE may be NULL */
	bool merged;
	int merge_rc;
	bool drain;			/* a drain runs this round */
	bool drained;
	int drain_rc;
};

/* Merge every chunk of B in order. */
static int
merge_batch(struct pc_chunked *r, const struct batch *b)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < b->n; i++)
		rc = r->merge(r->arg, &b->chunks[i]);
	return rc;
}

/* Task 0 reads the text of the next batch when it can, the next merges
 * the last batch when there is one, the next writes the samples merged
 * the round before when there are some; the others parse. */
static int
run_task(void *arg, size_t i)
{
	struct run *run = arg;

	if (run->ahead && i-- == 0) {
		profconv__input_ahead_run(run->r->in);
		return 0;
	}
	if (run->merge != NULL && i-- == 0) {
		run->merge_rc = merge_batch(run->r, run->merge);
		run->merged = true;
		return run->merge_rc;
	}
	if (run->drain && i-- == 0) {
		run->drain_rc = run->r->drain->run(run->r->drain);
		run->drained = true;
		return run->drain_rc;
	}
	return chunk_parse(run->r, &run->parse->chunks[i]);
}

/* Chunk C's failure, its line counted from the start of the input. */
static int
chunk_error(const struct pc_input *in, const struct pc_chunk *c)
{
	if (c->err_line == 0)
		return profconv__fail(c->rc, "%s", c->msg);
	return profconv__fail(c->rc, "line %llu: %s",
	    (unsigned long long)(in->lineno + c->err_line), c->msg);
}

/*
 * Cut the visible input into at most MAX chunks of about SIZE bytes,
 * each ending after a newline (or at the end of the input), with their
 * DATA in the DATA_SIZE-byte slots of B->data.  Returns how many.
 */
static size_t
carve(struct pc_chunked *r, size_t size, struct batch *b, size_t max)
{
	struct pc_input *in = r->in;
	const char *text = (const char *)profconv__input_data(in);
	size_t avail = profconv__input_avail(in), at = 0, k, e;
	struct pc_chunk *c;
	const char *nl;

	for (k = 0; k < max && at < avail; k++) {
		e = avail - at > size ? at + size : avail;
		nl = memchr(text + e - 1, '\n', avail - (e - 1));
		if (nl != NULL)
			e = (size_t)(nl - text) + 1;
		else if (in->eof || (k == 0 && avail - at > PC_MAX_LINE))
			e = avail;	/* the last line, or one too long */
		else
			break;
		c = &b->chunks[k];
		chunk_renew(r, c, text + at, text + e, r->data_size != 0 ?
		    b->data + k * r->data_size : NULL);
		at = e;
	}
	return k;
}

/* B's chunks, and what they hold, freed (MAX of them). */
static void
batch_free(struct pc_chunked *r, struct batch *b, size_t max)
{
	size_t i;

	for (i = 0; b->chunks != NULL && i < max; i++)
		chunk_free(r, &b->chunks[i]);
	free(b->chunks);
	free(b->data);
}

/*
 * After parsing N chunks of B: consume the input they cover up to the
 * first sentinel (which ends the chunks) or failure, and keep those to
 * merge in B->n.  Returns a chunk's failure, JRC (the jobs' result) for
 * a chunk that never ran, or 0.
 */
static int
take_parsed(struct pc_chunked *r, struct batch *b, size_t n, int jrc)
{
	uint64_t lines = 0;
	size_t i, used = 0;

	b->n = 0;
	for (i = 0; i < n; i++) {
		const struct pc_chunk *c = &b->chunks[i];

		if (c->rc < 0) {
			profconv__input_skip(r->in, used, lines);
			return chunk_error(r->in, c);
		}
		if (c->lines_read == 0)		/* no thread ran it */
			return jrc < 0 ? jrc : profconv__nomem();
		used += c->used;
		lines += c->lines_read;
		b->n++;
		if (c->sentinel) {
			r->sentinel = true;
			break;
		}
	}
	profconv__input_skip(r->in, used, lines);
	return 0;
}

/* The chunk size for what is left of IN. */
static size_t
chunk_size(const struct pc_chunked *r)
{
	size_t size;

	if (profconv__test_chunk_bytes != 0)
		return profconv__test_chunk_bytes;
	if (!r->in->eof)
		return CHUNK_MAX;
	size = profconv__input_avail(r->in) / ((size_t)r->jobs *
	    CHUNKS_PER_JOB);
	return size < CHUNK_MIN ? CHUNK_MIN : size > CHUNK_MAX ? CHUNK_MAX :
	    size;
}

static int
batch_alloc(struct batch *b, size_t max, size_t data_size)
{
	b->n = 0;
	b->chunks = calloc(max, sizeof(*b->chunks));
	b->data = calloc(max, data_size != 0 ? data_size : 1);
	return b->chunks != NULL && b->data != NULL ? 0 : profconv__nomem();
}

/* Parse batches while the last one's merge runs beside. */
static int
read_batches(struct pc_chunked *r, struct batch *b, size_t max, size_t size)
{
	struct run run = { .r = r };
	struct batch *cur = &b[0], *prev = NULL, *t;
	size_t n, want, carved, left;
	int rc = 0, jrc;
	bool pending = false;		/* the drain has samples to write */

	while (!r->sentinel) {
		/* A batch, and a longest line beyond it.  The merge of the
		 * last batch needs none of its text. */
		want = size * max + PC_MAX_LINE + 2;
		rc = profconv__input_fill(r->in, want);
		if (rc < 0)
			break;
		n = carve(r, size, cur, max);
		if (n == 0)
			break;
		/* The text after the batch is read while it is parsed. */
		carved = (size_t)(cur->chunks[n - 1].end -
		    (const char *)profconv__input_data(r->in));
		left = profconv__input_avail(r->in) - carved;
		run.ahead = left < want && profconv__input_ahead_begin(r->in,
		    left, want - left) == 1;
		run.parse = cur;
		run.merge = prev;
		run.merge_rc = 0;
		/* Tasks stop at their first failure: the merge (task 0)
		 * and the chunks before a failing one have all run. */
		run.merged = prev == NULL;
		run.drain = pending;
		run.drained = false;
		run.drain_rc = 0;
		/* One chunk and nothing to merge: no thread is started. */
		jrc = profconv__jobs_run(r->jobs, n + run.ahead +
		    (prev != NULL) + pending, run_task, &run);
		if (run.merge_rc < 0 || !run.merged) {
			/* The merge's message is set (or jobs_run's). */
			rc = run.merge_rc < 0 ? run.merge_rc : jrc;
			break;
		}
		if (pending && (run.drain_rc < 0 || !run.drained)) {
			rc = run.drain_rc < 0 ? run.drain_rc : jrc;
			break;
		}
		/* What the merge added is written beside the next round. */
		pending = false;
		if (r->drain != NULL && prev != NULL &&
		    profconv_profile_sample_count(r->prof) != 0) {
			rc = r->drain->take(r->drain, r->prof);
			if (rc < 0)
				break;
			pending = true;
		}
		/* The merged chunks' arrays stay theirs, for the round
		 * after next. */
		if (prev != NULL)
			prev->n = 0;
		rc = take_parsed(r, cur, n, jrc);
		if (rc == 0 && run.ahead)
			rc = profconv__input_ahead_end(r->in);
		if (rc < 0)
			return rc;
		/* Chunks after a sentinel are not merged (cur->n). */
		t = prev != NULL ? prev : &b[1];
		prev = cur;
		cur = t;
	}
	/* Samples taken are written before those of the last merge. */
	if (rc == 0 && pending)
		rc = r->drain->run(r->drain);
	if (rc == 0 && prev != NULL)
		rc = merge_batch(r, prev);
	return rc;
}

int
profconv__chunked_read(struct pc_chunked *r)
{
	size_t max = (size_t)r->jobs * CHUNKS_PER_JOB, size;
	struct batch b[2] = { { 0 } };
	int rc;

	r->sentinel = false;
	size = chunk_size(r);
	if (max > BATCH_BYTES / size && BATCH_BYTES / size >= r->jobs)
		max = BATCH_BYTES / size;
	else if (max > BATCH_BYTES / size)
		max = r->jobs;
	rc = batch_alloc(&b[0], max, r->data_size);
	if (rc == 0)
		rc = batch_alloc(&b[1], max, r->data_size);
	if (rc == 0)
		rc = read_batches(r, b, max, size);
	batch_free(r, &b[0], max);
	batch_free(r, &b[1], max);
	return rc;
}
