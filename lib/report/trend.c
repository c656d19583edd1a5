/* SPDX-License-Identifier: MIT */
/*
 * trend.c - leak suspects across a series of snapshots (proftrend).
 *
 * Every snapshot is seen through its own view as it is added, its stacks
 * grouped into rows by the row engine of rows.c, and reduced to one value
 * per row (a column; a name is one row in every snapshot); the profile is
 * then freed unless it may turn out to be the first or the last, which
 * -o subtracts.  So memory grows with rows times snapshots, not with the
 * stacks of every snapshot.  The statistics and the verdicts are in
 * trendstat.c.
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
	char *name;
	int64_t time, bytes, objects;
	int64_t allocated;	/* bytes allocated since the start; -1 */
	char kind;		/* jemalloc's dump kind, or 0 */
	int64_t *col;		/* value per row, rows 0..ncol-1; 0 beyond */
	size_t ncol;
	/* What each suppression hid here (t->hidden.n of each). */
	size_t *hid_stacks;
	int64_t *hid_values;
};

struct trow {
	size_t row;		/* index in t->names */
	const char *name;	/* borrowed from t->names */
	struct pc_growth g;
	enum profconv_trend_verdict verdict;
	struct pc_shape shape;
};

/*
 * Which profiles can still turn out first or last once ordered: the
 * least and the greatest by name (or the first and the latest added,
 * with keep_order) and by time (while every snapshot has one).  Only
 * these are kept, for profconv_trend_suspects().
 */
enum { ROLE_MIN_NAME, ROLE_MAX_NAME, ROLE_MIN_TIME, ROLE_MAX_TIME, NROLES };

struct profconv_trend {
	struct profconv_trend_options opts;
	struct profconv_view_options view;
	struct snapshot *snaps;
	size_t n, cap;
	bool ran;
	/* The followed type, fixed by the first snapshot. */
	char *type_key;		/* looked up in every snapshot */
	const char *type_name;	/* reported */
	bool widened;		/* space found as inuse_space somewhere */
	int64_t period;		/* largest sampling period, in bytes */
	/* What every snapshot must share: its process, its program. */
	char *group, *group_file;
	char *binary, *binary_file;
	/* Rows: a name's index in NAMES is its row; with by_thread, the
	 * bytes at the start of each that name its thread. */
	struct pc_strtab names;
	size_t *thread_len;
	size_t thread_len_cap;
	/* Of each row, its sampled bytes and objects summed over the
	 * snapshots: the size of its objects, for its sampling noise. */
	struct row_size { double bytes, objects; } *row_size;
	size_t row_cap;
	struct profconv_profile *role[NROLES];
	size_t role_snap[NROLES];
	bool all_timed;
	struct profconv_profile *first, *last;	/* after the run */
	struct trow *trows;	/* changed rows, in their order */
	size_t ntrows, nsuspects;
	int64_t *values;	/* one row's values, per snapshot */
	double *x;		/* each snapshot's place on the x axis */
	enum pc_x_axis axis;
	double *fit;		/* scratch of the verdict */
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
	/* Rows per thread: the view's thread frame is every stack's root. */
	if (opts->by_thread)
		t->view.split_threads = 1;
	t->all_timed = true;
	rc = profconv__strtab_init(&t->names);
	if (rc < 0) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* Free PROF unless a role still holds it. */
static void
release(struct profconv_trend *t, struct profconv_profile *prof)
{
	size_t r;

	if (prof == NULL || prof == t->first || prof == t->last)
		return;
	for (r = 0; r < NROLES; r++)
		if (t->role[r] == prof)
			return;
	profconv_profile_free(prof);
}

void
profconv_trend_free(struct profconv_trend *t)
{
	struct profconv_profile *p;
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->snaps[i].name);
		free(t->snaps[i].col);
		free(t->snaps[i].hid_stacks);
		free(t->snaps[i].hid_values);
	}
	for (i = 0; i < NROLES; i++) {
		p = t->role[i];
		t->role[i] = NULL;
		release(t, p);
	}
	p = t->first;
	t->first = NULL;
	release(t, p);
	p = t->last;
	t->last = NULL;
	release(t, p);
	free(t->snaps);
	free(t->type_key);
	free(t->group);
	free(t->group_file);
	free(t->binary);
	free(t->binary_file);
	profconv__strtab_free(&t->names);
	free(t->thread_len);
	free(t->row_size);
	free(t->trows);
	free(t->values);
	free(t->x);
	free(t->fit);
	profconv__hidden_free(&t->hidden);
	free(t);
}

