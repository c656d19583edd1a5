/* SPDX-License-Identifier: MIT */
/* profile.c - the profile model: lifetime, builders and accessors. */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/seams.h"

int
profconv_profile_new(struct profconv_profile **out)
{
	struct profconv_profile *prof;
	int rc;

	*out = NULL;
	prof = calloc(1, sizeof(*prof));
	if (prof == NULL)
		return profconv__nomem();
	rc = profconv__strtab_init(&prof->strings);
	if (rc == 0) {
		rc = profconv__strtab_init(&prof->build_dirs);
		if (rc < 0)
			profconv__strtab_free(&prof->strings);
	}
	if (rc < 0) {
		free(prof);
		return rc;
	}
	*out = prof;
	return 0;
}

void
profconv_profile_free(struct profconv_profile *prof)
{
	if (prof == NULL)
		return;
	profconv__strtab_free(&prof->strings);
	profconv__strtab_free(&prof->build_dirs);
	free(prof->sample_types);
	free(prof->comments);
	free(prof->mappings);
	free(prof->functions);
	free(prof->locations);
	free(prof->lines);
	free(prof->samples);
	free(prof->stack);
	free(prof->values);
	free(prof->labels);
	free(prof->labelsets);
	free(prof->read_warning);
	free(prof);
}

int
profconv__intern(struct profconv_profile *prof, const char *s, uint32_t *idx)
{
	return profconv__strtab_intern_cstr(&prof->strings, s, idx);
}

int
profconv__set_read_warning(struct profconv_profile *prof, const char *msg)
{
	char *copy = strdup(msg);

	if (copy == NULL)
		return profconv__nomem();
	free(prof->read_warning);
	prof->read_warning = copy;
	return 0;
}

const char *
profconv_profile_read_warning(const struct profconv_profile *prof)
{
	return prof->read_warning;
}

size_t
profconv_profile_repaired_strings(const struct profconv_profile *prof)
{
	return prof->strings.repaired;
}

/* --- header fields -------------------------------------------------------- */

int
profconv_profile_add_sample_type(struct profconv_profile *prof,
    const char *type, const char *unit)
{
	struct pc_vtype vt;
	int rc;

	if (prof->nsamples != 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "sample types must be added before samples");
	rc = profconv__intern(prof, type, &vt.type);
	if (rc == 0)
		rc = profconv__intern(prof, unit, &vt.unit);
	if (rc == 0)
		rc = profconv__add_sample_type_raw(prof, &vt);
	return rc;
}

int
profconv__add_sample_type_raw(struct profconv_profile *prof,
    const struct pc_vtype *vt)
{
	int rc = PC_GROW(prof->sample_types, prof->sample_types_cap,
	    prof->nsample_types, 1);

	if (rc < 0)
		return rc;
	prof->sample_types[prof->nsample_types++] = *vt;
	return 0;
}

int
profconv_profile_set_period(struct profconv_profile *prof, const char *type,
    const char *unit, int64_t period)
{
	struct pc_vtype vt;
	int rc;

	rc = profconv__intern(prof, type, &vt.type);
	if (rc == 0)
		rc = profconv__intern(prof, unit, &vt.unit);
	if (rc < 0)
		return rc;
	prof->period_type = vt;
	prof->period = period;
	return 0;
}

int
profconv_profile_set_default_sample_type(struct profconv_profile *prof,
    const char *type)
{
	return profconv__intern(prof, type, &prof->default_sample_type);
}

int
profconv_profile_set_drop_frames(struct profconv_profile *prof,
    const char *regex)
{
	return profconv__intern(prof, regex, &prof->drop_frames);
}

int
profconv_profile_set_keep_frames(struct profconv_profile *prof,
    const char *regex)
{
	return profconv__intern(prof, regex, &prof->keep_frames);
}

int
profconv_profile_set_doc_url(struct profconv_profile *prof, const char *url)
{
	return profconv__intern(prof, url, &prof->doc_url);
}

void
profconv_profile_set_time(struct profconv_profile *prof, int64_t time_nanos,
    int64_t duration_nanos)
{
	prof->time_nanos = time_nanos;
	prof->duration_nanos = duration_nanos;
}

int
profconv_profile_add_comment(struct profconv_profile *prof,
    const char *comment)
{
	uint32_t idx;
	int rc;

	rc = profconv__intern(prof, comment, &idx);
	if (rc == 0)
		rc = profconv__add_comment_raw(prof, idx);
	return rc;
}

