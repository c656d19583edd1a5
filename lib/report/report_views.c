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
#include "report/diff.h"
#include "report/list.h"
#include "view/view.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/report_page.h"

/* --- the views of one profile (and its base) ------------------------------ */

/* Largest magnitude of column COL first, then by name (show --summary's
 * order). */
static int
by_col(const int64_t *a, const char *an, const int64_t *b, const char *bn,
    void *payload)
{
	size_t col = *(const size_t *)payload;
	uint64_t x = a[col] < 0 ? -(uint64_t)a[col] : (uint64_t)a[col];
	uint64_t y = b[col] < 0 ? -(uint64_t)b[col] : (uint64_t)b[col];

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(an, bn);
}

static void
put_pct_cell(FILE *fp, int64_t v, int64_t total)
{
	double p = total != 0 ? 100.0 * (double)v / (double)total : 0;

	fprintf(fp, "<td data-v=\"%.6g\">", p);
	if (total != 0)
		fprintf(fp, "%.2f%%", p);
	else
		fputs("-", fp);
	fputs("</td>", fp);
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
		fprintf(fp, "<dt>%s ", strcmp(cls, "total") == 0 ? "total" :
		    "base total");
		profconv__report_put(fp, vt.type);
		fputs("/", fp);
		profconv__report_put(fp, vt.unit);
		fprintf(fp, "</dt><dd class=\"%s\" data-type=\"", cls);
		profconv__report_put(fp, vt.type);
		fprintf(fp, "\" data-v=\"%" PRId64 "\">", sum);
		profconv__report_put_num(fp, sum);
		fprintf(fp, "%s</dd>\n", (int)i == def ? " [default]" : "");
	}
}

/* The first TOP functions of the flat column of the shown type, with a
 * value (a flat one when FLAT_ONLY), as a table whose id is ID: flat,
 * flat%, cum, cum%, function. */
static void
top_rows(FILE *fp, struct ctx *c, const char *id, size_t top, bool flat_only)
{
	size_t i, n, shown = 0, col = c->ti;

	profconv__rows_sort(c->funcs, by_col, &col);
	n = profconv__rows_count(c->funcs);
	fprintf(fp, "<table class=\"top\" id=\"%s\"><thead><tr>"
	    "<th data-sort=\"num\">flat</th><th data-sort=\"num\">flat%%</th>"
	    "<th data-sort=\"num\">cum</th><th data-sort=\"num\">cum%%</th>"
	    "<th class=\"name\" data-sort=\"text\">function</th>"
	    "</tr></thead>\n<tbody>\n", id);
	for (i = 0; i < n && shown < top; i++) {
		const int64_t *v = profconv__rows_values(c->funcs, i);
		int64_t flat = v[c->ti], cum = v[c->nt + c->ti];

		if (flat == 0 && (cum == 0 || flat_only))
			continue;
		fprintf(fp, "<tr><td data-v=\"%" PRId64 "\">", flat);
		profconv__report_put_num(fp, flat);
		fputs("</td>", fp);
		put_pct_cell(fp, flat, c->total);
		fprintf(fp, "<td data-v=\"%" PRId64 "\">", cum);
		profconv__report_put_num(fp, cum);
		fputs("</td>", fp);
		put_pct_cell(fp, cum, c->total);
		fputs("<td class=\"name\">", fp);
		profconv__report_put(fp, profconv__rows_name(c->funcs, i));
		fputs("</td></tr>\n", fp);
		shown++;
	}
	fputs("</tbody></table>\n", fp);
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
		fputs("<dt>change ", fp);
		profconv__report_put(fp, vt.type);
		fputs("/", fp);
		profconv__report_put(fp, vt.unit);
		fputs("</dt><dd class=\"change\" data-type=\"", fp);
		profconv__report_put(fp, vt.type);
		fprintf(fp, "\" data-v=\"%" PRId64 "\">%s", d, d > 0 ? "+" : "");
		profconv__report_put_num(fp, d);
		if (then != 0)
			fprintf(fp, " (%+.2f%% of the base)",
			    100.0 * (double)d / (double)then);
		fputs("</dd>\n", fp);
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

		if (s[0] == '#')
			continue;
		fprintf(fp, "<dt>%s</dt><dd class=\"%s\">",
		    cls[0] == 'b' ? "base comment" : "comment", cls);
		profconv__report_put(fp, s);
		fputs("</dd>\n", fp);
	}
}

