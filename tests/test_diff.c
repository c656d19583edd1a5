/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c - the writers that read views: the row engine (rows.c),
 * folded stacks (flame.c), the comparison table and its JSON (diff.c),
 * and the dump and summary (print.c), checked to the byte on profiles
 * built by hand.
 */

#include "config.h"

#include <stdint.h>

#include "view_helpers.h"
#include "view/view.h"

static struct profconv_profile *a, *b;
static struct profconv_view *va, *vb;
static char *out;

static void
teardown(void)
{
	profconv_view_free(va);
	profconv_view_free(vb);
	profconv_profile_free(a);
	profconv_profile_free(b);
	free(out);
	va = vb = NULL;
	a = b = NULL;
	out = NULL;
}

TestSuite(rows, .fini = teardown);
TestSuite(flame, .fini = teardown);
TestSuite(diff, .fini = teardown);
TestSuite(print, .fini = teardown);

/* --- rows ------------------------------------------------------------------ */

/* main;a;b 10, main;b 5, main;a;a 3 (a recursive), one type. */
static struct profconv_profile *
recursive(void)
{
	struct profconv_profile *p;
	uint32_t m, fa, fb, lm, la, lb;
	int64_t v1 = 10, v2 = 5, v3 = 3;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	fa = add_fn(p, "a", "");
	fb = add_fn(p, "b", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	la = LOC1(p, 0, 0x20, fa, 1);
	lb = LOC1(p, 0, 0x30, fb, 1);
	SAMPLE(p, &v1, lb, la, lm);
	SAMPLE(p, &v2, lb, lm);
	SAMPLE(p, &v3, la, la, lm);
	return p;
}

/* The rows of R as "name v0 v1...\n" lines, in their order. */
static char *
rows_text(struct pc_rows *r, size_t width)
{
	size_t i, j, len = 0;
	char *text = NULL;
	FILE *fp = open_memstream(&text, &len);

	for (i = 0; i < profconv__rows_count(r); i++) {
		fputs(profconv__rows_name(r, i), fp);
		for (j = 0; j < width; j++)
			fprintf(fp, " %lld",
			    (long long)profconv__rows_values(r, i)[j]);
		fputs("\n", fp);
	}
	fclose(fp);
	return text;
}

static int
by_name(const int64_t *x, const char *xn, const int64_t *y, const char *yn,
    void *payload)
{
	(void)x;
	(void)y;
	(void)payload;
	return strcmp(xn, yn);
}

/* Flat counts the leaf, cum every frame once per stack (recursion
 * counted once); stack rows are the folded stacks. */
Test(rows, flat_cum_and_stacks)
{
	struct pc_rows *flat, *cum, *stk;

	a = recursive();
	cr_assert(eq(int, profconv_view_new(&va, a, NULL), 0));
	cr_assert(eq(int, profconv__rows_new(&flat, 1), 0));
	cr_assert(eq(int, profconv__rows_new(&cum, 1), 0));
	cr_assert(eq(int, profconv__rows_new(&stk, 1), 0));
	cr_assert(eq(int, profconv__rows_add(flat, va, PC_ROWS_FUNCTION,
	    false, 0), 0));
	cr_assert(eq(int, profconv__rows_add(cum, va, PC_ROWS_FUNCTION, true,
	    0), 0));
	cr_assert(eq(int, profconv__rows_add(stk, va, PC_ROWS_STACK, false,
	    0), 0));
	profconv__rows_sort(flat, by_name, NULL);
	profconv__rows_sort(cum, by_name, NULL);
	out = rows_text(flat, 1);
	cr_expect(eq(str, out, "a 3\nb 15\n"));
	free(out);
	out = rows_text(cum, 1);
	cr_expect(eq(str, out, "a 13\nb 15\nmain 18\n"));
	free(out);
	out = rows_text(stk, 1);
	cr_expect(eq(str, out, "main;a;a 3\nmain;a;b 10\nmain;b 5\n"));
	/* Sorting rebuilt the index: adding again finds the same rows. */
	cr_assert(eq(int, profconv__rows_add(cum, va, PC_ROWS_FUNCTION, true,
	    0), 0));
	free(out);
	out = rows_text(cum, 1);
	cr_expect(eq(str, out, "a 26\nb 30\nmain 36\n"));
	cr_assert(eq(int, profconv__rows_add(cum, va, PC_ROWS_FUNCTION, true,
	    1), PROFCONV_EINVAL));
	profconv__rows_free(flat);
	profconv__rows_free(cum);
	profconv__rows_free(stk);
}

/* Views of two profiles at two column offsets: one row per name. */
Test(rows, views_at_offsets)
{
	struct pc_rows *r;
	uint32_t m, g, s, lm, lg, ls;
	int64_t one = 1, two = 2, four = 4;

	a = recursive();
	cr_assert(eq(int, profconv_profile_new(&b), 0));
	profconv_profile_add_sample_type(b, "samples", "count");
	m = add_fn(b, "main", "");
	g = add_fn(b, "b", "");
	s = add_fn(b, "c", "");
	lm = LOC1(b, 0, 0x99, m, 1);
	lg = LOC1(b, 0, 0x98, g, 1);
	ls = LOC1(b, 0, 0x97, s, 1);
	SAMPLE(b, &one, lg, lm);
	SAMPLE(b, &two, ls, lm);
	cr_assert(eq(int, profconv_profile_add_sample(b, NULL, 0, &four, NULL,
	    0), 0));
	cr_assert(eq(int, profconv_view_new(&va, a, NULL), 0));
	cr_assert(eq(int, profconv_view_new(&vb, b, NULL), 0));
	cr_assert(eq(int, profconv__rows_new(&r, 2), 0));
	cr_assert(eq(int, profconv__rows_add(r, va, PC_ROWS_FUNCTION, false,
	    0), 0));
	cr_assert(eq(int, profconv__rows_add(r, vb, PC_ROWS_FUNCTION, false,
	    1), 0));
	profconv__rows_sort(r, by_name, NULL);
	out = rows_text(r, 2);
	cr_expect(eq(str, out, "[no stack] 0 4\na 3 0\nb 15 1\nc 0 2\n"));
	profconv__rows_free(r);
}

/* --- folded stacks ------------------------------------------------------------ */

/* base: main;grow 10, main;old 4; cur: main;grow 15, main;new 6, and a
 * frame whose name has a ';', a tab and a number at its end. */
static void
flame_pair(void)
{
	struct profconv_profile *p[2];
	int64_t v[2][3] = { { 10, 4, 0 }, { 15, 0, 6 } };
	uint32_t m, g, o, n, w, lm, lg, lo, ln, lw;
	int64_t odd = 2;
	int i;

	for (i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_profile_new(&p[i]), 0));
		profconv_profile_add_sample_type(p[i], "objects", "count");
		profconv_profile_add_sample_type(p[i], "space", "bytes");
		m = add_fn(p[i], "main", "");
		g = add_fn(p[i], "grow", "");
		o = add_fn(p[i], "old", "");
		n = add_fn(p[i], "new", "");
		lm = LOC1(p[i], 0, 0x10, m, 1);
		lg = LOC1(p[i], 0, 0x20, g, 1);
		lo = LOC1(p[i], 0, 0x30, o, 1);
		ln = LOC1(p[i], 0, 0x40, n, 1);
		SAMPLE(p[i], ((int64_t[]){ v[i][0], 100 * v[i][0] }), lg, lm);
		if (v[i][1] != 0)
			SAMPLE(p[i], ((int64_t[]){ v[i][1], 100 * v[i][1] }),
			    lo, lm);
		if (v[i][2] != 0)
			SAMPLE(p[i], ((int64_t[]){ v[i][2], 100 * v[i][2] }),
			    ln, lm);
	}
	w = add_fn(p[1], "odd;name\tx 42", "");
	lw = LOC1(p[1], 0, 0x50, w, 1);
	SAMPLE(p[1], ((int64_t[]){ odd, 0 }), lw, lm);
	a = p[0];
	b = p[1];
	cr_assert(eq(int, profconv_view_new(&va, a, NULL), 0));
	cr_assert(eq(int, profconv_view_new(&vb, b, NULL), 0));
}