int
profconv__add_commentf(struct profconv_profile *prof, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return profconv_profile_add_comment(prof, buf);
}

int
profconv__add_comment_raw(struct profconv_profile *prof, uint32_t str)
{
	int rc = PC_GROW(prof->comments, prof->comments_cap, prof->ncomments,
	    1);

	if (rc < 0)
		return rc;
	prof->comments[prof->ncomments++] = str;
	return 0;
}

/* --- mappings, functions, locations ----------------------------------------- */

int
profconv_profile_add_mapping(struct profconv_profile *prof,
    const struct profconv_mapping *m, uint32_t *id_out)
{
	struct pc_mapping pm = { 0 };
	int rc;

	pm.start = m->start;
	pm.limit = m->limit;
	pm.offset = m->offset;
	pm.flags = (m->has_functions ? PC_MAP_HAS_FUNCTIONS : 0) |
	    (m->has_filenames ? PC_MAP_HAS_FILENAMES : 0) |
	    (m->has_line_numbers ? PC_MAP_HAS_LINE_NUMBERS : 0) |
	    (m->has_inline_frames ? PC_MAP_HAS_INLINE_FRAMES : 0);
	rc = profconv__intern(prof, m->file, &pm.file);
	if (rc == 0)
		rc = profconv__intern(prof, m->build_id, &pm.build_id);
	if (rc == 0)
		rc = profconv__add_mapping_raw(prof, &pm, id_out);
	return rc;
}

int
profconv__add_mapping_raw(struct profconv_profile *prof,
    const struct pc_mapping *m, uint32_t *id_out)
{
	int rc;

	if (prof->nmappings >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "too many mappings");
	rc = PC_GROW(prof->mappings, prof->mappings_cap, prof->nmappings, 1);
	if (rc < 0)
		return rc;
	prof->mappings[prof->nmappings++] = *m;
	if (id_out != NULL)
		*id_out = (uint32_t)prof->nmappings;
	return 0;
}

int
profconv_profile_add_function(struct profconv_profile *prof,
    const struct profconv_function *f, uint32_t *id_out)
{
	struct pc_function pf;
	int rc;

	pf.start_line = f->start_line;
	pf.build_dir = 0;
	rc = profconv__intern(prof, f->name, &pf.name);
	if (rc == 0)
		rc = profconv__intern(prof, f->system_name, &pf.system_name);
	if (rc == 0)
		rc = profconv__intern(prof, f->file, &pf.file);
	if (rc == 0)
		rc = profconv__add_function_raw(prof, &pf, id_out);
	return rc;
}

int
profconv__add_function_raw(struct profconv_profile *prof,
    const struct pc_function *f, uint32_t *id_out)
{
	int rc;

	if (prof->nfunctions >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "too many functions");
	rc = PC_GROW(prof->functions, prof->functions_cap, prof->nfunctions,
	    1);
	if (rc < 0)
		return rc;
	prof->functions[prof->nfunctions++] = *f;
	if (id_out != NULL)
		*id_out = (uint32_t)prof->nfunctions;
	return 0;
}

int
profconv__add_location_raw(struct profconv_profile *prof, uint32_t mapping,
    uint64_t address, const struct pc_line *lines, size_t nlines,
    bool is_folded, uint32_t *id_out)
{
	struct pc_location *loc;
	int rc;

	if (nlines > UINT32_MAX || prof->nlocations >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "too many locations");
	rc = PC_GROW(prof->locations, prof->locations_cap, prof->nlocations,
	    1);
	if (rc == 0)
		rc = PC_GROW(prof->lines, prof->lines_cap, prof->nlines,
		    nlines);
	if (rc < 0)
		return rc;
	loc = &prof->locations[prof->nlocations++];
	loc->address = address;
	loc->mapping = mapping;
	loc->is_folded = is_folded;
	loc->fn_offset = 0;
	loc->has_fn_offset = false;
	loc->line_off = prof->nlines;
	loc->nlines = (uint32_t)nlines;
	if (nlines != 0)
		memcpy(&prof->lines[prof->nlines], lines, nlines * sizeof(*lines));
	prof->nlines += nlines;
	if (id_out != NULL)
		*id_out = (uint32_t)prof->nlocations;
	return 0;
}

