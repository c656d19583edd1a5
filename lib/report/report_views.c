/* SPDX-License-Identifier: MIT */
/*
 * report_views.c - the views of one profile (and its base) in the report page:
 * the summary, the top table, the flame graphs, the call graphs, the
 * source listings and the comparison table; report.c puts them on the
 * page.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "model/model.h"
#include "page/page.h"
#include "report/diff.h"
#include "report/list.h"
#include "view/view.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/report_page.h"

/* --- the views of one profile (and its base) ------------------------------ */

/* V of TOTAL as a percentage: exact into SORT, to show into TEXT. */
static void
percent(char sort[PC_REPORT_NUM], char text[PC_REPORT_NUM], int64_t v,
    int64_t total)
{
	double p = total != 0 ? 100.0 * (double)v / (double)total : 0;

	snprintf(sort, PC_REPORT_NUM, "%.6g", p);
	if (total != 0)
		snprintf(text, PC_REPORT_NUM, "%.2f%%", p);
	else
		snprintf(text, PC_REPORT_NUM, "-");
}

/* The fragment "section" of report.html: the tab ID's start. */
static void
section(FILE *fp, const char *id)
{
	struct pc_page_hole h[] = { { "id", id } };

	profconv__report_piece(fp, "section", h, PC_ARRAY_LEN(h));
}

static void
section_end(FILE *fp)
{
	profconv__report_piece(fp, "section_end", NULL, 0);
}

/* The total SUM of the sample type VT, its row of the summary. */
static void
sample_type(FILE *fp, const struct profconv_value_type *vt, const char *cls,
    int64_t sum, bool def)
{
	char v[PC_REPORT_NUM], g[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "label", strcmp(cls, "total") == 0 ? "total" : "base total" },
		{ "type", vt->type }, { "unit", vt->unit }, { "class", cls },
		{ "v", v }, { "sum", profconv__group_digits(g, sum) },
		{ "default", def ? " [default]" : "" }
	};

	snprintf(v, sizeof(v), "%" PRId64, sum);
	profconv__report_piece(fp, "sum_total", h, PC_ARRAY_LEN(h));
}

static void
sample_types(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view *view, const char *cls)
{
	struct profconv_value_type vt;
	int def = profconv_profile_default_sample_index(prof);
	size_t i, n = profconv_profile_sample_type_count(prof);
	int64_t sum;

	for (i = 0; i < n; i++) {
		if (profconv_profile_sample_type(prof, i, &vt) < 0)
			continue;
		profconv_view_total(view, i, &sum);
		sample_type(fp, &vt, cls, sum, (int)i == def);
	}
}

/* A row of a top table: FLAT, CUM and their shares of C's total. */
static void
top_row(FILE *fp, const struct ctx *c, int64_t flat, int64_t cum,
    const char *name)
{
	char v[2][PC_REPORT_NUM], g[2][PC_REPORT_NUM];
	char pv[2][PC_REPORT_NUM], p[2][PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "flat_v", v[0] }, { "flat", profconv__group_digits(g[0], flat) },
		{ "flat_pv", pv[0] }, { "flat_p", p[0] },
		{ "cum_v", v[1] }, { "cum", profconv__group_digits(g[1], cum) },
		{ "cum_pv", pv[1] }, { "cum_p", p[1] }, { "name", name }
	};

	snprintf(v[0], sizeof(v[0]), "%" PRId64, flat);
	snprintf(v[1], sizeof(v[1]), "%" PRId64, cum);
	percent(pv[0], p[0], flat, c->total);
	percent(pv[1], p[1], cum, c->total);
	profconv__report_piece(fp, "top_row", h, PC_ARRAY_LEN(h));
}

/* The first TOP functions of the flat column of the shown type, with a
 * value (a flat one when FLAT_ONLY), as a table whose id is ID: flat,
 * flat%, cum, cum%, function. */
