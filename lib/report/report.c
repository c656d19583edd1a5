/* SPDX-License-Identifier: MIT */
/*
 * report.c - every view of one profile, of a change between two, or of
 * a series, in one self-contained HTML page (profconv report): a summary,
 * the top functions (a table that sorts on a click of its header), the
 * flame graph, the call graph, the annotated source of the heaviest
 * functions; with a base, the differential flame graph and call graph
 * and the comparison table; for a series, proftrend's picture and its
 * verdicts.
 *
 * The page composes the library's writers and changes none of them.
 * Each picture is the writer's own SVG, percent-encoded in an
 * <iframe>'s data-svg attribute; the page's script makes it a blob: URL
 * the frame shows, so that its script sees the SVG as its document, as
 * it does in a file of its own, and the pictures' ids and scripts cannot
 * meet.  (Not a data: URL in src: Chromium drops URLs over 2 MB without
 * a word, and a flame graph may be larger.)  The comparison is profdiff's
 * table as an HTML table, its rows, signs and TOTAL taken from diff.h
 * (not computed again); the source is listhtml.c's tables, their style
 * scoped to their <div>.
 *
 * Nothing is fetched: the Content-Security-Policy is default-src 'none'
 * with inline scripts and styles, and blob: frames.  Inline scripts are
 * allowed by 'unsafe-inline', not by hashes: the frames inherit the
 * page's policy, so a hash would have to cover every writer's script,
 * computed here over text other files own, for no gain: what keeps a
 * profile's names from running is that no name reaches the page
 * unescaped (XML escaping here; the writers escape their own SVG, which
 * is then percent-encoded into the attribute).
 *
 * The page's size follows what it shows, not the profile: TOP rows, the
 * flame graph's minimum width, the graph's node count, LIST_TOP
 * functions' listings cut at a fixed size.
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

/* Rows of the top table repeated in the summary. */
#define SUMMARY_TOP 5

/* Bytes of annotated source shown, in all. */
#define LISTING_MAX ((size_t)1 << 20)

