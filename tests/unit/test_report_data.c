/* SPDX-License-Identifier: MIT */
/*
 * test_report_data.c - the report page's call tree and its strings
 * (lib/report/report_data.c): JSON safe inside <script>, interned
 * strings, shared frames, the tree of a view's stacks with its self
 * values, and the Explore tab around the data.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/report_data.h"
#include "report/report_tree.h"
#include "view/view.h"
#include "writer_fixture.h"

TestSuite(report_data, .fini = teardown);

/* main;grow 30, main;<b>x</b> 10, main 5 (objects, space = 100 x);
 * grow's file is given as an unclean path. */
static struct profconv_profile *
profile(int64_t grow)
{
	struct profconv_profile *p;
	uint32_t m, g, h, lm, lg, lh;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	m = add_fn(p, "main", "/src/main.c");
	g = add_fn(p, "grow", "/src/lib/../grow.c");
	h = add_fn(p, "<b>x</b>", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 7);
	lh = LOC1(p, 0, 0x30, h, 1);
	SAMPLE(p, ((int64_t[]){ grow, 100 * grow }), lg, lm);
	SAMPLE(p, ((int64_t[]){ 10, 1000 }), lh, lm);
	SAMPLE(p, ((int64_t[]){ 5, 500 }), lm);
	return p;
}

/* Neither "</script" nor "<!--" can appear: '<', '>' and '&' are \u
 * escapes (JSON allows them anywhere in a string); the rest is plain
 * JSON escaping. */
static void
json_str_safe_in_script(void)
{
	CAPTURE(out, (profconv__report_json_str(fp,
	    "</script><!--a&b \"q\"\n"), 0));
	cr_expect(eq(str, out, "\"\\u003c/script\\u003e\\u003c!--a\\u0026b "
	    "\\\"q\\\"\\n\""));
}

/* The same text is the same index, whatever its pointer; new texts
 * are numbered in order, past the table's growth. */
static void
strings_interned(void)
{
	static char names[3000][8];
	struct strs st = { 0 };
	char copy[] = "s17";
	uint32_t id;
	size_t i;

	for (i = 0; i < 3000; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		cr_assert(eq(int, profconv__report_str_index(&st, names[i],
		    &id), 0));
		cr_assert(eq(u32, id, (uint32_t)i));
	}
	cr_expect(eq(sz, st.n, 3000));
	cr_assert(eq(int, profconv__report_str_index(&st, copy, &id), 0));
	cr_expect(eq(u32, id, 17));
	cr_assert(eq(int, profconv__report_str_index(&st, "s2999", &id), 0));
	cr_expect(eq(u32, id, 2999));
	cr_expect(eq(sz, st.n, 3000));
	free(st.s);
	free(st.h);
}

/* Magnitudes are unsigned: INT64_MIN's is 2^63, not an overflow. */
static void
magnitude(void)
{
	cr_expect(eq(u64, profconv__report_mag(-5), 5));
	cr_expect(eq(u64, profconv__report_mag(5), 5));
	cr_expect(eq(u64, profconv__report_mag(INT64_MIN),
	    (uint64_t)1 << 63));
}

Test(report_data, strings_and_magnitudes_encoded)
{
	json_str_safe_in_script();
	teardown();
	strings_interned();
	teardown();
	magnitude();
}

/* A and B's views, a frame per line as the page's data has them. */
static void
views(void)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;

	vo.granularity = PROFCONV_BY_LINE;
	cr_assert(eq(int, profconv_view_new(&va, a, &vo), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_new(&vb, b, &vo), 0), "%s", ERRMSG);
}

/* The node of FN under PARENT, or -1. */
static int
node_of(const struct tree *t, const struct gframes *g, uint32_t parent,
    const char *fn)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (t->parent[i] == parent &&
		    strcmp(g->fn[t->frame[i]], fn) == 0)
			return (int)i;
	return -1;
}

/*
 * The tree of the view's stacks, root first: main under the root, grow
 * and <b>x</b> under main, each node's self values per type; a second
 * profile adds into the same nodes (frames shared by function, file and
 * line), and a file's name is kept clean ("/src/lib/../grow.c" is
 * "/src/grow.c").
 */
