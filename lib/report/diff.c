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

enum { HEAP_ALLOC_N, HEAP_ALLOC_B, HEAP_INUSE_N, HEAP_INUSE_B, HEAP_SLOTS };
enum { COL_BASE, COL_CUR, COL_DELTA };

struct profconv_diff {
	struct profconv_profile *delta;
	struct pc_rows *rows;	/* 3 * nt columns: base, cur, delta */
	size_t nt;
	int heap[HEAP_SLOTS];	/* slot of each heap counter */
	bool is_heap;
	bool leaks;
	bool stacks;		/* rows by stack */
	int64_t *totals;	/* 3 * nt: the views' totals */
	struct pc_hidden_list hidden;	/* what suppressions hid of delta */
};

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

static int
same_types(const struct profconv_profile *a, const struct profconv_profile *b)
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
static void
check_unrelated(const struct profconv_diff_options *o,
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
static void
check_inputs(struct profconv_diff_options *o,
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
	check_unrelated(o, base, o->base_name, cur, o->cur_name);
}

/* The type suppression reports count: in-use bytes, else the default. */
static size_t
hidden_type(const struct profconv_profile *prof)
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
    size_t group)
{
	struct profconv_view *view = NULL;
	size_t t;
	int rc;

	rc = profconv_view_new(&view, prof, vopts);
	if (rc == 0)
		rc = profconv__rows_add(d->rows, view, by, false, group * d->nt);
	for (t = 0; rc == 0 && t < d->nt; t++)
		profconv_view_total(view, t, &d->totals[group * d->nt + t]);
	if (rc == 0 && group == COL_DELTA)
		rc = profconv__hidden_take(&d->hidden, view,
		    hidden_type(prof), false);
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
profconv_diff_new(struct profconv_diff **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_diff_options *opts)
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
	rc = same_types(base, cur);
	if (rc < 0)
		return rc;
	check_inputs(&o, base, cur);
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
		rc = add_view(d, base, &vopts, by, COL_BASE);
	if (rc == 0)
		rc = add_view(d, cur, &vopts, by, COL_CUR);
	if (rc == 0)
		rc = add_view(d, d->delta, &vopts, by, COL_DELTA);
	if (rc < 0) {
		profconv_diff_free(d);
		return rc;
	}
	find_heap_slots(d);
	*out = d;
	return 0;
}

const struct profconv_profile *
profconv_diff_delta(const struct profconv_diff *d)
{
	return d->delta;
}

/* --- columns ------------------------------------------------------------------ */

static const char *const heap_columns[] = {
	"new", "freed", "delta-objects", "alloc-bytes", "freed-bytes",
	"delta-bytes",
};

static const char *const heap_titles[] = {
	"New", "Freed", "Delta objs", "Alloc bytes", "Freed bytes",
	"Delta bytes",
};

static size_t
ncolumns(const struct profconv_diff *d)
{
	return d->is_heap ? PC_ARRAY_LEN(heap_columns) : 3 * d->nt;
}

/* Column C of a row whose 3 * nt values are V. */
static int64_t
column(const struct profconv_diff *d, const int64_t *v, size_t c)
{
	const int64_t *delta = v + COL_DELTA * d->nt;
	int64_t dan, dab, din, dib;

	if (!d->is_heap)
		return v[(c % 3) * d->nt + c / 3];
	dan = delta[d->heap[HEAP_ALLOC_N]];
	dab = delta[d->heap[HEAP_ALLOC_B]];
	din = delta[d->heap[HEAP_INUSE_N]];
	dib = delta[d->heap[HEAP_INUSE_B]];
	switch (c) {
	case 0: return dan;
	case 1: return pc_sub_sat(dan, din);
	case 2: return din;
	case 3: return dab;
	case 4: return pc_sub_sat(dab, dib);
	default: return dib;
	}
}

static const char *
type_name(const struct profconv_diff *d, size_t t)
{
	return profconv__pstr(d->delta, d->delta->sample_types[t].type);
}

static bool
column_is_bytes(const struct profconv_diff *d, size_t c)
{
	if (d->is_heap)
		return c >= 3;
	return strcmp(profconv__pstr(d->delta,
	    d->delta->sample_types[c / 3].unit), "bytes") == 0;
}

