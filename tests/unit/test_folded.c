/* SPDX-License-Identifier: MIT */
/*
 * test_folded.c - the folded-stack writer (write/folded.c,
 * profconv_flame_write): one view or a base and a current one, checked
 * to the byte on profiles built by hand.
 */

#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "view/view.h"
#include "writer_fixture.h"

TestSuite(flame, .fini = teardown);

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

static void
folded(void)
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
static void
differential(void)
{
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;

	flame_pair();
	fo.sample_type = "objects";
	CAPTURE(out, profconv_flame_write(vb, va, fp, &fo));
	cr_expect(eq(str, out, "main;grow 10 15\nmain;new 0 6\n"
	    "main;odd:name x_42 0 2\nmain;old 4 0\n"));
}

Test(flame, writes_one_view_or_two)
{
	folded();
	teardown();
	differential();
}

static void
negative_counts_refused(void)
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

static void
unknown_type(void)
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

static void
no_view_or_no_file_is_einval(void)
{
	FILE *fp = fopen("/dev/null", "w");

	cr_assert(fp != NULL);
	flame_pair();
	cr_expect(eq(int, profconv_flame_write(NULL, NULL, fp, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_flame_write(NULL, va, fp, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_flame_write(vb, NULL, NULL, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_flame_write(vb, va, fp, NULL), 0),
	    "%s", ERRMSG);
	fclose(fp);
}

Test(flame, refuses_what_it_cannot_write)
{
	negative_counts_refused();
	teardown();
	unknown_type();
	teardown();
	no_view_or_no_file_is_einval();
}

/* Names of every length around the writer's 32-byte copies (and one
 * longer than the view keeps), in stacks of 1 to 40 frames: each line
 * is the names joined by ';', as written out by hand here. */
Test(flame, names_of_every_length)
{
	enum { NN = 70, NS = 40 };
	static char names[NN][1200];
	uint32_t loc[NN], stk[NS];
	char *want = NULL, *line;
	size_t len[NN], i, k, n, at = 0, cap = 0;
	int64_t val;

	cr_assert(eq(int, profconv_profile_new(&a), 0));
	profconv_profile_add_sample_type(a, "space", "bytes");
	for (i = 0; i < NN; i++) {
		/* Lengths 1..68, then 100 and 1100 (cut by the view). */
		len[i] = i < NN - 2 ? i + 1 : i == NN - 2 ? 100 : 1100;
		for (k = 0; k < len[i]; k++)
			names[i][k] = (char)('a' + (i + k) % 26);
		names[i][0] = (char)('A' + i % 26);
		names[i][len[i]] = '\0';
		loc[i] = LOC1(a, 0, 0x100 + 16 * i, add_fn(a, names[i], ""), 1);
	}
	for (n = 1; n <= NS; n++) {
		/* Stack N: leaf first in the model, frames (N * 7 + k) % NN. */
		for (k = 0; k < n; k++)
			stk[n - 1 - k] = loc[(n * 7 + k) % (NN - 1)];
		val = (int64_t)n;
		cr_assert(eq(int, profconv_profile_add_sample(a, stk, n, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	/* The 1100-byte name, alone, as the view cuts it. */
	stk[0] = loc[NN - 1];
	val = 1000;
	cr_assert(eq(int, profconv_profile_add_sample(a, stk, 1, &val, NULL,
	    0), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_new(&va, a, NULL), 0));
	CAPTURE(out, profconv_flame_write(va, NULL, fp, NULL));
	/* Every line the view's stack I gives, joined by hand. */
	for (i = 0; i < profconv_view_stack_count(va); i++) {
		struct pc_view_stack st;
		size_t need = 64;

		cr_assert(eq(int, profconv__view_stack(va, i, &st), 0));
		for (k = 0; k < st.nframes; k++)
			need += strlen(profconv__view_frame_text(va,
			    pc_stack_at(st.frames, k))) + 1;
		cr_assert(eq(int, PC_GROW(want, cap, at, need), 0));
		line = want + at;
		for (k = 0; k < st.nframes; k++)
			line += snprintf(line, need, "%s%s", k != 0 ? ";" : "",
			    profconv__view_frame_text(va, pc_stack_at(st.frames, k)));
		line += snprintf(line, need, " %" PRId64 "\n", st.values[0]);
		at = (size_t)(line - want);
	}
	cr_assert(eq(sz, profconv_view_stack_count(va), NS + 1));
	cr_assert(eq(str, out, want));
	/* The cut name is in it, as long as the view makes it. */
	cr_assert(not(eq(ptr, strstr(out, "..."), NULL)));
	free(want);
}
