/* SPDX-License-Identifier: MIT */
/*
 * heapprofile.c - reader of the "heap profile:" text family: gperftools heap
 * profiler dumps, sampled heapz/heap_v2 profiles, old Go heap profiles,
 * growth and fragmentation stacks, read as google/pprof's parseHeap does
 * (pprof-reference.md section 2.1).
 *
 * pprof matches each line against unanchored regular expressions.  Every
 * pattern here is free of backtracking (each run of spaces or digits is
 * followed by a character the run cannot contain), so a small literal
 * matcher gives the same captures, and trying start positions left to
 * right gives the same leftmost match.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "read/chunked.h"
#include "read/builder.h"
#include "read/lex.h"
#include "read/readers.h"

#define HEADER_TAG "heap profile:"
/* The totals every header starts with, then each kind's own tail. */
#define TOTALS_PAT HEADER_TAG " *#: *# *[ *#: *# *]"
#define SAMPLE_PAT "-#: *-# *[ *#: *# *] @"
#define MAX_CAPS 4

struct span {
	const char *p;
	size_t n;
};

struct heap_reader {
	struct pc_legacy b;
	struct pc_input *in;
	unsigned int jobs;
	bool v2;			/* Poisson unsampling at RATE */
	bool has_alloc;		/* alloc pair before the inuse pair */
	bool gperftools;	/* "heapprofile": HEAD holds its totals */
	bool maps;		/* a memory map followed the samples */
	bool cut_line;		/* the samples' last line has no newline */
	int64_t head[2];	/* the header's bytes: in use, allocated */
	int64_t held[2];	/* the samples' sums of the same */
	int64_t rate;
	uint32_t bytes_key;
	uint32_t *lmap;		/* a chunk's local location -> id */
	size_t lmap_cap;
	uint32_t *ids;		/* scratch: one stack's ids */
	size_t ids_cap;
};

/* One bucket line, in its chunk's terms. */
struct heap_sample {
	uint32_t stack;		/* local stack */
	int64_t v[4];		/* [alloc pair,] inuse pair */
	int64_t blocksize;	/* the "bytes" label */
};

/* What a chunk of the buckets holds beyond its locations and stacks. */
struct heap_chunk {
	struct heap_sample *samples;
	size_t nsamp, samples_cap;
	struct pc_addrs addrs;	/* scratch: the current line's stack */
	bool cut_line;		/* its last line ends without a newline */
};

static const char *
skip_digits(const char *p, const char *end)
{
	while (p < end && pc_is_digit(*p))
		p++;
	return p;
}

/*
 * Match the start of [P, END) against PAT, where " *" is a run of spaces,
 * "#" a captured run of digits, "-#" the same with an optional minus sign,
 * and any other character itself.  Returns the end of the match or NULL.
 */
static const char *
match_pattern(const char *p, const char *end, const char *pat,
    struct span *caps)
{
	const char *q;
	size_t ncaps = 0;

	while (*pat != '\0') {
		if (pat[0] == ' ' && pat[1] == '*') {
			while (p < end && *p == ' ')
				p++;
			pat += 2;
		} else if (*pat == '#' || (pat[0] == '-' && pat[1] == '#')) {
			q = p;
			if (*pat == '-' && q < end && *q == '-')
				q++;
			pat += *pat == '-' ? 2 : 1;
			if (skip_digits(q, end) == q)
				return NULL;
			q = skip_digits(q, end);
			caps[ncaps].p = p;
			caps[ncaps++].n = (size_t)(q - p);
			p = q;
		} else if (p < end && *p == *pat) {
			p++;
			pat++;
		} else {
			return NULL;
		}
	}
	return p;
}

/* --- the header ----------------------------------------------------------- */

/*
 * Find the leftmost "heap profile:" occurrence in LINE that matches
 * TOTALS_PAT followed by TAIL; the position after the match goes to *REST.
 */
static bool
find_header(const char *line, size_t len, const char *tail,
    struct span *caps, const char **rest)
{
	const char *end = line + len, *p = line, *q;
	size_t tag = strlen(HEADER_TAG);

