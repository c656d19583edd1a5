/* SPDX-License-Identifier: MIT */
/*
 * jemalloc.c - reader of jemalloc's threaded heap profile ("heap_v2/R",
 * legacy-producers.md section 2), with jeprof's semantics and pprof's
 * heap-profile shape.
 *
 * The file is a header ("heap_v2/R", a t*: total and one tN: line per
 * live thread, optionally followed by the thread's name), then for each
 * backtrace an "@ 0x... 0x..." line (leaf first) followed by its t*: total
 * and its per-thread tN: lines, then MAPPED_LIBRARIES.  Every count line
 * reads "c1: b1 [c2: b2]": current objects and bytes, then accumulated
 * objects and bytes (0 unless prof_accum was on).
 *
 * Choices, and where they come from:
 *
 * - Values.  jemalloc 5.3 writes "pre-biased" numbers that only give the
 *   right totals after jeprof's v2 unsampling (AdjustSamples), so every
 *   (count, bytes) pair of every line is scaled by 1/(1-exp(-(b/c)/R))
 *   on its own, before anything is added up.  Like go tool pprof's heap
 *   parser the scaled values are truncated per line; jeprof keeps floats
 *   and prints the truncated sum, so a total may be lower than jeprof's
 *   by less than one per line.  As in jeprof, a pair whose count is 0
 *   keeps its bytes unscaled (jemalloc rounds small counts to 0 while the
 *   bytes stay), and R = 0 means no scaling; unlike jeprof, a pair with
 *   bytes 0 is not scaled (jeprof would divide by zero).
 * - Totals come from the per-backtrace t*: lines only; the header's t*:
 *   line is pre-biased as a whole and matches no sum.
 * - Sample types follow pprof's heap conversion: alloc_objects,
 *   alloc_space, inuse_objects, inuse_space.  Without prof_accum (the
 *   header's accumulated pair is [0: 0]) only inuse_objects and
 *   inuse_space are kept: jemalloc then tracks live memory only, and
 *   naming the pair "inuse" (rather than pprof's ambiguous objects/space
 *   for gperftools' samples) keeps it comparable and mergeable with
 *   prof_accum profiles.  Should a backtrace carry accumulated counts
 *   after all, the alloc types are added then.
 * - Addresses: every frame is a return address, so like pprof's heap
 *   parser every frame gets address - 1 and symbolizes to the call
 *   instruction.  jeprof (FixCallerAddresses) leaves frame 0 alone; only
 *   the leaf's line number can differ.
 * - A "bytes" numeric label holds the average block size, as in pprof:
 *   that of the current pair, or of the accumulated one when no objects
 *   are current.
 * - A bare "@" is a backtrace without frames (jeprof's pattern misses it
 *   and adds its counts to the previous backtrace).
 * - With the threads option each tN: line becomes a sample of its own,
 *   labelled thread="N" and, where the header names the thread,
 *   thread_name; the t*: lines are then skipped.
 * - drop_frames is pprof's allocator list plus jemalloc's entry points
 *   and internals, so pruning cuts a stack at the allocator the way
 *   jeprof's RemoveUninterestingFrames does.
 */

#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/chunked.h"
#include "read/builder.h"
#include "read/lex.h"
#include "read/readers.h"

/* jemalloc's allocation entry points and the internals leaf-ward of them,
 * added to pprof's alloc list (jeprof HEAD's list, with je_ prefixes). */
static const char jemalloc_drop_rx[] =
	"aligned_alloc|mallocx|rallocx|xallocx|dallocx|sdallocx|"
	"sdallocx_noflags|nallocx|(void\\* )?newImpl(<.*>)?|"
	"je_(malloc|calloc|realloc|free|memalign|posix_memalign|"
	"aligned_alloc|valloc|mallocx|rallocx|xallocx|dallocx|sdallocx)|"
	"je_malloc_default|malloc_default|imalloc|imalloc_body|"
	"imalloc_fastpath|ialloc_prof|ialloc_prof_sample|irallocx_prof|"
	"irallocx_prof_sample|ixallocx_prof|ixallocx_prof_sample|"
	"je_prof_.*|prof_backtrace_impl|prof_alloc_prep";

