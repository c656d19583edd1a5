/* SPDX-License-Identifier: MIT */
/*
 * list_fixture.h - an empty profile in P and a fresh scratch directory
 * DIR for every test (the including file defines DIR first, see
 * source_fixture.h); the listing of a profile as text; locations with
 * lines given.  For test_list.c and test_list_rows.c.
 */
#ifndef PROFCONV_TEST_LIST_FIXTURE_H
#define PROFCONV_TEST_LIST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "report/list.h"
#include "view_helpers.h"
#include "source_fixture.h"

static struct profconv_profile *p;

static inline void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(not(zero(ptr, mkdtemp(dir))));
}

static inline void
teardown(void)
{
	char cmd[128];

	profconv_profile_free(p);
	p = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)system(cmd);
}

static inline char *
listing(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *rx,
    const struct profconv_list_options *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int rc;

	cr_assert(not(zero(ptr, fp)));
	rc = profconv_list_write(cur, base, rx, fp, o);
	fclose(fp);
	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	return text;
}

/* A location whose lines are LINES (innermost first). */
static inline uint32_t
loc(uint32_t map, uint64_t addr, const struct profconv_line *lines, size_t n)
{
	uint32_t id = 0;

	cr_assert(eq(int, profconv_profile_add_location(p, map, addr, lines, n,
	    0, &id), 0), "%s", ERRMSG);
	return id;
}

#endif /* PROFCONV_TEST_LIST_FIXTURE_H */
