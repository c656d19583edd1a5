/* SPDX-License-Identifier: MIT */
/*
 * dot.c - the call graph of a view as Graphviz DOT, written as pprof's
 * -dot writes it (google/pprof internal/graph/dotgraph.go and report.go's
 * legend), so that pprof's guide "Interpreting the Callgraph" reads it
 * unchanged: node labels "name / flat (p%) / of cum (p%)" with names
 * split at "::" and ".", font sizes by flat value, red (grey, green)
 * by cum value, edge widths and colours by weight, dotted residual edges,
 * "(inline)" calls, nodelets for labels, and the legend.  Every name is
 * escaped for DOT.  Pictures (SVG, PNG, PDF) are this DOT laid out by
 * Graphviz's library (graphviz.c).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "view/graph.h"
#include "names/names.h"
#include "view/view.h"
#include "write/write.h"

#define MAX_NODELETS 4
#define VALUE_SIZE 96

struct dot {
	FILE *fp;
	const struct pc_graph *g;
	const char *unit;	/* the sample type's, lower case */
	const char *out_unit;	/* pprof's selectOutputUnit */
	size_t heaviest;	/* the node pictures open on: the largest
				 * flat (pprof's largest box), else cum; 1-based,
				 * 0 none */
};

/* --- text -------------------------------------------------------------------- */

/*
 * Does the "&" at S start a character reference Graphviz would decode in
 * a label ("&lt;", "&#27;", "&#x1b;")?  "&" then "#", or a run of letters
 * and digits ended by ";".
 */
static bool
reference_at(const char *s)
{
	size_t i = 1;

	if (s[1] == '#')
		return true;
	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	    (s[i] >= '0' && s[i] <= '9'))
		i++;
	return i > 1 && s[i] == ';';
}

/*
 * The character at S (not at its end) as DOT label text; its length.
 * pprof's escapeForDot: \ and " escaped, a line break left-justified.
 * And what pprof leaves to Graphviz, which decodes character references
 * in labels and writes control bytes raw into an SVG (no longer XML) or
 * to a terminal: an "&" that starts a reference becomes "&amp;", and
 * control bytes, bytes that are not UTF-8, the C1, bidi and line
 * separator controls and U+FFFE, U+FFFF are written as visible escapes,
 * "\\x1b", "\\u202e" (drawn "\x1b"), as every terminal output of
 * profconv shows them (write/escape.c).
 */
static size_t
put_char(FILE *fp, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	char esc[8];

	if (*s == '\\' || *s == '"') {
		putc('\\', fp);
		putc(*s, fp);
		return 1;
	}
	if (*s == '\n' || *s == '\r') {
		fputs(*s == '\n' ? "\\l" : "\\r", fp);
		return 1;
	}
	if (*s == '&' && reference_at(s)) {
		fputs("&amp;", fp);
		return 1;
	}
	if (profconv__text_escape(s, &len, esc)) {
		putc('\\', fp);
		fputs(esc, fp);
		return len;
	}
	if (len == 3 && u[0] == 0xef && u[1] == 0xbf && u[2] >= 0xbe) {
		fprintf(fp, "\\\\u%04x", 0xffc0u | (u[2] & 0x3fu));
		return len;
	}
	fwrite(s, 1, len, fp);
	return len;
}

static void
put_esc(FILE *fp, const char *s)
{
	while (*s != '\0')
		s += put_char(fp, s);
}

/* A tag's label text: joined labels keep their "\n" separators. */
static void
put_tag_text(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			fputs("\\n", fp);
			s++;
		} else {
			s += put_char(fp, s) - 1;
		}
	}
}

static char *
fmt_value(const struct dot *d, char *buf, int64_t v)
{
	return profconv__measure_label(buf, VALUE_SIZE, v, d->unit,
	    d->out_unit);
}

/* pprof's multilinePrintableName: the address, the name split at "::"
 * and ".", then the file and line or the module, each line ending
 * "\n". */
