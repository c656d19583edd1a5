/* SPDX-License-Identifier: MIT */
/*
 * debuginfod.c - ask debuginfod servers for a binary's source file, by
 * build id (debuginfod-find source BUILDID /FILE), for the annotated
 * source listing.
 *
 * libdebuginfod is elfutils' client.  libdw itself loads it with dlopen
 * only when a debuginfod lookup happens (what --debuginfod turns on for
 * the symbolizer), so the library does the same: nothing is loaded, and
 * no server is contacted, unless a caller asks.  The prototypes are
 * those of elfutils' debuginfod.h, whose header Debian ships only in the
 * -dev package.
 */

#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "symbolize/symbolize.h"

typedef struct debuginfod_client debuginfod_client;

static struct {
	debuginfod_client *(*begin)(void);
	int (*find_source)(debuginfod_client *, const unsigned char *, int,
	    const char *, char **);
	void (*end)(debuginfod_client *);
	char why[160];
} dfd;

static void
load(void)
{
	void *h = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		snprintf(dfd.why, sizeof(dfd.why), "libdebuginfod.so.1 not "
		    "loaded: %s", dlerror());
		return;
	}
	*(void **)&dfd.begin = dlsym(h, "debuginfod_begin");
	*(void **)&dfd.find_source = dlsym(h, "debuginfod_find_source");
	*(void **)&dfd.end = dlsym(h, "debuginfod_end");
	if (dfd.begin == NULL || dfd.find_source == NULL || dfd.end == NULL) {
		snprintf(dfd.why, sizeof(dfd.why), "libdebuginfod.so.1 lacks "
		    "debuginfod_find_source");
		dfd.begin = NULL;
	}
}

int
profconv_debuginfod_find_source(const char *build_id, const char *file,
    char **path_out, void *payload)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	debuginfod_client *c;
	char *path = NULL;
	int fd;

	(void)payload;
	*path_out = NULL;
	if (build_id == NULL || !profconv__build_id_valid(build_id))
		return profconv__fail(PROFCONV_ENOTFOUND, "no build id");
	if (file == NULL || file[0] != '/')
		return profconv__fail(PROFCONV_ENOTFOUND, "not an absolute "
		    "path");
	(void)pthread_once(&once, load);
	if (dfd.begin == NULL)
		return profconv__fail(PROFCONV_ENOTFOUND, "%s", dfd.why);
	c = dfd.begin();
	if (c == NULL)
		return profconv__fail(PROFCONV_ENOTFOUND, "debuginfod client "
		    "not made");
	/* A build id given as hex: length 0. */
	fd = dfd.find_source(c, (const unsigned char *)build_id, 0, file,
	    &path);
	dfd.end(c);
	if (fd < 0) {
		free(path);
		return profconv__fail(PROFCONV_ENOTFOUND, "%s for build id "
		    "%s", strerror(-fd), build_id);
	}
	close(fd);
	if (path == NULL)
		return profconv__fail(PROFCONV_ENOTFOUND, "no path from "
		    "debuginfod");
	*path_out = path;
	return 0;
}