	while ((p = memmem(p, (size_t)(end - p), HEADER_TAG, tag)) != NULL) {
		q = match_pattern(p, end, TOTALS_PAT, caps);
		if (q != NULL)
			q = match_pattern(q, end, tail, NULL);
		if (q != NULL) {
			*rest = q;
			return true;
		}
		p += tag;
	}
	return false;
}

static bool
span_eq(struct span a, struct span b)
{
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bool
span_is_zero(struct span a)
{
	return a.n == 1 && a.p[0] == '0';
}

/*
 * gperftools' header totals, kept to tell a dump cut short (see
 * check_totals()); totals out of range are not kept.
 */
static void
keep_totals(struct heap_reader *r, const struct span *caps)
{
	const char *p;
	int i;

	r->gperftools = true;
	for (i = 0; i < 2; i++) {
		p = caps[2 * i + 1].p;
		if (!profconv__parse_i64(&p, p + caps[2 * i + 1].n,
		    &r->head[i]))
			r->gperftools = false;
	}
}

/*
 * The "@ heap..." header: its type word, "heap[_a-z0-9]*", and the number
 * after an optional '/' choose the sampling and the period.  The totals
 * decide whether there are alloc values, compared as text as pprof does.
 */
static int
parse_heap_type(struct heap_reader *r, const struct span *caps,
    const char *p, const char *end)
{
	const char *word = p - 4, *num;	/* P follows "heap" */
	uint64_t n = 0;
	size_t wlen;

	while (p < end && (*p == '_' || pc_is_digit(*p) ||
	    (*p >= 'a' && *p <= 'z')))
		p++;
	wlen = (size_t)(p - word);
	if (p < end && *p == '/')
		p++;
	num = p;
	if (skip_digits(p, end) != p && (!profconv__parse_u64(&num, end, &n) ||
	    n > INT64_MAX))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line 1: heap profile sampling rate out of range");
	r->has_alloc = (!span_eq(caps[2], caps[0]) && !span_is_zero(caps[2])) ||
	    (!span_eq(caps[3], caps[1]) && !span_is_zero(caps[3]));
	r->v2 = true;
	r->rate = (int64_t)n;
	if (wlen == 7 && memcmp(word, "heap_v2", 7) == 0)
		return 0;
	if (wlen == 8 && memcmp(word, "heapz_v2", 8) == 0)
		return 0;
	if (wlen == 4) {
		/* Old Go runtimes wrote twice their MemProfileRate. */
		r->rate /= 2;
		return 0;
	}
	if (wlen == 11 && memcmp(word, "heapprofile", 11) == 0) {
		r->v2 = false;
		r->rate = 1;
		keep_totals(r, caps);
		return 0;
	}
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "line 1: unsupported heap profile type '%.*s'",
	    (int)(wlen < 32 ? wlen : 32), word);
}

/* Recognize the header; growth and fragmentation have period 1. */
static int
parse_header(struct heap_reader *r, const char *line, size_t len)
{
	struct span caps[MAX_CAPS];
	const char *rest;

	r->v2 = false;
	r->has_alloc = false;
	r->rate = 1;
	if (find_header(line, len, " *@ *heap", caps, &rest))
		return parse_heap_type(r, caps, rest, line + len);
	if (find_header(line, len, " @ growth", caps, &rest) ||
	    find_header(line, len, " @ fragmentation", caps, &rest))
		return 0;
	return profconv__fail(PROFCONV_EFORMAT,
	    "line 1: malformed heap profile header");
}

/*
 * Sample types, period and the "bytes" label key.  Alloc values come
 * first so that pprof's default, the last type, is inuse_space.
 */
static int
set_types(struct heap_reader *r)
{
	static const char *const with_alloc[] = {
		"alloc_objects", "count", "alloc_space", "bytes",
		"inuse_objects", "count", "inuse_space", "bytes", NULL,
	};
	static const char *const plain[] = {
		"objects", "count", "space", "bytes", NULL,
	};
	const char *const *t = r->has_alloc ? with_alloc : plain;
	int rc = 0;

	for (; rc == 0 && *t != NULL; t += 2)
		rc = profconv_profile_add_sample_type(r->b.prof, t[0], t[1]);
	if (rc == 0)
		rc = profconv_profile_set_period(r->b.prof, "space", "bytes",
		    r->rate);
	if (rc == 0)
		rc = profconv__intern(r->b.prof, "bytes", &r->bytes_key);
	return rc;
}

