/* SPDX-License-Identifier: MIT */
/*
 * report_fixture.h - a small profile and its HTML page in OUT, for the
 * tests of report/: the page, its data and its views.
 */
#ifndef PROFCONV_TEST_REPORT_FIXTURE_H
#define PROFCONV_TEST_REPORT_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "writer_fixture.h"

/* main;grow 30, main;<b>x</b> 10, main 5 (objects, space = 100 x). */
static inline void
profile(struct profconv_profile **res, int64_t grow)
{
	struct profconv_profile *p;
	uint32_t m, g, h, lm, lg, lh;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "objects", "count");
	profconv_profile_add_sample_type(p, "space", "bytes");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	h = add_fn(p, "<b>x</b>", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	lh = LOC1(p, 0, 0x30, h, 1);
	SAMPLE(p, ((int64_t[]){ grow, 100 * grow }), lg, lm);
	SAMPLE(p, ((int64_t[]){ 10, 1000 }), lh, lm);
	SAMPLE(p, ((int64_t[]){ 5, 500 }), lm);
	*res = p;
}

static inline int
page(const struct profconv_profile *cur, const struct profconv_profile *base,
    const struct profconv_report_options *o)
{
	size_t len = 0;
	FILE *fp;
	int rc;

	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	cr_assert(not(zero(ptr, fp)));
	rc = profconv_report_write(cur, base, fp, o);
	fclose(fp);
	return rc;
}

static inline size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

#endif /* PROFCONV_TEST_REPORT_FIXTURE_H */