/* --- one series, one process ------------------------------------------------------ */

static char *
dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);

	if (c != NULL)
		memcpy(c, s, n);
	return c;
}

/*
 * Refuse a snapshot of another process than the first: another group of
 * dump names (PID, or gperftools' prefix), or another main binary (the
 * first mapping).  NAME is the snapshot's name.
 */
static int
same_process(struct profconv_trend *t, const struct profconv_profile *prof,
    const char *name, const struct pc_dump_name *dn)
{
	struct profconv_mapping m;

	if (dn->group != NULL && t->group == NULL && t->n == 0) {
		t->group = dup_str(dn->group);
		t->group_file = dup_str(name);
		if (t->group == NULL || t->group_file == NULL)
			return profconv__nomem();
	} else if (dn->group != NULL && t->group != NULL &&
	    strcmp(dn->group, t->group) != 0) {
		return profconv__fail(PROFCONV_EINVAL, "'%s' and '%s' are dumps "
		    "of two processes (%s and %s): a series is one process",
		    t->group_file, name, t->group, dn->group);
	}
	if (profconv_profile_mapping_count(prof) == 0 ||
	    profconv_profile_mapping(prof, 1, &m) < 0 || m.file == NULL ||
	    m.file[0] == '\0')
		return 0;
	if (t->binary == NULL) {
		t->binary = dup_str(m.file);
		t->binary_file = dup_str(name);
		return t->binary == NULL || t->binary_file == NULL ?
		    profconv__nomem() : 0;
	}
	if (strcmp(t->binary, m.file) != 0)
		return profconv__fail(PROFCONV_EINVAL, "'%s' and '%s' are dumps "
		    "of two programs (%s and %s): a series is one process",
		    t->binary_file, name, t->binary, m.file);
	return 0;
}

/* --- the followed sample type ------------------------------------------------------ */

/* The index of type NAME in PROF, or of its other heap name (objects/space
 * against inuse_objects/inuse_space, as profconv_profiles_compatibilize()
 * pairs them); -1 when neither. */
static int
type_index(struct profconv_trend *t, const struct profconv_profile *prof,
    const char *name)
{
	static const char *const alias[][2] = {
		{ "space", "inuse_space" }, { "objects", "inuse_objects" },
	};
	int k = profconv_profile_sample_type_index(prof, name);
	size_t i;

	for (i = 0; k < 0 && i < PC_ARRAY_LEN(alias); i++) {
		if (strcmp(name, alias[i][0]) == 0) {
			k = profconv_profile_sample_type_index(prof,
			    alias[i][1]);
			if (k >= 0 && i == 0)
				t->widened = true;
		} else if (strcmp(name, alias[i][1]) == 0) {
			k = profconv_profile_sample_type_index(prof,
			    alias[i][0]);
		}
	}
	return k < 0 ? -1 : k;
}

/* Fix the followed type from the first snapshot PROF. */
static int
choose_type(struct profconv_trend *t, const struct profconv_profile *prof)
{
	struct profconv_value_type vt;
	int k;

	if (t->opts.sample_type != NULL) {
		/* By the name asked for, which a first dump typed
		 * objects/space has under its other name. */
		k = type_index(t, prof, t->opts.sample_type);
		if (k < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "the snapshots have no sample type '%s' in common",
			    t->opts.sample_type);
		t->type_key = dup_str(t->opts.sample_type);
		return t->type_key == NULL ? profconv__nomem() : 0;
	} else {
		k = profconv_profile_sample_type_index(prof, "inuse_space");
		if (k < 0)
			k = profconv_profile_sample_type_index(prof, "space");
		if (k < 0)
			k = profconv_profile_default_sample_index(prof);
	}
	if (k < 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "the snapshots have no sample types");
	profconv_profile_sample_type(prof, (size_t)k, &vt);
	t->type_key = dup_str(vt.type);
	return t->type_key == NULL ? profconv__nomem() : 0;
}

/* The sampling period of PROF when it is in bytes, as the type is. */
static int64_t
byte_period(const struct profconv_profile *prof, size_t k)
{
	struct profconv_value_type pt, vt;
	int64_t p = profconv_profile_period(prof, &pt);

	profconv_profile_sample_type(prof, k, &vt);
	return strcmp(pt.unit, "bytes") == 0 &&
	    strcmp(vt.unit, "bytes") == 0 && p > 1 ? p : 0;
}

