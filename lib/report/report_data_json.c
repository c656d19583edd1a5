/* SPDX-License-Identifier: MIT */
/*
 * report_data_json.c - the report page's data as JSON (report_data.c has the tree):
 * pruning it to its budget, its columns, the data of one profile, of a
 * change and of a series of snapshots added one by one.
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "model/model.h"
#include "page/page.h"
#include "view/view.h"
#include "view/graph.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/trendsvg.h"
#include "report/report_tree.h"

/* --- the page's data -------------------------------------------------------- */

/* Node I's largest share of a total over the sample types. */
static double
share(const struct tree *t, const struct out *o, const int64_t *total,
    size_t i)
{
	double s = 0;
	size_t k;

	for (k = 0; k < t->nt; k++) {
		double v;

		if (total[k] == 0)
			continue;
		v = (double)profconv__report_mag(o->cum[i * t->nt + k]) / (double)profconv__report_mag(total[k]);
		if (v > s)
			s = v;
	}
	return s;
}

/* The cut that keeps at most BUDGET nodes below the root: the share of
 * the heaviest node left out (-1: every node fits). */
static int
budget_cut(const struct tree *t, const struct out *o, const int64_t *total,
    size_t budget, double *cut)
{
	double *s;
	size_t i;

	*cut = -1;
	if (budget == 0 || t->n - 1 <= budget)
		return 0;
	if ((s = malloc((t->n - 1) * sizeof(*s))) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	for (i = 1; i < t->n; i++)
		s[i - 1] = share(t, o, total, i);
	/* The (BUDGET + 1)-th largest. */
	*cut = profconv__select_kth(s, t->n - 1, t->n - 2 - budget);
	free(s);
	return 0;
}

/* Keep node I of T when it is the root, or when KEEP says so (its parent
 * is kept and its share is above the cut); else it counts in its
 * parent's kept node.  Whether it is kept. */
static bool
keep_node(const struct tree *t, struct out *o, size_t i, bool keep)
{
	keep = keep || i == 0;
	o->kept[i] = keep;
	if (keep) {
		o->map[i] = (uint32_t)o->n++;
	} else {
		o->map[i] = o->map[t->parent[i]];
		o->dropped++;
	}
	return keep;
}

/* Keep the nodes whose share (for some type, of its total) is above
 * FRACTION (negative: all) and the BUDGET heaviest (0: all). */
static int
prune(struct tree *t, const int64_t *total, double fraction, size_t budget,
    struct out *o)
{
	size_t i, k, nt = t->nt;
	double cut;
	int rc;

	o->map = calloc(t->n, sizeof(*o->map));
	o->kept = calloc(t->n, sizeof(*o->kept));
	o->cum = calloc(t->n * nt, sizeof(*o->cum));
	o->dropped_sum = calloc(nt, sizeof(*o->dropped_sum));
	if (o->map == NULL || o->kept == NULL || o->cum == NULL ||
	    o->dropped_sum == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	memcpy(o->cum, t->self, t->n * nt * sizeof(int64_t));
	for (i = t->n; i-- > 1;)
		for (k = 0; k < nt; k++)
			pc_add_sat(&o->cum[t->parent[i] * nt + k],
			    o->cum[i * nt + k]);
	if ((rc = budget_cut(t, o, total, budget, &cut)) < 0)
		return rc;
	o->fraction = cut > fraction ? cut : fraction;
	for (i = 0; i < t->n; i++) {
		if (!keep_node(t, o, i, o->kept[t->parent[i]] &&
		    (o->fraction < 0 || share(t, o, total, i) > o->fraction)))
			for (k = 0; k < nt; k++)
				pc_add_sat(&o->dropped_sum[k],
				    t->self[i * nt + k]);
	}
	return 0;
}

static void
put_ints(FILE *fp, const char *key, const int64_t *v, size_t n, size_t step)
{
	size_t i;

	fprintf(fp, "\"%s\":[", key);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%" PRId64, i != 0 ? "," : "", v[i * step]);
	fputs("]", fp);
}

/* Per column K of V (N rows of NT): {"i":[rows],"v":[values]} of the
 * rows that are not 0 (most nodes hold nothing of their own). */
static void
put_sparse(FILE *fp, const int64_t *v, size_t n, size_t nt)
{
	size_t i, j, k;

	putc('[', fp);
	for (k = 0; k < nt; k++) {
		fputs(k != 0 ? ",\n{\"i\":[" : "{\"i\":[", fp);
		for (j = 0, i = 0; j < n; j++)
			if (v[j * nt + k] != 0)
				fprintf(fp, "%s%zu", i++ != 0 ? "," : "", j);
		fputs("],\"v\":[", fp);
		for (j = 0, i = 0; j < n; j++)
			if (v[j * nt + k] != 0)
				fprintf(fp, "%s%" PRId64, i++ != 0 ? "," : "",
				    v[j * nt + k]);
		fputs("]}", fp);
	}
	putc(']', fp);
}

/* What the columns of a tree are: sample types, or snapshots of one. */
struct cols {
	const char *const *label;
	const char *const *unit;
	bool series;
	bool diff;	/* the first half the base's types, the second the
			 * current profile's */
	bool threads;	/* the first frames are threads (split_threads) */
};

/* Write T pruned as O says; PRUNED_IN, when not NULL, the dropped
 * values below each node (T then holds only kept nodes). */
static int
write_json(FILE *fp, const struct gframes *g, struct tree *t,
    const struct cols *c, const int64_t *total, size_t def, struct out *o,
    const int64_t *self_in, const int64_t *pruned_in)
{
	double fraction = o->fraction;
	struct strs st = { 0 };
	uint32_t *fn = NULL, *file = NULL;
	int64_t *self = NULL, *line = NULL, *pruned = NULL;
	size_t i, k, nt = t->nt, j;
	uint32_t dummy;
	int rc = 0;

	fn = calloc(o->n, sizeof(*fn));
	file = calloc(o->n, sizeof(*file));
	line = calloc(o->n, sizeof(*line));
	self = calloc(o->n * nt, sizeof(*self));
	pruned = calloc(o->n * nt, sizeof(*pruned));
	if (fn == NULL || file == NULL || line == NULL || self == NULL ||
	    pruned == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	rc = profconv__report_str_index(&st, "", &dummy);
	for (i = 0; i < t->n && rc == 0; i++) {
		int64_t *to = o->kept[i] ? self : pruned;

		j = o->map[i];
		for (k = 0; self_in == NULL && k < nt; k++)
			pc_add_sat(&to[j * nt + k], t->self[i * nt + k]);
		if (!o->kept[i] || i == 0)
			continue;
		rc = profconv__report_str_index(&st, g->fn[t->frame[i]], &fn[j]);
		if (rc == 0)
			rc = profconv__report_str_index(&st, g->file[t->frame[i]], &file[j]);
		line[j] = g->line[t->frame[i]];
	}
	if (rc < 0)
		goto out;
	if (self_in != NULL)
		memcpy(self, self_in, o->n * nt * sizeof(*self));
	if (pruned_in != NULL)
		memcpy(pruned, pruned_in, o->n * nt * sizeof(*pruned));

	profconv__page_put(fp, profconv__page_report_html, "live_data", NULL,
	    NULL);
	fputs("\"types\":[", fp);
	for (k = 0; k < nt; k++) {
		fputs(k != 0 ? ",{\"type\":" : "{\"type\":", fp);
		profconv__report_json_str(fp, c->label[k]);
		fputs(",\"unit\":", fp);
		profconv__report_json_str(fp, c->unit[k]);
		fputs("}", fp);
	}
	fprintf(fp, "],\n\"series\":%s,\"diff\":%s,\"default\":%zu,"
	    "\"fraction\":%.6g,\n", c->series ? "true" : "false",
	    c->diff ? "true" : "false", def,
	    isfinite(fraction) && fraction > 0 ? fraction : 0);
	if (c->threads)
		fputs("\"threads\":true,\n", fp);
	put_ints(fp, "total", total, nt, 1);
	fprintf(fp, ",\n\"dropped\":{\"nodes\":%zu,", o->dropped);
	put_ints(fp, "sum", o->dropped_sum, nt, 1);
	fputs(",\"cut\":[", fp);
	for (k = 0; k < nt; k++)
		fprintf(fp, "%s%" PRId64, k != 0 ? "," : "",
		    fraction < 0 ? 0 : (int64_t)(fraction *
		    (double)profconv__report_mag(total[k])));
	fputs("]},\n\"statement\":[", fp);
	for (k = 0; k < nt; k++) {
		char a[64], b[64], cb[64], p[32], line_buf[320];
		int64_t shown = total[k] - o->dropped_sum[k];

		profconv__measure_label(a, sizeof(a), shown, c->unit[k],
		    "minimum");
		profconv__measure_label(b, sizeof(b), total[k], c->unit[k],
		    "minimum");
		profconv__measure_percent(p, sizeof(p), shown, total[k]);
		snprintf(line_buf, sizeof(line_buf), "Showing nodes "
		    "accounting for %s, %s of %s total", a, p, b);
		fputs(k != 0 ? ",[" : "[", fp);
		profconv__report_json_str(fp, line_buf);
		if (o->dropped > 0 && fraction >= 0) {
			profconv__measure_label(cb, sizeof(cb),
			    (int64_t)(fraction * (double)profconv__report_mag(total[k])),
			    c->unit[k], "minimum");
			snprintf(line_buf, sizeof(line_buf), "Dropped %zu "
			    "node%s (cum <= %s)", o->dropped,
			    o->dropped > 1 ? "s" : "", cb);
			fputs(",", fp);
			profconv__report_json_str(fp, line_buf);
		}
		fputs("]", fp);
	}
	fputs("],\n\"strings\":[", fp);
	for (i = 0; i < st.n; i++) {
		if (i != 0)
			putc(',', fp);
		profconv__report_json_str(fp, st.s[i]);
	}
	fputs("],\n\"parent\":[", fp);
	for (i = 0, j = 0; i < t->n; i++) {
		if (!o->kept[i])
			continue;
		fprintf(fp, "%s%ld", j++ != 0 ? "," : "",
		    i == 0 ? -1L : (long)o->map[t->parent[i]]);
	}
	fputs("],\n\"func\":[", fp);
	for (j = 0; j < o->n; j++)
		fprintf(fp, "%s%" PRIu32, j != 0 ? "," : "", fn[j]);
	fputs("],\n\"file\":[", fp);
	for (j = 0; j < o->n; j++)
		fprintf(fp, "%s%" PRIu32, j != 0 ? "," : "", file[j]);
	fputs("],\n", fp);
	put_ints(fp, "line", line, o->n, 1);
	fputs(",\n\"self\":", fp);
	put_sparse(fp, self, o->n, nt);
	fputs(",\n\"pruned\":", fp);
	put_sparse(fp, pruned, o->n, nt);
	profconv__page_put(fp, profconv__page_report_html, "live_data_end",
	    NULL, NULL);
out:
	free(pruned);
	free(fn);
	free(file);
	free(line);
	free(self);
	free(st.s);
	free(st.h);
	return rc;
}

/* Prune T and write it. */
static int
emit(FILE *fp, struct tree *t, const struct gframes *g, const struct cols *c,
    const int64_t *total, double fraction, size_t budget, size_t def)
{
	struct out po = { 0 };
	int rc;

	if (t->n == 0 && (rc = profconv__report_node_add(t, 0, 0, &(uint32_t){ 0 })) < 0)
		return rc;
	if ((rc = prune(t, total, fraction, budget, &po)) == 0)
		rc = write_json(fp, g, t, c, total, def, &po, NULL, NULL);
	profconv__report_out_free(&po);
	return rc;
}

/* V's tree (or, with BV, the tree of the change from BV to V, BV's
 * types in columns BCOLS) pruned while it is built
 * (report_data_stream.c), written; 1 when the walk cannot give the
 * whole tree's answer (nothing written). */
static int
emit_stream(FILE *fp, const struct profconv_view *bv, const size_t *bcols,
    const struct profconv_view *v, struct gframes *g, const struct cols *c,
    const int64_t *total, double fraction, size_t budget, size_t def)
{
	struct out_lean ol = { 0 };
	struct out po = { 0 };
	struct tree t = { 0 };
	size_t i;
	int rc;

	if (bv != NULL)
		rc = profconv__report_tree_stream_change(bv, bcols, v,
		    profconv_profile_sample_type_count(
		    profconv_view_profile(v)), g, total, fraction, budget,
		    &t, &ol);
	else
		rc = profconv__report_tree_stream(v, g, total, fraction,
		    budget, &t, &ol);
	if (rc == 0) {
		po.n = t.n;
		po.map = malloc(t.n * sizeof(*po.map));
		po.kept = malloc(t.n * sizeof(*po.kept));
		if (po.map == NULL || po.kept == NULL)
			rc = profconv__nomem();
	}
	if (rc == 0) {
		for (i = 0; i < t.n; i++) {
			po.map[i] = (uint32_t)i;
			po.kept[i] = true;
		}
		po.dropped = ol.dropped;
		po.dropped_sum = ol.dropped_sum;
		po.fraction = ol.fraction;
		rc = write_json(fp, g, &t, c, total, def, &po, NULL, ol.pruned);
	}
	free(po.map);
	free(po.kept);
	free(ol.dropped_sum);
	free(ol.pruned);
	profconv__report_tree_free(&t);
	return rc;
}

/* --- a series' tree, a column at a time ------------------------------------------ */

/* ACC[node] of the triples IDX[0..N-1] of T, added in their order. */
static void
column_self(const struct tree *t, const size_t *idx, size_t n, int64_t *acc)
{
	size_t i;

	for (i = 0; i < n; i++)
		pc_add_sat(&acc[t->tnode[idx[i]]], t->tval[idx[i]]);
}

void
profconv__report_out_free(struct out *o)
{
	free(o->map);
	free(o->kept);
	free(o->cum);
	free(o->dropped_sum);
	memset(o, 0, sizeof(*o));
}

/*
 * Each column's values alone, in the order the whole matrix would have
 * them: a column's own values are its triples' sums in triple order,
 * its cumulative ones the same sweep up the tree prune() makes, so that
 * saturating sums come out the same.  Pass 1 keeps each node's largest
 * share (share()'s); pass 2, once the cut is known, each column's own
 * values into the kept node each counts in.  Both split the columns in
 * groups, one a task, each with its sums of its own.
 */
struct columns {
	const struct tree *t;
	const size_t *idx, *start;	/* the triples of column C:
					 * idx[start[c] .. start[c + 1]) */
	size_t k, ngroups;
	const int64_t *total;
	double **smax;			/* per group: each node's share */
	struct out *o;
	int64_t *self, *pruned;
};

/* The columns of group G. */
static void
group_columns(const struct columns *cs, size_t g, size_t *lo, size_t *hi)
{
	*lo = cs->k * g / cs->ngroups;
	*hi = cs->k * (g + 1) / cs->ngroups;
}

static int
shares_task(void *arg, size_t g)
{
	struct columns *cs = arg;
	const struct tree *t = cs->t;
	size_t n = t->n, i, c, lo, hi;
	int64_t *acc = calloc(n + 1, sizeof(*acc));
	double *smax = calloc(n + 1, sizeof(*smax));

	if (acc == NULL || smax == NULL) {
		free(acc);
		free(smax);
		return profconv__nomem();
	}
	cs->smax[g] = smax;
	group_columns(cs, g, &lo, &hi);
	for (c = lo; c < hi; c++) {
		if (cs->total[c] == 0)
			continue;
		column_self(t, cs->idx + cs->start[c], cs->start[c + 1] -
		    cs->start[c], acc);
		for (i = n; i-- > 1;)
			pc_add_sat(&acc[t->parent[i]], acc[i]);
		for (i = 1; i < n; i++) {
			double v = (double)profconv__report_mag(acc[i]) /
			    (double)profconv__report_mag(cs->total[c]);

			if (v > smax[i])
				smax[i] = v;
		}
		memset(acc, 0, n * sizeof(*acc));
	}
	free(acc);
	return 0;
}

static int
place_task(void *arg, size_t g)
{
	struct columns *cs = arg;
	const struct tree *t = cs->t;
	const struct out *o = cs->o;
	size_t n = t->n, i, c, lo, hi, k = cs->k;
	int64_t *acc = calloc(n + 1, sizeof(*acc));

	if (acc == NULL)
		return profconv__nomem();
	group_columns(cs, g, &lo, &hi);
	for (c = lo; c < hi; c++) {
		column_self(t, cs->idx + cs->start[c], cs->start[c + 1] -
		    cs->start[c], acc);
		for (i = 0; i < n; i++) {
			if (acc[i] == 0)
				continue;
			pc_add_sat(&(o->kept[i] ? cs->self : cs->pruned)[
			    o->map[i] * k + c], acc[i]);
			if (!o->kept[i])
				pc_add_sat(&o->dropped_sum[c], acc[i]);
			acc[i] = 0;
		}
	}
	free(acc);
	return 0;
}

int
profconv__report_series_prune(const struct tree *t, const size_t *col,
    size_t k, size_t all, const int64_t *total, double fraction,
    size_t budget, unsigned int jobs, struct out *o, int64_t **self,
    int64_t **pruned)
{
	struct columns cs = { .t = t, .k = k, .total = total, .o = o };
	double *smax[PROFCONV_MAX_JOBS] = { NULL }, *s = NULL, cut = -1;
	size_t n = t->n, i, c, g, *pos = NULL, *start = NULL, *at = NULL;
	size_t *idx = NULL;
	int rc = 0;

	memset(o, 0, sizeof(*o));
	*self = *pruned = NULL;
	cs.ngroups = profconv__jobs_count(jobs);
	if (cs.ngroups > k)
		cs.ngroups = k > 0 ? k : 1;
	cs.smax = smax;
	o->map = calloc(n + 1, sizeof(*o->map));
	o->kept = calloc(n + 1, sizeof(*o->kept));
	o->dropped_sum = calloc(k + 1, sizeof(*o->dropped_sum));
	pos = malloc((all + 1) * sizeof(*pos));
	start = calloc(k + 1, sizeof(*start));
	at = calloc(k + 1, sizeof(*at));
	idx = malloc((t->tn + 1) * sizeof(*idx));
	if (o->map == NULL || o->kept == NULL || o->dropped_sum == NULL ||
	    pos == NULL || start == NULL || at == NULL || idx == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	/* The triples of each column kept, in their order. */
	for (c = 0; c < all; c++)
		pos[c] = SIZE_MAX;
	for (c = 0; c < k; c++)
		pos[col[c]] = c;
	for (i = 0; i < t->tn; i++)
		if (pos[t->tcol[i]] != SIZE_MAX)
			at[pos[t->tcol[i]]]++;
	for (c = 1; c <= k; c++)
		start[c] = start[c - 1] + at[c - 1];
	memcpy(at, start, k * sizeof(*at));
	for (i = 0; i < t->tn; i++)
		if (pos[t->tcol[i]] != SIZE_MAX)
			idx[at[pos[t->tcol[i]]]++] = i;
	cs.idx = idx;
	cs.start = start;
	/* Pass 1: the shares, each node's largest of all groups'. */
	if ((rc = profconv__jobs_run(jobs, cs.ngroups, shares_task, &cs)) < 0)
		goto out;
	for (g = 1; g < cs.ngroups; g++)
		for (i = 1; i < n; i++)
			if (smax[g][i] > smax[0][i])
				smax[0][i] = smax[g][i];
	/* The cut that keeps BUDGET nodes below the root (budget_cut()). */
	if (budget != 0 && n - 1 > budget) {
		if ((s = malloc((n - 1) * sizeof(*s))) == NULL) {
			rc = profconv__nomem();
			goto out;
		}
		memcpy(s, smax[0] + 1, (n - 1) * sizeof(*s));
		cut = profconv__select_kth(s, n - 1, n - 2 - budget);
	}
	o->fraction = cut > fraction ? cut : fraction;
	for (i = 0; i < n; i++)
		(void)keep_node(t, o, i, o->kept[t->parent[i]] &&
		    (o->fraction < 0 || smax[0][i] > o->fraction));
	/* Pass 2: each node's own values where they count. */
	*self = calloc(o->n * k + 1, sizeof(**self));
	*pruned = calloc(o->n * k + 1, sizeof(**pruned));
	if (*self == NULL || *pruned == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	cs.self = *self;
	cs.pruned = *pruned;
	rc = profconv__jobs_run(jobs, cs.ngroups, place_task, &cs);
out:
	if (rc < 0) {
		profconv__report_out_free(o);
		free(*self);
		free(*pruned);
		*self = *pruned = NULL;
	}
	for (g = 0; g < PROFCONV_MAX_JOBS; g++)
		free(smax[g]);
	free(pos);
	free(start);
	free(at);
	free(idx);
	free(s);
	return rc;
}

/* A series' tree T pruned and written, columns COL[0..K-1] of ALL, on
 * JOBS threads. */
static int
emit_series(FILE *fp, struct tree *t, const struct gframes *g,
    const struct cols *c, const int64_t *total, const size_t *col,
    size_t k, size_t all, double fraction, size_t budget, size_t def,
    unsigned int jobs)
{
	struct out po;
	int64_t *self, *pruned;
	size_t nt = t->nt;
	int rc;

	if (t->n == 0 && (rc = profconv__report_node_add(t, 0, 0,
	    &(uint32_t){ 0 })) < 0)
		return rc;
	rc = profconv__report_series_prune(t, col, k, all, total, fraction,
	    budget, jobs, &po, &self, &pruned);
	if (rc < 0)
		return rc;
	t->nt = k;	/* the columns written */
	rc = write_json(fp, g, t, c, total, def, &po, self, pruned);
	t->nt = nt;
	profconv__report_out_free(&po);
	free(self);
	free(pruned);
	return rc;
}

/* The view of PROF with options VO, one frame per line unless VO asks
 * for addresses or lines itself. */
static int
data_view(struct profconv_view **v, const struct profconv_profile *prof,
    const struct profconv_view_options *vo)
{
	struct profconv_view_options o;
	int rc;

	if ((rc = profconv__options_take(&o, vo, &profconv__options_view)) < 0)
		return rc;
	if (o.granularity == PROFCONV_BY_FUNCTION)
		o.granularity = PROFCONV_BY_LINE;
	return profconv_view_new(v, prof, &o);
}

/* What a run of the data holds: the tree, its frames, and the columns'
 * totals, labels and units. */
struct data_run {
	struct gframes g;
	struct tree t;
	int64_t *total;
	const char **label, **unit;
};

/* R's columns, N of each, zeroed; false when out of memory (free them
 * with data_run_free() either way). */
static bool
col_arrays(struct data_run *r, size_t n)
{
	r->total = calloc(n, sizeof(*r->total));
	r->label = calloc(n, sizeof(*r->label));
	r->unit = calloc(n, sizeof(*r->unit));
	return r->total != NULL && r->label != NULL && r->unit != NULL;
}

static void
data_run_free(struct data_run *r)
{
	free(r->total);
	free(r->label);
	free(r->unit);
	profconv__report_tree_free(&r->t);
	profconv__report_gframes_free(&r->g);
}

int
profconv__report_data(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def)
{
	struct profconv_view *v = NULL;
	int rc;

	if ((rc = data_view(&v, prof, vo)) < 0)
		return rc;
	rc = profconv__report_data_view(fp, v, fraction, budget, def);
	profconv_view_free(v);
	return rc;
}

int
profconv__report_data_view(FILE *fp, const struct profconv_view *v,
    double fraction, size_t budget, size_t def)
{
	const struct profconv_profile *prof = profconv_view_profile(v);
	struct profconv_value_type vt;
	struct data_run r = { 0 };
	size_t k, nt = profconv_profile_sample_type_count(prof);
	int rc;

	r.t.nt = nt;
	if (!col_arrays(&r, nt + 1)) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < nt; k++) {
		profconv_view_total(v, k, &r.total[k]);
		profconv_profile_sample_type(prof, k, &vt);
		r.label[k] = vt.type;
		r.unit[k] = vt.unit;
	}
	rc = emit_stream(fp, NULL, NULL, v, &r.g, &(struct cols){ r.label,
	    r.unit, false, false, false }, r.total, fraction, budget, def);
	if (rc == 1) {
		/* Not for the walk: the whole tree. */
		profconv__report_gframes_free(&r.g);
		memset(&r.g, 0, sizeof(r.g));
		if ((rc = profconv__report_tree_add(&r.t, &r.g, v, SIZE_MAX, 0,
		    NULL)) == 0)
			rc = emit(fp, &r.t, &r.g, &(struct cols){ r.label,
			    r.unit, false, false, false }, r.total, fraction,
			    budget, def);
	}
out:
	data_run_free(&r);
	return rc;
}

/*
 * BASE and PROF in one tree (the same node for the same path; 0 where
 * a path is in one only): columns 0..NT-1 the base's values of PROF's
 * NT sample types (those it has, by name), NT..2NT-1 PROF's.
 */
int
profconv__report_data_diff(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def)
{
	return profconv__report_data_diff_tree(fp, base, prof, vo, fraction,
	    budget, def, false);
}

int
profconv__report_data_diff_tree(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, bool whole)
{
	struct profconv_view *v = NULL, *bv = NULL;
	struct profconv_value_type vt;
	struct data_run r = { 0 };
	size_t k, nt = profconv_profile_sample_type_count(prof);
	size_t nb = profconv_profile_sample_type_count(base);
	size_t *bcols = NULL, *ccols = NULL;
	int rc;

	if ((rc = data_view(&v, prof, vo)) < 0 ||
	    (rc = data_view(&bv, base, vo)) < 0)
		goto out;
	r.t.nt = 2 * nt;
	bcols = calloc(nb + 1, sizeof(*bcols));
	ccols = calloc(nt + 1, sizeof(*ccols));
	if (!col_arrays(&r, 2 * nt + 1) || bcols == NULL ||
	    ccols == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < nb; k++)
		bcols[k] = SIZE_MAX;
	for (k = 0; k < nt; k++) {
		int bk;

		profconv_profile_sample_type(prof, k, &vt);
		r.label[k] = r.label[nt + k] = vt.type;
		r.unit[k] = r.unit[nt + k] = vt.unit;
		ccols[k] = nt + k;
		profconv_view_total(v, k, &r.total[nt + k]);
		bk = profconv_profile_sample_type_index(base, vt.type);
		if (bk >= 0) {
			bcols[bk] = k;
			profconv_view_total(bv, (size_t)bk, &r.total[k]);
		}
	}
	/* The tree pruned as it is built; else the whole tree. */
	rc = whole ? 1 : emit_stream(fp, bv, bcols, v, &r.g,
	    &(struct cols){ r.label, r.unit, false, true, false }, r.total,
	    fraction, budget, def);
	if (rc == 1) {
		profconv__report_gframes_free(&r.g);
		memset(&r.g, 0, sizeof(r.g));
		if ((rc = profconv__report_tree_add(&r.t, &r.g, bv, SIZE_MAX,
		    nb, bcols)) == 0 &&
		    (rc = profconv__report_tree_add(&r.t, &r.g, v, SIZE_MAX,
		    nt, ccols)) == 0)
			rc = emit(fp, &r.t, &r.g, &(struct cols){ r.label,
			    r.unit, false, true, false }, r.total, fraction,
			    budget, def);
	}
out:
	data_run_free(&r);
	free(bcols);
	free(ccols);
	profconv_view_free(v);
	profconv_view_free(bv);
	return rc;
}

/* The sample type of a series in PROF: TYPE, else inuse_space, space
 * or the default one, as profconv_trend_run() picks it. */
static int
series_type(const struct profconv_profile *prof, const char *type)
{
	int k;

	if (type != NULL) {
		k = profconv_profile_sample_type_index(prof, type);
		if (k < 0 && strcmp(type, "inuse_space") == 0)
			k = profconv_profile_sample_type_index(prof, "space");
		if (k < 0 && strcmp(type, "inuse_objects") == 0)
			k = profconv_profile_sample_type_index(prof, "objects");
		return k;
	}
	k = profconv_profile_sample_type_index(prof, "inuse_space");
	if (k < 0)
		k = profconv_profile_sample_type_index(prof, "space");
	if (k < 0)
		k = profconv_profile_default_sample_index(prof);
	return k;
}

/* --- a series: snapshots added one by one --------------------------------- */

struct profconv_report_series {
	struct profconv_report_options o;
	struct tree t;
	struct gframes g;
	char **names, **units;
	int64_t *total;
	size_t n, ncap, ucap, tcap;
};

int
profconv_report_series_new(struct profconv_report_series **out,
    const struct profconv_report_options *opts)
{
	struct profconv_report_series *s;
	int rc;

	if (out == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no series");
	*out = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	rc = profconv__options_take(&s->o, opts, &profconv__options_report);
	if (rc == 0 && s->o.view != NULL)
		rc = profconv_view_options_check(s->o.view);
	if (rc < 0) {
		free(s);
		return rc;
	}
	s->t.by_stack = true;	/* snapshots share most stacks */
	*out = s;
	return 0;
}

void
profconv_report_series_free(struct profconv_report_series *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->units[i]);
	}
	free(s->names);
	free(s->units);
	free(s->total);
	profconv__report_tree_free(&s->t);
	profconv__report_gframes_free(&s->g);
	free(s);
}

int
profconv_report_series_add(struct profconv_report_series *s,
    const struct profconv_profile *prof, const char *name)
{
	struct profconv_value_type vt;
	struct profconv_view *v = NULL;
	int rc, k;

	if (s == NULL || prof == NULL || name == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no series, profile "
		    "or name");
	if ((k = series_type(prof, s->o.sample_type)) < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "%s: no sample "
		    "type '%s'", name, s->o.sample_type != NULL ?
		    s->o.sample_type : "inuse_space");
	if (PC_GROW(s->names, s->ncap, s->n, 1) < 0 ||
	    PC_GROW(s->units, s->ucap, s->n, 1) < 0 ||
	    PC_GROW(s->total, s->tcap, s->n, 1) < 0)
		return PROFCONV_ENOMEM;
	profconv_profile_sample_type(prof, (size_t)k, &vt);
	s->names[s->n] = strdup(name);
	s->units[s->n] = strdup(vt.unit);
	if (s->names[s->n] == NULL || s->units[s->n] == NULL) {
		free(s->names[s->n]);
		free(s->units[s->n]);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	if ((rc = data_view(&v, prof, s->o.view)) == 0) {
		profconv_view_total(v, (size_t)k, &s->total[s->n]);
		rc = profconv__report_tree_add(&s->t, &s->g, v, (size_t)k, s->n, NULL);
	}
	profconv_view_free(v);
	if (rc < 0) {
		free(s->names[s->n]);
		free(s->units[s->n]);
		return rc;
	}
	s->n++;
	return 0;
}

size_t
profconv__report_series_pick(const int64_t *total, size_t n, size_t *out)
{
	return profconv__trend_pick(total, n, PC_REPORT_SERIES_POINTS, out);
}

int
profconv__report_data_series(FILE *fp, struct profconv_report_series *s,
    const char *const *order, size_t n, double fraction, size_t budget)
{
	struct data_run r = { 0 };	/* its columns only: the tree is S's */
	size_t *col = NULL, *pick = NULL, i, j, nc = 0, k;
	bool *used = NULL;
	int rc = 0;

	if (s->n == 0)
		return 0;
	col = calloc(s->n, sizeof(*col));
	pick = calloc(s->n, sizeof(*pick));
	used = calloc(s->n, sizeof(*used));
	if (!col_arrays(&r, s->n) || col == NULL ||
	    pick == NULL || used == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	/* The snapshots ORDER names, in its order (the trend's), each
	 * once; without ORDER, all as added. */
	for (i = 0; order == NULL && i < s->n; i++)
		col[nc++] = i;
	for (i = 0; order != NULL && i < n && nc < s->n; i++) {
		for (j = 0; j < s->n; j++) {
			if (!used[j] && strcmp(s->names[j], order[i]) == 0) {
				used[j] = true;
				col[nc++] = j;
				break;
			}
		}
	}
	for (i = 0; i < nc; i++)
		r.total[i] = s->total[col[i]];
	/* At most PC_REPORT_SERIES_POINTS of them, as the picture picks. */
	k = profconv__report_series_pick(r.total, nc, pick);
	for (i = 0; i < k; i++) {
		col[i] = col[pick[i]];
		r.label[i] = s->names[col[i]];
		r.unit[i] = s->units[col[i]];
		r.total[i] = s->total[col[i]];
	}
	/* And at most PC_REPORT_SERIES_CELLS values: fewer nodes the more
	 * snapshots. */
	if (k > 0 && (budget == 0 || budget > PC_REPORT_SERIES_CELLS / k))
		budget = PC_REPORT_SERIES_CELLS / k;
	if (k > 0)
		rc = emit_series(fp, &s->t, &s->g, &(struct cols){ r.label,
		    r.unit, true, false, s->o.view != NULL &&
		    s->o.view->split_threads }, r.total, col, k, s->n,
		    fraction, budget, k - 1, s->o.view != NULL ?
		    s->o.view->jobs : 0);
out:
	data_run_free(&r);
	free(col);
	free(pick);
	free(used);
	return rc;
}