Test(flame, folded)
{
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;

	flame_pair();
	/* The default type is the last one; zero counts are left out. */
	CAPTURE(out, profconv_flame_write(vb, NULL, fp, NULL));
	cr_expect(eq(str, out, "main;grow 1500\nmain;new 600\n"));
	free(out);
	fo.sample_type = "objects";
	CAPTURE(out, profconv_flame_write(vb, NULL, fp, &fo));
	cr_expect(eq(str, out, "main;grow 15\nmain;new 6\n"
	    "main;odd:name x_42 2\n"));
}

/* The two-count form: every stack of either view, in text order. */
Test(flame, differential)
{
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;

	flame_pair();
	fo.sample_type = "objects";
	CAPTURE(out, profconv_flame_write(vb, va, fp, &fo));
	cr_expect(eq(str, out, "main;grow 10 15\nmain;new 0 6\n"
	    "main;odd:name x_42 0 2\nmain;old 4 0\n"));
}

Test(flame, negative_counts_refused)
{
	struct profconv_profile *delta = NULL;
	struct profconv_view *vd = NULL;
	size_t len = 0;
	FILE *fp;

	flame_pair();
	cr_assert(eq(int, profconv_profile_subtract(&delta, b, a), 0));
	cr_assert(eq(int, profconv_view_new(&vd, delta, NULL), 0));
	fp = open_memstream(&out, &len);
	cr_assert(eq(int, profconv_flame_write(vd, NULL, fp, NULL),
	    PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "negative count in a stack ending in 'old' "
	    "(a delta profile?): compare with a base instead"));
	cr_assert(eq(int, profconv_flame_write(va, vd, fp, NULL),
	    PROFCONV_EFORMAT));
	fclose(fp);
	cr_expect(eq(str, out, ""), "nothing written before the refusal");
	profconv_view_free(vd);
	profconv_profile_free(delta);
}

