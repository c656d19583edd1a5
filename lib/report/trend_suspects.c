/* SPDX-License-Identifier: MIT */
/*
 * trend_suspects.c - the suspects' growth as a profile (proftrend -o):
 * the last snapshot minus the first, only the samples whose stack is in
 * a row judged a leak.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "transform/transform.h"
#include "view/view.h"
#include "report/trend.h"

/* Which stacks of VIEW (of the delta) belong to a suspect row. */
static int
suspect_stacks(const struct profconv_trend *t, const struct profconv_view *view,
    bool *out)
{
	enum pc_rows_by by = profconv__trend_rows_by(t);
	size_t i, row, n = profconv_view_stack_count(view);
	struct profconv_trend_row r;
	struct pc_strtab names;
	struct pc_rows *scratch = NULL;
	uint32_t idx;
	int rc;

	rc = profconv__strtab_init(&names);
	for (i = 0; rc == 0 && i < profconv_trend_row_count(t); i++) {
		rc = profconv_trend_row(t, i, &r);
		if (rc == 0 && r.suspect)
			rc = profconv__strtab_intern_cstr(&names, r.name, &idx);
	}
	if (rc == 0)
		rc = profconv__rows_new(&scratch, 1);
	for (i = 0; rc == 0 && i < n; i++) {
		const char *name;

		rc = profconv__rows_row_of(scratch, view, by, i, &row);
		if (rc < 0)
			break;
		name = profconv__rows_name(scratch, row);
		out[i] = profconv__strtab_find(&names, name, strlen(name),
		    &idx);
	}
	profconv__rows_free(scratch);
	profconv__strtab_free(&names);
	return rc;
}

/* Mark the samples of DELTA whose stack is in a suspect row. */
static int
mark_samples(const struct profconv_trend *t, struct profconv_profile *delta,
    bool *keep)
{
	struct profconv_view *view = NULL;
	bool *stacks = NULL;
	size_t i, s, n = profconv_profile_sample_count(delta);
	int rc;

	rc = profconv_view_new(&view, delta, profconv__trend_view(t));
	if (rc == 0) {
		stacks = calloc(profconv_view_stack_count(view) + 1,
		    sizeof(*stacks));
		rc = stacks == NULL ? profconv__nomem() :
		    suspect_stacks(t, view, stacks);
	}
	for (i = 0; rc == 0 && i < n; i++) {
		s = profconv__view_sample_stack(view, i);
		keep[i] = s != 0 && stacks[s - 1];
	}
	free(stacks);
	profconv_view_free(view);
	return rc;
}

int
profconv_trend_suspects(const struct profconv_trend *t,
    struct profconv_profile **out)
{
	const struct profconv_profile *first, *last;
	struct profconv_profile *delta = NULL;
	bool *keep = NULL;
	int rc;

	*out = NULL;
	rc = profconv__trend_ends(t, &first, &last);
	if (rc == 0)
		rc = profconv_profile_subtract(&delta, last, first);
	if (rc == 0) {
		keep = calloc(profconv_profile_sample_count(delta) + 1,
		    sizeof(*keep));
		rc = keep == NULL ? profconv__nomem() :
		    mark_samples(t, delta, keep);
	}
	if (rc == 0) {
		profconv__keep_marked(delta, keep);
		*out = delta;
		delta = NULL;
	}
	free(keep);
	profconv_profile_free(delta);
	return rc;
}
