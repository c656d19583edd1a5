/* SPDX-License-Identifier: MIT */
/*
 * session_fixture.h - a profile PROF, a symbolizer SZ and a session S
 * that a test may make, and drop_session() to free whichever were made.
 * For the tests of a symbolizing run's passes: test_convert.c,
 * test_lookup.c and test_plan.c.
 */
#ifndef PROFCONV_TEST_SESSION_FIXTURE_H
#define PROFCONV_TEST_SESSION_FIXTURE_H

#include <stdbool.h>

#include "helpers.h"
#include "symbolize/symbolizer.h"

static struct profconv_profile *prof;
static struct profconv_symbolizer *sz;
static struct session s;
static bool session_made;	/* S holds something to free */

static inline void
drop_session(void)
{
	if (session_made)
		profconv__sym_session_free(&s);
	session_made = false;
	profconv_symbolizer_free(sz);
	sz = NULL;
	profconv_profile_free(prof);
	prof = NULL;
}

#endif /* PROFCONV_TEST_SESSION_FIXTURE_H */