Test(flame, unknown_type)
{
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;
	size_t len = 0;
	FILE *fp;

	flame_pair();
	fo.sample_type = "cpu";
	fp = open_memstream(&out, &len);
	cr_assert(eq(int, profconv_flame_write(va, NULL, fp, &fo),
	    PROFCONV_ENOTFOUND));
	fo.version = 1;
	cr_assert(eq(int, profconv_flame_write(va, NULL, fp, &fo),
	    PROFCONV_EINVAL));
	fclose(fp);
}

/* --- the comparison table -------------------------------------------------- */

/*
 * A heap profile with alloc and inuse counters, values per stack
 * { alloc_objects, alloc_space, inuse_objects, inuse_space }.
 */
static struct profconv_profile *
heap(const int64_t (*v)[4], const char *const *leaf, size_t n)
{
	static const char *const types[] = { "alloc_objects", "alloc_space",
		"inuse_objects", "inuse_space" };
	struct profconv_profile *p;
	uint32_t m, f, lm, l;
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	for (i = 0; i < 4; i++)
		profconv_profile_add_sample_type(p, types[i],
		    i % 2 ? "bytes" : "count");
	m = add_fn(p, "main", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	for (i = 0; i < n; i++) {
		f = add_fn(p, leaf[i], "");
		l = LOC1(p, 0, 0x100 + 16 * i, f, 1);
		SAMPLE(p, v[i], l, lm);
	}
	return p;
}

/* grow grew, shrink freed 3 objects, newone is new, gone went away. */
static struct profconv_diff *
heap_diff(int leaks, enum profconv_diff_by by)
{
	static const char *const bleaf[] = { "grow", "shrink", "gone" };
	static const char *const cleaf[] = { "grow", "shrink", "newone" };
	static const int64_t bv[][4] = { { 10, 1000, 5, 500 },
		{ 4, 4096, 4, 4096 }, { 1, 64, 1, 64 } };
	static const int64_t cv[][4] = { { 30, 3000, 20, 2000 },
		{ 4, 4096, 1, 1024 }, { 2, 2097152, 2, 2097152 } };
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff *d = NULL;

	a = heap(bv, bleaf, 3);
	b = heap(cv, cleaf, 3);
	o.leaks = leaks;
	o.by = by;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	return d;
}

static char *
table(const struct profconv_diff *d, const char *sort, size_t top, int exact)
{
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	char *text = NULL;

	po.sort = sort;
	po.top = top;
	po.exact = exact;
	CAPTURE(text, profconv_diff_print(d, fp, &po));
	return text;
}

#define HEAP_HEAD \
	"            New          Freed     Delta objs    Alloc bytes" \
	"    Freed bytes    Delta bytes  Name\n"
#define R(a, b, c, d, e, f, name) a b c d e f "  " name "\n"

/* The memory debuggers' comparison: New, Freed and Delta from the delta
 * profile; rows sorted by delta bytes; a TOTAL row. */
Test(diff, heap_table)
{
	struct profconv_diff *d = heap_diff(0, PROFCONV_DIFF_BY_FUNCTION);

	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("              2", "              0", "              2",
	      "        2.00MiB", "             0B", "        2.00MiB", "newone")
	    R("             20", "              5", "             15",
	      "        1.95KiB", "           500B", "        1.46KiB", "grow")
	    R("             -1", "              0", "             -1",
	      "           -64B", "             0B", "           -64B", "gone")
	    R("              0", "              3", "             -3",
	      "             0B", "        3.00KiB", "       -3.00KiB", "shrink")
	    R("             21", "              8", "             13",
	      "        2.00MiB", "        3.49KiB", "        2.00MiB", "TOTAL")));
	free(out);
	out = table(d, "new", 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("              0", "              3", "             -3",
	      "              0", "           3072", "          -3072", "shrink")
	    R("             -1", "              0", "             -1",
	      "            -64", "              0", "            -64", "gone")
	    R("             21", "              8", "             13",
	      "        2099088", "           3572", "        2095516", "TOTAL")));
	free(out);
	/* By name, the first two rows. */
	out = table(d, "name", 2, 0);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             -1", "              0", "             -1",
	      "           -64B", "             0B", "           -64B", "gone")
	    R("             20", "              5", "             15",
	      "        1.95KiB", "           500B", "        1.46KiB", "grow")
	    "  ... 2 more rows\n"
	    R("             21", "              8", "             13",
	      "        2.00MiB", "        3.49KiB", "        2.00MiB", "TOTAL")));
	free(out);
	/* Ties in the sort column go by name. */
	out = table(d, "freed", 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("              0", "              3", "             -3",
	      "              0", "           3072", "          -3072", "shrink")
	    R("             -1", "              0", "             -1",
	      "            -64", "              0", "            -64", "gone")
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("             21", "              8", "             13",
	      "        2099088", "           3572", "        2095516", "TOTAL")));
	free(out);
	out = table(d, "delta-objects", 1, 1);
	cr_expect(strstr(out, "  grow\n  ... 3 more rows\n") != NULL, "%s", out);
	free(out);
	out = NULL;
	cr_assert(eq(int, profconv_diff_print(d, stdout,
	    &(struct profconv_diff_print_options){
	    PROFCONV_DIFF_PRINT_OPTIONS_VERSION, "bogus", 0, 0 }),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "cannot sort by 'bogus': no such column"));
	profconv_diff_free(d);
}