static int
put_multiline(FILE *fp, const struct pc_gnode *n)
{
	const char *base;
	char *s, *p;

	if (n->address != 0)
		fprintf(fp, "%016" PRIx64 "\\n", n->address);
	if (*n->name != '\0') {
		if ((s = profconv__name_shorten(n->name)) == NULL)
			return profconv__nomem();
		for (p = s; *p != '\0'; p++) {
			if (p[0] == ':' && p[1] == ':') {
				fputs("\\n", fp);
				p++;
			} else if (strncmp(p, "[...]", 5) == 0) {
				fputs("[\xe2\x80\xa6]", fp);
				p += 4;
			} else if (*p == '.') {
				fputs("\\n", fp);
			} else {
				p += put_char(fp, p) - 1;
			}
		}
		free(s);
		fputs("\\n", fp);
	}
	base = strrchr(n->file, '/');
	base = base != NULL ? base + 1 : n->file;
	if (n->line != 0) {
		put_esc(fp, base);
		fprintf(fp, ":%" PRId64 "\\n", n->line);
	} else if (*n->file != '\0') {
		put_esc(fp, base);
		fputs("\\n", fp);
	} else if (*n->name == '\0') {
		if (*n->objfile != '\0') {
			putc('[', fp);
			put_esc(fp, n->objfile);
			fputs("]\\n", fp);
		} else {
			fputs("<unknown>\\n", fp);
		}
	}
	return 0;
}

/* --- colours, units ---------------------------------------------------------------- */

/* pprof's dotColor: red for positive scores, green for negative, grey
 * near zero; light for backgrounds. */
static void
dot_color(char *buf, size_t size, double score, bool background)
{
	double sat = background ? 0.1 : 1.0, val = background ? 0.93 : 0.7;
	double r, g, b;

	score = fmax(-1.0, fmin(1.0, score));
	if (fabs(score) < 0.2)
		sat *= fabs(score) / 0.2;
	if (score > 0.0)
		score = pow(score, 1.0 - 0.7);
	if (score < 0.0)
		score = -pow(-score, 1.0 - 0.7);
	if (score < 0.0) {
		g = val;
		r = val * (1 + sat * score);
	} else {
		r = val;
		g = val * (1 - sat * score);
	}
	b = val * (1 - sat);
	snprintf(buf, size, "#%02x%02x%02x", (unsigned)(uint8_t)(r * 255.0),
	    (unsigned)(uint8_t)(g * 255.0), (unsigned)(uint8_t)(b * 255.0));
}

/* |V|, wrapping as Go's does: INT64_MIN stays INT64_MIN. */
static int64_t
abs64(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* pprof's selectOutputUnit. */
static void
output_unit(struct dot *d)
{
	d->out_unit = profconv__graph_output_unit(d->g, d->unit);
}

/* --- the legend ------------------------------------------------------------------------ */

struct labels {
	char **v;
	size_t n, cap;
};

static int
add_label(struct labels *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
add_label(struct labels *l, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return profconv__nomem();
	if ((rc = PC_GROW(l->v, l->cap, l->n, 1)) < 0) {
		free(s);
		return rc;
	}
	l->v[l->n++] = s;
	return 0;
}

static const char *
base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b != NULL ? b + 1 : path;
}

static bool
seen_comment(const struct profconv_profile *p, size_t upto, const char *c)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (strcmp(profconv__pstr(p, p->comments[i]), c) == 0)
			return true;
	return false;
}

