/* SPDX-License-Identifier: MIT */
/*
 * encode.c - the profile model into pprof protobuf bytes, and
 * profconv_profile_write().  Cut from the decoder at the model: it only
 * reads the model (through model.h's accessors, no seams) and shares
 * with the decoder nothing but the wire (wire.h); gzout.c compresses
 * what it packs.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "pprof/pprof.h"
#include "pprof/wire.h"

/*
 * The profile is packed by hand as one Profile message, fields in number
 * order and proto3 zeros left out, which are the bytes protobuf-c packs
 * for the same message (tests/unit/test_encode.c compares them).  Samples, nearly
 * all of a large profile, are sized and then packed in chunks on several
 * threads, each chunk straight into its place in one buffer; the small
 * rest is packed in one thread.  The buffer is then compressed
 * (gzout.c).
 */

/* Above this many uncompressed bytes the default level is 1, not 6:
 * about twice as fast for 5-7% more bytes (see profconv-text2pb(1)). */
#define FAST_ABOVE ((size_t)32 << 20)

/* Samples per chunk sized or packed by one task. */
#define SAMPLE_CHUNK 16384

/* --- samples --- */

/*
 * Each chunk of samples is packed into a buffer of its own, so that no
 * sample needs sizing twice: a length whose size was guessed wrong moves
 * the few bytes after it (rare: lengths of a profile's samples have the
 * same size in the main).
 */
struct sample_chunk {
	unsigned char *p;
	size_t len, cap;
};

struct sample_pack {
	const struct profconv_profile *prof;
	struct sample_chunk *chunks;
	size_t nchunks;
	size_t first;		/* the chunk task 0 packs */
};

static size_t
label_size(const struct pc_label *l)
{
	return num_size(l->key) + num_size(l->str) +
	    num_size((uint64_t)l->num) + num_size(l->unit);
}

/* The most bytes sample SM can take, its tag and length included. */
static size_t
sample_bound(const struct profconv_profile *prof, const struct pc_sample *sm)
{
	return 2 * 11 + (size_t)sm->nlocs * 5 + 12 +
	    prof->nsample_types * 10 + (size_t)sm->nlabels * (2 + 4 * 11);
}

/* Give the LEN bytes at BODY a length prefix in the ROOM bytes before
 * them (written as N bytes); the end of what was written. */
static unsigned char *
fix_len(unsigned char *body, size_t room, size_t len)
{
	size_t n = vsize(len);

	if (n != room)
		memmove(body - room + n, body, len);
	put_varint(body - room, len);
	return body - room + n + len;
}

/* Sample I at P (room enough); *GUESS: the size of its length. */
static unsigned char *
put_sample(unsigned char *p, const struct profconv_profile *prof, size_t i,
    size_t *guess)
{
	const struct pc_sample *sm = pc_sample(prof, i);
	struct pc_stack stk = pc_sample_stack(prof, sm);
	const struct pc_label *lab = pc_sample_labels(prof, sm);
	const int64_t *v = pc_sample_values(prof, i);
	unsigned char *body, *q, *start;
	size_t j;

	*p++ = TAG_LEN(PF_SAMPLE);
	body = q = p + *guess;
	if (sm->nlocs != 0) {
		*q++ = TAG_LEN(SF_LOCATION_ID);
		start = ++q;
		for (j = 0; j < sm->nlocs; j++)
			q = put_varint(q, pc_stack_at(stk, j));
		q = fix_len(start, 1, (size_t)(q - start));
	}
	if (prof->nsample_types != 0) {
		*q++ = TAG_LEN(SF_VALUE);
		start = ++q;
		for (j = 0; j < prof->nsample_types; j++)
			q = put_varint(q, (uint64_t)v[j]);
		q = fix_len(start, 1, (size_t)(q - start));
	}
	for (j = 0; j < sm->nlabels; j++) {
		*q++ = TAG_LEN(SF_LABEL);
		*q++ = (unsigned char)label_size(&lab[j]);	/* < 128 */
		q = put_num(q, 1, lab[j].key);
		q = put_num(q, 2, lab[j].str);
		q = put_num(q, 3, (uint64_t)lab[j].num);
		q = put_num(q, 4, lab[j].unit);
	}
	j = (size_t)(q - body);
	q = fix_len(body, *guess, j);
	*guess = vsize(j);
	return q;
}

