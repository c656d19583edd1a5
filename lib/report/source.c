/* SPDX-License-Identifier: MIT */
/*
 * source.c - find and read the source files an annotated listing shows.
 *
 * A name is looked for as go tool pprof looks for it (report/source.go:
 * trimPath, openSourceFile): the trim path's prefixes cut (without one, a
 * search directory's last component found in the name cuts everything up
 * to it), then an absolute name as it is, a relative one under each
 * search directory and each of its parents.  Then the name the debug
 * information records (the symbolizer joined it to the compilation
 * directory), then the caller's last resort (debuginfod).
 *
 * Source files are input nobody vetted: only a regular file is ever
 * opened (an O_PATH descriptor says what a path is without opening it: a
 * FIFO would block, a device's driver would act), at most max_source
 * bytes of it are read, and what it holds is escaped by the writers.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/base.h"
#include "base/bounds.h"
#include "report/list.h"

/* Paths tried for one file, at most (search directories times depth). */
#define MAX_TRIES 4096
#define NOTE_MAX 480

struct pc_sources {
	const struct profconv_list_options *opts;
	char *cwd;			/* the search path when none is given */
	uint64_t max;
	struct pc_source **files;	/* each its own allocation: the
					 * listing keeps pointers to them */
	size_t nfiles, files_cap;
};

/* --- Go's path rules (path/filepath on Unix) -------------------------------- */

/* Go's filepath.Clean of S into a new string. */
static char *
go_clean(const char *s)
{
	size_t n = strlen(s), o = 0, i = 0, keep = 0;
	bool rooted = n > 0 && s[0] == '/';
	char *out = malloc(n + 2);

	if (out == NULL)
		return NULL;
	if (rooted) {
		out[o++] = '/';
		i = keep = 1;
	}
	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != '/')
			j++;
		if (j == i || (j - i == 1 && s[i] == '.')) {
			/* empty or "." */
		} else if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') {
			if (o > keep) {
				/* back to the previous separator */
				while (o > keep && out[o - 1] != '/')
					o--;
				if (o > keep)
					o--;
			} else if (!rooted) {
				if (o > 0)
					out[o++] = '/';
				memcpy(out + o, "..", 2);
				o += 2;
				keep = o;
			}
		} else {
			if (o > (rooted ? 1u : 0u))
				out[o++] = '/';
			memcpy(out + o, s + i, j - i);
			o += j - i;
		}
		i = j + 1;
	}
	if (o == 0)
		out[o++] = '.';
	out[o] = '\0';
	return out;
}

/* Go's filepath.Base of DIR (LEN bytes): where its last component starts
 * and its length, "/" and "." for the special cases. */
static void
go_base(const char *dir, size_t len, const char **b, size_t *blen)
{
	size_t i;

	if (len == 0) {
		*b = ".";
		*blen = 1;
		return;
	}
	while (len > 0 && dir[len - 1] == '/')
		len--;
	if (len == 0) {
		*b = "/";
		*blen = 1;
		return;
	}
	for (i = len; i > 0 && dir[i - 1] != '/'; i--)
		;
	*b = dir + i;
	*blen = len - i;
}

/* The next element of a ':'-separated LIST (Go's SplitList: "" has none,
 * "a::b" has an empty one) into *EL and *LEN; false at the end. */
static bool
next_elem(const char **list, const char **el, size_t *len)
{
	const char *p = *list, *c;

	if (p == NULL)
		return false;
	c = strchr(p, ':');
	*el = p;
	*len = c != NULL ? (size_t)(c - p) : strlen(p);
	*list = c != NULL ? c + 1 : NULL;
	return true;
}

