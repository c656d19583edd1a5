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
 * every sample type is dropped with its subtree, its values added to
 * the self of its nearest kept ancestor, so totals stay whole and the
 * page can say what it left out in pprof's words.  A node budget raises
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
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "model/model.h"
#include "view/view.h"
#include "view/graph.h"
#include "write/write.h"
#include "report/report_data.h"

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
}

static int
tree_build(struct tree *t, const struct profconv_view *v)
{
	size_t i, j, k, n = profconv_view_stack_count(v);
	struct profconv_view_stack s;
	uint32_t node, root;
	int rc;

	if ((rc = node_add(t, 0, 0, &root)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if ((rc = profconv_view_stack(v, i, &s)) < 0)
			return rc;
		node = root;
		for (j = 0; j < s.nframes; j++)
			if ((rc = child(t, node, s.frames[j], &node)) < 0)
				return rc;
		for (k = 0; k < t->nt; k++)
			pc_add_sat(&t->self[node * t->nt + k], s.values[k]);
	}
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

static int
write_json(FILE *fp, const struct profconv_view *v, struct tree *t,
    const int64_t *total, size_t def, struct out *o)
{
	double fraction = o->fraction;
	const struct profconv_profile *prof = profconv_view_profile(v);
	struct strs st = { 0 };
	struct profconv_view_frame fr;
	struct profconv_value_type vt;
	uint32_t *fn = NULL, *file = NULL;
	int64_t *self = NULL, *line = NULL;
	size_t i, k, nt = t->nt, j;
	uint32_t dummy;
	int rc = 0;

	fn = calloc(o->n, sizeof(*fn));
	file = calloc(o->n, sizeof(*file));
	line = calloc(o->n, sizeof(*line));
	self = calloc(o->n * nt, sizeof(*self));
	if (fn == NULL || file == NULL || line == NULL || self == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	rc = str_index(&st, "", &dummy);
	for (i = 0; i < t->n && rc == 0; i++) {
		j = o->map[i];
		for (k = 0; k < nt; k++)
			pc_add_sat(&self[j * nt + k], t->self[i * nt + k]);
		if (!o->kept[i] || i == 0)
			continue;
		if ((rc = profconv_view_frame(v, t->frame[i], &fr)) < 0)
			break;
		/* The function's name as the view by function names it
		 * (the address when there is no symbol). */
		rc = str_index(&st, fr.function[0] != '\0' ? fr.function :
		    fr.name, &fn[j]);
		if (rc == 0)
			rc = str_index(&st, fr.file, &file[j]);
		line[j] = fr.line;
	}
	if (rc < 0)
		goto out;

	fputs("<script type=\"application/json\" id=\"live-data\">{", fp);
	fputs("\"types\":[", fp);
	for (k = 0; k < nt; k++) {
		profconv_profile_sample_type(prof, k, &vt);
		fputs(k != 0 ? ",{\"type\":" : "{\"type\":", fp);
		json_str(fp, vt.type);
		fputs(",\"unit\":", fp);
		json_str(fp, vt.unit);
		fputs("}", fp);
	}
	fprintf(fp, "],\n\"default\":%zu,\"fraction\":%.6g,\n", def,
	    fraction < 0 ? 0 : fraction);
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
		char a[64], b[64], c[64], p[32], line_buf[320];
		int64_t shown = total[k] - o->dropped_sum[k];

		profconv_profile_sample_type(prof, k, &vt);
		profconv__measure_label(a, sizeof(a), shown, vt.unit,
		    "minimum");
		profconv__measure_label(b, sizeof(b), total[k], vt.unit,
		    "minimum");
		profconv__measure_percent(p, sizeof(p), shown, total[k]);
		snprintf(line_buf, sizeof(line_buf), "Showing nodes "
		    "accounting for %s, %s of %s total", a, p, b);
		fputs(k != 0 ? ",[" : "[", fp);
		json_str(fp, line_buf);
		if (o->dropped > 0 && fraction >= 0) {
			profconv__measure_label(c, sizeof(c), (int64_t)(fraction *
			    (double)mag(total[k])), vt.unit, "minimum");
			snprintf(line_buf, sizeof(line_buf), "Dropped %zu "
			    "node%s (cum <= %s)", o->dropped,
			    o->dropped > 1 ? "s" : "", c);
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
	fputs(",\n\"self\":[", fp);
	for (k = 0; k < nt; k++) {
		fputs(k != 0 ? ",\n{" : "{", fp);
		/* Sparse: most nodes hold nothing of their own. */
		fputs("\"i\":[", fp);
		for (j = 0, i = 0; j < o->n; j++)
			if (self[j * nt + k] != 0)
				fprintf(fp, "%s%zu", i++ != 0 ? "," : "", j);
		fputs("],\"v\":[", fp);
		for (j = 0, i = 0; j < o->n; j++)
			if (self[j * nt + k] != 0)
				fprintf(fp, "%s%" PRId64, i++ != 0 ? "," : "",
				    self[j * nt + k]);
		fputs("]}", fp);
	}
	fputs("]}</script>\n", fp);
out:
	free(fn);
	free(file);
	free(line);
	free(self);
	free(st.s);
	free(st.h);
	return rc;
}

int
profconv__report_data(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def)
{
	struct profconv_view_options o;
	struct profconv_view *v = NULL;
	struct tree t = { 0 };
	struct out po = { 0 };
	int64_t *total = NULL;
	size_t k;
	int rc;

	if ((rc = profconv__options_take(&o, vo, &profconv__options_view)) < 0)
		return rc;
	if (o.granularity == PROFCONV_BY_FUNCTION)
		o.granularity = PROFCONV_BY_LINE;
	if ((rc = profconv_view_new(&v, prof, &o)) < 0)
		return rc;
	t.nt = profconv_profile_sample_type_count(prof);
	total = calloc(t.nt != 0 ? t.nt : 1, sizeof(*total));
	if (total == NULL) {
		rc = profconv__fail(PROFCONV_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < t.nt; k++)
		profconv_view_total(v, k, &total[k]);
	if ((rc = tree_build(&t, v)) < 0)
		goto out;
	if ((rc = prune(&t, total, fraction, budget, &po)) < 0)
		goto out;
	rc = write_json(fp, v, &t, total, def, &po);
out:
	free(po.map);
	free(po.kept);
	free(po.cum);
	free(po.dropped_sum);
	free(total);
	tree_free(&t);
	profconv_view_free(v);
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

int
profconv__report_live(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, size_t top)
{
	int rc;

	fputs("<section class=\"tab\" id=\"live\">\n", fp);
	fputs(live_style, fp);
	fputs(live_body, fp);
	fprintf(fp, "<table class=\"live\" id=\"live-top\" data-top=\"%zu\">"
	    "<thead><tr><th>flat</th><th>flat%%</th><th>sum%%</th>"
	    "<th>cum</th><th>cum%%</th><th class=\"name\">name</th></tr>"
	    "</thead><tbody></tbody></table>\n", top);
	fputs(live_flame, fp);
	if ((rc = profconv__report_data(fp, prof, vo, fraction, budget, def)) < 0)
		return rc;
	fputs("<script>\n", fp);
	fputs(profconv__report_script, fp);
	fputs("</script>\n</section>\n", fp);
	return 0;
}

const char profconv__report_script[] =
#include "report/report_script.h"
	;