static int
pack_task(void *arg, size_t c)
{
	struct sample_pack *sp = arg;
	const struct profconv_profile *prof = sp->prof;
	struct sample_chunk *ch = &sp->chunks[sp->first + c];
	size_t i = (sp->first + c) * SAMPLE_CHUNK, end = i + SAMPLE_CHUNK;
	size_t guess = 1, need;

	if (end > prof->nsamples)
		end = prof->nsamples;
	for (; i < end; i++) {
		need = sample_bound(prof, pc_sample(prof, i));
		if (ch->cap - ch->len < need &&
		    PC_GROW(ch->p, ch->cap, ch->len, need) < 0)
			return PROFCONV_ENOMEM;
		ch->len = (size_t)(put_sample(ch->p + ch->len, prof, i,
		    &guess) - ch->p);
	}
	return 0;
}

/* --- everything else: a growable buffer --- */

struct wbuf {
	unsigned char *p;
	size_t len, cap;
};

/* Room for N more bytes; the write position, or NULL. */
static unsigned char *
wb_room(struct wbuf *b, size_t n)
{
	if (PC_GROW(b->p, b->cap, b->len, n) < 0)
		return NULL;
	return b->p + b->len;
}

static void
wb_done(struct wbuf *b, unsigned char *end)
{
	b->len = (size_t)(end - b->p);
}

/*
 * Names for what only profconv's view would cut.  In a profile that
 * counts allocations the view cuts frames without symbols inside an
 * allocator library (Debian's libjemalloc is stripped), but pprof's
 * drop_frames matches function names only, so every other reader of the
 * file (go tool pprof, Pyroscope, Parca, speedscope) would show such a
 * frame at the top.  Each of those locations is written with one line
 * whose function is named as the view names the location
 * ("libjemalloc.so.2+0xa262f"), and drop_frames gets an alternative that
 * matches those names, and one for the allocation wrappers the view
 * cuts by default (profconv__wrappers_rx).  The model is not changed.
 */
struct named {
	uint32_t *fn;		/* location id -> function id written, 0 */
	char *text;		/* the new strings, each NUL-terminated */
	size_t text_len, text_cap;
	size_t nstrs;		/* after the model's strings */
	size_t nfns;		/* after the model's functions */
	uint32_t drop;		/* string index of drop_frames written */
};

static int
named_add(struct named *nm, const struct profconv_profile *prof,
    const char *s, uint32_t *idx)
{
	size_t n = strlen(s) + 1;

	if (PC_GROW(nm->text, nm->text_cap, nm->text_len, n) < 0)
		return PROFCONV_ENOMEM;
	memcpy(nm->text + nm->text_len, s, n);
	nm->text_len += n;
	*idx = (uint32_t)(prof->strings.len + nm->nstrs++);
	return 0;
}

static int
named_init(struct named *nm, const struct profconv_profile *prof)
{
	const char *drop = profconv__pstr(prof, prof->drop_frames);
	char buf[PC_UNNAMED_MAX];
	uint32_t id, str;
	int rc = 0;

	memset(nm, 0, sizeof(*nm));
	nm->drop = prof->drop_frames;
	if (!profconv__counts_allocations(prof))
		return 0;
	for (id = 1; rc == 0 && id <= prof->nlocations; id++) {
		const struct pc_location *l = pc_location(prof, id);

		if (l->nlines != 0 || l->mapping == 0 ||
		    !profconv__allocator_library(profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file)))
			continue;
		if (nm->fn == NULL) {
			nm->fn = calloc(prof->nlocations + 1, sizeof(*nm->fn));
			if (nm->fn == NULL)
				return PROFCONV_ENOMEM;
		}
		/* A name cut short matches no drop_frames alternative: the
		 * location stays without one, as in the view. */
		if (strlen(profconv__unnamed_frame(prof, id, buf,
		    sizeof(buf))) >= sizeof(buf) - 1)
			continue;
		rc = named_add(nm, prof, buf, &str);
		nm->fn[id] = (uint32_t)(prof->nfunctions + ++nm->nfns);
	}
	/* The wrappers the view cuts (unless told not to), and the names
	 * above; each written once: a file read back already has them. */
	if (rc == 0) {
		char *w = profconv__drop_with(drop, profconv__wrappers_rx, true);
		char *d = w == NULL || nm->nfns == 0 ? w :
		    profconv__drop_with(w, profconv__allocator_library_rx,
		    true);

		if (d == NULL)
			rc = PROFCONV_ENOMEM;
		else if (strcmp(d, drop) != 0)
			rc = named_add(nm, prof, d, &nm->drop);
		if (d != w)
			free(d);
		free(w);
	}
	return rc;
}

