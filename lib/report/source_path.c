/* SPDX-License-Identifier: MIT */
/*
 * source_path.c - the source roots an annotated listing may read from (source.c finds and reads the files;
 * its head comment says what is read and what is withheld).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define PC_HAVE_OPENAT2 1
#endif
#endif

#include "base/base.h"
#include "base/bounds.h"
#include "report/list.h"
#include "report/sources.h"

char *
profconv__source_display(const struct pc_sources *s, const char *file)
{
	return profconv__clean_path(profconv__trim_path(file, s->opts->trim_path,
	    s->opts->source_path));
}

/* --- the source roots -------------------------------------------------------- */

/*
 * Where S's root R is beneath: the part of ABS (absolute, cleaned) under
 * DIR (absolute, cleaned), "." for DIR itself, or NULL when ABS is not
 * under it.
 */
const char *
profconv__source_beneath(const char *abs, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return abs[1] != '\0' ? abs + 1 : ".";
	if (strncmp(abs, dir, n) != 0)
		return NULL;
	if (abs[n] == '\0')
		return ".";
	return abs[n] == '/' ? abs + n + 1 : NULL;
}

/* The directory DIR (LEN bytes; relative to the current one) as root
 * *R: 1 when it is a directory here, 0 when not, or a negative error. */
static int
open_root(struct pc_sources *s, const char *dir, size_t len,
    struct pc_root *r)
{
	char *d, *real;
	int fd;

	d = strndup(len > 0 ? dir : ".", len > 0 ? len : 1);
	if (d == NULL)
		return profconv__nomem();
	real = realpath(d, NULL);
	fd = real != NULL ? open(real, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd < 0) {
		/* Not a directory here: nothing is beneath it. */
		free(d);
		free(real);
		return 0;
	}
	if (d[0] == '/') {
		r->given = profconv__clean_path(d);
	} else {
		size_t n = strlen(s->cwd) + strlen(d) + 2;
		char *j = malloc(n);

		if (j != NULL)
			snprintf(j, n, "%s/%s", s->cwd, d);
		r->given = j != NULL ? profconv__clean_path(j) : NULL;
		free(j);
	}
	free(d);
	r->real = real;
	r->fd = fd;
	if (r->given == NULL) {
		free(real);
		close(fd);
		return profconv__nomem();
	}
	return 1;
}

/* Add the directory DIR (LEN bytes; relative to the current one) to S's
 * roots when it is one. */
static int
add_root(struct pc_sources *s, const char *dir, size_t len)
{
	int rc = PC_GROW(s->roots, s->roots_cap, s->nroots, 1);

	if (rc == 0)
		rc = open_root(s, dir, len, &s->roots[s->nroots]);
	if (rc > 0)
		s->nroots++;
	return rc < 0 ? rc : 0;
}

int
profconv__sources_build_dir(struct pc_sources *s, const char *file,
    const char *dir)
{
	struct pc_build_root *b;
	uint32_t v, got;
	char *clean;
	bool added;
	int rc;

	if (file[0] == '\0' || dir[0] != '/')
		return 0;
	rc = PC_GROW(s->broots, s->broots_cap, s->nbroots, 1);
	clean = rc == 0 ? profconv__clean_path(dir) : NULL;
	if (rc == 0 && clean == NULL)
		rc = profconv__nomem();
	dir = clean;
	if (rc == 0)
		rc = profconv__keymap_intern(&s->bdirs, dir, strlen(dir),
		    (uint32_t)s->nbroots + 1, &v, &added);
	if (rc == 0 && added) {
		b = &s->broots[s->nbroots++];
		memset(b, 0, sizeof(*b));
		b->dir = strdup(dir);
		b->r.fd = -1;
		if (b->dir == NULL)
			rc = profconv__nomem();
	}
	/* A file compiled in several places: the first one's. */
	if (rc == 0)
		rc = profconv__keymap_intern(&s->file_bdir, file, strlen(file),
		    v, &got, &added);
	free(clean);
	return rc;
}

/* The root of the build directory the symbolizer recorded for FILE (the
 * profile's name), opened the first time; NULL when there is none, it
 * is not a directory here, or it is "/". */
const struct pc_root *
profconv__source_build_root(struct pc_sources *s, const char *file, int *rc)
{
	struct pc_build_root *b;
	uint32_t v;
	bool added;

	*rc = 0;
	if (s->nbroots == 0 || file == NULL)
		return NULL;
	*rc = profconv__keymap_intern(&s->file_bdir, file, strlen(file), 0,
	    &v, &added);
	if (*rc < 0 || v == 0)
		return NULL;
	b = &s->broots[v - 1];
	if (!b->tried) {
		b->tried = true;
		*rc = open_root(s, b->dir, strlen(b->dir), &b->r);
		b->open = *rc > 0;
		if (b->open && strcmp(b->r.real, "/") == 0) {
			/* Everything is beneath "/": no root at all. */
			free(b->r.given);
			free(b->r.real);
			close(b->r.fd);
			b->r.given = b->r.real = NULL;
			b->r.fd = -1;
			b->open = false;
		}
		if (*rc > 0)
			*rc = 0;
	}
	return b->open ? &b->r : NULL;
}

