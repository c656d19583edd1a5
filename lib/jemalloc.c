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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy.h"
#include "readers.h"

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
	uint32_t id;		/* string index of the decimal uid */
	uint32_t name;		/* string index of its name, 0 if unknown */
};

/* One count line: "t*: c1: b1 [c2: b2]" or "tN: ..." and what follows. */
struct je_counts {
	bool star;
	uint64_t uid;
	uint64_t v[4];		/* cur objects, cur bytes, accum objects, bytes */
	const char *rest, *end;
};

struct je_reader {
	struct pc_legacy b;
	struct pc_input *in;
	bool threads;		/* one sample per tN: line */
	bool has_alloc;		/* alloc_* sample types present */
	bool types_set;
	bool in_stacks;		/* an '@' line has been seen */
	double rate;		/* R; 0: no scaling */
	uint64_t *addrs;	/* the current backtrace, adjusted */
	size_t naddrs, addrs_cap;
	uint32_t *locs;		/* its location ids, once resolved */
	size_t locs_cap;
	bool locs_ready;
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
	char buf[24];
	uint32_t i;
	int rc;

	if (profconv__u64map_get(&r->thread_index, uid, &i)) {
		*out = &r->thr[i];
		return 0;
	}
	rc = PC_GROW(r->thr, r->thr_cap, r->nthr, 1);
	if (rc < 0)
		return rc;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)uid);
	rc = profconv__intern(r->b.prof, buf, &r->thr[r->nthr].id);
	if (rc == 0)
		rc = profconv__u64map_put(&r->thread_index, uid,
		    (uint32_t)r->nthr);
	if (rc < 0)
		return rc;
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

/* "@ 0x... 0x...": the backtrace, leaf first, each address minus one. */
static int
parse_stack(struct je_reader *r, const char *p, const char *end)
{
	const char *tok;
	uint64_t a;
	int rc;

	r->naddrs = 0;
	r->locs_ready = false;
	r->in_stacks = true;
	for (p++; (p = pc_skip_space(p, end)) < end; r->naddrs++) {
		tok = p;
		if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2;
		if (!profconv__parse_hex(&p, end, &a) ||
		    (p < end && *p != ' ' && *p != '\t')) {
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			return bad_text(r, "bad address", tok, p);
		}
		rc = PC_GROW(r->addrs, r->addrs_cap, r->naddrs, 1);
		if (rc < 0)
			return rc;
		/* Return addresses: point into the call instruction.  A
		 * frame jemalloc could not read prints as 0; keep it 0. */
		r->addrs[r->naddrs] = a != 0 ? a - 1 : 0;
	}
	return 0;
}

/* Location ids of the current backtrace, made when first needed so that
 * locations are numbered in the order samples use them. */
static int
resolve_locations(struct je_reader *r)
{
	size_t i;
	int rc;

	if (r->locs_ready)
		return 0;
	rc = PC_GROW(r->locs, r->locs_cap, 0, r->naddrs);
	for (i = 0; rc == 0 && i < r->naddrs; i++)
		rc = profconv__legacy_location(&r->b, r->addrs[i], &r->locs[i]);
	if (rc == 0)
		r->locs_ready = true;
	return rc;
}

/*
 * jeprof's v2 AdjustSamples for one (count, bytes) pair, truncated like
 * pprof's scaleHeapSample.  False when a result does not fit int64.
 */
static bool
unsample(uint64_t count, uint64_t bytes, double rate, int64_t *c_out,
    int64_t *b_out)
{
	double c = (double)count, b = (double)bytes, scale;

	if (count != 0 && bytes != 0 && rate > 0) {
		scale = 1 / (1 - exp(-(b / c) / rate));
		c *= scale;
		b *= scale;
	}
	if (!(c < 9223372036854775808.0) || !(b < 9223372036854775808.0))
		return false;
	*c_out = (int64_t)c;
	*b_out = (int64_t)b;
	return true;
}

/* Emit one sample from count line C for the current backtrace. */
static int
add_sample(struct je_reader *r, const struct je_counts *c)
{
	struct pc_label labels[3] = { { 0 } };
	struct je_thread *t;
	int64_t v[4];
	size_t nl = 1;
	int rc;

	rc = set_types(r);
	if (rc == 0 && !r->has_alloc && (c->v[2] != 0 || c->v[3] != 0))
		rc = add_alloc_types(r);
	if (rc == 0)
		rc = resolve_locations(r);
	if (rc < 0)
		return rc;
	if (!unsample(c->v[2], c->v[3], r->rate, &v[0], &v[1]) ||
	    !unsample(c->v[0], c->v[1], r->rate, &v[2], &v[3]))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: counts too large", lineno(r));
	labels[0].key = r->k_bytes;
	labels[0].num = c->v[0] != 0 ? (int64_t)(c->v[1] / c->v[0]) :
	    c->v[2] != 0 ? (int64_t)(c->v[3] / c->v[2]) : 0;
	if (!c->star) {
		rc = thread_entry(r, c->uid, &t);
		if (rc < 0)
			return rc;
		labels[nl].key = r->k_thread;
		labels[nl++].str = t->id;
		if (t->name != 0) {
			labels[nl].key = r->k_thread_name;
			labels[nl++].str = t->name;
		}
	}
	return profconv__add_sample_raw(r->b.prof, r->locs, r->naddrs,
	    r->has_alloc ? v : v + 2, labels, nl);
}

static int
count_line(struct je_reader *r, const char *p, const char *end)
{
	struct je_counts c;

	if (!parse_counts(p, end, &c))
		return bad_text(r, "malformed counts", p, end);
	if (!r->in_stacks) {
		/* The header: the process total, then the live threads. */
		if (c.star)
			r->has_alloc = c.v[2] != 0 || c.v[3] != 0;
		return c.star || !r->threads ? 0 : note_thread_name(r, &c);
	}
	if (c.star == r->threads)
		return 0;
	return add_sample(r, &c);
}

/* Everything after line 1: backtraces and counts, then the maps. */
static int
read_body(struct je_reader *r)
{
	const char *line, *p, *end;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		end = line + len;
		p = pc_skip_space(line, end);
		if (p == end)
			continue;
		if (*p == '@')
			rc = parse_stack(r, p, end);
		else if (*p == 't') {
			rc = count_line(r, p, end);
		} else if (profconv__maps_is_sentinel(line, len)) {
			return profconv__maps_parse_rest(&r->b.maps, r->in);
		} else {
			rc = bad_text(r, "unexpected line", p, end);
		}
		if (rc < 0)
			return rc;
	}
	return rc;
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
	free(r->addrs);
	free(r->locs);
	free(r->thr);
}

/* "heap_v2/" on the first line. */
static bool
sniff_jemalloc(const unsigned char *head, size_t len, bool whole)
{
	const char *line;
	size_t n;

	(void)whole;
	profconv__head_first_line(head, len, &line, &n);
	return pc_has_prefix(line, n, "heap_v2/");
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
	if (rc < 0) {
		profconv_profile_free(*out);
		*out = NULL;
	}
	reader_free(&r);
	return rc < 0 ? rc : 0;
}

const struct pc_reader profconv__reader_jemalloc = {
	PROFCONV_FORMAT_JEMALLOC, "jemalloc", sniff_jemalloc, read_jemalloc
};