static void
named_free(struct named *nm)
{
	free(nm->fn);
	free(nm->text);
}

static int
put_vtype(struct wbuf *b, unsigned int field, const struct pc_vtype *vt)
{
	size_t body = num_size(vt->type) + num_size(vt->unit);
	unsigned char *p = wb_room(b, len_size(body));

	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_len(p, field, body);
	p = put_num(p, 1, vt->type);
	p = put_num(p, 2, vt->unit);
	wb_done(b, p);
	return 0;
}

static int
put_mapping(struct wbuf *b, const struct pc_mapping *m, uint64_t id)
{
	size_t body = num_size(id) + num_size(m->start) + num_size(m->limit) +
	    num_size(m->offset) + num_size(m->file) + num_size(m->build_id) +
	    2 * (size_t)__builtin_popcount(m->flags & 15);
	unsigned char *p = wb_room(b, len_size(body));
	unsigned int k;

	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_len(p, PF_MAPPING, body);
	p = put_num(p, 1, id);
	p = put_num(p, 2, m->start);
	p = put_num(p, 3, m->limit);
	p = put_num(p, 4, m->offset);
	p = put_num(p, 5, m->file);
	p = put_num(p, 6, m->build_id);
	/* has_functions, has_filenames, has_line_numbers, has_inline_frames
	 * are fields 7..10 and flag bits 0..3. */
	for (k = 0; k < 4; k++)
		p = put_num(p, 7 + k, (m->flags >> k) & 1);
	wb_done(b, p);
	return 0;
}

static size_t
line_size(const struct pc_line *ln)
{
	return num_size(ln->function) + num_size((uint64_t)ln->line) +
	    num_size((uint64_t)ln->column);
}

static int
put_location(struct wbuf *b, const struct profconv_profile *prof,
    uint32_t id, const struct named *nm)
{
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_line *ll = pc_location_lines(prof, l);
	struct pc_line named = { 0, 0, 0 };
	size_t body, j, nlines = l->nlines;
	unsigned char *p;

	if (nm->fn != NULL && nm->fn[id] != 0) {
		named.function = nm->fn[id];
		ll = &named;
		nlines = 1;
	}
	body = num_size(id) + num_size(l->mapping) + num_size(l->address) +
	    num_size(l->is_folded);
	for (j = 0; j < nlines; j++)
		body += len_size(line_size(&ll[j]));
	p = wb_room(b, len_size(body));
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_len(p, PF_LOCATION, body);
	p = put_num(p, 1, id);
	p = put_num(p, 2, l->mapping);
	p = put_num(p, 3, l->address);
	for (j = 0; j < nlines; j++) {
		p = put_len(p, 4, line_size(&ll[j]));
		p = put_num(p, 1, ll[j].function);
		p = put_num(p, 2, (uint64_t)ll[j].line);
		p = put_num(p, 3, (uint64_t)ll[j].column);
	}
	p = put_num(p, 5, l->is_folded);
	wb_done(b, p);
	return 0;
}

static int
put_function(struct wbuf *b, const struct pc_function *f, uint64_t id)
{
	size_t body = num_size(id) + num_size(f->name) +
	    num_size(f->system_name) + num_size(f->file) +
	    num_size((uint64_t)f->start_line);
	unsigned char *p = wb_room(b, len_size(body));

	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_len(p, PF_FUNCTION, body);
	p = put_num(p, 1, id);
	p = put_num(p, 2, f->name);
	p = put_num(p, 3, f->system_name);
	p = put_num(p, 4, f->file);
	p = put_num(p, 5, (uint64_t)f->start_line);
	wb_done(b, p);
	return 0;
}

