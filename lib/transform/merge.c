/* SPDX-License-Identifier: MIT */
/*
 * merge.c - merging and subtracting profiles with pprof's semantics
 * (pprof-reference.md section 3): identity across profiles, adding a
 * source's samples, the merger that takes sources one at a time, and
 * profconv_profile_merge() and _subtract() over it.  Scaling is in
 * scale.c, choosing the sample types profiles share in compat.c.
 *
 * Identity across profiles ignores where things were loaded: a mapping is
 * its size (rounded up to 4 KiB), file offset and build id or file name; a
 * location is its mapping and mapping-relative address plus its lines; a
 * sample is its stack plus its labels.  So two runs of one PIE binary
 * merge and cancel as they should.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "transform/merger.h"
#include "transform/types.h"

/* Are string IA of A and IB of B the same bytes (NULs included)? */
static bool
same_str(const struct profconv_profile *a, uint32_t ia,
    const struct profconv_profile *b, uint32_t ib)
{
	return a->strings.lens[ia] == b->strings.lens[ib] &&
	    memcmp(a->strings.strs[ia], b->strings.strs[ib],
	    a->strings.lens[ia]) == 0;
}

bool
profconv__same_vtype(const struct profconv_profile *a,
    const struct pc_vtype *x, const struct profconv_profile *b,
    const struct pc_vtype *y)
{
	return same_str(a, x->type, b, y->type) &&
	    same_str(a, x->unit, b, y->unit);
}

bool
profconv__same_types(const struct profconv_profile *a,
    const struct profconv_profile *b)
{
	size_t i;

	if (a->nsample_types != b->nsample_types)
		return false;
	for (i = 0; i < a->nsample_types; i++)
		if (!profconv__same_vtype(a, pc_sample_type(a, i), b,
		    pc_sample_type(b, i)))
			return false;
	return true;
}

/* "type/unit" of VT into BUF, or "none" when both are empty. */
static const char *
vtype_text(const struct profconv_profile *p, const struct pc_vtype *vt,
    char *buf, size_t size)
{
	const char *t = profconv__pstr(p, vt->type);
	const char *u = profconv__pstr(p, vt->unit);

	if (*t == '\0' && *u == '\0')
		return "none";
	snprintf(buf, size, "%s/%s", t, u);
	return buf;
}

/* WHO names B in messages: "profile 2", "the base profile". */
int
profconv__check_period(const struct profconv_profile *a,
    const struct profconv_profile *b, const char *who)
{
	char x[128], y[128];

	if (profconv__same_vtype(a, &a->period_type, b, &b->period_type))
		return 0;
	return profconv__fail(PROFCONV_EINVAL,
	    "%s is incompatible: period type %s, not %s", who,
	    vtype_text(b, &b->period_type, x, sizeof(x)),
	    vtype_text(a, &a->period_type, y, sizeof(y)));
}

/* The first source gives the sample types, period type and frame rules. */
static int
header_start(struct merger *m, const struct profconv_profile *p0)
{
	struct profconv_profile *dst = m->dst;
	size_t i, nt = p0->nsample_types;
	int rc = 0;

	m->slot = calloc(nt + 1, sizeof(*m->slot));
	m->live = calloc(nt + 1, sizeof(*m->live));
	m->row = calloc(nt + 1, sizeof(*m->row));
	if (m->slot == NULL || m->live == NULL || m->row == NULL)
		return profconv__nomem();
	/* Strings copied whole: a NUL inside one stays. */
	for (i = 0; rc == 0 && i < nt; i++) {
		struct pc_vtype vt;

		m->live[i] = true;
		rc = profconv__intern_from(dst, p0, p0->sample_types[i].type,
		    &vt.type);
		if (rc == 0)
			rc = profconv__intern_from(dst, p0,
			    p0->sample_types[i].unit, &vt.unit);
		if (rc == 0)
			rc = profconv__add_sample_type_raw(dst, &vt);
	}
	if (rc == 0)
		rc = profconv__intern_from(dst, p0, p0->period_type.type,
		    &dst->period_type.type);
	if (rc == 0)
		rc = profconv__intern_from(dst, p0, p0->period_type.unit,
		    &dst->period_type.unit);
	dst->period = p0->period;
	if (rc == 0)
		rc = profconv__intern_from(dst, p0, p0->drop_frames,
		    &dst->drop_frames);
	if (rc == 0)
		rc = profconv__intern_from(dst, p0, p0->keep_frames,
		    &dst->keep_frames);
	return rc;
}

