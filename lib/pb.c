/* SPDX-License-Identifier: MIT */
/* pb.c - the pprof protobuf codec: wire bytes <-> the profile model. */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profile.pb-c.h"
#include "readers.h"

typedef Perftools__Profiles__Profile PbProfile;
typedef Perftools__Profiles__Sample PbSample;
typedef Perftools__Profiles__Label PbLabel;
typedef Perftools__Profiles__Mapping PbMapping;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Line PbLine;
typedef Perftools__Profiles__Function PbFunction;
typedef Perftools__Profiles__ValueType PbValueType;

/* --- an arena for protobuf-c's unpacking: one free for everything --------- */

struct arena {
	char **chunks;
	size_t nchunks, cap;
	char *cur;
	size_t left;
	uint64_t used, budget;	/* chunk bytes; at most BUDGET (0: none) */
	bool failed, over_budget;
};

#define ARENA_CHUNK ((size_t)4 << 20)

static void *
arena_alloc(void *data, size_t size)
{
	struct arena *a = data;
	size_t chunk;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (size > a->left) {
		chunk = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		if (a->budget != 0 && a->used + chunk > a->budget) {
			a->over_budget = true;
			goto fail;
		}
		a->used += chunk;
		if (PC_GROW(a->chunks, a->cap, a->nchunks, 1) < 0)
			goto fail;
		a->cur = malloc(chunk);
		if (a->cur == NULL)
			goto fail;
		a->chunks[a->nchunks++] = a->cur;
		a->left = chunk;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	return p;
fail:
	a->failed = true;
	return NULL;
}

static void
arena_free_one(void *data, void *p)
{
	(void)data;
	(void)p;	/* released all at once by arena_release() */
}

static void
arena_release(struct arena *a)
{
	size_t i;

	for (i = 0; i < a->nchunks; i++)
		free(a->chunks[i]);
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

/* --- decoding ---------------------------------------------------------------- */

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
	const PbProfile *pb;
	struct profconv_profile *prof;
	uint32_t *str;			/* pb string index -> model index */
	struct idmap mapping_ids, function_ids, location_ids;
};

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
	if (idx < 0 || (uint64_t)idx >= d->pb->n_string_table)
		return profconv__fail(PROFCONV_EFORMAT,
		    "%s: string index %lld out of range (string table has "
		    "%zu entries)", what, (long long)idx,
		    d->pb->n_string_table);
	*out = d->str[idx];
	return 0;
}

