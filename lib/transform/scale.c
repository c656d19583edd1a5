/* SPDX-License-Identifier: MIT */
/*
 * scale.c - scaling a profile's values in place, and normalizing one
 * profile to another's totals (pprof's -normalize).  Cut from merge.c
 * because it changes one profile where the merge builds a new one; it
 * shares with the merge only the check that two profiles' types agree.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "model/seams.h"
#include "transform/types.h"

/* Keep sample I when a type that was scaled (ratio not 1) is nonzero. */
static bool
scaled_nonzero(const struct profconv_profile *prof, size_t i, void *payload)
{
	const double *ratios = payload;
	const int64_t *v = pc_sample_values(prof, i);
	size_t j;

	for (j = 0; j < prof->nsample_types; j++)
		if (ratios[j] != 1 && v[j] != 0)
			return true;
	return false;
}

int
profconv_profile_scale(struct profconv_profile *prof, const double *ratios)
{
	size_t i, j, nt;
	bool all_ones = true;

	if (prof == NULL || ratios == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no profile or no ratios");
	nt = prof->nsample_types;
	/* NaN, or infinity times a zero value, has no integer to round to. */
	for (j = 0; j < nt; j++)
		if (!isfinite(ratios[j]))
			return profconv__fail(PROFCONV_EINVAL, "scale ratio %zu "
			    "is %g, not a finite number", j, ratios[j]);
	for (j = 0; j < nt; j++)
		all_ones = all_ones && ratios[j] == 1;
	if (all_ones)
		return 0;
	for (i = 0; i < prof->nsamples; i++) {
		int64_t *v = pc_sample_values_mut(prof, i);

		for (j = 0; j < nt; j++) {
			double x;

			if (ratios[j] == 1)
				continue;
			x = round((double)v[j] * ratios[j]);
			v[j] = x >= 9.2233720368547758e18 ? INT64_MAX :
			    x <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)x;
		}
	}
	profconv__keep_samples(prof, scaled_nonzero, (void *)ratios);
	return 0;
}

/* Do A and B have the same period type and sample types, in order? */
static int
check_same_types(const struct profconv_profile *a,
    const struct profconv_profile *b)
{
	int rc = profconv__check_period(a, b, "profile 2");

	if (rc < 0)
		return rc;
	if (!profconv__same_types(a, b))
		return profconv__fail(PROFCONV_EINVAL,
		    "profiles have different sample types");
	return 0;
}

int
profconv_profile_normalize(struct profconv_profile *prof,
    const struct profconv_profile *to)
{
	double *ratios;
	int64_t a, b;
	size_t i;
	int rc;

	rc = check_same_types(to, prof);
	if (rc < 0)
		return rc;
	ratios = calloc(prof->nsample_types + 1, sizeof(*ratios));
	if (ratios == NULL)
		return profconv__nomem();
	for (i = 0; i < prof->nsample_types; i++) {
		profconv_profile_total(to, i, &a);
		profconv_profile_total(prof, i, &b);
		ratios[i] = b == 0 ? 0.0 : (double)a / (double)b;
	}
	rc = profconv_profile_scale(prof, ratios);
	free(ratios);
	return rc;
}