static int
put_strings(struct wbuf *b, const struct pc_strtab *t)
{
	unsigned char *p;
	size_t i;

	for (i = 0; i < t->len; i++) {
		p = wb_room(b, len_size(t->lens[i]));
		if (p == NULL)
			return PROFCONV_ENOMEM;
		p = put_len(p, PF_STRING_TABLE, t->lens[i]);
		memcpy(p, t->strs[i], t->lens[i]);
		wb_done(b, p + t->lens[i]);
	}
	return 0;
}

/* The names' strings, after the model's. */
static int
put_named_strings(struct wbuf *b, const struct named *nm)
{
	const char *s = nm->text;
	unsigned char *p;
	size_t i, n;

	for (i = 0; i < nm->nstrs; i++, s += n + 1) {
		n = strlen(s);
		p = wb_room(b, len_size(n));
		if (p == NULL)
			return PROFCONV_ENOMEM;
		p = put_len(p, PF_STRING_TABLE, n);
		memcpy(p, s, n);
		wb_done(b, p + n);
	}
	return 0;
}

/* Fields PF_DROP_FRAMES..PF_DOC_URL, after the string table. */
static int
put_scalars(struct wbuf *b, const struct profconv_profile *prof,
    const struct named *nm)
{
	size_t i, comments = 0;
	unsigned char *p;
	int rc = 0;

	p = wb_room(b, 4 * 11);
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_num(p, PF_DROP_FRAMES, nm->drop);
	p = put_num(p, PF_KEEP_FRAMES, prof->keep_frames);
	p = put_num(p, PF_TIME_NANOS, (uint64_t)prof->time_nanos);
	p = put_num(p, PF_DURATION_NANOS,
	    (uint64_t)prof->duration_nanos);
	wb_done(b, p);
	if (prof->period_type.type != 0 || prof->period_type.unit != 0)
		rc = put_vtype(b, PF_PERIOD_TYPE, &prof->period_type);
	for (i = 0; i < prof->ncomments; i++)
		comments += vsize(prof->comments[i]);
	if (rc < 0)
		return rc;
	p = wb_room(b, 2 * 11 + len_size(comments));
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_num(p, PF_PERIOD, (uint64_t)prof->period);
	if (prof->ncomments != 0) {	/* a packed repeated int64 */
		p = put_len(p, PF_COMMENT, comments);
		for (i = 0; i < prof->ncomments; i++)
			p = put_varint(p, prof->comments[i]);
	}
	p = put_num(p, PF_DEFAULT_SAMPLE_TYPE,
	    prof->default_sample_type);
	p = put_num(p, PF_DOC_URL, prof->doc_url);
	wb_done(b, p);
	return 0;
}

/* Everything after the samples into B. */
static int
pack_rest(struct wbuf *b, const struct profconv_profile *prof)
{
	struct named nm;
	size_t id;
	int rc;

	rc = named_init(&nm, prof);
	for (id = 1; rc == 0 && id <= prof->nmappings; id++)
		rc = put_mapping(b, pc_mapping(prof, (uint32_t)id), id);
	for (id = 1; rc == 0 && id <= prof->nlocations; id++)
		rc = put_location(b, prof, (uint32_t)id, &nm);
	for (id = 1; rc == 0 && id <= prof->nfunctions; id++)
		rc = put_function(b, pc_function(prof, (uint32_t)id), id);
	for (id = 1; rc == 0 && nm.fn != NULL && id <= prof->nlocations; id++) {
		struct pc_function f = { 0, 0, 0, 0, 0 };

		if (nm.fn[id] == 0)
			continue;
		/* Its name is the string named_init() added with it. */
		f.name = f.system_name = (uint32_t)(prof->strings.len +
		    nm.fn[id] - prof->nfunctions - 1);
		rc = put_function(b, &f, nm.fn[id]);
	}
	if (rc == 0)
		rc = put_strings(b, &prof->strings);
	if (rc == 0)
		rc = put_named_strings(b, &nm);
	if (rc == 0)
		rc = put_scalars(b, prof, &nm);
	named_free(&nm);
	return rc;
}

