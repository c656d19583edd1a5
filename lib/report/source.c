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
 * Only files beneath a source root are read (the search directories, the
 * current one when none is given, the trim path's prefixes that are
 * directories here, and for a file the symbolizer found in a binary's
 * DWARF in this run, the build directory of its unit, DW_AT_comp_dir,
 * unless that is "/"), each opened beneath its root as openat2()'s
 * RESOLVE_BENEATH opens it: a name with "..", or a symbolic link, that
 * leads out of the root is withheld, and so is a name under no root (an
 * absolute one anywhere else); the note says so.  The search climbs
 * parents only while they are beneath a root.  The callback's file (a
 * debuginfod cache) is its own, not the profile's.
 *
 * Source files are input nobody vetted: only a regular file is ever
 * opened (an O_PATH descriptor says what a path is without opening it: a
 * FIFO would block, a device's driver would act), at most max_source
 * bytes of it are read, PC_SOURCE_MAX_TOTAL bytes of all together, each
 * file once however many names reach it (by device and inode), and what
 * it holds is escaped by the writers.
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

/* --- reading one file -------------------------------------------------------- */

/* Why a file was withheld (compared by address). */
static const char why_outside[] = "outside the source roots";
static const char why_escapes[] = "a symbolic link or '..' leads out of "
    "its source root";

/*
 * The regular file at PATH opened for reading into *FD, refusing
 * anything else without opening it; false with a reason in WHY (NULL:
 * no such file).  ROOTED: only from beneath a source root, else
 * *OUTSIDE says it is under none.
 */
static bool
open_regular(struct pc_sources *s, const char *path, bool rooted, int *fd,
    struct stat *st, const char **why, bool *outside)
{
	char proc[64], *abs = NULL;
	const struct pc_root *root = NULL;
	const char *rel = NULL;
	struct stat now;
	size_t i;
	int pfd = -1;

	*fd = -1;
	*outside = false;
	*why = NULL;
	if (rooted) {
		if (path[0] == '/') {
			abs = profconv__clean_path(path);
		} else {
			size_t n = strlen(s->cwd) + strlen(path) + 2;
			char *j = malloc(n);

			if (j != NULL)
				snprintf(j, n, "%s/%s", s->cwd, path);
			abs = j != NULL ? profconv__clean_path(j) : NULL;
			free(j);
		}
		if (abs == NULL) {
			*why = strerror(ENOMEM);
			return false;
		}
		for (i = 0; i < s->nroots && rel == NULL; i++) {
			root = &s->roots[i];
			rel = profconv__source_beneath(abs, root->given);
			if (rel == NULL)
				rel = profconv__source_beneath(abs, root->real);
		}
		if (rel == NULL && s->cur_build != NULL) {
			root = s->cur_build;
			rel = profconv__source_beneath(abs, root->given);
			if (rel == NULL)
				rel = profconv__source_beneath(abs, root->real);
		}
		if (rel == NULL) {
			free(abs);
			*outside = true;
			*why = why_outside;
			return false;
		}
		if (profconv__source_open_in_root(s, root, rel, &pfd) != 0)
			pfd = -1;
		free(abs);
		if (pfd < 0 && errno == EXDEV) {
			*why = why_escapes;
			return false;
		}
	} else {
		pfd = open(path, O_PATH | O_CLOEXEC);
	}
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
	if (*fd < 0 && (errno == ENOENT || errno == ENOTDIR) && !rooted) {
		/* No /proc: by name again, checked to be that inode. */
		*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		    O_NOFOLLOW);
	}
	if (*fd >= 0 && (fstat(*fd, &now) != 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino || !S_ISREG(now.st_mode))) {
		close(*fd);
		*fd = -1;
		errno = ESTALE;
	}
	close(pfd);
	if (*fd < 0) {
		*why = strerror(errno);
		return false;
	}
	return true;
}

/* Index TEXT (LEN bytes) as Go's bufio.ScanLines splits it: '\n' ends a
 * line, a '\r' before it is dropped, a last line without '\n' counts
 * when not empty.  Only every PC_SOURCE_MARK-th line's start is kept: a
 * file of newlines costs no more than its bytes. */
