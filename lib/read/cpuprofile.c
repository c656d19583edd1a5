/* SPDX-License-Identifier: MIT */
/*
 * cpuprofile.c - reader of gperftools' legacy binary CPU profile (CPUPROFILE),
 * with google/pprof's parseCPU semantics (pprof-reference.md section 2.2).
 *
 * The file is a sequence of 32- or 64-bit words in the writer's byte
 * order: a five-word header, records "count, nstk, addr[nstk]", the end
 * marker record "0, 1, 0", and then the process's memory map as text.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read/builder.h"
#include "read/readers.h"

/* How the words of one file are encoded. */
struct cpu_words {
	const unsigned char *data;
	size_t len;
	size_t width;			/* 4 or 8 bytes */
	bool big;			/* big endian */
};

/* One record: its adjusted addresses are ADDRS[OFF .. OFF+N). */
struct cpu_record {
	size_t off, n;
	uint64_t count;
};

/* Every stack of the file, kept flat until the heuristics have run. */
struct cpu_stacks {
	uint64_t *addrs;
	size_t naddrs, addrs_cap;
	struct cpu_record *recs;
	size_t nrecs, recs_cap;
};

/* The word at byte offset POS; the caller checked that it is there. */
static uint64_t
word_at(const struct cpu_words *w, size_t pos)
{
	const unsigned char *p = w->data + pos;
	uint64_t v = 0;
	size_t k;

	for (k = 0; k < w->width; k++)
		v |= (uint64_t)p[w->big ? w->width - 1 - k : k] << (8 * k);
	return v;
}

/*
 * Find the word size and byte order the way pprof does: the first of
 * 32-bit LE, 32-bit BE, 64-bit LE, 64-bit BE whose header reads
 * 0, 3, 0 or 1, a nonzero period, 0.  *JAVA_OUT tells the third word.
 * With ZERO_PERIOD, the header must read a period of 0 instead.
 */
static bool
header_words(struct cpu_words *w, bool *java_out, bool zero_period)
{
	static const struct { size_t width; bool big; } kinds[] = {
		{ 4, false }, { 4, true }, { 8, false }, { 8, true },
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(kinds); i++) {
		w->width = kinds[i].width;
		w->big = kinds[i].big;
		if (w->len < 5 * w->width)
			continue;
		if (word_at(w, 0) == 0 && word_at(w, w->width) == 3 &&
		    word_at(w, 2 * w->width) <= 1 &&
		    (word_at(w, 3 * w->width) == 0) == zero_period &&
		    word_at(w, 4 * w->width) == 0) {
			*java_out = word_at(w, 2 * w->width) == 1;
			return true;
		}
	}
	return false;
}

static void
stacks_free(struct cpu_stacks *s)
{
	free(s->addrs);
	free(s->recs);
	memset(s, 0, sizeof(*s));
}

/*
 * Append the record whose NSTK addresses start at byte POS.  Every frame
 * but the leaf is a return address: step back into the call instruction.
 * The leaf comes from the signal context and is exact.
 */
static int
add_record(struct cpu_stacks *s, const struct cpu_words *w, size_t pos,
    uint64_t count, size_t nstk)
{
	struct cpu_record *r;
	size_t i;
	int rc;

	rc = PC_GROW(s->addrs, s->addrs_cap, s->naddrs, nstk);
	if (rc == 0)
		rc = PC_GROW(s->recs, s->recs_cap, s->nrecs, 1);
	if (rc < 0)
		return rc;
	r = &s->recs[s->nrecs++];
	r->off = s->naddrs;
	r->n = nstk;
	r->count = count;
	for (i = 0; i < nstk; i++)
		s->addrs[s->naddrs++] = word_at(w, pos + i * w->width) -
		    (i > 0 ? 1 : 0);
	return 0;
}

/*
 * Read the records after the header into S.  *POS_OUT gets the offset
 * after the end marker (the memory map), or the length when the data
 * ends on a record boundary without one.
 */
