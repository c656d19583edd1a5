/* SPDX-License-Identifier: MIT */
/*
 * listhtml.c - the annotated source listing as one self-contained HTML
 * page (go tool pprof's weblist): per function a table of its lines with
 * flat and cum as columns shaded by their share of the total, inlined
 * calls nested under the line that made them.
 *
 * The page runs no script and fetches nothing: its Content-Security-
 * Policy allows only its own inline style.  Every name, path and line of
 * source is escaped as XML text (write/escape.c), bytes that are not
 * UTF-8 shown as U+FFFD.
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "page/page.h"
#include "report/list.h"
#include "write/write.h"

/* The listing's own rules (page/list.css); in another page (profconv
 * report), each selector is put under FRAGMENT_CLASS so that none
 * reaches the rest. */
#define FRAGMENT_CLASS "pc-list"

/* Write LEN bytes of source text S as XML text: a NUL byte as U+FFFD
 * (xml_put stops at one), cut at PC_SOURCE_MAX_LINE bytes. */
static void
put_source(FILE *fp, const char *s, size_t len)
{
	size_t show = len < PC_SOURCE_MAX_LINE ? len : PC_SOURCE_MAX_LINE;
	char *copy = malloc(show + 1);
	size_t i;

	if (copy == NULL)
		return;
	for (i = 0; i < show; i++)
		copy[i] = s[i] != '\0' ? s[i] : '\x01';
	copy[show] = '\0';
	profconv__xml_put(fp, copy, (size_t)-1);
	free(copy);
	if (show < len)
		fprintf(fp, " [... %zu more bytes]", len - show);
}

/* S escaped as XML text (pc_page_text). */
static void
put_xml(FILE *fp, const char *s)
{
	profconv__xml_put(fp, s, (size_t)-1);
}

/* The fragment NAME of list.html, its holes filled from the N HOLES:
 * escaped if ESCAPE, else numbers and the listing's own words. */
static void
piece(FILE *fp, const char *name, const struct pc_page_hole *holes,
    size_t n, bool escape)
{
	profconv__page_put_holes(fp, profconv__page_list_html, name, holes,
	    n, escape ? put_xml : NULL);
}

/* A value cell, its background shaded by |V| / TOTAL: red for more,
 * green for less (a diff's negative values). */
static void
put_cell(FILE *fp, const struct pc_listing *l, int64_t v)
{
	char buf[48], alpha[32];
	struct pc_page_hole h[] = {
		{ "rgb", v > 0 ? "220, 40, 20" : "20, 150, 60" },
		{ "alpha", alpha },
		{ "value", profconv__list_value(buf, v, l->unit) }
	};

	if (v == 0) {
		piece(fp, "cell_empty", NULL, 0, false);
		return;
	}
	snprintf(alpha, sizeof(alpha), "%.3f", l->total == 0 ? 0 :
	    0.08 + 0.7 * fmin(1.0, fabs((double)v / (double)l->total)));
	piece(fp, "cell", h, PC_ARRAY_LEN(h), true);
}

/* What the holes of a row are filled from. */
struct row_fill {
	const struct pc_listing *l;
	const struct pc_list_row *row;
};

static int
is(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && memcmp(name, want, len) == 0;
}

/* The row's source line, an inlined call's without its indentation. */
static void
put_row_source(FILE *fp, const struct pc_list_row *row)
{
	const char *text;
	size_t len;

	if (!profconv__source_line(row->src, row->line, &text, &len))
		return;
	while (row->depth != 0 && len > 0 && (*text == ' ' || *text == '\t')) {
		text++;
		len--;
	}
	put_source(fp, text, len);
}

static void
fill_row(FILE *fp, const char *name, size_t len, void *arg)
{
	const struct row_fill *f = arg;
	const struct pc_list_row *row = f->row;
	const char *base;

	if (is(name, len, "class"))
		fprintf(fp, "%s%s", row->depth != 0 ? "inl" : "line",
		    row->has_value ? " hot" : "");
	else if (is(name, len, "flat"))
		put_cell(fp, f->l, row->flat);
	else if (is(name, len, "cum"))
		put_cell(fp, f->l, row->cum);
	else if (is(name, len, "line"))
		fprintf(fp, "%" PRId64, row->line);
	else if (is(name, len, "indent"))
		fprintf(fp, "%u", 1 + row->depth);
	else if (is(name, len, "function"))
		put_xml(fp, row->function);
	else if (is(name, len, "file")) {
		base = strrchr(row->file, '/');
		put_xml(fp, base != NULL ? base + 1 : row->file);
	} else if (is(name, len, "source"))
		put_row_source(fp, row);
}

