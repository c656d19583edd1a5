/* SPDX-License-Identifier: MIT */
/*
 * test_report_data_json.c - the report page's data (lib/report/
 * report_data_json.c): the tree of a profile pruned at a fraction or a
 * node budget and written as JSON with pprof's statements, and the
 * series' columns, on profiles built by hand.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "report/report_data.h"
#include "report/report_tree.h"
#include "report_fixture.h"

TestSuite(report_data_json, .fini = teardown);

/* The Explore tab's data: every type's total and self values, names
 * escaped for a <script> element; nothing dropped by default. */
static void
live_data(void)
{
	profile(&a, 30);
	cr_assert(eq(int, page(a, NULL, NULL), 0));
	cr_expect(eq(sz, count(out, "<script type=\"application/json\" "
	    "id=\"live-data\">"), 1));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[45,4500]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"\\u003cb\\u003ex\\u003c/b"
	    "\\u003e\""))));
	cr_expect(not(zero(ptr, strstr(out, "\"dropped\":{\"nodes\":0,"))));
	cr_expect(not(zero(ptr, strstr(out, "\"Showing nodes accounting for "
	    "4.39kB, 100% of 4.39kB total\""))));
	/* Nodes: the root, main, and grow and <b>x</b> under main. */
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1,0,1,1]"))));
	teardown();
}

/* One node kept: grow and <b>x</b> go to main's self, and the page
 * says so in pprof's words. */
static void
live_budget(void)
{
	struct profconv_report_options o = PROFCONV_REPORT_OPTIONS_INIT;

	profile(&a, 30);
	o.tree_nodes = 1;
	cr_assert(eq(int, page(a, NULL, &o), 0));
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1,0]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"dropped\":{\"nodes\":2,"
	    "\"sum\":[40,4000]"))));
	cr_expect(not(zero(ptr, strstr(out, "\"Dropped 2 nodes (cum "
	    "\\u003c= "))));
	cr_expect(not(zero(ptr, strstr(out, "\"Showing nodes accounting for "
	    "500B, 11.11% of 4.39kB total\""))));
	teardown();
}

/* The page's live data: the whole tree by default, or one node kept.
 * Each case frees what it made (teardown()). */
Test(report_data_json, live_data_on_the_page)
{
	live_data();
	live_budget();
}

/* A series: one column per snapshot of its space values (there is no
 * inuse_space), in the order asked for; the profiles may go after
 * they are added. */
Test(report_data_json, series_columns)
{
	const char *order[] = { "b", "a" };
	struct profconv_report_series *s = NULL;
	size_t len = 0;
	FILE *fp;

	profile(&a, 20);
	profile(&b, 30);
	cr_assert(eq(int, profconv_report_series_new(&s, NULL), 0));
	cr_assert(eq(int, profconv_report_series_add(s, a, "a"), 0));
	cr_assert(eq(int, profconv_report_series_add(s, b, "b"), 0));
	profconv_profile_free(a);
	a = NULL;
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv__report_data_series(fp, s, order, 2, -1,
	    100), 0));
	fclose(fp);
	cr_expect(not(zero(ptr, strstr(out, "\"series\":true"))));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[4500,3500]"))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"b\",\"unit\":"
	    "\"bytes\"},{\"type\":\"a\""))));
	profconv_report_series_free(s);
	cr_expect(eq(int, profconv_report_series_add(NULL, b, "c"),
	    PROFCONV_EINVAL));
}

/* A long series: of 1200 snapshots the data holds 500 columns, the
 * first, the last and the peak among them, in order, those the
 * picture's pick gives for the same totals. */