/* Longest excerpt of a bad line quoted in a message. */
#define EXCERPT 40

struct je_thread {
	uint64_t uid;		/* the "thread" label, a number as pprof's
				 * -tagfocus thread=N wants it */
	uint32_t name;		/* string index of its name, 0 if unknown */
};

/* One count line: "t*: c1: b1 [c2: b2]" or "tN: ..." and what follows. */
struct je_counts {
	bool star;
	uint64_t uid;
	uint64_t v[4];		/* cur objects, cur bytes, accum objects, bytes */
	const char *rest, *end;
};

/* What a chunk knows of a thread (numbered in the order first seen). */
struct je_chunk_thread {
	uint64_t uid;
};

struct je_sample {
	uint32_t stack;		/* local stack index, or JE_INHERITED */
	uint32_t thread;	/* local thread index, or JE_NO_THREAD */
	int64_t v[4];		/* alloc objects, bytes, inuse objects, bytes */
	int64_t bytes;		/* the "bytes" label */
};

#define JE_INHERITED UINT32_MAX		/* the stack before the chunk */
#define JE_UNRESOLVED (UINT32_MAX - 1)	/* a backtrace without samples yet */
#define JE_NO_THREAD UINT32_MAX

/* What a chunk of the body holds beyond its locations and stacks. */
struct je_chunk {
	struct je_sample *samples;
	size_t nsamp, samples_cap;
	size_t alloc_first;		/* first sample with accumulated counts */
	struct pc_addrs cur;		/* the current backtrace */
	uint32_t *ends;			/* where its addresses end in PREV */
	size_t ends_cap;
	const char *prev;		/* its line (from the '@'), or NULL */
	size_t prev_len;
	size_t reuse;			/* addresses the same as before */
	uint32_t reuse_stack;		/* ...whose ids this stack has */
	uint32_t cur_stack;		/* its local stack, JE_UNRESOLVED... */
	bool has_stack;			/* an '@' line was seen */
	struct pc_u64map thr_index;	/* uid -> local thread */
	struct je_chunk_thread *thr;
	size_t nthr, thr_cap;
};

struct je_reader {
	struct pc_legacy b;
	struct pc_input *in;
	unsigned int jobs;
	bool threads;		/* one sample per tN: line */
	bool has_alloc;		/* alloc_* sample types present */
	bool types_set;
	double rate;		/* R; 0: no scaling */
	struct pc_addrs cur;	/* the current backtrace, adjusted */
	uint32_t *cur_ids;	/* its location ids, once resolved */
	size_t cur_ids_cap;
	bool cur_resolved;
	uint32_t *lmap;		/* a chunk's local location -> id */
	size_t lmap_cap;
	uint32_t *tmap;		/* a chunk's local thread -> index into thr */
	size_t tmap_cap;
	uint32_t *ids;		/* scratch: one stack's ids */
	size_t ids_cap;
	struct pc_u64map thread_index;	/* uid -> index into thr */
	struct je_thread *thr;
	size_t nthr, thr_cap;
	uint32_t k_bytes, k_thread, k_thread_name;
};

static unsigned long long
lineno(const struct je_reader *r)
{
	return (unsigned long long)r->in->lineno;
}

/* "line N: WHAT 'excerpt'" for the bad text [P, END). */
static int
bad_text(const struct je_reader *r, const char *what, const char *p,
    const char *end)
{
	int n = end - p > EXCERPT ? EXCERPT : (int)(end - p);

	return profconv__fail(PROFCONV_EFORMAT, "line %llu: %s '%.*s%s'",
	    lineno(r), what, n, p, end - p > EXCERPT ? "..." : "");
}

/* --- header and sample types ----------------------------------------------- */

/* Line 1: "heap_v2/R" with R the sampling rate in bytes. */
static int
parse_first_line(struct je_reader *r, const char *line, size_t len)
{
	const char *p = line + 8, *end = line + len;
	uint64_t rate;

	if (len < 8 || memcmp(line, "heap_v2/", 8) != 0 ||
	    !profconv__parse_u64(&p, end, &rate) || rate > INT64_MAX ||
	    pc_skip_space(p, end) != end)
		return bad_text(r, "expected 'heap_v2/<sampling rate>', got",
		    line, end);
	r->rate = (double)rate;
	return profconv_profile_set_period(r->b.prof, "space", "bytes",
	    (int64_t)rate);
}

