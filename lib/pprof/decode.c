/* SPDX-License-Identifier: MIT */
/* pb.c - the pprof protobuf codec: wire bytes <-> the profile model. */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "pprof/pprof.h"
#include "read/readers.h"

/* --- decoding ---------------------------------------------------------------- */

/*
 * The wire bytes are read by hand, straight into the model: no message
 * tree in between (protobuf-c's took 60 times the input's size and most
 * of the time).  As protobuf-c did, the decoder takes fields in any
 * order, repeated messages split over several Profile messages, packed
 * and unpacked repeated numbers, and skips fields it does not know;
 * a known field with the wrong wire type, a varint over 10 bytes or a
 * length past its message's end make the input invalid.
 *
 * A first walk over the Profile's fields finds the pieces: the strings,
 * the small tables (kept as spans, decoded in the order their references
 * need: strings, header, mappings, functions, locations) and the samples,
 * counted.  A second walk decodes the samples.
 */

enum { WT_VARINT = 0, WT_64BIT = 1, WT_LEN = 2, WT_32BIT = 5 };

/* A wire error: the caller turns it into the input's message. */
#define PB_WIRE 1

struct rd {
	const unsigned char *p, *end;
};

struct field {
	uint32_t num;
	int wt;
	uint64_t v;			/* a varint's value */
	const unsigned char *p;		/* a length-delimited field's bytes */
	size_t len;
};

/* A varint, at most 10 bytes and bits past 64 dropped, as protobuf-c. */
static inline bool
rd_varint(struct rd *r, uint64_t *v)
{
	const unsigned char *p = r->p;
	uint64_t x = 0;
	int shift;

	/* Ids and small values: one or two bytes. */
	if (r->end - p >= 2 && (p[0] < 0x80 || p[1] < 0x80)) {
		if (p[0] < 0x80) {
			*v = p[0];
			r->p = p + 1;
		} else {
			*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
			r->p = p + 2;
		}
		return true;
	}
	for (shift = 0; shift < 70 && p < r->end; shift += 7) {
		x |= shift < 64 ? (uint64_t)(*p & 0x7f) << shift : 0;
		if ((*p++ & 0x80) == 0) {
			*v = x;
			r->p = p;
			return true;
		}
	}
	return false;
}