static const char head_start[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
	"'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
	"frame-src blob:; base-uri 'none'; form-action 'none'\">\n"
	"<meta name=\"referrer\" content=\"no-referrer\">\n"
	"<meta name=\"generator\" content=\"profconv " PROFCONV_VERSION_STRING
	"\">\n";

static const char style[] =
	"<style>\n"
	"body { font-family: sans-serif; margin: 0 1em 1em; }\n"
	"h1 { font-size: 1.2em; }\n"
	"nav { position: sticky; top: 0; background: #fff; padding: .4em 0;"
	" border-bottom: 1px solid #ccc; z-index: 1; }\n"
	"nav button { font: inherit; margin-right: .3em; padding: .2em .8em;"
	" border: 1px solid #999; background: #eee; cursor: pointer; }\n"
	"nav button.on { background: #fff; border-bottom-color: #fff;"
	" font-weight: bold; }\n"
	"section.tab { padding-top: .5em; }\n"
	"section.off { position: absolute; left: -100000px; top: 0;"
	" visibility: hidden; }\n"
	"table.top { border-collapse: collapse; font-family: monospace; }\n"
	"table.top th { cursor: pointer; text-align: right; padding: 0 .6em;"
	" border-bottom: 1px solid #999; user-select: none; }\n"
	"table.top th.name, table.top td.name { text-align: left; }\n"
	"table.top td { text-align: right; padding: 0 .6em;"
	" white-space: pre; }\n"
	"table.top th.asc::after { content: \" \\25B2\"; }\n"
	"table.top th.desc::after { content: \" \\25BC\"; }\n"
	"table.top tr:nth-child(even) td { background: #f4f4f4; }\n"
	"table.cmp tfoot td { border-top: 1px solid #999; font-weight: bold; }\n"
	"dl.sum { display: grid; grid-template-columns: max-content auto;"
	" gap: .1em 1em; font-family: monospace; }\n"
	"dl.sum dt { font-weight: bold; } dl.sum dd { margin: 0; }\n"
	"pre { font-size: .9em; tab-size: 8; }\n"
	"p.note { color: #555; font-size: .9em; }\n"
	"iframe.pic { border: 1px solid #ccc; display: block; }\n"
	"iframe.graph { width: 100%; height: 80vh; }\n"
	"</style>\n";

/*
 * The page's script: tabs (the hash names the open one, so a reload or
 * a link keeps it) and the top table's sort on a click of a header
 * (numbers by their exact value, in data-v; names by text; a second
 * click reverses).  It reads nothing from the profile but the table's
 * cells.
 */
static const char script[] =
	"<script>\n"
	"(function () {\n"
	"\t\"use strict\";\n"
	"\tvar tabs = document.querySelectorAll(\"section.tab\");\n"
	"\tvar buttons = document.querySelectorAll(\"nav button\");\n"
	"\tfunction show(id) {\n"
	"\t\tvar found = false;\n"
	"\t\ttabs.forEach(function (t) { if (t.id === id) found = true; });\n"
	"\t\tif (!found) id = tabs[0].id;\n"
	"\t\ttabs.forEach(function (t) {\n"
	"\t\t\tt.classList.toggle(\"off\", t.id !== id);\n"
	"\t\t});\n"
	"\t\tbuttons.forEach(function (b) {\n"
	"\t\t\tb.classList.toggle(\"on\", b.dataset.tab === id);\n"
	"\t\t});\n"
	"\t}\n"
	"\tbuttons.forEach(function (b) {\n"
	"\t\tb.addEventListener(\"click\", function () {\n"
	"\t\t\tshow(b.dataset.tab);\n"
	"\t\t\ttry { history.replaceState(null, \"\", \"#\" + b.dataset.tab); }\n"
	"\t\t\tcatch (e) { /* opaque origins may refuse it */ }\n"
	"\t\t});\n"
	"\t});\n"
	"\tshow(location.hash.slice(1));\n"
	"\tdocument.querySelectorAll(\"iframe[data-svg]\").forEach(function (f) {\n"
	"\t\tvar svg;\n"
	"\t\ttry { svg = decodeURIComponent(f.dataset.svg); }\n"
	"\t\tcatch (e) { return; }\n"
	"\t\tf.src = URL.createObjectURL(new Blob([svg],\n"
	"\t\t    { type: \"image/svg+xml\" }));\n"
	"\t});\n"
	"\tdocument.querySelectorAll(\"table.top\").forEach(function (t) {\n"
	"\t\tvar ths = t.querySelectorAll(\"th\");\n"
	"\t\tths.forEach(function (th, col) {\n"
	"\t\t\tth.addEventListener(\"click\", function () {\n"
	"\t\t\t\tvar body = t.tBodies[0];\n"
	"\t\t\t\tvar rows = Array.prototype.slice.call(body.rows);\n"
	"\t\t\t\tvar num = th.dataset.sort === \"num\";\n"
	"\t\t\t\tvar desc = num ? !th.classList.contains(\"desc\") :\n"
	"\t\t\t\t    th.classList.contains(\"asc\");\n"
	"\t\t\t\tths.forEach(function (h) {\n"
	"\t\t\t\t\th.classList.remove(\"asc\", \"desc\");\n"
	"\t\t\t\t});\n"
	"\t\t\t\tth.classList.add(desc ? \"desc\" : \"asc\");\n"
	"\t\t\t\trows.sort(function (a, b) {\n"
	"\t\t\t\t\tvar x = a.cells[col], y = b.cells[col], c;\n"
	"\t\t\t\t\tif (num) {\n"
	"\t\t\t\t\t\tx = +x.dataset.v; y = +y.dataset.v;\n"
	"\t\t\t\t\t\tc = x < y ? -1 : x > y ? 1 : 0;\n"
	"\t\t\t\t\t} else {\n"
	"\t\t\t\t\t\tx = x.textContent; y = y.textContent;\n"
	"\t\t\t\t\t\tc = x < y ? -1 : x > y ? 1 : 0;\n"
	"\t\t\t\t\t}\n"
	"\t\t\t\t\treturn desc ? -c : c;\n"
	"\t\t\t\t});\n"
	"\t\t\t\trows.forEach(function (r) { body.appendChild(r); });\n"
	"\t\t\t});\n"
	"\t\t});\n"
	"\t});\n"
	"})();\n"
	"</script>\n";

/* --- text ------------------------------------------------------------------ */

static void
put(FILE *fp, const char *s)
{
	profconv__xml_put(fp, s, (size_t)-1);
}

/* The bytes that stay as they are in a double-quoted attribute holding
 * percent-encoded text; all others are encoded, so that no byte is read
 * as markup and decodeURIComponent() gives the text back. */
static bool
url_plain(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return true;
	return c != 0 && strchr(" !$'()*+,-./:;=?@[]^_`{|}~", c) != NULL;
}

static void
put_url_encoded(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (url_plain(p[i]))
			putc(p[i], fp);
		else
			fprintf(fp, "%%%c%c", hex[p[i] >> 4], hex[p[i] & 15]);
	}
}