int
profconv__set_location_lines(struct profconv_profile *prof, uint32_t id,
    const struct pc_line *lines, size_t n)
{
	struct pc_location *loc = &prof->locations[id - 1];
	int rc;

	if (n > UINT32_MAX)
		return profconv__fail(PROFCONV_ENOMEM, "too many lines");
	rc = PC_GROW(prof->lines, prof->lines_cap, prof->nlines, n);
	if (rc < 0)
		return rc;
	if (n != 0)
		memcpy(&prof->lines[prof->nlines], lines, n * sizeof(*lines));
	loc->line_off = prof->nlines;
	loc->nlines = (uint32_t)n;
	loc->is_folded = false;
	/* Other lines, maybe another function: its start is not known. */
	loc->fn_offset = 0;
	loc->has_fn_offset = false;
	prof->nlines += n;
	return 0;
}

void
profconv__set_location_fn_offset(struct profconv_profile *prof, uint32_t id,
    uint32_t offset)
{
	prof->locations[id - 1].fn_offset = offset;
	prof->locations[id - 1].has_fn_offset = true;
}

void
profconv__set_location_mapping(struct profconv_profile *prof, uint32_t id,
    uint32_t mapping)
{
	prof->locations[id - 1].mapping = mapping;
}

void
profconv__set_function_build_dir(struct profconv_profile *prof, uint32_t id,
    uint32_t build_dir)
{
	if (prof->functions[id - 1].build_dir == 0)
		prof->functions[id - 1].build_dir = build_dir;
}

int
profconv__compact_mappings(struct profconv_profile *prof, const bool *keep)
{
	uint32_t *newid = calloc(prof->nmappings + 1, sizeof(*newid));
	size_t i, n = 0;

	if (newid == NULL)
		return profconv__nomem();
	for (i = 1; i <= prof->nmappings; i++) {
		if (!keep[i])
			continue;
		prof->mappings[n] = prof->mappings[i - 1];
		newid[i] = (uint32_t)++n;
	}
	prof->nmappings = n;
	for (i = 0; i < prof->nlocations; i++)
		prof->locations[i].mapping = newid[prof->locations[i].mapping];
	free(newid);
	return 0;
}

int
profconv_profile_add_location(struct profconv_profile *prof,
    uint32_t mapping_id, uint64_t address, const struct profconv_line *lines,
    size_t nlines, int is_folded, uint32_t *id_out)
{
	struct pc_line *pl;
	size_t i;
	int rc;

	if (mapping_id > prof->nmappings)
		return profconv__fail(PROFCONV_EINVAL,
		    "location refers to unknown mapping %u", mapping_id);
	for (i = 0; i < nlines; i++)
		if (lines[i].function_id == 0 ||
		    lines[i].function_id > prof->nfunctions)
			return profconv__fail(PROFCONV_EINVAL,
			    "location line refers to unknown function %u",
			    lines[i].function_id);
	pl = nlines != 0 ? malloc(nlines * sizeof(*pl)) : NULL;
	if (nlines != 0 && pl == NULL)
		return profconv__nomem();
	for (i = 0; i < nlines; i++) {
		pl[i].function = lines[i].function_id;
		pl[i].line = lines[i].line;
		pl[i].column = lines[i].column;
	}
	rc = profconv__add_location_raw(prof, mapping_id, address, pl, nlines,
	    is_folded != 0, id_out);
	free(pl);
	return rc;
}

/* --- samples ---------------------------------------------------------------- */

/* The slot of PROF's label sets for LABELS (N > 0). */
static struct pc_labelset *
labelset_slot(const struct profconv_profile *prof,
    const struct pc_label *labels, size_t n)
{
	uint64_t h = n;
	size_t i;

	for (i = 0; i < n; i++) {
		h = profconv__hash_u64(h ^ ((uint64_t)labels[i].key << 32 |
		    labels[i].str));
		h = profconv__hash_u64(h ^ labels[i].unit);
		h = profconv__hash_u64(h ^ (uint64_t)labels[i].num);
	}
	return &prof->labelsets[h & (PC_LABELSETS - 1)];
}

/* Does PROF hold LABELS (N) at SET's place, field by field? */
static bool
labelset_is(const struct profconv_profile *prof,
    const struct pc_labelset *set, const struct pc_label *labels, size_t n)
{
	/* An empty slot, or a place past the labels held (none yet). */
	return set->n == n && set->off + n <= prof->nlabels &&
	    pc_labels_equal(prof->labels + set->off, labels, n);
}