/* pprof's ProfileLabels, over CUR merged with BASE. */
static int
profile_labels(struct labels *l, const struct dot *d,
    const struct profconv_profile *cur, const struct profconv_profile *base,
    const char *type)
{
	const struct profconv_profile *ps[2] = { cur, base };
	int64_t t = cur->time_nanos, dur = cur->duration_nanos;
	const char *doc = profconv__pstr(cur, cur->doc_url);
	char v[VALUE_SIZE], dv[VALUE_SIZE], pct[32];
	size_t i, k;
	int rc = 0;

	if (cur->nmappings > 0) {
		const struct pc_mapping *m = pc_mapping(cur, 1);

		if (*profconv__pstr(cur, m->file) != '\0')
			rc = add_label(l, "File: %s",
			    base_name(profconv__pstr(cur, m->file)));
		if (rc == 0 && *profconv__pstr(cur, m->build_id) != '\0')
			rc = add_label(l, "Build ID: %s",
			    profconv__pstr(cur, m->build_id));
	}
	for (k = 0; k < 2 && ps[k] != NULL; k++)
		for (i = 0; rc == 0 && i < ps[k]->ncomments; i++) {
			const char *c = profconv__pstr(ps[k],
			    ps[k]->comments[i]);

			if (c[0] == '#' || seen_comment(ps[k], i, c) ||
			    (k == 1 && seen_comment(cur, cur->ncomments, c)))
				continue;
			rc = add_label(l, "%s", c);
		}
	if (base != NULL) {
		if (t == 0 || base->time_nanos < t)
			t = base->time_nanos;
		dur += base->duration_nanos;
		if (*doc == '\0')
			doc = profconv__pstr(base, base->doc_url);
	}
	if (rc == 0)
		rc = add_label(l, "Type: %s", type);
	if (rc == 0 && *doc != '\0')
		rc = add_label(l, "Doc: %s", doc);
	if (rc == 0 && t != 0) {
		time_t secs = (time_t)(t / 1000000000);
		struct tm tm;
		char when[64];

		if (localtime_r(&secs, &tm) != NULL &&
		    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z",
		    &tm) > 0)
			rc = add_label(l, "Time: %s", when);
	}
	if (rc == 0 && dur != 0) {
		const char *u;
		double ns = profconv__measure_scale(d->g->total, d->unit,
		    "nanoseconds", &u);

		pct[0] = '\0';
		if (strcmp(u, "ns") == 0 && ns != 0) {
			char p[24];

			snprintf(pct, sizeof(pct), "(%s)",
			    profconv__measure_percent_padded(p, sizeof(p),
			    (int64_t)ns, dur));
		}
		rc = add_label(l, "Duration: %s, Total samples = %s %s",
		    profconv__measure_label(dv, sizeof(dv), dur, "nanoseconds",
		    "auto"), fmt_value(d, v, d->g->total), pct);
	}
	return rc;
}

/* pprof's reportLabels with full headers. */
static int
legend(struct labels *l, const struct dot *d, const struct profconv_view *cur,
    const struct profconv_view *base, const char *type,
    const struct profconv_graph_options *o)
{
	const struct pc_graph *g = d->g;
	const char *const *filters;
	char a[VALUE_SIZE], b[VALUE_SIZE], pct[32];
	int64_t shown = 0;
	size_t i, nf;
	int rc;

	nf = profconv__view_filters(cur, &filters);
	rc = profile_labels(l, d, profconv_view_profile(cur),
	    base != NULL ? profconv_view_profile(base) : NULL, type);
	/* pprof's legend: every filter as key=value, cut after 80 bytes
	 * (here at the last character that ends by then). */
	if (rc == 0 && nf > 0)
		rc = add_label(l, "Active filters:");
	for (i = 0; rc == 0 && i < nf; i++) {
		size_t len = strlen(filters[i]), cut = len;

		if (len > 80)
			for (cut = 80; cut > 0 &&
			    ((unsigned char)filters[i][cut] & 0xc0) == 0x80;
			    cut--)
				;
		rc = add_label(l, "   %.*s%s", (int)cut, filters[i],
		    len > 80 ? "\xe2\x80\xa6" : "");
	}
	for (i = 0; i < g->nnodes; i++)
		pc_add_sat(&shown, g->nodes[i].flat);
	if (rc == 0)
		rc = add_label(l, "Showing nodes accounting for %s, %s of %s "
		    "total", fmt_value(d, a, shown),
		    profconv__measure_percent(pct, sizeof(pct), shown,
		    g->total), fmt_value(d, b, g->total));
	if (rc == 0 && g->total != 0) {
		if (g->dropped_nodes > 0)
			rc = add_label(l, "Dropped %zu node%s (cum <= %s)",
			    g->dropped_nodes, g->dropped_nodes > 1 ? "s" : "",
			    fmt_value(d, a, abs64((int64_t)((double)g->total *
			    o->nodefraction))));
		if (rc == 0 && g->dropped_edges > 0)
			rc = add_label(l, "Dropped %zu edge%s (freq <= %s)",
			    g->dropped_edges, g->dropped_edges > 1 ? "s" : "",
			    fmt_value(d, a, abs64((int64_t)((double)g->total *
			    o->edgefraction))));
		if (rc == 0 && g->nnodes > 0 && g->nnodes < g->orig_count)
			rc = add_label(l, "Showing top %zu nodes out of %zu",
			    g->nnodes, g->orig_count);
	}
	/* Not pprof's: the bound of PC_GRAPH_MAX_EDGES (view/graph.c). */
	if (rc == 0 && g->capped_edges > 0)
		rc = add_label(l, "Dropped %zu edge%s over the limit of %d "
		    "(the lightest)", g->capped_edges,
		    g->capped_edges > 1 ? "s" : "", PC_GRAPH_MAX_EDGES);
	if (rc == 0)
		rc = add_label(l, "\nSee https://git.io/JfYMW for how to read "
		    "the graph");
	return rc;
}

