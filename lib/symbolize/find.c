/* SPDX-License-Identifier: MIT */
/*
 * find.c - find the binary behind a mapping: under a sysroot, at the
 * mapped path, or in search directories by build id, path or base name,
 * refusing files whose build id is not the mapping's; and find a
 * module's separate debug file by its debuglink or dwz alternate link.
 */

#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gelf.h>
#include <zlib.h>
#include <elfutils/libdwelf.h>

#include "base/bounds.h"
#include "symbolize/dwarf_index.h"

struct finder {
	const char *want_id;		/* "" when the mapping has none */
	struct pc_found *out;
	bool require_id;		/* refuse files without one */
	int rc;				/* a hard failure (ENOMEM) */
	bool done;
};

/*
 * Try PATH, inside ROOT when ROOT is not NULL; true once a usable file
 * was found or a hard error happened.
 */
static bool
try_in(struct finder *f, const char *root, const char *path)
{
	struct pc_elfinfo info;
	char *real = NULL;
	int fd, rc;

	if (f->done)
		return true;
	if (root == NULL && access(path, R_OK) != 0)
		return false;
	rc = root != NULL ? profconv__elfinfo_read_in(&info, root, path, &fd,
	    &real) : profconv__elfinfo_read(&info, path, &fd);
	if (rc == PROFCONV_ENOMEM) {
		f->rc = rc;
		f->done = true;
		return true;
	}
	if (rc == PROFCONV_ENOTFOUND)
		return false;
	if (rc < 0) {
		/* Readable but not a usable ELF file: remember the first. */
		if (f->out->bad_path[0] == '\0') {
			snprintf(f->out->bad_path, sizeof(f->out->bad_path),
			    "%s%s%s", root != NULL ? root : "", root != NULL &&
			    path[0] != '/' ? "/" : "", path);
			snprintf(f->out->bad_why, sizeof(f->out->bad_why),
			    "%s", profconv_errmsg());
		}
		return false;
	}
	if (f->want_id[0] != '\0' && (info.build_id[0] != '\0' ||
	    f->require_id) &&
	    !profconv__build_id_equal(f->want_id, info.build_id)) {
		if (f->out->mismatch_id[0] == '\0') {
			memcpy(f->out->mismatch_id, info.build_id,
			    sizeof(info.build_id));
			snprintf(f->out->mismatch_path,
			    sizeof(f->out->mismatch_path), "%s",
			    real != NULL ? real : path);
		}
		profconv__elfinfo_free(&info);
		free(real);
		close(fd);
		return false;
	}
	f->out->path = real != NULL ? real : strdup(path);
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

static bool
try_path(struct finder *f, const char *path)
{
	return try_in(f, NULL, path);
}

/*
 * Does PATH, from a profile, have a "." or ".." component?  Under a
 * search directory it would name files outside it.
 */
static bool
has_dot_component(const char *path)
{
	const char *p = path;
	size_t n;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' &&
		    p[1] == '.'))
			return true;
		p += n;
	}
	return false;
}

bool
profconv__build_id_valid(const char *id)
{
	size_t n = strlen(id);

	/* Hex only: it is used as a path component. */
	return n >= 2 && n <= 128 && n % 2 == 0 &&
	    strspn(id, "0123456789abcdefABCDEF") == n;
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

	if (dirs == NULL || !profconv__build_id_valid(id) ||
	    has_dot_component(base) || base[0] == '\0')
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

	if (dirs == NULL || has_dot_component(base) || base[0] == '\0')
		return;
	while ((dir = next_dir(&dirs, buf, sizeof(buf))) != NULL) {
		if ((file[0] == '/' && !has_dot_component(file) &&
		    try_fmt(f, "%s%s", dir, file)) ||
		    try_fmt(f, "%s/%s", dir, base))
			return;
	}
}

