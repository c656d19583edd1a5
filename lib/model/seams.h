/* SPDX-License-Identifier: MIT */
/*
 * seams.h - the only doors through which the model changes: profile.c
 * grows, compacts and re-lays out its arrays, and everything else that
 * changes a profile calls these.  Included only by the layers allowed to
 * change the model: read/, pprof/, symbolize/, transform/ (and model/).
 * tests/policy/layers.sh checks who includes it.
 */
#ifndef PROFCONV_SEAMS_H
#define PROFCONV_SEAMS_H

#include "model/model.h"

/* Mapping ID, to change its fields (the symbolizer fills in a build id
 * and flags); its place in the array never changes. */
static inline struct pc_mapping *
pc_mapping_mut(struct profconv_profile *prof, uint32_t id)
{
	return &prof->mappings[id - 1];
}

/* The values of sample I, to change in place (a transform scaling
 * them); never resized. */
static inline int64_t *
pc_sample_values_mut(struct profconv_profile *prof, size_t i)
{
	return prof->values + i * prof->nsample_types;
}

/* Intern a C string into PROF's table (NULL is ""). */
int profconv__intern(struct profconv_profile *prof, const char *s,
    uint32_t *idx);

/* Intern string IDX of SRC (its full length) into DST's table. */
static inline int
profconv__intern_from(struct profconv_profile *dst,
    const struct profconv_profile *src, uint32_t idx, uint32_t *out)
{
	return profconv__strtab_intern(&dst->strings, src->strings.strs[idx],
	    src->strings.lens[idx], out);
}

/*
 * Append a sample whose location ids, values and labels are already in
 * the model's terms (string indexes for labels).  Ids are not checked:
 * callers that build from trusted state use this on hot paths.
 */
int profconv__add_sample_raw(struct profconv_profile *prof,
    const uint32_t *locs, size_t nlocs, const int64_t *values,
    const struct pc_label *labels, size_t nlabels);

/*
 * Hand FROM's samples to TO: TO takes FROM's sample arrays as they are
 * (its own samples are dropped) and the number of sample types, and FROM
 * keeps TO's old arrays, emptied, to fill again.  Used to write samples
 * while more are read (pprof/convert_stream.c).  Cannot fail.
 */
void profconv__samples_handoff(struct profconv_profile *from,
    struct profconv_profile *to);

/*
 * Keep only the samples for which KEEP(PROF, I, PAYLOAD) is true, in
 * order; the others' stacks and labels stay unreferenced until the
 * profile is freed.  Cannot fail.
 */
void profconv__keep_samples(struct profconv_profile *prof,
    bool (*keep)(const struct profconv_profile *prof, size_t i,
    void *payload), void *payload);

/* Add a location from model-level lines (no id checks). */
int profconv__add_location_raw(struct profconv_profile *prof,
    uint32_t mapping, uint64_t address, const struct pc_line *lines,
    size_t nlines, bool is_folded, uint32_t *id_out);

/*
 * --- changing the model's layout --------------------------------------------
 * Only profile.c grows, compacts or re-lays out the model's arrays; readers,
 * transforms and the symbolizer go through these.  tests/policy/model-owner.sh
 * checks that no other file does.  Ids passed in are not checked: these
 * serve callers that build from trusted state.
 */

/* Room for N more of each (bulk decoding sizes the arrays once). */
struct pc_reserve {
	size_t sample_types, comments, mappings, functions, locations, lines;
	size_t samples, stack, values, labels;
};
int profconv__reserve(struct profconv_profile *prof,
    const struct pc_reserve *n);

/* Leave MSG (copied) as what the reader found wrong with its input, in
 * place of any earlier one (profconv_profile_read_warning()). */
int profconv__set_read_warning(struct profconv_profile *prof,
    const char *msg);

/* profconv_profile_add_comment() of the printf-style FMT, cut at 511
 * bytes: the readers' notes on what they read. */
int profconv__add_commentf(struct profconv_profile *prof, const char *fmt,
    ...) __attribute__((format(printf, 2, 3)));

/* Append one element already in the model's terms (string indexes). */
int profconv__add_sample_type_raw(struct profconv_profile *prof,
    const struct pc_vtype *vt);
int profconv__add_comment_raw(struct profconv_profile *prof, uint32_t str);
int profconv__add_mapping_raw(struct profconv_profile *prof,
    const struct pc_mapping *m, uint32_t *id_out);
int profconv__add_function_raw(struct profconv_profile *prof,
    const struct pc_function *f, uint32_t *id_out);

/* Give location ID the N lines LINES (innermost first) in place of its
 * own, and unfold it.  Its old lines stay unused in the flat array. */
int profconv__set_location_lines(struct profconv_profile *prof, uint32_t id,
    const struct pc_line *lines, size_t n);

/* Location ID lies OFFSET bytes into its outermost function (the
 * symbolizer found the function's start); see pc_location. */
void profconv__set_location_fn_offset(struct profconv_profile *prof,
    uint32_t id, uint32_t offset);

/* Point location ID at mapping MAPPING (0: none). */
void profconv__set_location_mapping(struct profconv_profile *prof,
    uint32_t id, uint32_t mapping);
/* Function ID's build directory (a prof->build_dirs index), when it has
 * none yet: the first unit that names it wins. */
void profconv__set_function_build_dir(struct profconv_profile *prof,
    uint32_t id, uint32_t build_dir);

/*
 * Keep the mappings whose KEEP[id] is true (KEEP has nmappings + 1
 * entries, [0] unused), renumbering them in order; locations follow, and
 * one whose mapping goes points at none.
 */
int profconv__compact_mappings(struct profconv_profile *prof,
    const bool *keep);

/*
 * Re-lay out the sample types as the N types TYPES: value J of every
 * sample becomes its old value FROM[J], or 0 when FROM[J] is negative.
 * Widening (jemalloc's alloc pair) and narrowing (types in common) are
 * both this.  A default sample type naming no remaining type moves to
 * the first one.
 */
int profconv__retype(struct profconv_profile *prof,
    const struct pc_vtype *types, const ptrdiff_t *from, size_t n);

#endif /* PROFCONV_SEAMS_H */