static int
read_records(struct cpu_stacks *s, const struct cpu_words *w,
    size_t *pos_out)
{
	size_t pos = 5 * w->width, start, left, nstk;
	uint64_t count, n;
	int rc;

	while (pos < w->len) {
		start = pos;
		left = w->len - pos;
		if (left < 2 * w->width)
			return profconv__fail(PROFCONV_EFORMAT,
			    "offset %zu: truncated record: %zu bytes left, "
			    "a record needs at least %zu", start, left,
			    2 * w->width);
		count = word_at(w, pos);
		n = word_at(w, pos + w->width);
		pos += 2 * w->width;
		left = w->len - pos;
		if (n > left / w->width)
			return profconv__fail(PROFCONV_EFORMAT,
			    "offset %zu: truncated record: stack of %llu "
			    "addresses, only %zu bytes left", start,
			    (unsigned long long)n, left);
		nstk = (size_t)n;
		if (count == 0 && nstk == 1 && word_at(w, pos) == 0) {
			*pos_out = pos + w->width;
			return 0;
		}
		rc = add_record(s, w, pos, count, nstk);
		if (rc < 0)
			return rc;
		pos += nstk * w->width;
	}
	*pos_out = pos;
	return 0;
}

/* Remove frame 1 of record R. */
static void
drop_frame1(struct cpu_stacks *s, struct cpu_record *r)
{
	uint64_t *a = &s->addrs[r->off];

	memmove(&a[1], &a[2], (r->n - 2) * sizeof(*a));
	r->n--;
}

/*
 * The frame above the leaf that almost every record shares, if any.
 * pprof counts frame 1 of each record with two or more frames and takes
 * an address seen in at least nrecs - nrecs/32 records.  That is more
 * than half of them, so only a majority can qualify: a majority vote
 * finds the one candidate without a hash table.
 */
static bool
common_frame1(const struct cpu_stacks *s, uint64_t *out)
{
	size_t i, votes = 0, seen = 0;
	uint64_t cand = 0;

	for (i = 0; i < s->nrecs; i++) {
		const struct cpu_record *r = &s->recs[i];
		uint64_t a;

		if (r->n < 2)
			continue;
		a = s->addrs[r->off + 1];
		if (votes == 0)
			cand = a;
		if (a == cand)
			votes++;
		else
			votes--;
	}
	if (votes == 0)
		return false;
	for (i = 0; i < s->nrecs; i++)
		if (s->recs[i].n >= 2 && s->addrs[s->recs[i].off + 1] == cand)
			seen++;
	*out = cand;
	return seen >= s->nrecs - s->nrecs / 32;
}

/*
 * Strip the frame the signal handler pushes (pprof's heuristic): when
 * nearly all records share frame 1, it is the handler, not the program.
 * Up to two such frames are removed.
 */
static void
strip_signal_frames(struct cpu_stacks *s)
{
	uint64_t a;
	size_t i;
	int iter;

	for (iter = 0; iter < 2; iter++) {
		if (!common_frame1(s, &a))
			continue;
		for (i = 0; i < s->nrecs; i++)
			if (s->recs[i].n >= 2 &&
			    s->addrs[s->recs[i].off + 1] == a)
				drop_frame1(s, &s->recs[i]);
	}
}

/*
 * pprof's cleanupDuplicateLocations: the unwinder may report the leaf
 * again as frame 1, now adjusted by -1; drop that copy.
 */
static void
drop_duplicate_leaf(struct cpu_stacks *s)
{
	size_t i;

	for (i = 0; i < s->nrecs; i++) {
		struct cpu_record *r = &s->recs[i];
		const uint64_t *a = &s->addrs[r->off];

		if (r->n > 1 && a[0] == a[1] + 1)
			drop_frame1(s, r);
	}
}

/*
 * Feed the stacks to the builder.  pprof numbers locations (in
 * ParseMemoryMap) before it drops duplicate leaves, so a location used
 * only by a dropped duplicate still exists; number them first to match.
 */
