/* SPDX-License-Identifier: MIT */
/*
 * access.c - the profile model's public getters: counts, header fields,
 * and mappings, functions, locations and samples by id or index.  They
 * read through model.h's accessors, as every file but profile.c does.
 */

#include "config.h"

#include <string.h>

#include "model/model.h"

size_t
profconv_profile_sample_type_count(const struct profconv_profile *prof)
{
	return prof->nsample_types;
}

size_t
profconv_profile_sample_count(const struct profconv_profile *prof)
{
	return prof->nsamples;
}

size_t
profconv_profile_mapping_count(const struct profconv_profile *prof)
{
	return prof->nmappings;
}

size_t
profconv_profile_function_count(const struct profconv_profile *prof)
{
	return prof->nfunctions;
}

size_t
profconv_profile_location_count(const struct profconv_profile *prof)
{
	return prof->nlocations;
}

size_t
profconv_profile_comment_count(const struct profconv_profile *prof)
{
	return prof->ncomments;
}

int
profconv_profile_sample_type(const struct profconv_profile *prof, size_t i,
    struct profconv_value_type *out)
{
	if (i >= prof->nsample_types)
		return profconv__fail(PROFCONV_EINVAL,
		    "no sample type %zu", i);
	out->type = profconv__pstr(prof, prof->sample_types[i].type);
	out->unit = profconv__pstr(prof, prof->sample_types[i].unit);
	return 0;
}

int
profconv_profile_sample_type_index(const struct profconv_profile *prof,
    const char *type)
{
	size_t i;

	for (i = 0; i < prof->nsample_types; i++)
		if (strcmp(profconv__pstr(prof, prof->sample_types[i].type),
		    type) == 0)
			return (int)i;
	return PROFCONV_ENOTFOUND;
}

int
profconv_profile_default_sample_index(const struct profconv_profile *prof)
{
	size_t i;

	if (prof->nsample_types == 0)
		return PROFCONV_ENOTFOUND;
	for (i = 0; prof->default_sample_type != 0 &&
	    i < prof->nsample_types; i++)
		if (prof->sample_types[i].type == prof->default_sample_type)
			return (int)i;
	return (int)prof->nsample_types - 1;
}

int64_t
profconv_profile_period(const struct profconv_profile *prof,
    struct profconv_value_type *type_out)
{
	if (type_out != NULL) {
		type_out->type = profconv__pstr(prof, prof->period_type.type);
		type_out->unit = profconv__pstr(prof, prof->period_type.unit);
	}
	return prof->period;
}

const char *
profconv_profile_default_sample_type(const struct profconv_profile *prof)
{
	return profconv__pstr(prof, prof->default_sample_type);
}

const char *
profconv_profile_drop_frames(const struct profconv_profile *prof)
{
	return profconv__pstr(prof, prof->drop_frames);
}

const char *
profconv_profile_keep_frames(const struct profconv_profile *prof)
{
	return profconv__pstr(prof, prof->keep_frames);
}

const char *
profconv_profile_doc_url(const struct profconv_profile *prof)
{
	return profconv__pstr(prof, prof->doc_url);
}

const char *
profconv_profile_comment(const struct profconv_profile *prof, size_t i)
{
	return i < prof->ncomments ?
	    profconv__pstr(prof, prof->comments[i]) : NULL;
}

int64_t
profconv_profile_time_nanos(const struct profconv_profile *prof)
{
	return prof->time_nanos;
}

int64_t
profconv_profile_duration_nanos(const struct profconv_profile *prof)
{
	return prof->duration_nanos;
}

int
profconv_profile_mapping(const struct profconv_profile *prof, uint32_t id,
    struct profconv_mapping *out)
{
	const struct pc_mapping *m;

	if (id == 0 || id > prof->nmappings)
		return profconv__fail(PROFCONV_EINVAL, "no mapping %u", id);
	m = pc_mapping(prof, id);
	memset(out, 0, sizeof(*out));
	out->start = m->start;
	out->limit = m->limit;
	out->offset = m->offset;
	out->file = profconv__pstr(prof, m->file);
	out->build_id = profconv__pstr(prof, m->build_id);
	out->has_functions = (m->flags & PC_MAP_HAS_FUNCTIONS) != 0;
	out->has_filenames = (m->flags & PC_MAP_HAS_FILENAMES) != 0;
	out->has_line_numbers = (m->flags & PC_MAP_HAS_LINE_NUMBERS) != 0;
	out->has_inline_frames = (m->flags & PC_MAP_HAS_INLINE_FRAMES) != 0;
	return 0;
}