/*
 * Match source P's sample types to the merged ones by name: a type P
 * lacks is not common and goes at the end; a type P has in another unit
 * makes P incompatible.
 */
/* Index of P's sample type named like DST's string TYPE, or -1. */
static int
type_index(const struct profconv_profile *p,
    const struct profconv_profile *dst, uint32_t type)
{
	size_t i;

	for (i = 0; i < p->nsample_types; i++)
		if (same_str(p, p->sample_types[i].type, dst, type))
			return (int)i;
	return -1;
}

static int
match_types(struct merger *m, const struct profconv_profile *p,
    const char *who)
{
	const struct profconv_profile *dst = m->dst;
	size_t k;
	int j;

	for (k = 0; k < dst->nsample_types; k++) {
		const struct pc_vtype *t = pc_sample_type(dst, k);

		j = type_index(p, dst, t->type);
		if (j < 0)
			j = profconv__heap_alias(p, dst, t->type);
		m->slot[k] = j;
		if (j < 0) {
			m->live[k] = false;
			continue;
		}
		if (!same_str(dst, t->unit, p, p->sample_types[j].unit))
			return profconv__fail(PROFCONV_EINVAL,
			    "%s is incompatible: %s is in %s, not %s",
			    who, profconv__pstr(dst, t->type),
			    profconv__pstr(p, p->sample_types[j].unit),
			    profconv__pstr(dst, t->unit));
	}
	return 0;
}

/* Fold source P's header into the merged one. */
static int
header_add(struct merger *m, const struct profconv_profile *p)
{
	struct profconv_profile *dst = m->dst;
	char who[40];
	size_t j, k;
	int rc = 0;

	/* Subtracting, the one taken away is the base of a comparison. */
	if (m->sign < 0)
		snprintf(who, sizeof(who), "the base profile");
	else
		snprintf(who, sizeof(who), "profile %zu", m->nsources + 1);
	if (m->nsources == 0)
		rc = header_start(m, p);
	if (rc == 0)
		rc = profconv__check_period(dst, p, who);
	if (rc == 0)
		rc = match_types(m, p, who);
	if (rc < 0)
		return rc;
	if (p->period > dst->period)
		dst->period = p->period;
	pc_add_sat(&dst->duration_nanos, p->duration_nanos);
	if (p->time_nanos != 0 && (dst->time_nanos == 0 ||
	    p->time_nanos < dst->time_nanos))
		dst->time_nanos = p->time_nanos;
	if (dst->default_sample_type == 0)
		rc = profconv__intern_from(dst, p, p->default_sample_type,
		    &dst->default_sample_type);
	if (rc == 0 && dst->doc_url == 0)
		rc = profconv__intern_from(dst, p, p->doc_url, &dst->doc_url);
	for (j = 0; rc == 0 && j < p->ncomments; j++) {
		uint32_t c;

		rc = profconv__intern_from(dst, p, p->comments[j], &c);
		for (k = 0; rc == 0 && k < dst->ncomments &&
		    dst->comments[k] != c; k++)
			;
		if (rc == 0 && k == dst->ncomments)
			rc = profconv__add_comment_raw(dst, c);
	}
	return rc;
}

static int
key_reserve(struct merger *m, size_t n)
{
	return PC_GROW(m->key, m->key_cap, 0, n);
}