/* The next field: 1, 0 at the end, -1 when it is not well formed. */
static inline int
rd_field(struct rd *r, struct field *f)
{
	uint64_t tag;

	if (r->p >= r->end)
		return 0;
	if (!rd_varint(r, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
		return -1;
	f->num = (uint32_t)(tag >> 3);
	f->wt = (int)(tag & 7);
	f->v = 0;
	f->p = NULL;
	f->len = 0;
	switch (f->wt) {
	case WT_VARINT:
		return rd_varint(r, &f->v) ? 1 : -1;
	case WT_64BIT:
	case WT_32BIT:
		f->len = f->wt == WT_64BIT ? 8 : 4;
		break;
	case WT_LEN:
		if (!rd_varint(r, &f->v))
			return -1;
		f->len = (size_t)f->v;
		if (f->v > (uint64_t)(r->end - r->p))
			return -1;
		break;
	default:
		return -1;	/* groups, types 6 and 7 */
	}
	if (f->len > (size_t)(r->end - r->p))
		return -1;
	f->p = r->p;
	r->p += f->len;
	return 1;
}

/*
 * Check field F of a message has wire type WT when its number is one the
 * message has (KNOWN), i.e. whether to use it: 1 yes, 0 skip it (a field
 * the message does not have), -1 wrong type.
 */
static inline int
want(const struct field *f, bool known, int wt)
{
	if (!known)
		return 0;
	return f->wt == wt ? 1 : -1;
}

/* A message of only varint fields 1..N into V[0..N) (zeros when absent;
 * the last occurrence wins).  0, or -1 when not well formed. */
static int
rd_varints(const unsigned char *p, size_t len, uint64_t *v, unsigned int n)
{
	struct rd r = { p, p + len };
	struct field f;
	int k;

	while ((k = rd_field(&r, &f)) > 0) {
		k = want(&f, f.num <= n, WT_VARINT);
		if (k < 0)
			return -1;
		if (k > 0)
			v[f.num - 1] = f.v;
	}
	return k;
}

struct span {
	const unsigned char *p;
	size_t len;
};

struct spans {
	struct span *s;
	size_t n, cap;
};

static int
spans_add(struct spans *s, const struct field *f)
{
	if (PC_GROW(s->s, s->cap, s->n, 1) < 0)
		return PROFCONV_ENOMEM;
	s->s[s->n++] = (struct span){ f->p, f->len };
	return 0;
}

/*
 * Wire ids to model ids.  Most producers number objects 1..n in order;
 * then the id is the model id and no table is needed.
 */
struct idmap {
	struct pc_u64map map;
	bool dense;
	size_t n;
};

struct decoder {
	const unsigned char *data;
	size_t len;
	uint64_t budget;		/* bytes of samples' arrays; 0: none */
	struct profconv_profile *prof;
	/* the first walk's findings */
	struct spans strings, sample_types, mappings, functions, locations,
	    period_type;
	int64_t *comments;
	size_t ncomments, comments_cap;
	uint64_t scalars[16];		/* fields 7..15 by number */
	size_t sample_count, sample_bytes;
	size_t *chunk_at;		/* offset of every DECODE_CHUNK'th sample */
	size_t nchunks, chunk_cap;
	uint32_t *str;			/* string index -> model index */
	struct idmap mapping_ids, function_ids, location_ids;
	unsigned int jobs;
};

/* Samples per chunk decoded by one task, and between checks of the bound
 * on memory. */
#define DECODE_CHUNK 4096

static bool
id_lookup(const struct idmap *m, uint64_t id, uint32_t *out)
{
	if (!m->dense)
		return profconv__u64map_get(&m->map, id, out);
	if (id == 0 || id > m->n)
		return false;
	*out = (uint32_t)id;
	return true;
}

/* Map string index IDX of field WHAT into the model. */
static int
dstr(const struct decoder *d, int64_t idx, const char *what, uint32_t *out)
{
	if (idx < 0 || (uint64_t)idx >= d->strings.n)
		return profconv__fail(PROFCONV_EFORMAT,
		    "%s: string index %lld out of range (string table has "
		    "%zu entries)", what, (long long)idx, d->strings.n);
	*out = d->str[idx];
	return 0;
}

/* Add the values of repeated int64 field F (packed or not) to *V. */
static int
add_numbers(const struct field *f, int64_t **v, size_t *n, size_t *cap)
{
	struct rd r = { f->p, f->p + f->len };
	uint64_t x;

	if (f->wt == WT_VARINT) {
		if (PC_GROW(*v, *cap, *n, 1) < 0)
			return PROFCONV_ENOMEM;
		(*v)[(*n)++] = (int64_t)f->v;
		return 0;
	}
	if (f->wt != WT_LEN)
		return PB_WIRE;
	/* At most one number per byte. */
	if (*cap - *n < f->len && PC_GROW(*v, *cap, *n, f->len) < 0)
		return PROFCONV_ENOMEM;
	while (r.p < r.end) {
		if (!rd_varint(&r, &x))
			return PB_WIRE;
		(*v)[(*n)++] = (int64_t)x;
	}
	return 0;
}

/* The first walk: where everything is.  0, PB_WIRE or an error. */
static int
find_fields(struct decoder *d)
{
	struct rd r = { d->data, d->data + d->len };
	const unsigned char *at = r.p;
	struct field f;
	struct spans *sp;
	int k, rc = 0;

	for (; rc == 0 && (k = rd_field(&r, &f)) > 0; at = r.p) {
		sp = NULL;
		switch (f.num) {
		case 1: sp = &d->sample_types; break;
		case 3: sp = &d->mappings; break;
		case 4: sp = &d->locations; break;
		case 5: sp = &d->functions; break;
		case 6: sp = &d->strings; break;
		case 11: sp = &d->period_type; break;
		case 2:
			if (f.wt != WT_LEN)
				return PB_WIRE;
			if (d->sample_count % DECODE_CHUNK == 0) {
				if (PC_GROW(d->chunk_at, d->chunk_cap,
				    d->nchunks, 1) < 0)
					return PROFCONV_ENOMEM;
				d->chunk_at[d->nchunks++] =
				    (size_t)(at - d->data);
			}
			d->sample_count++;
			d->sample_bytes += f.len;
			continue;
		case 13:
			rc = add_numbers(&f, &d->comments, &d->ncomments,
			    &d->comments_cap);
			continue;
		default:
			if (f.num > 15)
				continue;	/* unknown: skipped */
			if (f.wt != WT_VARINT)
				return PB_WIRE;
			d->scalars[f.num] = f.v;
			continue;
		}
		if (f.wt != WT_LEN)
			return PB_WIRE;
		rc = spans_add(sp, &f);
	}
	if (rc != 0)
		return rc;
	return k < 0 ? PB_WIRE : 0;
}

static int
decode_strings(struct decoder *d)
{
	size_t i;
	int rc;

	if (d->strings.n == 0 || d->strings.s[0].len != 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    "string_table[0] must be \"\"");
	d->str = malloc(d->strings.n * sizeof(*d->str));
	if (d->str == NULL)
		return profconv__nomem();
	/* Full lengths, NULs included; the table repairs what is not
	 * UTF-8 and counts it. */
	for (i = 0; i < d->strings.n; i++) {
		const struct span *s = &d->strings.s[i];

		rc = profconv__strtab_intern(&d->prof->strings,
		    s->len != 0 ? (const char *)s->p : "", s->len,
		    &d->str[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ValueType V (raw type and unit) into OUT. */
static int
decode_vtype(const struct decoder *d, const uint64_t *v, const char *what,
    struct pc_vtype *out)
{
	int rc;

	rc = dstr(d, (int64_t)v[0], what, &out->type);
	if (rc == 0)
		rc = dstr(d, (int64_t)v[1], what, &out->unit);
	return rc;
}

static int
decode_header(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = {
		.sample_types = d->sample_types.n, .comments = d->ncomments,
	};
	const uint64_t *sc = d->scalars;
	struct pc_vtype vt;
	uint64_t v[2];
	uint32_t str = 0;
	size_t i;
	int rc;

	rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->sample_types.n; i++) {
		v[0] = v[1] = 0;
		if (rd_varints(d->sample_types.s[i].p,
		    d->sample_types.s[i].len, v, 2) < 0)
			return PB_WIRE;
		rc = decode_vtype(d, v, "sample_type", &vt);
		if (rc == 0)
			rc = profconv__add_sample_type_raw(prof, &vt);
	}
	/* A message field given twice is the two merged. */
	v[0] = v[1] = 0;
	for (i = 0; rc == 0 && i < d->period_type.n; i++)
		if (rd_varints(d->period_type.s[i].p, d->period_type.s[i].len,
		    v, 2) < 0)
			return PB_WIRE;
	if (rc == 0)
		rc = decode_vtype(d, v, "period_type", &prof->period_type);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[7], "drop_frames", &prof->drop_frames);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[8], "keep_frames", &prof->keep_frames);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[14], "default_sample_type",
		    &prof->default_sample_type);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[15], "doc_url", &prof->doc_url);
	for (i = 0; rc == 0 && i < d->ncomments; i++) {
		rc = dstr(d, d->comments[i], "comment", &str);
		if (rc == 0)
			rc = profconv__add_comment_raw(prof, str);
	}
	prof->period = (int64_t)sc[12];
	prof->time_nanos = (int64_t)sc[9];
	prof->duration_nanos = (int64_t)sc[10];
	return rc;
}

/* Record that object WHAT with wire id ID is model id N; ids must be
 * nonzero and unique (dense maps already are). */
static int
claim_id(struct idmap *m, uint64_t id, uint32_t n, const char *what)
{
	uint32_t old;

	if (m->dense)
		return 0;
	if (id == 0)
		return profconv__fail(PROFCONV_EFORMAT, "%s[%u] has id 0",
		    what, n - 1);
	if (profconv__u64map_get(&m->map, id, &old))
		return profconv__fail(PROFCONV_EFORMAT,
		    "duplicate %s id %llu (%s[%u] and [%u])", what,
		    (unsigned long long)id, what, old - 1, n - 1);
	return profconv__u64map_put(&m->map, id, n);
}

/*
 * Are the ids of the N objects in SP exactly 1..N, in order?  Each
 * object's id is field 1, a varint; a message whose first field is not
 * its id (legal, rare) makes the map a table.
 */
static int
ids_dense(const struct spans *sp, struct idmap *out)
{
	size_t i;
	uint64_t v[1];

	out->n = sp->n;
	out->dense = true;
	for (i = 0; i < sp->n && out->dense; i++) {
		v[0] = 0;
		if (rd_varints(sp->s[i].p, sp->s[i].len, v, 1) < 0)
			return PB_WIRE;
		out->dense = v[0] == i + 1;
	}
	return 0;
}

static int
decode_mappings(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = { .mappings = d->mappings.n };
	struct pc_mapping mm, *m = &mm;
	uint64_t v[10];
	size_t i;
	int rc;

	rc = ids_dense(&d->mappings, &d->mapping_ids);
	if (rc == 0)
		rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->mappings.n; i++) {
		memset(v, 0, sizeof(v));
		if (rd_varints(d->mappings.s[i].p, d->mappings.s[i].len, v,
		    10) < 0)
			return PB_WIRE;
		memset(m, 0, sizeof(*m));
		m->start = v[1];
		m->limit = v[2];
		m->offset = v[3];
		m->flags = (v[6] != 0 ? PC_MAP_HAS_FUNCTIONS : 0) |
		    (v[7] != 0 ? PC_MAP_HAS_FILENAMES : 0) |
		    (v[8] != 0 ? PC_MAP_HAS_LINE_NUMBERS : 0) |
		    (v[9] != 0 ? PC_MAP_HAS_INLINE_FRAMES : 0);
		rc = claim_id(&d->mapping_ids, v[0], (uint32_t)i + 1,
		    "mapping");
		if (rc == 0)
			rc = dstr(d, (int64_t)v[4], "mapping filename",
			    &m->file);
		if (rc == 0)
			rc = dstr(d, (int64_t)v[5], "mapping build_id",
			    &m->build_id);
		if (rc == 0)
			rc = profconv__add_mapping_raw(prof, m, NULL);
	}
	return rc;
}