static int
decode_strings(struct decoder *d)
{
	size_t i;
	int rc;

	if (d->pb->n_string_table == 0 || d->pb->string_table[0].len != 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    "string_table[0] must be \"\"");
	d->str = malloc(d->pb->n_string_table * sizeof(*d->str));
	if (d->str == NULL)
		return profconv__nomem();
	/* Full lengths, NULs included; the table repairs what is not
	 * UTF-8 and counts it. */
	for (i = 0; i < d->pb->n_string_table; i++) {
		const ProtobufCBinaryData *str = &d->pb->string_table[i];

		/* protobuf-c leaves an empty entry's data NULL. */
		rc = profconv__strtab_intern(&d->prof->strings,
		    str->len != 0 ? (const char *)str->data : "", str->len,
		    &d->str[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
decode_vtype(const struct decoder *d, const PbValueType *vt, const char *what,
    struct pc_vtype *out)
{
	int rc;

	if (vt == NULL) {
		out->type = out->unit = 0;
		return 0;
	}
	rc = dstr(d, vt->type, what, &out->type);
	if (rc == 0)
		rc = dstr(d, vt->unit, what, &out->unit);
	return rc;
}

static int
decode_header(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	const PbProfile *pb = d->pb;
	struct pc_reserve room = {
		.sample_types = pb->n_sample_type, .comments = pb->n_comment,
	};
	struct pc_vtype vt;
	uint32_t str = 0;
	size_t i;
	int rc;

	rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < pb->n_sample_type; i++) {
		rc = decode_vtype(d, pb->sample_type[i], "sample_type", &vt);
		if (rc == 0)
			rc = profconv__add_sample_type_raw(prof, &vt);
	}
	if (rc == 0)
		rc = decode_vtype(d, pb->period_type, "period_type",
		    &prof->period_type);
	if (rc == 0)
		rc = dstr(d, pb->drop_frames, "drop_frames", &prof->drop_frames);
	if (rc == 0)
		rc = dstr(d, pb->keep_frames, "keep_frames", &prof->keep_frames);
	if (rc == 0)
		rc = dstr(d, pb->default_sample_type, "default_sample_type",
		    &prof->default_sample_type);
	if (rc == 0)
		rc = dstr(d, pb->doc_url, "doc_url", &prof->doc_url);
	for (i = 0; rc == 0 && i < pb->n_comment; i++) {
		rc = dstr(d, pb->comment[i], "comment", &str);
		if (rc == 0)
			rc = profconv__add_comment_raw(prof, str);
	}
	prof->period = pb->period;
	prof->time_nanos = pb->time_nanos;
	prof->duration_nanos = pb->duration_nanos;
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

/* Are the ids of the COUNT objects OBJS exactly 1..COUNT, in order?
 * (A macro: mappings, functions and locations are different types.) */
#define IDS_DENSE(objs, count, out) do {				\
	size_t i_;							\
	(out)->n = (count);						\
	(out)->dense = true;						\
	for (i_ = 0; i_ < (count) && (out)->dense; i_++)		\
		(out)->dense = (objs)[i_]->id == i_ + 1;		\
} while (0)

static int
decode_mappings(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = { .mappings = d->pb->n_mapping };
	struct pc_mapping mm, *m = &mm;
	size_t i;
	int rc;

	IDS_DENSE(d->pb->mapping, d->pb->n_mapping, &d->mapping_ids);
	rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->pb->n_mapping; i++) {
		const PbMapping *pm = d->pb->mapping[i];

		memset(m, 0, sizeof(*m));
		m->start = pm->memory_start;
		m->limit = pm->memory_limit;
		m->offset = pm->file_offset;
		m->flags = (pm->has_functions ? PC_MAP_HAS_FUNCTIONS : 0) |
		    (pm->has_filenames ? PC_MAP_HAS_FILENAMES : 0) |
		    (pm->has_line_numbers ? PC_MAP_HAS_LINE_NUMBERS : 0) |
		    (pm->has_inline_frames ? PC_MAP_HAS_INLINE_FRAMES : 0);
		rc = claim_id(&d->mapping_ids, pm->id, (uint32_t)i + 1,
		    "mapping");
		if (rc == 0)
			rc = dstr(d, pm->filename, "mapping filename", &m->file);
		if (rc == 0)
			rc = dstr(d, pm->build_id, "mapping build_id",
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
	struct pc_reserve room = { .functions = d->pb->n_function };
	struct pc_function ff, *f = &ff;
	size_t i;
	int rc;

	IDS_DENSE(d->pb->function, d->pb->n_function, &d->function_ids);
	rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->pb->n_function; i++) {
		const PbFunction *pf = d->pb->function[i];

		f->start_line = pf->start_line;
		rc = claim_id(&d->function_ids, pf->id, (uint32_t)i + 1,
		    "function");
		if (rc == 0)
			rc = dstr(d, pf->name, "function name", &f->name);
		if (rc == 0)
			rc = dstr(d, pf->system_name, "function system_name",
			    &f->system_name);
		if (rc == 0)
			rc = dstr(d, pf->filename, "function filename",
			    &f->file);
		if (rc == 0)
			rc = profconv__add_function_raw(prof, f, NULL);
	}
	return rc;
}

/* Locations come after functions and mappings: their ids must resolve. */
static int
decode_locations(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_reserve room = { 0 };
	struct pc_line *lines = NULL;
	size_t i, j, cap = 0;
	uint32_t mid;
	int rc;

	IDS_DENSE(d->pb->location, d->pb->n_location, &d->location_ids);
	room.locations = d->pb->n_location;
	for (i = 0; i < d->pb->n_location; i++)
		room.lines += d->pb->location[i]->n_line;
	rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->pb->n_location; i++) {
		const PbLocation *pl = d->pb->location[i];

		rc = claim_id(&d->location_ids, pl->id, (uint32_t)i + 1,
		    "location");
		mid = 0;
		if (rc == 0 && pl->mapping_id != 0 &&
		    !id_lookup(&d->mapping_ids, pl->mapping_id, &mid))
			rc = profconv__fail(PROFCONV_EFORMAT,
			    "location %llu refers to unknown mapping %llu",
			    (unsigned long long)pl->id,
			    (unsigned long long)pl->mapping_id);
		if (rc == 0)
			rc = PC_GROW(lines, cap, 0, pl->n_line);
		for (j = 0; rc == 0 && j < pl->n_line; j++) {
			const PbLine *ln = pl->line[j];

			if (!id_lookup(&d->function_ids,
			    ln->function_id, &lines[j].function))
				rc = profconv__fail(PROFCONV_EFORMAT,
				    "location %llu refers to unknown "
				    "function %llu", (unsigned long long)pl->id,
				    (unsigned long long)ln->function_id);
			lines[j].line = ln->line;
			lines[j].column = ln->column;
		}
		if (rc == 0)
			rc = profconv__add_location_raw(prof, mid, pl->address,
			    lines, pl->n_line, pl->is_folded, NULL);
	}
	free(lines);
	return rc;
}

static int
decode_sample(struct decoder *d, size_t si, uint32_t **locs, size_t *lcap,
    struct pc_label **labels, size_t *bcap)
{
	const PbSample *ps = d->pb->sample[si];
	size_t j, nl = 0;
	int rc;

	if (ps->n_value != d->pb->n_sample_type)
		return profconv__fail(PROFCONV_EFORMAT,
		    "sample %zu has %zu values, but there are %zu sample types",
		    si + 1, ps->n_value, d->pb->n_sample_type);
	rc = PC_GROW(*locs, *lcap, 0, ps->n_location_id);
	for (j = 0; rc == 0 && j < ps->n_location_id; j++)
		if (!id_lookup(&d->location_ids, ps->location_id[j],
		    &(*locs)[j]))
			rc = profconv__fail(PROFCONV_EFORMAT,
			    "sample %zu refers to unknown location %llu",
			    si + 1, (unsigned long long)ps->location_id[j]);
	if (rc == 0)
		rc = PC_GROW(*labels, *bcap, 0, ps->n_label);
	for (j = 0; rc == 0 && j < ps->n_label; j++) {
		const PbLabel *pl = ps->label[j];
		struct pc_label *l = &(*labels)[nl++];

		rc = dstr(d, pl->key, "label key", &l->key);
		if (rc == 0)
			rc = dstr(d, pl->str, "label str", &l->str);
		if (rc == 0)
			rc = dstr(d, pl->num_unit, "label num_unit", &l->unit);
		if (rc < 0)
			break;
		/* As in pprof, a string value wins over a number. */
		l->num = l->str != 0 ? 0 : pl->num;
		if (l->str != 0)
			l->unit = 0;
	}
	if (rc == 0)
		rc = profconv__add_sample_raw(d->prof, *locs, ps->n_location_id,
		    ps->value, *labels, nl);
	return rc;
}

static int
decode_samples(struct decoder *d)
{
	struct profconv_profile *prof = d->prof;
	struct pc_label *labels = NULL;
	struct pc_reserve room = { 0 };
	uint32_t *locs = NULL;
	size_t i, lcap = 0, bcap = 0, nstack = 0;
	int rc;

	/* Size the flat arrays once. */
	for (i = 0; i < d->pb->n_sample; i++)
		nstack += d->pb->sample[i]->n_location_id;
	room.samples = d->pb->n_sample;
	room.stack = nstack;
	rc = 0;
	if (d->pb->n_sample_type != 0 &&
	    d->pb->n_sample > SIZE_MAX / d->pb->n_sample_type)
		rc = profconv__nomem();
	room.values = d->pb->n_sample * d->pb->n_sample_type;
	if (rc == 0)
		rc = profconv__reserve(prof, &room);
	for (i = 0; rc == 0 && i < d->pb->n_sample; i++)
		rc = decode_sample(d, i, &locs, &lcap, &labels, &bcap);
	free(locs);
	free(labels);
	return rc;
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
		case PROTOBUF_C_WIRE_TYPE_VARINT:
			r = walk_varint(p, len, &i, &v);
			if (r <= 0)
				return r == 0 ? WALK_CUT : WALK_BAD;
			break;
		case PROTOBUF_C_WIRE_TYPE_64BIT:
		case PROTOBUF_C_WIRE_TYPE_32BIT:
			v = wt == PROTOBUF_C_WIRE_TYPE_64BIT ? 8 : 4;
			if (v > len - i)
				return WALK_CUT;
			i += v;
			break;
		case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
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

int
profconv__pb_decode(struct profconv_profile **out, const unsigned char *data,
    size_t len, uint64_t budget)
{
	struct arena arena = { .budget = budget };
	ProtobufCAllocator alloc = { arena_alloc, arena_free_one, &arena };
	struct decoder d = { 0 };
	PbProfile *pb;
	bool failed, over;
	int rc;

	*out = NULL;
	pb = perftools__profiles__profile__unpack(&alloc, len, data);
	if (pb == NULL) {
		failed = arena.failed;
		over = arena.over_budget;
		arena_release(&arena);
		if (failed && over)
			return profconv__fail(PROFCONV_EFORMAT, "decoding this "
			    "pprof protobuf (%zu bytes) needs more than the "
			    "input bound, %llu MiB, of memory", len,
			    (unsigned long long)(budget >> 20));
		if (failed)
			return profconv__nomem();
		return profconv__pb_invalid(data, len);
	}
	d.pb = pb;
	rc = profconv_profile_new(&d.prof);
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
	if (rc == 0 && pb->n_sample != 0 && pb->n_sample_type == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "profile has samples but no sample types");
	free(d.str);
	profconv__u64map_free(&d.mapping_ids.map);
	profconv__u64map_free(&d.function_ids.map);
	profconv__u64map_free(&d.location_ids.map);
	arena_release(&arena);
	if (rc < 0) {
		profconv_profile_free(d.prof);
		return rc;
	}
	*out = d.prof;
	return 0;
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

	(void)opts;
	*out = NULL;
	rc = profconv__input_slurp(in, &data, &len);
	if (rc < 0)
		return rc;
	/* The unpacked messages are bounded as the input is. */
	return profconv__pb_decode(out, data, len, in->max);
}

const struct pc_reader profconv__reader_pprof = {
	PROFCONV_FORMAT_PPROF, "pprof", sniff_pprof, read_pprof
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
	p = rc == 0 ? wb_room(b, 2 * 11 + len_size(comments)) : NULL;
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
 * first the sample types, then one per chunk of samples, then the
 * rest), NPIECES of them, the buffers to free in *CHUNKS.
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
	if (rc < 0)
		;
	else if (level == 0) {
		for (i = 0; rc == 0 && i < n; i++)
			if (pieces[i].len != 0 && fwrite(pieces[i].p, 1,
			    pieces[i].len, fp) != pieces[i].len)
				rc = write_error();
	} else {
		if (level == -1)
			level = len > FAST_ABOVE ? 1 : 6;
		rc = profconv__gz_write(fp, pieces, n, level, jobs, backend);
	}
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
	int rc;

	if (opts == NULL)
		return profconv__pb_write(prof, fp, -1, 0, PC_GZ_BEST);
	rc = profconv__check_version(opts->version,
	    PROFCONV_WRITE_OPTIONS_VERSION, "write");
	if (rc < 0)
		return rc;
	return profconv__pb_write(prof, fp, opts->level, opts->jobs,
	    PC_GZ_BEST);
}