int
profconv__merge_mapping(struct merger *m, uint32_t id, uint32_t *out,
    int64_t *delta)
{
	const struct pc_mapping *s;
	struct pc_mapping d;
	struct { uint64_t size, offset; uint32_t name; } key;
	uint32_t v;
	bool added;
	int rc;

	*out = 0;
	*delta = 0;
	if (id == 0)
		return 0;
	if (m->map_id[id - 1] != 0) {
		*out = m->map_id[id - 1];
		*delta = m->map_delta[id - 1];
		return 0;
	}
	s = pc_mapping(m->src, id);
	memset(&key, 0, sizeof(key));
	key.size = s->limit - s->start;
	key.size = (key.size + 0xfff) & ~(uint64_t)0xfff;
	key.offset = s->offset;
	key.name = s->build_id != 0 ? dstr(m, s->build_id) :
	    s->file != 0 ? dstr(m, s->file) : 0;
	rc = profconv__keymap_intern(&m->mappings, &key, sizeof(key),
	    (uint32_t)m->dst->nmappings + 1, &v, &added);
	if (rc < 0)
		return rc;
	if (added) {
		d = *s;
		d.file = dstr(m, s->file);
		d.build_id = dstr(m, s->build_id);
		rc = profconv__add_mapping_raw(m->dst, &d, NULL);
		if (rc < 0)
			return rc;
	}
	m->map_id[id - 1] = v;
	m->map_delta[id - 1] = (int64_t)(pc_mapping(m->dst, v)->start -
	    s->start);
	*out = v;
	*delta = m->map_delta[id - 1];
	return 0;
}

static int
map_function(struct merger *m, uint32_t id, uint32_t *out)
{
	const struct pc_function *s = pc_function(m->src, id);
	struct pc_function d;
	struct { int64_t start_line; uint32_t name, system_name, file, pad; } key;
	bool added;
	int rc;

	if (m->func_id[id - 1] != 0) {
		*out = m->func_id[id - 1];
		return 0;
	}
	memset(&key, 0, sizeof(key));
	key.start_line = s->start_line;
	key.name = dstr(m, s->name);
	key.system_name = dstr(m, s->system_name);
	key.file = dstr(m, s->file);
	rc = profconv__keymap_intern(&m->functions, &key, sizeof(key),
	    (uint32_t)m->dst->nfunctions + 1, out, &added);
	if (rc == 0 && added) {
		d.start_line = s->start_line;
		d.name = key.name;
		d.system_name = key.system_name;
		d.file = key.file;
		/* The build directory goes with the first of its kind. */
		d.build_dir = 0;
		if (s->build_dir != 0)
			rc = profconv__strtab_intern_cstr(&m->dst->build_dirs,
			    profconv__str(&m->src->build_dirs, s->build_dir),
			    &d.build_dir);
		if (rc == 0)
			rc = profconv__add_function_raw(m->dst, &d, NULL);
	}
	if (rc == 0)
		m->func_id[id - 1] = *out;
	return rc;
}

/* Location key: mapping, mapping-relative address, folded, then lines. */
struct lockey_head {
	uint64_t rel;
	uint32_t mapping, folded;
};

int
profconv__merge_location(struct merger *m, uint32_t id, uint32_t *out)
{
	const struct pc_location *s = pc_location(m->src, id);
	const struct pc_line *sl = pc_location_lines(m->src, s);
	struct lockey_head head;
	uint64_t address;
	int64_t delta;
	uint32_t mid;
	size_t i, klen;
	bool added;
	int rc;

	if (m->loc_id[id - 1] != 0) {
		*out = m->loc_id[id - 1];
		return 0;
	}
	rc = profconv__merge_mapping(m, s->mapping, &mid, &delta);
	if (rc == 0)
		rc = PC_GROW(m->lines, m->lines_cap, 0, s->nlines);
	for (i = 0; rc == 0 && i < s->nlines; i++) {
		const struct pc_line *ln = &sl[i];

		m->lines[i] = *ln;
		rc = map_function(m, ln->function, &m->lines[i].function);
	}
	if (rc < 0)
		return rc;
	address = s->address + (uint64_t)delta;
	memset(&head, 0, sizeof(head));
	head.rel = mid != 0 ? address - pc_mapping(m->dst, mid)->start :
	    address;
	head.mapping = mid;
	head.folded = s->is_folded;
	klen = sizeof(head) + s->nlines * 3 * sizeof(int64_t);
	rc = key_reserve(m, klen);
	if (rc < 0)
		return rc;
	memcpy(m->key, &head, sizeof(head));
	for (i = 0; i < s->nlines; i++) {
		int64_t t[3] = { m->lines[i].function, m->lines[i].line,
			m->lines[i].column };

		memcpy(m->key + sizeof(head) + i * sizeof(t), t, sizeof(t));
	}
	rc = profconv__keymap_intern(&m->locations, m->key, klen,
	    (uint32_t)m->dst->nlocations + 1, out, &added);
	if (rc == 0 && added)
		rc = profconv__add_location_raw(m->dst, mid, address, m->lines,
		    s->nlines, s->is_folded, NULL);
	/* The same place in the same function, wherever it was loaded. */
	if (rc == 0 && added && s->has_fn_offset)
		profconv__set_location_fn_offset(m->dst, *out, s->fn_offset);
	if (rc == 0) {
		m->loc_id[id - 1] = *out;
		m->locs_left--;
	}
	return rc;
}

