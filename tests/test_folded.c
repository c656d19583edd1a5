/* SPDX-License-Identifier: MIT */
/*
 * test_folded.c - the folded-stack writer (write/folded.c,
 * profconv_flame_write): one view or a base and a current one, checked
 * to the byte on profiles built by hand.
 */

#include "config.h"

#include <stdint.h>

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

Test(flame, no_view_or_no_file_is_einval)
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