static void
tree_of_stacks(void)
{
	struct tree t = { 0 };
	struct gframes g = { 0 };
	int m, gr, x;

	t.nt = 2;
	a = profile(30);
	b = profile(1);
	views();
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, va, SIZE_MAX, 0,
	    NULL), 0));
	cr_expect(eq(sz, t.n, 4), "root, main, grow, x");
	cr_expect(eq(sz, g.n, 3), "three frames");
	m = node_of(&t, &g, 0, "main");
	cr_assert(gt(int, m, 0));
	gr = node_of(&t, &g, (uint32_t)m, "grow");
	x = node_of(&t, &g, (uint32_t)m, "<b>x</b>");
	cr_assert(gt(int, gr, 0));
	cr_assert(gt(int, x, 0));
	cr_expect(eq(i64, t.self[2 * m], 5));
	cr_expect(eq(i64, t.self[2 * m + 1], 500));
	cr_expect(eq(i64, t.self[2 * gr], 30));
	cr_expect(eq(i64, t.self[2 * gr + 1], 3000));
	cr_expect(eq(i64, t.self[2 * x + 1], 1000));
	cr_expect(eq(i64, t.self[0] + t.self[1], 0), "the root has none");
	cr_expect(eq(str, (char *)g.file[t.frame[gr]], "/src/grow.c"));
	cr_expect(eq(i64, g.line[t.frame[gr]], 7));
	/* The views may go: the frames keep their own strings. */
	profconv_view_free(va);
	va = NULL;
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, vb, SIZE_MAX, 0,
	    NULL), 0));
	cr_expect(eq(sz, t.n, 4), "the same nodes");
	cr_expect(eq(sz, g.n, 3), "the same frames");
	cr_expect(eq(i64, t.self[2 * gr], 31));
	cr_expect(eq(i64, t.self[2 * m + 1], 1000));
	cr_expect(eq(str, (char *)g.fn[t.frame[x]], "<b>x</b>"));
	profconv__report_tree_free(&t);
	profconv__report_gframes_free(&g);
}

/* One type into a column of a series: values kept apart until the
 * columns are known, then laid out in the order asked, a column left
 * out when not asked for (the tree pruned at nothing). */
static void
series_columns(void)
{
	struct tree t = { 0 };
	struct gframes g = { 0 };
	struct out o;
	const size_t order[] = { 1, 0 };
	const int64_t total[] = { 1, 1 };
	int64_t *self, *pruned;
	int m, gr;

	a = profile(30);
	b = profile(2);
	views();
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, va, 1, 0, NULL),
	    0));
	cr_assert(eq(int, profconv__report_tree_add(&t, &g, vb, 1, 1, NULL),
	    0));
	cr_assert(eq(int, profconv__report_series_prune(&t, order, 2, 2,
	    total, -1, 0, 1, &o, &self, &pruned), 0));
	m = node_of(&t, &g, 0, "main");
	gr = node_of(&t, &g, (uint32_t)m, "grow");
	cr_assert(gt(int, gr, 0));
	cr_expect(eq(sz, o.n, t.n));
	cr_expect(eq(u32, o.map[gr], (uint32_t)gr));
	/* Column 0 is b's (the second added), column 1 a's. */
	cr_expect(eq(i64, self[2 * gr], 200));
	cr_expect(eq(i64, self[2 * gr + 1], 3000));
	cr_expect(eq(i64, self[2 * m], 500));
	cr_expect(eq(i64, pruned[2 * m], 0));
	profconv__report_out_free(&o);
	free(self);
	free(pruned);
	/* Again, of b's column alone. */
	cr_assert(eq(int, profconv__report_series_prune(&t, order, 1, 2,
	    total, -1, 0, 1, &o, &self, &pruned), 0));
	cr_expect(eq(i64, self[gr], 200));
	cr_expect(eq(i64, self[m], 500));
	profconv__report_out_free(&o);
	free(self);
	free(pruned);
	profconv__report_tree_free(&t);
	profconv__report_gframes_free(&g);
}

Test(report_data, tree_and_series_columns)
{
	tree_of_stacks();
	teardown();
	series_columns();
}

/* A profile of objects and space with N functions LETTER0.. in
 * /src/LETTER.c, function I's location at line I. */
static struct profconv_profile *
with_functions(unsigned n, char letter, uint32_t *fn, uint32_t *loc)
{
	struct profconv_profile *p;
	char name[8], file[16];
	unsigned i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	snprintf(file, sizeof(file), "/src/%c.c", letter);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%c%u", letter, i);
		fn[i] = add_fn(p, name, file);
		loc[i] = LOC1(p, 0, 0x100 + 0x10 * i, fn[i], (int64_t)i);
	}
	return p;
}