static void
put_row(FILE *fp, const struct pc_listing *l, const struct pc_list_row *row)
{
	struct row_fill f = { l, row };
	char gap[32];
	struct pc_page_hole h[] = {
		{ "gap", gap }, { "s", row->gap != 1 ? "s" : "" }
	};

	if (row->gap != 0) {
		snprintf(gap, sizeof(gap), "%" PRId64, row->gap);
		piece(fp, "gap", h, PC_ARRAY_LEN(h), false);
		return;
	}
	profconv__page_put(fp, profconv__page_list_html,
	    row->depth != 0 ? "row_inlined" : "row", fill_row, &f);
}

/* Routine R's heading, its sums, and why its source is missing. */
static void
put_routine_head(FILE *fp, const struct pc_listing *l,
    const struct pc_list_routine *r)
{
	char a[48], b[48], p[32];
	struct pc_page_hole h[] = {
		{ "name", r->name }, { "file", r->file },
		{ "flat", profconv__list_value(a, r->flat, l->unit) },
		{ "cum", profconv__list_value(b, r->cum, l->unit) },
		{ "percent", profconv__list_percent(p, r->cum, l->total) },
		{ "what", r->src->withheld ? "withheld" : "not found" },
		{ "note", r->src->note }
	};

	piece(fp, "routine", h, PC_ARRAY_LEN(h), true);
	if (r->src->text == NULL)
		piece(fp, "source_missing", h, PC_ARRAY_LEN(h), true);
}

/* The routines, a section each. */
static void
put_routines(const struct pc_listing *l, FILE *fp)
{
	char more[32];
	struct pc_page_hole h[] = {
		{ "n", more }, { "s", l->more != 1 ? "s" : "" },
		{ "name", NULL }, { "full", profconv__list_full }
	};
	size_t i, k;

	for (i = 0; i < l->nroutines; i++) {
		const struct pc_list_routine *r = &l->routines[i];

		if (r->file == NULL) {
			h[2].text = r->name;
			piece(fp, "routine_no_source", h + 2, 1, true);
			continue;
		}
		put_routine_head(fp, l, r);
		piece(fp, "table", NULL, 0, false);
		for (k = 0; k < r->nrows; k++)
			put_row(fp, l, &r->rows[k]);
		piece(fp, r->cut ? "table_end_cut" : "table_end", h,
		    PC_ARRAY_LEN(h), false);
	}
	snprintf(more, sizeof(more), "%zu", l->more);
	if (l->more != 0)
		piece(fp, "more", h, PC_ARRAY_LEN(h), false);
}

/* What the holes of list.html are filled from. */
struct fill {
	const struct pc_listing *l;
	const char *regex;
};

static void
fill(FILE *fp, const char *name, size_t len, void *arg)
{
	const struct fill *f = arg;
	char a[48];

	if (is(name, len, "regex"))
		profconv__xml_put(fp, f->regex, (size_t)-1);
	else if (is(name, len, "type")) {
		profconv__xml_put(fp, f->l->type, (size_t)-1);
		fputs(f->l->diff ? " (change from the base)" : "", fp);
	} else if (is(name, len, "total"))
		fputs(profconv__list_value(a, f->l->total, f->l->unit), fp);
	else if (is(name, len, "scoped_css"))
		profconv__page_put_scoped(fp, profconv__page_list_css,
		    "div." FRAGMENT_CLASS);
	else if (is(name, len, "class"))
		fputs(FRAGMENT_CLASS, fp);
}

int
profconv__list_write_html(const struct pc_listing *l, FILE *fp,
    const char *regex)
{
	struct fill f = { l, regex };

	profconv__page_put(fp, profconv__page_list_html, "head", fill, &f);
	put_routines(l, fp);
	profconv__page_put(fp, profconv__page_list_html, "foot", NULL, NULL);
	return 0;
}

int
profconv__list_write_html_fragment(const struct pc_listing *l, FILE *fp)
{
	struct fill f = { l, NULL };

	profconv__page_put(fp, profconv__page_list_html, "part", fill, &f);
	put_routines(l, fp);
	profconv__page_put(fp, profconv__page_list_html, "part_end", NULL,
	    NULL);
	return 0;
}
