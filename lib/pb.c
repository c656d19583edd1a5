/* SPDX-License-Identifier: MIT */
/* pb.c - the pprof protobuf codec: wire bytes <-> the profile model. */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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
 * Concatenated protobuf messages merge: their repeated fields append.  So
 * the writer packs the profile in pieces (a header, then batches of
 * functions, locations, samples and strings), each a Profile message of
 * its own, and streams them out.  Memory stays bounded by one batch.
 */

#define BATCH 4096

struct sink {
	FILE *fp;
	z_stream z;
	bool gz;
	unsigned char *out;		/* deflate output buffer */
	uint8_t *pack;			/* protobuf pack buffer */
	size_t pack_cap;
};

#define SINK_OUT ((size_t)256 << 10)

static int
sink_io_error(void)
{
	return profconv__fail(PROFCONV_EIO, "write error: %s",
	    strerror(errno != 0 ? errno : EIO));
}

static int
sink_write(struct sink *s, const void *data, size_t len, int flush)
{
	int zr;

	if (!s->gz) {
		if (len != 0 && fwrite(data, 1, len, s->fp) != len)
			return sink_io_error();
		return 0;
	}
	s->z.next_in = (unsigned char *)data;
	s->z.avail_in = (uInt)len;
	do {
		s->z.next_out = s->out;
		s->z.avail_out = (uInt)SINK_OUT;
		zr = deflate(&s->z, flush);
		if (zr == Z_STREAM_ERROR)
			return profconv__fail(PROFCONV_EIO, "deflate failed");
		len = SINK_OUT - s->z.avail_out;
		if (len != 0 && fwrite(s->out, 1, len, s->fp) != len)
			return sink_io_error();
	} while (s->z.avail_out == 0 ||
	    (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static int
sink_message(struct sink *s, const PbProfile *msg)
{
	size_t n = perftools__profiles__profile__get_packed_size(msg);
	int rc;

	rc = PC_GROW(s->pack, s->pack_cap, 0, n);
	if (rc < 0)
		return rc;
	perftools__profiles__profile__pack(msg, s->pack);
	return sink_write(s, s->pack, n, Z_NO_FLUSH);
}

static void
vtype_to_pb(const struct pc_vtype *vt, PbValueType *out)
{
	perftools__profiles__value_type__init(out);
	out->type = vt->type;
	out->unit = vt->unit;
}

static int
encode_header(struct sink *s, const struct profconv_profile *prof)
{
	PbProfile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbValueType *vts = NULL, **vtp = NULL, period_type;
	PbMapping *maps = NULL, **mapp = NULL;
	int64_t *comments = NULL;
	size_t i, n = prof->nsample_types;
	int rc = PROFCONV_ENOMEM;

	vts = calloc(n + 1, sizeof(*vts));
	vtp = calloc(n + 1, sizeof(*vtp));
	maps = calloc(prof->nmappings + 1, sizeof(*maps));
	mapp = calloc(prof->nmappings + 1, sizeof(*mapp));
	comments = calloc(prof->ncomments + 1, sizeof(*comments));
	if (vts == NULL || vtp == NULL || maps == NULL || mapp == NULL ||
	    comments == NULL) {
		profconv__nomem();
		goto out;
	}
	for (i = 0; i < n; i++) {
		vtype_to_pb(&prof->sample_types[i], &vts[i]);
		vtp[i] = &vts[i];
	}
	msg.n_sample_type = n;
	msg.sample_type = vtp;
	for (i = 0; i < prof->nmappings; i++) {
		const struct pc_mapping *m = &prof->mappings[i];

		perftools__profiles__mapping__init(&maps[i]);
		maps[i].id = i + 1;
		maps[i].memory_start = m->start;
		maps[i].memory_limit = m->limit;
		maps[i].file_offset = m->offset;
		maps[i].filename = m->file;
		maps[i].build_id = m->build_id;
		maps[i].has_functions = (m->flags & PC_MAP_HAS_FUNCTIONS) != 0;
		maps[i].has_filenames = (m->flags & PC_MAP_HAS_FILENAMES) != 0;
		maps[i].has_line_numbers =
		    (m->flags & PC_MAP_HAS_LINE_NUMBERS) != 0;
		maps[i].has_inline_frames =
		    (m->flags & PC_MAP_HAS_INLINE_FRAMES) != 0;
		mapp[i] = &maps[i];
	}
	msg.n_mapping = prof->nmappings;
	msg.mapping = mapp;
	for (i = 0; i < prof->ncomments; i++)
		comments[i] = prof->comments[i];
	msg.n_comment = prof->ncomments;
	msg.comment = comments;
	msg.drop_frames = prof->drop_frames;
	msg.keep_frames = prof->keep_frames;
	msg.time_nanos = prof->time_nanos;
	msg.duration_nanos = prof->duration_nanos;
	if (prof->period_type.type != 0 || prof->period_type.unit != 0) {
		vtype_to_pb(&prof->period_type, &period_type);
		msg.period_type = &period_type;
	}
	msg.period = prof->period;
	msg.default_sample_type = prof->default_sample_type;
	msg.doc_url = prof->doc_url;
	rc = sink_message(s, &msg);
out:
	free(vts);
	free(vtp);
	free(maps);
	free(mapp);
	free(comments);
	return rc;
}

static int
encode_functions(struct sink *s, const struct profconv_profile *prof)
{
	PbProfile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbFunction fs[BATCH], *fp[BATCH];
	size_t i, k;
	int rc = 0;

	for (i = 0; rc == 0 && i < prof->nfunctions; i += k) {
		for (k = 0; k < BATCH && i + k < prof->nfunctions; k++) {
			const struct pc_function *f = &prof->functions[i + k];

			perftools__profiles__function__init(&fs[k]);
			fs[k].id = i + k + 1;
			fs[k].name = f->name;
			fs[k].system_name = f->system_name;
			fs[k].filename = f->file;
			fs[k].start_line = f->start_line;
			fp[k] = &fs[k];
		}
		msg.n_function = k;
		msg.function = fp;
		rc = sink_message(s, &msg);
	}
	return rc;
}

static int
encode_locations(struct sink *s, const struct profconv_profile *prof)
{
	PbProfile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbLocation locs[BATCH], *locp[BATCH];
	PbLine *lines = NULL, **linep = NULL;
	size_t i, j, k, nl, cap = 0, pcap = 0;
	int rc = 0;

	for (i = 0; rc == 0 && i < prof->nlocations; i += k) {
		/* Lines of this batch, then the batch itself. */
		for (k = 0, nl = 0; k < BATCH && i + k < prof->nlocations; k++)
			nl += prof->locations[i + k].nlines;
		rc = PC_GROW(lines, cap, 0, nl);
		if (rc == 0)
			rc = PC_GROW(linep, pcap, 0, nl);
		if (rc < 0)
			break;
		for (k = 0, nl = 0; k < BATCH && i + k < prof->nlocations; k++) {
			const struct pc_location *l = pc_location(prof,
			    (uint32_t)(i + k + 1));
			const struct pc_line *ll = pc_location_lines(prof, l);

			perftools__profiles__location__init(&locs[k]);
			locs[k].id = i + k + 1;
			locs[k].mapping_id = l->mapping;
			locs[k].address = l->address;
			locs[k].is_folded = l->is_folded;
			locs[k].n_line = l->nlines;
			locs[k].line = l->nlines != 0 ? &linep[nl] : NULL;
			for (j = 0; j < l->nlines; j++, nl++) {
				const struct pc_line *ln = &ll[j];

				perftools__profiles__line__init(&lines[nl]);
				lines[nl].function_id = ln->function;
				lines[nl].line = ln->line;
				lines[nl].column = ln->column;
				linep[nl] = &lines[nl];
			}
			locp[k] = &locs[k];
		}
		msg.n_location = k;
		msg.location = locp;
		rc = sink_message(s, &msg);
	}
	free(lines);
	free(linep);
	return rc;
}

struct sample_bufs {
	uint64_t *ids;
	PbLabel *labels, **labelp;
	size_t ids_cap, labels_cap, labelp_cap;
};

static int
encode_sample_batch(struct sink *s, const struct profconv_profile *prof,
    size_t first, size_t count, struct sample_bufs *b)
{
	PbProfile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbSample ss[BATCH], *sp[BATCH];
	size_t k, j, nid = 0, nlab = 0;
	int rc;

	for (k = 0; k < count; k++) {
		nid += prof->samples[first + k].nlocs;
		nlab += prof->samples[first + k].nlabels;
	}
	rc = PC_GROW(b->ids, b->ids_cap, 0, nid);
	if (rc == 0)
		rc = PC_GROW(b->labels, b->labels_cap, 0, nlab);
	if (rc == 0)
		rc = PC_GROW(b->labelp, b->labelp_cap, 0, nlab);
	if (rc < 0)
		return rc;
	nid = nlab = 0;
	for (k = 0; k < count; k++) {
		const struct pc_sample *sm = &prof->samples[first + k];
		const uint32_t *stk = pc_sample_stack(prof, sm);
		const struct pc_label *lab = pc_sample_labels(prof, sm);

		perftools__profiles__sample__init(&ss[k]);
		ss[k].n_location_id = sm->nlocs;
		ss[k].location_id = sm->nlocs != 0 ? &b->ids[nid] : NULL;
		for (j = 0; j < sm->nlocs; j++)
			b->ids[nid++] = stk[j];
		ss[k].n_value = prof->nsample_types;
		ss[k].value = prof->nsample_types != 0 ?
		    &prof->values[(first + k) * prof->nsample_types] : NULL;
		ss[k].n_label = sm->nlabels;
		ss[k].label = sm->nlabels != 0 ? &b->labelp[nlab] : NULL;
		for (j = 0; j < sm->nlabels; j++, nlab++) {
			const struct pc_label *l = &lab[j];

			perftools__profiles__label__init(&b->labels[nlab]);
			b->labels[nlab].key = l->key;
			b->labels[nlab].str = l->str;
			b->labels[nlab].num = l->num;
			b->labels[nlab].num_unit = l->unit;
			b->labelp[nlab] = &b->labels[nlab];
		}
		sp[k] = &ss[k];
	}
	msg.n_sample = count;
	msg.sample = sp;
	return sink_message(s, &msg);
}

static int
encode_samples(struct sink *s, const struct profconv_profile *prof)
{
	struct sample_bufs b = { 0 };
	size_t i, k;
	int rc = 0;

	for (i = 0; rc == 0 && i < prof->nsamples; i += k) {
		k = prof->nsamples - i < BATCH ? prof->nsamples - i : BATCH;
		rc = encode_sample_batch(s, prof, i, k, &b);
	}
	free(b.ids);
	free(b.labels);
	free(b.labelp);
	return rc;
}

static int
encode_strings(struct sink *s, const struct profconv_profile *prof)
{
	PbProfile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	const struct pc_strtab *t = &prof->strings;
	ProtobufCBinaryData bd[BATCH];
	size_t i, j, k;
	int rc = 0;

	for (i = 0; rc == 0 && i < t->len; i += k) {
		k = t->len - i < BATCH ? t->len - i : BATCH;
		for (j = 0; j < k; j++) {
			/* protobuf-c only reads the bytes. */
			bd[j].data = (uint8_t *)(uintptr_t)t->strs[i + j];
			bd[j].len = t->lens[i + j];
		}
		msg.n_string_table = k;
		msg.string_table = bd;
		rc = sink_message(s, &msg);
	}
	return rc;
}

int
profconv_profile_write(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_write_options *opts)
{
	struct sink s = { 0 };
	int level = opts != NULL ? opts->level : -1;
	int rc;

	if (opts != NULL && (rc = profconv__check_version(opts->version,
	    PROFCONV_WRITE_OPTIONS_VERSION, "write")) < 0)
		return rc;
	if (level < -1 || level > 9)
		return profconv__fail(PROFCONV_EINVAL,
		    "compression level %d is not in 0..9", level);
	s.fp = fp;
	s.gz = level != 0;
	if (s.gz) {
		s.out = malloc(SINK_OUT);
		if (s.out == NULL)
			return profconv__nomem();
		/* 16 + MAX_WBITS: write a gzip wrapper. */
		if (deflateInit2(&s.z, level == -1 ? 6 : level, Z_DEFLATED,
		    16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(s.out);
			return profconv__nomem();
		}
	}
	errno = 0;
	rc = encode_header(&s, prof);
	if (rc == 0)
		rc = encode_functions(&s, prof);
	if (rc == 0)
		rc = encode_locations(&s, prof);
	if (rc == 0)
		rc = encode_samples(&s, prof);
	if (rc == 0)
		rc = encode_strings(&s, prof);
	if (rc == 0 && s.gz)
		rc = sink_write(&s, NULL, 0, Z_FINISH);
	if (rc == 0 && fflush(fp) != 0)
		rc = sink_io_error();
	if (s.gz)
		deflateEnd(&s.z);
	free(s.out);
	free(s.pack);
	return rc;
}