/* The bytes one of PROF's location ids takes. */
static size_t
stack_size(const struct profconv_profile *prof)
{
	return prof->stack_wide ? sizeof(uint32_t) : sizeof(uint16_t);
}

/*
 * Room for N more location ids in PROF, in the width it holds them.  The
 * readers call it once per sample, so the check comes first.
 */
static int
stack_grow(struct profconv_profile *prof, size_t n)
{
	return pc_grow(&prof->stack, &prof->stack_cap, prof->nstack, n,
	    stack_size(prof));
}

/*
 * Hold PROF's location ids in four bytes from now on: the array made
 * twice as large where it lies, then each id moved out to its new place
 * from the last, so that none is overwritten before it is read (id I's
 * four bytes begin at 4I, past the two bytes of every id before it).
 * Byte copies: the same memory is read as one type and written as another.
 */
static int
stack_widen(struct profconv_profile *prof)
{
	unsigned char *p = prof->stack;
	size_t i;

	if (prof->stack_cap > SIZE_MAX / sizeof(uint32_t))
		return profconv__nomem();
	if (prof->stack_cap != 0) {
		p = realloc(p, prof->stack_cap * sizeof(uint32_t));
		if (p == NULL)
			return profconv__nomem();
	}
	for (i = prof->nstack; i > 0; i--) {
		uint16_t narrow;
		uint32_t wide;

		memcpy(&narrow, p + (i - 1) * sizeof(narrow), sizeof(narrow));
		wide = narrow;
		memcpy(p + (i - 1) * sizeof(wide), &wide, sizeof(wide));
	}
	prof->stack = p;
	prof->stack_wide = true;
	return 0;
}

/*
 * Append the N ids at LOCS to PROF's stacks (room made for them in the
 * width held).  Two bytes each while they fit: written so as they are
 * checked, in one pass; an id that does not fit widens every id held,
 * and these are written again in four.
 */
static int
stack_append(struct profconv_profile *prof, const uint32_t *locs, size_t n)
{
	uint32_t all = 0;
	size_t i;
	int rc;

	if (n == 0)
		return 0;	/* the array may not exist yet */
	if (!prof->stack_wide) {
		uint16_t *to = (uint16_t *)prof->stack + prof->nstack;

		for (i = 0; i < n; i++) {
			all |= locs[i];
			to[i] = (uint16_t)locs[i];
		}
		if (all <= UINT16_MAX) {
			prof->nstack += n;
			return 0;
		}
		if ((rc = stack_widen(prof)) < 0)
			return rc;
	}
	memcpy((uint32_t *)prof->stack + prof->nstack, locs,
	    n * sizeof(*locs));
	prof->nstack += n;
	return 0;
}

int
profconv__add_sample_raw(struct profconv_profile *prof, const uint32_t *locs,
    size_t nlocs, const int64_t *values, const struct pc_label *labels,
    size_t nlabels)
{
	size_t nv = prof->nsample_types;
	struct pc_labelset *set = NULL;
	struct pc_sample *s;
	int rc;

	if (nlocs > UINT32_MAX || nlabels > UINT32_MAX)
		return profconv__fail(PROFCONV_EINVAL, "sample is too large");
	if (nlabels != 0) {
		if (prof->labelsets == NULL && (prof->labelsets =
		    calloc(PC_LABELSETS, sizeof(*prof->labelsets))) == NULL)
			return profconv__nomem();
		set = labelset_slot(prof, labels, nlabels);
		if (labelset_is(prof, set, labels, nlabels))
			nlabels = 0;	/* shared: nothing to add */
		else
			set->n = 0;	/* taken below */
	}
	rc = PC_GROW(prof->samples, prof->samples_cap, prof->nsamples, 1);
	if (rc == 0)
		rc = stack_grow(prof, nlocs);
	if (rc == 0)
		rc = PC_GROW(prof->values, prof->values_cap, prof->nvalues, nv);
	if (rc == 0)
		rc = PC_GROW(prof->labels, prof->labels_cap, prof->nlabels,
		    nlabels);
	if (rc < 0)
		return rc;
	s = &prof->samples[prof->nsamples];
	s->loc_off = prof->nstack;
	/* The stack first: the one step that can fail from here on. */
	if ((rc = stack_append(prof, locs, nlocs)) < 0)
		return rc;
	prof->nsamples++;
	s->nlocs = (uint32_t)nlocs;
	s->label_off = prof->nlabels;
	s->nlabels = (uint32_t)nlabels;
	if (set != NULL && set->n != 0) {	/* shared */
		s->label_off = set->off;
		s->nlabels = set->n;
	} else if (set != NULL) {
		set->off = prof->nlabels;
		set->n = (uint32_t)nlabels;
	}
	if (nv != 0)
		memcpy(&prof->values[prof->nvalues], values, nv * sizeof(*values));
	prof->nvalues += nv;
	if (nlabels != 0)
		memcpy(&prof->labels[prof->nlabels], labels,
		    nlabels * sizeof(*labels));
	prof->nlabels += nlabels;
	return 0;
}