/* A value with thousands separators. */
static void
put_num(FILE *fp, int64_t v)
{
	char buf[40];

	fputs(profconv__group_digits(buf, v), fp);
}

/* The number in attribute NAME="..." of the first tag <svg ...> in S,
 * or DEF. */
static unsigned long
svg_attr(const char *s, const char *name, unsigned long def)
{
	const char *tag = strstr(s, "<svg"), *end, *a;
	char key[32];

	if (tag == NULL || (end = strchr(tag, '>')) == NULL)
		return def;
	snprintf(key, sizeof(key), " %s=\"", name);
	a = strstr(tag, key);
	if (a == NULL || a > end)
		return def;
	return strtoul(a + strlen(key), NULL, 10);
}

/* --- collecting a writer's output ------------------------------------------- */

struct mem {
	FILE *fp;
	char *buf;
	size_t len;
};

static int
mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	if (m->fp == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	return 0;
}

/* Close M's stream; its text stays in M->buf (free it). */
static int
mem_close(struct mem *m)
{
	int bad = m->fp != NULL && (ferror(m->fp) || fclose(m->fp) != 0);

	m->fp = NULL;
	if (bad || m->buf == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	return 0;
}

static void
mem_free(struct mem *m)
{
	if (m->fp != NULL)
		fclose(m->fp);
	free(m->buf);
	m->fp = NULL;
	m->buf = NULL;
}

/* --- sections ---------------------------------------------------------------- */

struct section {
	const char *id;
	const char *label;
};

static void
nav(FILE *fp, const struct section *s, size_t n)
{
	size_t i;

	fputs("<nav>", fp);
	for (i = 0; i < n; i++)
		fprintf(fp, "<button type=\"button\" data-tab=\"%s\">%s</button>",
		    s[i].id, s[i].label);
	fputs("</nav>\n", fp);
}

static void
note(FILE *fp, const char *what, const char *msg)
{
	fprintf(fp, "<p class=\"note\">%s", what);
	if (msg != NULL) {
		fputs(": ", fp);
		put(fp, msg);
	}
	fputs("</p>\n", fp);
}

/* An SVG a writer made, in a frame of its own. */
static void
frame(FILE *fp, const char *cls, const char *title, const struct mem *m)
{
	unsigned long w = svg_attr(m->buf, "width", 1200);
	unsigned long h = svg_attr(m->buf, "height", 600);

	fprintf(fp, "<iframe class=\"pic %s\" title=\"%s\"", cls, title);
	if (strcmp(cls, "graph") != 0)
		fprintf(fp, " width=\"%lu\" height=\"%lu\"", w + 2, h + 2);
	fputs(" data-svg=\"", fp);
	put_url_encoded(fp, m->buf, m->len);
	fputs("\"></iframe>\n", fp);
}

/* --- the views of one profile (and its base) ------------------------------ */

struct ctx {
	const struct profconv_report_options *o;
	const struct profconv_profile *cur, *base;
	struct profconv_view *cv, *bv;
	size_t ti, nt;
	int64_t total;
	struct pc_rows *funcs;		/* flat, then cum, per type */
	size_t nfuncs;			/* rows with a value */
};

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
		put(fp, vt.type);
		fputs("/", fp);
		put(fp, vt.unit);
		fprintf(fp, "</dt><dd class=\"%s\" data-type=\"", cls);
		put(fp, vt.type);
		fprintf(fp, "\" data-v=\"%" PRId64 "\">", sum);
		put_num(fp, sum);
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
		put_num(fp, flat);
		fputs("</td>", fp);
		put_pct_cell(fp, flat, c->total);
		fprintf(fp, "<td data-v=\"%" PRId64 "\">", cum);
		put_num(fp, cum);
		fputs("</td>", fp);
		put_pct_cell(fp, cum, c->total);
		fputs("<td class=\"name\">", fp);
		put(fp, profconv__rows_name(c->funcs, i));
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
		put(fp, vt.type);
		fputs("/", fp);
		put(fp, vt.unit);
		fputs("</dt><dd class=\"change\" data-type=\"", fp);
		put(fp, vt.type);
		fprintf(fp, "\" data-v=\"%" PRId64 "\">%s", d, d > 0 ? "+" : "");
		put_num(fp, d);
		if (then != 0)
			fprintf(fp, " (%+.2f%% of the base)",
			    100.0 * (double)d / (double)then);
		fputs("</dd>\n", fp);
	}
}