static void
top_rows(FILE *fp, struct ctx *c, const char *id, size_t top, bool flat_only)
{
	struct pc_page_hole h[] = { { "id", id } };
	size_t i, n, shown = 0, col = c->ti;

	profconv__rows_sort(c->funcs, profconv__rows_by_magnitude, &col);
	n = profconv__rows_count(c->funcs);
	profconv__report_piece(fp, "top_table", h, 1);
	for (i = 0; i < n && shown < top; i++) {
		const int64_t *v = profconv__rows_values(c->funcs, i);
		int64_t flat = v[c->ti], cum = v[c->nt + c->ti];

		if (flat == 0 && (cum == 0 || flat_only))
			continue;
		top_row(fp, c, flat, cum, profconv__rows_name(c->funcs, i));
		shown++;
	}
	profconv__report_piece(fp, "top_table_end", NULL, 0);
}

/* The change D of the sample type VT from THEN, its row of the summary. */
static void
change(FILE *fp, const struct profconv_value_type *vt, int64_t d,
    int64_t then)
{
	char v[PC_REPORT_NUM], g[PC_REPORT_NUM], share[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "type", vt->type }, { "unit", vt->unit }, { "v", v },
		{ "sign", d > 0 ? "+" : "" },
		{ "change", profconv__group_digits(g, d) }, { "share", share }
	};

	snprintf(v, sizeof(v), "%" PRId64, d);
	snprintf(share, sizeof(share), "%+.2f", then != 0 ?
	    100.0 * (double)d / (double)then : 0);
	profconv__report_piece(fp, then != 0 ? "sum_change_share" :
	    "sum_change", h, PC_ARRAY_LEN(h));
}

/* Per sample type, CUR's total less BASE's, and that change as a share
 * of BASE's total (profdiff's percentage). */
static void
changes(FILE *fp, struct ctx *c)
{
	struct profconv_value_type vt;
	size_t i, n = profconv_profile_sample_type_count(c->cur);
	int64_t now, then, d;

	for (i = 0; i < n; i++) {
		if (profconv_profile_sample_type(c->cur, i, &vt) < 0 ||
		    profconv_view_total(c->cv, i, &now) < 0 ||
		    profconv_view_total(c->bv, i, &then) < 0)
			continue;
		d = (int64_t)((uint64_t)now - (uint64_t)then);
		change(fp, &vt, d, then);
	}
}

/* PROF's comments as pprof's headers show them: those that do not start
 * with '#', a line each. */
static void
comments(FILE *fp, const struct profconv_profile *prof, const char *cls)
{
	size_t i, n = profconv_profile_comment_count(prof);

	for (i = 0; i < n; i++) {
		const char *s = profconv_profile_comment(prof, i);

		struct pc_page_hole h[] = {
			{ "label", cls[0] == 'b' ? "base comment" : "comment" },
			{ "class", cls }, { "text", s }
		};

		if (s[0] == '#')
			continue;
		profconv__report_piece(fp, "sum_comment", h, PC_ARRAY_LEN(h));
	}
}

int
profconv__report_summary(FILE *fp, struct ctx *c)
{
	const struct profconv_report_options *o = c->o;
	struct profconv_value_type vt;

	char n[PC_REPORT_NUM], bn[PC_REPORT_NUM], top[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "cur", o->cur_name }, { "base", o->base_name },
		{ "type", NULL }, { "unit", NULL }, { "n", n },
		{ "base_n", bn }, { "top", top }
	};

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	h[2].text = vt.type;
	h[3].text = vt.unit;
	snprintf(n, sizeof(n), "%zu", profconv_profile_sample_count(c->cur));
	snprintf(top, sizeof(top), "%d", SUMMARY_TOP);
	profconv__report_piece(fp, "summary", h, PC_ARRAY_LEN(h));
	if (o->cur_name != NULL)
		profconv__report_piece(fp, "sum_cur", h, PC_ARRAY_LEN(h));
	if (c->base != NULL && o->base_name != NULL)
		profconv__report_piece(fp, "sum_base", h, PC_ARRAY_LEN(h));
	comments(fp, c->cur, "comment");
	if (c->base != NULL)
		comments(fp, c->base, "base-comment");
	profconv__report_piece(fp, "sum_shown", h, PC_ARRAY_LEN(h));
	sample_types(fp, c->cur, c->cv, "total");
	if (c->base != NULL) {
		snprintf(bn, sizeof(bn), "%zu",
		    profconv_profile_sample_count(c->base));
		profconv__report_piece(fp, "sum_base_samples", h,
		    PC_ARRAY_LEN(h));
		sample_types(fp, c->base, c->bv, "base-total");
		changes(fp, c);
	}
	profconv__report_piece(fp, c->base != NULL ? "sum_end_diff" :
	    "sum_end", h, PC_ARRAY_LEN(h));
	top_rows(fp, c, "summary-top", SUMMARY_TOP, true);
	section_end(fp);
	return 0;
}