/* pprof's trimPath: where in PATH the name to look for starts. */
static const char *
trim_path(const char *path, const char *trim, const char *search)
{
	static const char *const builtin[] = {
		"/proc/self/cwd/./", "/proc/self/cwd/"
	};
	const char *list, *el, *b, *hit;
	size_t len, blen, i, plen = strlen(path);
	char want[4096];

	if (trim == NULL || *trim == '\0') {
		list = search != NULL && *search != '\0' ? search : NULL;
		while (next_elem(&list, &el, &len)) {
			go_base(el, len, &b, &blen);
			if (blen + 3 > sizeof(want))
				continue;
			want[0] = '/';
			memcpy(want + 1, b, blen);
			memcpy(want + 1 + blen, "/", 2);
			hit = strstr(path, want);
			if (hit != NULL)
				return hit + blen + 2;
		}
	}
	list = trim != NULL && *trim != '\0' ? trim : NULL;
	while (next_elem(&list, &el, &len)) {
		if (len > plen)
			continue;
		if (strncmp(path, el, len) != 0)
			continue;
		if (len > 0 && el[len - 1] == '/')
			return path + len;
		if (path[len] == '/')
			return path + len + 1;
	}
	for (i = 0; i < PC_ARRAY_LEN(builtin); i++)
		if (strncmp(path, builtin[i], strlen(builtin[i])) == 0)
			return path + strlen(builtin[i]);
	return path;
}

char *
profconv__source_display(const struct pc_sources *s, const char *file)
{
	return go_clean(trim_path(file, s->opts->trim_path,
	    s->opts->source_path));
}

/* --- reading one file -------------------------------------------------------- */

/*
 * The regular file at PATH opened for reading into *FD, refusing
 * anything else without opening it; false with a reason in WHY.
 */
static bool
open_regular(const char *path, int *fd, struct stat *st, const char **why)
{
	char proc[64];
	struct stat now;
	int pfd;

	*fd = -1;
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0) {
		*why = errno == ENOENT ? NULL : strerror(errno);
		return false;
	}
	if (fstat(pfd, st) != 0) {
		*why = strerror(errno);
		close(pfd);
		return false;
	}
	if (!S_ISREG(st->st_mode)) {
		close(pfd);
		*why = S_ISDIR(st->st_mode) ? "a directory" :
		    "not a regular file";
		return false;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	*fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		/* No /proc: by name again, checked to be that inode. */
		*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		    O_NOFOLLOW);
		if (*fd >= 0 && (fstat(*fd, &now) != 0 ||
		    now.st_dev != st->st_dev || now.st_ino != st->st_ino)) {
			close(*fd);
			*fd = -1;
			errno = ESTALE;
		}
	}
	close(pfd);
	if (*fd < 0) {
		*why = strerror(errno);
		return false;
	}
	return true;
}

/* Split SRC's text (LEN bytes) into lines as Go's bufio.ScanLines:
 * '\n' ends a line, a '\r' before it is dropped, a last line without
 * '\n' counts when not empty. */
static int
split_lines(struct pc_source *src, size_t len)
{
	size_t i = 0, cap = 0, n;
	const char *nl;

	while (i < len) {
		nl = memchr(src->text + i, '\n', len - i);
		n = nl != NULL ? (size_t)(nl - (src->text + i)) : len - i;
		if (src->line_count == cap) {
			size_t c = cap != 0 ? 2 * cap : 256;
			size_t *a = realloc(src->line_off, c * sizeof(*a));
			size_t *b;

			if (a == NULL)
				return profconv__nomem();
			src->line_off = a;
			b = realloc(src->line_len, c * sizeof(*b));
			if (b == NULL)
				return profconv__nomem();
			src->line_len = b;
			cap = c;
		}
		src->line_off[src->line_count] = i;
		src->line_len[src->line_count] = nl != NULL && n > 0 &&
		    src->text[i + n - 1] == '\r' ? n - 1 : n;
		src->line_count++;
		i += n + 1;
	}
	return 0;
}

/*
 * Read PATH into SRC when it is a regular file of at most S->max bytes:
 * 1 when read, 0 when not (a reason in WHY, NULL: no such file), or a
 * negative error.
 */