/* The leak view keeps what grew in use (grow, newone) in the delta and
 * in the table, and totals what it shows. */
Test(diff, leaks)
{
	struct profconv_diff *d = heap_diff(1, PROFCONV_DIFF_BY_FUNCTION);
	const struct profconv_profile *delta = profconv_diff_delta(d);

	cr_assert(eq(sz, profconv_profile_sample_count(delta), 2));
	out = table(d, NULL, 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("             22", "              5", "             17",
	      "        2099152", "            500", "        2098652", "TOTAL")));
	profconv_diff_free(d);
}

/* The JSON form: totals before, after and delta, and rows as the table
 * sorts them, with the DevTools comparison names. */
Test(diff, json)
{
	struct profconv_diff *d = heap_diff(1, PROFCONV_DIFF_BY_FUNCTION);
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	const char *want[] = {
		"{\"kind\":\"heap\",\"leaks\":true,\"before\":{"
		"\"alloc_objects\":10,\"alloc_space\":1000,"
		"\"inuse_objects\":5,\"inuse_space\":500},",
		"\"after\":{\"alloc_objects\":32,\"alloc_space\":2100152,"
		"\"inuse_objects\":22,\"inuse_space\":2099152},",
		"\"delta\":{\"alloc_objects\":22,\"alloc_space\":2099152,"
		"\"inuse_objects\":17,\"inuse_space\":2098652},",
		"\"total\":{\"name\":\"TOTAL\",\"newCount\":22,"
		"\"deletedCount\":5,\"countDelta\":17,\"allocatedSize\":2099152,"
		"\"freedSize\":500,\"sizeDelta\":2098652,",
		"\"rows\":[\n{\"name\":\"newone\",\"newCount\":2,"
		"\"deletedCount\":0,\"countDelta\":2,\"allocatedSize\":2097152,"
		"\"freedSize\":0,\"sizeDelta\":2097152,\"values\":{"
		"\"alloc_objects\":{\"base\":0,\"cur\":2,\"delta\":2},",
		"},\n{\"name\":\"grow\",\"newCount\":20,\"deletedCount\":5,"
		"\"countDelta\":15,\"allocatedSize\":2000,\"freedSize\":500,"
		"\"sizeDelta\":1500,\"values\":{\"alloc_objects\":{\"base\":10,"
		"\"cur\":30,\"delta\":20},\"alloc_space\":{\"base\":1000,"
		"\"cur\":3000,\"delta\":2000},\"inuse_objects\":{\"base\":5,"
		"\"cur\":20,\"delta\":15},\"inuse_space\":{\"base\":500,"
		"\"cur\":2000,\"delta\":1500}}}]}\n",
	};
	const char *at;
	size_t i;

	CAPTURE(out, profconv_diff_write_json(d, fp, NULL));
	cr_assert(strncmp(out, want[0], strlen(want[0])) == 0, "%s", out);
	for (i = 1, at = out; i < sizeof(want) / sizeof(want[0]); i++) {
		at = strstr(at, want[i]);
		cr_assert(at != NULL, "missing, in order: %s", want[i]);
	}
	cr_expect(eq(str, (char *)at, (char *)want[i - 1]), "ends the text");
	free(out);
	po.top = 1;
	po.sort = "name";
	CAPTURE(out, profconv_diff_write_json(d, fp, &po));
	cr_expect(strstr(out, "\"rows\":[\n{\"name\":\"grow\"") != NULL);
	cr_expect(strstr(out, "newone") == NULL, "top 1 of the rows");
	profconv_diff_free(d);
}