/*
 * The stream being written: the sample types (the head), then the
 * samples, packed a round of chunks at a time and written as soon as the
 * level is known, then the rest, packed last.  A large profile is never
 * held packed whole: only the bytes of a block not yet full (CARRY) wait
 * for the next part; while the level is unknown (the stream is short so
 * far) everything packed waits in CARRY.  The samples may come in any
 * number of parts (profconv__pb_out_samples()), from profiles holding
 * nothing else: the bytes are those of one part.
 */
struct pc_pb_out {
	FILE *fp;
	int level;		/* -1 until the length decides */
	unsigned int jobs;
	enum pc_gz_backend backend;
	bool head;		/* the sample types are packed */
	struct wbuf carry;
	size_t len;		/* of the stream packed so far */
	bool written;		/* some part was */
};

/* Write CARRY, then the N pieces PIECES; keep in CARRY what does not
 * fill a block, unless LAST.  JOBS: threads to compress on. */
static int
out_write(struct pc_pb_out *st, const struct pc_piece *more, size_t nmore,
    bool last, unsigned int jobs)
{
	struct pc_piece *pieces;
	size_t n = 0, i, used = 0, len = 0, at;
	int rc = 0;

	pieces = malloc((nmore + 1) * sizeof(*pieces));
	if (pieces == NULL)
		return PROFCONV_ENOMEM;
	pieces[n++] = (struct pc_piece){ st->carry.p, st->carry.len };
	for (i = 0; i < nmore; i++)
		pieces[n++] = more[i];
	for (i = 0; i < n; i++)
		len += pieces[i].len;
	errno = 0;
	if (st->level == 0) {
		for (i = 0; rc == 0 && i < n; i++)
			if (pieces[i].len != 0 && fwrite(pieces[i].p, 1,
			    pieces[i].len, st->fp) != pieces[i].len)
				rc = profconv__write_error();
		used = len;
	} else if (!last || len != 0 || !st->written) {
		rc = profconv__gz_write_some(st->fp, pieces, n, st->level,
		    jobs, st->backend, last, &used);
	}
	if (rc == 0 && used != 0)
		st->written = true;
	/* What is left (less than a block) becomes the carry. */
	if (rc == 0 && used < len) {
		struct wbuf keep = { 0 };
		unsigned char *p = wb_room(&keep, len - used);

		if (p == NULL) {
			free(pieces);
			return PROFCONV_ENOMEM;
		}
		for (i = 0, at = 0; i < n; at += pieces[i++].len) {
			size_t from = used > at ? used - at : 0;

			if (from < pieces[i].len) {
				memcpy(p, pieces[i].p + from,
				    pieces[i].len - from);
				p += pieces[i].len - from;
			}
		}
		wb_done(&keep, p);
		free(st->carry.p);
		st->carry = keep;
	} else if (rc == 0) {
		st->carry.len = 0;
	}
	free(pieces);
	return rc;
}

/* The N packed pieces MORE follow: write them, or keep them in CARRY
 * while the level is unknown. */
static int
out_add(struct pc_pb_out *st, const struct pc_piece *more, size_t nmore,
    unsigned int jobs)
{
	size_t i;
	unsigned char *p;

	for (i = 0; i < nmore; i++)
		st->len += more[i].len;
	/* Past FAST_ABOVE the default level is known.  What waited for it
	 * is compressed on every thread the stream was given, even when
	 * the caller packed on one (a round of a read beside parsing
	 * threads, convert_stream.c): one thread alone would hold the
	 * round up. */
	if (st->level == -1 && st->len > FAST_ABOVE) {
		st->level = 1;
		jobs = st->jobs;
	}
	if (st->level != -1)
		return out_write(st, more, nmore, false, jobs);
	for (i = 0; i < nmore; i++) {
		if ((p = wb_room(&st->carry, more[i].len)) == NULL)
			return PROFCONV_ENOMEM;
		if (more[i].len != 0)
			memcpy(p, more[i].p, more[i].len);
		wb_done(&st->carry, p + more[i].len);
	}
	return 0;
}

int
profconv__pb_out_open(struct pc_pb_out **out, FILE *fp, int level,
    unsigned int jobs, enum pc_gz_backend backend)
{
	struct pc_pb_out *st;

	*out = NULL;
	if (level < -1 || level > 9)
		return profconv__fail(PROFCONV_EINVAL,
		    "compression level %d is not in 0..9", level);
	if (level != 0 && !profconv__gz_has(backend))
		return profconv__fail(PROFCONV_EINVAL,
		    "this build has no such compressor (%d)", (int)backend);
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return profconv__nomem();
	st->fp = fp;
	st->level = level;
	st->jobs = jobs;
	st->backend = backend;
	*out = st;
	return 0;
}