/* --- samples -------------------------------------------------------------- */

/*
 * pprof's scaleHeapSample: divide by the chance 1 - exp(-avg/rate) that
 * a Poisson sampler with mean RATE bytes saw a block of the average size.
 */
static void
unsample(int64_t *count, int64_t *size, int64_t rate)
{
	double avg, scale;

	if (*count == 0 || *size == 0) {
		*count = 0;
		*size = 0;
		return;
	}
	if (rate <= 1)
		return;
	avg = (double)*size / (double)*count;
	scale = 1 / (1 - exp(-avg / (double)rate));
	*count = pc_go_float_to_int64((double)*count * scale);
	*size = pc_go_float_to_int64((double)*size * scale);
}

/* S as *V: the WHAT FIELD ("count" or "bytes") of line LINENO. */
static int
pair_number(struct span s, uint64_t lineno, const char *what,
    const char *field, int64_t *v)
{
	const char *p = s.p;

	if (!profconv__parse_i64(&p, s.p + s.n, v))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: %s %s '%.*s' out of range",
		    (unsigned long long)lineno, what, field,
		    (int)(s.n < 32 ? s.n : 32), s.p);
	return 0;
}

/* One "count: bytes" pair; its block size goes to *BLOCKSIZE if counted. */
static int
add_pair(const struct heap_reader *r, uint64_t lineno, struct span cs,
    struct span ss, const char *what, int64_t *out, int64_t *blocksize)
{
	int64_t count, size;
	int rc = pair_number(cs, lineno, what, "count", &count);

	if (rc == 0)
		rc = pair_number(ss, lineno, what, "bytes", &size);
	if (rc < 0)
		return rc;
	if (count == 0 && size != 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: %s count was 0 but %s bytes was %lld",
		    (unsigned long long)lineno, what, what,
		    (long long)size);
	if (count != 0) {
		/* Go's division wraps where C's would trap. */
		*blocksize = count == -1 ? (int64_t)(0 - (uint64_t)size) :
		    size / count;
		if (r->v2)
			unsample(&count, &size, r->rate);
	}
	out[0] = count;
	out[1] = size;
	return 0;
}

/* The leftmost match of SAMPLE_PAT in LINE, or NULL. */
static const char *
find_sample(const char *line, const char *end, struct span *caps)
{
	const char *p = line, *q, *m;

	while (p < end) {
		if (*p != '-' && !pc_is_digit(*p)) {
			p++;
			continue;
		}
		m = match_pattern(p, end, SAMPLE_PAT, caps);
		if (m != NULL)
			return m;
		/* A start later in the same digit run fails the same way. */
		q = skip_digits(p + (*p == '-'), end);
		p = q > p ? q : p + 1;
	}
	return NULL;
}

/*
 * One sample line of chunk C: "inuse: bytes [alloc: bytes] @ 0x...", its
 * errors told the chunk's line number (chunked.c makes it the input's).
 */
static int
parse_sample(const struct heap_reader *r, struct pc_chunk *c,
    const char *line, size_t len)
{
	const char *end = line + len, *stack, *stack_end;
	struct heap_chunk *h = c->data;
	struct span caps[MAX_CAPS];
	struct heap_sample *s;
	uint64_t lineno = c->lines_read;
	size_t nv = 0;
	int rc;

	rc = PC_GROW(h->samples, h->samples_cap, h->nsamp, 1);
	if (rc < 0)
		return profconv__chunk_failed(c, rc);
	s = &h->samples[h->nsamp];
	s->blocksize = 0;
	stack = find_sample(line, end, caps);
	if (stack == NULL)
		return profconv__chunk_fail(c, PROFCONV_EFORMAT, true,
		    "malformed heap sample, expected 'N: N [N: N] @ 0x...'");
	/* The stack is the rest of the line: addresses and nothing else
	 * (none for a sample whose stack was not recorded). */
	stack_end = end;
	while (stack_end > stack && (stack_end[-1] == ' ' ||
	    stack_end[-1] == '\t' || stack_end[-1] == '\r'))
		stack_end--;
	if (r->has_alloc) {
		rc = add_pair(r, lineno, caps[2], caps[3], "allocation", s->v,
		    &s->blocksize);
		nv = 2;
	}
	if (rc == 0)
		rc = add_pair(r, lineno, caps[0], caps[1], "inuse", s->v + nv,
		    &s->blocksize);
	/* Each address moved back by one byte onto its call instruction. */
	h->addrs.n = 0;
	if (rc == 0)
		rc = profconv__parse_stack(&h->addrs, stack, stack_end, 1,
		    lineno);
	if (rc == 0)
		rc = profconv__chunk_add_stack(c, h->addrs.v, h->addrs.n, 0, 0,
		    &s->stack);
	if (rc < 0)
		return c->rc < 0 ? rc : profconv__chunk_failed_at_line(c, rc);
	h->nsamp++;
	return 0;
}