Test(report_data_json, series_bounded)
{
	static char names[1200][8];
	const char *order[1200];
	struct profconv_report_series *s = NULL;
	struct profconv_profile *p;
	size_t len = 0, i, cols, pick[1200];
	int64_t total[1200];
	char *types;
	FILE *fp;

	cr_assert(eq(int, profconv_report_series_new(&s, NULL), 0));
	for (i = 0; i < 1200; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		order[i] = names[i];
		profile(&p, i == 777 ? 100000 : (int64_t)(i % 50) + 1);
		cr_assert(eq(int, profconv_report_series_add(s, p, names[i]),
		    0));
		profconv_profile_free(p);
	}
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_expect(eq(int, profconv__report_data_series(fp, s, order, 1200,
	    -1, 0), 0));
	fclose(fp);
	profconv_report_series_free(s);
	types = strstr(out, "\"types\":[");
	cr_assert(not(zero(ptr, types)));
	cols = count(types, "{\"type\":");
	cr_expect(eq(sz, cols, PC_REPORT_SERIES_POINTS));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s0\","))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s777\","))));
	cr_expect(not(zero(ptr, strstr(out, "{\"type\":\"s1199\","))));
	cr_expect(lt(ptr, strstr(out, "{\"type\":\"s0\","),
	    strstr(out, "{\"type\":\"s777\",")));
	/* The same picks as the picture's, of the same totals. */
	for (i = 0; i < 1200; i++)
		total[i] = i == 777 ? 100000 * 100 + 1500 :
		    (int64_t)((i % 50) + 1) * 100 + 1500;
	cr_expect(eq(sz, profconv__report_series_pick(total, 1200, pick),
	    PC_REPORT_SERIES_POINTS));
	cr_expect(eq(sz, pick[0], 0));
	cr_expect(eq(sz, pick[PC_REPORT_SERIES_POINTS - 1], 1199));
	for (i = 1; i < PC_REPORT_SERIES_POINTS; i++) {
		char want[32];

		cr_expect(gt(sz, pick[i], pick[i - 1]));
		snprintf(want, sizeof(want), "{\"type\":\"s%zu\",", pick[i]);
		cr_expect(not(zero(ptr, strstr(out, want))), "%s", want);
	}
}

/*
 * The data to the byte, with no budget (the whole tree, pruned here):
 * at a fraction of 0.25, <b>x</b> (10 of 45 objects, 1000 of 4500
 * bytes: 0.22 of each) is dropped; its values go to main's "pruned",
 * never to its self.  The cut is 0.25 of each total (11, 1125 bytes),
 * and the statements are pprof's, its byte labels in kB of 1024
 * (3500 is 3.42kB, 4500 4.39kB, 1125 1.10kB).
 */
static void
pruned_at_a_fraction(void)
{
	profile(&a, 30);
	CAPTURE(out, profconv__report_data(fp, a, NULL, 0.25, 0, 1));
	cr_expect(eq(str, out,
	    "<script type=\"application/json\" id=\"live-data\">{"
	    "\"types\":[{\"type\":\"objects\",\"unit\":\"count\"},"
	    "{\"type\":\"space\",\"unit\":\"bytes\"}],\n"
	    "\"series\":false,\"diff\":false,\"default\":1,"
	    "\"fraction\":0.25,\n"
	    "\"total\":[45,4500],\n"
	    "\"dropped\":{\"nodes\":1,\"sum\":[10,1000],\"cut\":[11,1125]},\n"
	    "\"statement\":[[\"Showing nodes accounting for 35, 77.78% of 45 "
	    "total\",\"Dropped 1 node (cum \\u003c= 11)\"],"
	    "[\"Showing nodes accounting for 3.42kB, 77.78% of 4.39kB "
	    "total\",\"Dropped 1 node (cum \\u003c= 1.10kB)\"]],\n"
	    "\"strings\":[\"\",\"main\",\"grow\"],\n"
	    "\"parent\":[-1,0,1],\n"
	    "\"func\":[0,1,2],\n"
	    "\"file\":[0,0,0],\n"
	    "\"line\":[0,1,1],\n"
	    "\"self\":[{\"i\":[1,2],\"v\":[5,30]},\n"
	    "{\"i\":[1,2],\"v\":[500,3000]}],\n"
	    "\"pruned\":[{\"i\":[1],\"v\":[10]},\n"
	    "{\"i\":[1],\"v\":[1000]}]}</script>\n"));
	teardown();
}

/* The same profile against a base with grow at 20: one tree, the
 * base's values in the first two columns, the current in the last
 * two; the statement of the change. */
static void
change_from_a_base(void)
{
	profile(&a, 20);
	profile(&b, 30);
	CAPTURE(out, profconv__report_data_diff(fp, a, b, NULL, -1, 0, 1));
	cr_expect(not(zero(ptr, strstr(out, "\"diff\":true"))), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[35,3500,45,4500]"))),
	    "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1,0,1,1]"))),
	    "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"dropped\":{\"nodes\":0,"))),
	    "%s", out);
	teardown();
}

/* A profile without samples: the root alone, totals of 0, nothing
 * dropped, no fraction of nothing. */