/* The sort column for NAME (NULL: the default); -1 sorts by row name,
 * -2 is unknown. */
static int
sort_column(const struct profconv_diff *d, const char *s)
{
	size_t c;
	int t;

	if (s == NULL) {
		if (d->is_heap)
			return 5;
		t = profconv_profile_default_sample_index(d->delta);
		return t < 0 ? -1 : 3 * t + 2;
	}
	if (strcmp(s, "name") == 0)
		return -1;
	if (d->is_heap) {
		for (c = 0; c < PC_ARRAY_LEN(heap_columns); c++)
			if (strcmp(s, heap_columns[c]) == 0)
				return (int)c;
		return -2;
	}
	t = profconv_profile_sample_type_index(d->delta, s);
	return t < 0 ? -2 : 3 * t + 2;
}

struct sort_ctx {
	const struct profconv_diff *d;
	int col;
};

static int
row_cmp(const int64_t *a, const char *an, const int64_t *b, const char *bn,
    void *payload)
{
	const struct sort_ctx *c = payload;
	int64_t x, y;

	if (c->col >= 0) {
		x = column(c->d, a, (size_t)c->col);
		y = column(c->d, b, (size_t)c->col);
		if (x != y)
			return x < y ? 1 : -1;
	}
	return strcmp(an, bn);
}

/* How sample type T of a row whose 3 * nt values are V changed (no
 * noise floor: every change counts). */
static enum pc_change
row_change(const struct profconv_diff *d, const int64_t *v, size_t t)
{
	struct pc_delta_scale s;

	profconv__delta_scale(&s, d->totals[COL_BASE * d->nt + t],
	    d->totals[COL_CUR * d->nt + t], 0);
	return profconv__delta_change(&s, v[COL_DELTA * d->nt + t],
	    v[COL_BASE * d->nt + t], v[COL_CUR * d->nt + t]);
}

/* Is a row shown: did anything change in the delta? */
static bool
row_shown(const struct profconv_diff *d, const int64_t *v)
{
	size_t t;

	for (t = 0; t < d->nt; t++)
		if (row_change(d, v, t) != PC_SAME)
			return true;
	return false;
}

/*
 * Sort the rows for OPTS and fill TOTAL (3 * nt) with the TOTAL row: the
 * views' totals, or in the leak view the sums of the rows it shows.
 */
static int
sort_and_total(const struct profconv_diff *d,
    const struct profconv_diff_print_options *opts, int64_t *total)
{
	struct sort_ctx c = { d, 0 };
	size_t i, t, n = profconv__rows_count(d->rows);

	c.col = sort_column(d, opts->sort);
	if (c.col == -2)
		return profconv__fail(PROFCONV_EINVAL,
		    "cannot sort by '%s': no such column", opts->sort);
	profconv__rows_sort(d->rows, row_cmp, &c);
	memcpy(total, d->totals, 3 * d->nt * sizeof(*total));
	if (!d->leaks)
		return 0;
	memset(total, 0, 2 * d->nt * sizeof(*total));
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(d->rows, i);

		if (!row_shown(d, v))
			continue;
		for (t = 0; t < 2 * d->nt; t++)
			pc_add_sat(&total[t], v[t]);
	}
	return 0;
}

/*
 * What both printers start with: the caller's GIVEN options taken into
 * OPTS, the rows sorted for them, and the TOTAL row in *TOTAL (3 * nt,
 * malloc'd; NULL on failure).
 */
static int
prepare(const struct profconv_diff *d,
    const struct profconv_diff_print_options *given,
    struct profconv_diff_print_options *opts, int64_t **total)
{
	int rc;

	*total = NULL;
	if ((rc = profconv__options_take(opts, given,
	    &profconv__options_diff_print)) < 0)
		return rc;
	*total = calloc(3 * d->nt + 1, sizeof(**total));
	if (*total == NULL)
		return profconv__nomem();
	return sort_and_total(d, opts, *total);
}

/* --- the table ----------------------------------------------------------------- */