/* --- nodelets ---------------------------------------------------------------------------- */

struct ntag {
	char *name;		/* owned when collapsed */
	bool owned;
	const char *unit;
	int64_t value, flat, cum;
};

/* pprof's SortTags; PAYLOAD points to FLAT. */
static int
by_weight(const void *pa, const void *pb, void *payload)
{
	const struct ntag *a = pa, *b = pb;
	bool flat = *(const bool *)payload;
	int c = flat ? 0 : PC_CMP(abs64(b->cum), abs64(a->cum));

	if (c == 0)
		c = PC_CMP(abs64(b->flat), abs64(a->flat));
	return c != 0 ? c : strcmp(a->name, b->name);
}

static void
sort_tags(struct ntag *t, size_t n, bool flat)
{
	qsort_r(t, n, sizeof(*t), by_weight, &flat);
}

static double
tag_distance(const struct ntag *t, const struct ntag *u)
{
	const char *unit;
	double v = profconv__measure_scale(u->value, u->unit, t->unit, &unit);

	return v < (double)t->value ? (double)t->value - v :
	    v - (double)t->value;
}

/* pprof's collapsedTags: at most COUNT tags, the rest joined to the
 * nearest of them as ranges "min..max".  T holds room for COUNT more. */
static int
collapse(struct ntag *t, size_t *n, size_t count, bool flat)
{
	size_t i, j, *group, ng = count;
	struct ntag *out = t + *n;
	char a[VALUE_SIZE], b[VALUE_SIZE];

	sort_tags(t, *n, flat);
	if (*n <= count)
		return 0;
	group = malloc(*n * sizeof(*group));
	if (group == NULL)
		return profconv__nomem();
	for (i = 0; i < *n; i++) {
		double d, nd;

		group[i] = i;
		if (i < count)
			continue;
		group[i] = 0;
		d = tag_distance(&t[i], &t[0]);
		for (j = 1; j < count; j++)
			if ((nd = tag_distance(&t[i], &t[j])) < d) {
				group[i] = j;
				d = nd;
			}
	}
	for (j = 0; j < ng; j++) {
		const struct ntag *min = &t[j], *max = &t[j];
		int64_t f = 0, c = 0;
		size_t members = 0;
		const char *unit;

		for (i = 0; i < *n; i++) {
			if (group[i] != j)
				continue;
			members++;
			if (i != j) {
				if ((int64_t)profconv__measure_scale(t[i].value,
				    t[i].unit, min->unit, &unit) < min->value)
					min = &t[i];
				if ((int64_t)profconv__measure_scale(t[i].value,
				    t[i].unit, max->unit, &unit) > max->value)
					max = &t[i];
			}
			pc_add_sat(&f, t[i].flat);
			pc_add_sat(&c, t[i].cum);
		}
		profconv__measure_label(a, sizeof(a), min->value, min->unit,
		    "auto");
		profconv__measure_label(b, sizeof(b), max->value, max->unit,
		    "auto");
		out[j] = (struct ntag){ NULL, true, t[j].unit, 0, f, c };
		if (members == 1)
			out[j].name = strdup(a);
		else if (asprintf(&out[j].name, "%s..%s", a, b) < 0)
			out[j].name = NULL;
		if (out[j].name == NULL) {
			while (j-- > 0)
				free(out[j].name);
			free(group);
			return profconv__nomem();
		}
	}
	free(group);
	memmove(t, out, ng * sizeof(*t));
	*n = ng;
	sort_tags(t, *n, flat);
	return 0;
}

