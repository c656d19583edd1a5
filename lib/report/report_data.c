/* SPDX-License-Identifier: MIT */
/*
 * report_data.c - the call tree the report page's script draws its
 * views from (the live top table and flame graph, report_script.js).
 *
 * The tree is the view's: its stacks, read through the view's stack
 * iteration, one frame per source line (the view at line granularity
 * unless another one was asked), so the script can group by function,
 * by line or by file, and focus or ignore by function name.  Each node
 * keeps its self value for every sample type.  Pruning as pprof's
 * -nodefraction: a node whose cum is at most FRACTION of the total for
 * every sample type is dropped with its subtree, its values kept apart
 * as the "pruned" value of its nearest kept ancestor (in that node's
 * cum and width, never in any function's flat), so totals stay whole,
 * no flat is distorted and the page can say what it left out in
 * pprof's words.  A node budget raises
 * the fraction as far as needed: the BUDGET heaviest nodes stay (cum
 * never grows from a node to its callee, so they form a tree), and the
 * statement names the cut that was applied.
 *
 * The JSON goes inside a <script> element: '<', '>' and '&' are written
 * as \u003c, \u003e, \u0026 (they can only occur inside strings), so
 * neither "</script" nor "<!--" can appear in it.
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
#include "view/view.h"
#include "view/graph.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/trendsvg.h"

struct tree {
	size_t nt;		/* sample types */
	size_t n, pcap, fcap;	/* nodes */
	uint32_t *parent;	/* node 0 is the root */
	uint32_t *frame;	/* view frame id; 0 for the root */
	int64_t *self;		/* n * nt */
	size_t selfcap;
	/* (parent, frame) -> node + 1, open addressing */
	uint64_t *keys;
	uint32_t *vals;
	size_t hcap, hn;
	/* A series: (node, column, value) of each stack, made dense by
	 * tree_columns() once the columns are known. */
	uint32_t *tnode, *tcol;
	int64_t *tval;
	size_t tn, tncap, tccap, tvcap;
};

static uint64_t
mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