/* "14 characters or the title's length": no header is ever cut. */
static int
column_width(const struct profconv_diff *d, size_t c, char *title,
    size_t size)
{
	static const char *const group[] = { "base", "cur", "delta" };
	const char *type;
	int n;

	if (d->is_heap) {
		n = snprintf(title, size, "%s", heap_titles[c]);
	} else {
		type = type_name(d, c / 3);
		n = snprintf(title, size, "%s%s%s", group[c % 3],
		    *type != '\0' ? " " : "", type);
	}
	return n > 14 ? n : 14;
}

/*
 * The Name column.  Rows by stack, unless the caller asks for them wide,
 * are named first, leaf first in at most PC_STACK_LABEL_WIDTH characters
 * (rows.c), so the numbers start on the first screen; other rows, last.
 */
struct name_col {
	bool first;		/* the stack labels, first */
	int width;		/* of the column when first */
	struct pc_textbuf tb;
	struct pc_stack_labels *sl;	/* of the rows shown, when first */
	const char **names;	/* their keys, while gathered */
	size_t n;
};

/* Gather NAME, the key of the next row shown. */
static int
add_name(struct name_col *nc, const char *name)
{
	const char **p;

	if (!nc->first)
		return 0;
	p = realloc(nc->names, (nc->n + 1) * sizeof(*p));
	if (p == NULL)
		return profconv__nomem();
	nc->names = p;
	nc->names[nc->n++] = name;
	return 0;
}

/* The labels of the rows gathered, telling them apart (rows.c); the
 * column as wide as they need. */
static int
make_labels(struct name_col *nc)
{
	size_t i;
	int rc, w;

	if (!nc->first)
		return 0;
	rc = profconv__stack_labels_new(&nc->sl, nc->names, nc->n,
	    PC_STACK_LABEL_WIDTH);
	if (rc < 0)
		return rc;
	for (i = 0; i < nc->n; i++) {
		w = (int)profconv__utf8_chars(profconv__text_safe(&nc->tb,
		    profconv__stack_labels_get(nc->sl, i)));
		nc->width = w > nc->width ? w : nc->width;
	}
	return 0;
}

/* The Ith row shown, named NAME, as the column shows it, for a terminal
 * (write.h). */
static const char *
shown_name(struct name_col *nc, size_t i, const char *name)
{
	if (!nc->first)
		return profconv__text_safe(&nc->tb, name);
	return profconv__text_safe(&nc->tb, profconv__stack_labels_get(nc->sl,
	    i));
}

/* Make the column as wide as NAME needs (a heading or TOTAL, as it is). */
static void
fit_name(struct name_col *nc, const char *name)
{
	int w;

	if (!nc->first)
		return;
	w = (int)profconv__utf8_chars(name);
	nc->width = w > nc->width ? w : nc->width;
}

static void
name_col_free(struct name_col *nc)
{
	profconv__textbuf_free(&nc->tb);
	profconv__stack_labels_free(nc->sl);
	free(nc->names);
}

/* Before the numbers: the name padded to the column, when first. */
static void
name_before(FILE *fp, struct name_col *nc, const char *shown)
{
	if (nc->first)
		fprintf(fp, "%s%*s ", shown, nc->width -
		    (int)profconv__utf8_chars(shown), "");
}

/* After them: the name, when last; the end of the line. */
static void
name_after(FILE *fp, const struct name_col *nc, const char *shown)
{
	if (nc->first)
		fputc('\n', fp);
	else
		fprintf(fp, "  %s\n", shown);
}

static void
print_value(FILE *fp, int width, int64_t v, bool bytes, bool exact)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
		"PiB", "EiB" };
	double x = (double)v;
	size_t u = 0;

	if (!bytes || exact || (v > -1024 && v < 1024)) {
		if (bytes && !exact)
			fprintf(fp, " %*" PRId64 "B", width - 1, v);
		else
			fprintf(fp, " %*" PRId64, width, v);
		return;
	}
	while ((x >= 1024 || x <= -1024) && u + 1 < PC_ARRAY_LEN(units)) {
		x /= 1024;
		u++;
	}
	fprintf(fp, " %*.2f%s", width - (int)strlen(units[u]), x, units[u]);
}

static void
print_row(const struct profconv_diff *d, FILE *fp, const int *widths,
    const int64_t *v, const char *name, bool exact, struct name_col *nc)
{
	size_t c;

	name_before(fp, nc, name);
	for (c = 0; c < ncolumns(d); c++)
		print_value(fp, widths[c], column(d, v, c),
		    column_is_bytes(d, c), exact);
	name_after(fp, nc, name);
}