/* A profile of TYPES (units "count" but for "delay") with two stacks. */
static struct profconv_profile *
plain(const char *t1, const char *t2, int64_t g1, int64_t g2, int64_t s1,
    int64_t s2)
{
	struct profconv_profile *p;
	uint32_t m, g, s, lm, lg, ls;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, t1, "count");
	if (t2 != NULL)
		profconv_profile_add_sample_type(p, t2, "nanoseconds");
	m = add_fn(p, "main", "/src/main.go");
	g = add_fn(p, "sync.(*Mutex).Lock", "/go/src/sync/mutex.go");
	s = add_fn(p, "runtime.gopark", "/go/src/runtime/proc.go");
	lm = LOC1(p, 0, 0x10, m, 7);
	lg = LOC1(p, 0, 0x20, g, 81);
	ls = LOC1(p, 0, 0x30, s, 363);
	SAMPLE(p, ((int64_t[]){ g1, g2 }), lg, lm);
	SAMPLE(p, ((int64_t[]){ s1, s2 }), ls, lm);
	return p;
}

#define PLAIN_HEAD \
	" base contentions cur contentions delta contentions     base delay" \
	"      cur delay    delta delay  Name\n"
#define GOPARK "                2               5                 3" \
	"             50           2050           2000  "
#define LOCK "                5               9                 4" \
	"           1000           1500            500  "