static int
hash_grow(struct tree *t)
{
	size_t ncap = t->hcap != 0 ? 2 * t->hcap : 1024, i;
	uint64_t *keys = calloc(ncap, sizeof(*keys));
	uint32_t *vals = calloc(ncap, sizeof(*vals));

	if (keys == NULL || vals == NULL) {
		free(keys);
		free(vals);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	for (i = 0; i < t->hcap; i++) {
		size_t h;

		if (t->vals[i] == 0)
			continue;
		h = mix(t->keys[i]) & (ncap - 1);
		while (vals[h] != 0)
			h = (h + 1) & (ncap - 1);
		keys[h] = t->keys[i];
		vals[h] = t->vals[i];
	}
	free(t->keys);
	free(t->vals);
	t->keys = keys;
	t->vals = vals;
	t->hcap = ncap;
	return 0;
}

static int
node_add(struct tree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	if (t->n >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "call tree too large");
	if (PC_GROW(t->parent, t->pcap, t->n, 1) < 0)
		return PROFCONV_ENOMEM;
	if (PC_GROW(t->frame, t->fcap, t->n, 1) < 0)
		return PROFCONV_ENOMEM;
	if (PC_GROW(t->self, t->selfcap, t->n * t->nt, t->nt) < 0)
		return PROFCONV_ENOMEM;
	t->parent[t->n] = parent;
	t->frame[t->n] = frame;
	if (t->nt > 0)	/* a series' tree has no columns of its own */
		memset(&t->self[t->n * t->nt], 0, t->nt * sizeof(int64_t));
	*out = (uint32_t)t->n++;
	return 0;
}

/* The child of PARENT for FRAME, made when new. */
static int
child(struct tree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	size_t h;
	int rc;

	if (2 * (t->hn + 1) > t->hcap && (rc = hash_grow(t)) < 0)
		return rc;
	h = mix(key) & (t->hcap - 1);
	while (t->vals[h] != 0) {
		if (t->keys[h] == key) {
			*out = t->vals[h] - 1;
			return 0;
		}
		h = (h + 1) & (t->hcap - 1);
	}
	if ((rc = node_add(t, parent, frame, out)) < 0)
		return rc;
	t->keys[h] = key;
	t->vals[h] = *out + 1;
	t->hn++;
	return 0;
}

static void
tree_free(struct tree *t)
{
	free(t->parent);
	free(t->frame);
	free(t->self);
	free(t->keys);
	free(t->vals);
	free(t->tnode);
	free(t->tcol);
	free(t->tval);
}

/* Make T's values columns ORDER[0..N-1] of its stacks' values, of the
 * ALL columns they were added as (the others left out). */
static int
tree_columns(struct tree *t, const size_t *order, size_t n, size_t all)
{
	size_t i, k, *pos;

	free(t->self);
	t->nt = n;
	t->self = calloc(t->n * n + 1, sizeof(*t->self));
	pos = malloc((all + 1) * sizeof(*pos));
	if (t->self == NULL || pos == NULL) {
		free(pos);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	t->selfcap = t->n * n + 1;
	/* column c of the stacks -> place k, or SIZE_MAX: not kept */
	for (k = 0; k < all; k++)
		pos[k] = SIZE_MAX;
	for (k = 0; k < n; k++)
		pos[order[k]] = k;
	for (i = 0; i < t->tn; i++)
		if (pos[t->tcol[i]] != SIZE_MAX)
			pc_add_sat(&t->self[t->tnode[i] * n +
			    pos[t->tcol[i]]], t->tval[i]);
	free(pos);
	return 0;
}

static uint64_t
mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* --- strings ------------------------------------------------------------- */

struct strs {
	const char **s;
	size_t n, cap;
	/* text -> index + 1, open addressing on the pointers' text */
	uint32_t *h;
	size_t hcap;
};

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int
str_index(struct strs *st, const char *s, uint32_t *out)
{
	size_t i, h;

	if (2 * (st->n + 1) > st->hcap) {
		size_t ncap = st->hcap != 0 ? 2 * st->hcap : 1024;
		uint32_t *nh = calloc(ncap, sizeof(*nh));

		if (nh == NULL)
			return profconv__fail(PROFCONV_ENOMEM, "out of memory");
		for (i = 0; i < st->n; i++) {
			h = str_hash(st->s[i]) & (ncap - 1);
			while (nh[h] != 0)
				h = (h + 1) & (ncap - 1);
			nh[h] = (uint32_t)i + 1;
		}
		free(st->h);
		st->h = nh;
		st->hcap = ncap;
	}
	h = str_hash(s) & (st->hcap - 1);
	while (st->h[h] != 0) {
		if (strcmp(st->s[st->h[h] - 1], s) == 0) {
			*out = st->h[h] - 1;
			return 0;
		}
		h = (h + 1) & (st->hcap - 1);
	}
	if (PC_GROW(st->s, st->cap, st->n, 1) < 0)
		return PROFCONV_ENOMEM;
	st->s[st->n] = s;
	st->h[h] = (uint32_t)st->n + 1;
	*out = (uint32_t)st->n++;
	return 0;
}

/* --- frames shared by several views ------------------------------------------ */

/* The frames of every view a tree is made of, one per function, file
 * and line (the key), with those three kept for the page. */
struct gframes {
	struct strs keys;
	char **owned;		/* the keys, to free */
	const char **fn, **file;
	int64_t *line;
	size_t n, cap, fcap, lcap, ocap;
};

static void
gframes_free(struct gframes *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->owned[i]);
	free(g->owned);
	free(g->fn);
	free(g->file);
	free(g->line);
	free(g->keys.s);
	free(g->keys.h);
}

/* The shared id of frame ID of V (its strings must outlive G). */
static int
gframe(struct gframes *g, const struct profconv_view *v, uint32_t id,
    uint32_t *out)
{
	struct profconv_view_frame fr;
	const char *fn, *file;
	char *key, *clean = NULL;
	size_t len, klen, nfn, nfile;
	int rc;

	if ((rc = profconv_view_frame(v, id, &fr)) < 0)
		return rc;
	/* The function's name as the view by function names it (the
	 * address when there is no symbol); the file cleaned as the
	 * views by file clean it (and pprof: "/a/b/../c.c" is "/a/c.c"). */
	fn = fr.function[0] != '\0' ? fr.function : fr.name;
	file = fr.file;
	if (*file != '\0' && (file = clean = profconv__clean_path(file)) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	/* "FN\nFILE\nLINE", then copies of FN and FILE: the view may go
	 * before the page is written. */
	nfn = strlen(fn);
	nfile = strlen(file);
	len = 2 * (nfn + nfile) + 32;
	/* Room first, so that a failure leaves no key behind. */
	if (PC_GROW(g->owned, g->ocap, g->n, 1) < 0 ||
	    PC_GROW(g->fn, g->cap, g->n, 1) < 0 ||
	    PC_GROW(g->file, g->fcap, g->n, 1) < 0 ||
	    PC_GROW(g->line, g->lcap, g->n, 1) < 0) {
		free(clean);
		return PROFCONV_ENOMEM;
	}
	if ((key = malloc(len)) == NULL) {
		free(clean);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	klen = (size_t)snprintf(key, len, "%s\n%s\n%" PRId64, fn, file,
	    fr.line);
	if ((rc = str_index(&g->keys, key, out)) < 0 || *out < g->n) {
		free(key);
		free(clean);
		return rc < 0 ? rc : 0;
	}
	g->owned[g->n] = key;
	g->fn[g->n] = memcpy(key + klen + 1, fn, nfn + 1);
	g->file[g->n] = memcpy(key + klen + 1 + nfn + 1, file, nfile + 1);
	g->line[g->n] = fr.line;
	g->n++;
	free(clean);
	return 0;
}

/*
 * Add V's stacks to T: with TI == SIZE_MAX every sample type K into
 * column K, or with COLS each of V's COL types K into column COLS[K]
 * (none when SIZE_MAX); else sample type TI into column COL.
 */
static int
tree_add(struct tree *t, struct gframes *g, const struct profconv_view *v,
    size_t ti, size_t col, const size_t *cols)
{
	size_t i, j, k, n = profconv_view_stack_count(v);
	size_t nf = profconv_view_frame_count(v);
	struct profconv_view_stack s;
	uint32_t node, *map;
	int rc = 0;

	if (t->n == 0 && (rc = node_add(t, 0, 0, &node)) < 0)
		return rc;
	/* frame id -> shared id + 1 */
	if ((map = calloc(nf + 1, sizeof(*map))) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	for (i = 0; i < n && rc == 0; i++) {
		if ((rc = profconv_view_stack(v, i, &s)) < 0)
			break;
		node = 0;
		for (j = 0; j < s.nframes && rc == 0; j++) {
			uint32_t f = s.frames[j], gid = 0;

			if (map[f] == 0) {
				if ((rc = gframe(g, v, f, &gid)) < 0)
					break;
				map[f] = gid + 1;
			}
			rc = child(t, node, map[f] - 1, &node);
		}
		if (rc < 0)
			break;
		if (ti == SIZE_MAX && cols != NULL) {
			for (k = 0; k < col; k++)
				if (cols[k] != SIZE_MAX)
					pc_add_sat(&t->self[node * t->nt +
					    cols[k]], s.values[k]);
		} else if (ti == SIZE_MAX) {
			for (k = 0; k < t->nt; k++)
				pc_add_sat(&t->self[node * t->nt + k],
				    s.values[k]);
		} else if (s.values[ti] != 0) {
			if (PC_GROW(t->tnode, t->tncap, t->tn, 1) < 0 ||
			    PC_GROW(t->tcol, t->tccap, t->tn, 1) < 0 ||
			    PC_GROW(t->tval, t->tvcap, t->tn, 1) < 0) {
				rc = PROFCONV_ENOMEM;
				break;
			}
			t->tnode[t->tn] = node;
			t->tcol[t->tn] = (uint32_t)col;
			t->tval[t->tn++] = s.values[ti];
		}
	}
	free(map);
	return rc;
}

/* --- JSON safe inside <script> -------------------------------------------- */

/* A JSON string whose '<', '>' and '&' are \u escapes. */
static void
json_str(FILE *fp, const char *s)
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL) {
		fputs("\"\"", fp);	/* the caller sees ferror at the end */
		return;
	}
	profconv__json_cstr(m, s);
	if (fclose(m) != 0 || buf == NULL) {
		free(buf);
		fputs("\"\"", fp);
		return;
	}
	for (p = buf; p < buf + len; p++) {
		if (*p == '<')
			fputs("\\u003c", fp);
		else if (*p == '>')
			fputs("\\u003e", fp);
		else if (*p == '&')
			fputs("\\u0026", fp);
		else
			putc(*p, fp);
	}
	free(buf);
}

/* --- the page's data -------------------------------------------------------- */

struct out {
	size_t n;		/* kept nodes */
	uint32_t *map;		/* old node -> kept node it counts in */
	bool *kept;
	int64_t *cum;		/* old nodes, n * nt */
	int64_t *dropped_sum;	/* per type */
	size_t dropped;
	double fraction;	/* the cut applied; negative: none */
};

static int
by_share_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

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
		v = (double)mag(o->cum[i * t->nt + k]) / (double)mag(total[k]);
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
	qsort(s, t->n - 1, sizeof(*s), by_share_desc);
	*cut = s[budget];
	free(s);
	return 0;
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
		bool keep = i == 0;

		if (i != 0 && o->kept[t->parent[i]])
			keep = o->fraction < 0 ||
			    share(t, o, total, i) > o->fraction;
		o->kept[i] = keep;
		if (keep) {
			o->map[i] = (uint32_t)o->n++;
		} else {
			o->map[i] = o->map[t->parent[i]];
			o->dropped++;
			for (k = 0; k < nt; k++)
				pc_add_sat(&o->dropped_sum[k],
				    t->self[i * nt + k]);
		}
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
};

static int
write_json(FILE *fp, const struct gframes *g, struct tree *t,
    const struct cols *c, const int64_t *total, size_t def, struct out *o)
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
	rc = str_index(&st, "", &dummy);
	for (i = 0; i < t->n && rc == 0; i++) {
		int64_t *to = o->kept[i] ? self : pruned;

		j = o->map[i];
		for (k = 0; k < nt; k++)
			pc_add_sat(&to[j * nt + k], t->self[i * nt + k]);
		if (!o->kept[i] || i == 0)
			continue;
		rc = str_index(&st, g->fn[t->frame[i]], &fn[j]);
		if (rc == 0)
			rc = str_index(&st, g->file[t->frame[i]], &file[j]);
		line[j] = g->line[t->frame[i]];
	}
	if (rc < 0)
		goto out;

	fputs("<script type=\"application/json\" id=\"live-data\">{", fp);
	fputs("\"types\":[", fp);
	for (k = 0; k < nt; k++) {
		fputs(k != 0 ? ",{\"type\":" : "{\"type\":", fp);
		json_str(fp, c->label[k]);
		fputs(",\"unit\":", fp);
		json_str(fp, c->unit[k]);
		fputs("}", fp);
	}
	fprintf(fp, "],\n\"series\":%s,\"diff\":%s,\"default\":%zu,"
	    "\"fraction\":%.6g,\n", c->series ? "true" : "false",
	    c->diff ? "true" : "false", def,
	    isfinite(fraction) && fraction > 0 ? fraction : 0);
	put_ints(fp, "total", total, nt, 1);
	fprintf(fp, ",\n\"dropped\":{\"nodes\":%zu,", o->dropped);
	put_ints(fp, "sum", o->dropped_sum, nt, 1);
	fputs(",\"cut\":[", fp);
	for (k = 0; k < nt; k++)
		fprintf(fp, "%s%" PRId64, k != 0 ? "," : "",
		    fraction < 0 ? 0 : (int64_t)(fraction *
		    (double)mag(total[k])));
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
		json_str(fp, line_buf);
		if (o->dropped > 0 && fraction >= 0) {
			profconv__measure_label(cb, sizeof(cb),
			    (int64_t)(fraction * (double)mag(total[k])),
			    c->unit[k], "minimum");
			snprintf(line_buf, sizeof(line_buf), "Dropped %zu "
			    "node%s (cum <= %s)", o->dropped,
			    o->dropped > 1 ? "s" : "", cb);
			fputs(",", fp);
			json_str(fp, line_buf);
		}
		fputs("]", fp);
	}
	fputs("],\n\"strings\":[", fp);
	for (i = 0; i < st.n; i++) {
		if (i != 0)
			putc(',', fp);
		json_str(fp, st.s[i]);
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
	fputs("}</script>\n", fp);
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

	if (t->n == 0 && (rc = node_add(t, 0, 0, &(uint32_t){ 0 })) < 0)
		return rc;
	if ((rc = prune(t, total, fraction, budget, &po)) == 0)
		rc = write_json(fp, g, t, c, total, def, &po);
	free(po.map);
	free(po.kept);
	free(po.cum);
	free(po.dropped_sum);
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

int
profconv__report_data(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def)
{
	struct profconv_view *v = NULL;
	struct profconv_value_type vt;
	struct gframes g = { 0 };
	struct tree t = { 0 };
	const char **label = NULL, **unit = NULL;
	int64_t *total = NULL;
	size_t k, nt = profconv_profile_sample_type_count(prof);
	int rc;

	if ((rc = data_view(&v, prof, vo)) < 0)
		return rc;
	t.nt = nt;
	total = calloc(nt + 1, sizeof(*total));
	label = calloc(nt + 1, sizeof(*label));
	unit = calloc(nt + 1, sizeof(*unit));
	if (total == NULL || label == NULL || unit == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < nt; k++) {
		profconv_view_total(v, k, &total[k]);
		profconv_profile_sample_type(prof, k, &vt);
		label[k] = vt.type;
		unit[k] = vt.unit;
	}
	if ((rc = tree_add(&t, &g, v, SIZE_MAX, 0, NULL)) == 0)
		rc = emit(fp, &t, &g, &(struct cols){ label, unit, false, false },
		    total, fraction, budget, def);
out:
	free(total);
	free(label);
	free(unit);
	tree_free(&t);
	gframes_free(&g);
	profconv_view_free(v);
	return rc;
}

/*
 * BASE and PROF in one tree (the same node for the same path; 0 where
 * a path is in one only): columns 0..NT-1 the base's values of PROF's
 * NT sample types (those it has, by name), NT..2NT-1 PROF's.
 */
static int
report_data_diff(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def)
{
	struct profconv_view *v = NULL, *bv = NULL;
	struct profconv_value_type vt;
	struct gframes g = { 0 };
	struct tree t = { 0 };
	const char **label = NULL, **unit = NULL;
	int64_t *total = NULL;
	size_t k, nt = profconv_profile_sample_type_count(prof);
	size_t nb = profconv_profile_sample_type_count(base);
	size_t *bcols = NULL, *ccols = NULL;
	int rc;

	if ((rc = data_view(&v, prof, vo)) < 0 ||
	    (rc = data_view(&bv, base, vo)) < 0)
		goto out;
	t.nt = 2 * nt;
	total = calloc(2 * nt + 1, sizeof(*total));
	label = calloc(2 * nt + 1, sizeof(*label));
	unit = calloc(2 * nt + 1, sizeof(*unit));
	bcols = calloc(nb + 1, sizeof(*bcols));
	ccols = calloc(nt + 1, sizeof(*ccols));
	if (total == NULL || label == NULL || unit == NULL || bcols == NULL ||
	    ccols == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < nb; k++)
		bcols[k] = SIZE_MAX;
	for (k = 0; k < nt; k++) {
		int bk;

		profconv_profile_sample_type(prof, k, &vt);
		label[k] = label[nt + k] = vt.type;
		unit[k] = unit[nt + k] = vt.unit;
		ccols[k] = nt + k;
		profconv_view_total(v, k, &total[nt + k]);
		bk = profconv_profile_sample_type_index(base, vt.type);
		if (bk >= 0) {
			bcols[bk] = k;
			profconv_view_total(bv, (size_t)bk, &total[k]);
		}
	}
	if ((rc = tree_add(&t, &g, bv, SIZE_MAX, nb, bcols)) == 0 &&
	    (rc = tree_add(&t, &g, v, SIZE_MAX, nt, ccols)) == 0)
		rc = emit(fp, &t, &g, &(struct cols){ label, unit, false,
		    true }, total, fraction, budget, def);
out:
	free(total);
	free(label);
	free(unit);
	free(bcols);
	free(ccols);
	tree_free(&t);
	gframes_free(&g);
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
	tree_free(&s->t);
	gframes_free(&s->g);
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
		rc = tree_add(&s->t, &s->g, v, (size_t)k, s->n, NULL);
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
	const char **label = NULL, **unit = NULL;
	int64_t *total = NULL;
	size_t *col = NULL, *pick = NULL, i, j, nc = 0, k;
	bool *used = NULL;
	int rc = 0;

	if (s->n == 0)
		return 0;
	label = calloc(s->n, sizeof(*label));
	unit = calloc(s->n, sizeof(*unit));
	total = calloc(s->n, sizeof(*total));
	col = calloc(s->n, sizeof(*col));
	pick = calloc(s->n, sizeof(*pick));
	used = calloc(s->n, sizeof(*used));
	if (label == NULL || unit == NULL || total == NULL || col == NULL ||
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
		total[i] = s->total[col[i]];
	/* At most PC_REPORT_SERIES_POINTS of them, as the picture picks. */
	k = profconv__report_series_pick(total, nc, pick);
	for (i = 0; i < k; i++) {
		col[i] = col[pick[i]];
		label[i] = s->names[col[i]];
		unit[i] = s->units[col[i]];
		total[i] = s->total[col[i]];
	}
	/* And at most PC_REPORT_SERIES_CELLS values: fewer nodes the more
	 * snapshots. */
	if (k > 0 && (budget == 0 || budget > PC_REPORT_SERIES_CELLS / k))
		budget = PC_REPORT_SERIES_CELLS / k;
	if (k > 0 && (rc = tree_columns(&s->t, col, k, s->n)) == 0)
		rc = emit(fp, &s->t, &s->g, &(struct cols){ label, unit, true,
		    false },
		    total, fraction, budget, k - 1);
out:
	free(label);
	free(unit);
	free(total);
	free(col);
	free(pick);
	free(used);
	return rc;
}

/* --- the Explore tab ------------------------------------------------------- */

static const char live_style[] =
	"<style>\n"
	"#live-controls label { margin-right: 1em; }\n"
	"#live-error { color: #b00; }\n"
	"table.live { border-collapse: collapse; font-family: monospace; }\n"
	"table.live th { cursor: pointer; text-align: right; padding: 0 .6em;"
	" border-bottom: 1px solid #999; user-select: none; }\n"
	"table.live th.name, table.live td.name { text-align: left; }\n"
	"table.live td { text-align: right; padding: 0 .6em;"
	" white-space: pre; }\n"
	"table.live th.asc::after { content: \" \\25B2\"; }\n"
	"table.live th.desc::after { content: \" \\25BC\"; }\n"
	"table.live tr:nth-child(even) td { background: #f4f4f4; }\n"
	"#live-flame-box { position: relative; overflow-x: auto; }\n"
	"#live-flame { display: block; background: #f8f8f0; }\n"
	"#live-flame text { font: 12px monospace; fill: #000;"
	" pointer-events: none; }\n"
	"#live-flame g.lf { cursor: pointer; }\n"
	"#live-tip { position: absolute; background: #ffd; border: 1px solid"
	" #999; padding: 2px 4px; font: 12px monospace; pointer-events: none;"
	" white-space: pre; }\n"
	"</style>\n";

static const char live_body[] =
	"<div id=\"live-controls\">"
	"<label>Sample type <select id=\"live-type\"></select></label>"
	"<label>Focus <input id=\"live-focus\" type=\"text\" size=\"20\""
	" placeholder=\"regex\"></label>"
	"<label>Ignore <input id=\"live-ignore\" type=\"text\" size=\"20\""
	" placeholder=\"regex\"></label>"
	"<span id=\"live-error\"></span></div>\n"
	"<p class=\"note\" id=\"live-prune\"></p>\n"
	"<p id=\"live-total\"></p>\n"
	"<h2>Top</h2>\n"
	"<p><label>By <select id=\"live-by\"><option value=\"function\">"
	"function</option><option value=\"line\">line</option>"
	"<option value=\"file\">file</option></select></label> "
	"<span class=\"note\" id=\"live-top-note\"></span></p>\n";

static const char live_flame[] =
	"<h2>Flame graph</h2>\n"
	"<p><label><input type=\"checkbox\" id=\"live-icicle\"> icicle "
	"(root at the top)</label> <label>Search <input id=\"live-search\""
	" type=\"text\" size=\"20\" placeholder=\"regex\"></label> "
	"<button type=\"button\" id=\"live-reset\">Reset zoom</button> "
	"<span id=\"live-matched\"></span></p>\n"
	"<p class=\"note\">Frames narrower than half a pixel are left to "
	"their parent. Click a frame to zoom; hover for its value.</p>\n"
	"<div id=\"live-flame-box\"><svg id=\"live-flame\" "
	"xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" "
	"height=\"16\"></svg><div id=\"live-tip\" hidden></div></div>\n";

static void
live_open(FILE *fp, size_t top, bool diff)
{
	fputs("<section class=\"tab\" id=\"live\">\n", fp);
	fputs(live_style, fp);
	fputs(live_body, fp);
	fprintf(fp, "<table class=\"live\" id=\"live-top\" data-top=\"%zu\">"
	    "<thead><tr>%s<th class=\"name\">name</th></tr>"
	    "</thead><tbody></tbody></table>\n", top, diff ?
	    "<th>base</th><th>current</th><th>\xce\x94</th>"
	    "<th>\xce\x94%</th>" :
	    "<th>flat</th><th>flat%</th><th>sum%</th><th>cum</th>"
	    "<th>cum%</th>");
	fputs(live_flame, fp);
}

static void
live_close(FILE *fp)
{
	fputs("<script>\n", fp);
	fputs(profconv__report_script, fp);
	fputs("</script>\n</section>\n", fp);
}

int
profconv__report_live(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, size_t top)
{
	int rc;

	live_open(fp, top, base != NULL);
	if (base != NULL)
		rc = report_data_diff(fp, base, prof, vo, fraction, budget,
		    def);
	else
		rc = profconv__report_data(fp, prof, vo, fraction, budget,
		    def);
	if (rc < 0)
		return rc;
	live_close(fp);
	return 0;
}

int
profconv__report_live_series(FILE *fp, struct profconv_report_series *s,
    const char *const *order, size_t n, double fraction, size_t budget,
    size_t top)
{
	int rc;

	live_open(fp, top, false);
	rc = profconv__report_data_series(fp, s, order, n, fraction, budget);
	if (rc < 0)
		return rc;
	live_close(fp);
	return 0;
}

const char profconv__report_script[] =
#include "report/report_script.h"
	;