int
profconv__text_index(struct pc_text *t, const char *text, size_t len)
{
	size_t i = 0, cap = 0;
	const char *nl;

	t->text = text;
	t->len = len;
	t->line_count = 0;
	while (i < len) {
		if (t->line_count % PC_SOURCE_MARK == 0) {
			int rc = PC_GROW(t->mark, cap, t->nmark, 1);

			if (rc < 0)
				return rc;
			t->mark[t->nmark++] = i;
		}
		nl = memchr(text + i, '\n', len - i);
		t->line_count++;
		if (nl == NULL)
			break;
		i = (size_t)(nl - text) + 1;
	}
	return 0;
}

bool
profconv__text_line(const struct pc_text *t, int64_t n, const char **text,
    size_t *len)
{
	size_t i, k, end;
	const char *nl;

	if (t == NULL || t->text == NULL || n < 1 ||
	    (uint64_t)n > t->line_count)
		return false;
	i = t->mark[(uint64_t)(n - 1) / PC_SOURCE_MARK];
	for (k = (uint64_t)(n - 1) % PC_SOURCE_MARK; k > 0; k--)
		i = (size_t)((const char *)memchr(t->text + i, '\n',
		    t->len - i) - t->text) + 1;
	nl = memchr(t->text + i, '\n', t->len - i);
	end = nl != NULL ? (size_t)(nl - t->text) : t->len;
	if (nl != NULL && end > i && t->text[end - 1] == '\r')
		end--;
	*text = t->text + i;
	*len = end - i;
	return true;
}

/*
 * Read PATH into SRC when it is a regular file of at most S->max bytes,
 * and the listing's sources together at most S->max_total: 1 when read,
 * 0 when not (a reason in WHY, NULL: no such file), or a negative error.
 * A file read before (the same device and inode, by whatever name) is
 * not read again.
 */