/* --- adding a snapshot: its row values, then the profile goes -------------------- */

/* Row IDX of T had BYTES in OBJECTS sampled objects in one snapshot. */
static int
add_row_objects(struct profconv_trend *t, uint32_t idx, int64_t bytes,
    int64_t objects)
{
	int rc = PC_GROW_ZEROED(t->row_size, t->row_cap, (size_t)idx + 1);

	if (rc < 0)
		return rc;
	if (bytes > 0 && objects > 0) {
		t->row_size[idx].bytes += (double)bytes;
		t->row_size[idx].objects += (double)objects;
	}
	return 0;
}

/* Set row IDX of S to V, growing its column. */
static int
set_col(struct snapshot *s, uint32_t idx, int64_t v)
{
	size_t cap = s->ncol;
	int rc = PC_GROW_ZEROED(s->col, cap, (size_t)idx + 1);

	if (rc < 0)
		return rc;
	s->ncol = cap;
	s->col[idx] = v;
	return 0;
}

/* What VIEW's suppressions hid of type K, into S (and their names into
 * T, from the first snapshot). */
static int
keep_hidden(struct profconv_trend *t, const struct profconv_view *view,
    size_t k, struct snapshot *s)
{
	struct profconv_suppression sup;
	size_t i, n = profconv_view_suppression_count(view);
	int rc;

	if (n == 0)
		return 0;
	if (t->hidden.h == NULL) {
		rc = profconv__hidden_take(&t->hidden, view, k, false);
		if (rc < 0)
			return rc;
	}
	s->hid_stacks = calloc(n, sizeof(*s->hid_stacks));
	s->hid_values = calloc(n, sizeof(*s->hid_values));
	if (s->hid_stacks == NULL || s->hid_values == NULL)
		return profconv__nomem();
	for (i = 0; i < n && i < t->hidden.n; i++) {
		profconv_view_suppression(view, i, &sup);
		s->hid_stacks[i] = sup.samples;
		s->hid_values[i] = sup.values[k];
	}
	return 0;
}

/* The first and last snapshots' hidden values, once they are ordered. */
static void
order_hidden(struct profconv_trend *t)
{
	const struct snapshot *f = &t->snaps[0], *l = &t->snaps[t->n - 1];
	size_t i;

	for (i = 0; i < t->hidden.n; i++) {
		struct pc_hidden *h = &t->hidden.h[i];

		h->first = f->hid_values != NULL ? f->hid_values[i] : 0;
		h->last = l->hid_values != NULL ? l->hid_values[i] : 0;
		h->stacks = l->hid_stacks != NULL ? l->hid_stacks[i] : 0;
	}
}

enum pc_rows_by
profconv__trend_rows_by(const struct profconv_trend *t)
{
	bool stack = t->opts.by == PROFCONV_DIFF_BY_STACK;

	if (t->opts.by_thread)
		return stack ? PC_ROWS_THREAD_STACK : PC_ROWS_THREAD_FUNCTION;
	return stack ? PC_ROWS_STACK : PC_ROWS_FUNCTION;
}

/* Row IDX of T names its thread in its first LEN bytes. */
static int
set_thread_len(struct profconv_trend *t, uint32_t idx, size_t len)
{
	int rc = PC_GROW_ZEROED(t->thread_len, t->thread_len_cap,
	    (size_t)idx + 1);

	if (rc < 0)
		return rc;
	t->thread_len[idx] = len;
	return 0;
}

/* Reduce snapshot S of PROF to its totals and its value per row. */
static int
reduce(struct profconv_trend *t, const struct profconv_profile *prof,
    struct snapshot *s)
{
	struct profconv_view *view = NULL;
	struct pc_rows *rows = NULL;
	size_t i, n, ntypes = profconv_profile_sample_type_count(prof);
	int k, objects, alloc, rc;
	uint32_t idx;