static int
summary(FILE *fp, struct ctx *c)
{
	const struct profconv_report_options *o = c->o;
	struct profconv_value_type vt;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"summary\">\n<dl class=\"sum\">\n",
	    fp);
	if (o->cur_name != NULL) {
		fputs("<dt>profile</dt><dd id=\"cur-name\">", fp);
		put(fp, o->cur_name);
		fputs("</dd>\n", fp);
	}
	if (c->base != NULL && o->base_name != NULL) {
		fputs("<dt>base</dt><dd id=\"base-name\">", fp);
		put(fp, o->base_name);
		fputs("</dd>\n", fp);
	}
	fputs("<dt>shown</dt><dd id=\"shown-type\">", fp);
	put(fp, vt.type);
	fputs("/", fp);
	put(fp, vt.unit);
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

static int
top_table(FILE *fp, struct ctx *c)
{
	size_t top = c->o->top;
	struct profconv_value_type vt;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	fputs("<section class=\"tab\" id=\"top\">\n", fp);
	fprintf(fp, "<p class=\"note\" id=\"top-note\">Showing the top %zu of "
	    "%zu functions by flat ", top < c->nfuncs ? top : c->nfuncs,
	    c->nfuncs);
	put(fp, vt.type);
	fputs(c->base != NULL ? " of the current profile" : "", fp);
	fputs(" (click a header to sort).</p>\n", fp);
	top_rows(fp, c, "top-table", top, false);
	fputs("</section>\n", fp);
	return 0;
}

static int
flame(FILE *fp, struct ctx *c)
{
	struct profconv_svg_options so = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_value_type vt;
	struct mem m;
	int rc;

	profconv_profile_sample_type(c->cur, c->ti, &vt);
	so.sample_type = vt.type;
	so.minwidth = c->o->minwidth;
	fputs("<section class=\"tab\" id=\"flame\">\n", fp);
	if ((rc = mem_open(&m)) < 0)
		return rc;
	rc = profconv_svg_write(c->cv, c->bv, m.fp, &so);
	if (mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		fprintf(fp, "<p class=\"note\" id=\"flame-note\">Frames "
		    "narrower than %s%s are left to their parent. Click a "
		    "frame to zoom, Ctrl-F to search.</p>\n", c->o->minwidth,
		    strchr(c->o->minwidth, '%') != NULL ? " of the total" :
		    " px");
		frame(fp, "flame", "Flame graph", &m);
	} else if (rc == PROFCONV_EFORMAT) {
		note(fp, "No flame graph", profconv_errmsg());
		rc = 0;
	}
	mem_free(&m);
	fputs("</section>\n", fp);
	return rc;
}