static int
decode_functions(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = { .functions = d->functions.n };
	struct pc_function ff, *f = &ff;
	uint64_t v[5];
	size_t i;
	int rc;

	rc = ids_dense(&d->functions, &d->function_ids);
	if (rc == 0)
		rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->functions.n; i++) {
		memset(v, 0, sizeof(v));
		if (rd_varints(d->functions.s[i].p, d->functions.s[i].len, v,
		    5) < 0)
			return PB_WIRE;
		f->start_line = (int64_t)v[4];
		rc = claim_id(&d->function_ids, v[0], (uint32_t)i + 1,
		    "function");
		if (rc == 0)
			rc = dstr(d, (int64_t)v[1], "function name", &f->name);
		if (rc == 0)
			rc = dstr(d, (int64_t)v[2], "function system_name",
			    &f->system_name);
		if (rc == 0)
			rc = dstr(d, (int64_t)v[3], "function filename",
			    &f->file);
		if (rc == 0)
			rc = profconv__add_function_raw(prof, f, NULL);
	}
	return rc;
}

/* Location S: its fields into V (id, mapping_id, address, -, is_folded)
 * and its lines into *LINES (function ids still wire ids). */
static int
read_location(const struct span *s, uint64_t *v, uint64_t **fids,
    struct pc_line **lines, size_t *n, size_t *cap, size_t *fcap)
{
	struct rd r = { s->p, s->p + s->len };
	struct field f;
	uint64_t lv[3];
	int k;