	k = type_index(t, prof, t->type_key);
	if (k < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "the snapshots have "
		    "no sample type '%s' in common", t->type_key);
	objects = profconv_profile_sample_type_index(prof, "inuse_objects");
	if (objects < 0)
		objects = profconv_profile_sample_type_index(prof, "objects");
	if (byte_period(prof, (size_t)k) > t->period)
		t->period = byte_period(prof, (size_t)k);
	rc = profconv__rows_new(&rows, ntypes);
	/* Rows by function add up the stacks' leaves: the stacks need not
	 * be merged nor laid out. */
	if (rc == 0)
		rc = profconv__trend_rows_by(t) == PC_ROWS_FUNCTION ?
		    profconv__view_new_leaves(&view, prof, &t->view) :
		    profconv_view_new(&view, prof, &t->view);
	if (rc == 0)
		rc = profconv__rows_add(rows, view, profconv__trend_rows_by(t), false, 0);
	if (rc == 0)
		rc = profconv_view_total(view, (size_t)k, &s->bytes);
	s->objects = -1;
	if (rc == 0 && objects >= 0)
		rc = profconv_view_total(view, (size_t)objects, &s->objects);
	if (rc == 0)
		rc = keep_hidden(t, view, (size_t)k, s);
	/* The allocator's count of bytes allocated so far, over the whole
	 * profile (gperftools' header, jemalloc's with prof_accum). */
	s->allocated = -1;
	alloc = profconv_profile_sample_type_index(prof, "alloc_space");
	if (rc == 0 && alloc >= 0 &&
	    profconv_profile_total(prof, (size_t)alloc, &s->allocated) < 0)
		s->allocated = -1;
	profconv_view_free(view);
	n = rc == 0 ? profconv__rows_count(rows) : 0;
	for (i = 0; rc == 0 && i < n; i++) {
		rc = profconv__strtab_intern_cstr(&t->names,
		    profconv__rows_name(rows, i), &idx);
		if (rc == 0)
			rc = set_col(s, idx, profconv__rows_values(rows, i)[k]);
		if (rc == 0 && objects >= 0 && byte_period(prof, (size_t)k) > 1)
			rc = add_row_objects(t, idx,
			    profconv__rows_values(rows, i)[k],
			    profconv__rows_values(rows, i)[objects]);
		if (rc == 0 && t->opts.by_thread)
			rc = set_thread_len(t, idx,
			    profconv__rows_thread(rows, i));
	}
	profconv__rows_free(rows);
	return rc;
}

/* Is snapshot I before snapshot J by name (or as added)? */
static bool
name_before(const struct profconv_trend *t, size_t i, size_t j)
{
	int c;

	if (t->opts.keep_order)
		return i < j;
	c = profconv__natural_cmp(t->snaps[i].name, t->snaps[j].name);
	return c != 0 ? c < 0 : i < j;
}

static bool
time_before(const struct profconv_trend *t, size_t i, size_t j)
{
	if (t->snaps[i].time != t->snaps[j].time)
		return t->snaps[i].time < t->snaps[j].time;
	return name_before(t, i, j);
}

/* Keep PROF, snapshot K, where it may be first or last; free the rest. */
static void
keep_roles(struct profconv_trend *t, struct profconv_profile *prof, size_t k)
{
	struct profconv_profile *old[NROLES];
	bool take[NROLES];
	size_t r;

	if (t->snaps[k].time == 0)
		t->all_timed = false;
	for (r = 0; r < NROLES; r++) {
		size_t j = t->role_snap[r];
		bool timed = r == ROLE_MIN_TIME || r == ROLE_MAX_TIME;

		old[r] = t->role[r];
		if (timed && !t->all_timed)
			take[r] = false;
		else if (t->role[r] == NULL)
			take[r] = true;
		else if (r == ROLE_MIN_NAME)
			take[r] = name_before(t, k, j);
		else if (r == ROLE_MAX_NAME)
			take[r] = name_before(t, j, k);
		else if (r == ROLE_MIN_TIME)
			take[r] = time_before(t, k, j);
		else
			take[r] = time_before(t, j, k);
		if (timed && !t->all_timed)
			t->role[r] = NULL;
		else if (take[r]) {
			t->role[r] = prof;
			t->role_snap[r] = k;
		}
	}
	/* Each profile once: one may have held two roles. */
	for (r = 0; r < NROLES; r++) {
		size_t q;

		for (q = 0; q < r && old[q] != old[r]; q++)
			;
		if (q == r && old[r] != t->role[r])
			release(t, old[r]);
	}
	release(t, prof);
}

