/* SPDX-License-Identifier: MIT */
/*
 * growth.c - keeping only some samples of a profile: those that grew
 * (the leak filter of profdiff and proftrend, and the one definition of
 * "grew") and those a caller marked.  Cut from report/, which only
 * decides what to keep: changing the model is a transform's job, and
 * report/ does not include model/seams.h.
 */

#include "config.h"

#include "model/seams.h"
#include "transform/transform.h"

bool
profconv__grew(const struct profconv_profile *prof, const int64_t *delta)
{
	int n = profconv_profile_sample_type_index(prof, "inuse_objects");
	int b = profconv_profile_sample_type_index(prof, "inuse_space");
	size_t t;

	if (n < 0 && b < 0) {
		n = profconv_profile_sample_type_index(prof, "objects");
		b = profconv_profile_sample_type_index(prof, "space");
	}
	if (n >= 0 || b >= 0)
		return (n >= 0 && delta[n] > 0) || (b >= 0 && delta[b] > 0);
	for (t = 0; t < prof->nsample_types; t++)
		if (delta[t] > 0)
			return true;
	return false;
}

static bool
keep_grown(const struct profconv_profile *prof, size_t i, void *payload)
{
	(void)payload;
	return profconv__grew(prof, pc_sample_values(prof, i));
}

int
profconv_profile_keep_growth(struct profconv_profile *prof)
{
	profconv__keep_samples(prof, keep_grown, NULL);
	return 0;
}

static bool
keep_marked(const struct profconv_profile *prof, size_t i, void *payload)
{
	const bool *keep = payload;

	(void)prof;
	return keep[i];
}

void
profconv__keep_marked(struct profconv_profile *prof, const bool *keep)
{
	profconv__keep_samples(prof, keep_marked, (void *)keep);
}