static int
add_type(struct profconv_profile *prof, const char *type, const char *unit)
{
	return profconv_profile_add_sample_type(prof, type, unit);
}

/* Set the sample types once, before the first sample. */
static int
set_types(struct je_reader *r)
{
	struct profconv_profile *prof = r->b.prof;
	int rc = 0;

	if (r->types_set)
		return 0;
	r->types_set = true;
	if (r->has_alloc) {
		rc = add_type(prof, "alloc_objects", "count");
		if (rc == 0)
			rc = add_type(prof, "alloc_space", "bytes");
	}
	if (rc == 0)
		rc = add_type(prof, "inuse_objects", "count");
	if (rc == 0)
		rc = add_type(prof, "inuse_space", "bytes");
	return rc;
}

/*
 * A backtrace has accumulated counts though the header had none (its
 * pre-biased total rounded to 0): put alloc_objects and alloc_space in
 * front and give the samples so far zeros there.
 */
static int
add_alloc_types(struct je_reader *r)
{
	struct profconv_profile *prof = r->b.prof;
	/* [inuse_objects, inuse_space] -> [0, 0, inuse_objects, inuse_space] */
	static const ptrdiff_t from[4] = { -1, -1, 0, 1 };
	struct pc_vtype t[4];
	int rc;

	/* set_types made the inuse pair; this runs once (has_alloc). */
	t[2] = prof->sample_types[0];
	t[3] = prof->sample_types[1];
	rc = profconv__intern(prof, "alloc_objects", &t[0].type);
	if (rc == 0)
		rc = profconv__intern(prof, "count", &t[0].unit);
	if (rc == 0)
		rc = profconv__intern(prof, "alloc_space", &t[1].type);
	if (rc == 0)
		rc = profconv__intern(prof, "bytes", &t[1].unit);
	if (rc == 0)
		rc = profconv__retype(prof, t, from, 4);
	if (rc < 0)
		return rc;
	r->has_alloc = true;
	return 0;
}

/* --- threads ------------------------------------------------------------------ */

/* The entry for thread UID, made on first sight. */
static int
thread_entry(struct je_reader *r, uint64_t uid, struct je_thread **out)
{
	uint32_t i;
	int rc;

	if (profconv__u64map_get(&r->thread_index, uid, &i)) {
		*out = &r->thr[i];
		return 0;
	}
	rc = PC_GROW(r->thr, r->thr_cap, r->nthr, 1);
	if (rc < 0)
		return rc;
	rc = profconv__u64map_put(&r->thread_index, uid, (uint32_t)r->nthr);
	if (rc < 0)
		return rc;
	r->thr[r->nthr].uid = uid;
	r->thr[r->nthr].name = 0;
	*out = &r->thr[r->nthr++];
	return 0;
}

/* A header tN: line may end in " <thread name>" (prof_sys_thread_name). */
static int
note_thread_name(struct je_reader *r, const struct je_counts *c)
{
	const char *p = c->rest;
	struct je_thread *t;
	int rc;

	if (p == c->end || (*p != ' ' && *p != '\t') ||
	    pc_skip_space(p, c->end) == c->end)
		return 0;
	rc = thread_entry(r, c->uid, &t);
	if (rc == 0)
		rc = profconv__strtab_intern(&r->b.prof->strings, p + 1,
		    (size_t)(c->end - p - 1), &t->name);
	return rc;
}

/* --- lines -------------------------------------------------------------------- */

/* Expect CH at *P after optional blanks; advance past it. */
static bool
expect(const char **p, const char *end, char ch)
{
	const char *q = pc_skip_space(*p, end);

	if (q == end || *q != ch)
		return false;
	*p = q + 1;
	return true;
}

static bool
number(const char **p, const char *end, uint64_t *out)
{
	*p = pc_skip_space(*p, end);
	return profconv__parse_u64(p, end, out);
}