int
profconv_profile_function(const struct profconv_profile *prof, uint32_t id,
    struct profconv_function *out)
{
	const struct pc_function *f;

	if (id == 0 || id > prof->nfunctions)
		return profconv__fail(PROFCONV_EINVAL, "no function %u", id);
	f = pc_function(prof, id);
	out->name = profconv__pstr(prof, f->name);
	out->system_name = profconv__pstr(prof, f->system_name);
	out->file = profconv__pstr(prof, f->file);
	out->start_line = f->start_line;
	return 0;
}

/* The public line struct has the layout of the private one only by
 * accident of field order; keep them in step. */
_Static_assert(sizeof(struct pc_line) == sizeof(struct profconv_line),
    "pc_line and profconv_line differ");
_Static_assert(offsetof(struct pc_line, line) ==
    offsetof(struct profconv_line, line), "pc_line.line moved");
_Static_assert(offsetof(struct pc_line, column) ==
    offsetof(struct profconv_line, column), "pc_line.column moved");

int
profconv_profile_location(const struct profconv_profile *prof, uint32_t id,
    struct profconv_location *out)
{
	const struct pc_location *l;

	if (id == 0 || id > prof->nlocations)
		return profconv__fail(PROFCONV_EINVAL, "no location %u", id);
	l = pc_location(prof, id);
	*out = (struct profconv_location){
		.mapping_id = l->mapping,
		.address = l->address,
		.lines = (const struct profconv_line *)pc_location_lines(prof,
		    l),
		.nlines = l->nlines,
		.is_folded = l->is_folded,
	};
	return 0;
}

int
profconv_profile_sample(const struct profconv_profile *prof, size_t i,
    struct profconv_sample *out)
{
	const struct pc_sample *s;

	if (i >= prof->nsamples)
		return profconv__fail(PROFCONV_EINVAL, "no sample %zu", i);
	s = pc_sample(prof, i);
	*out = (struct profconv_sample){
		.nlocations = s->nlocs,
		.values = prof->nsample_types != 0 ?
		    pc_sample_values(prof, i) : NULL,
		.nlabels = s->nlabels,
	};
	return 0;
}

int
profconv_profile_sample_locations(const struct profconv_profile *prof,
    size_t i, uint32_t *ids, size_t cap, size_t *nlocations)
{
	const struct pc_sample *s;
	struct pc_stack k;
	size_t j, n;
	int rc;

	if (i >= prof->nsamples)
		return profconv__fail(PROFCONV_EINVAL, "no sample %zu", i);
	if ((rc = profconv__need_stacks(prof, "a sample's locations")) < 0)
		return rc;
	s = pc_sample(prof, i);
	k = pc_sample_stack(prof, s);
	n = s->nlocs;
	for (j = 0; j < n && j < cap; j++)
		ids[j] = pc_stack_at(k, j);
	if (nlocations != NULL)
		*nlocations = n;
	return 0;
}

int
profconv_profile_sample_label(const struct profconv_profile *prof, size_t i,
    size_t j, struct profconv_label *out)
{
	const struct pc_label *l;

	if (i >= prof->nsamples || j >= pc_sample(prof, i)->nlabels)
		return profconv__fail(PROFCONV_EINVAL,
		    "no label %zu in sample %zu", j, i);
	l = pc_sample_labels(prof, pc_sample(prof, i)) + j;
	out->key = profconv__pstr(prof, l->key);
	out->str = l->str != 0 ? profconv__pstr(prof, l->str) : NULL;
	out->num = l->num;
	out->unit = l->unit != 0 ? profconv__pstr(prof, l->unit) : NULL;
	return 0;
}

int
profconv_profile_total(const struct profconv_profile *prof, size_t type_index,
    int64_t *out)
{
	const int64_t *v;
	int64_t sum = 0;
	size_t i, nt = prof->nsample_types;

	if (type_index >= nt)
		return profconv__fail(PROFCONV_EINVAL,
		    "no sample type %zu", type_index);
	for (i = 0; i < prof->nsamples; i++) {
		v = pc_sample_values(prof, i) + type_index;
		pc_add_sat(&sum, *v);
	}
	*out = sum;
	return 0;
}
