/* SPDX-License-Identifier: MIT */
/*
 * heap.c - reader of the "heap profile:" text family: gperftools heap
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

#include "legacy.h"
#include "readers.h"

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
	bool v2;			/* Poisson unsampling at RATE */
	bool has_alloc;		/* alloc pair before the inuse pair */
	int64_t rate;
	uint32_t bytes_key;
	struct pc_addrs addrs;
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

/* One "count: bytes" pair; its block size goes to *BLOCKSIZE if counted. */
static int
add_pair(struct heap_reader *r, struct span cs, struct span ss,
    const char *what, int64_t *out, int64_t *blocksize)
{
	const char *p;
	int64_t count, size;

	p = cs.p;
	if (!profconv__parse_i64(&p, cs.p + cs.n, &count))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: %s count '%.*s' out of range",
		    (unsigned long long)r->in->lineno, what,
		    (int)(cs.n < 32 ? cs.n : 32), cs.p);
	p = ss.p;
	if (!profconv__parse_i64(&p, ss.p + ss.n, &size))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: %s bytes '%.*s' out of range",
		    (unsigned long long)r->in->lineno, what,
		    (int)(ss.n < 32 ? ss.n : 32), ss.p);
	if (count == 0 && size != 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: %s count was 0 but %s bytes was %lld",
		    (unsigned long long)r->in->lineno, what, what,
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

/* One sample line: "inuse: bytes [alloc: bytes] @ 0x... 0x...". */
static int
parse_sample(struct heap_reader *r, const char *line, size_t len)
{
	const char *end = line + len, *stack, *stack_end;
	struct span caps[MAX_CAPS];
	struct pc_label label = { 0 };
	int64_t values[4], blocksize = 0;
	size_t nv = 0;
	int rc;

	stack = find_sample(line, end, caps);
	if (stack == NULL)
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: malformed heap sample, expected "
		    "'N: N [N: N] @ 0x...'", (unsigned long long)r->in->lineno);
	/* The stack is the rest of the line: addresses and nothing else
	 * (none for a sample whose stack was not recorded). */
	stack_end = end;
	while (stack_end > stack && (stack_end[-1] == ' ' ||
	    stack_end[-1] == '\t' || stack_end[-1] == '\r'))
		stack_end--;
	rc = 0;
	if (r->has_alloc) {
		rc = add_pair(r, caps[2], caps[3], "allocation", values,
		    &blocksize);
		nv = 2;
	}
	if (rc == 0)
		rc = add_pair(r, caps[0], caps[1], "inuse", values + nv,
		    &blocksize);
	/* Each address moved back by one byte onto its call instruction. */
	r->addrs.n = 0;
	if (rc == 0)
		rc = profconv__parse_stack(&r->addrs, stack, stack_end, 1,
		    r->in->lineno);
	if (rc < 0)
		return rc;
	label.key = r->bytes_key;
	label.num = blocksize;
	return profconv__legacy_add_sample(&r->b, r->addrs.v, r->addrs.n,
	    values, &label, 1);
}

/* Sample lines up to a memory-map sentinel, then the map. */
static int
read_samples(struct heap_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		if (profconv__is_space_or_comment(line, len))
			continue;
		if (profconv__maps_is_sentinel(line, len))
			return profconv__maps_parse_rest(&r->b.maps, r->in);
		rc = parse_sample(r, line, len);
		if (rc < 0)
			return rc;
	}
	return rc;
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

	(void)opts;
	*out = NULL;
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
	profconv__legacy_free(&r.b);
	free(r.addrs.v);
	return rc;
}

const struct pc_reader profconv__reader_heap = {
	PROFCONV_FORMAT_HEAP, "heap", sniff_heap, read_heap
};
