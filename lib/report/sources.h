/* SPDX-License-Identifier: MIT */
/*
 * sources.h - the source roots and the search state of an annotated
 * listing, shared by source.c (reading and finding a file) and
 * source_path.c (Go's path rules, the source roots).
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_SOURCES_H
#define PROFCONV_REPORT_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "report/list.h"

/* Paths tried for one file, at most (search directories times depth). */
#define MAX_TRIES 4096
#define NOTE_MAX 480

/* A directory sources may be read from: as given (absolute, cleaned),
 * its real path, and an O_PATH descriptor of it. */
struct pc_root {
	char *given, *real;
	int fd;
};

/* A build directory the symbolizer recorded: a root for the files
 * compiled in it only, opened when first needed. */
struct pc_build_root {
	char *dir;
	struct pc_root r;
	bool tried, open;
};

struct pc_sources {
	const struct profconv_list_options *opts;
	char *cwd;			/* the search path when none is given */
	uint64_t max, max_total, total;	/* bytes: a file, all, read */
	struct pc_root *roots;
	size_t nroots, roots_cap;
	struct pc_text **texts;		/* each file read, once */
	size_t ntexts, texts_cap;
	bool no_openat2;		/* tests: the fallback check */
	struct pc_source **files;	/* each its own allocation: the
					 * listing keeps pointers to them */
	size_t nfiles, files_cap;
	struct pc_build_root *broots;	/* build directories */
	size_t nbroots, broots_cap;
	struct pc_keymap bdirs;		/* directory -> broot + 1 */
	struct pc_keymap file_bdir;	/* profile's file -> broot + 1 */
	const struct pc_root *cur_build;	/* the file looked for's */
};

/*
 * Where S's root R is beneath: the part of ABS (absolute, cleaned) under
 * DIR (absolute, cleaned), "." for DIR itself, or NULL when ABS is not
 * under it.
 */
const char *profconv__source_beneath(const char *abs, const char *dir);

/*
 * REL beneath root R opened O_PATH into *FD, never leaving R: openat2()
 * with RESOLVE_BENEATH where the kernel has it, else the path the kernel
 * resolved checked to be beneath R's real path.  0 when opened, else
 * -1 with errno set (EXDEV: it leads out of R).
 */
int profconv__source_open_in_root(const struct pc_sources *s,
    const struct pc_root *r,
    const char *rel, int *fd);

/* The root of the build directory the symbolizer recorded for FILE (the
 * profile's name), opened the first time; NULL when there is none, it
 * is not a directory here, or it is "/". */
const struct pc_root *profconv__source_build_root(struct pc_sources *s,
    const char *file, int *rc);

/*
 * The roots a source may be read from: each --source-path directory
 * (the current directory when none is given) and each --trim-path prefix
 * that is a directory here.
 */
int profconv__source_add_roots(struct pc_sources *s);

#endif
