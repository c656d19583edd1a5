/* SPDX-License-Identifier: MIT */
/*
 * source_fixture.h - source files written for a test into DIR, a scratch
 * directory the including file defines (a mkdtemp() pattern of its own,
 * so test programs run side by side never share one) before it includes
 * this header.  For test_source.c, and through list_fixture.h for
 * test_list.c and test_list_rows.c.
 */
#ifndef PROFCONV_TEST_SOURCE_FIXTURE_H
#define PROFCONV_TEST_SOURCE_FIXTURE_H

#include <stdio.h>

#include "helpers.h"

static inline void
write_file(const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	cr_assert(not(zero(ptr, fp)));
	fputs(text, fp);
	fclose(fp);
}

#endif /* PROFCONV_TEST_SOURCE_FIXTURE_H */
