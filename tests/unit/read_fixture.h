/* SPDX-License-Identifier: MIT */
/*
 * read_fixture.h - the contention and threadz tests' fixture: PROF, read
 * by read_text() from a text that must be detected as the format WANT,
 * and freed by drop(), each suite's .fini.  Not in helpers.h: other
 * reader tests keep a PROF, a drop() and a read_text() of their own.
 */
#ifndef PROFCONV_TEST_READ_FIXTURE_H
#define PROFCONV_TEST_READ_FIXTURE_H

#include <string.h>

#include "helpers.h"

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

static int
read_text(const char *text, enum profconv_format want)
{
	enum profconv_format fmt;
	int rc;

	rc = profconv_profile_read_mem(&prof, text, strlen(text), NULL, &fmt);
	cr_assert(eq(int, fmt, want));
	return rc;
}

#endif /* PROFCONV_TEST_READ_FIXTURE_H */
