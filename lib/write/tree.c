/* SPDX-License-Identifier: MIT */
/*
 * tree.c - go tool pprof's text reports of a view's call graph
 * (view/graph.c, trimmed as pprof's text reports trim it): -tree and
 * -peek, each node with its callers above and its callees below
 * (pprof's printTree), with a peek expression only the nodes whose
 * names match it, the graph untrimmed; -text (-top), a row per node
 * (pprof's printText); and -topproto, those rows as a profile
 * (pprof's printTopProto).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/graph.h"
#include "view/view.h"
#include "write/write.h"

#define VALUE_SIZE 96

static const char separator[] =
    "----------------------------------------------------------+-------------\n";
static const char legend[] =
    "      flat  flat%   sum%        cum   cum%   calls calls% + context "
    "\t \t \n";

struct tree {
	FILE *fp;
	struct profconv_view *view;
	struct pc_graph *gown;
	const struct pc_graph *g;
	const char *unit;	/* the sample type's, lower case */
	const char *out_unit;	/* pprof's selectOutputUnit */
	struct pc_textbuf tb;
};

static const char *
value(const struct tree *t, char *buf, int64_t v)
{
	return profconv__measure_label(buf, VALUE_SIZE, v, t->unit,
	    t->out_unit);
}

static int64_t
abs_value(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* pprof's edgeList order: heaviest first, then by the caller's name,
 * then by the callee's. */
static int
by_edge(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph *g = payload;
	const struct pc_gedge *x = &g->edges[*(const size_t *)pa];
	const struct pc_gedge *y = &g->edges[*(const size_t *)pb];
	int c = PC_CMP(abs_value(y->weight), abs_value(x->weight));

	if (c == 0)
		c = strcmp(g->nodes[x->src].printable,
		    g->nodes[y->src].printable);
	return c != 0 ? c : strcmp(g->nodes[x->dst].printable,
	    g->nodes[y->dst].printable);
}

/* One edge line: its weight, its share of CUM, the node at its other end. */
static void
put_edge(struct tree *t, const struct pc_gedge *e, size_t other, int64_t cum)
{
	FILE *fp = t->fp;
	char v[VALUE_SIZE], pct[32];

	fprintf(fp, "%50s %s |   %s%s\n", value(t, v, e->weight),
	    profconv__measure_percent_padded(pct, sizeof(pct), e->weight, cum),
	    profconv__text_safe(&t->tb, t->g->nodes[other].printable),
	    e->inl ? " (inline)" : "");
}

/* The edges of node N, into it (IN) or out of it, in pprof's order. */
static void
put_edges(struct tree *t, size_t n, bool in, size_t *ids)
{
	const struct pc_graph *g = t->g;
	size_t i, k = 0;

	for (i = 0; i < g->nedges; i++)
		if ((in ? g->edges[i].dst : g->edges[i].src) == n)
			ids[k++] = i;
	qsort_r(ids, k, sizeof(*ids), by_edge, (void *)g);
	for (i = 0; i < k; i++) {
		const struct pc_gedge *e = &g->edges[ids[i]];

		put_edge(t, e, in ? e->src : e->dst, g->nodes[n].cum);
	}
}

/* pprof's reportLabels with compact headers. */
static void
put_labels(struct tree *t, const struct profconv_view *view,
    const struct profconv_print_options *o, double nodefraction)
{
	const struct pc_graph *g = t->g;
	FILE *fp = t->fp;
	const char *const *filters;
	char a[VALUE_SIZE], b[VALUE_SIZE], pct[32];
	int64_t shown = 0;
	size_t i, nf, len, cut;

	nf = profconv__view_filters(view, &filters);
	if (nf > 0)
		fputs("Active filters:\n", t->fp);
	for (i = 0; i < nf; i++) {
		/* Cut after 80 bytes, at the last character that ends by
		 * then, as the graph's legend does. */
		const char *s = profconv__text_safe(&t->tb, filters[i]);

		len = strlen(s);
		cut = len;
		if (len > 80)
			for (cut = 80; cut > 0 &&
			    ((unsigned char)s[cut] & 0xc0) == 0x80; cut--)
				;
		fprintf(fp, "   %.*s%s\n", (int)cut, s,
		    len > 80 ? "\xe2\x80\xa6" : "");
	}
	for (i = 0; i < g->nnodes; i++)
		pc_add_sat(&shown, g->nodes[i].flat);
	fprintf(fp, "Showing nodes accounting for %s, %s of %s total\n",
	    value(t, a, shown), profconv__measure_percent(pct, sizeof(pct),
	    shown, g->total), value(t, b, g->total));
	(void)o;
	if (g->total == 0)
		return;
	if (g->dropped_nodes > 0)
		fprintf(fp, "Dropped %zu node%s (cum <= %s)\n",
		    g->dropped_nodes, g->dropped_nodes > 1 ? "s" : "",
		    value(t, a, abs_value((int64_t)((double)g->total *
		    nodefraction))));
	if (g->nnodes > 0 && g->nnodes < g->orig_count)
		fprintf(fp, "Showing top %zu nodes out of %zu\n", g->nnodes,
		    g->orig_count);
}

/* How a row of either table starts: node N's flat value and share, SUM
 * (the flat values so far) as a share, its cum value and share. */
static void
put_values(struct tree *t, const struct pc_gnode *n, int64_t sum)
{
	const struct pc_graph *g = t->g;
	FILE *fp = t->fp;
	char f[VALUE_SIZE], c[VALUE_SIZE], p1[32], p2[32], p3[32];

	fprintf(fp, "%10s %s %s %10s %s", value(t, f, n->flat),
	    profconv__measure_percent_padded(p1, sizeof(p1), n->flat,
	    g->total), profconv__measure_percent_padded(p2, sizeof(p2), sum,
	    g->total), value(t, c, n->cum),
	    profconv__measure_percent_padded(p3, sizeof(p3), n->cum,
	    g->total));
}

/* pprof's -text: a row per node, "(inline)" on a node every call into
 * which was inlined, "(partial-inline)" where only some were. */
static int
print_text(struct tree *t, const struct profconv_view *view,
    const struct profconv_print_options *o, double nodefraction)
{
	const struct pc_graph *g = t->g;
	FILE *fp = t->fp;
	/* Per node: bit 1, an inlined call into it; bit 2, another. */
	unsigned char *calls = calloc(g->nnodes + 1, 1);
	int64_t sum = 0;
	size_t i;

	if (calls == NULL)
		return profconv__nomem();
	for (i = 0; i < g->nedges; i++)
		calls[g->edges[i].dst] |= g->edges[i].inl ? 1 : 2;
	put_labels(t, view, o, nodefraction);
	fprintf(fp, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum",
	    "cum", "cum");
	for (i = 0; i < g->nnodes; i++) {
		const struct pc_gnode *n = &g->nodes[i];

		pc_add_sat(&sum, n->flat);
		put_values(t, n, sum);
		fprintf(fp, "  %s%s\n", profconv__text_safe(&t->tb,
		    n->printable), calls[i] == 3 ? " (partial-inline)" :
		    calls[i] == 1 ? " (inline)" : "");
	}
	free(calls);
	return 0;
}

static int
print(struct tree *t, const struct profconv_view *view,
    const struct profconv_print_options *o, double nodefraction,
    regex_t *peek)
{
	const struct pc_graph *g = t->g;
	FILE *fp = t->fp;
	int64_t sum = 0;
	size_t i, *ids, matched = 0;

	/* No match: an error, and nothing written. */
	for (i = 0; peek != NULL && i < g->nnodes; i++)
		if (regexec(peek, g->nodes[i].printable, 0, NULL, 0) == 0)
			matched++;
	if (peek != NULL && matched == 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "no function matches "
		    "'%s'", o->peek);
	ids = malloc((g->nedges + 1) * sizeof(*ids));
	if (ids == NULL)
		return profconv__nomem();
	put_labels(t, view, o, nodefraction);
	fputs(separator, t->fp);
	fputs(legend, t->fp);
	for (i = 0; i < g->nnodes; i++) {
		const struct pc_gnode *n = &g->nodes[i];

		if (peek != NULL && regexec(peek, n->printable, 0, NULL, 0) != 0)
			continue;
		fputs(separator, t->fp);
		put_edges(t, i, true, ids);
		pc_add_sat(&sum, n->flat);
		put_values(t, n, sum);
		fprintf(fp, "                | %s\n",
		    profconv__text_safe(&t->tb, n->printable));
		put_edges(t, i, false, ids);
	}
	if (g->nnodes > 0)
		fputs(separator, t->fp);
	free(ids);
	return 0;
}

/* The view VOPTS makes of PROF (taking its stacks when TAKE, see
 * profconv__view_new_last()) and its graph, trimmed by OPTS (unless
 * UNTRIMMED), into T: T->view, T->g, T->unit (in UNIT), T->out_unit. */
static int
tree_open(struct tree *t, const struct profconv_profile *prof,
    const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts, bool untrimmed, bool take,
    char *unit, size_t unit_size, double *nodefraction)
{
	struct pc_graph_options go;
	struct profconv_value_type vt;
	int rc;

	memset(&go, 0, sizeof(go));
	if (!untrimmed) {
		go.nodecount = opts->nodecount;
		go.nodefraction = opts->nodefraction;
		go.edgefraction = opts->edgefraction;
	}
	*nodefraction = go.nodefraction;
	go.order = opts->by_cum ? PC_GRAPH_CUM : PC_GRAPH_FLAT;
	rc = profconv__view_new_last(&t->view, prof, vopts, false, take);
	if (rc == 0)
		rc = profconv__write_graph_open(&t->gown, t->view, NULL,
		    opts->sample_type, &go, &vt, unit, unit_size);
	if (rc < 0)
		return rc;
	t->unit = unit;
	t->g = t->gown;
	t->out_unit = profconv__graph_output_unit(t->g, unit);
	return 0;
}

static void
tree_close(struct tree *t)
{
	profconv__graph_free(t->gown);
	profconv__textbuf_free(&t->tb);
	profconv_view_free(t->view);
}

int
profconv__print_tree(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts)
{
	struct tree t;
	char unit[64];
	double nodefraction;
	regex_t peek;
	bool has_peek = false;
	int rc;

	memset(&t, 0, sizeof(t));
	t.fp = fp;
	rc = profconv__view_compile(&peek, opts->peek, &has_peek, "peek");
	/* pprof's -peek untrims the graph whatever the options say. */
	if (rc == 0)
		rc = tree_open(&t, prof, opts, vopts, opts->peek != NULL,
		    true, unit, sizeof(unit), &nodefraction);
	if (rc == 0) {
		errno = 0;
		if (opts->text)
			rc = print_text(&t, t.view, opts, nodefraction);
		else
			rc = print(&t, t.view, opts, nodefraction,
			    has_peek ? &peek : NULL);
	}
	if (has_peek)
		regfree(&peek);
	tree_close(&t);
	return rc;
}

/* --- pprof's -topproto ------------------------------------------------------ */

/* V of the sample unit in the graph's output unit, cut to an integer as
 * pprof cuts it. */
static int64_t
scaled(const struct tree *t, int64_t v)
{
	const char *u;

	return (int64_t)profconv__measure_scale(v, t->unit, t->out_unit, &u);
}

/* The function of node N in TOP: one per name, file and start line (a
 * node has no start line here: 0), as pprof keys them. */
static int
top_function(struct profconv_profile *top, struct pc_keymap *seen,
    const struct pc_gnode *n, uint32_t *id)
{
	struct profconv_function f = { n->name, "", n->file, 0 };
	size_t len = strlen(n->name) + strlen(n->file) + 2;
	char *key = malloc(len);
	uint32_t have = (uint32_t)profconv_profile_function_count(top) + 1;
	bool inserted;
	int rc;

	if (key == NULL)
		return profconv__nomem();
	memcpy(key, n->name, strlen(n->name) + 1);
	memcpy(key + strlen(n->name) + 1, n->file, strlen(n->file) + 1);
	rc = profconv__keymap_intern(seen, key, len, have, id, &inserted);
	free(key);
	if (rc == 0 && inserted)
		rc = profconv_profile_add_function(top, &f, id);
	return rc;
}

/* The nodes of T's graph as TOP's samples: a location each, values cum
 * and flat in the output unit. */
static int
top_samples(struct tree *t, struct profconv_profile *top)
{
	const struct pc_graph *g = t->g;
	struct pc_keymap seen;
	size_t i;
	int rc = 0;

	memset(&seen, 0, sizeof(seen));
	for (i = 0; rc == 0 && i < g->nnodes; i++) {
		const struct pc_gnode *n = &g->nodes[i];
		struct profconv_line line = { 0, n->line, 0 };
		int64_t v[2] = { scaled(t, n->cum), scaled(t, n->flat) };
		uint32_t loc;

		rc = top_function(top, &seen, n, &line.function_id);
		if (rc == 0)
			rc = profconv_profile_add_location(top, 0, n->address,
			    &line, 1, 0, &loc);
		if (rc == 0)
			rc = profconv_profile_add_sample(top, &loc, 1, v, NULL,
			    0);
	}
	profconv__keymap_free(&seen);
	return rc;
}

int
profconv_profile_top(struct profconv_profile **out,
    const struct profconv_profile *prof,
    const struct profconv_print_options *opts)
{
	struct profconv_print_options o;
	struct profconv_view_options vo;
	struct profconv_profile *top = NULL;
	struct profconv_value_type pt;
	struct tree t;
	char unit[64];
	double nodefraction;
	int64_t period;
	int rc;

	*out = NULL;
	memset(&t, 0, sizeof(t));
	if ((rc = profconv__options_take(&o, opts, &profconv__options_print)) < 0 ||
	    (rc = profconv__options_take(&vo, o.view, &profconv__options_view)) < 0)
		return rc;
	if (!(o.nodefraction >= 0 && o.nodefraction <= 1 &&
	    o.edgefraction >= 0 && o.edgefraction <= 1))
		return profconv__fail(PROFCONV_EINVAL, "node and edge "
		    "fractions are between 0 and 1");
	if (o.sample_type != NULL &&
	    profconv_profile_sample_type_index(prof, o.sample_type) < 0)
		return profconv__fail(PROFCONV_ENOTFOUND,
		    "profile has no sample type '%s'", o.sample_type);
	rc = tree_open(&t, prof, &o, &vo, false, false, unit, sizeof(unit),
	    &nodefraction);
	if (rc == 0)
		rc = profconv_profile_new(&top);
	if (rc == 0)
		rc = profconv_profile_add_sample_type(top, "cum", t.out_unit);
	if (rc == 0)
		rc = profconv_profile_add_sample_type(top, "flat", t.out_unit);
	if (rc == 0) {
		period = profconv_profile_period(prof, &pt);
		rc = profconv_profile_set_period(top, pt.type, pt.unit,
		    period);
	}
	if (rc == 0) {
		profconv_profile_set_time(top, profconv_profile_time_nanos(prof),
		    profconv_profile_duration_nanos(prof));
		rc = top_samples(&t, top);
	}
	tree_close(&t);
	if (rc < 0) {
		profconv_profile_free(top);
		return rc;
	}
	*out = top;
	return 0;
}