int
profconv__report_top_table(FILE *fp, struct ctx *c)
{
	size_t top = c->o->top;
	struct profconv_value_type vt;
	char shown[PC_REPORT_NUM], n[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "shown", shown }, { "n", n }, { "type", NULL },
		{ "of", c->base != NULL ? " of the current profile" : "" }
	};

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	h[2].text = vt.type;
	snprintf(shown, sizeof(shown), "%zu", top < c->nfuncs ? top :
	    c->nfuncs);
	snprintf(n, sizeof(n), "%zu", c->nfuncs);
	section(fp, "top");
	profconv__report_piece(fp, "top_note", h, PC_ARRAY_LEN(h));
	top_rows(fp, c, "top-table", top, false);
	section_end(fp);
	return 0;
}

/*
 * M, written with result RC, framed as ID under TITLE; or, when the
 * profile cannot have that view (PROFCONV_EFORMAT), the note NONE with
 * the reason, and 0: a missing view is no failure of the report.
 * Frees M.
 */
static int
picture(FILE *fp, struct mem *m, int rc, const char *id, const char *title,
    const char *none)
{
	if (rc == 0)
		profconv__report_frame(fp, id, title, m);
	else if (rc == PROFCONV_EFORMAT)
		profconv__report_note(fp, none, profconv_errmsg());
	profconv__report_mem_free(m);
	return rc == PROFCONV_EFORMAT ? 0 : rc;
}

int
profconv__report_flame(FILE *fp, struct ctx *c)
{
	struct profconv_svg_options so = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_value_type vt;
	struct mem m;
	int rc;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	so.sample_type = vt.type;
	so.minwidth = c->o->minwidth;
	section(fp, "flame");
	if ((rc = profconv__report_mem_open(&m)) < 0)
		return rc;
	rc = profconv_svg_write(c->cv, c->bv, m.fp, &so);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		struct pc_page_hole h[] = {
			{ "minwidth", c->o->minwidth },
			{ "unit", strchr(c->o->minwidth, '%') != NULL ?
			    " of the total" : " px" }
		};

		profconv__report_piece(fp, "flame_note", h, PC_ARRAY_LEN(h));
	}
	rc = picture(fp, &m, rc, "flame", "Flame graph", "No flame graph");
	section_end(fp);
	return rc;
}

/* The note NAME on the call graphs: at most NODES nodes. */
static void
graph_note(FILE *fp, const char *name, size_t nodes)
{
	char n[PC_REPORT_NUM];
	struct pc_page_hole h[] = { { "n", n } };

	snprintf(n, sizeof(n), "%zu", nodes);
	profconv__report_piece(fp, name, h, PC_ARRAY_LEN(h));
}

int
profconv__report_graph(FILE *fp, struct ctx *c)
{
	struct profconv_graph_options go = PROFCONV_GRAPH_OPTIONS_INIT;
	struct profconv_value_type vt;
	struct mem m;
	int rc;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	go.sample_type = vt.type;
	go.format = PROFCONV_GRAPH_SVG;
	if (c->o->nodecount != 0)
		go.nodecount = c->o->nodecount;
	section(fp, "graph");
	if (profconv_graph_options_check(&go) == PROFCONV_EUNSUPPORTED) {
		profconv__report_note(fp, "No call graph: profconv was built without Graphviz's "
		    "library (profgraph --dot writes the graph as DOT)", NULL);
		section_end(fp);
		return 0;
	}
	if ((rc = profconv__report_mem_open(&m)) < 0)
		return rc;
	rc = profconv_graph_write(c->cv, c->bv, m.fp, &go);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0)
		graph_note(fp, "graph_note", go.nodecount);
	rc = picture(fp, &m, rc, "graph", "Call graph", "No call graph");
	section_end(fp);
	return rc;
}