#define PC_SWAP(a, b) do {					\
	__typeof__(a) pc_swap_tmp_ = (a);				\
	(a) = (b);							\
	(b) = pc_swap_tmp_;						\
} while (0)

void
profconv__samples_handoff(struct profconv_profile *from,
    struct profconv_profile *to)
{
	PC_SWAP(from->samples, to->samples);
	PC_SWAP(from->samples_cap, to->samples_cap);
	PC_SWAP(from->stack, to->stack);
	PC_SWAP(from->stack_cap, to->stack_cap);
	PC_SWAP(from->stack_wide, to->stack_wide);
	PC_SWAP(from->values, to->values);
	PC_SWAP(from->values_cap, to->values_cap);
	PC_SWAP(from->labels, to->labels);
	PC_SWAP(from->labels_cap, to->labels_cap);
	to->nsamples = from->nsamples;
	to->nstack = from->nstack;
	to->nvalues = from->nvalues;
	to->nlabels = from->nlabels;
	to->nsample_types = from->nsample_types;
	from->nsamples = from->nstack = from->nvalues = from->nlabels = 0;
	/* The places the label sets knew have moved, or are gone. */
	free(from->labelsets);
	free(to->labelsets);
	from->labelsets = to->labelsets = NULL;
}

#undef PC_SWAP

int
profconv__reserve(struct profconv_profile *prof, const struct pc_reserve *n)
{
	int rc;

	rc = PC_GROW(prof->sample_types, prof->sample_types_cap,
	    prof->nsample_types, n->sample_types);
	if (rc == 0)
		rc = PC_GROW(prof->comments, prof->comments_cap,
		    prof->ncomments, n->comments);
	if (rc == 0)
		rc = PC_GROW(prof->mappings, prof->mappings_cap,
		    prof->nmappings, n->mappings);
	if (rc == 0)
		rc = PC_GROW(prof->functions, prof->functions_cap,
		    prof->nfunctions, n->functions);
	if (rc == 0)
		rc = PC_GROW(prof->locations, prof->locations_cap,
		    prof->nlocations, n->locations);
	if (rc == 0)
		rc = PC_GROW(prof->lines, prof->lines_cap, prof->nlines,
		    n->lines);
	if (rc == 0)
		rc = PC_GROW(prof->samples, prof->samples_cap, prof->nsamples,
		    n->samples);
	if (rc == 0)
		rc = stack_grow(prof, n->stack);
	if (rc == 0)
		rc = PC_GROW(prof->values, prof->values_cap, prof->nvalues,
		    n->values);
	if (rc == 0)
		rc = PC_GROW(prof->labels, prof->labels_cap, prof->nlabels,
		    n->labels);
	return rc;
}

/* Does TYPE name one of the N types TYPES? */
static bool
has_type(const struct pc_vtype *types, size_t n, uint32_t type)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (types[i].type == type)
			return true;
	return false;
}

int
profconv__retype(struct profconv_profile *prof, const struct pc_vtype *types,
    const ptrdiff_t *from, size_t n)
{
	size_t i, j, nt = prof->nsample_types, cap = 0, tcap = 0;
	struct pc_vtype *nty = NULL;
	int64_t *nv = NULL;
	int rc;

	if (n != 0 && prof->nsamples > SIZE_MAX / sizeof(*nv) / n)
		return profconv__nomem();
	rc = PC_GROW(nty, tcap, 0, n);
	if (rc == 0)
		rc = PC_GROW(nv, cap, 0, prof->nsamples * n);
	if (rc < 0) {
		free(nty);
		return rc;
	}
	if (n != 0)
		memcpy(nty, types, n * sizeof(*types));
	for (i = 0; i < prof->nsamples; i++)
		for (j = 0; j < n; j++)
			nv[i * n + j] = from[j] >= 0 ?
			    prof->values[i * nt + (size_t)from[j]] : 0;
	if (prof->default_sample_type != 0 &&
	    !has_type(nty, n, prof->default_sample_type))
		prof->default_sample_type = n != 0 ? nty[0].type : 0;
	free(prof->sample_types);
	free(prof->values);
	prof->sample_types = nty;
	prof->nsample_types = n;
	prof->sample_types_cap = tcap;
	prof->values = nv;
	prof->nvalues = prof->nsamples * n;
	prof->values_cap = cap;
	return 0;
}