int
profconv__report_summary(FILE *fp, struct ctx *c)
{
	const struct profconv_report_options *o = c->o;
	struct profconv_value_type vt;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"summary\">\n<dl class=\"sum\">\n",
	    fp);
	if (o->cur_name != NULL) {
		fputs("<dt>profile</dt><dd id=\"cur-name\">", fp);
		profconv__report_put(fp, o->cur_name);
		fputs("</dd>\n", fp);
	}
	if (c->base != NULL && o->base_name != NULL) {
		fputs("<dt>base</dt><dd id=\"base-name\">", fp);
		profconv__report_put(fp, o->base_name);
		fputs("</dd>\n", fp);
	}
	comments(fp, c->cur, "comment");
	if (c->base != NULL)
		comments(fp, c->base, "base-comment");
	fputs("<dt>shown</dt><dd id=\"shown-type\">", fp);
	profconv__report_put(fp, vt.type);
	fputs("/", fp);
	profconv__report_put(fp, vt.unit);
	fputs("</dd>\n", fp);
	fprintf(fp, "<dt>samples</dt><dd id=\"samples\" data-v=\"%zu\">%zu</dd>\n",
	    profconv_profile_sample_count(c->cur),
	    profconv_profile_sample_count(c->cur));
	sample_types(fp, c->cur, c->cv, "total");
	if (c->base != NULL) {
		fprintf(fp, "<dt>base samples</dt><dd id=\"base-samples\">%zu"
		    "</dd>\n", profconv_profile_sample_count(c->base));
		sample_types(fp, c->base, c->bv, "base-total");
		changes(fp, c);
	}
	fputs("</dl>\n<h2>Heaviest functions</h2>\n", fp);
	fprintf(fp, "<p class=\"note\">The first %d functions of the Top "
	    "tab with a flat value%s.</p>\n", SUMMARY_TOP, c->base != NULL ?
	    " (of the current profile; the Comparison tab has the changes)" :
	    "");
	top_rows(fp, c, "summary-top", SUMMARY_TOP, true);
	fputs("</section>\n", fp);
	return 0;
}

int
profconv__report_top_table(FILE *fp, struct ctx *c)
{
	size_t top = c->o->top;
	struct profconv_value_type vt;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"top\">\n", fp);
	fprintf(fp, "<p class=\"note\" id=\"top-note\">Showing the top %zu of "
	    "%zu functions by flat ", top < c->nfuncs ? top : c->nfuncs,
	    c->nfuncs);
	profconv__report_put(fp, vt.type);
	fputs(c->base != NULL ? " of the current profile" : "", fp);
	fputs(" (click a header to sort).</p>\n", fp);
	top_rows(fp, c, "top-table", top, false);
	fputs("</section>\n", fp);
	return 0;
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
	fputs("<section class=\"tab\" id=\"flame\">\n", fp);
	if ((rc = profconv__report_mem_open(&m)) < 0)
		return rc;
	rc = profconv_svg_write(c->cv, c->bv, m.fp, &so);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		fprintf(fp, "<p class=\"note\" id=\"flame-note\">Frames "
		    "narrower than %s%s are left to their parent. Click a "
		    "frame to zoom, Ctrl-F to search.</p>\n", c->o->minwidth,
		    strchr(c->o->minwidth, '%') != NULL ? " of the total" :
		    " px");
		profconv__report_frame(fp, "flame", "Flame graph", &m);
	} else if (rc == PROFCONV_EFORMAT) {
		profconv__report_note(fp, "No flame graph", profconv_errmsg());
		rc = 0;
	}
	profconv__report_mem_free(&m);
	fputs("</section>\n", fp);
	return rc;
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
	fputs("<section class=\"tab\" id=\"graph\">\n", fp);
	if (profconv_graph_options_check(&go) == PROFCONV_EUNSUPPORTED) {
		profconv__report_note(fp, "No call graph: profconv was built without Graphviz's "
		    "library (profgraph --dot writes the graph as DOT)", NULL);
		fputs("</section>\n", fp);
		return 0;
	}
	if ((rc = profconv__report_mem_open(&m)) < 0)
		return rc;
	rc = profconv_graph_write(c->cv, c->bv, m.fp, &go);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		fprintf(fp, "<p class=\"note\">At most %zu nodes, as pprof "
		    "prunes them (the graph's legend says what is shown). Drag "
		    "to pan, wheel to zoom.</p>\n", go.nodecount);
		profconv__report_frame(fp, "graph", "Call graph", &m);
	} else if (rc == PROFCONV_EFORMAT) {
		profconv__report_note(fp, "No call graph", profconv_errmsg());
		rc = 0;
	}
	profconv__report_mem_free(&m);
	fputs("</section>\n", fp);
	return rc;
}

