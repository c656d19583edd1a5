/* SPDX-License-Identifier: MIT */
/*
 * diff_table.c - the comparison's columns (the memory debuggers' six for
 * heap profiles; base, cur and delta of every type for others), its
 * table and its JSON, and its rows for other writers (diff.h).  The
 * comparison itself is built in diff.c.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "report/diff.h"
#include "report/differ.h"
#include "view/delta.h"
#include "view/view.h"
#include "write/write.h"

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
	int r = 0;

	if (c->col >= 0)
		r = PC_CMP(column(c->d, b, (size_t)c->col),
		    column(c->d, a, (size_t)c->col));
	return r != 0 ? r : strcmp(an, bn);
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

/* Gather NAME, the key of the next row shown. */
int
profconv__diff_add_name(struct name_col *nc, const char *name)
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
int
profconv__diff_make_labels(struct name_col *nc)
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
const char *
profconv__diff_shown_name(struct name_col *nc, size_t i, const char *name)
{
	if (!nc->first)
		return profconv__text_safe(&nc->tb, name);
	return profconv__text_safe(&nc->tb, profconv__stack_labels_get(nc->sl,
	    i));
}

/* Make the column as wide as NAME needs (a heading or TOTAL, as it is). */
void
profconv__diff_fit_name(struct name_col *nc, const char *name)
{
	int w;

	if (!nc->first)
		return;
	w = (int)profconv__utf8_chars(name);
	nc->width = w > nc->width ? w : nc->width;
}

void
profconv__diff_name_col_free(struct name_col *nc)
{
	profconv__textbuf_free(&nc->tb);
	profconv__stack_labels_free(nc->sl);
	free(nc->names);
}

/* Before the numbers: the name padded to the column, when first. */
void
profconv__diff_name_before(FILE *fp, struct name_col *nc, const char *shown)
{
	if (nc->first)
		fprintf(fp, "%s%*s ", shown, nc->width -
		    (int)profconv__utf8_chars(shown), "");
}

/* After them: the name, when last; the end of the line. */
void
profconv__diff_name_after(FILE *fp, const struct name_col *nc,
    const char *shown)
{
	if (nc->first)
		fputc('\n', fp);
	else
		fprintf(fp, "  %s\n", shown);
}

void
profconv__diff_print_value(FILE *fp, int width, int64_t v, bool bytes,
    bool exact)
{
	const char *unit;
	double x;

	if (!bytes || exact || (v > -1024 && v < 1024)) {
		if (bytes && !exact)
			fprintf(fp, " %*" PRId64 "B", width - 1, v);
		else
			fprintf(fp, " %*" PRId64, width, v);
		return;
	}
	unit = profconv__bytes_unit(v, &x);
	fprintf(fp, " %*.2f%s", width - (int)strlen(unit), x, unit);
}

static void
print_row(const struct profconv_diff *d, FILE *fp, const int *widths,
    const int64_t *v, const char *name, bool exact, struct name_col *nc)
{
	size_t c;

	profconv__diff_name_before(fp, nc, name);
	for (c = 0; c < ncolumns(d); c++)
		profconv__diff_print_value(fp, widths[c], column(d, v, c),
		    column_is_bytes(d, c), exact);
	profconv__diff_name_after(fp, nc, name);
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
	profconv__diff_fit_name(&nc, "Stack");
	profconv__diff_fit_name(&nc, "TOTAL");
	for (i = 0; nc.first && i < n && (opts->top == 0 || shown < opts->top);
	    i++) {
		if (row_shown(d, profconv__rows_values(d->rows, i))) {
			if ((rc = profconv__diff_add_name(&nc,
			    profconv__rows_name(d->rows, i))) < 0)
				goto out;
			shown++;
		}
	}
	if ((rc = profconv__diff_make_labels(&nc)) < 0)
		goto out;
	shown = 0;
	errno = 0;
	profconv__diff_name_before(fp, &nc, "Stack");
	for (c = 0; c < ncolumns(d); c++) {
		widths[c] = column_width(d, c, title, sizeof(title));
		fprintf(fp, " %*s", widths[c], profconv__text_safe(&nc.tb,
		    title));
	}
	profconv__diff_name_after(fp, &nc, "Name");
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(d->rows, i);

		if (!row_shown(d, v))
			continue;
		rows++;
		if (opts->top != 0 && shown >= opts->top)
			continue;
		print_row(d, fp, widths, v, profconv__diff_shown_name(&nc,
		    shown, profconv__rows_name(d->rows, i)), opts->exact != 0,
		    &nc);
		shown++;
	}
	if (shown < rows)
		fprintf(fp, "  ... %zu more rows\n", rows - shown);
	print_row(d, fp, widths, total, "TOTAL", opts->exact != 0, &nc);
	profconv__hidden_print(fp, &d->hidden, opts->exact == 0 &&
	    strcmp(profconv__pstr(d->delta, d->delta->sample_types[
	    profconv__diff_hidden_type(d->delta)].unit), "bytes") == 0, false);
	if (fflush(fp) != 0 || ferror(fp))
		rc = profconv__write_error();
out:
	profconv__diff_name_col_free(&nc);
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
		rc = profconv__write_error();
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
