/* SPDX-License-Identifier: MIT */
/*
 * decode.c - pprof protobuf bytes into the profile model: the first walk
 * over the Profile's fields, the strings, the header and the tables
 * (mappings, functions, locations), and profconv__pb_decode(), which
 * runs the whole decoding.  The samples, nearly all of a large input and
 * decoded on threads, are decode_samples.c's; what both files need of
 * the wire and of the decoder's state is in wire.h.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "pprof/pprof.h"
#include "pprof/wire.h"

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

static int
spans_add(struct spans *s, const struct field *f)
{
	if (PC_GROW(s->s, s->cap, s->n, 1) < 0)
		return PROFCONV_ENOMEM;
	s->s[s->n++] = (struct span){ f->p, f->len };
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
		case PF_SAMPLE_TYPE: sp = &d->sample_types; break;
		case PF_MAPPING: sp = &d->mappings; break;
		case PF_LOCATION: sp = &d->locations; break;
		case PF_FUNCTION: sp = &d->functions; break;
		case PF_STRING_TABLE: sp = &d->strings; break;
		case PF_PERIOD_TYPE: sp = &d->period_type; break;
		case PF_SAMPLE:
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
		case PF_COMMENT:
			rc = add_numbers(&f, &d->comments, &d->ncomments,
			    &d->comments_cap);
			continue;
		default:
			if (f.num == 0 || f.num > PF_DOC_URL)
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
		rc = dstr(d, (int64_t)sc[PF_DROP_FRAMES],
		    "drop_frames", &prof->drop_frames);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[PF_KEEP_FRAMES],
		    "keep_frames", &prof->keep_frames);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[PF_DEFAULT_SAMPLE_TYPE],
		    "default_sample_type", &prof->default_sample_type);
	if (rc == 0)
		rc = dstr(d, (int64_t)sc[PF_DOC_URL], "doc_url", &prof->doc_url);
	for (i = 0; rc == 0 && i < d->ncomments; i++) {
		rc = dstr(d, d->comments[i], "comment", &str);
		if (rc == 0)
			rc = profconv__add_comment_raw(prof, str);
	}
	prof->period = (int64_t)sc[PF_PERIOD];
	prof->time_nanos = (int64_t)sc[PF_TIME_NANOS];
	prof->duration_nanos = (int64_t)sc[PF_DURATION_NANOS];
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
		f->build_dir = 0;	/* never in a file: model.h */
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

int
profconv__pb_decode(struct profconv_profile **out, const unsigned char *data,
    size_t len, uint64_t budget, unsigned int jobs)
{
	return profconv__pb_decode_releasing(out, data, len, budget, jobs,
	    NULL, NULL);
}

int
profconv__pb_decode_releasing(struct profconv_profile **out,
    const unsigned char *data, size_t len, uint64_t budget,
    unsigned int jobs, void (*release)(void *arg, size_t n), void *arg)
{
	struct decoder d = { .data = data, .len = len, .budget = budget,
	    .jobs = jobs, .release = release, .release_arg = arg };
	int rc;

	*out = NULL;
	rc = find_fields(&d);
	if (rc == 0)
		rc = profconv_profile_new(&d.prof);
	if (rc == 0)
		rc = profconv__pb_reserve_samples(&d);
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
		rc = profconv__pb_decode_samples(&d);
	if (rc == 0 && d.sample_count != 0 && d.sample_types.n == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "profile has samples but no sample types");
	if (rc == PB_WIRE)
		rc = profconv__pb_invalid_from(data, len, d.released);
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