int
profconv_diff_print(const struct profconv_diff *d, FILE *fp,
    const struct profconv_diff_print_options *opts)
{
	struct profconv_diff_print_options o;
	size_t i, c, n = profconv__rows_count(d->rows), shown = 0, rows = 0;
	struct name_col nc = { 0 };
	int64_t *total;
	int *widths;
	char title[256];
	int rc;

	widths = calloc(ncolumns(d) + 1, sizeof(*widths));
	if (widths == NULL)
		return profconv__nomem();
	rc = prepare(d, opts, &o, &total);
	opts = &o;
	if (rc < 0)
		goto out;
	nc.first = d->stacks && !opts->wide;
	fit_name(&nc, "Stack");
	fit_name(&nc, "TOTAL");
	for (i = 0; nc.first && i < n && (opts->top == 0 || shown < opts->top);
	    i++) {
		if (row_shown(d, profconv__rows_values(d->rows, i))) {
			if ((rc = add_name(&nc, profconv__rows_name(d->rows,
			    i))) < 0)
				goto out;
			shown++;
		}
	}
	if ((rc = make_labels(&nc)) < 0)
		goto out;
	shown = 0;
	errno = 0;
	name_before(fp, &nc, "Stack");
	for (c = 0; c < ncolumns(d); c++) {
		widths[c] = column_width(d, c, title, sizeof(title));
		fprintf(fp, " %*s", widths[c], profconv__text_safe(&nc.tb,
		    title));
	}
	name_after(fp, &nc, "Name");
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(d->rows, i);

		if (!row_shown(d, v))
			continue;
		rows++;
		if (opts->top != 0 && shown >= opts->top)
			continue;
		print_row(d, fp, widths, v, shown_name(&nc, shown,
		    profconv__rows_name(d->rows, i)), opts->exact != 0, &nc);
		shown++;
	}
	if (shown < rows)
		fprintf(fp, "  ... %zu more rows\n", rows - shown);
	print_row(d, fp, widths, total, "TOTAL", opts->exact != 0, &nc);
	profconv__hidden_print(fp, &d->hidden, opts->exact == 0 &&
	    strcmp(profconv__pstr(d->delta, d->delta->sample_types[
	    hidden_type(d->delta)].unit), "bytes") == 0, false);
	if (fflush(fp) != 0 || ferror(fp))
		rc = profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
out:
	name_col_free(&nc);
	free(total);
	free(widths);
	return rc;
}

/* --- JSON ------------------------------------------------------------------------ */

static const char *const heap_json[] = {
	"newCount", "deletedCount", "countDelta", "allocatedSize", "freedSize",
	"sizeDelta",
};

static void
json_totals(const struct profconv_diff *d, FILE *fp, const int64_t *v)
{
	size_t t;

	putc('{', fp);
	for (t = 0; t < d->nt; t++) {
		if (t != 0)
			putc(',', fp);
		profconv__json_cstr(fp, type_name(d, t));
		fprintf(fp, ":%" PRId64, v[t]);
	}
	putc('}', fp);
}

static void
json_row(const struct profconv_diff *d, FILE *fp, const int64_t *v,
    const char *name)
{
	static const char *const group[] = { "base", "cur", "delta" };
	size_t c, t;

	fputs("{\"name\":", fp);
	profconv__json_cstr(fp, name);
	if (d->is_heap) {
		for (c = 0; c < PC_ARRAY_LEN(heap_json); c++)
			fprintf(fp, ",\"%s\":%" PRId64, heap_json[c],
			    column(d, v, c));
	}
	fputs(",\"values\":{", fp);
	for (t = 0; t < d->nt; t++) {
		fputs(t != 0 ? "," : "", fp);
		profconv__json_cstr(fp, type_name(d, t));
		putc(':', fp);
		for (c = 0; c < 3; c++)
			fprintf(fp, "%s\"%s\":%" PRId64, c == 0 ? "{" : ",",
			    group[c], v[c * d->nt + t]);
		fprintf(fp, ",\"change\":\"%s\"}", profconv__change_name(
		    row_change(d, v, t)));
	}
	fputs("}}", fp);
}