#define PLAIN_TOTAL "                7              14                 7" \
	"           1050           3550           2500  TOTAL\n"

/* Other profiles get base, cur and delta per sample type, headers never
 * cut; rows by function, by line or by stack; sorted by the default
 * type's delta or by the type named. */
Test(diff, plain_table)
{
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff *d = NULL;

	a = plain("contentions", "delay", 5, 1000, 2, 50);
	b = plain("contentions", "delay", 9, 1500, 5, 2050);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), 0), "%s", ERRMSG);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "runtime.gopark\n"
	    LOCK "sync.(*Mutex).Lock\n" PLAIN_TOTAL));
	free(out);
	out = table(d, "contentions", 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD LOCK "sync.(*Mutex).Lock\n"
	    GOPARK "runtime.gopark\n" PLAIN_TOTAL));
	profconv_diff_free(d);
	o.by = PROFCONV_DIFF_BY_STACK;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	free(out);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "main;runtime.gopark\n"
	    LOCK "main;sync.(*Mutex).Lock\n" PLAIN_TOTAL));
	profconv_diff_free(d);
	o.by = PROFCONV_DIFF_BY_LINE;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	free(out);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "runtime.gopark proc.go:363\n"
	    LOCK "sync.(*Mutex).Lock mutex.go:81\n" PLAIN_TOTAL));
	free(out);
	CAPTURE(out, profconv_diff_write_json(d, fp, NULL));
	cr_expect(eq(str, out, "{\"kind\":\"values\",\"leaks\":false,"
	    "\"before\":{\"contentions\":7,\"delay\":1050},"
	    "\"after\":{\"contentions\":14,\"delay\":3550},"
	    "\"delta\":{\"contentions\":7,\"delay\":2500},"
	    "\"total\":{\"name\":\"TOTAL\",\"values\":{\"contentions\":"
	    "{\"base\":7,\"cur\":14,\"delta\":7},\"delay\":{\"base\":1050,"
	    "\"cur\":3550,\"delta\":2500}}},\"rows\":[\n"
	    "{\"name\":\"runtime.gopark proc.go:363\",\"values\":{"
	    "\"contentions\":{\"base\":2,\"cur\":5,\"delta\":3},\"delay\":"
	    "{\"base\":50,\"cur\":2050,\"delta\":2000}}},\n"
	    "{\"name\":\"sync.(*Mutex).Lock mutex.go:81\",\"values\":{"
	    "\"contentions\":{\"base\":5,\"cur\":9,\"delta\":4},\"delay\":"
	    "{\"base\":1000,\"cur\":1500,\"delta\":500}}}]}\n"));
	profconv_diff_free(d);
	profconv_profile_free(a);
	profconv_profile_free(b);
	a = plain("goroutine", NULL, 3, 0, 1, 0);
	b = plain("goroutine", NULL, 1, 0, 4, 0);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), 0), "%s", ERRMSG);
	free(out);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out,
	    " base goroutine  cur goroutine delta goroutine  Name\n"
	    "              1              4               3  runtime.gopark\n"
	    "              3              1              -2  "
	    "sync.(*Mutex).Lock\n"
	    "              4              5               1  TOTAL\n"));
	profconv_diff_free(d);
}

