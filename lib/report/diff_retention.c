/* SPDX-License-Identifier: MIT */
/*
 * diff_retention.c - retention across three dumps (profdiff --still-at):
 * what grew from BASE to CUR and is still held at LATER, as a table and
 * as JSON, printed as the comparison's table is (diff_table.c).
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
	if ((rc = profconv__diff_same_types(base, cur)) < 0 ||
	    (rc = profconv__diff_same_types(base, later)) < 0)
		return rc;
	profconv__diff_check_inputs(&o, base, cur);
	/* LATER is a dump of the same process as CUR. */
	if (o.warn != NULL)
		profconv__diff_check_unrelated(&o, cur, o.cur_name, later,
		    o.later_name);
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
	int c;

	retained(r, a, r->follow[1], &ga, &la, &ha);
	retained(r, b, r->follow[1], &gb, &lb, &hb);
	c = PC_CMP(hb, ha);
	if (c == 0)
		c = PC_CMP(gb, ga);
	return c != 0 ? c : strcmp(an, bn);
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

	profconv__diff_name_before(fp, nc, name);
	for (k = r->is_heap ? 0 : 1; k < 2; k++)
		for (c = 0; c < 3; c++)
			profconv__diff_print_value(fp, 14, col[3 * k + c],
			    k == 1 && r->bytes, exact);
	profconv__diff_name_after(fp, nc, name);
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
	profconv__diff_fit_name(&nc, "Stack");
	profconv__diff_fit_name(&nc, "TOTAL");
	for (i = 0; nc.first && i < n && (o.top == 0 || shown < o.top); i++) {
		if (ret_shown(r, profconv__rows_values(r->rows, i))) {
			if ((rc = profconv__diff_add_name(&nc,
			    profconv__rows_name(r->rows, i))) < 0) {
				profconv__diff_name_col_free(&nc);
				return rc;
			}
			shown++;
		}
	}
	if ((rc = profconv__diff_make_labels(&nc)) < 0) {
		profconv__diff_name_col_free(&nc);
		return rc;
	}
	shown = 0;
	errno = 0;
	profconv__diff_name_before(fp, &nc, "Stack");
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
	profconv__diff_name_after(fp, &nc, "Name");
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(r->rows, i);

		if (!ret_shown(r, v))
			continue;
		rows++;
		if (o.top != 0 && shown >= o.top)
			continue;
		ret_columns(r, v, col);
		ret_print_row(r, fp, col, profconv__diff_shown_name(&nc, shown,
		    profconv__rows_name(r->rows, i)), o.exact != 0, &nc);
		shown++;
	}
	if (shown < rows)
		fprintf(fp, "  ... %zu more rows\n", rows - shown);
	ret_print_row(r, fp, total, "TOTAL", o.exact != 0, &nc);
	profconv__diff_name_col_free(&nc);
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__write_error();
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
		return profconv__write_error();
	return 0;
}
