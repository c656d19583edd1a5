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
#include "page/page.h"
#include "report/diff.h"
#include "report/list.h"
#include "view/view.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/report_page.h"

/* --- text ------------------------------------------------------------------ */

void
profconv__report_put(FILE *fp, const char *s)
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
void
profconv__report_put_num(FILE *fp, int64_t v)
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

int
profconv__report_mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	if (m->fp == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	return 0;
}

/* Close M's stream; its text stays in M->buf (free it). */
int
profconv__report_mem_close(struct mem *m)
{
	int bad = m->fp != NULL && (ferror(m->fp) || fclose(m->fp) != 0);

	m->fp = NULL;
	if (bad || m->buf == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	return 0;
}

void
profconv__report_mem_free(struct mem *m)
{
	if (m->fp != NULL)
		fclose(m->fp);
	free(m->buf);
	m->fp = NULL;
	m->buf = NULL;
}

/* --- sections ---------------------------------------------------------------- */

void
profconv__report_piece(FILE *fp, const char *name,
    const struct pc_page_hole *holes, size_t n)
{
	profconv__page_put_holes(fp, profconv__page_report_html, name, holes,
	    n, profconv__report_put);
}

static void
nav(FILE *fp, const struct section *s, size_t n)
{
	size_t i;

	profconv__report_piece(fp, "nav", NULL, 0);
	for (i = 0; i < n; i++) {
		struct pc_page_hole h[] = {
			{ "id", s[i].id }, { "label", s[i].label }
		};

		profconv__report_piece(fp, "nav_button", h, PC_ARRAY_LEN(h));
	}
	profconv__report_piece(fp, "nav_end", NULL, 0);
}

void
profconv__report_note(FILE *fp, const char *what, const char *msg)
{
	struct pc_page_hole h[] = { { "what", what }, { "msg", msg } };

	/* WHAT is the page's own text, as it is (its apostrophes too). */
	profconv__page_put_holes(fp, profconv__page_report_html, "note", h, 1,
	    NULL);
	if (msg != NULL)
		profconv__report_piece(fp, "note_msg", h + 1, 1);
	profconv__report_piece(fp, "note_end", NULL, 0);
}

/* What the holes of a frame are filled from. */
struct frame {
	const char *cls, *title;
	unsigned long w, h;
	const struct mem *m;
};

static void
fill_frame(FILE *fp, const char *name, size_t len, void *arg)
{
	const struct frame *f = arg;

	if (len == 5 && memcmp(name, "class", len) == 0)
		profconv__report_put(fp, f->cls);
	else if (len == 5 && memcmp(name, "title", len) == 0)
		profconv__report_put(fp, f->title);
	else if (len == 5 && memcmp(name, "width", len) == 0)
		fprintf(fp, "%lu", f->w + 2);
	else if (len == 6 && memcmp(name, "height", len) == 0)
		fprintf(fp, "%lu", f->h + 2);
	else if (len == 3 && memcmp(name, "svg", len) == 0)
		put_url_encoded(fp, f->m->buf, f->m->len);
}

/* An SVG a writer made, in a frame of its own. */
void
profconv__report_frame(FILE *fp, const char *cls, const char *title,
    const struct mem *m)
{
	struct frame f = { cls, title, svg_attr(m->buf, "width", 1200),
	    svg_attr(m->buf, "height", 600), m };
	const char *name = "frame";

	/* A flame graph fits itself to its frame's width (its script, as
	 * in a window of its own): the frame takes the page's; a call
	 * graph's pans and zooms in the page's. */
	if (strcmp(cls, "flame") == 0)
		name = "frame_flame";
	else if (strcmp(cls, "graph") == 0)
		name = "frame_graph";
	profconv__page_put(fp, profconv__page_report_html, name, fill_frame,
	    &f);
}

/* --- the page of one profile (its views: report_views.c) ------------------- */

/* What the holes of report.html are filled from: the title, and the
 * counts of a series' tabs. */
struct fill {
	const struct profconv_report_options *o;
	size_t n, k, shown, suspects;
};

static void
fill(FILE *fp, const char *name, size_t len, void *arg)
{
	const struct fill *f = arg;

	if (len == 5 && memcmp(name, "title", len) == 0)
		profconv__report_put(fp, f->o->title);
	else if (len == 1 && *name == 'n')
		fprintf(fp, "%zu", f->n);
	else if (len == 1 && *name == 'k')
		fprintf(fp, "%zu", f->k);
	else if (len == 5 && memcmp(name, "shown", len) == 0)
		fprintf(fp, "%zu", f->shown);
	else if (len == 8 && memcmp(name, "suspects", len) == 0)
		fprintf(fp, "%zu", f->suspects);
}

static void
page_start(FILE *fp, const struct profconv_report_options *o)
{
	struct fill f = { o, 0, 0, 0, 0 };

	profconv__page_put(fp, profconv__page_report_html, "head", fill, &f);
}

static int
page_end(FILE *fp)
{
	profconv__page_put(fp, profconv__page_report_html, "foot", NULL, NULL);
	errno = 0;
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__write_error();
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

/*
 * The view by line of CUR the Explore tab shows, made first when it may
 * be the page's view by function too (OPTS by function, without focus
 * or ignore, which the listing applies by function; CUR's stacks
 * disposable), into *LV: when it is (profconv__view_new_by_line(): CUR
 * has no source lines), it takes the stacks, and the page's views and
 * the listing read it.  *LV NULL: each view is made from the profile.
 */
static int
line_view(struct profconv_view **lv, const struct profconv_profile *cur,
    const struct profconv_view_options *opts)
{
	struct profconv_view_options o;
	int rc;

	*lv = NULL;
	if (profconv__disposable(cur) == NULL)
		return 0;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_view)) < 0)
		return rc;
	if (o.granularity != PROFCONV_BY_FUNCTION || o.focus != NULL ||
	    o.ignore != NULL)
		return 0;
	o.granularity = PROFCONV_BY_LINE;
	return profconv__view_new_by_line(lv, cur, &o, true);
}