/* A nodelet: the box NODE showing TEXT (as PUT writes it) and value W,
 * and its edge from FROM, with the edge's attributes ATTR. */
static void
put_nodelet(FILE *fp, const char *node, void (*put)(FILE *, const char *),
    const char *text, const char *from, const char *w, const char *attr)
{
	fprintf(fp, "%s [label = \"", node);
	put(fp, text);
	fprintf(fp, "\" id=\"%s\" fontsize=8 shape=box3d tooltip=\"%s\"]\n",
	    node, w);
	fprintf(fp, "%s -> %s [label=\" %s\" weight=100 tooltip=\"%s\" "
	    "labeltooltip=\"%s\"%s]\n", from, node, w, w, w, attr);
}

/* pprof's numericNodelets, under SOURCE ("N3" or "N3_1"). */
static int
numeric_nodelets(const struct dot *d, struct ntag *t, size_t n, bool flat,
    const char *source, bool *any)
{
	char w[VALUE_SIZE], node[80];
	size_t j;
	int rc = collapse(t, &n, MAX_NODELETS, flat);

	for (j = 0; rc == 0 && j < n; j++) {
		int64_t v = t[j].cum;
		const char *attr = " style=\"dotted\"";

		if (flat || t[j].flat == t[j].cum) {
			v = t[j].flat;
			attr = "";
		}
		if (v == 0)
			continue;
		fmt_value(d, w, v);
		*any = true;
		snprintf(node, sizeof(node), "N%s_%zu", source, j);
		put_nodelet(d->fp, node, put_esc, t[j].name, source, w, attr);
	}
	for (j = 0; j < n; j++)
		if (t[j].owned)
			free(t[j].name);
	return rc;
}

/* The numeric tags of node N under the labels GROUP into T. */
static size_t
numeric_of(const struct pc_graph *g, const struct pc_gnode *n,
    const char *group, struct ntag *t)
{
	size_t i, k = 0;

	for (i = n->tag_off; i < n->tag_off + n->ntags; i++) {
		const struct pc_gtag *gt = &g->tags[i];

		if (gt->numeric && strcmp(gt->group, group) == 0)
			t[k++] = (struct ntag){ (char *)gt->name, false,
			    gt->unit, gt->value, gt->flat, gt->cum };
	}
	return k;
}