Test(diff, different_types_refused)
{
	struct profconv_diff *d = NULL;

	a = plain("contentions", "delay", 5, 1000, 2, 50);
	b = plain("goroutine", NULL, 1, 0, 4, 0);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), PROFCONV_EINVAL));
	cr_assert(d == NULL);
	cr_expect(eq(str, ERRMSG, "profiles have different sample types "
	    "(make them compatible first)"));
}

/* --- the printer ------------------------------------------------------------- */

/* A small heap profile with every header field, a label, an inline
 * chain, a mapping and a C++ name. */
static struct profconv_profile *
small(void)
{
	struct profconv_profile *p;
	struct profconv_mapping mp = { 0x400000, 0x500000, 0x1000,
		"/usr/bin/app", "abc123", 1, 1, 1, 0 };
	struct profconv_function f = { "app::Pool<int>::grow(unsigned long)",
		"_ZN3app4PoolIiE4growEm", "/src/pool.cc", 40 };
	struct profconv_label lb[2] = { { "thread", "worker", 0, NULL },
		{ "bytes", NULL, 64, "bytes" } };
	uint32_t map, m, g, lm, lg;
	int64_t v1[2] = { 2, 128 }, v2[2] = { 1, 4096 };

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "inuse_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 524288);
	profconv_profile_set_time(p, 1700000000000000000, 5000000000);
	profconv_profile_add_comment(p, "made by hand");
	profconv_profile_set_drop_frames(p, "malloc");
	profconv_profile_set_keep_frames(p, "xmalloc");
	profconv_profile_set_doc_url(p, "https://example.com/doc");
	cr_assert(eq(int, profconv_profile_add_mapping(p, &mp, &map), 0));
	m = add_fn(p, "main", "/src/main.cc");
	cr_assert(eq(int, profconv_profile_add_function(p, &f, &g), 0));
	lm = LOC1(p, map, 0x401000, m, 12);
	lg = LOCN(p, map, 0x402000, 40, g, m);
	cr_assert(eq(int, profconv_profile_add_sample(p, (uint32_t[]){ lg, lm },
	    2, v1, lb, 2), 0));
	SAMPLE(p, v2, lm);
	return p;
}

#define HEADER "sample types: inuse_objects/count " \
	"inuse_space/bytes[default]\n" \
	"period: 524288 space/bytes\n" \
	"time: 1700000000000000000 ns\n" \
	"duration: 5000000000 ns\n" \
	"comment: made by hand\n"

/* The dump: every field, function names in the view's demangle mode
 * (the linker's name in brackets). */
Test(print, dump)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small();
	CAPTURE(out, profconv_profile_print(a, fp, NULL));
	cr_expect(eq(str, out, HEADER
	    "drop frames: malloc\n"
	    "keep frames: xmalloc\n"
	    "doc url: https://example.com/doc\n"
	    "samples: 2\n"
	    "          2        128: 2 1\n"
	    "   labels: thread=\"worker\" bytes=64bytes\n"
	    "          1       4096: 1\n"
	    "locations: 2\n"
	    "      1: 0x401000 M=1\n"
	    "         F=1 main /src/main.cc:12:0\n"
	    "      2: 0x402000 M=1\n"
	    "         F=2 app::Pool::grow /src/pool.cc:40:0\n"
	    "         F=1 main /src/main.cc:41:0\n"
	    "functions: 2\n"
	    "      1: main [main] /src/main.cc s=1\n"
	    "      2: app::Pool::grow [_ZN3app4PoolIiE4growEm] /src/pool.cc "
	    "s=40\n"
	    "mappings: 1\n"
	    "      1: 0x400000/0x500000/0x1000 /usr/bin/app abc123 "
	    "[FN] [FL] [LN]\n"));
	free(out);
	vo.demangle = PROFCONV_DEMANGLE_TEMPLATES;
	po.view = &vo;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(strstr(out, "      2: app::Pool<int>::grow "
	    "[_ZN3app4PoolIiE4growEm] /src/pool.cc s=40\n") != NULL, "%s", out);
}