static void
merger_free(struct merger *m)
{
	profconv__merge_source_done(m);
	profconv__keymap_free(&m->mappings);
	profconv__keymap_free(&m->functions);
	profconv__keymap_free(&m->locations);
	profconv__merge_samples_free(m);
	free(m->key);
	free(m->stack);
	free(m->labels);
	free(m->lines);
	free(m->slot);
	free(m->live);
	free(m->row);
	profconv_profile_free(m->dst);
}

/* --- the merger: sources one at a time --------------------------------------- */

int
profconv_merger_new(struct profconv_merger **out)
{
	struct profconv_merger *mg;
	int rc;

	*out = NULL;
	mg = calloc(1, sizeof(*mg));
	if (mg == NULL)
		return profconv__nomem();
	rc = profconv_profile_new(&mg->m.dst);
	if (rc < 0) {
		free(mg);
		return rc;
	}
	*out = mg;
	return 0;
}

void
profconv_merger_free(struct profconv_merger *mg)
{
	if (mg == NULL)
		return;
	merger_free(&mg->m);
	free(mg);
}

static int
merger_add(struct profconv_merger *mg, const struct profconv_profile *prof,
    int sign, const uint8_t *skip)
{
	int rc;

	if (mg->m.dst == NULL)
		return profconv__fail(PROFCONV_EINVAL, "merger already finished");
	if ((rc = profconv__need_stacks(prof, "merging")) < 0)
		return rc;
	mg->m.sign = sign;
	rc = header_add(&mg->m, prof);
	if (rc == 0)
		rc = profconv__merge_source(&mg->m, prof, sign, skip);
	mg->m.nsources++;
	return rc;
}

int
profconv_merger_add(struct profconv_merger *mg,
    const struct profconv_profile *prof)
{
	return merger_add(mg, prof, 1, NULL);
}

/* Is every value of sample I zero? */
static bool
sample_is_zero(const struct profconv_profile *p, size_t i)
{
	return all_zero(pc_sample_values(p, i), p->nsample_types);
}

/* Drop the sample types some source lacked; then the samples left all
 * zero (cancelled, or nonzero only in a dropped type) and whatever only
 * they used, by merging the result once more. */
static int
finish(struct merger *m, struct profconv_profile **out)
{
	struct profconv_merger *again = NULL;
	size_t *keep, nkeep = 0, k, i;
	bool zero = false;
	int rc;

	keep = calloc(m->dst->nsample_types + 1, sizeof(*keep));
	if (keep == NULL)
		return profconv__nomem();
	for (k = 0; k < m->dst->nsample_types; k++)
		if (m->live[k])
			keep[nkeep++] = k;
	rc = 0;
	if (nkeep == 0 && m->dst->nsample_types != 0)
		rc = profconv__fail(PROFCONV_EINVAL,
		    "profiles have no sample type in common");
	if (rc == 0 && nkeep != m->dst->nsample_types)
		rc = profconv__select_types(m->dst, keep, nkeep);
	free(keep);
	for (i = 0; rc == 0 && !zero && i < m->dst->nsamples; i++)
		zero = sample_is_zero(m->dst, i);
	/* Samples that cancelled and were never made count as zero ones:
	 * what only they used goes the same way. */
	if (rc < 0 || (!zero && m->skipped == 0)) {
		if (rc == 0) {
			*out = m->dst;
			m->dst = NULL;
		}
		return rc;
	}
	rc = profconv_merger_new(&again);
	if (rc == 0)
		rc = profconv_merger_add(again, m->dst);
	if (rc == 0)
		rc = profconv_merger_finish(out, again);
	profconv_merger_free(again);
	return rc;
}