/* pprof's addNodelets for node ID; *ANY when it wrote some. */
static int
nodelets(const struct dot *d, const struct pc_gnode *n, size_t id, bool *any)
{
	const struct pc_graph *g = d->g;
	struct ntag *lt, *nt;
	size_t i, nl = 0, nn, cap = n->ntags + MAX_NODELETS + 1;
	char self[24], src[48], w[VALUE_SIZE];
	bool flat = n->has_out;
	int rc = 0;

	*any = false;
	lt = malloc(cap * sizeof(*lt));
	nt = malloc(cap * sizeof(*nt));
	if (lt == NULL || nt == NULL) {
		free(lt);
		free(nt);
		return profconv__nomem();
	}
	for (i = n->tag_off; i < n->tag_off + n->ntags; i++)
		if (!g->tags[i].numeric)
			lt[nl++] = (struct ntag){ (char *)g->tags[i].name,
			    false, NULL, 0, g->tags[i].flat, g->tags[i].cum };
	sort_tags(lt, nl, flat);
	if (nl > MAX_NODELETS)
		nl = MAX_NODELETS;
	snprintf(self, sizeof(self), "N%zu", id);
	for (i = 0; rc == 0 && i < nl; i++) {
		int64_t v = flat ? lt[i].flat : lt[i].cum;

		if (v == 0)
			continue;
		fmt_value(d, w, v);
		*any = true;
		snprintf(src, sizeof(src), "N%zu_%zu", id, i);
		put_nodelet(d->fp, src, put_tag_text, lt[i].name, self, w, "");
		nn = numeric_of(g, n, lt[i].name, nt);
		if (nn > 0)
			rc = numeric_nodelets(d, nt, nn, flat, src, any);
	}
	nn = numeric_of(g, n, "", nt);
	if (rc == 0 && nn > 0)
		rc = numeric_nodelets(d, nt, nn, flat, self, any);
	free(lt);
	free(nt);
	return rc;
}

/* --- nodes and edges ----------------------------------------------------------------------- */

static int
put_node(const struct dot *d, const struct pc_gnode *n, size_t id,
    double max_flat)
{
	FILE *fp = d->fp;
	const struct pc_graph *g = d->g;
	char fv[VALUE_SIZE], cv[VALUE_SIZE], pct[32], fg[16], bg[16];
	double score = (double)n->cum / (double)abs64(g->total);
	int font = 8, rc;

	fprintf(fp, "N%zu [label=\"", id);
	if ((rc = put_multiline(fp, n)) < 0)
		return rc;
	fmt_value(d, fv, n->flat);
	if (n->flat != 0)
		fprintf(fp, "%s (%s)", fv, profconv__measure_percent(pct,
		    sizeof(pct), n->flat, g->total));
	else
		putc('0', fp);
	memcpy(cv, fv, sizeof(cv));
	if (n->cum != n->flat) {
		fputs(n->flat != 0 ? "\\n" : " ", fp);
		fmt_value(d, cv, n->cum);
		fprintf(fp, "of %s (%s)", cv, profconv__measure_percent(pct,
		    sizeof(pct), n->cum, g->total));
	}
	if (max_flat != 0 && n->flat != 0 &&
	    (double)abs64(n->flat) <= max_flat)
		font += (int)ceil(16.0 * sqrt((double)abs64(n->flat) /
		    max_flat));
	dot_color(fg, sizeof(fg), score, false);
	dot_color(bg, sizeof(bg), score, true);
	fprintf(fp, "\" id=\"node%zu\" fontsize=%d shape=box tooltip=\"",
	    id, font);
	put_esc(fp, n->printable);
	fprintf(fp, " (%s)\" color=\"%s\" fillcolor=\"%s\"]\n", cv, fg, bg);
	return 0;
}

static void
put_edge(const struct dot *d, const struct pc_gedge *e, bool has_nodelets)
{
	FILE *fp = d->fp;
	const struct pc_graph *g = d->g;
	const char *arrow = e->residual ? "..." : "->";
	char w[VALUE_SIZE], c[16];
	int i;

	fmt_value(d, w, e->weight);
	fprintf(fp, "N%zu -> N%zu [label=\" %s%s\"", e->src + 1, e->dst + 1,
	    w, e->inl ? "\\n (inline)" : "");
	if (g->total != 0) {
		__int128 weight = (__int128)e->weight * 100 / g->total;
		__int128 width = (__int128)e->weight * 5 / g->total;

		weight = weight < 0 ? -weight : weight;
		width = width < 0 ? -width : width;

		weight = 1 + (weight < 100 ? weight : 100);
		width = 1 + (width < 5 ? width : 5);
		if (weight > 1)
			fprintf(fp, " weight=%d", (int)weight);
		if (width > 1)
			fprintf(fp, " penwidth=%d", (int)width);
		dot_color(c, sizeof(c), (double)e->weight /
		    (double)abs64(g->total), false);
		fprintf(fp, " color=\"%s\"", c);
	}
	for (i = 0; i < 2; i++) {
		fputs(i == 0 ? " tooltip=\"" : " labeltooltip=\"", fp);
		put_esc(fp, g->nodes[e->src].printable);
		fprintf(fp, " %s ", arrow);
		put_esc(fp, g->nodes[e->dst].printable);
		fprintf(fp, " (%s)\"", w);
	}
	if (e->residual)
		fputs(" style=\"dotted\"", fp);
	if (has_nodelets)
		fputs(" minlen=2", fp);
	fputs("]\n", fp);
}

