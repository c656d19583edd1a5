/* SPDX-License-Identifier: MIT */
/*
 * test_rows.c - the row engine (view/rows.c): a view's stacks grouped
 * into rows by function, flat and cum, or by whole stack, for one view
 * or several at their column offsets, on profiles built by hand.
 */

#include "config.h"

#include <stdint.h>

#include "view/view.h"
#include "write/write.h"
/* Last: its globals A and B would shadow parameters of base.h. */
#include "writer_fixture.h"

TestSuite(rows, .fini = teardown);

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
static void
flat_cum_and_stacks(void)
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
static void
views_at_offsets(void)
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

Test(rows, rows_of_one_view_or_several)
{
	flat_cum_and_stacks();
	teardown();
	views_at_offsets();
}

/* Stack labels: leaf first; the middle elided to fit, the leaf and the
 * root kept; long frames cut; UTF-8 counted by characters. */
static char *
label(const char *folded, size_t width)
{
	static char *buf;
	static size_t cap;

	cr_assert(eq(int, profconv__rows_stack_label(&buf, &cap, folded,
	    width), 0));
	cr_assert(le(sz, profconv__utf8_chars(buf), width), "%s", buf);
	return buf;
}

static void
stack_labels(void)
{
	const char *deep = "_start;main;caller;helper;leaf";	/* 38 */

	cr_expect(eq(str, label("main;a;b", 20), "b < a < main"));
	cr_expect(eq(str, label("leaf", 20), "leaf"));
	cr_expect(eq(str, label("[no stack]", 20), "[no stack]"));
	cr_expect(eq(str, label(deep, 38),
	    "leaf < helper < caller < main < _start"));
	/* Too long: the middle goes, the leaf's callers as far as fit. */
	cr_expect(eq(str, label(deep, 37), "leaf < helper < caller < ... < _start"));
	cr_expect(eq(str, label(deep, 30), "leaf < helper < ... < _start"));
	cr_expect(eq(str, label(deep, 22), "leaf < ... < _start"));
	/* A leaf longer than its room is cut; so is a long root. */
	cr_expect(eq(str, label("main;abcdefghijklmnopqrstuvwxyz0123456789",
	    20), "abcdefghij... < main"));
	cr_expect(eq(str, label("main;f;abcdefghijklmnopqrstuvwxyz0123456789",
	    20), "abcd... < ... < main"));
	cr_expect(eq(str, label("abcdefghijklmnopqrstuvwxyz;x", 20),
	    "x < abc..."));
	cr_expect(eq(str, label("abcdefghijklmnopqrstuvwxyz", 20),
	    "abcdefghijklmnopq..."));
	/* Multibyte names: characters, never a split sequence. */
	cr_expect(eq(str, label("r\xc3\xa9gion;\xc3\xa9\xc3\xa9\xc3\xa9",
	    20), "\xc3\xa9\xc3\xa9\xc3\xa9 < r\xc3\xa9gion"));
	cr_expect(eq(str, label("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9", 20), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..."));
}

/* A set of stack labels: those that would be equal tell their rows
 * apart; the others are as profconv__rows_stack_label() makes them. */
static struct pc_stack_labels *
labels(const char *const *folded, size_t n, size_t width)
{
	struct pc_stack_labels *sl;
	size_t i, j;

	cr_assert(eq(int, profconv__stack_labels_new(&sl, folded, n, width),
	    0));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			cr_assert(ne(str, (char *)profconv__stack_labels_get(sl,
			    i), (char *)profconv__stack_labels_get(sl, j)),
			    "rows %zu and %zu: %s", i, j,
			    profconv__stack_labels_get(sl, i));
	return sl;
}

static void
stack_labels_apart(void)
{
	/* Five string allocations reached from five callers deep in the
	 * middle (the lua case of issue #40), and one row apart. */
	static const char *const folded[] = {
		"_start;main;lua_pcall;luaD_call;f1;luaV_execute;luaS_newlstr;"
		    "createstrobj;luaC_newobj;luaM_malloc_",
		"_start;main;lua_pcall;luaD_call;f2;luaV_execute;luaS_newlstr;"
		    "createstrobj;luaC_newobj;luaM_malloc_",
		"_start;main;lua_pcall;luaD_call;f3;luaV_execute;luaS_new;"
		    "createstrobj;luaC_newobj;luaM_malloc_",
		"_start;main;lua_pcall;luaD_call;f1;luaV_concat;luaS_newlstr;"
		    "createstrobj;luaC_newobj;luaM_malloc_",
		"_start;main;lua_pcall;luaD_call;f1;luaV_execute;luaS_newlstr;"
		    "createstrobj;luaC_newobj;luaM_malloc_;extra",
		"_start;main;other;leaf",
	};
	struct pc_stack_labels *sl;
	const char *l;
	size_t i;

	sl = labels(folded, PC_ARRAY_LEN(folded), 60);
	/* Apart where they differ, the leaf and the root kept, as many of
	 * the leaf's callers as fit in the width (60: luaV_concat leaves
	 * room for none). */
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 2),
	    "luaM_malloc_ < luaC_newobj < ... < luaS_new < ... < _start"),
	    "%s",
	    profconv__stack_labels_get(sl, 2));
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 3),
	    "luaM_malloc_ < ... < luaV_concat < ... < _start"), "%s",
	    profconv__stack_labels_get(sl, 3));
	for (i = 0; i < 4; i++) {
		l = profconv__stack_labels_get(sl, i);
		cr_expect(eq(int, strncmp(l, "luaM_malloc_ < ", 15), 0), "%s", l);
		cr_expect(eq(str, (char *)l + strlen(l) - 6, "_start"));
		cr_expect(le(sz, profconv__utf8_chars(l), 60), "%s", l);
	}
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 0),
	    "luaM_malloc_ < luaC_newobj < ... < f1 < ... < _start"), "%s",
	    profconv__stack_labels_get(sl, 0));
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 1),
	    "luaM_malloc_ < luaC_newobj < ... < f2 < ... < _start"), "%s",
	    profconv__stack_labels_get(sl, 1));
	/* Not colliding: as before. */
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 4),
	    label(folded[4], 60)), "%s",
	    profconv__stack_labels_get(sl, 4));
	cr_expect(eq(str, (char *)profconv__stack_labels_get(sl, 5),
	    "leaf < other < main < _start"), "%s",
	    profconv__stack_labels_get(sl, 5));
	profconv__stack_labels_free(sl);
}

Test(rows, stack_labels_made_and_told_apart)
{
	stack_labels();
	teardown();
	stack_labels_apart();
}

/* Recursion: the frame that differs shows an equal name elsewhere, and
 * stacks that differ only in depth; thousands of rows, all apart. */
Test(rows, stack_labels_apart_many)
{
	enum { N = 3000 };
	static char text[N][400];
	const char *folded[N];
	struct pc_stack_labels *sl;
	size_t i, j, len;

	for (i = 0; i < N; i++) {
		len = (size_t)snprintf(text[i], sizeof(text[i]), "_start;main");
		for (j = 0; j < i % 7; j++)
			len += (size_t)snprintf(text[i] + len,
			    sizeof(text[i]) - len, ";rec");
		len += (size_t)snprintf(text[i] + len, sizeof(text[i]) - len,
		    ";caller%zu;rec;rec;mid;alloc_a_rather_long_name;"
		    "leaf_with_a_long_name_too", i / 7);
		folded[i] = text[i];
	}
	sl = labels(folded, N, PC_STACK_LABEL_WIDTH);
	profconv__stack_labels_free(sl);
}
