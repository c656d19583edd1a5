/* SPDX-License-Identifier: MIT */
/*
 * scratch.c - the scratch file of a fuzz harness (see scratch.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"

static char root[80];
static char path[128];

static void
cleanup(void)
{
	unlink(path);
	rmdir(root);
}

const char *
fuzz_scratch_file(const char *harness, const char *file)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	if (root[0] != '\0')
		return path;
	n = snprintf(root, sizeof(root), "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' && strlen(tmp) < 32 ? tmp : "/tmp",
	    harness);
	if (n < 0 || (size_t)n >= sizeof(root) || mkdtemp(root) == NULL)
		abort();
	n = snprintf(path, sizeof(path), "%s/%s", root, file);
	if (n < 0 || (size_t)n >= sizeof(path) || atexit(cleanup) != 0)
		abort();
	return path;
}

const char *
fuzz_scratch_dir(void)
{
	return root;
}