static int
read_file(struct pc_sources *s, struct pc_source *src, const char *path,
    const char **why)
{
	struct stat st;
	size_t len = 0;
	ssize_t r;
	int fd, rc;

	if (!open_regular(path, &fd, &st, why))
		return 0;
	if ((uint64_t)st.st_size > s->max) {
		close(fd);
		*why = "too large";
		return 0;
	}
	src->text = malloc((size_t)st.st_size + 1);
	if (src->text == NULL) {
		close(fd);
		return profconv__nomem();
	}
	/* The size read is the size stat said, at most: a file that grows
	 * meanwhile is read as it was. */
	while (len < (size_t)st.st_size) {
		r = read(fd, src->text + len, (size_t)st.st_size - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	src->text[len] = '\0';
	src->path = strdup(path);
	if (src->path == NULL)
		return profconv__nomem();
	rc = split_lines(src, len);
	return rc < 0 ? rc : 1;
}

/* --- finding a file ---------------------------------------------------------- */

struct attempt {
	struct pc_sources *s;
	struct pc_source *src;
	char note[NOTE_MAX];
	size_t tries;
	bool noted_more;
	int rc;			/* 1 found, 0 not yet, < 0 error */
};

/* Add "PRE X POST (WHY)" to the note of what was tried. */
static void
note(struct attempt *a, const char *pre, const char *x, const char *post,
    const char *why)
{
	size_t o = strlen(a->note);
	char piece[NOTE_MAX];

	snprintf(piece, sizeof(piece), "%s%s%s", pre, x, post);
	if (o + strlen(piece) + 40 >= sizeof(a->note)) {
		if (!a->noted_more)
			snprintf(a->note + o, sizeof(a->note) - o, "%s...",
			    o != 0 ? ", " : "");
		a->noted_more = true;
		return;
	}
	snprintf(a->note + o, sizeof(a->note) - o, "%s%s%s%s%s",
	    o != 0 ? ", " : "", piece, why != NULL ? " (" : "",
	    why != NULL ? why : "", why != NULL ? ")" : "");
}

/* Try PATH; NOTE_IT: name it in the note (else the caller does). */
static bool
try_path(struct attempt *a, const char *path, bool note_it)
{
	const char *why = NULL;

	if (a->rc != 0)
		return true;
	if (a->tries++ >= MAX_TRIES)
		return false;
	a->rc = read_file(a->s, a->src, path, &why);
	if (a->rc == 0 && (note_it || why != NULL))
		note(a, "", path, "", why);
	return a->rc != 0;
}

/* pprof's openSourceFile: NAME (trimmed) as it is when absolute, else
 * under each search directory and its parents. */
static void
pprof_search(struct attempt *a, const char *name)
{
	const struct profconv_list_options *o = a->s->opts;
	const char *search = o->source_path != NULL && *o->source_path != '\0' ?
	    o->source_path : a->s->cwd;
	const char *p = trim_path(name, o->trim_path, search), *list, *el;
	char *dir, *join, *parent, *slash;
	size_t len;

	if (p[0] == '/') {
		try_path(a, p, true);
		return;
	}
	list = search;
	while (a->rc == 0 && next_elem(&list, &el, &len)) {
		dir = strndup(el, len);
		if (dir == NULL) {
			a->rc = profconv__nomem();
			return;
		}
		if (strlen(dir) + 24 < NOTE_MAX) {
			char where[NOTE_MAX];

			snprintf(where, sizeof(where), " under %s and up",
			    *dir != '\0' ? dir : ".");
			note(a, "", p, where, NULL);
		}
		for (;;) {
			size_t n = strlen(dir) + strlen(p) + 2;

			join = malloc(n);
			if (join == NULL) {
				a->rc = profconv__nomem();
				break;
			}
			snprintf(join, n, "%s%s%s", dir, *dir != '\0' ? "/" :
			    "", p);
			parent = go_clean(join);
			free(join);
			if (parent == NULL) {
				a->rc = profconv__nomem();
				break;
			}
			if (try_path(a, parent, false) || a->tries >= MAX_TRIES) {
				free(parent);
				break;
			}
			free(parent);
			/* Go's filepath.Dir */
			slash = strrchr(dir, '/');
			if (slash == NULL)
				parent = strdup(".");
			else if (slash == dir)
				parent = strdup("/");
			else
				parent = strndup(dir, (size_t)(slash - dir));
			if (parent != NULL) {
				char *c = go_clean(parent);

				free(parent);
				parent = c;
			}
			if (parent == NULL) {
				a->rc = profconv__nomem();
				break;
			}
			if (strcmp(parent, dir) == 0) {
				free(parent);
				break;
			}
			free(dir);
			dir = parent;
		}
		free(dir);
	}
}

static void
ask_callback(struct attempt *a, const char *orig, const char *build_id)
{
	const struct profconv_list_options *o = a->s->opts;
	char *path = NULL, why[160];
	int rc;

	if (o->find_source == NULL || a->rc != 0)
		return;
	rc = o->find_source(build_id, orig, &path, o->payload);
	if (rc == PROFCONV_ENOMEM) {
		a->rc = rc;
		return;
	}
	if (rc < 0) {
		snprintf(why, sizeof(why), "%s", profconv_errmsg());
		note(a, "", "debuginfod", "", why);
		return;
	}
	if (!try_path(a, path, false))
		note(a, "debuginfod's ", path, "", NULL);
	free(path);
}

int
profconv__source_get(struct pc_sources *s, const char *display,
    const char *orig, const char *build_id, const struct pc_source **out)
{
	struct attempt a = { .s = s };
	struct pc_source *src;
	size_t i;
	int rc;

	for (i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i]->name, display) == 0) {
			*out = s->files[i];
			return 0;
		}
	rc = PC_GROW(s->files, s->files_cap, s->nfiles, 1);
	if (rc < 0)
		return rc;
	src = calloc(1, sizeof(*src));
	if (src == NULL)
		return profconv__nomem();
	src->name = strdup(display);
	if (src->name == NULL) {
		free(src);
		return profconv__nomem();
	}
	s->files[s->nfiles++] = src;
	a.src = src;
	pprof_search(&a, display);
	/* The name the debug information records (joined to the
	 * compilation directory by the symbolizer), when it differs. */
	if (a.rc == 0 && orig[0] == '/' && strcmp(orig, display) != 0)
		try_path(&a, orig, true);
	ask_callback(&a, orig, build_id);
	if (a.rc < 0)
		return a.rc;
	if (a.rc == 0) {
		src->note = strdup(a.note);
		if (src->note == NULL)
			return profconv__nomem();
	}
	*out = src;
	return 0;
}