	*n = 0;
	while ((k = rd_field(&r, &f)) > 0) {
		k = want(&f, f.num <= 5, f.num == 4 ? WT_LEN : WT_VARINT);
		if (k < 0)
			return PB_WIRE;
		if (k == 0)
			continue;
		if (f.num != 4) {
			v[f.num - 1] = f.v;
			continue;
		}
		lv[0] = lv[1] = lv[2] = 0;
		if (rd_varints(f.p, f.len, lv, 3) < 0)
			return PB_WIRE;
		if (PC_GROW(*lines, *cap, *n, 1) < 0 ||
		    PC_GROW(*fids, *fcap, *n, 1) < 0)
			return PROFCONV_ENOMEM;
		(*fids)[*n] = lv[0];
		(*lines)[*n].line = (int64_t)lv[1];
		(*lines)[*n].column = (int64_t)lv[2];
		(*n)++;
	}
	return k < 0 ? PB_WIRE : 0;
}

/* Locations come after functions and mappings: their ids must resolve. */
static int
decode_locations(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = { .locations = d->locations.n };
	struct pc_line *lines = NULL;
	uint64_t *fids = NULL, v[5];
	size_t i, j, nl = 0, cap = 0, fcap = 0;
	uint32_t mid;
	int rc;

	rc = ids_dense(&d->locations, &d->location_ids);
	if (rc == 0)
		rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->locations.n; i++) {
		memset(v, 0, sizeof(v));
		rc = read_location(&d->locations.s[i], v, &fids, &lines, &nl,
		    &cap, &fcap);
		if (rc == 0)
			rc = claim_id(&d->location_ids, v[0], (uint32_t)i + 1,
			    "location");
		mid = 0;
		if (rc == 0 && v[1] != 0 &&
		    !id_lookup(&d->mapping_ids, v[1], &mid))
			rc = profconv__fail(PROFCONV_EFORMAT,
			    "location %llu refers to unknown mapping %llu",
			    (unsigned long long)v[0], (unsigned long long)v[1]);
		for (j = 0; rc == 0 && j < nl; j++)
			if (!id_lookup(&d->function_ids, fids[j],
			    &lines[j].function))
				rc = profconv__fail(PROFCONV_EFORMAT,
				    "location %llu refers to unknown "
				    "function %llu", (unsigned long long)v[0],
				    (unsigned long long)fids[j]);
		if (rc == 0)
			rc = profconv__add_location_raw(prof, mid, v[2],
			    lines, nl, v[4] != 0, NULL);
	}
	free(lines);
	free(fids);
	return rc;
}

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
		case 1:
			rc = add_locations(d, b, &f, si);
			break;
		case 2:
			rc = add_numbers(&f, &b->vals, &b->vals_len, &b->vals_cap);
			break;
		case 3:
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