int
profconv_trend_add(struct profconv_trend *t, struct profconv_profile *prof,
    const char *name)
{
	struct pc_dump_name dn = { NULL, 0 };
	struct snapshot *s;
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
	if (rc == 0)
		rc = profconv__dump_name(copy, &dn);
	if (rc == 0)
		rc = same_process(t, prof, copy, &dn);
	if (rc == 0 && t->opts.by_thread &&
	    profconv_profile_sample_count(prof) != 0 &&
	    !profconv__labels_has_thread(prof))
		rc = profconv__fail(PROFCONV_EINVAL, "'%s' has no thread "
		    "labels: rows per thread need jemalloc dumps read with "
		    "their threads, or profiles made by profconv text2pb "
		    "--threads", copy);
	if (rc == 0 && t->type_key == NULL)
		rc = choose_type(t, prof);
	s = rc == 0 ? &t->snaps[t->n] : NULL;
	if (s != NULL) {
		memset(s, 0, sizeof(*s));
		s->name = copy;
		s->time = profconv_profile_time_nanos(prof);
		s->kind = dn.kind;
		rc = reduce(t, prof, s);
		if (rc < 0) {
			free(s->col);
			free(s->hid_stacks);
			free(s->hid_values);
			s = NULL;
		}
	}
	free(dn.group);
	if (s == NULL) {
		free(copy);
		profconv_profile_free(prof);
		return rc;
	}
	t->n++;
	keep_roles(t, prof, t->n - 1);
	return 0;
}

/* --- running the analysis ------------------------------------------------------- */

/* Put the snapshots in their order; pick the first and last profiles. */
static int
order_snapshots(struct profconv_trend *t)
{
	const char **names = calloc(t->n, sizeof(*names));
	int64_t *times = calloc(t->n, sizeof(*times));
	size_t *order = calloc(t->n, sizeof(*order));
	struct snapshot *sorted = calloc(t->n, sizeof(*sorted));
	struct profconv_profile *p;
	size_t i, r;
	int rc = 0;

	if (names == NULL || times == NULL || order == NULL || sorted == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	for (i = 0; i < t->n; i++) {
		names[i] = t->snaps[i].name;
		times[i] = t->snaps[i].time;
	}
	rc = profconv__trend_order(order, names, times, t->n,
	    t->opts.keep_order != 0);
	if (rc < 0)
		goto out;
	for (r = 0; r < NROLES; r++) {
		if (t->role[r] != NULL && t->role_snap[r] == order[0])
			t->first = t->role[r];
		if (t->role[r] != NULL && t->role_snap[r] == order[t->n - 1])
			t->last = t->role[r];
	}
	for (r = 0; r < NROLES; r++) {
		p = t->role[r];
		t->role[r] = NULL;
		release(t, p);
	}
	for (i = 0; i < t->n; i++)
		sorted[i] = t->snaps[order[i]];
	memcpy(t->snaps, sorted, t->n * sizeof(*sorted));
	if (t->first == NULL || t->last == NULL)
		rc = profconv__fail(PROFCONV_EINVAL,
		    "trend: the first or last snapshot was not kept");
	/* The two that -o subtracts must share their sample types. */
	if (rc == 0 && t->first != t->last) {
		struct profconv_profile *two[2] = { t->first, t->last };

		rc = profconv_profiles_compatibilize(two, 2);
	}
out:
	free(names);
	free(times);
	free(order);
	free(sorted);
	return rc;
}

/* How far row R swung: its largest value minus its smallest. */
static double
swing(const struct trow *r)
{
	return (double)r->shape.max - (double)r->shape.min;
}

/* Rows by their swing, largest first (a row that peaked and was freed
 * ranks by its peak); then suspects first, by growth, by name. */
static int
trow_cmp(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;
	bool lx = x->verdict == PROFCONV_TREND_LEAK;
	bool ly = y->verdict == PROFCONV_TREND_LEAK;
	int c = PC_CMP(swing(y), swing(x));

	if (c == 0)
		c = PC_CMP(ly, lx);
	if (c == 0)
		c = PC_CMP(y->g.growth, x->g.growth);
	return c != 0 ? c : strcmp(x->name, y->name);
}

/* Row ROW's values, per snapshot, into T's scratch array. */
static const int64_t *
gather(const struct profconv_trend *t, size_t row)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		t->values[k] = row < t->snaps[k].ncol ? t->snaps[k].col[row] :
		    0;
	return t->values;
}