/* pprof's ComposeDot. */
static int
compose(struct dot *d, const struct labels *l, const char *title)
{
	FILE *fp = d->fp;
	const struct pc_graph *g = d->g;
	double max_flat = 0;
	bool *has = calloc(g->nnodes + 1, sizeof(*has));
	size_t i;
	int rc = 0;

	if (has == NULL)
		return profconv__nomem();
	fputs("digraph \"", fp);
	put_esc(fp, *title != '\0' ? title : "unnamed");
	fputs("\" {\nnode [style=filled fillcolor=\"#f8f8f8\"]\n", fp);
	if (l->n > 0) {
		fputs("subgraph cluster_L { \"", fp);
		put_esc(fp, l->v[0]);
		fputs("\" [shape=box fontsize=16 label=\"", fp);
		for (i = 0; i < l->n; i++) {
			put_esc(fp, l->v[i]);
			fputs("\\l", fp);
		}
		putc('"', fp);
		if (*title != '\0') {
			fputs(" tooltip=\"", fp);
			put_esc(fp, title);
			putc('"', fp);
		}
		fputs("] }\n", fp);
	}
	if (g->nnodes > 0)
		max_flat = (double)abs64(g->nodes[0].flat);
	for (i = 0; i < g->nnodes; i++)
		if ((double)abs64(g->nodes[i].flat) > max_flat)
			max_flat = (double)abs64(g->nodes[i].flat);
	/* The heaviest node, which an SVG opens on: the largest flat,
	 * which pprof draws largest (ties: the larger cum, then the first). */
	for (i = 0, d->heaviest = 0; i < g->nnodes; i++) {
		const struct pc_gnode *n = &g->nodes[i], *m;

		if (d->heaviest == 0) {
			d->heaviest = i + 1;
			continue;
		}
		m = &g->nodes[d->heaviest - 1];
		if (abs64(n->flat) > abs64(m->flat) || (abs64(n->flat) ==
		    abs64(m->flat) && abs64(n->cum) > abs64(m->cum)))
			d->heaviest = i + 1;
	}
	for (i = 0; rc == 0 && i < g->nnodes; i++) {
		rc = put_node(d, &g->nodes[i], i + 1, max_flat);
		if (rc == 0)
			rc = nodelets(d, &g->nodes[i], i + 1, &has[i]);
	}
	for (i = 0; rc == 0 && i < g->nedges; i++)
		put_edge(d, &g->edges[i], has[g->edges[i].src]);
	fputs("}\n", fp);
	free(has);
	return rc;
}

#ifndef HAVE_GVC
/* Built without Graphviz's library: DOT only. */
int
profconv__graphviz_check(void)
{
	return profconv__fail(PROFCONV_EUNSUPPORTED, "SVG, PNG and PDF "
	    "need Graphviz's library (libgvc), which this profconv was "
	    "built without: write DOT instead");
}

int
profconv__graphviz_render(const char *text, size_t len, int format,
    const char *heaviest, FILE *fp)
{
	(void)text;
	(void)len;
	(void)format;
	(void)heaviest;
	(void)fp;
	return profconv__graphviz_check();
}
#endif

/* --- the public writer ------------------------------------------------------------------------ */

int
profconv__write_graph_open(struct pc_graph **out,
    const struct profconv_view *cur, const struct profconv_view *base,
    const char *type, struct pc_graph_options *go,
    struct profconv_value_type *vt, char *unit, size_t size)
{
	int rc = profconv__graph_type(cur, base, type, go, vt, unit, size);