int
profconv_diff_write_json(const struct profconv_diff *d, FILE *fp,
    const struct profconv_diff_print_options *opts)
{
	struct profconv_diff_print_options o;
	size_t i, n = profconv__rows_count(d->rows), shown = 0;
	int64_t *total;
	int rc;

	rc = prepare(d, opts, &o, &total);
	opts = &o;
	if (rc < 0)
		goto out;
	errno = 0;
	fprintf(fp, "{\"kind\":\"%s\",\"leaks\":%s,\"before\":",
	    d->is_heap ? "heap" : "values", d->leaks ? "true" : "false");
	json_totals(d, fp, total);
	fputs(",\"after\":", fp);
	json_totals(d, fp, total + d->nt);
	fputs(",\"delta\":", fp);
	json_totals(d, fp, total + 2 * d->nt);
	fputs(",\"total\":", fp);
	json_row(d, fp, total, "TOTAL");
	fputs(",\"rows\":[", fp);
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(d->rows, i);

		if (!row_shown(d, v) ||
		    (opts->top != 0 && shown >= opts->top))
			continue;
		fputs(shown != 0 ? ",\n" : "\n", fp);
		json_row(d, fp, v, profconv__rows_name(d->rows, i));
		shown++;
	}
	fputs("]", fp);
	profconv__hidden_json(fp, &d->hidden, false);
	fputs("}\n", fp);
	if (fflush(fp) != 0 || ferror(fp))
		rc = profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
out:
	free(total);
	return rc;
}

/* --- the rows for other writers (diff.h) ---------------------------------------- */

int
profconv__diff_rows(const struct profconv_diff *d,
    const struct profconv_diff_print_options *opts,
    int (*fn)(const struct pc_diff_row *row, void *payload), void *payload,
    size_t *more)
{
	struct profconv_diff_print_options o;
	size_t i, n = profconv__rows_count(d->rows), shown = 0, rows = 0;
	struct pc_diff_row r = { NULL, NULL, false };
	int64_t *total;
	int rc;

	rc = prepare(d, opts, &o, &total);
	for (i = 0; rc == 0 && i < n; i++) {
		r.v = profconv__rows_values(d->rows, i);
		if (!row_shown(d, r.v))
			continue;
		rows++;
		if (o.top != 0 && shown >= o.top)
			continue;
		r.name = profconv__rows_name(d->rows, i);
		rc = fn(&r, payload);
		shown++;
	}
	if (more != NULL)
		*more = rows - shown;
	if (rc == 0) {
		r.name = "TOTAL";
		r.v = total;
		r.total = true;
		rc = fn(&r, payload);
	}
	free(total);
	return rc;
}

size_t
profconv__diff_heap_columns(const struct profconv_diff *d)
{
	return d->is_heap ? PC_ARRAY_LEN(heap_columns) : 0;
}

const char *
profconv__diff_heap_title(size_t c)
{
	return c < PC_ARRAY_LEN(heap_titles) ? heap_titles[c] : "";
}

int64_t
profconv__diff_heap_value(const struct profconv_diff *d, const int64_t *v,
    size_t c)
{
	return column(d, v, c);
}

bool
profconv__diff_heap_bytes(size_t c)
{
	return c >= 3;
}

enum pc_change
profconv__diff_change(const struct profconv_diff *d, const int64_t *v,
    size_t t)
{
	return row_change(d, v, t);
}

double
profconv__diff_percent(const struct profconv_diff *d, int64_t delta, size_t t)
{
	struct pc_delta_scale s;

	profconv__delta_scale(&s, d->totals[COL_BASE * d->nt + t],
	    d->totals[COL_CUR * d->nt + t], 0);
	return profconv__delta_percent(&s, delta);
}

/* --- retention across three dumps (profdiff --still-at) ------------------------- */

enum { RET_BASE, RET_CUR, RET_LATER, RET_GROUPS };

struct profconv_retention {
	struct pc_rows *rows;	/* 3 * nt columns: base, cur, later */
	char *name[2];		/* the followed types' names */
	bool bytes;		/* the last one is in bytes */
	size_t nt;
	int follow[2];		/* the types followed: objects, bytes; or
				 * the default type alone (follow[1]) */
	bool is_heap;
	bool stacks;		/* rows by stack */
};