/* The listing's tables (list.h's fragment: its own scoped style, no
 * script), cut after the last function that fits in LISTING_MAX. */
static void
listing_tables(FILE *fp, const struct mem *m)
{
	static const char end[] = "</section>\n";
	const char *cut = NULL, *p = m->buf;

	if (m->len > LISTING_MAX) {
		while ((p = strstr(p, end)) != NULL &&
		    (size_t)(p + strlen(end) - m->buf) <= LISTING_MAX)
			cut = p += strlen(end);
	}
	fputs("<div id=\"listing\">\n", fp);
	if (m->len <= LISTING_MAX) {
		fwrite(m->buf, 1, m->len, fp);
	} else {
		/* The fragment's own <div> is open at the cut: close it. */
		if (cut != NULL) {
			fwrite(m->buf, 1, (size_t)(cut - m->buf), fp);
			fputs("</div>\n", fp);
		}
		fprintf(fp, "<p class=\"note\">Cut at %zu bytes of %zu.</p>\n",
		    (size_t)(cut != NULL ? cut - m->buf : 0), m->len);
	}
	fputs("</div>\n", fp);
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
	struct mem m;
	size_t k;
	int rc = 0;

	go.format = PROFCONV_GRAPH_SVG;
	if (c->o->nodecount != 0)
		go.nodecount = c->o->nodecount;
	if (profconv_graph_options_check(&go) == PROFCONV_EUNSUPPORTED)
		return profconv__report_graph(fp, c);
	fputs("<section class=\"tab\" id=\"graph\">\n", fp);
	fprintf(fp, "<p class=\"note\">At most %zu nodes, as pprof prunes "
	    "them (the graph's legend says what is shown), drawn for each "
	    "sample type: the Explore tab's switch picks one. Drag to pan, "
	    "wheel to zoom.</p>\n", go.nodecount);
	for (k = 0; k < c->nt && rc == 0; k++) {
		profconv_profile_sample_type(c->cur, k, &vt);
		go.sample_type = vt.type;
		if ((rc = profconv__report_mem_open(&m)) < 0)
			break;
		rc = profconv_graph_write(c->cv, NULL, m.fp, &go);
		if (profconv__report_mem_close(&m) < 0 && rc == 0)
			rc = PROFCONV_ENOMEM;
		if (rc == 0) {
			fprintf(fp, "<div class=\"graph-type\" data-type=\"%zu\""
			    "%s>", k, k == c->ti ? "" : " hidden");
			profconv__report_frame(fp, "graph", "Call graph", &m);
			fputs("</div>\n", fp);
		} else if (rc == PROFCONV_EFORMAT) {
			fprintf(fp, "<div class=\"graph-type\" data-type=\"%zu\""
			    "%s>", k, k == c->ti ? "" : " hidden");
			profconv__report_note(fp, "No call graph", profconv_errmsg());
			fputs("</div>\n", fp);
			rc = 0;
		}
		profconv__report_mem_free(&m);
	}
	fputs("</section>\n", fp);
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
profconv__report_listing(FILE *fp, struct ctx *c)
{
	const struct profconv_report_options *o = c->o;
	struct profconv_list_options lo = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_value_type vt;
	size_t i, n, k = 0, own = 0, col = c->ti;
	const char **names;
	struct mem m;
	int rc;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"source\">\n", fp);
	profconv__rows_sort(c->funcs, by_col, &col);
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
		fputs("</section>\n", fp);
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
	profconv_view_free(c->cv);
	profconv_view_free(c->bv);
	profconv__rows_free(c->funcs);
	c->cv = c->bv = NULL;
	c->funcs = NULL;
	if ((rc = profconv__report_mem_open(&m)) < 0) {
		free_names(names, k);
		return rc;
	}
	/* Half the page's share: the fragment stops within a row of it. */
	rc = profconv__list_write_fragment(c->cur, c->base, names, k, m.fp,
	    &lo, LISTING_MAX / 2);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		if (own > 0) {
			fprintf(fp, "<p class=\"note\" id=\"source-note\">The "
			    "program's own %zu heaviest functions (their "
			    "sources under a source root or the build "
			    "directory the debug information names; not system "
			    "headers or libraries), by ", k);
			profconv__report_put(fp, vt.type);
			fputs(" allocated in them or in the library and system "
			    "code they call", fp);
		} else {
			fprintf(fp, "<p class=\"note\" id=\"source-note\">%s"
			    "The %zu heaviest functions by flat ", c->base ==
			    NULL ? "No function's source is under a source "
			    "root or a build directory the debug information "
			    "names. " : "", k);
			profconv__report_put(fp, vt.type);
		}
		fputs(", as profconv list --html shows them: flat and cum "
		    "shaded by their share of the total, inlined calls under "
		    "the line that made them.</p>\n", fp);
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
	fputs("</section>\n", fp);
	return rc;
}

