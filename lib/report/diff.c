/* SPDX-License-Identifier: MIT */
/*
 * diff.c - the comparison of two profiles: the delta profile, its table
 * and its JSON, with the leak filter applied to the delta.
 *
 * The delta is CUR - BASE (profconv_profile_subtract()); the table's rows
 * come from views of BASE, CUR and the delta, grouped by one engine
 * (rows.c), so a row's delta columns are exactly what the delta profile
 * written with -o holds.  For heap profiles with alloc and inuse counters
 * the table is the memory debuggers' comparison view: New = delta
 * alloc_objects, Freed = New - delta inuse_objects, delta objects = delta
 * inuse_objects, and the same three for bytes.  Other profiles get base,
 * cur and delta for every sample type.  The leak filter itself (what
 * "grew" means, keeping what grew) is a transform: transform/growth.c.
 * Whether a row changed, and which way, is judged by the rules every
 * comparison shares (view/delta.c), as the differential flame graph
 * judges its frames.
 *
 * This file builds the comparison and weighs the reasons to doubt it;
 * diff_table.c has its columns, table and JSON, diff_retention.c the
 * retention across three dumps (differ.h between them).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "report/diff.h"
#include "write/write.h"
#include "transform/transform.h"
#include "view/delta.h"
#include "report/trend.h"
#include "view/view.h"
#include "report/differ.h"

/* --- building the comparison -------------------------------------------------- */

static void
find_heap_slots(struct profconv_diff *d)
{
	static const char *const names[HEAP_SLOTS] = {
		"alloc_objects", "alloc_space", "inuse_objects", "inuse_space",
	};
	size_t i;

	d->is_heap = true;
	for (i = 0; i < HEAP_SLOTS; i++) {
		d->heap[i] = profconv_profile_sample_type_index(d->delta,
		    names[i]);
		d->is_heap = d->is_heap && d->heap[i] >= 0;
	}
}

int
profconv__diff_same_types(const struct profconv_profile *a,
    const struct profconv_profile *b)
{
	size_t i;

	if (a->nsample_types == b->nsample_types) {
		for (i = 0; i < a->nsample_types; i++)
			if (strcmp(profconv__pstr(a, a->sample_types[i].type),
			    profconv__pstr(b, b->sample_types[i].type)) != 0)
				break;
		if (i == a->nsample_types)
			return 0;
	}
	return profconv__fail(PROFCONV_EINVAL, "profiles have different "
	    "sample types (make them compatible first)");
}

/* --- reasons to doubt the comparison --------------------------------------- */