int
profconv_merger_finish(struct profconv_profile **out,
    struct profconv_merger *mg)
{
	*out = NULL;
	if (mg->m.dst == NULL)
		return profconv__fail(PROFCONV_EINVAL, "merger already finished");
	if (mg->m.nsources == 0)
		return profconv__fail(PROFCONV_EINVAL, "no profiles to merge");
	return finish(&mg->m, out);
}

/* Merge PROFS, the I-th weighted by SIGNS[I] (1 or -1; NULL: all 1). */
static int
merge_signed(struct profconv_profile **out,
    const struct profconv_profile *const *profs, const int *signs, size_t n)
{
	struct profconv_merger *mg;
	size_t i;
	int rc;

	*out = NULL;
	rc = profconv_merger_new(&mg);
	for (i = 0; rc == 0 && i < n; i++)
		rc = merger_add(mg, profs[i], signs != NULL ? signs[i] : 1, NULL);
	if (rc == 0)
		rc = profconv_merger_finish(out, mg);
	profconv_merger_free(mg);
	return rc;
}

int
profconv_profile_merge(struct profconv_profile **out,
    struct profconv_profile *const *profs, size_t n)
{
	const struct profconv_profile **srcs;
	size_t i;
	int rc;

	*out = NULL;
	srcs = malloc((n + 1) * sizeof(*srcs));
	if (srcs == NULL)
		return profconv__nomem();
	for (i = 0; i < n; i++)
		srcs[i] = profs[i];
	rc = merge_signed(out, srcs, NULL, n);
	free(srcs);
	return rc;
}

int
profconv__subtract_each(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base)
{
	static const int signs[2] = { 1, -1 };
	const struct profconv_profile *pair[2] = { cur, base };

	return merge_signed(out, pair, signs, 2);
}

int
profconv_profile_subtract(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base)
{
	struct profconv_merger *mg;
	uint8_t *skip_cur = NULL, *skip_base = NULL;
	size_t n;
	int rc;

	/* What cancels is never made (a profile less its own dump costs
	 * no third copy). */
	*out = NULL;
	rc = profconv__merge_census(cur, base, &skip_cur, &skip_base, &n);
	if (rc == 0)
		rc = profconv_merger_new(&mg);
	if (rc == 0) {
		mg->m.skipped = 2 * n;
		rc = merger_add(mg, cur, 1, skip_cur);
		if (rc == 0)
			rc = merger_add(mg, base, -1, skip_base);
		if (rc == 0)
			rc = profconv_merger_finish(out, mg);
		profconv_merger_free(mg);
	}
	free(skip_cur);
	free(skip_base);
	return rc;
}

/*
 * pprof's -diff_base (its fetch.go): BASE labelled pprof::base=true,
 * negated and merged after CUR.  The label keeps BASE's samples apart
 * from CUR's (a sample is its stack and labels), so nothing cancels, and
 * pprof takes the total of the labelled samples as 100%.
 */
int
profconv_profile_diff_base(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base)
{
	struct profconv_merger *mg;
	struct merger *m;
	int rc;

	*out = NULL;
	rc = profconv_merger_new(&mg);
	if (rc < 0)
		return rc;
	m = &mg->m;
	rc = merger_add(mg, cur, 1, NULL);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&m->dst->strings,
		    "pprof::base", &m->base_key);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&m->dst->strings, "true",
		    &m->base_true);
	m->mark_base = true;
	if (rc == 0)
		rc = merger_add(mg, base, -1, NULL);
	if (rc == 0)
		rc = profconv_merger_finish(out, mg);
	profconv_merger_free(mg);
	return rc;
}