/* A number cell: the exact value to sort by, the text grouped. */
static void
put_num_cell(FILE *fp, int64_t v, const char *cls)
{
	fprintf(fp, "<td%s%s%s data-v=\"%" PRId64 "\">", cls != NULL ?
	    " class=\"" : "", cls != NULL ? cls : "", cls != NULL ? "\"" : "",
	    v);
	profconv__report_put_num(fp, v);
	fputs("</td>", fp);
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

	fputs(r->total ? "</tbody><tfoot><tr class=\"total\">" : "<tr>", fp);
	fputs("<td class=\"name\">", fp);
	profconv__report_put(fp, r->name);
	fputs("</td>", fp);
	put_num_cell(fp, r->v[x->ti], "base");
	put_num_cell(fp, r->v[x->nt + x->ti], "cur");
	put_num_cell(fp, delta, "delta");
	fprintf(fp, "<td class=\"pct\" data-v=\"%.6g\">%+.2f%%</td>", pct,
	    pct);
	fprintf(fp, "<td class=\"name state\">%s</td>", profconv__change_name(
	    profconv__diff_change(x->diff, r->v, x->ti)));
	for (k = 0; k < nh; k++)
		put_num_cell(fp, profconv__diff_heap_value(x->diff, r->v, k),
		    NULL);
	fputs(r->total ? "</tr></tfoot>\n" : "</tr>\n", fp);
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
	int rc;

	dopts.view = c->o->view;
	dopts.base_name = c->o->base_name;
	dopts.cur_name = c->o->cur_name;
	po.top = c->o->top;
	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"compare\">\n", fp);
	rc = profconv_diff_new(&diff, c->base, c->cur, &dopts);
	if (rc < 0)
		return rc;
	x.fp = fp;
	x.diff = diff;
	x.ti = c->ti;
	x.nt = c->nt;
	nh = profconv__diff_heap_columns(diff);
	fprintf(fp, "<p class=\"note\" id=\"compare-note\">profdiff's "
	    "comparison, base to current: the rows that changed, by change "
	    "(the top %zu); base, current, \xce\x94 and \xce\x94%% (of the "
	    "base's total) in ", po.top);
	profconv__report_put(fp, vt.type);
	fputs("; click a header to sort.</p>\n", fp);
	fputs("<table class=\"top cmp\" id=\"compare-table\"><thead><tr>"
	    "<th class=\"name\" data-sort=\"text\">name</th>"
	    "<th data-sort=\"num\">base</th><th data-sort=\"num\">current</th>"
	    "<th data-sort=\"num\">\xce\x94</th>"
	    "<th data-sort=\"num\">\xce\x94%</th>"
	    "<th class=\"name\" data-sort=\"text\">state</th>", fp);
	for (k = 0; k < nh; k++)
		fprintf(fp, "<th data-sort=\"num\">%s</th>",
		    profconv__diff_heap_title(k));
	fputs("</tr></thead>\n<tbody>\n", fp);
	rc = profconv__diff_rows(diff, &po, cmp_row, &x, &more);
	fputs("</table>\n", fp);
	if (rc == 0 && more != 0)
		fprintf(fp, "<p class=\"note\" id=\"compare-more\">%zu more "
		    "rows changed (-n shows more).</p>\n", more);
	profconv_diff_free(diff);
	fputs("</section>\n", fp);
	return rc;
}
