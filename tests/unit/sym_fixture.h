/* SPDX-License-Identifier: MIT */
/*
 * sym_fixture.h - the mapping of /proc/self/maps that holds an address
 * of this very test program, and a binary_report callback that notes
 * what it hears, for the symbolizer's tests.  The function they look up
 * stays in each test file: its file name is checked.
 */
#ifndef PROFCONV_TEST_SYM_FIXTURE_H
#define PROFCONV_TEST_SYM_FIXTURE_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "helpers.h"

/* The executable mapping of /proc/self/maps that holds ADDR. */
static inline void
self_mapping(uintptr_t addr, struct profconv_mapping *m, char *file,
    size_t size)
{
	unsigned long long start, end, off;
	char line[4096], perms[8], path[4096];
	FILE *fp = fopen("/proc/self/maps", "r");

	cr_assert(not(zero(ptr, fp)));
	while (fgets(line, sizeof(line), fp) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start,
		    &end, perms, &off, path) < 4)
			continue;
		if (addr < start || addr >= end)
			continue;
		snprintf(file, size, "%s", path);
		m->start = start;
		m->limit = end;
		m->offset = off;
		m->file = file;
		fclose(fp);
		return;
	}
	fclose(fp);
	cr_fatal("no mapping holds %#" PRIxPTR, addr);
}

/* What binary_report hears, in order: the first four reports, and how
 * many came.  A test sets NREPORTED to 0 before its run. */
static char reported[4][64];
static int reported_problem[4];
static size_t reported_locations[4], nreported;

static inline void
note_report(const struct profconv_binary_report *r, void *payload)
{
	(void)payload;
	if (nreported < 4) {
		snprintf(reported[nreported], sizeof(reported[0]), "%s",
		    r->path);
		reported_problem[nreported] = (int)r->problem;
		reported_locations[nreported] = r->locations;
	}
	nreported++;
}

#endif /* PROFCONV_TEST_SYM_FIXTURE_H */