/* What grew from BASE to CUR (G), LATER - BASE (L) and what of G is still
 * held at LATER (H) of followed type F of a row's values V. */
static void
retained(const struct profconv_retention *r, const int64_t *v, int f,
    int64_t *g, int64_t *l, int64_t *h)
{
	int64_t b = v[RET_BASE * r->nt + (size_t)f];

	*g = pc_sub_sat(v[RET_CUR * r->nt + (size_t)f], b);
	*l = pc_sub_sat(v[RET_LATER * r->nt + (size_t)f], b);
	*h = *g < *l ? *g : *l;
	if (*h < 0)
		*h = 0;
}

int
profconv_retention_new(struct profconv_retention **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_profile *later,
    const struct profconv_diff_options *opts)
{
	const struct profconv_profile *in[RET_GROUPS] = { base, cur, later };
	struct profconv_diff_options o;
	struct profconv_view_options vopts;
	struct profconv_view *view = NULL;
	struct profconv_retention *r;
	enum pc_rows_by by;
	size_t g, k;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_diff)) < 0)
		return rc;
	if ((unsigned)o.by > PROFCONV_DIFF_BY_STACK)
		return profconv__fail(PROFCONV_EINVAL, "invalid diff grouping");
	if ((rc = same_types(base, cur)) < 0 || (rc = same_types(base, later)) < 0)
		return rc;
	check_inputs(&o, base, cur);
	/* LATER is a dump of the same process as CUR. */
	if (o.warn != NULL)
		check_unrelated(&o, cur, o.cur_name, later, o.later_name);
	if ((rc = profconv__options_take(&vopts, o.view,
	    &profconv__options_view)) < 0)
		return rc;
	vopts.granularity = o.by == PROFCONV_DIFF_BY_LINE ? PROFCONV_BY_LINE :
	    vopts.granularity == PROFCONV_BY_LINE ? PROFCONV_BY_FUNCTION :
	    vopts.granularity;
	by = o.by == PROFCONV_DIFF_BY_STACK ? PC_ROWS_STACK : PC_ROWS_FUNCTION;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return profconv__nomem();
	r->nt = base->nsample_types;
	r->follow[0] = profconv_profile_sample_type_index(base, "inuse_objects");
	r->follow[1] = profconv_profile_sample_type_index(base, "inuse_space");
	if (r->follow[0] < 0 || r->follow[1] < 0) {
		r->follow[0] = profconv_profile_sample_type_index(base, "objects");
		r->follow[1] = profconv_profile_sample_type_index(base, "space");
	}
	r->is_heap = r->follow[0] >= 0 && r->follow[1] >= 0;
	r->stacks = by == PC_ROWS_STACK;
	if (!r->is_heap) {
		r->follow[0] = -1;
		r->follow[1] = profconv_profile_default_sample_index(base);
	}
	rc = r->follow[1] < 0 ? profconv__fail(PROFCONV_EINVAL,
	    "the profiles have no sample types") :
	    profconv__rows_new(&r->rows, RET_GROUPS * r->nt);
	for (k = 0; rc == 0 && k < 2; k++) {
		struct profconv_value_type vt;
		size_t len;

		if (r->follow[k] < 0)
			continue;
		profconv_profile_sample_type(base, (size_t)r->follow[k], &vt);
		len = strlen(vt.type) + 1;
		r->name[k] = malloc(len);
		if (r->name[k] == NULL)
			rc = profconv__nomem();
		else
			memcpy(r->name[k], vt.type, len);
		r->bytes = strcmp(vt.unit, "bytes") == 0;
	}
	for (g = 0; rc == 0 && g < RET_GROUPS; g++) {
		rc = profconv_view_new(&view, in[g], &vopts);
		if (rc == 0)
			rc = profconv__rows_add(r->rows, view, by, false,
			    g * r->nt);
		profconv_view_free(view);
		view = NULL;
	}
	if (rc < 0) {
		profconv_retention_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void
profconv_retention_free(struct profconv_retention *r)
{
	if (r == NULL)
		return;
	profconv__rows_free(r->rows);
	free(r->name[0]);
	free(r->name[1]);
	free(r);
}

/* Is a row shown: did it grow from BASE to CUR in a followed type? */
static bool
ret_shown(const struct profconv_retention *r, const int64_t *v)
{
	int64_t g, l, h;
	size_t k;

	for (k = 0; k < 2; k++) {
		if (r->follow[k] < 0)
			continue;
		retained(r, v, r->follow[k], &g, &l, &h);
		if (g > 0)
			return true;
	}
	return false;
}

/* Most still held first (bytes), then most grown, then by name. */
static int
ret_cmp(const int64_t *a, const char *an, const int64_t *b, const char *bn,
    void *payload)
{
	const struct profconv_retention *r = payload;
	int64_t ga, la, ha, gb, lb, hb;

	retained(r, a, r->follow[1], &ga, &la, &ha);
	retained(r, b, r->follow[1], &gb, &lb, &hb);
	if (ha != hb)
		return ha > hb ? -1 : 1;
	if (ga != gb)
		return ga > gb ? -1 : 1;
	return strcmp(an, bn);
}

size_t
profconv_retention_held(const struct profconv_retention *r)
{
	size_t i, k, n = profconv__rows_count(r->rows), held = 0;
	int64_t g, l, h;

	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(r->rows, i);
		bool any = false;

		for (k = 0; k < 2; k++) {
			if (r->follow[k] < 0)
				continue;
			retained(r, v, r->follow[k], &g, &l, &h);
			any = any || h > 0;
		}
		held += any;
	}
	return held;
}

