/* SPDX-License-Identifier: MIT */
/*
 * trend.c - leak suspects across a series of snapshots (proftrend).
 *
 * Every snapshot is seen through its own view and added to one row table
 * (the row engine of rows.c), snapshot I in the columns from I * NTYPES,
 * so one function, line or stack is one row in every snapshot.  The
 * statistics and the suspect rule are in trendstat.c.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "transform/transform.h"
#include "view/view.h"
#include "report/trend.h"

struct snapshot {
	struct profconv_profile *prof;
	char *name;
	int64_t bytes, objects;
};

struct trow {
	size_t row;		/* index in the row table */
	const char *name;	/* borrowed from the row table */
	struct pc_growth g;
	bool suspect;
};

struct profconv_trend {
	struct profconv_trend_options opts;
	struct profconv_view_options view;
	struct snapshot *snaps;
	size_t n, cap;
	bool ran;
	size_t ntypes, type;
	int objects_type;	/* -1: none */
	const char *type_name;
	struct pc_rows *rows;
	struct trow *trows;	/* changed rows, in their order */
	size_t ntrows, nsuspects;
	int64_t heap_growth;
	int64_t *values;	/* scratch: one row's values, per snapshot */
	struct pc_hidden_list hidden;	/* what suppressions hid */
};

static int
check_options(const struct profconv_trend_options *o)
{
	if (!(o->min_grew_fraction >= 0 && o->min_grew_fraction <= 1) ||
	    !(o->min_growth_share >= 0 && o->min_growth_share <= 1))
		return profconv__fail(PROFCONV_EINVAL,
		    "trend fractions must be between 0 and 1");
	if ((unsigned)o->by > PROFCONV_DIFF_BY_STACK)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid trend row kind %d", (int)o->by);
	if (o->min_growth < 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "trend minimum growth must not be negative");
	return 0;
}

int
profconv_trend_new(struct profconv_trend **out,
    const struct profconv_trend_options *opts)
{
	struct profconv_trend_options o;
	struct profconv_view_options view;
	struct profconv_trend *t;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_trend)) < 0)
		return rc;
	opts = &o;
	rc = check_options(opts);
	if (rc == 0)
		rc = profconv__options_take(&view, opts->view,
		    &profconv__options_view);
	if (rc < 0)
		return rc;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return profconv__nomem();
	t->opts = *opts;
	t->opts.view = NULL;	/* copied into t->view */
	t->view = view;
	t->view.granularity = opts->by == PROFCONV_DIFF_BY_LINE ?
	    PROFCONV_BY_LINE : PROFCONV_BY_FUNCTION;
	t->objects_type = -1;
	*out = t;
	return 0;
}

void
profconv_trend_free(struct profconv_trend *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		profconv_profile_free(t->snaps[i].prof);
		free(t->snaps[i].name);
	}
	free(t->snaps);
	profconv__rows_free(t->rows);
	free(t->trows);
	free(t->values);
	profconv__hidden_free(&t->hidden);
	free(t);
}

int
profconv_trend_add(struct profconv_trend *t, struct profconv_profile *prof,
    const char *name)
{
	char *copy;
	int rc;

	if (t == NULL || prof == NULL) {
		profconv_profile_free(prof);
		return profconv__fail(PROFCONV_EINVAL, "no trend or no profile");
	}
	if (t->ran) {
		profconv_profile_free(prof);
		return profconv__fail(PROFCONV_EINVAL,
		    "trend already analysed");
	}
	copy = profconv__utf8_copy(name != NULL ? name : "");
	rc = copy == NULL ? profconv__nomem() :
	    PC_GROW(t->snaps, t->cap, t->n, 1);
	if (rc < 0) {
		free(copy);
		profconv_profile_free(prof);
		return rc;
	}
	t->snaps[t->n].prof = prof;
	t->snaps[t->n].name = copy;
	t->snaps[t->n].bytes = 0;
	t->snaps[t->n].objects = -1;
	t->n++;
	return 0;
}

/* --- running the analysis ------------------------------------------------------- */