/* The model's bytes for the samples so far. */
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
static int
reserve_samples(struct decoder *d)
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
		if (f.num == 2)
			rc = decode_sample(d, b, si++, f.p, f.len);
	if (rc == PB_WIRE)
		rc = profconv__pb_invalid(d->data, d->len);
	else if (rc == PROFCONV_ENOMEM)
		rc = profconv__nomem();
	if (rc < 0) {
		b->rc = rc;
		snprintf(b->msg, sizeof(b->msg), "%s", profconv_errmsg());
	}
	return 0;
}

/* Batch B's samples into the model, in order. */
static int
add_batch(struct decoder *d, const struct sample_batch *b)
{
	size_t k, lo = 0, bo = 0, nt = d->sample_types.n;
	int rc = 0;

	if (b->rc < 0)
		return profconv__fail(b->rc, "%s", b->msg);
	for (k = 0; rc == 0 && k < b->count; k++) {
		rc = profconv__add_sample_raw(d->prof, b->locs + lo,
		    b->counts[2 * k], b->vals + k * nt, b->labels + bo,
		    b->counts[2 * k + 1]);
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
static int
decode_samples(struct decoder *d)
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
	}
	for (i = 0; i < per_round; i++)
		batch_free(&sr.batches[i]);
	free(sr.batches);
	return rc;
}

int
profconv__pb_decode(struct profconv_profile **out, const unsigned char *data,
    size_t len, uint64_t budget, unsigned int jobs)
{
	struct decoder d = { .data = data, .len = len, .budget = budget,
	    .jobs = jobs };
	int rc;

	*out = NULL;
	rc = find_fields(&d);
	if (rc == 0)
		rc = profconv_profile_new(&d.prof);
	if (rc == 0)
		rc = reserve_samples(&d);
	if (rc == 0)
		rc = decode_strings(&d);
	if (rc == 0)
		rc = decode_header(&d);
	if (rc == 0)
		rc = decode_mappings(&d);
	if (rc == 0)
		rc = decode_functions(&d);
	if (rc == 0)
		rc = decode_locations(&d);
	if (rc == 0)
		rc = decode_samples(&d);
	if (rc == 0 && d.sample_count != 0 && d.sample_types.n == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "profile has samples but no sample types");
	if (rc == PB_WIRE)
		rc = profconv__pb_invalid(data, len);
	else if (rc == PROFCONV_ENOMEM)
		rc = profconv__nomem();
	free(d.strings.s);
	free(d.sample_types.s);
	free(d.mappings.s);
	free(d.functions.s);
	free(d.locations.s);
	free(d.period_type.s);
	free(d.comments);
	free(d.str);
	free(d.chunk_at);
	profconv__u64map_free(&d.mapping_ids.map);
	profconv__u64map_free(&d.function_ids.map);
	profconv__u64map_free(&d.location_ids.map);
	if (rc < 0) {
		profconv_profile_free(d.prof);
		return rc;
	}
	*out = d.prof;
	return 0;
}

static int profile_wire_type(uint64_t field, int got);

/* A varint at P[*I..LEN): 1, 0 when cut off by LEN, -1 when too long. */
static int
walk_varint(const unsigned char *p, size_t len, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		unsigned char b;

		if (*i >= len)
			return 0;
		b = p[(*i)++];
		*v |= shift < 64 ? (uint64_t)(b & 0x7f) << shift : 0;
		if ((b & 0x80) == 0)
			return 1;
	}
	return -1;
}

enum walk { WALK_OK, WALK_CUT, WALK_BAD };

/*
 * Walk the top-level fields of a Profile in P[0..LEN): WALK_OK, WALK_CUT
 * (a field runs past LEN) or WALK_BAD (a tag or type pprof never writes),
 * with the field's offset and number.
 */