static void
empty_profile(void)
{
	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "objects", "count");
	CAPTURE(out, profconv__report_data(fp, a, NULL, 0.5, 0, 0));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[0],\n"
	    "\"dropped\":{\"nodes\":0,\"sum\":[0],\"cut\":[0]}"))), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"parent\":[-1],"))), "%s", out);
	cr_expect(zero(ptr, strstr(out, "nan")));
	teardown();
}

/* The tree's data written on its own: pruned at a fraction, against a
 * base, and of a profile without samples.  Each case frees what it made
 * (teardown()). */
Test(report_data_json, tree_data_written)
{
	pruned_at_a_fraction();
	change_from_a_base();
	empty_profile();
}

/* --- a series' tree pruned a column at a time ---------------------------- */

static int
by_desc(const void *a_, const void *b_)
{
	double x = *(const double *)a_, y = *(const double *)b_;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The whole matrix, as the page pruned a series before: each node's own
 * values (its triples' sums in triple order), their sums up the tree,
 * the (BUDGET + 1)-th largest share by a sort, the nodes kept, and the
 * own values of each node into the kept node it counts in, in node
 * order.  Into O (its arrays malloc'ed), SELF and PRUNED.
 */
static void
dense_prune(const struct tree *t, const size_t *col, size_t k, size_t all,
    const int64_t *total, double fraction, size_t budget, struct out *o,
    int64_t **self, int64_t **pruned)
{
	size_t n = t->n, i, c, j;
	int64_t *own = calloc(n * k + 1, sizeof(*own));
	int64_t *cum = calloc(n * k + 1, sizeof(*cum));
	double *share = calloc(n + 1, sizeof(*share)), *s, cut = -1;

	cr_assert(own != NULL);
	cr_assert(cum != NULL);
	cr_assert(share != NULL);
	memset(o, 0, sizeof(*o));
	for (i = 0; i < t->tn; i++)
		for (c = 0; c < k; c++)
			if (col[c] == t->tcol[i])
				pc_add_sat(&own[t->tnode[i] * k + c],
				    t->tval[i]);
	(void)all;
	memcpy(cum, own, n * k * sizeof(*cum));
	for (i = n; i-- > 1;)
		for (c = 0; c < k; c++)
			pc_add_sat(&cum[t->parent[i] * k + c], cum[i * k + c]);
	for (i = 1; i < n; i++)
		for (c = 0; c < k; c++) {
			double v;

			if (total[c] == 0)
				continue;
			v = (double)profconv__report_mag(cum[i * k + c]) /
			    (double)profconv__report_mag(total[c]);
			if (v > share[i])
				share[i] = v;
		}
	if (budget != 0 && n - 1 > budget) {
		s = malloc(n * sizeof(*s));
		cr_assert(s != NULL);
		memcpy(s, share + 1, (n - 1) * sizeof(*s));
		qsort(s, n - 1, sizeof(*s), by_desc);
		cut = s[budget];
		free(s);
	}
	o->fraction = cut > fraction ? cut : fraction;
	o->map = calloc(n + 1, sizeof(*o->map));
	o->kept = calloc(n + 1, sizeof(*o->kept));
	o->dropped_sum = calloc(k + 1, sizeof(*o->dropped_sum));
	cr_assert(o->map != NULL);
	cr_assert(o->kept != NULL);
	cr_assert(o->dropped_sum != NULL);
	for (i = 0; i < n; i++) {
		o->kept[i] = i == 0 || (o->kept[t->parent[i]] &&
		    (o->fraction < 0 || share[i] > o->fraction));
		if (o->kept[i]) {
			o->map[i] = (uint32_t)o->n++;
		} else {
			o->map[i] = o->map[t->parent[i]];
			o->dropped++;
			for (c = 0; c < k; c++)
				pc_add_sat(&o->dropped_sum[c], own[i * k + c]);
		}
	}
	*self = calloc(o->n * k + 1, sizeof(**self));
	*pruned = calloc(o->n * k + 1, sizeof(**pruned));
	cr_assert(not(zero(ptr, *self)));
	cr_assert(not(zero(ptr, *pruned)));
	for (i = 0; i < n; i++) {
		j = o->map[i];
		for (c = 0; c < k; c++)
			pc_add_sat(&(o->kept[i] ? *self : *pruned)[j * k + c],
			    own[i * k + c]);
	}
	free(own);
	free(cum);
	free(share);
}

/* A random tree of N nodes (a parent before each child) and NT triples
 * over ALL columns; with HUGE, values near the int64 bounds, which
 * saturate, of both signs. */
static void
random_series_tree(struct tree *t, size_t n, size_t nt, size_t all,
    bool huge, uint64_t *r)
{
	uint32_t node;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		*r ^= *r << 13;
		*r ^= *r >> 7;
		*r ^= *r << 17;
		cr_assert(eq(int, profconv__report_node_add(t, i == 0 ? 0 :
		    (uint32_t)(i - 1 - *r % (i < 8 ? i : 8)), (uint32_t)i,
		    &node), 0));
	}
	t->tnode = malloc(nt * sizeof(*t->tnode));
	t->tcol = malloc(nt * sizeof(*t->tcol));
	t->tval = malloc(nt * sizeof(*t->tval));
	cr_assert(t->tnode != NULL);
	cr_assert(t->tcol != NULL);
	cr_assert(t->tval != NULL);
	for (i = 0; i < nt; i++) {
		*r ^= *r << 13;
		*r ^= *r >> 7;
		*r ^= *r << 17;
		t->tnode[i] = (uint32_t)(*r % n);
		t->tcol[i] = (uint32_t)((*r >> 20) % all);
		t->tval[i] = huge ? (int64_t)(*r >> 1) * ((*r & 1) ? -1 : 1) :
		    (int64_t)((*r >> 30) % 1000);
	}
	t->tn = t->tncap = t->tccap = t->tvcap = nt;
}

/*
 * The pruning a column at a time keeps the nodes, and writes the values
 * and what was dropped, that the whole matrix does: on random trees,
 * with columns left out and reordered, a column whose total is 0,
 * fractions and budgets that cut or keep all, values that saturate,
 * and the columns on 1, 2 or 3 threads.
 */
Test(report_data_json, series_pruned_a_column_at_a_time)
{
	static const size_t budgets[] = { 0, 1, 7, 60, 5000 };
	static const double fractions[] = { -1, 0, 0.01, 0.3 };
	const size_t col[] = { 4, 0, 2, 5 };	/* of 6: 1 and 3 left out */
	uint64_t r = 0x9E3779B97F4A7C15ULL;
	size_t bi, f, i, c;

	for (int shape = 0; shape < 4; shape++) {
		struct tree t;
		bool huge = shape >= 2;
		int64_t total[4] = { 0 };

		random_series_tree(&t, shape % 2 == 0 ? 300 : 2000, 900, 6,
		    huge, &r);
		for (i = 0; i < t.tn; i++)
			for (c = 0; c < 4; c++)
				if (col[c] == t.tcol[i])
					pc_add_sat(&total[c], t.tval[i]);
		if (shape == 1)
			total[2] = 0;	/* no share of its own */
		for (bi = 0; bi < PC_ARRAY_LEN(budgets); bi++)
			for (f = 0; f < PC_ARRAY_LEN(fractions); f++) {
				struct out want, got;
				int64_t *ws, *wp, *gs, *gp;
				const char *what = huge ? "huge" : "small";

				dense_prune(&t, col, 4, 6, total, fractions[f],
				    budgets[bi], &want, &ws, &wp);
				unsigned int jobs = 1 + (unsigned int)(bi + f) % 3;

				cr_assert(eq(int, profconv__report_series_prune(
				    &t, col, 4, 6, total, fractions[f],
				    budgets[bi], jobs, &got, &gs, &gp), 0));
				cr_assert(eq(sz, got.n, want.n), "%s budget %zu "
				    "fraction %g", what, budgets[bi],
				    fractions[f]);
				cr_assert(eq(dbl, got.fraction, want.fraction));
				cr_assert(eq(sz, got.dropped, want.dropped));
				for (i = 0; i < t.n; i++) {
					cr_assert(eq(int, got.kept[i],
					    want.kept[i]), "node %zu", i);
					cr_assert(eq(u32, got.map[i],
					    want.map[i]), "node %zu", i);
				}
				for (c = 0; c < 4; c++)
					cr_assert(eq(i64, got.dropped_sum[c],
					    want.dropped_sum[c]));
				for (i = 0; i < got.n * 4; i++) {
					cr_assert(eq(i64, gs[i], ws[i]),
					    "%s self %zu", what, i);
					cr_assert(eq(i64, gp[i], wp[i]),
					    "%s pruned %zu", what, i);
				}
				profconv__report_out_free(&want);
				profconv__report_out_free(&got);
				free(ws);
				free(wp);
				free(gs);
				free(gp);
			}
		profconv__report_tree_free(&t);
	}
}