/* Sort the rows; the options; the sums of the shown rows' columns (six:
 * grew, later, held of each followed type) into TOTAL. */
static int
ret_prepare(const struct profconv_retention *r, FILE *fp,
    const struct profconv_diff_print_options *given,
    struct profconv_diff_print_options *opts, int64_t *total)
{
	size_t i, k, n;
	int64_t g, l, h;
	int rc;

	if (r == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "no retention table or no file");
	n = profconv__rows_count(r->rows);
	if ((rc = profconv__options_take(opts, given,
	    &profconv__options_diff_print)) < 0)
		return rc;
	if (opts->sort != NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "the retention table is sorted by what is still held");
	profconv__rows_sort(r->rows, ret_cmp, (void *)r);
	memset(total, 0, 6 * sizeof(*total));
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(r->rows, i);

		if (!ret_shown(r, v))
			continue;
		for (k = 0; k < 2; k++) {
			if (r->follow[k] < 0)
				continue;
			retained(r, v, r->follow[k], &g, &l, &h);
			pc_add_sat(&total[3 * k], g);
			pc_add_sat(&total[3 * k + 1], l);
			pc_add_sat(&total[3 * k + 2], h);
		}
	}
	return 0;
}

/* The six columns of a row (grew, later, held per followed type). */
static void
ret_columns(const struct profconv_retention *r, const int64_t *v,
    int64_t *col)
{
	size_t k;

	for (k = 0; k < 2; k++)
		if (r->follow[k] >= 0)
			retained(r, v, r->follow[k], &col[3 * k],
			    &col[3 * k + 1], &col[3 * k + 2]);
}

static void
ret_print_row(const struct profconv_retention *r, FILE *fp,
    const int64_t *col, const char *name, bool exact, struct name_col *nc)
{
	size_t k, c;

	name_before(fp, nc, name);
	for (k = r->is_heap ? 0 : 1; k < 2; k++)
		for (c = 0; c < 3; c++)
			print_value(fp, 14, col[3 * k + c], k == 1 &&
			    r->bytes, exact);
	name_after(fp, nc, name);
}