static enum walk
walk_profile(const unsigned char *p, size_t len, size_t *off, uint64_t *field)
{
	size_t i = 0;
	uint64_t tag, v;
	int r;

	while (i < len) {
		int wt;

		*off = i;
		r = walk_varint(p, len, &i, &tag);
		if (r <= 0)
			return r == 0 ? WALK_CUT : WALK_BAD;
		*field = tag >> 3;
		wt = (int)(tag & 7);
		if (*field == 0 || profile_wire_type(*field, wt) != wt)
			return WALK_BAD;
		switch (wt) {
		case WT_VARINT:
			r = walk_varint(p, len, &i, &v);
			if (r <= 0)
				return r == 0 ? WALK_CUT : WALK_BAD;
			break;
		case WT_64BIT:
		case WT_32BIT:
			v = wt == WT_64BIT ? 8 : 4;
			if (v > len - i)
				return WALK_CUT;
			i += v;
			break;
		case WT_LEN:
			r = walk_varint(p, len, &i, &v);
			if (r <= 0)
				return r == 0 ? WALK_CUT : WALK_BAD;
			if (v > len - i)
				return WALK_CUT;
			i += v;
			break;
		default:
			return WALK_BAD;	/* groups and types 6, 7 */
		}
	}
	return WALK_OK;
}

int
profconv__pb_invalid(const unsigned char *data, size_t len)
{
	size_t off = 0;
	uint64_t field = 0;

	switch (walk_profile(data, len, &off, &field)) {
	case WALK_CUT:
		return profconv__fail(PROFCONV_EFORMAT, "truncated pprof "
		    "protobuf: field %llu at offset %zu runs past the end "
		    "(%zu bytes)", (unsigned long long)field, off, len);
	case WALK_BAD:
		return profconv__fail(PROFCONV_EFORMAT, "not a valid pprof "
		    "protobuf: bad field at offset %zu", off);
	default:
		return profconv__fail(PROFCONV_EFORMAT,
		    "not a valid pprof protobuf (%zu bytes)", len);
	}
}

/* --- the pprof reader ------------------------------------------------------ */

/* A varint at *P before END; false when it is cut off or too long. */
static bool
sniff_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; *p < end && shift < 64; shift += 7) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return true;
	}
	return false;
}

/*
 * The wire type a field of Profile has: 2 for messages, strings and
 * packed numbers, 0 for numbers; -1 for a number Profile does not have.
 * comment (13) is a repeated int64, so it may come either way.
 */
static int
profile_wire_type(uint64_t field, int got)
{
	if ((field >= 1 && field <= 6) || field == 11)
		return 2;
	if (field == 13 && got == 2)
		return 2;
	if (field >= 7 && field <= 15)
		return 0;
	return -1;
}

/*
 * Does HEAD start like a serialized Profile?  Every field seen must carry
 * a number and wire type Profile has (unknown fields are ignored by
 * decoders, but one does not start a profile), and fields must end where
 * the input does when HEAD is all of it.  Cheap, and an input that is not
 * pprof is turned away before it is read whole.
 */
static bool
sniff_pprof(const unsigned char *head, size_t len, bool whole)
{
	const unsigned char *p = head, *end = head + len;
	uint64_t key, v;
	int wt;

	while (p < end) {
		if (!sniff_varint(&p, end, &key))
			return !whole && p == end;
		wt = (int)(key & 7);
		if (profile_wire_type(key >> 3, wt) != wt)
			return false;
		if (!sniff_varint(&p, end, &v))
			return !whole && p == end;
		if (wt == 2) {
			if (v > (uint64_t)(end - p))
				return !whole;
			p += v;
		}
	}
	return true;
}

static int
read_pprof(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	const unsigned char *data;
	size_t len;
	int rc;

	*out = NULL;
	rc = profconv__input_slurp(in, &data, &len);
	if (rc < 0)
		return rc;
	/* The samples' arrays are bounded as the input is. */
	return profconv__pb_decode(out, data, len, in->max,
	    opts != NULL ? opts->jobs : 0);
}

/* A whole input that a lenient sniff takes for pprof (a field cut off
 * by the end, say): say where it stops being one. */
static int
explain_pprof(const unsigned char *head, size_t len, bool whole)
{
	if (!whole || !sniff_pprof(head, len, false))
		return 0;
	return profconv__pb_invalid(head, len);
}

const struct pc_reader profconv__reader_pprof = {
	PROFCONV_FORMAT_PPROF, "pprof", sniff_pprof, read_pprof, explain_pprof
};