/* The summary: totals, then the view's top stacks and functions, flat
 * and cum (a frame counted once per stack). */
Test(print, summary)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;

	a = small();
	po.summary = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out, HEADER
	    "samples: 2  locations: 2  functions: 2  mappings: 1\n"
	    "total inuse_objects/count: 3\n"
	    "total inuse_space/bytes: 4224 [default]\n"
	    "top 2 stacks by inuse_space (of 2):\n"
	    "           4096  96.97% main\n"
	    "            128   3.03% main;main;app::Pool::grow\n"
	    "top 2 functions by inuse_space (flat, flat%, cum, cum%) (of 2):\n"
	    "           4096  96.97%           4224 100.00% main\n"
	    "            128   3.03%            128   3.03% app::Pool::grow\n"));
	free(out);
	po.sample_type = "inuse_objects";
	po.top = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	cr_expect(eq(str, out, HEADER
	    "samples: 2  locations: 2  functions: 2  mappings: 1\n"
	    "total inuse_objects/count: 3\n"
	    "total inuse_space/bytes: 4224 [default]\n"
	    "top 1 stacks by inuse_objects (of 2):\n"
	    "              2  66.67% main;main;app::Pool::grow\n"
	    "top 1 functions by inuse_objects (flat, flat%, cum, cum%) "
	    "(of 2):\n"
	    "              2  66.67%              2  66.67% app::Pool::grow\n"));
	po.sample_type = "cpu";
	free(out);
	out = NULL;
	{
		size_t len = 0;
		FILE *fp = open_memstream(&out, &len);

		cr_assert(eq(int, profconv_profile_print(a, fp, &po),
		    PROFCONV_ENOTFOUND));
		cr_expect(eq(str, ERRMSG, "profile has no sample type 'cpu'"));
		fclose(fp);
	}
}

/* INT64_MIN has no magnitude in int64: ranking and totals must not
 * overflow (run under -fsanitize=undefined in CI). */
/* A summary that fails writes nothing: the type is checked first. */
Test(print, nothing_written_on_error)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	size_t len = 0;
	FILE *fp;

	a = small();
	po.summary = 1;
	po.sample_type = "cpu";
	fp = open_memstream(&out, &len);
	cr_assert(eq(int, profconv_profile_print(a, fp, &po),
	    PROFCONV_ENOTFOUND));
	fclose(fp);
	cr_expect(eq(str, out, ""));
}

Test(print, int64_min_summary)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	uint32_t f, g, lf, lg;
	int64_t min = INT64_MIN, one = 1;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "delta", "count");
	f = add_fn(a, "f", "");
	g = add_fn(a, "g", "");
	lf = LOC1(a, 0, 0x10, f, 1);
	lg = LOC1(a, 0, 0x20, g, 1);
	SAMPLE(a, &min, lf);
	SAMPLE(a, &min, lg, lf);
	SAMPLE(a, &one, lg);
	po.summary = 1;
	CAPTURE(out, profconv_profile_print(a, fp, &po));
	/* Saturated at INT64_MIN, then 1 added. */
	cr_expect(strstr(out, "total delta/count: -9223372036854775807 "
	    "[default]\n") != NULL, "%s", out);
	cr_expect(strstr(out, "top 3 stacks by delta (of 3):\n"
	    " -9223372036854775808 100.00% f\n"
	    " -9223372036854775808 100.00% f;g\n") != NULL, "%s", out);
}