static int
add_samples(struct pc_legacy *b, struct cpu_stacks *s, uint64_t period)
{
	int64_t values[2];
	uint32_t id;
	size_t i, j;
	int rc = 0;

	for (i = 0; rc == 0 && i < s->nrecs; i++)
		for (j = 0; rc == 0 && j < s->recs[i].n; j++)
			rc = profconv__legacy_location(b,
			    s->addrs[s->recs[i].off + j], &id);
	drop_duplicate_leaf(s);
	for (i = 0; rc == 0 && i < s->nrecs; i++) {
		const struct cpu_record *r = &s->recs[i];

		/* Go's int64 arithmetic wraps; do the same without UB. */
		values[0] = (int64_t)r->count;
		values[1] = (int64_t)(r->count * period);
		rc = profconv__legacy_add_sample(b, &s->addrs[r->off], r->n,
		    values, NULL, 0);
	}
	return rc;
}

/* The text after the end marker: a procfs maps listing, line by line. */
static int
parse_maps_text(struct pc_maps *maps, const unsigned char *data, size_t len,
    size_t base)
{
	const char *p = (const char *)data, *end = p + len, *nl;
	enum pc_map_line kind;
	size_t n;
	int rc;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		if (n != 0 && p[n - 1] == '\r')
			n--;
		rc = profconv__maps_parse_line(maps, p, n, &kind);
		if (rc == PROFCONV_EFORMAT) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s", profconv_errmsg());
			return profconv__fail(rc, "offset %zu: %s", base +
			    (size_t)(p - (const char *)data), msg);
		}
		if (rc < 0)
			return rc;
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

/* Sample types, period and stacks of a C++ profile read into B. */
static int
build(struct pc_legacy *b, const struct cpu_words *w, struct cpu_stacks *s)
{
	uint64_t period = word_at(w, 3 * w->width) * 1000;	/* us -> ns */
	size_t pos = 0;
	int rc;

	rc = profconv_profile_add_sample_type(b->prof, "samples", "count");
	if (rc == 0)
		rc = profconv_profile_add_sample_type(b->prof, "cpu",
		    "nanoseconds");
	if (rc == 0)
		rc = profconv_profile_set_period(b->prof, "cpu", "nanoseconds",
		    (int64_t)period);
	if (rc == 0)
		rc = read_records(s, w, &pos);
	if (rc < 0)
		return rc;
	strip_signal_frames(s);
	rc = add_samples(b, s, period);
	if (rc == 0)
		rc = parse_maps_text(&b->maps, w->data + pos, w->len - pos, pos);
	return rc;
}

/* The binary header, in any of the four word layouts. */
static bool
sniff_cpu(const unsigned char *head, size_t len, bool whole)
{
	struct cpu_words w = { .data = head, .len = len };
	bool java;

	(void)whole;
	return header_words(&w, &java, false);
}

static int
read_cpu(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct cpu_stacks stacks = { 0 };
	struct cpu_words w = { 0 };
	struct pc_legacy b;
	bool java;
	int rc;

	(void)opts;
	*out = NULL;
	rc = profconv__input_slurp(in, &w.data, &w.len);
	if (rc < 0)
		return rc;
	if (!header_words(&w, &java, false))
		return profconv__fail(PROFCONV_EFORMAT,
		    "offset 0: not a legacy CPU profile header");
	if (java)
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "Java CPU profiles are not supported");
	rc = profconv__legacy_init(&b);
	if (rc < 0)
		return rc;
	rc = build(&b, &w, &stacks);
	if (rc == 0)
		rc = profconv__legacy_finish(&b, out);
	stacks_free(&stacks);
	profconv__legacy_free(&b);
	return rc;
}

/* A header whose sampling period is 0: no profiler writes one, and the
 * sniff does not take it, but it is a CPU profile's all the same. */
static int
explain_cpu(const unsigned char *head, size_t len, bool whole)
{
	struct cpu_words w = { .data = head, .len = len };
	bool java;

	(void)whole;
	if (!header_words(&w, &java, true))
		return 0;
	return profconv__fail(PROFCONV_EFORMAT,
	    "gperftools CPU profile with a sampling period of 0");
}

const struct pc_reader profconv__reader_cpu = {
	PROFCONV_FORMAT_CPU, "cpu", sniff_cpu, read_cpu, explain_cpu
};