int
profconv__find_binary(const struct pc_find *how, const char *file,
    const char *build_id, struct pc_found *out)
{
	struct finder f = { build_id != NULL ? build_id : "", out,
		how->require_id, 0, false };
	const char *base = strrchr(file, '/');

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	base = base != NULL ? base + 1 : file;
	/* A build id names the very file, wherever the path points. */
	try_by_build_id(&f, how->search_path, base);
	/* Inside a root, "..", and links, absolute or not, stay in it. */
	if (how->sysroot != NULL && how->sysroot[0] != '\0')
		try_in(&f, how->sysroot, file);
	else
		try_path(&f, file);
	/* A process in a container sees its files under its own root. */
	if (how->pid > 0 && file[0] == '/') {
		char root[64];

		snprintf(root, sizeof(root), "/proc/%d/root", how->pid);
		try_in(&f, root, file);
	}
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

/* --- separate debug files ------------------------------------------------- */

/* The CRC-32 of the whole file FD, as .gnu_debuglink records it. */
static bool
file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0, Z_NULL, 0);
	ssize_t n;
	off_t off = 0;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		c = crc32(c, buf, (uInt)n);
		off += n;
	}
	*crc = (uint32_t)c;
	return n == 0;
}

/*
 * May the whole of a debug file of SIZE bytes be read for its CRC, for
 * the binary SELF (NULL: unknown)?  base/bounds.h.
 */
static bool
crc_affordable(const struct stat *self, off_t size)
{
	uint64_t bound = PC_DEBUGLINK_MIN_BOUND;

	if (self != NULL && (uint64_t)self->st_size <= UINT64_MAX /
	    PC_DEBUGLINK_MAX_RATIO && (uint64_t)self->st_size *
	    PC_DEBUGLINK_MAX_RATIO > bound)
		bound = (uint64_t)self->st_size * PC_DEBUGLINK_MAX_RATIO;
	return size >= 0 && (uint64_t)size <= bound;
}

/* Is the file open on FD (of SIZE bytes) the debug file QUERY wants? */
static bool
debugfile_matches(const struct pc_debug_query *q, const struct stat *self,
    int fd, off_t size)
{
	const void *bits;
	ssize_t n = -1;
	uint32_t crc;
	Elf *elf;

	profconv__libelf_init();
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL)
		return false;
	if (elf_kind(elf) == ELF_K_ELF)
		n = dwelf_elf_gnu_build_id(elf, &bits);
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return false;
	}
	if (q->id != NULL && q->id_len > 0) {
		bool same = n == (ssize_t)q->id_len &&
		    memcmp(bits, q->id, q->id_len) == 0;

		elf_end(elf);
		return same;
	}
	elf_end(elf);
	if (q->crc == 0)
		return true;
	return crc_affordable(self, size) && file_crc(fd, &crc) &&
	    crc == q->crc;
}

/*
 * Try PATH, inside ROOT unless it is "", as the debug file; its
 * descriptor, or -1.  Inside a root, *REAL_OUT is the file's path on
 * this host (malloc'd).
 */
static int
try_debugfile(const struct pc_debug_query *q, const struct stat *self,
    const char *root, const char *path, char **real_out)
{
	struct stat st;
	int fd;

	*real_out = NULL;
	if (root[0] != '\0') {
		if (profconv__open_in_root(root, path, &fd, real_out) < 0)
			return -1;
	} else if (access(path, R_OK) != 0 ||
	    profconv__open_regular(path, &fd) < 0) {
		return -1;
	}
	/* Not the file, or a debuglink naming the very file it is in. */
	if (fstat(fd, &st) != 0 || (self != NULL && st.st_dev ==
	    self->st_dev && st.st_ino == self->st_ino) ||
	    !debugfile_matches(q, self, fd, st.st_size)) {
		close(fd);
		free(*real_out);
		*real_out = NULL;
		return -1;
	}
	return fd;
}

