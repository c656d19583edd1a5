/* SPDX-License-Identifier: MIT */
/*
 * symfind.c - find the binary behind a mapping: under a sysroot, at the
 * mapped path, or in search directories by build id, path or base name,
 * refusing files whose build id is not the mapping's.
 */

#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize.h"

struct finder {
	const char *want_id;		/* "" when the mapping has none */
	struct pc_found *out;
	int rc;				/* a hard failure (ENOMEM) */
	bool done;
};

/* Try PATH; true once a usable file was found or a hard error happened. */
static bool
try_path(struct finder *f, const char *path)
{
	struct pc_elfinfo info;
	int fd, rc;

	if (f->done)
		return true;
	if (access(path, R_OK) != 0)
		return false;
	rc = profconv__elfinfo_read(&info, path, &fd);
	if (rc == PROFCONV_ENOMEM) {
		f->rc = rc;
		f->done = true;
		return true;
	}
	if (rc < 0) {
		/* Readable but not a usable ELF file: remember the first. */
		if (f->out->bad_path[0] == '\0') {
			snprintf(f->out->bad_path, sizeof(f->out->bad_path),
			    "%s", path);
			snprintf(f->out->bad_why, sizeof(f->out->bad_why),
			    "%s", profconv_errmsg());
		}
		return false;
	}
	if (f->want_id[0] != '\0' && info.build_id[0] != '\0' &&
	    !profconv__build_id_equal(f->want_id, info.build_id)) {
		if (f->out->mismatch_id[0] == '\0') {
			memcpy(f->out->mismatch_id, info.build_id,
			    sizeof(info.build_id));
			snprintf(f->out->mismatch_path,
			    sizeof(f->out->mismatch_path), "%s", path);
		}
		profconv__elfinfo_free(&info);
		close(fd);
		return false;
	}
	f->out->path = strdup(path);
	if (f->out->path == NULL) {
		profconv__elfinfo_free(&info);
		close(fd);
		f->rc = profconv__nomem();
	} else {
		f->out->info = info;
		f->out->fd = fd;
	}
	f->done = true;
	return true;
}

/* Try the path that FMT and its arguments make. */
static bool __attribute__((format(printf, 2, 3)))
try_fmt(struct finder *f, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	if (f->done)
		return true;
	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	return try_path(f, path);
}

/* The next element of a colon-separated list into BUF; NULL at the end. */
static const char *
next_dir(const char **list, char *buf, size_t size)
{
	const char *p = *list, *colon;
	size_t len;

	while (*p == ':')
		p++;
	if (*p == '\0')
		return NULL;
	colon = strchr(p, ':');
	len = colon != NULL ? (size_t)(colon - p) : strlen(p);
	*list = p + len;
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return buf;
}

/* pprof's build-id layouts and the .build-id tree, in each directory. */
static void
try_by_build_id(struct finder *f, const char *dirs, const char *base)
{
	const char *id = f->want_id, *dir;
	char buf[PATH_MAX];

	if (dirs == NULL || strlen(id) < 3)
		return;
	while ((dir = next_dir(&dirs, buf, sizeof(buf))) != NULL) {
		if (try_fmt(f, "%s/%s/%s", dir, id, base) ||
		    try_fmt(f, "%s/.build-id/%.2s/%s", dir, id, id + 2) ||
		    try_fmt(f, "%s/.build-id/%.2s/%s.debug", dir, id, id + 2) ||
		    try_fmt(f, "%s/%.2s/%s.debug", dir, id, id + 2))
			return;
	}
}

/* The mapped path under each directory, then the base name there. */
static void
try_by_name(struct finder *f, const char *dirs, const char *file,
    const char *base)
{
	const char *dir;
	char buf[PATH_MAX];

	if (dirs == NULL)
		return;
	while ((dir = next_dir(&dirs, buf, sizeof(buf))) != NULL) {
		if ((file[0] == '/' && try_fmt(f, "%s%s", dir, file)) ||
		    try_fmt(f, "%s/%s", dir, base))
			return;
	}
}

int
profconv__find_binary(const struct pc_find *how, const char *file,
    const char *build_id, struct pc_found *out)
{
	struct finder f = { build_id != NULL ? build_id : "", out, 0, false };
	const char *base = strrchr(file, '/');

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	base = base != NULL ? base + 1 : file;
	/* A build id names the very file, wherever the path points. */
	try_by_build_id(&f, how->search_path, base);
	if (how->sysroot != NULL && how->sysroot[0] != '\0')
		try_fmt(&f, "%s%s%s", how->sysroot, file[0] == '/' ? "" : "/",
		    file);
	else
		try_path(&f, file);
	/* A process in a container sees its files under its own root. */
	if (how->pid > 0 && file[0] == '/')
		try_fmt(&f, "/proc/%d/root%s", how->pid, file);
	try_by_name(&f, how->search_path, file, base);
	if (f.rc < 0)
		return f.rc;
	return f.done ? 0 : PROFCONV_ENOTFOUND;
}

void
profconv__found_free(struct pc_found *found)
{
	free(found->path);
	profconv__elfinfo_free(&found->info);
	if (found->fd >= 0)
		close(found->fd);
	memset(found, 0, sizeof(*found));
	found->fd = -1;
}