/* The listing's tables (list.h's fragment: its own scoped style, no
 * script), cut after the last function that fits in LISTING_MAX. */
static void
listing_tables(FILE *fp, const struct mem *m)
{
	static const char end[] = "</section>\n";
	const char *cut = NULL, *p = m->buf;
	char at[PC_REPORT_NUM], len[PC_REPORT_NUM];
	struct pc_page_hole h[] = { { "at", at }, { "len", len } };

	if (m->len > LISTING_MAX) {
		while ((p = strstr(p, end)) != NULL &&
		    (size_t)(p + strlen(end) - m->buf) <= LISTING_MAX)
			cut = p += strlen(end);
	}
	profconv__report_piece(fp, "listing", NULL, 0);
	if (m->len <= LISTING_MAX) {
		fwrite(m->buf, 1, m->len, fp);
	} else {
		/* The fragment's own <div> is open at the cut: close it. */
		if (cut != NULL) {
			fwrite(m->buf, 1, (size_t)(cut - m->buf), fp);
			profconv__report_piece(fp, "div_end", NULL, 0);
		}
		snprintf(at, sizeof(at), "%zu", (size_t)(cut != NULL ?
		    cut - m->buf : 0));
		snprintf(len, sizeof(len), "%zu", m->len);
		profconv__report_piece(fp, "listing_cut", h, PC_ARRAY_LEN(h));
	}
	profconv__report_piece(fp, "div_end", NULL, 0);
}

/* The call graph of every sample type (at most GRAPH_TYPES of them), each
 * in a frame with its type's index in data-type, the one shown first
 * visible: the Explore tab's type switch shows the others (Graphviz
 * lays a graph out, the page cannot). */

int
profconv__report_graphs_per_type(FILE *fp, struct ctx *c)
{
	struct profconv_graph_options go = PROFCONV_GRAPH_OPTIONS_INIT;
	struct profconv_value_type vt;
	char n[PC_REPORT_NUM];
	struct pc_page_hole h[] = { { "type", n } };
	struct mem m;
	size_t k;
	int rc = 0;

	go.format = PROFCONV_GRAPH_SVG;
	if (c->o->nodecount != 0)
		go.nodecount = c->o->nodecount;
	if (profconv_graph_options_check(&go) == PROFCONV_EUNSUPPORTED)
		return profconv__report_graph(fp, c);
	section(fp, "graph");
	graph_note(fp, "graphs_note", go.nodecount);
	for (k = 0; k < c->nt && rc == 0; k++) {
		profconv_profile_sample_type(c->cur, k, &vt);
		go.sample_type = vt.type;
		if ((rc = profconv__report_mem_open(&m)) < 0)
			break;
		rc = profconv_graph_write(c->cv, NULL, m.fp, &go);
		if (profconv__report_mem_close(&m) < 0 && rc == 0)
			rc = PROFCONV_ENOMEM;
		if (rc == 0 || rc == PROFCONV_EFORMAT) {
			snprintf(n, sizeof(n), "%zu", k);
			profconv__report_piece(fp, k == c->ti ? "graph_type" :
			    "graph_type_hidden", h, PC_ARRAY_LEN(h));
		}
		rc = picture(fp, &m, rc, "graph", "Call graph",
		    "No call graph");
		if (rc == 0)
			profconv__report_piece(fp, "div_end", NULL, 0);
	}
	section_end(fp);
	return rc;
}

static void
free_names(const char **names, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		free((char *)names[i]);
	free(names);
}

/* Make the K NAMES copies of their own (free_names() frees them). */
static int
own_names(const char **names, size_t k)
{
	size_t i;
	char *s;

	for (i = 0; i < k; i++) {
		if ((s = strdup(names[i])) == NULL) {
			while (i-- > 0)
				free((char *)names[i]);
			return profconv__nomem();
		}
		names[i] = s;
	}
	return 0;
}

