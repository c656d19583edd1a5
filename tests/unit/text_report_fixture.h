/* SPDX-License-Identifier: MIT */
/*
 * text_report_fixture.h - the fixture of the tests of go tool pprof's
 * text reports (test_traces.c, test_tree.c): P, the profile each suite's
 * .init builds by hand, and OUT, the report written from it, both freed
 * by teardown(), the suite's .fini.
 */
#ifndef PROFCONV_TEST_TEXT_REPORT_FIXTURE_H
#define PROFCONV_TEST_TEXT_REPORT_FIXTURE_H

#include <stdlib.h>

#include "view_helpers.h"
#include "write/write.h"

static struct profconv_profile *p;
static char *out;

static void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
	free(out);
	out = NULL;
}

#endif /* PROFCONV_TEST_TEXT_REPORT_FIXTURE_H */