static int
read_file(struct pc_sources *s, struct pc_source *src, const char *path,
    bool rooted, const char **why, bool *outside)
{
	struct pc_text *t = NULL;
	struct stat st;
	size_t len = 0, i;
	char *buf;
	ssize_t r;
	int fd, rc;

	if (!open_regular(s, path, rooted, &fd, &st, why, outside))
		return 0;
	for (i = 0; i < s->ntexts && t == NULL; i++)
		if (s->texts[i]->dev == st.st_dev &&
		    s->texts[i]->ino == st.st_ino)
			t = s->texts[i];
	if (t == NULL) {
		if ((uint64_t)st.st_size > s->max) {
			close(fd);
			*why = "too large";
			return 0;
		}
		if ((uint64_t)st.st_size > s->max_total - s->total) {
			close(fd);
			*why = "the listing's sources are too large together";
			return 0;
		}
		rc = PC_GROW(s->texts, s->texts_cap, s->ntexts, 1);
		t = rc == 0 ? calloc(1, sizeof(*t)) : NULL;
		buf = t != NULL ? malloc((size_t)st.st_size + 1) : NULL;
		if (buf == NULL) {
			free(t);
			close(fd);
			return profconv__nomem();
		}
		/* The size read is the size stat said, at most: a file that
		 * grows meanwhile is read as it was. */
		while (len < (size_t)st.st_size) {
			r = read(fd, buf + len, (size_t)st.st_size - len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			len += (size_t)r;
		}
		buf[len] = '\0';
		t->own = buf;
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		s->texts[s->ntexts++] = t;
		s->total += (uint64_t)st.st_size;
		rc = profconv__text_index(t, buf, len);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	close(fd);
	src->body = t;
	src->text = t->text;
	src->path = strdup(path);
	if (src->path == NULL)
		return profconv__nomem();
	return 1;
}

/* --- finding a file ---------------------------------------------------------- */

struct attempt {
	struct pc_sources *s;
	struct pc_source *src;
	char note[NOTE_MAX];
	size_t tries;
	bool noted_more;
	bool withheld;		/* a candidate was not read: outside */
	bool climbed_out;	/* the search left the roots unnoted */
	bool climbing;		/* trying a search directory's parent */
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

/* Try PATH (beneath a source root when ROOTED); NOTE_IT: name it in the
 * note (else the caller does). */
static bool
try_path(struct attempt *a, const char *path, bool note_it, bool rooted)
{
	const char *why = NULL;
	bool outside = false;

	if (a->rc != 0)
		return true;
	if (a->tries++ >= MAX_TRIES)
		return false;
	a->rc = read_file(a->s, a->src, path, rooted, &why, &outside);
	if (a->rc == 0 && outside && !note_it && a->climbing) {
		/* A search directory's parent above the roots. */
		a->climbed_out = true;
		return false;
	}
	if (a->rc == 0 && (why == why_outside || why == why_escapes))
		a->withheld = true;
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
	const char *p = profconv__trim_path(name, o->trim_path, search), *list, *el;
	char *dir, *join, *parent, *slash;
	size_t len;

	if (p[0] == '/') {
		try_path(a, p, true, true);
		return;
	}
	list = search;
	while (a->rc == 0 && profconv__path_next_elem(&list, &el, &len)) {
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
		a->climbing = false;
		for (;;) {
			size_t n = strlen(dir) + strlen(p) + 2;

			join = malloc(n);
			if (join == NULL) {
				a->rc = profconv__nomem();
				break;
			}
			snprintf(join, n, "%s%s%s", dir, *dir != '\0' ? "/" :
			    "", p);
			parent = profconv__clean_path(join);
			free(join);
			if (parent == NULL) {
				a->rc = profconv__nomem();
				break;
			}
			if (try_path(a, parent, false, true) ||
			    a->tries >= MAX_TRIES) {
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
				char *c = profconv__clean_path(parent);

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
			a->climbing = true;
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
	/* The callback's own file (a cache of its server's), not a name
	 * from the profile: not held to the roots. */
	if (!try_path(a, path, false, false))
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
	s->cur_build = profconv__source_build_root(s, orig, &rc);
	if (rc < 0)
		return rc;
	pprof_search(&a, display);
	/* The name the debug information records (joined to the
	 * compilation directory by the symbolizer), when it differs. */
	if (a.rc == 0 && orig[0] == '/' && strcmp(orig, display) != 0)
		try_path(&a, orig, true, true);
	s->cur_build = NULL;
	ask_callback(&a, orig, build_id);
	if (a.rc < 0)
		return a.rc;
	if (a.rc == 0 && a.climbed_out)
		note(&a, "", "nothing above the source roots", "", NULL);
	if (a.rc == 0) {
		src->withheld = a.withheld;
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
	return src != NULL && profconv__text_line(src->body, n, text, len);
}

void
profconv__sources_no_openat2(struct pc_sources *s)
{
	s->no_openat2 = true;
}

int
profconv__sources_new(struct pc_sources **out,
    const struct profconv_list_options *opts)
{
	struct pc_sources *s = calloc(1, sizeof(*s));
	size_t cap = 256;
	int rc;

	*out = NULL;
	if (s == NULL)
		return profconv__nomem();
	s->opts = opts;
	s->max = opts->max_source != 0 ? opts->max_source : PC_SOURCE_MAX_FILE;
	s->max_total = s->max > PC_SOURCE_MAX_TOTAL ? s->max :
	    PC_SOURCE_MAX_TOTAL;
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
	rc = profconv__source_add_roots(s);
	if (rc < 0) {
		profconv__sources_free(s);
		return rc;
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
		free(s->files[i]->path);
		free(s->files[i]->note);
		free(s->files[i]);
	}
	free(s->files);
	for (i = 0; i < s->ntexts; i++) {
		free(s->texts[i]->own);
		free(s->texts[i]->mark);
		free(s->texts[i]);
	}
	free(s->texts);
	for (i = 0; i < s->nroots; i++) {
		free(s->roots[i].given);
		free(s->roots[i].real);
		close(s->roots[i].fd);
	}
	free(s->roots);
	for (i = 0; i < s->nbroots; i++) {
		free(s->broots[i].dir);
		if (s->broots[i].open) {
			free(s->broots[i].r.given);
			free(s->broots[i].r.real);
			close(s->broots[i].r.fd);
		}
	}
	free(s->broots);
	profconv__keymap_free(&s->bdirs);
	profconv__keymap_free(&s->file_bdir);
	free(s->cwd);
	free(s);
}