/* --- encoding ---------------------------------------------------------------- */

/*
 * The profile is packed by hand as one Profile message, fields in number
 * order and proto3 zeros left out, which are the bytes protobuf-c packs
 * for the same message (tests/test_pb.c compares them).  Samples, nearly
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

static inline size_t
vsize(uint64_t v)
{
	return ((size_t)(64 - __builtin_clzll(v | 1)) + 6) / 7;
}

static inline unsigned char *
put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* Tags of the fields pprof has (numbers below 16: one byte). */
#define TAG_VARINT(f) ((unsigned char)((f) << 3))
#define TAG_LEN(f) ((unsigned char)((f) << 3 | 2))

/* A proto3 scalar: nothing when zero. */
static inline size_t
num_size(uint64_t v)
{
	return v != 0 ? 1 + vsize(v) : 0;
}

static inline unsigned char *
put_num(unsigned char *p, unsigned int field, uint64_t v)
{
	if (v == 0)
		return p;
	*p++ = TAG_VARINT(field);
	return put_varint(p, v);
}

/* A length-delimited field of LEN bytes, header included. */
static inline size_t
len_size(size_t len)
{
	return 1 + vsize(len) + len;
}

static inline unsigned char *
put_len(unsigned char *p, unsigned int field, size_t len)
{
	*p++ = TAG_LEN(field);
	return put_varint(p, len);
}

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
	const struct pc_sample *sm = &prof->samples[i];
	const uint32_t *stk = pc_sample_stack(prof, sm);
	const struct pc_label *lab = pc_sample_labels(prof, sm);
	const int64_t *v = prof->values + i * prof->nsample_types;
	unsigned char *body, *q, *start;
	size_t j;

	*p++ = TAG_LEN(2);
	body = q = p + *guess;
	if (sm->nlocs != 0) {
		*q++ = TAG_LEN(1);
		start = ++q;
		for (j = 0; j < sm->nlocs; j++)
			q = put_varint(q, stk[j]);
		q = fix_len(start, 1, (size_t)(q - start));
	}
	if (prof->nsample_types != 0) {
		*q++ = TAG_LEN(2);
		start = ++q;
		for (j = 0; j < prof->nsample_types; j++)
			q = put_varint(q, (uint64_t)v[j]);
		q = fix_len(start, 1, (size_t)(q - start));
	}
	for (j = 0; j < sm->nlabels; j++) {
		*q++ = TAG_LEN(3);
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
	struct sample_chunk *ch = &sp->chunks[c];
	size_t i = c * SAMPLE_CHUNK, end = i + SAMPLE_CHUNK, guess = 1, need;

	if (end > prof->nsamples)
		end = prof->nsamples;
	for (; i < end; i++) {
		need = sample_bound(prof, &prof->samples[i]);
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
	p = put_len(p, 3, body);
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
    uint32_t id)
{
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_line *ll = pc_location_lines(prof, l);
	size_t body, j;
	unsigned char *p;

	body = num_size(id) + num_size(l->mapping) + num_size(l->address) +
	    num_size(l->is_folded);
	for (j = 0; j < l->nlines; j++)
		body += len_size(line_size(&ll[j]));
	p = wb_room(b, len_size(body));
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_len(p, 4, body);
	p = put_num(p, 1, id);
	p = put_num(p, 2, l->mapping);
	p = put_num(p, 3, l->address);
	for (j = 0; j < l->nlines; j++) {
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
	p = put_len(p, 5, body);
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
		p = put_len(p, 6, t->lens[i]);
		memcpy(p, t->strs[i], t->lens[i]);
		wb_done(b, p + t->lens[i]);
	}
	return 0;
}

/* Fields 7..15, after the string table. */
static int
put_scalars(struct wbuf *b, const struct profconv_profile *prof)
{
	size_t i, comments = 0;
	unsigned char *p;
	int rc = 0;

	p = wb_room(b, 4 * 11);
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_num(p, 7, prof->drop_frames);
	p = put_num(p, 8, prof->keep_frames);
	p = put_num(p, 9, (uint64_t)prof->time_nanos);
	p = put_num(p, 10, (uint64_t)prof->duration_nanos);
	wb_done(b, p);
	if (prof->period_type.type != 0 || prof->period_type.unit != 0)
		rc = put_vtype(b, 11, &prof->period_type);
	for (i = 0; i < prof->ncomments; i++)
		comments += vsize(prof->comments[i]);
	if (rc < 0)
		return rc;
	p = wb_room(b, 2 * 11 + len_size(comments));
	if (p == NULL)
		return PROFCONV_ENOMEM;
	p = put_num(p, 12, (uint64_t)prof->period);
	if (prof->ncomments != 0) {	/* a packed repeated int64 */
		p = put_len(p, 13, comments);
		for (i = 0; i < prof->ncomments; i++)
			p = put_varint(p, prof->comments[i]);
	}
	p = put_num(p, 14, prof->default_sample_type);
	p = put_num(p, 15, prof->doc_url);
	wb_done(b, p);
	return 0;
}

/* Everything after the samples into B. */
static int
pack_rest(struct wbuf *b, const struct profconv_profile *prof)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < prof->nmappings; i++)
		rc = put_mapping(b, &prof->mappings[i], i + 1);
	for (i = 0; rc == 0 && i < prof->nlocations; i++)
		rc = put_location(b, prof, (uint32_t)(i + 1));
	for (i = 0; rc == 0 && i < prof->nfunctions; i++)
		rc = put_function(b, &prof->functions[i], i + 1);
	if (rc == 0)
		rc = put_strings(b, &prof->strings);
	if (rc == 0)
		rc = put_scalars(b, prof);
	return rc;
}

