/* SPDX-License-Identifier: MIT */
/*
 * compat.c - making profiles comparable: keeping the sample types they
 * all have (profconv_profiles_compatibilize()), and pprof's two names
 * for the values of one heap profile.  Cut from merge.c because it is
 * about sample types, not samples; the merge asks it which slot of a
 * source stands for a type under the other heap naming.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/seams.h"
#include "transform/types.h"

/* --- sample types common to all ------------------------------------------------ */

/* Keep in PROF only the sample types listed in KEEP (indexes, in order). */
int
profconv__select_types(struct profconv_profile *prof, const size_t *keep,
    size_t nkeep)
{
	struct pc_vtype *types;
	ptrdiff_t *from;
	size_t j;
	int rc;

	/* Every type, in its order (two profiles of one program): the
	 * values stay where they are, not copied (a big profile's take
	 * hundreds of MB). */
	for (j = 0; j < nkeep && keep[j] == j; j++)
		;
	if (j == nkeep && nkeep == prof->nsample_types)
		return 0;
	types = malloc((nkeep + 1) * sizeof(*types));
	from = malloc((nkeep + 1) * sizeof(*from));
	if (types == NULL || from == NULL) {
		free(types);
		free(from);
		return profconv__nomem();
	}
	for (j = 0; j < nkeep; j++) {
		types[j] = prof->sample_types[keep[j]];
		from[j] = (ptrdiff_t)keep[j];
	}
	rc = profconv__retype(prof, types, from, nkeep);
	free(types);
	free(from);
	return rc;
}

/* --- pprof's two names for the values of one heap profile -------------------- */

/*
 * pprof types a legacy heap profile whose alloc totals equal its in-use
 * totals (or are not recorded) objects/space, and one whose totals differ
 * alloc_objects, alloc_space, inuse_objects, inuse_space.  The first dump
 * of a process, written before anything was freed, is the former and the
 * later ones the latter: objects/space are the in-use values and, where
 * alloc totals are recorded, also the allocated ones.
 */
/* Is string IDX of P exactly S (no NUL inside)? */
static bool
str_is(const struct profconv_profile *p, uint32_t idx, const char *s)
{
	return p->strings.lens[idx] == strlen(s) &&
	    memcmp(p->strings.strs[idx], s, p->strings.lens[idx]) == 0;
}

static bool
type_is(const struct profconv_profile *p, size_t i, const char *type,
    const char *unit)
{
	return i < p->nsample_types && str_is(p, p->sample_types[i].type,
	    type) && str_is(p, p->sample_types[i].unit, unit);
}

static bool
is_objects_space(const struct profconv_profile *p)
{
	return p->nsample_types == 2 && type_is(p, 0, "objects", "count") &&
	    type_is(p, 1, "space", "bytes");
}

static bool
has_inuse_types(const struct profconv_profile *p)
{
	int o = profconv_profile_sample_type_index(p, "inuse_objects");
	int s = profconv_profile_sample_type_index(p, "inuse_space");

	return o >= 0 && s >= 0 && type_is(p, (size_t)o, "inuse_objects",
	    "count") && type_is(p, (size_t)s, "inuse_space", "bytes");
}

/*
 * The slot of P that stands for the merged type, string TYPE of DST,
 * under the other naming, or -1: objects/space for alloc_* and inuse_*,
 * inuse_* for objects/space (when DST is typed objects/space).
 */
int
profconv__heap_alias(const struct profconv_profile *p,
    const struct profconv_profile *dst, uint32_t type)
{
	static const char *const alias[][2] = {
		{ "alloc_objects", "objects" }, { "inuse_objects", "objects" },
		{ "alloc_space", "space" }, { "inuse_space", "space" },
		{ "objects", "inuse_objects" }, { "space", "inuse_space" },
	};
	size_t i, first = is_objects_space(dst) ? 4 : 0;

	if (first == 4 ? !has_inuse_types(p) : !is_objects_space(p))
		return -1;
	for (i = first; i < (first == 4 ? 6 : 4); i++)
		if (str_is(dst, type, alias[i][0]))
			return profconv_profile_sample_type_index(p,
			    alias[i][1]);
	return -1;
}

/* Rename an objects/space profile to the four heap types pprof uses. */
static int
widen_heap_types(struct profconv_profile *prof)
{
	static const char *const names[] = {
		"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"
	};
	static const ptrdiff_t from[] = { 0, 1, 0, 1 };
	struct pc_vtype types[4];
	uint32_t def = prof->default_sample_type;
	uint32_t objects = prof->sample_types[0].type;
	size_t j;
	int rc = 0;

	for (j = 0; rc == 0 && j < 4; j++) {
		types[j].unit = prof->sample_types[from[j]].unit;
		rc = profconv__intern(prof, names[j], &types[j].type);
	}
	if (rc == 0)
		rc = profconv__retype(prof, types, from, 4);
	if (rc == 0 && def != 0)	/* objects -> inuse_objects, ... */
		rc = profconv_profile_set_default_sample_type(prof,
		    def == objects ? "inuse_objects" : "inuse_space");
	return rc;
}

/* Widen objects/space profiles when another profile has inuse_* types. */
static int
unify_heap_names(struct profconv_profile *const *profs, size_t n)
{
	size_t i;
	bool plain = false, inuse = false;
	int rc = 0;

	for (i = 0; i < n; i++) {
		plain = plain || is_objects_space(profs[i]);
		inuse = inuse || has_inuse_types(profs[i]);
	}
	for (i = 0; rc == 0 && plain && inuse && i < n; i++)
		if (is_objects_space(profs[i]))
			rc = widen_heap_types(profs[i]);
	return rc;
}

int
profconv_profiles_compatibilize(struct profconv_profile *const *profs,
    size_t n)
{
	const struct profconv_profile *p0;
	size_t i, j, nkeep = 0, *keep = NULL;
	const char **names = NULL;
	int rc = 0, k;

	if (n == 0)
		return 0;
	rc = unify_heap_names(profs, n);
	if (rc < 0)
		return rc;
	p0 = profs[0];
	names = calloc(p0->nsample_types + 1, sizeof(*names));
	keep = calloc(p0->nsample_types + 1, sizeof(*keep));
	if (names == NULL || keep == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	/* Type names present in every profile, in the first one's order. */
	for (j = 0; j < p0->nsample_types; j++) {
		const char *t = profconv__pstr(p0, p0->sample_types[j].type);

		for (i = 1; i < n; i++)
			if (profconv_profile_sample_type_index(profs[i], t) < 0)
				break;
		if (i == n)
			names[nkeep++] = t;
	}
	if (nkeep == 0) {
		rc = profconv__fail(PROFCONV_EINVAL,
		    "profiles have no sample type in common");
		goto out;
	}
	for (i = 0; rc == 0 && i < n; i++) {
		for (j = 0; j < nkeep; j++) {
			k = profconv_profile_sample_type_index(profs[i], names[j]);
			keep[j] = (size_t)k;
		}
		rc = profconv__select_types(profs[i], keep, nkeep);
	}
out:
	free(names);
	free(keep);
	return rc;
}