static void
warn(const struct profconv_diff_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line to O's warn callback, if any. */
static void
warn(const struct profconv_diff_options *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->warn(msg, o->payload);
}

/*
 * Allocation counters (alloc_objects, alloc_space) only go up in the
 * life of a process: a later dump that allocated fewer bytes in all was
 * most likely taken first, unless its reader found it cut short.
 */
static void
check_swapped(const struct profconv_diff_options *o,
    const struct profconv_profile *base, const struct profconv_profile *cur)
{
	int i = profconv_profile_sample_type_index(cur, "alloc_space");
	int64_t b, c;

	/* A dump cut short (its reader's warning) lost bytes: no hint. */
	if (base->read_warning != NULL || cur->read_warning != NULL)
		return;
	if (i < 0 || profconv_profile_total(base, (size_t)i, &b) < 0 ||
	    profconv_profile_total(cur, (size_t)i, &c) < 0 || c >= b)
		return;
	warn(o, "'%s' allocated fewer bytes in all than '%s' (%" PRId64
	    " < %" PRId64 "): are BASE and CUR swapped?", o->cur_name,
	    o->base_name, c, b);
}

/* The base name of PROF's main binary (its first mapping), or "". */
static const char *
main_binary(const struct profconv_profile *prof, const char **build_id)
{
	const char *file, *slash;

	*build_id = "";
	if (prof->nmappings == 0)
		return "";
	*build_id = profconv__pstr(prof, pc_mapping(prof, 1)->build_id);
	file = profconv__pstr(prof, pc_mapping(prof, 1)->file);
	slash = strrchr(file, '/');
	return slash != NULL ? slash + 1 : file;
}

/*
 * Two profiles of different programs compare nothing alike.  Programs
 * are told apart by their main binary's name; a build id alone differs
 * after every rebuild, which is what a comparison is often about, so it
 * counts only when neither profile names its binary.  A and B, named
 * AN and BN in the warning.
 */
void
profconv__diff_check_unrelated(const struct profconv_diff_options *o,
    const struct profconv_profile *a, const char *an,
    const struct profconv_profile *b, const char *bn)
{
	const char *aid, *bid;
	const char *af = main_binary(a, &aid), *bf = main_binary(b, &bid);

	if (*af != '\0' && *bf != '\0' && strcmp(af, bf) != 0)
		warn(o, "'%s' and '%s' profile different programs ('%.100s' "
		    "and '%.100s')", an, bn, af, bf);
	else if (*af == '\0' && *bf == '\0' && *aid != '\0' &&
	    *bid != '\0' && strcmp(aid, bid) != 0)
		warn(o, "'%s' and '%s' profile different programs (build "
		    "ids %.64s and %.64s)", an, bn, aid, bid);
}

/* Every reason to doubt comparing BASE with CUR, to O's warn callback. */
void
profconv__diff_check_inputs(struct profconv_diff_options *o,
    const struct profconv_profile *base, const struct profconv_profile *cur)
{
	if (o->warn == NULL)
		return;
	if (o->base_name == NULL)
		o->base_name = "BASE";
	if (o->cur_name == NULL)
		o->cur_name = "CUR";
	if (o->later_name == NULL)
		o->later_name = "LATER";
	check_swapped(o, base, cur);
	profconv__diff_check_unrelated(o, base, o->base_name, cur, o->cur_name);
}

/* The type suppression reports count: in-use bytes, else the default. */
size_t
profconv__diff_hidden_type(const struct profconv_profile *prof)
{
	int t = profconv_profile_sample_type_index(prof, "inuse_space");

	if (t < 0)
		t = profconv_profile_default_sample_index(prof);
	return t < 0 ? 0 : (size_t)t;
}

/* Add the view of PROF at column group GROUP. */
static int
add_view(struct profconv_diff *d, const struct profconv_profile *prof,
    const struct profconv_view_options *vopts, enum pc_rows_by by,
    size_t group, bool take)
{
	struct profconv_view *view = NULL;
	size_t t;
	int rc;

	/* Rows by function or line add up the stacks' leaves: the stacks
	 * need not be merged nor laid out.  Rows by stack name them, one
	 * text per stack. */
	rc = profconv__view_new_last(&view, prof, vopts, by != PC_ROWS_STACK,
	    take);
	if (rc == 0)
		rc = profconv__rows_add(d->rows, view, by, false, group * d->nt);
	for (t = 0; rc == 0 && t < d->nt; t++)
		profconv_view_total(view, t, &d->totals[group * d->nt + t]);
	if (rc == 0 && group == COL_DELTA)
		rc = profconv__hidden_take(&d->hidden, view,
		    profconv__diff_hidden_type(prof), false);
	profconv_view_free(view);
	return rc;
}

void
profconv_diff_free(struct profconv_diff *d)
{
	if (d == NULL)
		return;
	profconv_profile_free(d->delta);
	profconv__rows_free(d->rows);
	free(d->totals);
	profconv__hidden_free(&d->hidden);
	free(d);
}

int
profconv__diff_new(struct profconv_diff **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_diff_options *opts, bool take)
{
	struct profconv_diff_options o;
	struct profconv_view_options vopts;
	struct profconv_diff *d;
	enum pc_rows_by by;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_diff)) < 0)
		return rc;
	opts = &o;
	if ((unsigned)opts->by > PROFCONV_DIFF_BY_STACK)
		return profconv__fail(PROFCONV_EINVAL, "invalid diff grouping");
	rc = profconv__diff_same_types(base, cur);
	if (rc < 0)
		return rc;
	profconv__diff_check_inputs(&o, base, cur);
	if ((rc = profconv__options_take(&vopts, opts->view,
	    &profconv__options_view)) < 0)
		return rc;
	vopts.granularity = opts->by == PROFCONV_DIFF_BY_LINE ?
	    PROFCONV_BY_LINE : vopts.granularity == PROFCONV_BY_LINE ?
	    PROFCONV_BY_FUNCTION : vopts.granularity;
	by = opts->by == PROFCONV_DIFF_BY_STACK ? PC_ROWS_STACK :
	    PC_ROWS_FUNCTION;
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return profconv__nomem();
	d->nt = cur->nsample_types;
	d->leaks = opts->leaks != 0;
	d->stacks = by == PC_ROWS_STACK;
	d->totals = calloc(3 * d->nt + 1, sizeof(*d->totals));
	rc = d->totals == NULL ? profconv__nomem() :
	    profconv_profile_subtract(&d->delta, cur, base);
	if (rc == 0 && d->leaks)
		rc = profconv_profile_keep_growth(d->delta);
	if (rc == 0)
		rc = profconv__rows_new(&d->rows, 3 * d->nt);
	if (rc == 0)
		rc = add_view(d, base, &vopts, by, COL_BASE, take);
	if (rc == 0)
		rc = add_view(d, cur, &vopts, by, COL_CUR, take);
	if (rc == 0)
		rc = add_view(d, d->delta, &vopts, by, COL_DELTA, false);
	if (rc < 0) {
		profconv_diff_free(d);
		return rc;
	}
	find_heap_slots(d);
	*out = d;
	return 0;
}

int
profconv_diff_new(struct profconv_diff **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_diff_options *opts)
{
	return profconv__diff_new(out, base, cur, opts, true);
}

const struct profconv_profile *
profconv_diff_delta(const struct profconv_diff *d)
{
	return d->delta;
}
