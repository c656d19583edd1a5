/* SPDX-License-Identifier: MIT */
/*
 * wire.h - what the two halves of the pprof codec share, and only they
 * (nothing outside pprof/ includes it): wire types, Profile's and
 * Sample's field numbers, varints read and written, and the decoder's
 * state, which decode.c (strings, header, tables) and decode_samples.c
 * (the samples, on threads) both work on.  Kept apart from pprof.h, the
 * folder's face to the other layers, so that those see none of it.
 */
#ifndef PROFCONV_PPROF_WIRE_H
#define PROFCONV_PPROF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Field numbers of message Profile (proto/profile.proto). */
enum {
	PF_SAMPLE_TYPE = 1, PF_SAMPLE = 2, PF_MAPPING = 3, PF_LOCATION = 4,
	PF_FUNCTION = 5, PF_STRING_TABLE = 6, PF_DROP_FRAMES = 7,
	PF_KEEP_FRAMES = 8, PF_TIME_NANOS = 9, PF_DURATION_NANOS = 10,
	PF_PERIOD_TYPE = 11, PF_PERIOD = 12, PF_COMMENT = 13,
	PF_DEFAULT_SAMPLE_TYPE = 14, PF_DOC_URL = 15
};

/* Field numbers of message Sample.  The small messages (ValueType,
 * Mapping, Location, Line, Function, Label) are read into arrays by
 * field number and written in field order; their numbers are beside
 * the code that does it. */
enum { SF_LOCATION_ID = 1, SF_VALUE = 2, SF_LABEL = 3 };

/* --- reading ------------------------------------------------------------- */

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
	const unsigned char *p;		/* a length-delimited field's bytes;
					 * never NULL, so P + LEN is defined */
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

/*
 * The next field: 1, 0 at the end, -1 when it is not well formed.
 * Number 0 is no field protobuf allows, but pprof's decoder skips it as
 * it skips any field it does not know, so NUL padding after a profile
 * (each two zero bytes field 0, varint 0) reads in go tool pprof: it is
 * a field no message has here too.
 */
static inline int
rd_field(struct rd *r, struct field *f)
{
	uint64_t tag;

	if (r->p >= r->end)
		return 0;
	if (!rd_varint(r, &tag) || (tag >> 3) > 0x1fffffff)
		return -1;
	f->num = (uint32_t)(tag >> 3);
	f->wt = (int)(tag & 7);
	f->v = 0;
	f->p = r->p;		/* a varint's: empty, where its value is */
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
 * message has (KNOWN; never field 0), i.e. whether to use it: 1 yes, 0
 * skip it (a field the message does not have), -1 wrong type.
 */
static inline int
want(const struct field *f, bool known, int wt)
{
	if (!known || f->num == 0)
		return 0;
	return f->wt == wt ? 1 : -1;
}

/* A message of only varint fields 1..N into V[0..N) (zeros when absent;
 * the last occurrence wins).  0, or -1 when not well formed. */
static inline int
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

/* --- writing ------------------------------------------------------------- */

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

/* --- the decoder's state (decode.c, decode_samples.c) -------------------- */

struct span {
	const unsigned char *p;
	size_t len;
};

struct spans {
	struct span *s;
	size_t n, cap;
};

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
	/* profconv__pb_decode_releasing()'s: DATA's first RELEASED bytes
	 * were given back (a top-level field starts there). */
	void (*release)(void *arg, size_t n);
	void *release_arg;
	size_t released;
};

/* Samples per chunk decoded by one task, and between checks of the bound
 * on memory. */
#define DECODE_CHUNK 4096

static inline bool
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
static inline int
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
static inline int
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

/* Room for the samples, taken first (decode_samples.c). */
int profconv__pb_reserve_samples(struct decoder *d);
/* Decode the samples into the model, on d->jobs threads (decode_samples.c). */
int profconv__pb_decode_samples(struct decoder *d);

#endif /* PROFCONV_PPROF_WIRE_H */