/* A line of the buckets: blank, a comment, a sample, or the map. */
static int
chunk_line(void *arg, struct pc_chunk *c, const char *line, const char *end)
{
	size_t len = (size_t)(end - line);

	if (profconv__is_space_or_comment(line, len))
		return 0;
	if (profconv__maps_is_sentinel(line, len))
		return 1;
	/* Chunks end after a newline but the last one, at the input's end. */
	if (end == c->end)
		((struct heap_chunk *)c->data)->cut_line = true;
	return parse_sample(arg, c, line, len);
}

static void
chunk_renew_data(void *data)
{
	struct heap_chunk *h = data, keep = *h;

	memset(h, 0, sizeof(*h));
	h->samples = keep.samples;
	h->samples_cap = keep.samples_cap;
	h->addrs.v = keep.addrs.v;
	h->addrs.cap = keep.addrs.cap;
}

static void
chunk_free_data(void *data)
{
	struct heap_chunk *h = data;

	free(h->samples);
	free(h->addrs.v);
}

/* Add a sample's bytes in use and allocated to R's sums (gperftools
 * dumps are not sampled: they are the header's terms). */
static void
add_held(struct heap_reader *r, const int64_t *v)
{
	/* Without alloc values V is the in-use pair alone. */
	int64_t inuse = r->has_alloc ? v[3] : v[1], alloc = v[1];

	if (!r->gperftools)
		return;
	if (__builtin_add_overflow(r->held[0], inuse, &r->held[0]) ||
	    __builtin_add_overflow(r->held[1], alloc, &r->held[1]))
		r->gperftools = false;
}

/* Chunk C's samples into the model, in order. */
static int
merge_chunk(void *arg, struct pc_chunk *c)
{
	struct heap_reader *r = arg;
	const struct heap_chunk *h = c->data;
	struct pc_label label = { 0 };
	size_t i, k, maxn = 0;
	int rc;

	r->cut_line = h->cut_line;
	rc = profconv__chunk_locations(&r->b, c, &r->lmap, &r->lmap_cap);
	for (i = 0; i < c->nstacks; i++)
		if (c->stacks[i].n > maxn)
			maxn = c->stacks[i].n;
	if (rc == 0)
		rc = PC_GROW(r->ids, r->ids_cap, 0, maxn);
	label.key = r->bytes_key;
	for (i = 0; rc == 0 && i < h->nsamp; i++) {
		const struct heap_sample *s = &h->samples[i];
		const struct pc_chunk_stack *st = &c->stacks[s->stack];

		for (k = 0; k < st->n; k++)
			r->ids[k] = r->lmap[c->ids[st->off + k]];
		label.num = s->blocksize;
		add_held(r, s->v);
		rc = profconv__add_sample_raw(r->b.prof, r->ids, st->n, s->v,
		    &label, 1);
	}
	return rc;
}

/* Sample lines up to a memory-map sentinel, then the map. */
static int
read_samples(struct heap_reader *r)
{
	struct pc_chunked ck = {
		.in = r->in, .jobs = r->jobs,
		.data_size = sizeof(struct heap_chunk), .arg = r,
		.line = chunk_line, .merge = merge_chunk,
		.renew_data = chunk_renew_data, .free_data = chunk_free_data,
		.drain = r->in->drain, .prof = r->b.prof,
	};
	int rc;

	rc = profconv__chunked_read(&ck);
	r->maps = ck.sentinel;
	if (rc == 0 && ck.sentinel)
		rc = profconv__maps_parse_rest(&r->b.maps, r->in);
	return rc;
}