int
profconv_retention_print(const struct profconv_retention *r, FILE *fp,
    const struct profconv_diff_print_options *opts)
{
	static const char *const ret_titles[] = { "Grew objs", "Later objs",
		"Held objs", "Grew bytes", "Later bytes", "Held bytes" };
	static const char *const titles[] = { "grew", "later", "held" };
	struct profconv_diff_print_options o;
	struct name_col nc = { 0 };
	size_t i, c, n, shown = 0, rows = 0;
	int64_t total[6] = { 0 }, col[6] = { 0 };
	int rc;

	if ((rc = ret_prepare(r, fp, opts, &o, total)) < 0)
		return rc;
	n = profconv__rows_count(r->rows);
	nc.first = r->stacks && !o.wide;
	fit_name(&nc, "Stack");
	fit_name(&nc, "TOTAL");
	for (i = 0; nc.first && i < n && (o.top == 0 || shown < o.top); i++) {
		if (ret_shown(r, profconv__rows_values(r->rows, i))) {
			if ((rc = add_name(&nc, profconv__rows_name(r->rows,
			    i))) < 0) {
				name_col_free(&nc);
				return rc;
			}
			shown++;
		}
	}
	if ((rc = make_labels(&nc)) < 0) {
		name_col_free(&nc);
		return rc;
	}
	shown = 0;
	errno = 0;
	name_before(fp, &nc, "Stack");
	if (r->is_heap) {
		for (c = 0; c < 6; c++)
			fprintf(fp, " %14s", ret_titles[c]);
	} else {
		char title[64];

		for (c = 0; c < 3; c++) {
			snprintf(title, sizeof(title), "%s %s", titles[c],
			    r->name[1]);
			fprintf(fp, " %14s", profconv__text_safe(&nc.tb,
			    title));
		}
	}
	name_after(fp, &nc, "Name");
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(r->rows, i);

		if (!ret_shown(r, v))
			continue;
		rows++;
		if (o.top != 0 && shown >= o.top)
			continue;
		ret_columns(r, v, col);
		ret_print_row(r, fp, col, shown_name(&nc, shown,
		    profconv__rows_name(r->rows, i)), o.exact != 0, &nc);
		shown++;
	}
	if (shown < rows)
		fprintf(fp, "  ... %zu more rows\n", rows - shown);
	ret_print_row(r, fp, total, "TOTAL", o.exact != 0, &nc);
	name_col_free(&nc);
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return 0;
}

/* One row as JSON: per followed type, base, cur, later, grew, later
 * minus base, and still held. */
static void
ret_json_row(const struct profconv_retention *r, FILE *fp, const int64_t *v,
    const int64_t *col, const char *name)
{
	size_t k;
	int f;

	fputs("{\"name\":", fp);
	profconv__json_cstr(fp, name);
	fputs(",\"values\":{", fp);
	for (k = r->is_heap ? 0 : 1; k < 2; k++) {
		f = r->follow[k];
		if (k == 1 && r->is_heap)
			putc(',', fp);
		profconv__json_cstr(fp, r->name[k]);
		putc(':', fp);
		if (v != NULL)
			fprintf(fp, "{\"base\":%" PRId64 ",\"cur\":%" PRId64
			    ",\"later\":%" PRId64 ",", v[RET_BASE * r->nt +
			    (size_t)f], v[RET_CUR * r->nt + (size_t)f],
			    v[RET_LATER * r->nt + (size_t)f]);
		else
			putc('{', fp);
		fprintf(fp, "\"grew\":%" PRId64 ",\"later_delta\":%" PRId64
		    ",\"still_held\":%" PRId64 "}", col[3 * k], col[3 * k + 1],
		    col[3 * k + 2]);
	}
	fputs("}}", fp);
}

int
profconv_retention_write_json(const struct profconv_retention *r, FILE *fp,
    const struct profconv_diff_print_options *opts)
{
	struct profconv_diff_print_options o;
	size_t i, n, shown = 0;
	int64_t total[6] = { 0 }, col[6] = { 0 };
	int rc;

	if ((rc = ret_prepare(r, fp, opts, &o, total)) < 0)
		return rc;
	n = profconv__rows_count(r->rows);
	errno = 0;
	fprintf(fp, "{\"kind\":\"still-at\",\"rows_held\":%zu,\"total\":",
	    profconv_retention_held(r));
	ret_json_row(r, fp, NULL, total, "TOTAL");
	fputs(",\"rows\":[", fp);
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(r->rows, i);

		if (!ret_shown(r, v) || (o.top != 0 && shown >= o.top))
			continue;
		fputs(shown != 0 ? ",\n" : "\n", fp);
		ret_columns(r, v, col);
		ret_json_row(r, fp, v, col, profconv__rows_name(r->rows, i));
		shown++;
	}
	fputs("]}\n", fp);
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return 0;
}