/* The flame graph's and the call graph's sections, made side by side. */
struct pictures {
	struct ctx *c;
	struct mem sec[2];
	bool per_type;		/* a call graph of each sample type */
};

/* Section I (0 the flame graph, 1 the call graph) into its memory. */
static int
picture_task(void *arg, size_t i)
{
	struct pictures *p = arg;

	if (i == 0)
		return profconv__report_flame(p->sec[0].fp, p->c);
	if (p->per_type)
		return profconv__report_graphs_per_type(p->sec[1].fp, p->c);
	return profconv__report_graph(p->sec[1].fp, p->c);
}

/*
 * The flame graph's section and the call graph's, on the page in that
 * order, made at once on the view's threads: both only read the view,
 * the flame graph's walk keeps one thread busy and the call graph's
 * count and Graphviz's layout the others (on the 1.27 GB profile, one
 * after the other, they were half the report's time after the profile
 * was read).  Each writes into memory of its own, where its pictures
 * went already; what a failure says comes from the first that failed,
 * as when one ran after the other.
 */
static int
pictures(FILE *fp, struct ctx *c)
{
	struct pictures p = { c, { { NULL, NULL, 0 }, { NULL, NULL, 0 } },
		c->base == NULL && c->nt <= GRAPH_TYPES &&
		profconv_view_stack_count(c->cv) <= GRAPH_TYPES_STACKS };
	size_t i;
	int rc;

	if ((rc = profconv__report_mem_open(&p.sec[0])) == 0 &&
	    (rc = profconv__report_mem_open(&p.sec[1])) == 0)
		rc = profconv__jobs_run(profconv__view_jobs(c->cv), 2,
		    picture_task, &p);
	for (i = 0; i < 2; i++)
		if (p.sec[i].fp != NULL &&
		    profconv__report_mem_close(&p.sec[i]) < 0 && rc == 0)
			rc = PROFCONV_ENOMEM;
	for (i = 0; rc == 0 && i < 2; i++)
		fwrite(p.sec[i].buf, 1, p.sec[i].len, fp); /* ferror: page_end */
	for (i = 0; i < 2; i++)
		profconv__report_mem_free(&p.sec[i]);
	return rc;
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
	struct mem early = { 0 }, src = { 0 };
	struct ctx c;
	size_t i, n;
	bool src_first, coarse;
	int rc;

	if (cur == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no profile or no file");
	if ((rc = take_options(&o, opts)) < 0)
		return rc;
	memset(&c, 0, sizeof(c));
	c.o = &o;
	c.cur = cur;
	c.base = base;
	/* The shown type (refused before anything is written): the tabs
	 * made below need it before any view. */
	if ((rc = profconv__sample_index(cur, o.sample_type, &c.ti)) < 0)
		return rc;
	c.nt = profconv_profile_sample_type_count(cur);
	/*
	 * The Explore tab (and the comparison) first, into memory: each
	 * makes views of its own of the whole profile (the Explore tab's
	 * one frame per source line) and frees them, and made beside the
	 * page's views below they added all of theirs to the report's
	 * peak.  Their text is bounded by what they show (the tree's
	 * budget, the table's rows); it goes on the page after the
	 * summary, where it always went.
	 */
	if ((rc = profconv__report_mem_open(&early)) < 0)
		return rc;
	if (base == NULL && (rc = line_view(&c.lv, cur, o.view)) < 0)
		goto out;
	if (c.lv != NULL)
		rc = profconv__report_live_view(early.fp, c.lv,
		    o.node_fraction > 0 ? o.node_fraction : -1,
		    o.tree_nodes != 0 ? o.tree_nodes : PC_REPORT_TREE_NODES,
		    c.ti, o.top);
	else
		rc = profconv__report_live(early.fp, base, cur, o.view,
		    o.node_fraction > 0 ? o.node_fraction : -1,
		    o.tree_nodes != 0 ? o.tree_nodes : PC_REPORT_TREE_NODES,
		    c.ti, o.top);
	if (rc == 0 && base != NULL)
		rc = profconv__report_comparison(early.fp, &c);
	if (profconv__report_mem_close(&early) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc < 0)
		goto out;
	/* The view by function from the view by line: the same (no source
	 * lines), made from it (the profile's stacks are gone), or made
	 * from the profile. */
	coarse = c.lv != NULL && profconv__view_is_coarse(c.lv);
	if (c.lv != NULL && !coarse &&
	    !profconv__view_is_by_function(c.lv)) {
		profconv_view_free(c.lv);
		c.lv = NULL;
	}
	if (coarse)
		rc = profconv__view_coarsen(&c.cv, c.lv);
	else if (c.lv != NULL)
		rc = profconv__view_by_function(&c.cv, c.lv);
	else
		rc = profconv_view_new(&c.cv, cur, o.view);
	if (rc < 0)
		goto out;
	if (base != NULL && (rc = profconv_view_new(&c.bv, base, o.view)) < 0)
		goto out;
	profconv_view_total(c.cv, c.ti, &c.total);
	if ((rc = profconv__rows_new(&c.funcs, 2 * c.nt)) < 0 ||
	    (rc = profconv__rows_add_functions(c.funcs, c.cv, 0, c.nt)) < 0)
		goto out;
	n = profconv__rows_count(c.funcs);
	for (i = 0; i < n; i++) {
		const int64_t *v = profconv__rows_values(c.funcs, i);

		c.nfuncs += v[c.ti] != 0 || v[c.nt + c.ti] != 0;
	}
	/*
	 * The Source tab's view is the last to read the profiles' stacks.
	 * When the caller lets them go
	 * (profconv_profile_set_stacks_disposable()), the tab is made
	 * now, into memory, beside the page's views, and the stacks go
	 * before the call graph is built, the report's peak otherwise;
	 * else it is made last, once the page's views are freed.
	 */
	src_first = profconv__disposable(cur) != NULL || c.lv != NULL ||
	    (base != NULL && profconv__disposable(base) != NULL);
	if (src_first) {
		if ((rc = profconv__report_mem_open(&src)) < 0)
			goto out;
		rc = profconv__report_listing(src.fp, &c, false);
		if (profconv__report_mem_close(&src) < 0 && rc == 0)
			rc = PROFCONV_ENOMEM;
		if (rc < 0)
			goto out;
		/* The listing was the view by line's last reader. */
		if (coarse) {
			rc = profconv__view_coarsen_finish(c.cv, c.lv);
			c.lv = NULL;
			if (rc < 0)
				goto out;
		}
		profconv_profile_drop_stacks(profconv__disposable(cur));
		if (base != NULL)
			profconv_profile_drop_stacks(
			    profconv__disposable(base));
	}
	page_start(fp, &o);
	if (base == NULL)
		nav(fp, one, PC_ARRAY_LEN(one));
	else
		nav(fp, two, PC_ARRAY_LEN(two));
	rc = profconv__report_summary(fp, &c);
	if (rc == 0) {
		fwrite(early.buf, 1, early.len, fp);	/* ferror: page_end */
		profconv__report_mem_free(&early);
	}
	if (rc == 0)
		rc = profconv__report_top_table(fp, &c);
	if (rc == 0)
		rc = pictures(fp, &c);
	if (rc == 0 && src_first)
		fwrite(src.buf, 1, src.len, fp);	/* ferror: page_end */
	else if (rc == 0)
		rc = profconv__report_listing(fp, &c, true);
	if (rc == 0)
		rc = page_end(fp);
out:
	profconv__report_mem_free(&early);
	profconv__report_mem_free(&src);
	profconv__rows_free(c.funcs);
	profconv_view_free(c.cv);
	profconv_view_free(c.bv);
	profconv_view_free(c.lv);	/* after C.CV, which may be it */
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

/* Snapshot I, S, as a row of the snapshots' table. */
static void
snapshot_row(FILE *fp, size_t i, const struct profconv_trend_snapshot *s)
{
	char n[PC_REPORT_NUM], v[PC_REPORT_NUM], g[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "i", n }, { "name", s->name },
		{ "high_water", s->high_water ? " [high-water]" : "" },
		{ "final", s->final ? " [final]" : "" },
		{ "v", v }, { "bytes", profconv__group_digits(g, s->inuse_bytes) }
	};

	snprintf(n, sizeof(n), "%zu", i + 1);
	snprintf(v, sizeof(v), "%" PRId64, s->inuse_bytes);
	profconv__report_piece(fp, "snapshot_row", h, PC_ARRAY_LEN(h));
}

/* R as a row of the verdicts' table. */
static void
verdict_row(FILE *fp, const struct profconv_trend_row *r)
{
	char v[3][PC_REPORT_NUM], g[3][PC_REPORT_NUM], grew[PC_REPORT_NUM];
	char of[PC_REPORT_NUM];
	struct pc_page_hole h[] = {
		{ "first_v", v[0] },
		{ "first", profconv__group_digits(g[0], r->first_bytes) },
		{ "last_v", v[1] },
		{ "last", profconv__group_digits(g[1], r->last_bytes) },
		{ "growth_v", v[2] },
		{ "growth", profconv__group_digits(g[2], r->growth_bytes) },
		{ "grew", grew }, { "intervals", of },
		{ "verdict", profconv_trend_verdict_name(r->verdict) },
		{ "name", r->name }
	};

	snprintf(v[0], sizeof(v[0]), "%" PRId64, r->first_bytes);
	snprintf(v[1], sizeof(v[1]), "%" PRId64, r->last_bytes);
	snprintf(v[2], sizeof(v[2]), "%" PRId64, r->growth_bytes);
	snprintf(grew, sizeof(grew), "%zu", r->grew_intervals);
	snprintf(of, sizeof(of), "%zu", r->intervals);
	profconv__report_piece(fp, "verdict_row", h, PC_ARRAY_LEN(h));
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
	struct fill f = { &o, 0, 0, 0, 0 };
	const char *html = profconv__page_report_html;
	size_t i, j, n, k = 0, *pick = NULL;
	int rc;

	if (trend == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no analysis or no file");
	if ((rc = take_options(&o, opts)) < 0)
		return rc;
	if ((rc = profconv__report_mem_open(&m)) < 0)
		return rc;
	rc = profconv_trend_write_svg(trend, m.fp, &so);
	if (profconv__report_mem_close(&m) < 0 && rc == 0)
		rc = PROFCONV_ENOMEM;
	if (rc < 0) {
		profconv__report_mem_free(&m);
		return rc;
	}
	if ((rc = series_pick(trend, &pick, &k)) < 0) {
		profconv__report_mem_free(&m);
		free(pick);
		return rc;
	}
	n = profconv_trend_snapshot_count(trend);
	page_start(fp, &o);
	nav(fp, sec, PC_ARRAY_LEN(sec) - (o.series == NULL));
	f.n = n;
	f.k = k;
	profconv__page_put(fp, html, "trend", fill, &f);
	profconv__report_frame(fp, "trend", "Memory over time", &m);
	profconv__report_mem_free(&m);
	if (k < n)
		profconv__page_put(fp, html, "snapshots_note", fill, &f);
	profconv__page_put(fp, html, "snapshots", NULL, NULL);
	for (j = 0; j < k; j++) {
		i = pick[j];
		if ((rc = profconv_trend_snapshot(trend, i, &s)) < 0) {
			free(pick);
			return rc;
		}
		snapshot_row(fp, i, &s);
	}
	profconv__page_put(fp, html, "table_end", NULL, NULL);
	f.n = n = profconv_trend_row_count(trend);
	f.shown = o.top < n ? o.top : n;
	f.suspects = profconv_trend_suspect_count(trend);
	profconv__page_put(fp, html, "verdicts", fill, &f);
	for (i = 0; i < n && i < o.top; i++) {
		if ((rc = profconv_trend_row(trend, i, &r)) < 0) {
			free(pick);
			return rc;
		}
		verdict_row(fp, &r);
	}
	profconv__page_put(fp, html, "table_end", NULL, NULL);
	if (o.series != NULL)
		rc = live_series(fp, trend, &o, pick, k);
	free(pick);
	return rc < 0 ? rc : page_end(fp);
}