/* Put the snapshots in their order. */
static int
order_snapshots(struct profconv_trend *t)
{
	const char **names = calloc(t->n, sizeof(*names));
	int64_t *times = calloc(t->n, sizeof(*times));
	size_t *order = calloc(t->n, sizeof(*order));
	struct snapshot *sorted = calloc(t->n, sizeof(*sorted));
	size_t i;
	int rc = 0;

	if (names == NULL || times == NULL || order == NULL || sorted == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	for (i = 0; i < t->n; i++) {
		names[i] = t->snaps[i].name;
		times[i] = profconv_profile_time_nanos(t->snaps[i].prof);
	}
	rc = profconv__trend_order(order, names, times, t->n,
	    t->opts.keep_order != 0);
	if (rc < 0)
		goto out;
	for (i = 0; i < t->n; i++)
		sorted[i] = t->snaps[order[i]];
	memcpy(t->snaps, sorted, t->n * sizeof(*sorted));
out:
	free(names);
	free(times);
	free(order);
	free(sorted);
	return rc;
}

/* Make the sample types comparable and choose the one followed. */
static int
choose_types(struct profconv_trend *t)
{
	struct profconv_profile **profs = calloc(t->n, sizeof(*profs));
	const struct profconv_profile *p0;
	struct profconv_value_type vt;
	size_t i;
	int rc, k;

	if (profs == NULL)
		return profconv__nomem();
	for (i = 0; i < t->n; i++)
		profs[i] = t->snaps[i].prof;
	rc = profconv_profiles_compatibilize(profs, t->n);
	free(profs);
	if (rc < 0)
		return rc;
	p0 = t->snaps[0].prof;
	t->ntypes = profconv_profile_sample_type_count(p0);
	if (t->opts.sample_type != NULL) {
		k = profconv_profile_sample_type_index(p0, t->opts.sample_type);
		if (k < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "the snapshots have no sample type '%s' in common",
			    t->opts.sample_type);
	} else {
		k = profconv_profile_sample_type_index(p0, "inuse_space");
		if (k < 0)
			k = profconv_profile_sample_type_index(p0, "space");
		if (k < 0)
			k = profconv_profile_default_sample_index(p0);
	}
	if (k < 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "the snapshots have no sample types");
	t->type = (size_t)k;
	profconv_profile_sample_type(p0, t->type, &vt);
	t->type_name = vt.type;
	t->objects_type = profconv_profile_sample_type_index(p0,
	    "inuse_objects");
	if (t->objects_type < 0)
		t->objects_type = profconv_profile_sample_type_index(p0,
		    "objects");
	return 0;
}

/* The view of every snapshot goes into the row table, snapshot I at
 * columns I * NTYPES. */
static int
add_rows(struct profconv_trend *t)
{
	struct profconv_view *view = NULL;
	size_t i;
	int rc;

	rc = profconv__rows_new(&t->rows, t->n * t->ntypes);
	for (i = 0; rc == 0 && i < t->n; i++) {
		struct snapshot *s = &t->snaps[i];

		rc = profconv_view_new(&view, s->prof, &t->view);
		if (rc == 0)
			rc = profconv__rows_add(t->rows, view,
			    t->opts.by == PROFCONV_DIFF_BY_STACK ? PC_ROWS_STACK :
		    PC_ROWS_FUNCTION,
			    false, i * t->ntypes);
		if (rc == 0)
			rc = profconv_view_total(view, t->type, &s->bytes);
		if (rc == 0 && t->objects_type >= 0)
			rc = profconv_view_total(view, (size_t)t->objects_type,
			    &s->objects);
		if (rc == 0 && (i == 0 || i + 1 == t->n))
			rc = profconv__hidden_take(&t->hidden, view, t->type,
			    i == 0 && t->n > 1);
		if (rc == 0 && i == 0 && t->n == 1)
			rc = profconv__hidden_take(&t->hidden, view, t->type,
			    true);
		profconv_view_free(view);
		view = NULL;
	}
	return rc;
}

static int
trow_cmp(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	if (x->suspect != y->suspect)
		return x->suspect ? -1 : 1;
	if (x->g.growth != y->g.growth)
		return x->g.growth > y->g.growth ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Statistics and verdict of every row that changed; their order. */
static int
judge_rows(struct profconv_trend *t)
{
	size_t i, nrows = profconv__rows_count(t->rows);
	struct trow *r;

	t->heap_growth = pc_sub_sat(t->snaps[t->n - 1].bytes,
	    t->snaps[0].bytes);
	t->trows = calloc(nrows + 1, sizeof(*t->trows));
	t->values = calloc(t->n, sizeof(*t->values));
	if (t->trows == NULL || t->values == NULL)
		return profconv__nomem();
	for (i = 0; i < nrows; i++) {
		r = &t->trows[t->ntrows];
		profconv__growth(profconv__rows_values(t->rows, i) + t->type,
		    t->n, t->ntypes, &r->g);
		if (!r->g.changed)
			continue;
		r->row = i;
		r->name = profconv__rows_name(t->rows, i);
		r->suspect = profconv__trend_suspect(&r->g, &t->opts,
		    t->heap_growth);
		t->nsuspects += r->suspect;
		t->ntrows++;
	}
	if (t->ntrows > 1)
		qsort(t->trows, t->ntrows, sizeof(*t->trows), trow_cmp);
	return 0;
}

int
profconv_trend_run(struct profconv_trend *t)
{
	int rc;

	if (t->ran)
		return profconv__fail(PROFCONV_EINVAL, "trend already analysed");
	if (t->n < 2)
		return profconv__fail(PROFCONV_EINVAL,
		    "a trend needs 2 snapshots or more, not %zu", t->n);
	t->ran = true;
	rc = order_snapshots(t);
	if (rc == 0)
		rc = choose_types(t);
	if (rc == 0)
		rc = add_rows(t);
	if (rc == 0)
		rc = judge_rows(t);
	return rc;
}

/* --- results ---------------------------------------------------------------------- */

const struct pc_hidden_list *
profconv__trend_hidden(const struct profconv_trend *t)
{
	return &t->hidden;
}

bool
profconv__trend_ran(const struct profconv_trend *t)
{
	return t->ran && t->trows != NULL;
}

const struct profconv_trend_options *
profconv__trend_options(const struct profconv_trend *t)
{
	return &t->opts;
}

const char *
profconv__trend_type_name(const struct profconv_trend *t)
{
	return t->type_name != NULL ? t->type_name : "";
}

static int
not_run(void)
{
	return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
}

size_t
profconv_trend_snapshot_count(const struct profconv_trend *t)
{
	return t->n;
}

int
profconv_trend_snapshot(const struct profconv_trend *t, size_t i,
    struct profconv_trend_snapshot *out)
{
	if (!profconv__trend_ran(t))
		return not_run();
	if (i >= t->n)
		return profconv__fail(PROFCONV_EINVAL, "no snapshot %zu", i);
	out->name = t->snaps[i].name;
	out->time_nanos = profconv_profile_time_nanos(t->snaps[i].prof);
	out->inuse_bytes = t->snaps[i].bytes;
	out->inuse_objects = t->snaps[i].objects;
	return 0;
}

size_t
profconv_trend_row_count(const struct profconv_trend *t)
{
	return t->ntrows;
}

size_t
profconv_trend_suspect_count(const struct profconv_trend *t)
{
	return t->nsuspects;
}

/* Row I's values, per snapshot, into T's scratch array. */
static const int64_t *
row_values(const struct profconv_trend *t, size_t i)
{
	const int64_t *v = profconv__rows_values(t->rows, t->trows[i].row);
	size_t k;

	for (k = 0; k < t->n; k++)
		t->values[k] = v[k * t->ntypes + t->type];
	return t->values;
}

int
profconv_trend_row(const struct profconv_trend *t, size_t i,
    struct profconv_trend_row *out)
{
	const struct trow *r;

	if (!profconv__trend_ran(t))
		return not_run();
	if (i >= t->ntrows)
		return profconv__fail(PROFCONV_EINVAL, "no row %zu", i);
	r = &t->trows[i];
	out->name = r->name;
	out->first_bytes = r->g.first;
	out->last_bytes = r->g.last;
	out->growth_bytes = r->g.growth;
	out->slope_bytes = r->g.slope;
	out->grew_intervals = r->g.grew;
	out->intervals = r->g.intervals;
	out->suspect = r->suspect;
	out->values = row_values(t, i);
	return 0;
}

/* --- the suspects' growth as a profile ------------------------------------------- */

/* Which stacks of VIEW (of the delta) belong to a suspect row. */
static int
suspect_stacks(const struct profconv_trend *t, const struct profconv_view *view,
    bool *out)
{
	enum pc_rows_by by = t->opts.by == PROFCONV_DIFF_BY_STACK ?
	    PC_ROWS_STACK : PC_ROWS_FUNCTION;
	size_t i, row, n = profconv_view_stack_count(view);
	struct pc_strtab names;
	struct pc_rows *scratch = NULL;
	uint32_t idx;
	int rc;

	rc = profconv__strtab_init(&names);
	for (i = 0; rc == 0 && i < t->ntrows && t->trows[i].suspect; i++)
		rc = profconv__strtab_intern_cstr(&names, t->trows[i].name,
		    &idx);
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

	rc = profconv_view_new(&view, delta, &t->view);
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
	struct profconv_profile *delta = NULL;
	bool *keep = NULL;
	int rc;

	*out = NULL;
	if (!profconv__trend_ran(t))
		return not_run();
	rc = profconv_profile_subtract(&delta, t->snaps[t->n - 1].prof,
	    t->snaps[0].prof);
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