void
profconv__pb_out_free(struct pc_pb_out *st)
{
	if (st == NULL)
		return;
	free(st->carry.p);
	free(st);
}

static int
out_fail(int rc)
{
	return rc == PROFCONV_ENOMEM ? profconv__nomem() : rc;
}

int
profconv__pb_out_head(struct pc_pb_out *st,
    const struct profconv_profile *prof)
{
	size_t i;
	int rc = 0;

	if (st->head)
		return 0;
	st->head = true;
	for (i = 0; rc == 0 && i < prof->nsample_types; i++)
		rc = put_vtype(&st->carry, PF_SAMPLE_TYPE,
		    pc_sample_type(prof, i));
	st->len += st->carry.len;
	return out_fail(rc);
}

int
profconv__pb_out_samples(struct pc_pb_out *st,
    const struct profconv_profile *prof, unsigned int jobs)
{
	struct sample_pack sp = { .prof = prof };
	struct pc_piece *pieces = NULL;
	size_t i, round, k;
	int rc = 0;

	if (prof->nsamples == 0)
		return 0;
	sp.nchunks = (prof->nsamples + SAMPLE_CHUNK - 1) / SAMPLE_CHUNK;
	round = (size_t)profconv__jobs_count(jobs) * 4;
	sp.chunks = calloc(sp.nchunks, sizeof(*sp.chunks));
	pieces = calloc(round, sizeof(*pieces));
	if (sp.chunks == NULL || pieces == NULL)
		rc = PROFCONV_ENOMEM;
	for (sp.first = 0; rc == 0 && sp.first < sp.nchunks;
	    sp.first += k) {
		k = sp.nchunks - sp.first < round ? sp.nchunks - sp.first :
		    round;
		rc = profconv__jobs_run(jobs, k, pack_task, &sp);
		for (i = 0; rc == 0 && i < k; i++)
			pieces[i] = (struct pc_piece){
			    sp.chunks[sp.first + i].p,
			    sp.chunks[sp.first + i].len };
		if (rc == 0)
			rc = out_add(st, pieces, k, jobs);
		for (i = sp.first; i < sp.first + k; i++) {
			free(sp.chunks[i].p);
			sp.chunks[i].p = NULL;
		}
	}
	free(sp.chunks);
	free(pieces);
	return out_fail(rc);
}

int
profconv__pb_out_close(struct pc_pb_out *st,
    const struct profconv_profile *prof)
{
	struct wbuf rest = { 0 };
	struct pc_piece piece;
	int rc;

	rc = profconv__pb_out_head(st, prof);
	if (rc == 0)
		rc = pack_rest(&rest, prof);
	if (rc == 0) {
		st->len += rest.len;
		if (st->level == -1)
			st->level = st->len > FAST_ABOVE ? 1 : 6;
		piece = (struct pc_piece){ rest.p, rest.len };
		rc = out_write(st, &piece, 1, true, st->jobs);
	}
	free(rest.p);
	if (rc == 0 && fflush(st->fp) != 0)
		rc = profconv__write_error();
	return out_fail(rc);
}

int
profconv__pb_write(const struct profconv_profile *prof, FILE *fp,
    int level, unsigned int jobs, enum pc_gz_backend backend)
{
	struct pc_pb_out *st;
	int rc;

	if ((rc = profconv__need_stacks(prof, "writing")) < 0)
		return rc;
	rc = profconv__pb_out_open(&st, fp, level, jobs, backend);
	if (rc == 0)
		rc = profconv__pb_out_head(st, prof);
	if (rc == 0)
		rc = profconv__pb_out_samples(st, prof, jobs);
	if (rc == 0)
		rc = profconv__pb_out_close(st, prof);
	profconv__pb_out_free(st);
	return rc;
}

int
profconv_profile_write(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_write_options *opts)
{
	struct profconv_write_options o;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_write)) < 0)
		return rc;
	return profconv__pb_write(prof, fp, o.level, o.jobs, PC_GZ_BEST);
}
