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
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A value cell, its background shaded by |V| / TOTAL: red for more,
 * green for less (a diff's negative values). */
static void
put_cell(FILE *fp, const struct pc_listing *l, int64_t v)
{
	char buf[48];
	double a = 0;

	if (v != 0 && l->total != 0)
		a = 0.08 + 0.7 * fmin(1.0, fabs((double)v / (double)l->total));
	if (v == 0) {
		fputs("<td class=\"v\">.</td>", fp);
		return;
	}
	fprintf(fp, "<td class=\"v\" style=\"background: rgba(%s, %.3f)\">",
	    v > 0 ? "220, 40, 20" : "20, 150, 60", a);
	profconv__xml_put(fp, profconv__list_value(buf, v, l->unit),
	    (size_t)-1);
	fputs("</td>", fp);
}

static void
put_row(FILE *fp, const struct pc_listing *l, const struct pc_list_row *row)
{
	const char *text, *base;
	size_t len;

	if (row->gap != 0) {
		fprintf(fp, "<tr class=\"gap\"><td class=\"v\">.</td>"
		    "<td class=\"v\">.</td><td class=\"n\">...</td>"
		    "<td class=\"s\">[%" PRId64 " line%s not shown: far from "
		    "every line that holds something]</td></tr>\n", row->gap,
		    row->gap != 1 ? "s" : "");
		return;
	}
	fprintf(fp, "<tr class=\"%s%s\">", row->depth != 0 ? "inl" : "line",
	    row->has_value ? " hot" : "");
	put_cell(fp, l, row->flat);
	put_cell(fp, l, row->cum);
	fprintf(fp, "<td class=\"n\">%" PRId64 "</td><td class=\"s\"", row->line);
	if (row->depth != 0)
		fprintf(fp, " style=\"padding-left: %ucm\"", 1 + row->depth);
	fputs(">", fp);
	if (row->depth != 0) {
		base = strrchr(row->file, '/');
		base = base != NULL ? base + 1 : row->file;
		fputs("<span class=\"fn\">", fp);
		profconv__xml_put(fp, row->function, (size_t)-1);
		fputs(" ", fp);
		profconv__xml_put(fp, base, (size_t)-1);
		fprintf(fp, ":%" PRId64 "</span> ", row->line);
	}
	if (profconv__source_line(row->src, row->line, &text, &len)) {
		while (row->depth != 0 && len > 0 &&
		    (*text == ' ' || *text == '\t')) {
			text++;
			len--;
		}
		put_source(fp, text, len);
	}
	fputs("</td></tr>\n", fp);
}

/* The routines, a section each. */
static void
put_routines(const struct pc_listing *l, FILE *fp)
{
	char a[48], b[48], p[32];
	size_t i, k;

	for (i = 0; i < l->nroutines; i++) {
		const struct pc_list_routine *r = &l->routines[i];

		fputs("<section class=\"routine\">\n<h2>", fp);
		profconv__xml_put(fp, r->name, (size_t)-1);
		if (r->file == NULL) {
			fputs("</h2>\n<p class=\"note\">No source information"
			    "</p>\n</section>\n", fp);
			continue;
		}
		fputs(" in ", fp);
		profconv__xml_put(fp, r->file, (size_t)-1);
		fprintf(fp, "</h2>\n<p class=\"sum\">flat %s, cum %s, %s of "
		    "total</p>\n", profconv__list_value(a, r->flat, l->unit),
		    profconv__list_value(b, r->cum, l->unit),
		    profconv__list_percent(p, r->cum, l->total));
		if (r->src->text == NULL) {
			fprintf(fp, "<p class=\"note\">Source %s; tried ",
			    r->src->withheld ? "withheld" : "not found");
			profconv__xml_put(fp, r->src->note, (size_t)-1);
			fputs("</p>\n", fp);
		}
		fputs("<table class=\"src\">\n<tr><th>flat</th><th>cum</th>"
		    "<th>line</th><th></th></tr>\n", fp);
		for (k = 0; k < r->nrows; k++)
			put_row(fp, l, &r->rows[k]);
		fputs("</table>\n", fp);
		if (r->cut)
			fprintf(fp, "<p class=\"note\">Cut here: %s.</p>\n",
			    profconv__list_full);
		fputs("</section>\n", fp);
	}
	if (l->more != 0)
		fprintf(fp, "<section class=\"routine\">\n<p class=\"note\">"
		    "%zu more function%s not listed: %s.</p>\n</section>\n",
		    l->more, l->more != 1 ? "s" : "", profconv__list_full);
}

/* What the holes of list.html are filled from. */
struct fill {
	const struct pc_listing *l;
	const char *regex;
};

static int
is(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && memcmp(name, want, len) == 0;
}

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