/*
 * gperftools writes its header's totals first, then as many buckets as
 * fit in 1 MiB (kProfileBufferSize), the memory map being kept room for:
 * a header counting more bytes than the samples hold is a dump cut, by
 * gperftools when the map follows, by a copy cut short when it does not;
 * so is a dump whose samples end mid-line with no map.  The profile read
 * is kept, with a warning the command shows.
 */
static int
check_totals(struct heap_reader *r, struct profconv_profile *prof)
{
	/* Without alloc values the header's pair is the in-use one. */
	int i = r->has_alloc ? 1 : 0;
	char msg[256];

	if (!r->gperftools)
		return 0;
	if (r->head[i] <= r->held[i] && r->b.maps.cut)
		snprintf(msg, sizeof(msg), "the memory map ends mid-line "
		    "(line %llu): the dump was cut short (addresses in "
		    "libraries past it cannot be symbolized)",
		    (unsigned long long)r->b.maps.cut_lineno);
	else if (r->head[i] <= r->held[i]) {
		if (r->maps || !r->cut_line)
			return 0;
		snprintf(msg, sizeof(msg), "sample %zu ends mid-line and no "
		    "memory map follows: the dump was cut short (its "
		    "addresses cannot be symbolized)",
		    profconv__input_samples(r->in, prof));
	} else if (r->maps)
		snprintf(msg, sizeof(msg), "the header counts %lld bytes %s, "
		    "the samples hold %lld: the dump was cut (gperftools "
		    "writes at most 1 MiB per dump)", (long long)r->head[i],
		    i ? "allocated" : "in use", (long long)r->held[i]);
	else
		snprintf(msg, sizeof(msg), "the header counts %lld bytes %s, "
		    "the samples hold %lld and no memory map follows: the "
		    "dump was cut short (its addresses cannot be symbolized)",
		    (long long)r->head[i], i ? "allocated" : "in use",
		    (long long)r->held[i]);
	return profconv__set_read_warning(prof, msg);
}

/*
 * "heap profile:" on the first line.  pprof hands a first line that is no
 * heap header to its other parsers, so "heap profile: total N" is left to
 * the Go count reader (a count profile of type "heap").
 */
static bool
sniff_heap(const unsigned char *head, size_t len, bool whole)
{
	const char *line;
	size_t n;

	(void)whole;
	profconv__head_first_line(head, len, &line, &n);
	return pc_has_prefix(line, n, HEADER_TAG) &&
	    !profconv__is_count_header(line, n);
}

static int
read_heap(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct heap_reader r = { .in = in };
	const char *line;
	size_t len;
	int rc;

	*out = NULL;
	r.jobs = profconv__jobs_count(opts != NULL ? opts->jobs : 0);
	rc = profconv__legacy_init(&r.b);
	if (rc == 0)
		rc = profconv__input_getline(in, &line, &len);
	if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "empty input");
	if (rc == 1)
		rc = parse_header(&r, line, len);
	if (rc == 0)
		rc = set_types(&r);
	if (rc == 0)
		rc = read_samples(&r);
	if (rc == 0)
		rc = profconv__legacy_finish(&r.b, out);
	if (rc == 0)
		rc = check_totals(&r, *out);
	if (rc < 0) {
		profconv_profile_free(*out);
		*out = NULL;
	}
	profconv__legacy_free(&r.b);
	free(r.lmap);
	free(r.ids);
	return rc;
}

/* What comes near a heap profile without being one this reader reads. */
static int
explain_heap(const unsigned char *head, size_t len, bool whole)
{
	const char *p = (const char *)head;

	(void)whole;
	/* GetHeapSample() without sampling writes a note, not a profile. */
	if (pc_has_prefix(p, len, "%warn"))
		return profconv__fail(PROFCONV_EFORMAT,
		    "not a profile: tcmalloc's heap sample was taken with "
		    "sampling off (set TCMALLOC_SAMPLE_PARAMETER)");
	if (pc_has_prefix(p, len, "--- heapz "))
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "Java heapz profiles are not supported");
	return 0;
}

const struct pc_reader profconv__reader_heap = {
	PROFCONV_FORMAT_HEAP, "heap", sniff_heap, read_heap, explain_heap
};