/* Snapshot K of a series: stacks over six functions that come back in
 * later snapshots, stacks that are another's prefix, an empty stack,
 * and two addresses of one line (one shared frame, two view frames). */
static struct profconv_profile *
snapshot(unsigned k)
{
	struct profconv_profile *p;
	uint32_t fn[6], loc[7], stack[6];
	int64_t v[2];
	unsigned i, j, depth;

	p = with_functions(6, 'f', fn, loc);
	loc[6] = LOC1(p, 0, 0x200, fn[1], 1);	/* f1's line again */
	for (i = 0; i < 40; i++) {
		depth = (i * 7 + k) % 7;
		for (j = 0; j < depth && j < 6; j++)
			stack[j] = loc[(i * (j + 3) + (k + i) / 3) % 7];
		v[0] = (int64_t)(i + k + 1);
		v[1] = 8 * v[0];
		cr_assert(eq(int, profconv_profile_add_sample(p, stack,
		    depth < 6 ? depth : 6, v, NULL, 0), 0), "%s", ERRMSG);
	}
	return p;
}

/*
 * Snapshot K of a sliding series: of 120 call paths, those from 4K to
 * 4K + 60 but every seventh (by K), so that most of a snapshot's stacks
 * are the one before's, in its order, with new ones between them.
 * Paths in a group of ten share their first frames; a path's depth (2
 * to 9) repeats every eight paths, so that stacks of one depth differ.
 */
static struct profconv_profile *
sliding(unsigned k)
{
	struct profconv_profile *p;
	uint32_t fn[12], loc[12], stack[9];
	int64_t v[2];
	unsigned i, j, depth;

	p = with_functions(12, 'g', fn, loc);
	for (i = 4 * k; i < 4 * k + 60 && i < 120; i++) {
		if ((i + k) % 7 == 0)
			continue;
		depth = 2 + i % 8;
		/* Leaf first: the last frames are the group's. */
		for (j = 0; j < depth; j++)
			stack[depth - 1 - j] = loc[j < 3 ? (i / 10 + j) % 12 :
			    (i * (j + 1) + j) % 12];
		v[0] = (int64_t)(i + 1);
		v[1] = 16 * v[0];
		cr_assert(eq(int, profconv_profile_add_sample(p, stack, depth,
		    v, NULL, 0), 0), "%s", ERRMSG);
	}
	return p;
}

/* The tree of snapshots 0..N-1 (made by MAKE), type 1 into column K,
 * with stacks found by their hash (BY_STACK) or frame by frame. */
static void
series_of(struct tree *t, struct gframes *g, unsigned from, unsigned n,
    struct profconv_profile *(*make)(unsigned))
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_profile *p;
	struct profconv_view *v;
	unsigned k;

	vo.granularity = PROFCONV_BY_LINE;
	for (k = from; k < n; k++) {
		p = make(k);
		cr_assert(eq(int, profconv_view_new(&v, p, &vo), 0), "%s",
		    ERRMSG);
		cr_assert(eq(int, profconv__report_tree_add(t, g, v, 1, k,
		    NULL), 0), "%s", ERRMSG);
		profconv_view_free(v);
		profconv_profile_free(p);
	}
}

static void
series_more(struct tree *t, struct gframes *g, unsigned from, unsigned n)
{
	series_of(t, g, from, n, snapshot);
}

static void
series_tree(struct tree *t, struct gframes *g, unsigned n, bool by_stack)
{
	t->by_stack = by_stack;
	series_more(t, g, 0, n);
}

/* S and W are the same tree of the same frames, their values alike. */
static void
same_trees(const struct tree *s, const struct gframes *gs,
    const struct tree *w, const struct gframes *gw)
{
	size_t i;

	cr_assert(eq(sz, s->n, w->n));
	cr_assert(gt(sz, s->n, 20));
	for (i = 0; i < s->n; i++) {
		cr_assert(eq(u32, s->parent[i], w->parent[i]), "node %zu", i);
		cr_assert(eq(u32, s->frame[i], w->frame[i]), "node %zu", i);
	}
	cr_assert(eq(sz, gs->n, gw->n));
	for (i = 0; i < gs->n; i++)
		cr_assert(eq(str, (char *)gs->owned[i], (char *)gw->owned[i]));
	cr_assert(eq(sz, s->tn, w->tn));
	for (i = 0; i < s->tn; i++) {
		cr_assert(eq(u32, s->tnode[i], w->tnode[i]), "stack %zu", i);
		cr_assert(eq(u32, s->tcol[i], w->tcol[i]));
		cr_assert(eq(i64, s->tval[i], w->tval[i]));
	}
}