static int
label_from_public(struct profconv_profile *prof,
    const struct profconv_label *in, struct pc_label *out)
{
	int rc;

	out->num = in->str != NULL ? 0 : in->num;
	rc = profconv__intern(prof, in->key, &out->key);
	if (rc == 0)
		rc = profconv__intern(prof, in->str, &out->str);
	if (rc == 0)
		rc = profconv__intern(prof, in->str != NULL ? NULL : in->unit,
		    &out->unit);
	if (rc == 0 && in->str != NULL && out->str == 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "string label '%s' has an empty value", in->key);
	return rc;
}

int
profconv_profile_add_sample(struct profconv_profile *prof,
    const uint32_t *location_ids, size_t nlocations, const int64_t *values,
    const struct profconv_label *labels, size_t nlabels)
{
	struct pc_label stackbuf[8], *pl = stackbuf;
	size_t i;
	int rc;

	if ((rc = profconv__need_stacks(prof, "adding a sample")) < 0)
		return rc;
	for (i = 0; i < nlocations; i++)
		if (location_ids[i] == 0 || location_ids[i] > prof->nlocations)
			return profconv__fail(PROFCONV_EINVAL,
			    "sample refers to unknown location %u",
			    location_ids[i]);
	if (nlabels > PC_ARRAY_LEN(stackbuf)) {
		pl = malloc(nlabels * sizeof(*pl));
		if (pl == NULL)
			return profconv__nomem();
	}
	for (i = 0; i < nlabels && rc == 0; i++)
		rc = label_from_public(prof, &labels[i], &pl[i]);
	if (rc == 0)
		rc = profconv__add_sample_raw(prof, location_ids, nlocations,
		    values, pl, nlabels);
	if (pl != stackbuf)
		free(pl);
	return rc;
}

void
profconv__keep_samples(struct profconv_profile *prof,
    bool (*keep)(const struct profconv_profile *prof, size_t i,
    void *payload), void *payload)
{
	size_t i, nt = prof->nsample_types, kept = 0;

	for (i = 0; i < prof->nsamples; i++) {
		if (!keep(prof, i, payload))
			continue;
		if (kept != i) {
			prof->samples[kept] = prof->samples[i];
			memmove(&prof->values[kept * nt], &prof->values[i * nt],
			    nt * sizeof(*prof->values));
		}
		kept++;
	}
	prof->nsamples = kept;
	prof->nvalues = kept * nt;
}

void
profconv_profile_drop_stacks(struct profconv_profile *prof)
{
	size_t i;

	if (prof == NULL || prof->stacks_dropped)
		return;
	free(prof->stack);
	prof->stack = NULL;
	prof->nstack = prof->stack_cap = 0;
	for (i = 0; i < prof->nsamples; i++) {
		prof->samples[i].loc_off = 0;
		prof->samples[i].nlocs = 0;
	}
	prof->stacks_dropped = true;
}

int
profconv_profile_has_stacks(const struct profconv_profile *prof)
{
	return !prof->stacks_dropped;
}

int
profconv__need_stacks(const struct profconv_profile *prof, const char *what)
{
	if (!prof->stacks_dropped)
		return 0;
	return profconv__fail(PROFCONV_EINVAL, "%s needs the profile's "
	    "stacks, and they were given back (profconv_profile_drop_stacks())",
	    what);
}

void
profconv_profile_set_stacks_disposable(struct profconv_profile *prof)
{
	prof->stacks_disposable = true;
}

struct profconv_profile *
profconv__disposable(const struct profconv_profile *prof)
{
	/* Made by profconv_profile_new(), never const: its owner said. */
	return prof->stacks_disposable ? (struct profconv_profile *)prof :
	    NULL;
}