static int
try_debugfmt(const struct pc_debug_query *q, const struct stat *self,
    const char *root, char **path_out, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Try the path FMT makes, inside ROOT unless it is "". */
static int
try_debugfmt(const struct pc_debug_query *q, const struct stat *self,
    const char *root, char **path_out, const char *fmt, ...)
{
	char path[PATH_MAX], *real;
	va_list ap;
	int n, fd;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	fd = try_debugfile(q, self, root, path, &real);
	if (fd >= 0 && real != NULL)
		*path_out = real;
	else if (fd >= 0 && (*path_out = strdup(path)) == NULL) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * LINK under each directory of DIRS: DIR/FILEDIR/LINK, then DIR/LINK,
 * inside ROOT unless it is "".
 */
static int
try_debugdirs(const struct pc_debug_query *q, const struct stat *self,
    const char *dirs, const char *root, const char *filedir,
    char **path_out)
{
	char buf[PATH_MAX];
	const char *dir;
	int fd = -1;

	while (fd < 0 && dirs != NULL &&
	    (dir = next_dir(&dirs, buf, sizeof(buf))) != NULL) {
		/* Relative entries (".debug") are the file's own dir's. */
		if (dir[0] != '/')
			continue;
		if (filedir[0] == '/')
			fd = try_debugfmt(q, self, root, path_out, "%s%s/%s",
			    dir, filedir, q->link);
		if (fd < 0)
			fd = try_debugfmt(q, self, root, path_out, "%s/%s",
			    dir, q->link);
	}
	return fd;
}

/*
 * By build id: DIR/.build-id/xx/rest.debug under each directory of DIRS
 * (absolute ones), inside ROOT unless it is "".  Opened as every file named by a
 * profile is, so a FIFO planted there cannot block.
 */
static int
try_build_id(const struct pc_debug_query *q, const struct stat *self,
    const char *dirs, const char *root, char **path_out)
{
	static const char hex[] = "0123456789abcdef";
	char id[2 * 64 + 1], buf[PATH_MAX];
	const char *dir;
	size_t i, n = q->id_len < 64 ? q->id_len : 64;
	int fd = -1;

	if (q->id == NULL || n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		id[2 * i] = hex[q->id[i] >> 4];
		id[2 * i + 1] = hex[q->id[i] & 15];
	}
	id[2 * n] = '\0';
	while (fd < 0 && dirs != NULL &&
	    (dir = next_dir(&dirs, buf, sizeof(buf))) != NULL) {
		if (dir[0] != '/')
			continue;
		fd = try_debugfmt(q, self, root, path_out,
		    "%s/.build-id/%.2s/%s.debug", dir, id, id + 2);
	}
	return fd;
}

int
profconv__find_debugfile(const struct pc_debug_query *q, char **path_out)
{
	const char *slash = strrchr(q->file, '/');
	const char *root = q->sysroot != NULL ? q->sysroot : "";
	char filedir[PATH_MAX];
	struct stat self_st, *self = NULL;
	int fd;

	*path_out = NULL;
	if (stat(q->file, &self_st) == 0)
		self = &self_st;
	/* By build id first, as libdwfl does, in the same directories. */
	fd = try_build_id(q, self, q->dirs, "", path_out);
	if (fd < 0)
		fd = try_build_id(q, self, "/usr/lib/debug", "", path_out);
	if (fd < 0 && root[0] != '\0')
		fd = try_build_id(q, self, "/usr/lib/debug", root, path_out);
	if (fd >= 0)
		return fd;
	if (q->link == NULL || q->link[0] == '\0')
		return -1;
	if (q->link[0] == '/') {
		fd = try_debugfmt(q, self, "", path_out, "%s", q->link);
		if (fd < 0 && root[0] != '\0')
			fd = try_debugfmt(q, self, root, path_out, "%s",
			    q->link);
		return fd;
	}
	snprintf(filedir, sizeof(filedir), "%.*s", slash != NULL ?
	    (int)(slash - q->file) : 1, slash != NULL ? q->file : ".");
	fd = try_debugfmt(q, self, "", path_out, "%s/%s", filedir, q->link);
	if (fd < 0)
		fd = try_debugfmt(q, self, "", path_out, "%s/.debug/%s",
		    filedir, q->link);
	if (fd < 0)
		fd = try_debugdirs(q, self, q->dirs, "", filedir, path_out);
	if (fd < 0)
		fd = try_debugdirs(q, self, "/usr/lib/debug", "", filedir,
		    path_out);
	if (fd < 0 && root[0] != '\0')
		fd = try_debugdirs(q, self, "/usr/lib/debug", root, filedir,
		    path_out);
	return fd;
}

size_t
profconv__altlink_id(const char *file, const char *link, unsigned char *id)
{
	Elf_Data *data = NULL;
	size_t len = 0, namelen;
	Elf *elf;
	int fd;

	if (profconv__open_regular(file, &fd) < 0)
		return 0;
	profconv__libelf_init();
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf != NULL)
		data = profconv__elf_section(elf, ".gnu_debugaltlink");
	/* The alternate file's name, a NUL, its build id. */
	if (data != NULL && data->d_buf != NULL) {
		namelen = strnlen(data->d_buf, data->d_size);
		if (namelen < data->d_size && strcmp(data->d_buf, link) == 0) {
			len = data->d_size - namelen - 1;
			if (len > 64)
				len = 64;
			memcpy(id, (const char *)data->d_buf + namelen + 1,
			    len);
		}
	}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return len;
}