/* Every stack kept by its hash in T points to another kept stack, as if
 * all the hashes of the stacks to come were taken by other stacks. */
static void
collide(struct tree *t)
{
	size_t i;

	cr_assert(gt(sz, t->nleaf, 1));
	for (i = 0; i < t->leaves.cap; i++)
		if (t->leaves.vals[i] != 0)
			t->leaves.vals[i] = t->leaves.vals[i] % t->nleaf + 1;
	if (t->leaves.has_zero)
		t->leaves.zero_val = (t->leaves.zero_val + 1) % t->nleaf;
}

/* A series' stack found by its hash lands on the node, and makes the
 * nodes and frames in the order, that the walk frame by frame does; a
 * hash that another stack has (forced) is found out and walked. */
Test(report_data, series_stacks_found_by_hash_as_by_walk)
{
	struct tree s = { 0 }, w = { 0 }, c = { 0 };
	struct gframes gs = { 0 }, gw = { 0 }, gc = { 0 };

	series_tree(&s, &gs, 9, true);
	series_tree(&w, &gw, 9, false);
	series_tree(&c, &gc, 5, true);
	collide(&c);
	series_more(&c, &gc, 5, 9);
	cr_expect(gt(sz, s.leaves.len, 10), "stacks kept by hash");
	cr_expect(eq(sz, w.leaves.len, 0));
	same_trees(&c, &gc, &w, &gw);
	profconv__report_tree_free(&c);
	profconv__report_gframes_free(&gc);
	same_trees(&s, &gs, &w, &gw);
	cr_expect(lt(sz, s.leaves.len, s.tn), "stacks seen again");
	profconv__report_tree_free(&s);
	profconv__report_tree_free(&w);
	profconv__report_gframes_free(&gs);
	profconv__report_gframes_free(&gw);
}

/* A sliding series: most stacks found where the snapshot before had
 * them, new ones between them made from the path of the stack found
 * last; the same tree as the walk frame by frame makes. */
Test(report_data, series_stacks_found_in_order_as_by_walk)
{
	struct tree s = { 0 }, w = { 0 };
	struct gframes gs = { 0 }, gw = { 0 };

	s.by_stack = true;
	series_of(&s, &gs, 0, 16, sliding);
	series_of(&w, &gw, 0, 16, sliding);
	same_trees(&s, &gs, &w, &gw);
	cr_expect(lt(sz, s.nleaf, s.tn / 4), "stacks seen again");
	profconv__report_tree_free(&s);
	profconv__report_tree_free(&w);
	profconv__report_gframes_free(&gs);
	profconv__report_gframes_free(&gw);
}

/* The Explore tab: the data inside the tab's controls, the top table
 * bounded as asked; with a base, the change's table and data. */
Test(report_data, live_tab)
{
	const char *data, *section;

	a = profile(30);
	b = profile(20);
	CAPTURE(out, profconv__report_live(fp, NULL, a, NULL, -1, 0, 1, 7));
	section = strstr(out, "id=\"live\"");
	data = strstr(out, "<script type=\"application/json\" "
	    "id=\"live-data\">");
	cr_assert(not(zero(ptr, (void *)section)), "%s", out);
	cr_assert(not(zero(ptr, (void *)data)), "%s", out);
	cr_expect(lt(ptr, (void *)section, (void *)data));
	cr_expect(zero(ptr, strstr(out, "\"diff\":true")));
	cr_expect(not(zero(ptr, strstr(out, "\"total\":[45,4500]"))));
	free(out);
	out = NULL;
	CAPTURE(out, profconv__report_live(fp, b, a, NULL, -1, 0, 1, 7));
	cr_expect(not(zero(ptr, strstr(out, "\"diff\":true"))));
	cr_expect(not(zero(ptr, strstr(out, "<th>base</th><th>current</th>"))),
	    "%s", out);
}