static int
graph(FILE *fp, struct ctx *c)
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
		note(fp, "No call graph: profconv was built without Graphviz's "
		    "library (profgraph --dot writes the graph as DOT)", NULL);
		fputs("</section>\n", fp);
		return 0;
	}
	if ((rc = mem_open(&m)) < 0)
		return rc;
	rc = profconv_graph_write(c->cv, c->bv, m.fp, &go);
	if (mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		fprintf(fp, "<p class=\"note\">At most %zu nodes, as pprof "
		    "prunes them (the graph's legend says what is shown). Drag "
		    "to pan, wheel to zoom.</p>\n", go.nodecount);
		frame(fp, "graph", "Call graph", &m);
	} else if (rc == PROFCONV_EFORMAT) {
		note(fp, "No call graph", profconv_errmsg());
		rc = 0;
	}
	mem_free(&m);
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
#define GRAPH_TYPES 4
/* Each graph reads every stack: over this many, the shown type's only. */
#define GRAPH_TYPES_STACKS 250000

static int
graphs_per_type(FILE *fp, struct ctx *c)
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
		return graph(fp, c);
	fputs("<section class=\"tab\" id=\"graph\">\n", fp);
	fprintf(fp, "<p class=\"note\">At most %zu nodes, as pprof prunes "
	    "them (the graph's legend says what is shown), drawn for each "
	    "sample type: the Explore tab's switch picks one. Drag to pan, "
	    "wheel to zoom.</p>\n", go.nodecount);
	for (k = 0; k < c->nt && rc == 0; k++) {
		profconv_profile_sample_type(c->cur, k, &vt);
		go.sample_type = vt.type;
		if ((rc = mem_open(&m)) < 0)
			break;
		rc = profconv_graph_write(c->cv, NULL, m.fp, &go);
		if (mem_close(&m) < 0 && rc == 0)
			rc = PROFCONV_ENOMEM;
		if (rc == 0) {
			fprintf(fp, "<div class=\"graph-type\" data-type=\"%zu\""
			    "%s>", k, k == c->ti ? "" : " hidden");
			frame(fp, "graph", "Call graph", &m);
			fputs("</div>\n", fp);
		} else if (rc == PROFCONV_EFORMAT) {
			fprintf(fp, "<div class=\"graph-type\" data-type=\"%zu\""
			    "%s>", k, k == c->ti ? "" : " hidden");
			note(fp, "No call graph", profconv_errmsg());
			fputs("</div>\n", fp);
			rc = 0;
		}
		mem_free(&m);
	}
	fputs("</section>\n", fp);
	return rc;
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
static int
listing(FILE *fp, struct ctx *c)
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
		note(fp, "No function holds anything", NULL);
		free(names);
		fputs("</section>\n", fp);
		return 0;
	}
	if ((rc = mem_open(&m)) < 0) {
		free(names);
		return rc;
	}
	/* Half the page's share: the fragment stops within a row of it. */
	rc = profconv__list_write_fragment(c->cur, c->base, names, k, m.fp,
	    &lo, LISTING_MAX / 2);
	if (mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc == 0) {
		if (own > 0) {
			fprintf(fp, "<p class=\"note\" id=\"source-note\">The "
			    "program's own %zu heaviest functions (their "
			    "sources under a source root or the build "
			    "directory the debug information names; not system "
			    "headers or libraries), by ", k);
			put(fp, vt.type);
			fputs(" allocated in them or in the library and system "
			    "code they call", fp);
		} else {
			fprintf(fp, "<p class=\"note\" id=\"source-note\">%s"
			    "The %zu heaviest functions by flat ", c->base ==
			    NULL ? "No function's source is under a source "
			    "root or a build directory the debug information "
			    "names. " : "", k);
			put(fp, vt.type);
		}
		fputs(", as profconv list --html shows them: flat and cum "
		    "shaded by their share of the total, inlined calls under "
		    "the line that made them.</p>\n", fp);
		listing_tables(fp, &m);
	} else if (rc == PROFCONV_ENOTFOUND) {
		note(fp, "No annotated source: the profile names no source "
		    "file or line for its heaviest functions (their binaries "
		    "have no debug information, or were not found)", NULL);
		rc = 0;
	} else if (rc == PROFCONV_EINVAL) {
		note(fp, "No annotated source", profconv_errmsg());
		rc = 0;
	}
	mem_free(&m);
	free(names);
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
	put_num(fp, v);
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
	put(fp, r->name);
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
static int
comparison(FILE *fp, struct ctx *c)
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
	put(fp, vt.type);
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