/*
 * The roots a source may be read from: each --source-path directory
 * (the current directory when none is given) and each --trim-path prefix
 * that is a directory here.
 */
int
profconv__source_add_roots(struct pc_sources *s)
{
	const struct profconv_list_options *o = s->opts;
	const char *list, *el;
	size_t len;
	int rc = 0;

	list = o->source_path != NULL && *o->source_path != '\0' ?
	    o->source_path : ".";
	while (rc == 0 && profconv__path_next_elem(&list, &el, &len))
		rc = add_root(s, el, len);
	list = o->trim_path != NULL && *o->trim_path != '\0' ?
	    o->trim_path : NULL;
	while (rc == 0 && profconv__path_next_elem(&list, &el, &len))
		if (len > 0 && el[0] == '/')
			rc = add_root(s, el, len);
	return rc;
}

bool
profconv__source_own(struct pc_sources *s, const char *file)
{
	const char *dir;
	uint32_t v = 0;
	bool added, own = false;
	char *abs;
	size_t i;

	if (file == NULL || file[0] == '\0')
		return false;
	/* A relative name: one that is a file beneath a root (a library's
	 * debug information names its sources relative too). */
	if (file[0] != '/') {
		struct stat st;

		for (i = 0; i < s->nroots && !own; i++) {
			size_t n = strlen(s->roots[i].given) + strlen(file) + 2;
			char *j = malloc(n);

			if (j == NULL)
				return false;
			snprintf(j, n, "%s/%s", s->roots[i].given, file);
			abs = profconv__clean_path(j);
			free(j);
			own = abs != NULL &&
			    profconv__source_beneath(abs, s->roots[i].given) != NULL &&
			    stat(abs, &st) == 0 && S_ISREG(st.st_mode);
			free(abs);
		}
		return own;
	}
	abs = profconv__clean_path(file);
	if (abs == NULL)
		return false;
	for (i = 0; i < s->nroots && !own; i++)
		own = profconv__source_beneath(abs, s->roots[i].given) != NULL ||
		    profconv__source_beneath(abs, s->roots[i].real) != NULL;
	if (!own && s->nbroots != 0 && profconv__keymap_intern(&s->file_bdir,
	    file, strlen(file), 0, &v, &added) == 0 && v != 0) {
		dir = s->broots[v - 1].dir;
		own = strcmp(dir, "/") != 0 && profconv__source_beneath(abs, dir) != NULL;
	}
	free(abs);
	return own;
}

/* The path of the open descriptor FD as the kernel resolved it, or NULL. */
static char *
fd_path(int fd)
{
	char proc[64], buf[PATH_MAX + 1];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, buf, sizeof(buf) - 1);
	if (n <= 0 || (size_t)n >= sizeof(buf) - 1 || buf[0] != '/')
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

/*
 * REL beneath root R opened O_PATH into *FD, never leaving R: openat2()
 * with RESOLVE_BENEATH where the kernel has it, else the path the kernel
 * resolved checked to be beneath R's real path.  0 when opened, else
 * -1 with errno set (EXDEV: it leads out of R).
 */
int
profconv__source_open_in_root(const struct pc_sources *s,
    const struct pc_root *r,
    const char *rel, int *fd)
{
	struct stat a, b;
	char *got;
	bool in;

#if defined(SYS_openat2) && defined(PC_HAVE_OPENAT2)
	if (!s->no_openat2) {
		struct open_how how = {
			.flags = O_PATH | O_CLOEXEC,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};

		*fd = (int)syscall(SYS_openat2, r->fd, rel, &how, sizeof(how));
		if (*fd >= 0 || (errno != ENOSYS && errno != EPERM &&
		    errno != E2BIG && errno != EINVAL))
			return *fd >= 0 ? 0 : -1;
	}
#else
	(void)s;
#endif
	*fd = openat(r->fd, rel, O_PATH | O_CLOEXEC);
	if (*fd < 0)
		return -1;
	got = fd_path(*fd);
	if (got == NULL) {
		/* No /proc: the real path, checked to be this inode. */
		size_t n = strlen(r->real) + strlen(rel) + 2;
		char *full = malloc(n);

		if (full != NULL) {
			snprintf(full, n, "%s/%s", r->real, rel);
			got = realpath(full, NULL);
			free(full);
		}
		if (got != NULL && (stat(got, &a) != 0 ||
		    fstat(*fd, &b) != 0 || a.st_dev != b.st_dev ||
		    a.st_ino != b.st_ino)) {
			free(got);
			got = NULL;
		}
	}
	in = got != NULL && profconv__source_beneath(got, r->real) != NULL;
	free(got);
	if (!in) {
		close(*fd);
		*fd = -1;
		errno = EXDEV;
		return -1;
	}
	return 0;
}