/* The note NAME on the listings of K functions by TYPE. */
static void
listing_note(FILE *fp, const char *name, size_t k, const char *type)
{
	char n[PC_REPORT_NUM];
	struct pc_page_hole h[] = { { "n", n }, { "type", type } };

	snprintf(n, sizeof(n), "%zu", k);
	profconv__report_piece(fp, name, h, PC_ARRAY_LEN(h));
}

/*
 * The annotated source of the LIST_TOP heaviest of the program's own
 * functions (sources under a source root or their build directory, not
 * system headers or libraries), each stack counted for the own frame
 * nearest its leaf: a C++ function's allocations made in inlined
 * std::vector code are its own, and so are a runtime's made through its
 * allocation wrappers.  Without own functions (a comparison, or no
 * source under any root), the heaviest by flat.  Matched by name (one
 * regex of 100,000 names overflows regcomp's stack), made only as far
 * as the page shows it.
 */
int
profconv__report_listing(FILE *fp, struct ctx *c, bool last)
{
	const struct profconv_report_options *o = c->o;
	struct profconv_list_options lo = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_value_type vt;
	size_t i, n, k = 0, own = 0, col = c->ti;
	const char **names;
	struct mem m;
	int rc;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	section(fp, "source");
	profconv__rows_sort(c->funcs, profconv__rows_by_magnitude, &col);
	n = profconv__rows_count(c->funcs);
	names = malloc((n + 1) * sizeof(*names));
	if (names == NULL)
		return profconv__nomem();
	lo.view = o->view;
	lo.sample_type = vt.type;
	lo.source_path = o->source_path;
	lo.trim_path = o->trim_path;
	lo.find_source = o->find_source;
	lo.payload = o->payload;
	if (c->base == NULL) {
		rc = profconv__list_own_top(c->cv, c->ti, &lo,
		    o->list_top < n ? o->list_top : n, names, &own);
		if (rc < 0) {
			free(names);
			return rc;
		}
		k = own;
	}
	for (i = 0; own == 0 && i < n && k < o->list_top; i++) {
		const char *name = profconv__rows_name(c->funcs, i);

		if (profconv__rows_values(c->funcs, i)[c->ti] == 0 ||
		    name[0] == '\0')
			continue;
		names[k++] = name;
	}
	if (k == 0) {
		profconv__report_note(fp, "No function holds anything", NULL);
		free(names);
		section_end(fp);
		return 0;
	}
	/* The last tab: the page's views and rows are not read again.
	 * The listing makes a view of its own of the whole profile, and
	 * theirs held beside it were most of the report's peak; the names
	 * (theirs) are copied first. */
	if ((rc = own_names(names, k)) < 0) {
		free(names);
		return rc;
	}
	if (last) {
		profconv_view_free(c->cv);
		profconv_view_free(c->bv);
		profconv__rows_free(c->funcs);
		c->cv = c->bv = NULL;
		c->funcs = NULL;
	}
	if ((rc = profconv__report_mem_open(&m)) < 0) {
		free_names(names, k);
		return rc;
	}
	/* Half the page's share: the fragment stops within a row of it. */
	if (c->lv != NULL)
		rc = profconv__list_write_fragment_view(c->lv, names, k, m.fp,
		    &lo, LISTING_MAX / 2);
	else
		rc = profconv__list_write_fragment(c->cur, c->base, names, k,
		    m.fp, &lo, LISTING_MAX / 2);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		listing_note(fp, own > 0 ? "source_note_own" : c->base ==
		    NULL ? "source_note_none" : "source_note", k, vt.type);
		listing_tables(fp, &m);
	} else if (rc == PROFCONV_ENOTFOUND) {
		profconv__report_note(fp, "No annotated source: the profile names no source "
		    "file or line for its heaviest functions (their binaries "
		    "have no debug information, or were not found)", NULL);
		rc = 0;
	} else if (rc == PROFCONV_EINVAL) {
		profconv__report_note(fp, "No annotated source", profconv_errmsg());
		rc = 0;
	}
	profconv__report_mem_free(&m);
	free_names(names, k);
	section_end(fp);
	return rc;
}