	return rc < 0 ? rc : profconv__graph_new(out, cur, base, go);
}

static int
write_dot(const struct profconv_view *cur, const struct profconv_view *base,
    FILE *fp, const struct profconv_graph_options *o, size_t *heaviest)
{
	struct pc_graph_options go = { o->nodecount, o->nodefraction,
		o->edgefraction, 0, 0, PC_GRAPH_VISUAL, false,
		o->call_tree != 0, o->trim_path };
	const struct profconv_profile *prof = profconv_view_profile(cur);
	struct profconv_value_type vt;
	struct pc_graph *g = NULL;
	struct labels l = { 0 };
	struct dot d = { fp, NULL, NULL, NULL, 0 };
	char unit[64], *title = NULL;
	size_t i;
	int rc;

	rc = profconv__write_graph_open(&g, cur, base, o->sample_type, &go,
	    &vt, unit, sizeof(unit));
	if (rc < 0)
		return rc;
	d.unit = unit;
	d.g = g;
	output_unit(&d);
	rc = legend(&l, &d, cur, base, vt.type, o);
	if (rc == 0 && o->title == NULL && prof->nmappings > 0)
		title = strdup(base_name(profconv__pstr(prof,
		    pc_mapping(prof, 1)->file)));
	else if (rc == 0)
		title = strdup(o->title != NULL ? o->title : "");
	if (rc == 0 && title == NULL)
		rc = profconv__nomem();
	errno = 0;
	if (rc == 0)
		rc = compose(&d, &l, title);
	*heaviest = d.heaviest;
	free(title);
	for (i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	profconv__graph_free(g);
	return rc;
}

int
profconv_graph_options_check(const struct profconv_graph_options *opts)
{
	struct profconv_graph_options o;
	int rc;

	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_graph)) < 0)
		return rc;
	if (!(o.nodefraction >= 0 && o.nodefraction <= 1) ||
	    !(o.edgefraction >= 0 && o.edgefraction <= 1))
		return profconv__fail(PROFCONV_EINVAL, "graph fractions must "
		    "be from 0 to 1");
	if (o.format != PROFCONV_GRAPH_DOT && o.format != PROFCONV_GRAPH_SVG &&
	    o.format != PROFCONV_GRAPH_PNG && o.format != PROFCONV_GRAPH_PDF &&
	    o.format != PROFCONV_GRAPH_CALLGRIND)
		return profconv__fail(PROFCONV_EINVAL, "unknown graph format "
		    "%d", (int)o.format);
	if (o.format != PROFCONV_GRAPH_DOT &&
	    o.format != PROFCONV_GRAPH_CALLGRIND)
		return profconv__graphviz_check();
	return 0;
}

int
profconv_graph_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_graph_options *opts)
{
	struct profconv_graph_options o;
	char *text = NULL, name[32];
	size_t len = 0, heaviest = 0;
	FILE *mem;
	int rc;

	if (cur == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no view or no file");
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_graph)) < 0)
		return rc;
	if ((rc = profconv_graph_options_check(&o)) < 0)
		return rc;
	if (o.format == PROFCONV_GRAPH_DOT) {
		rc = write_dot(cur, base, fp, &o, &heaviest);
	} else if (o.format == PROFCONV_GRAPH_CALLGRIND) {
		rc = profconv__callgrind_write(cur, base, fp, &o);
	} else {
		mem = open_memstream(&text, &len);
		if (mem == NULL)
			return profconv__nomem();
		rc = write_dot(cur, base, mem, &o, &heaviest);
		if (fclose(mem) != 0 && rc == 0)
			rc = profconv__nomem();
		errno = 0;
		snprintf(name, sizeof(name), "N%zu", heaviest);
		if (rc == 0)
			rc = profconv__graphviz_render(text, len, o.format,
			    heaviest != 0 ? name : NULL, fp);
		free(text);
	}
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	return rc;
}