static void
page_start(FILE *fp, const struct profconv_report_options *o)
{
	fputs(head_start, fp);
	fputs("<title>", fp);
	put(fp, o->title);
	fputs("</title>\n", fp);
	fputs(style, fp);
	fputs("</head>\n<body>\n<h1>", fp);
	put(fp, o->title);
	fputs("</h1>\n", fp);
}

static int
page_end(FILE *fp)
{
	fputs(script, fp);
	fputs("</body>\n</html>\n", fp);
	errno = 0;
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return 0;
}

static int
take_options(struct profconv_report_options *o,
    const struct profconv_report_options *opts)
{
	int rc = profconv__options_take(o, opts, &profconv__options_report);

	if (rc < 0)
		return rc;
	/* NaN fails both comparisons; +inf wrote "fraction":inf into the
	 * page's JSON, and 1e300 overflowed the cut's int64_t. */
	if (!(o->node_fraction >= 0 && o->node_fraction <= 1))
		return profconv__fail(PROFCONV_EINVAL, "invalid node fraction "
		    "%g: from 0 to 1", o->node_fraction);
	if (o->title == NULL)
		o->title = "profconv report";
	if (o->top == 0)
		o->top = 50;
	if (o->list_top == 0)
		o->list_top = 5;
	/* Half a pixel, not the flame writer's tenth: a page of every
	 * view stays a few MB on a profile of 36k stacks (bench/). */
	if (o->minwidth == NULL)
		o->minwidth = "0.5";
	return 0;
}

int
profconv_report_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, FILE *fp,
    const struct profconv_report_options *opts)
{
	static const struct section one[] = {
		{ "summary", "Summary" }, { "live", "Explore" },
		{ "top", "Top" }, { "flame", "Flame graph" }, { "graph", "Call graph" },
		{ "source", "Source" }
	};
	static const struct section two[] = {
		{ "summary", "Summary" }, { "live", "Explore" },
		{ "compare", "Comparison" },
		{ "top", "Top" }, { "flame", "Flame graph (diff)" },
		{ "graph", "Call graph (diff)" }, { "source", "Source (diff)" }
	};
	struct profconv_report_options o;
	struct ctx c;
	size_t i, n;
	int rc;

	if (cur == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no profile or no file");
	if ((rc = take_options(&o, opts)) < 0)
		return rc;
	memset(&c, 0, sizeof(c));
	c.o = &o;
	c.cur = cur;
	c.base = base;
	if (o.sample_type != NULL &&
	    profconv_profile_sample_type_index(cur, o.sample_type) < 0)
		return profconv__fail(PROFCONV_ENOTFOUND,
		    "profile has no sample type '%s'", o.sample_type);
	if ((rc = profconv_view_new(&c.cv, cur, o.view)) < 0)
		goto out;
	if (base != NULL && (rc = profconv_view_new(&c.bv, base, o.view)) < 0)
		goto out;
	if ((rc = profconv_view_sample_index(c.cv, o.sample_type, &c.ti)) < 0)
		goto out;
	c.nt = profconv_profile_sample_type_count(cur);
	profconv_view_total(c.cv, c.ti, &c.total);
	if ((rc = profconv__rows_new(&c.funcs, 2 * c.nt)) < 0 ||
	    (rc = profconv__rows_add(c.funcs, c.cv, PC_ROWS_FUNCTION, false,
	    0)) < 0 ||
	    (rc = profconv__rows_add(c.funcs, c.cv, PC_ROWS_FUNCTION, true,
	    c.nt)) < 0)
		goto out;
	n = profconv__rows_count(c.funcs);
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(c.funcs, i);

		c.nfuncs += v[c.ti] != 0 || v[c.nt + c.ti] != 0;
	}
	page_start(fp, &o);
	if (base == NULL)
		nav(fp, one, PC_ARRAY_LEN(one));
	else
		nav(fp, two, PC_ARRAY_LEN(two));
	rc = summary(fp, &c);
	if (rc == 0)
		rc = profconv__report_live(fp, base, cur, o.view,
		    o.node_fraction > 0 ? o.node_fraction : -1,
		    o.tree_nodes != 0 ? o.tree_nodes : PC_REPORT_TREE_NODES,
		    c.ti, o.top);
	if (rc == 0 && base != NULL)
		rc = comparison(fp, &c);
	if (rc == 0)
		rc = top_table(fp, &c);
	if (rc == 0)
		rc = flame(fp, &c);
	if (rc == 0 && base == NULL && c.nt <= GRAPH_TYPES &&
	    profconv_view_stack_count(c.cv) <= GRAPH_TYPES_STACKS)
		rc = graphs_per_type(fp, &c);
	else if (rc == 0)
		rc = graph(fp, &c);
	if (rc == 0)
		rc = listing(fp, &c);
	if (rc == 0)
		rc = page_end(fp);
out:
	profconv__rows_free(c.funcs);
	profconv_view_free(c.cv);
	profconv_view_free(c.bv);
	return rc;
}

