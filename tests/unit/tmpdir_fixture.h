/* SPDX-License-Identifier: MIT */
/*
 * tmpdir_fixture.h - DIR, a scratch directory a suite's .init makes with
 * make_tmp_dir() and remove_dir(), the suite's .fini, deletes with all
 * it holds.  For test_debug_inflate.c, test_find.c and
 * test_stacks_given.c.
 */
#ifndef PROFCONV_TEST_TMPDIR_FIXTURE_H
#define PROFCONV_TEST_TMPDIR_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

static char dir[64];

/* Make DIR from the mkdtemp TEMPLATE ("/tmp/name.XXXXXX"). */
static inline void
make_tmp_dir(const char *template)
{
	snprintf(dir, sizeof(dir), "%s", template);
	cr_assert(not(zero(ptr, mkdtemp(dir))));
}

/* A failure to clean up is not the test's failure: ignore it. */
static void
remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
}

#endif /* PROFCONV_TEST_TMPDIR_FIXTURE_H */