bool
profconv__source_line(const struct pc_source *src, int64_t n,
    const char **text, size_t *len)
{
	if (src == NULL || src->text == NULL || n < 1 ||
	    (uint64_t)n > src->line_count)
		return false;
	*text = src->text + src->line_off[n - 1];
	*len = src->line_len[n - 1];
	return true;
}

int
profconv__sources_new(struct pc_sources **out,
    const struct profconv_list_options *opts)
{
	struct pc_sources *s = calloc(1, sizeof(*s));
	size_t cap = 256;

	*out = NULL;
	if (s == NULL)
		return profconv__nomem();
	s->opts = opts;
	s->max = opts->max_source != 0 ? opts->max_source : PC_SOURCE_MAX_FILE;
	/* pprof searches the current directory when given no path. */
	for (;;) {
		s->cwd = malloc(cap);
		if (s->cwd == NULL) {
			free(s);
			return profconv__nomem();
		}
		if (getcwd(s->cwd, cap) != NULL)
			break;
		if (errno != ERANGE || cap > ((size_t)1 << 20)) {
			/* No current directory: "." as a relative one. */
			memcpy(s->cwd, ".", 2);
			break;
		}
		free(s->cwd);
		cap *= 2;
	}
	*out = s;
	return 0;
}

void
profconv__sources_free(struct pc_sources *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nfiles; i++) {
		free(s->files[i]->name);
		free(s->files[i]->text);
		free(s->files[i]->line_off);
		free(s->files[i]->line_len);
		free(s->files[i]->path);
		free(s->files[i]->note);
		free(s->files[i]);
	}
	free(s->files);
	free(s->cwd);
	free(s);
}