/*
 * The first dumps may lack allocation counts: gperftools writes none
 * while nothing was freed (they equal the in-use ones).  What was
 * allocated is at least what is in use: take those in-use totals, up to
 * the first count known, in T's scratch values.
 */
static void
lead_allocated(struct profconv_trend *t)
{
	size_t i, k;

	for (k = 0; k < t->n && t->values[k] < 0; k++)
		;
	for (i = 0; k < t->n && i < k; i++)
		t->values[i] = t->snaps[i].bytes < 0 ? 0 :
		    t->snaps[i].bytes < t->values[k] ? t->snaps[i].bytes :
		    t->values[k];
}

/* Statistics and verdict of every row that changed; their order. */
static int
judge_rows(struct profconv_trend *t)
{
	size_t i, nrows = t->names.len;
	struct pc_rule rule;
	struct trow *r;

	rule.floor = t->opts.min_growth > t->period ? t->opts.min_growth :
	    t->period;
	if (rule.floor < 1)
		rule.floor = 1;
	rule.min_grew_fraction = t->opts.min_grew_fraction;
	rule.period = t->period;
	t->trows = calloc(nrows + 1, sizeof(*t->trows));
	t->values = calloc(t->n, sizeof(*t->values));
	t->x = calloc(t->n, sizeof(*t->x));
	t->fit = malloc(PC_FIT_SCRATCH * sizeof(*t->fit));
	if (t->trows == NULL || t->values == NULL || t->x == NULL ||
	    t->fit == NULL)
		return profconv__nomem();
	for (i = 0; i < t->n; i++)
		t->values[i] = t->snaps[i].allocated;
	lead_allocated(t);
	t->axis = profconv__trend_x(t->x, t->values, t->n, t->period);
	for (i = 0; i < nrows; i++) {
		const int64_t *v = gather(t, i);

		r = &t->trows[t->ntrows];
		profconv__growth(v, t->n, 1, &r->g);
		if (!r->g.changed)
			continue;
		r->row = i;
		r->name = profconv__str(&t->names, (uint32_t)i);
		rule.object_size = i < t->row_cap &&
		    t->row_size[i].objects > 0 ? t->row_size[i].bytes /
		    t->row_size[i].objects : 0;
		r->verdict = profconv__trend_verdict(v, t->x, t->n, 1, &rule,
		    t->fit, &r->shape);
		t->nsuspects += r->verdict == PROFCONV_TREND_LEAK;
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
	t->type_name = t->widened && strcmp(t->type_key, "space") == 0 ?
	    "inuse_space" : t->type_key;
	rc = order_snapshots(t);
	if (rc == 0)
		order_hidden(t);
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

const struct pc_shape *
profconv__trend_row_shape(const struct profconv_trend *t, size_t i)
{
	return &t->trows[i].shape;
}

enum pc_x_axis
profconv__trend_axis(const struct profconv_trend *t)
{
	return t->axis;
}

double
profconv__trend_snapshot_x(const struct profconv_trend *t, size_t i)
{
	return t->x != NULL && i < t->n ? t->x[i] : (double)i;
}

size_t
profconv__trend_row_thread(const struct profconv_trend *t, size_t i)
{
	size_t row = t->trows[i].row;

	return t->opts.by_thread && row < t->thread_len_cap ?
	    t->thread_len[row] : 0;
}

int64_t
profconv__trend_floor(const struct profconv_trend *t)
{
	int64_t f = t->opts.min_growth > t->period ? t->opts.min_growth :
	    t->period;

	return f < 1 ? 1 : f;
}

static int
not_run(void)
{
	return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
}

const struct profconv_view_options *
profconv__trend_view(const struct profconv_trend *t)
{
	return &t->view;
}

int
profconv__trend_ends(const struct profconv_trend *t,
    const struct profconv_profile **first,
    const struct profconv_profile **last)
{
	if (!profconv__trend_ran(t))
		return not_run();
	*first = t->first;
	*last = t->last;
	return 0;
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
	out->time_nanos = t->snaps[i].time;
	out->inuse_bytes = t->snaps[i].bytes;
	out->inuse_objects = t->snaps[i].objects;
	out->high_water = t->snaps[i].kind == 'u';
	out->final = t->snaps[i].kind == 'f';
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
	out->suspect = r->verdict == PROFCONV_TREND_LEAK;
	out->values = gather(t, r->row);
	out->verdict = r->verdict;
	return 0;
}