/* Parse "t*: c1: b1 [c2: b2]" or "tN: ..." starting at the 't'. */
static bool
parse_counts(const char *p, const char *end, struct je_counts *c)
{
	p++;
	c->star = p < end && *p == '*';
	c->uid = 0;
	if (c->star)
		p++;
	else if (!profconv__parse_u64(&p, end, &c->uid))
		return false;
	if (!expect(&p, end, ':') || !number(&p, end, &c->v[0]) ||
	    !expect(&p, end, ':') || !number(&p, end, &c->v[1]) ||
	    !expect(&p, end, '[') || !number(&p, end, &c->v[2]) ||
	    !expect(&p, end, ':') || !number(&p, end, &c->v[3]) ||
	    !expect(&p, end, ']'))
		return false;
	c->rest = p;
	c->end = end;
	return true;
}

/*
 * "@ 0x... 0x...": the backtrace, leaf first, each address minus one,
 * into A from its entry A->n on, parsing from P (the '@' or a blank after
 * an address already in A).  The end of each address, as an offset from
 * AT, goes to ENDS when not NULL (room for as many as A).  Returns 0, or
 * 1 with the bad token in [*BAD, *BAD_END), or a negative error.
 */
static int
parse_stack(const char *at, const char *p, const char *end,
    struct pc_addrs *a, uint32_t *ends, const char **bad,
    const char **bad_end)
{
	const char *tok;
	uint64_t v;

	for (p++; (p = pc_skip_space(p, end)) < end; a->n++) {
		tok = p;
		if (end - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x')
			p += 2;
		if (!profconv__parse_hex(&p, end, &v) ||
		    (p < end && *p != ' ' && *p != '\t')) {
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			*bad = tok;
			*bad_end = p;
			return 1;
		}
		/* Return addresses: point into the call instruction.  A
		 * frame jemalloc could not read prints as 0; keep it 0. */
		a->v[a->n] = v != 0 ? v - 1 : 0;
		if (ends != NULL)
			ends[a->n] = (uint32_t)(p - at);
	}
	return 0;
}

/* Room in A for every address a line of LEN bytes can hold. */
static int
stack_room(struct pc_addrs *a, size_t len)
{
	/* At least two bytes per address (a digit and a blank). */
	return PC_GROW(a->v, a->cap, 0, len / 2 + 1);
}

/*
 * jeprof's v2 AdjustSamples for one (count, bytes) pair, truncated like
 * pprof's scaleHeapSample.  False when a result does not fit int64.
 */
static bool
unsample(uint64_t count, uint64_t bytes, double rate, int64_t *c_out,
    int64_t *b_out)
{
	double c = (double)count, b = (double)bytes, scale, x;

	/* From X = 40 on, exp(-X) < 2^-54: 1 - exp(-X) is 1.0 exactly and
	 * the scale is 1 (every allocation sampled, lg_prof_sample:0, or
	 * objects far above the rate), with no call to exp(). */
	if (count != 0 && bytes != 0 && rate > 0 &&
	    (x = (b / c) / rate) < 40) {
		scale = 1 / (1 - exp(-x));
		c *= scale;
		b *= scale;
	}
	if (!(c < 9223372036854775808.0) || !(b < 9223372036854775808.0))
		return false;
	*c_out = (int64_t)c;
	*b_out = (int64_t)b;
	return true;
}

/* --- chunks: the body parsed in pieces (chunked.h) ----------------------- */

/*
 * Besides locations and stacks, a chunk keeps its samples and threads
 * (by first sight), replayed by merge_chunk().  A chunk may start inside
 * a backtrace: its first samples then use the stack inherited from the
 * chunks before it (JE_INHERITED).
 */

/* "WHAT 'excerpt'" for the bad text [P, END) of the current line. */
static int
chunk_bad(struct pc_chunk *c, const char *what, const char *p,
    const char *end)
{
	int n = end - p > EXCERPT ? EXCERPT : (int)(end - p);

	return profconv__chunk_fail(c, PROFCONV_EFORMAT, true, "%s '%.*s%s'",
	    what, n, p, end - p > EXCERPT ? "..." : "");
}

static void
chunk_start(void *arg, struct pc_chunk *c)
{
	struct je_chunk *j = c->data;

	(void)arg;
	j->cur_stack = JE_INHERITED;
	j->alloc_first = SIZE_MAX;
}

static void
chunk_renew_data(void *data)
{
	struct je_chunk *j = data, keep = *j;

	profconv__u64map_free(&keep.thr_index);
	memset(j, 0, sizeof(*j));
	j->samples = keep.samples;
	j->samples_cap = keep.samples_cap;
	j->cur.v = keep.cur.v;
	j->cur.cap = keep.cur.cap;
	j->ends = keep.ends;
	j->ends_cap = keep.ends_cap;
	j->thr = keep.thr;
	j->thr_cap = keep.thr_cap;
}

static void
chunk_free_data(void *data)
{
	struct je_chunk *j = data;

	profconv__u64map_free(&j->thr_index);
	free(j->samples);
	free(j->cur.v);
	free(j->ends);
	free(j->thr);
}

/* The local index of thread UID, noted at its first sample. */
static int
chunk_thread(struct je_chunk *j, uint64_t uid, uint32_t *out)
{
	int rc;

	if (profconv__u64map_get(&j->thr_index, uid, out))
		return 0;
	rc = PC_GROW(j->thr, j->thr_cap, j->nthr, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&j->thr_index, uid, (uint32_t)j->nthr);
	if (rc < 0)
		return rc;
	j->thr[j->nthr].uid = uid;
	*out = (uint32_t)j->nthr++;
	return 0;
}

/* A count line of the body: one sample, or nothing. */
static int
chunk_counts(struct pc_chunk *c, const struct je_reader *r, const char *p,
    const char *end)
{
	struct je_chunk *j = c->data;
	struct je_counts k;
	struct je_sample *s;
	int rc;

	if (!parse_counts(p, end, &k))
		return chunk_bad(c, "malformed counts", p, end);
	if (k.star == r->threads)
		return 0;
	rc = PC_GROW(j->samples, j->samples_cap, j->nsamp, 1);
	if (rc < 0)
		return profconv__chunk_failed(c, rc);
	if (j->cur_stack == JE_UNRESOLVED) {
		rc = profconv__chunk_add_stack(c, j->cur.v, j->cur.n,
		    j->reuse_stack, j->reuse, &j->cur_stack);
		if (rc < 0)
			return rc;
	}
	s = &j->samples[j->nsamp];
	if (!unsample(k.v[2], k.v[3], r->rate, &s->v[0], &s->v[1]) ||
	    !unsample(k.v[0], k.v[1], r->rate, &s->v[2], &s->v[3]))
		return profconv__chunk_fail(c, PROFCONV_EFORMAT, true,
		    "counts too large");
	s->stack = j->cur_stack;
	s->thread = JE_NO_THREAD;
	s->bytes = k.v[0] != 0 ? (int64_t)(k.v[1] / k.v[0]) :
	    k.v[2] != 0 ? (int64_t)(k.v[3] / k.v[2]) : 0;
	if (!k.star && (rc = chunk_thread(j, k.uid, &s->thread)) < 0)
		return profconv__chunk_failed(c, rc);
	if ((k.v[2] != 0 || k.v[3] != 0) && j->alloc_first == SIZE_MAX)
		j->alloc_first = j->nsamp;
	j->nsamp++;
	return 0;
}

/* Bytes at the start of A and B that are the same, a word at a time. */
static size_t
same_prefix(const char *a, const char *b, size_t max)
{
	size_t n = 0;
	uint64_t x, y;

	while (n + 8 <= max) {
		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		if (x != y)
			break;
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/*
 * A backtrace line at P.  Backtraces mostly start with the same frames
 * (the allocator's): the addresses the line shares, as text, with the
 * previous backtrace line are taken from it instead of parsed again, and
 * so are their locations when that backtrace had some.
 */
static int
chunk_stack(struct pc_chunk *c, const char *p, const char *end)
{
	struct je_chunk *j = c->data;
	size_t len = (size_t)(end - p), same, k = 0;
	const char *bad, *bad_end;
	int rc;

	if (j->prev != NULL) {
		same = same_prefix(p, j->prev, len < j->prev_len ? len :
		    j->prev_len);
		while (k < j->cur.n && j->ends[k] < same)
			k++;
	}
	j->reuse_stack = j->cur_stack < JE_UNRESOLVED ? j->cur_stack : 0;
	j->reuse = j->cur_stack < JE_UNRESOLVED ? k : 0;
	j->cur.n = k;
	rc = stack_room(&j->cur, len);
	if (rc == 0)
		rc = PC_GROW(j->ends, j->ends_cap, 0, j->cur.cap);
	if (rc < 0)
		return profconv__chunk_failed(c, rc);
	rc = parse_stack(p, k != 0 ? p + j->ends[k - 1] : p, end, &j->cur,
	    j->ends, &bad, &bad_end);
	if (rc > 0)
		return chunk_bad(c, "bad address", bad, bad_end);
	j->prev = p;
	j->prev_len = len;
	j->cur_stack = JE_UNRESOLVED;
	j->has_stack = true;
	return 0;
}

static int
chunk_line(void *arg, struct pc_chunk *c, const char *line, const char *end)
{
	const char *p = pc_skip_space(line, end);

	if (p == end)
		return 0;
	if (*p == 't')
		return chunk_counts(c, arg, p, end);
	if (*p == '@')
		return chunk_stack(c, p, end);
	if (profconv__maps_is_sentinel(line, (size_t)(end - line)))
		return 1;
	return chunk_bad(c, "unexpected line", p, end);
}

/* --- merging chunks into the model ---------------------------------------- */

/* Location ids for the stack the chunk inherited, at its first sample. */
static int
resolve_inherited(struct je_reader *r)
{
	size_t i;
	int rc;

	if (r->cur_resolved)
		return 0;
	rc = PC_GROW(r->cur_ids, r->cur_ids_cap, 0, r->cur.n);
	for (i = 0; rc == 0 && i < r->cur.n; i++)
		rc = profconv__legacy_location(&r->b, r->cur.v[i],
		    &r->cur_ids[i]);
	if (rc == 0)
		r->cur_resolved = true;
	return rc;
}

/* The model's ids for local stack K of chunk C, in R->ids. */
static const uint32_t *
global_stack(struct je_reader *r, const struct pc_chunk *c, uint32_t k,
    size_t *n)
{
	const uint32_t *local;
	size_t i;

	if (k == JE_INHERITED) {
		*n = r->cur.n;
		return r->cur_ids;
	}
	local = c->ids + c->stacks[k].off;
	*n = c->stacks[k].n;
	for (i = 0; i < *n; i++)
		r->ids[i] = r->lmap[local[i]];
	return r->ids;
}

/* Sample I of chunk C into the model, with what its first use brings. */
static int
merge_sample(struct je_reader *r, const struct pc_chunk *c, size_t i,
    size_t *next_thread)
{
	const struct je_chunk *j = c->data;
	const struct je_sample *s = &j->samples[i];
	struct pc_label labels[3] = { { 0 } };
	const uint32_t *ids;
	struct je_thread *t;
	size_t nl = 1, n;
	int rc;

	rc = set_types(r);
	if (rc == 0 && i == j->alloc_first && !r->has_alloc)
		rc = add_alloc_types(r);
	if (rc < 0)
		return rc;
	labels[0].key = r->k_bytes;
	labels[0].num = s->bytes;
	if (s->thread != JE_NO_THREAD) {
		if (*next_thread == s->thread) {
			/* First sight: strings go in the order one pass
			 * interns them. */
			rc = thread_entry(r, j->thr[s->thread].uid, &t);
			if (rc < 0)
				return rc;
			r->tmap[s->thread] = (uint32_t)(t - r->thr);
			++*next_thread;
		}
		t = &r->thr[r->tmap[s->thread]];
		/* Unit "thread", the one pprof gives a key without one:
		 * pprof's decoder drops a numeric label of 0 without a
		 * unit, and with it the main thread, t0. */
		labels[nl].key = r->k_thread;
		labels[nl].unit = r->k_thread;
		labels[nl++].num = (int64_t)t->uid;
		if (t->name != 0) {
			labels[nl].key = r->k_thread_name;
			labels[nl++].str = t->name;
		}
	}
	ids = global_stack(r, c, s->stack, &n);
	return profconv__add_sample_raw(r->b.prof, ids, n,
	    r->has_alloc ? s->v : s->v + 2, labels, nl);
}

/* Replay chunk C (parsed without error) into the model. */
static int
merge_chunk(void *arg, struct pc_chunk *c)
{
	struct je_reader *r = arg;
	const struct je_chunk *j = c->data;
	size_t i, next_thread = 0, maxn = r->cur.n;
	int rc = 0;

	/* Inherited samples come first: so do their locations. */
	if (j->nsamp != 0 && j->samples[0].stack == JE_INHERITED)
		rc = resolve_inherited(r);
	if (rc == 0)
		rc = profconv__chunk_locations(&r->b, c, &r->lmap, &r->lmap_cap);
	if (rc == 0)
		rc = PC_GROW(r->tmap, r->tmap_cap, 0, j->nthr);
	for (i = 0; i < c->nstacks; i++)
		if (c->stacks[i].n > maxn)
			maxn = c->stacks[i].n;
	if (rc == 0)
		rc = PC_GROW(r->ids, r->ids_cap, 0, maxn);
	for (i = 0; rc == 0 && i < j->nsamp; i++)
		rc = merge_sample(r, c, i, &next_thread);
	if (rc < 0 || !j->has_stack)
		return rc;
	/* The chunk's last backtrace goes on into the next chunk. */
	rc = PC_GROW(r->cur.v, r->cur.cap, 0, j->cur.n);
	if (rc == 0)
		rc = PC_GROW(r->cur_ids, r->cur_ids_cap, 0, j->cur.n);
	if (rc < 0)
		return rc;
	r->cur.n = j->cur.n;
	if (j->cur.n != 0)
		memcpy(r->cur.v, j->cur.v, j->cur.n * sizeof(*j->cur.v));
	r->cur_resolved = j->cur_stack != JE_UNRESOLVED;
	if (r->cur_resolved) {
		size_t n;
		const uint32_t *ids = global_stack(r, c, j->cur_stack, &n);

		if (n != 0)
			memcpy(r->cur_ids, ids, n * sizeof(*ids));
	}
	return 0;
}

/* Everything after the first backtrace line: chunks, then the maps. */
static int
read_chunks(struct je_reader *r)
{
	struct pc_chunked ck = {
		.in = r->in, .jobs = r->jobs, .data_size = sizeof(struct je_chunk),
		.arg = r, .start = chunk_start, .line = chunk_line,
		.merge = merge_chunk, .renew_data = chunk_renew_data,
		.free_data = chunk_free_data,
		/* Without alloc counts in the header, a backtrace that has
		 * some retypes every sample before it (add_alloc_types()):
		 * then none is handed on before the end. */
		.drain = r->has_alloc ? r->in->drain : NULL, .prof = r->b.prof,
	};
	int rc;

	rc = profconv__chunked_read(&ck);
	if (rc == 0 && ck.sentinel)
		rc = profconv__maps_parse_rest(&r->b.maps, r->in);
	return rc;
}

/* Count lines before any backtrace: the process total, then the live
 * threads (and, with the threads option, their names). */
static int
header_counts(struct je_reader *r, const char *p, const char *end)
{
	struct je_counts c;

	if (!parse_counts(p, end, &c))
		return bad_text(r, "malformed counts", p, end);
	if (c.star)
		r->has_alloc = c.v[2] != 0 || c.v[3] != 0;
	return c.star || !r->threads ? 0 : note_thread_name(r, &c);
}

/* The lines up to the first backtrace, which becomes the current one. */
static int
read_body(struct je_reader *r)
{
	const char *line, *p, *end, *bad, *bad_end;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		end = line + len;
		p = pc_skip_space(line, end);
		if (p == end)
			continue;
		if (*p == '@') {
			r->cur.n = 0;
			rc = stack_room(&r->cur, len);
			if (rc == 0)
				rc = parse_stack(p, p, end, &r->cur, NULL, &bad,
				    &bad_end);
			if (rc > 0)
				return bad_text(r, "bad address", bad, bad_end);
			r->cur_resolved = false;
			return rc < 0 ? rc : read_chunks(r);
		}
		if (*p == 't')
			rc = header_counts(r, p, end);
		else if (profconv__maps_is_sentinel(line, len))
			return profconv__maps_parse_rest(&r->b.maps, r->in);
		else
			rc = bad_text(r, "unexpected line", p, end);
		if (rc < 0)
			return rc;
	}
	return rc;
}

/*
 * jemalloc ends every dump with its memory map (prof_dump_maps()), each
 * line with a newline: a dump without one, or whose map ends mid-line,
 * was cut short.  The profile read is kept, with a warning the command
 * shows.
 */
static int
check_cut(const struct je_reader *r, struct profconv_profile *prof)
{
	size_t n = profconv__input_samples(r->in, prof);
	char msg[256];

	if (!r->b.maps.seen)
		snprintf(msg, sizeof(msg), "no memory map follows the %zu "
		    "sample%s: the dump was cut short (its addresses cannot "
		    "be symbolized)", n, n == 1 ? "" : "s");
	else if (r->b.maps.cut)
		snprintf(msg, sizeof(msg), "the memory map ends mid-line "
		    "(line %llu): the dump was cut short (addresses in "
		    "libraries past it cannot be symbolized)",
		    (unsigned long long)r->b.maps.cut_lineno);
	else
		return 0;
	return profconv__set_read_warning(prof, msg);
}

/* pprof's allocator drop_frames (set by finish) plus jemalloc's own. */
static int
extend_drop_frames(struct profconv_profile *prof)
{
	const char *old = profconv_profile_drop_frames(prof);
	size_t n = strlen(old) + 1 + sizeof(jemalloc_drop_rx);
	char *rx;
	int rc;

	rx = malloc(n);
	if (rx == NULL)
		return profconv__nomem();
	snprintf(rx, n, "%s%s%s", old, old[0] != '\0' ? "|" : "",
	    jemalloc_drop_rx);
	rc = profconv_profile_set_drop_frames(prof, rx);
	free(rx);
	return rc;
}

static int
reader_init(struct je_reader *r, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct profconv_profile *prof;
	int rc;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->threads = opts != NULL && opts->threads;
	r->jobs = profconv__jobs_count(opts != NULL ? opts->jobs : 0);
	rc = profconv__legacy_init(&r->b);
	if (rc < 0)
		return rc;
	prof = r->b.prof;
	rc = profconv__intern(prof, "bytes", &r->k_bytes);
	/* Only strings the output uses go into its string table. */
	if (rc == 0 && r->threads)
		rc = profconv__intern(prof, "thread", &r->k_thread);
	if (rc == 0 && r->threads)
		rc = profconv__intern(prof, "thread_name", &r->k_thread_name);
	return rc;
}

static void
reader_free(struct je_reader *r)
{
	profconv__legacy_free(&r->b);
	profconv__u64map_free(&r->thread_index);
	free(r->cur.v);
	free(r->cur_ids);
	free(r->lmap);
	free(r->tmap);
	free(r->ids);
	free(r->thr);
}

/* "heap_v2/" on the first line. */
static bool
sniff_jemalloc(const unsigned char *head, size_t len, bool whole)
{
	(void)whole;
	return profconv__head_first_line_has(head, len,
	    (const char *const[]){ "heap_v2/", NULL });
}

static int
read_jemalloc(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct je_reader r;
	const char *line;
	size_t len;
	int rc;

	*out = NULL;
	rc = reader_init(&r, in, opts);
	if (rc == 0) {
		rc = profconv__input_getline(in, &line, &len);
		if (rc == 0)
			rc = profconv__fail(PROFCONV_EFORMAT, "empty input");
	}
	if (rc >= 0)
		rc = parse_first_line(&r, line, len);
	if (rc == 0)
		rc = read_body(&r);
	if (rc == 0)
		rc = set_types(&r);
	if (rc == 0)
		rc = profconv__legacy_finish(&r.b, out);
	if (rc == 0)
		rc = extend_drop_frames(*out);
	if (rc == 0)
		rc = check_cut(&r, *out);
	if (rc < 0) {
		profconv_profile_free(*out);
		*out = NULL;
	}
	reader_free(&r);
	return rc < 0 ? rc : 0;
}

const struct pc_reader profconv__reader_jemalloc = {
	PROFCONV_FORMAT_JEMALLOC, "jemalloc", sniff_jemalloc, read_jemalloc,
	NULL
};