/*
 * PROF's whole Profile message as pieces in order into *PIECES (the
 * first the sample types, from HEAD, then one per chunk of samples, from
 * SP's chunks, then the rest, from REST), *NPIECES of them.  The caller
 * frees the buffers whether this succeeds or not.
 */
static int
pack_profile(const struct profconv_profile *prof, unsigned int jobs,
    struct sample_pack *sp, struct wbuf *head, struct wbuf *rest,
    struct pc_piece **pieces, size_t *npieces)
{
	size_t i;
	int rc = 0;

	sp->prof = prof;
	sp->nchunks = (prof->nsamples + SAMPLE_CHUNK - 1) / SAMPLE_CHUNK;
	sp->chunks = calloc(sp->nchunks + 1, sizeof(*sp->chunks));
	*pieces = calloc(sp->nchunks + 2, sizeof(**pieces));
	if (sp->chunks == NULL || *pieces == NULL)
		return profconv__nomem();
	for (i = 0; rc == 0 && i < prof->nsample_types; i++)
		rc = put_vtype(head, 1, &prof->sample_types[i]);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, sp->nchunks, pack_task, sp);
	if (rc == 0)
		rc = pack_rest(rest, prof);
	if (rc < 0)
		return rc == PROFCONV_ENOMEM ? profconv__nomem() : rc;
	(*pieces)[0] = (struct pc_piece){ head->p, head->len };
	for (i = 0; i < sp->nchunks; i++)
		(*pieces)[i + 1] = (struct pc_piece){ sp->chunks[i].p,
		    sp->chunks[i].len };
	(*pieces)[sp->nchunks + 1] = (struct pc_piece){ rest->p, rest->len };
	*npieces = sp->nchunks + 2;
	return 0;
}

static int
write_error(void)
{
	return profconv__fail(PROFCONV_EIO, "write error: %s",
	    strerror(errno != 0 ? errno : EIO));
}

int
profconv__pb_write(const struct profconv_profile *prof, FILE *fp,
    int level, unsigned int jobs, enum pc_gz_backend backend)
{
	struct sample_pack sp = { 0 };
	struct wbuf head = { 0 }, rest = { 0 };
	struct pc_piece *pieces = NULL;
	size_t i, n = 0, len = 0;
	int rc;

	if (level < -1 || level > 9)
		return profconv__fail(PROFCONV_EINVAL,
		    "compression level %d is not in 0..9", level);
	rc = pack_profile(prof, jobs, &sp, &head, &rest, &pieces, &n);
	errno = 0;
	for (i = 0; rc == 0 && i < n; i++)
		len += pieces[i].len;
	if (rc == 0 && level == -1)
		level = len > FAST_ABOVE ? 1 : 6;
	if (rc == 0 && level != 0)
		rc = profconv__gz_write(fp, pieces, n, level, jobs, backend);
	for (i = 0; rc == 0 && level == 0 && i < n; i++)
		if (pieces[i].len != 0 && fwrite(pieces[i].p, 1, pieces[i].len,
		    fp) != pieces[i].len)
			rc = write_error();
	for (i = 0; sp.chunks != NULL && i < sp.nchunks; i++)
		free(sp.chunks[i].p);
	free(sp.chunks);
	free(pieces);
	free(head.p);
	free(rest.p);
	if (rc == 0 && fflush(fp) != 0)
		rc = write_error();
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
