/* SPDX-License-Identifier: MIT */
/*
 * writer_fixture.h - what the row, writer and comparison tests build:
 * profiles A and B, their views VA and VB, and OUT, the text written.
 * teardown(), each suite's .fini, frees them.  Not in view_helpers.h:
 * the view's own tests use these short names for locals.  Include it
 * after the library's internal headers, whose inline functions have
 * parameters named A and B.
 */
#ifndef PROFCONV_TEST_WRITER_FIXTURE_H
#define PROFCONV_TEST_WRITER_FIXTURE_H

#include <stdlib.h>

#include "view_helpers.h"

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

#endif /* PROFCONV_TEST_WRITER_FIXTURE_H */