/* --- a series ---------------------------------------------------------------- */

/* The Explore tab of a series: the K snapshots PICK of TREND, in order. */
static int
live_series(FILE *fp, const struct profconv_trend *trend,
    const struct profconv_report_options *o, const size_t *pick, size_t k)
{
	struct profconv_trend_snapshot s;
	const char **order;
	size_t i;
	int rc = 0;

	if ((order = calloc(k + 1, sizeof(*order))) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	for (i = 0; i < k && rc == 0; i++)
		if ((rc = profconv_trend_snapshot(trend, pick[i], &s)) == 0)
			order[i] = s.name;
	if (rc == 0)
		rc = profconv__report_live_series(fp, o->series, order, k,
		    o->node_fraction > 0 ? o->node_fraction : -1,
		    o->tree_nodes != 0 ? o->tree_nodes : PC_REPORT_TREE_NODES,
		    o->top);
	free(order);
	return rc;
}

/* The snapshots of TREND the page carries, into *PICK (freed by the
 * caller), their count into *K. */
static int
series_pick(const struct profconv_trend *trend, size_t **pick, size_t *k)
{
	size_t i, n = profconv_trend_snapshot_count(trend);
	struct profconv_trend_snapshot s;
	int64_t *total;
	int rc = 0;

	total = calloc(n + 1, sizeof(*total));
	*pick = calloc(n + 1, sizeof(**pick));
	if (total == NULL || *pick == NULL) {
		free(total);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	for (i = 0; i < n && rc == 0; i++)
		if ((rc = profconv_trend_snapshot(trend, i, &s)) == 0)
			total[i] = s.inuse_bytes;
	*k = rc == 0 ? profconv__report_series_pick(total, n, *pick) : 0;
	free(total);
	return rc;
}

int
profconv_report_write_trend(const struct profconv_trend *trend, FILE *fp,
    const struct profconv_report_options *opts)
{
	static const struct section sec[] = {
		{ "trend", "Memory over time" }, { "verdicts", "Verdicts" },
		{ "live", "Explore" }
	};
	struct profconv_trend_svg_options so =
	    PROFCONV_TREND_SVG_OPTIONS_INIT;
	struct profconv_report_options o;
	struct profconv_trend_snapshot s;
	struct profconv_trend_row r;
	struct mem m;
	size_t i, j, n, k = 0, *pick = NULL;
	int rc;

	if (trend == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no analysis or no file");
	if ((rc = take_options(&o, opts)) < 0)
		return rc;
	if ((rc = mem_open(&m)) < 0)
		return rc;
	rc = profconv_trend_write_svg(trend, m.fp, &so);
	if (mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc < 0) {
		mem_free(&m);
		return rc;
	}
	if ((rc = series_pick(trend, &pick, &k)) < 0) {
		mem_free(&m);
		free(pick);
		return rc;
	}
	n = profconv_trend_snapshot_count(trend);
	page_start(fp, &o);
	nav(fp, sec, PC_ARRAY_LEN(sec) - (o.series == NULL));
	fputs("<section class=\"tab\" id=\"trend\">\n", fp);
	fprintf(fp, "<p class=\"note\">%zu snapshots; hover a band for its "
	    "figures, Ctrl-F to search.</p>\n", n);
	frame(fp, "trend", "Memory over time", &m);
	mem_free(&m);
	if (k < n)
		fprintf(fp, "<p class=\"note\" id=\"snapshots-note\">The "
		    "table and the Explore tab hold %zu of the %zu snapshots, "
		    "as the picture draws them: the first, the last and the "
		    "one with the largest total of each stretch between "
		    "them.</p>\n", k, n);
	fputs("<table class=\"top\" id=\"snapshots\"><thead><tr>"
	    "<th data-sort=\"num\">#</th><th class=\"name\" data-sort=\"text\">"
	    "snapshot</th><th data-sort=\"num\">in use</th></tr></thead>\n"
	    "<tbody>\n", fp);
	for (j = 0; j < k; j++) {
		i = pick[j];
		if ((rc = profconv_trend_snapshot(trend, i, &s)) < 0) {
			free(pick);
			return rc;
		}
		fprintf(fp, "<tr><td data-v=\"%zu\">%zu</td><td class=\"name\">",
		    i + 1, i + 1);
		put(fp, s.name);
		fprintf(fp, "%s%s</td><td data-v=\"%" PRId64 "\">",
		    s.high_water ? " [high-water]" : "",
		    s.final ? " [final]" : "", s.inuse_bytes);
		put_num(fp, s.inuse_bytes);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n</section>\n", fp);
	n = profconv_trend_row_count(trend);
	fputs("<section class=\"tab\" id=\"verdicts\">\n", fp);
	fprintf(fp, "<p class=\"note\" id=\"verdicts-note\">Showing %zu of %zu "
	    "rows, %zu suspects (proftrend's verdicts).</p>\n",
	    o.top < n ? o.top : n, n, profconv_trend_suspect_count(trend));
	fputs("<table class=\"top\" id=\"verdict-table\"><thead><tr>"
	    "<th data-sort=\"num\">first</th><th data-sort=\"num\">last</th>"
	    "<th data-sort=\"num\">growth</th><th data-sort=\"num\">grew</th>"
	    "<th class=\"name\" data-sort=\"text\">verdict</th>"
	    "<th class=\"name\" data-sort=\"text\">name</th>"
	    "</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < n && i < o.top; i++) {
		if ((rc = profconv_trend_row(trend, i, &r)) < 0) {
			free(pick);
			return rc;
		}
		fprintf(fp, "<tr><td data-v=\"%" PRId64 "\">", r.first_bytes);
		put_num(fp, r.first_bytes);
		fprintf(fp, "</td><td data-v=\"%" PRId64 "\">", r.last_bytes);
		put_num(fp, r.last_bytes);
		fprintf(fp, "</td><td data-v=\"%" PRId64 "\">", r.growth_bytes);
		put_num(fp, r.growth_bytes);
		fprintf(fp, "</td><td data-v=\"%zu\">%zu/%zu</td>"
		    "<td class=\"name\">%s</td><td class=\"name\">",
		    r.grew_intervals, r.grew_intervals, r.intervals,
		    profconv_trend_verdict_name(r.verdict));
		put(fp, r.name);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n</section>\n", fp);
	if (o.series != NULL)
		rc = live_series(fp, trend, &o, pick, k);
	free(pick);
	return rc < 0 ? rc : page_end(fp);
}