/* A number cell: the exact value to sort by, the text grouped. */
static void
put_num_cell(FILE *fp, int64_t v, const char *cls)
{
	char n[PC_REPORT_NUM], g[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "class", cls }, { "v", n },
		{ "text", profconv__group_digits(g, v) }
	};

	snprintf(n, sizeof(n), "%" PRId64, v);
	profconv__report_piece(fp, cls != NULL ? "num_cell" : "num_cell_plain",
	    h, PC_ARRAY_LEN(h));
}

struct cmp_ctx {
	FILE *fp;
	const struct profconv_diff *diff;
	size_t ti, nt;
};

/* A row of profdiff's table as a row of the page's: the shown type's
 * base, current, change and its share, its state, the heap columns. */
static int
cmp_row(const struct pc_diff_row *r, void *payload)
{
	const struct cmp_ctx *x = payload;
	FILE *fp = x->fp;
	int64_t delta = r->v[2 * x->nt + x->ti];
	double pct = profconv__diff_percent(x->diff, delta, x->ti);
	size_t k, nh = profconv__diff_heap_columns(x->diff);
	char pv[PC_REPORT_NUM], p[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "name", r->name }, { "pv", pv }, { "pct", p },
		{ "state", profconv__change_name(profconv__diff_change(x->diff,
		    r->v, x->ti)) }
	};

	snprintf(pv, sizeof(pv), "%.6g", pct);
	snprintf(p, sizeof(p), "%+.2f%%", pct);
	profconv__report_piece(fp, r->total ? "cmp_total" : "cmp_row", h,
	    PC_ARRAY_LEN(h));
	put_num_cell(fp, r->v[x->ti], "base");
	put_num_cell(fp, r->v[x->nt + x->ti], "cur");
	put_num_cell(fp, delta, "delta");
	profconv__report_piece(fp, "cmp_state", h, PC_ARRAY_LEN(h));
	for (k = 0; k < nh; k++)
		put_num_cell(fp, profconv__diff_heap_value(x->diff, r->v, k),
		    NULL);
	profconv__report_piece(fp, r->total ? "cmp_total_end" : "cmp_row_end",
	    NULL, 0);
	return 0;
}

/*
 * profdiff's comparison table as a table that sorts on a click of a
 * header: its rows in its order (the change in bytes, or in the default
 * type, first), its signs, its TOTAL row (last, not sorted), through
 * diff.h: nothing is computed twice.
 */
int
profconv__report_comparison(FILE *fp, struct ctx *c)
{
	struct profconv_diff_options dopts = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	struct profconv_diff *diff = NULL;
	struct profconv_value_type vt;
	struct cmp_ctx x;
	size_t k, nh, more = 0;
	char n[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "n", n }, { "type", NULL }, { "title", NULL }
	};
	int rc;

	dopts.view = c->o->view;
	dopts.base_name = c->o->base_name;
	dopts.cur_name = c->o->cur_name;
	po.top = c->o->top;
	profconv_profile_sample_type(c->cur, c->ti, &vt);
	section(fp, "compare");
	rc = profconv__diff_new(&diff, c->base, c->cur, &dopts, false);
	if (rc < 0)
		return rc;
	x.fp = fp;
	x.diff = diff;
	x.ti = c->ti;
	x.nt = c->nt;
	nh = profconv__diff_heap_columns(diff);
	snprintf(n, sizeof(n), "%zu", po.top);
	h[1].text = vt.type;
	profconv__report_piece(fp, "compare", h, PC_ARRAY_LEN(h));
	for (k = 0; k < nh; k++) {
		h[2].text = profconv__diff_heap_title(k);
		profconv__report_piece(fp, "compare_th", h, PC_ARRAY_LEN(h));
	}
	profconv__report_piece(fp, "compare_head_end", NULL, 0);
	rc = profconv__diff_rows(diff, &po, cmp_row, &x, &more);
	snprintf(n, sizeof(n), "%zu", more);
	profconv__report_piece(fp, "compare_end", NULL, 0);
	if (rc == 0 && more != 0)
		profconv__report_piece(fp, "compare_more", h, PC_ARRAY_LEN(h));
	profconv_diff_free(diff);
	section_end(fp);
	return rc;
}
