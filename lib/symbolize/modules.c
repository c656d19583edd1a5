/* SPDX-License-Identifier: MIT */
/*
 * modules.c - the binaries a symbolizer keeps open: libdwfl's setup and
 * its file finding without debuginfod, one module per file on disk with
 * its libdwfl handles and the answers looked up with them, and the least
 * recently used modules closed when too many are open.
 *
 * Cut here because a module outlives a run: nothing in this file knows
 * a session or a profile.
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>

#include "base/bounds.h"
#include "symbolize/symbolizer.h"

/* --- the symbolizer's libdwfl setup ------------------------------------- */

/*
 * The debuginfo search path: the user's directories, then libdwfl's
 * default (the binary's directory, its .debug, /usr/lib/debug with its
 * .build-id tree), then the sysroot's /usr/lib/debug.
 */
static int
make_debuginfo_path(struct profconv_symbolizer *s)
{
	const char *user = s->opts.debuginfo_path, *root = s->opts.sysroot;
	size_t len;

	if ((user == NULL || user[0] == '\0') && (root == NULL || root[0] == '\0'))
		return 0;
	len = (user != NULL ? strlen(user) : 0) + (root != NULL ?
	    strlen(root) : 0) + 64;
	s->debuginfo_path = malloc(len);
	if (s->debuginfo_path == NULL)
		return profconv__nomem();
	snprintf(s->debuginfo_path, len, "%s%s:.debug:/usr/lib/debug%s%s%s",
	    user != NULL ? user : "", user != NULL && user[0] != '\0' ? ":" : "",
	    root != NULL && root[0] != '\0' ? ":" : "",
	    root != NULL ? root : "",
	    root != NULL && root[0] != '\0' ? "/usr/lib/debug" : "");
	return 0;
}

/* --- private copies -------------------------------------------------------- */

/*
 * The file open on FD (PATH, for messages) as a private copy in a memfd,
 * into *OUT; FD is closed either way.  libelf maps what it is given,
 * and a mapped file truncated while it is read (a rebuild copied over
 * it) kills the process with SIGBUS; a copy no one else can reach
 * cannot shrink.  A file over PC_SYM_MAX_COPY, or over RLIMIT_FSIZE, is
 * left mapped in place.
 * Errors: PROFCONV_EIO (read error, or the file shrank while copied).
 */
int
profconv__sym_private_copy(int fd, const char *path, int *out)
{
	struct rlimit rl;
	struct stat st;
	off_t off = 0;
	ssize_t n;
	int mfd;

	*out = fd;
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_size > PC_SYM_MAX_COPY)
		return 0;
	/* Growing a memfd past RLIMIT_FSIZE raises SIGXFSZ, as for a file:
	 * under such a limit the file is read as it is. */
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)st.st_size > rl.rlim_cur)
		return 0;
	mfd = memfd_create("profconv-elf", MFD_CLOEXEC);
	if (mfd < 0)
		return 0;
	while (off < st.st_size) {
		n = sendfile(mfd, fd, &off, (size_t)(st.st_size - off));
		if (n <= 0)
			break;
	}
	close(fd);
	*out = -1;
	if (off < st.st_size) {
		close(mfd);
		return profconv__fail(PROFCONV_EIO, "'%s' changed while it "
		    "was read (%lld of %lld bytes)", path, (long long)off,
		    (long long)st.st_size);
	}
	*out = mfd;
	return 0;
}

/* --- files mapped in place ------------------------------------------------ */

static void
file_id_of(const struct stat *st, struct file_id *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = (uint64_t)st->st_size;
	id->mtime_sec = (int64_t)st->st_mtim.tv_sec;
	id->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
	id->ctime_sec = (int64_t)st->st_ctim.tv_sec;
	id->ctime_nsec = (int64_t)st->st_ctim.tv_nsec;
}

/*
 * Keep watching the file open on FD (PATH) from H: a descriptor of it
 * and its identity WAS (when its build id was read), or now when WAS is
 * NULL.  A file replaced by another (renamed over) keeps
 * its old inode and data while mapped; one rewritten in place changes
 * its size, its times or both, which profconv__sym_module_check sees.
 */
static int
watch(struct sym_handle *h, int fd, const char *path,
    const struct file_id *was)
{
	struct sym_watch *w;
	struct stat st;
	int wfd;

	if (PC_GROW(h->watch, h->watch_cap, h->nwatch, 1) < 0)
		return -1;
	wfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (wfd < 0)
		return -1;
	w = &h->watch[h->nwatch];
	if (fstat(wfd, &st) != 0 || (w->path = strdup(path)) == NULL) {
		close(wfd);
		return -1;
	}
	w->fd = wfd;
	file_id_of(&st, &w->id);
	if (was != NULL)
		w->id = *was;
	h->nwatch++;
	return 0;
}

/*
 * The file open on FD (PATH) as H reads it, into *OUT: mapped in place
 * and watched (against WAS, see watch()) when the caller handles SIGBUS,
 * else (or when it cannot be watched) a private copy.  Errors: as
 * profconv__sym_private_copy.
 */
static int
place_file(struct sym_handle *h, int fd, const char *path,
    const struct file_id *was, int *out)
{
	if (h->sz->opts.handles_sigbus && watch(h, fd, path, was) == 0) {
		*out = fd;
		return 0;
	}
	return profconv__sym_private_copy(fd, path, out);
}

int
profconv__sym_module_check(const struct sym_module *m)
{
	const struct sym_handle *h;
	struct file_id now;
	struct stat st;
	size_t i, k;

	for (i = 0; i < MAX_SHARDS; i++) {
		h = m->h[i];
		for (k = 0; h != NULL && k < h->nwatch; k++) {
			if (fstat(h->watch[k].fd, &st) != 0)
				memset(&st, 0, sizeof(st));
			file_id_of(&st, &now);
			if (memcmp(&now, &h->watch[k].id, sizeof(now)) != 0)
				return profconv__fail(PROFCONV_EIO, "'%s' "
				    "changed while it was read",
				    h->watch[k].path);
		}
	}
	return 0;
}

/* --- finding files for libdwfl, without debuginfod ----------------------- */

int
profconv__sym_no_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)elfp;
	return -1;
}

/*
 * The separate debug file of a module, or the dwz alternate file of its
 * debug info (then DEBUGLINK is the .gnu_debugaltlink name and CRC 0):
 * by build id in the .build-id trees of the debug path, else by name.
 */
static int
find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
    Dwarf_Addr base, const char *file_name, const char *debuglink,
    GElf_Word crc, char **debuginfo_file_name)
{
	struct sym_handle *h = *userdata;
	const struct profconv_symbolizer *s = h != NULL ? h->sz : NULL;
	struct pc_debug_query q;
	unsigned char alt_id[64];
	const unsigned char *bits;
	GElf_Addr vaddr;
	char guess[256];
	const char *slash;
	int n, fd;

	(void)modname;
	(void)base;
	/* Not dwfl_build_id_find_debuginfo(): its plain open() blocks on a
	 * FIFO planted in a .build-id tree.  Ours opens as for every file a
	 * profile names, by build id first. */
	if (s == NULL || file_name == NULL)
		return -1;
	/* Without a debuglink, "NAME.debug" as libdwfl would guess. */
	if (debuglink == NULL) {
		slash = strrchr(file_name, '/');
		if ((size_t)snprintf(guess, sizeof(guess), "%s.debug",
		    slash != NULL ? slash + 1 : file_name) >= sizeof(guess))
			return -1;
		debuglink = guess;
	}
	memset(&q, 0, sizeof(q));
	q.file = file_name;
	q.link = debuglink;
	q.crc = crc;
	q.dirs = s->opts.debuginfo_path;
	q.sysroot = s->opts.sysroot;
	q.id_len = profconv__altlink_id(file_name, debuglink, alt_id);
	if (q.id_len > 0) {
		q.id = alt_id;
		q.crc = 0;
	} else if ((n = dwfl_module_build_id(mod, &bits, &vaddr)) > 0) {
		q.id = bits;
		q.id_len = (size_t)n;
	}
	fd = profconv__find_debugfile(&q, debuginfo_file_name);
	if (fd < 0 || place_file(h, fd, *debuginfo_file_name, NULL, &fd) < 0) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = NULL;
		return -1;
	}
	return profconv__debug_image(fd, s->jobs);
}

int
profconv__sym_dwfl_setup(struct profconv_symbolizer *sz)
{
	int rc = make_debuginfo_path(sz);

	if (rc < 0)
		return rc;
	/* libdwfl's standard callbacks ask debuginfod whenever
	 * $DEBUGINFOD_URLS is set; ours never do. */
	sz->callbacks.find_elf = sz->opts.debuginfod ? dwfl_build_id_find_elf :
	    profconv__sym_no_find_elf;
	sz->callbacks.find_debuginfo = sz->opts.debuginfod ?
	    dwfl_standard_find_debuginfo : find_debuginfo;
	sz->callbacks.section_address = dwfl_offline_section_address;
	sz->callbacks.debuginfo_path = &sz->debuginfo_path;
	return 0;
}

/* --- modules: one binary, its libdwfl sessions and its answers ---------- */

static void
handle_free(struct sym_handle *h)
{
	size_t i;

	if (h == NULL)
		return;
	/* The index first: it borrows libdw's data. */
	profconv__symmod_free(h->index);
	if (h->dwfl != NULL)
		dwfl_end(h->dwfl);
	for (i = 0; i < h->nwatch; i++) {
		close(h->watch[i].fd);
		free(h->watch[i].path);
	}
	free(h->watch);
	profconv__demangler_free(&h->dm);
	free(h->nbuf);
	profconv__rawpool_free(&h->names);
	profconv__u64map_free(&h->shown_by_ptr);
	free(h->shown);
	free(h->ans);
	free(h->frames);
	free(h);
}

void
profconv__sym_module_free(struct sym_module *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < MAX_SHARDS; i++)
		handle_free(m->h[i]);
	profconv__sym_module_uncopy(m);
	free(m->path);
	free(m->why);
	profconv__u64map_free(&m->by_addr);
	free(m->ans);
	free(m->frames);
	free(m->todo);
	free(m);
}

static bool
same_file(const struct sym_module *m, const char *path, const char *build_id,
    const struct file_id *id)
{
	return strcmp(m->path, path) == 0 &&
	    strcmp(m->build_id, build_id) == 0 &&
	    memcmp(&m->id, id, sizeof(*id)) == 0;
}

/*
 * The module for the file FOUND names (open on FOUND->fd): the one kept
 * when the same file was used before, else a new one.  A module of the
 * same path whose file changed is dropped.
 */
int
profconv__sym_module_for(struct profconv_symbolizer *sz,
    const struct pc_found *found, uint64_t base, struct sym_module **out)
{
	struct sym_module *m;
	struct file_id id;
	struct stat st;
	size_t i;

	if (fstat(found->fd, &st) != 0)
		memset(&st, 0, sizeof(st));
	file_id_of(&st, &id);
	for (i = 0; i < sz->nmods; i++) {
		m = sz->mods[i];
		if (same_file(m, found->path, found->info.build_id, &id)) {
			*out = m;
			return 0;
		}
		if (strcmp(m->path, found->path) == 0 && !m->pinned) {
			/* Changed on disk since: read it again. */
			profconv__sym_module_free(m);
			sz->mods[i--] = sz->mods[--sz->nmods];
		}
	}
	m = calloc(1, sizeof(*m));
	if (m != NULL)
		m->copy = -1;
	if (m == NULL || (m->path = strdup(found->path)) == NULL ||
	    PC_GROW(sz->mods, sz->mods_cap, sz->nmods, 1) < 0) {
		profconv__sym_module_free(m);
		return profconv__nomem();
	}
	memcpy(m->build_id, found->info.build_id, sizeof(m->build_id));
	m->id = id;
	m->plain_debug = found->info.plain_debug;
	m->zdebug = found->info.zdebug;
	m->base = base;
	sz->mods[sz->nmods++] = m;
	*out = m;
	return 0;
}

/*
 * How many modules a symbolizer keeps open: each may keep a few files
 * open (binary, debug file, dwz file, .dwo files) per handle, and the
 * caller's own descriptors need room too.
 */
size_t
profconv__sym_open_limit(void)
{
	struct rlimit rl;
	rlim_t n = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		n = rl.rlim_cur;
	n /= 8;
	return n < 8 ? 8 : n > 256 ? 256 : (size_t)n;
}

static size_t
handles_open(const struct sym_module *m)
{
	size_t i, n = 0;

	for (i = 0; i < MAX_SHARDS; i++)
		n += m->h[i] != NULL;
	return n;
}

/* Close the least recently used modules until LIMIT handles are open. */
void
profconv__sym_evict(struct profconv_symbolizer *sz, size_t limit)
{
	size_t i, oldest, open = 0;

	for (i = 0; i < sz->nmods; i++)
		open += handles_open(sz->mods[i]);
	while (open > limit && sz->nmods > 0) {
		oldest = sz->nmods;
		for (i = 0; i < sz->nmods; i++)
			if (!sz->mods[i]->pinned && (oldest == sz->nmods ||
			    sz->mods[i]->used < sz->mods[oldest]->used))
				oldest = i;
		if (oldest == sz->nmods)
			break;
		open -= handles_open(sz->mods[oldest]);
		profconv__sym_module_free(sz->mods[oldest]);
		/* Keep the order: it is the order modules were first used. */
		memmove(&sz->mods[oldest], &sz->mods[oldest + 1],
		    (sz->nmods - oldest - 1) * sizeof(*sz->mods));
		sz->nmods--;
	}
}

/*
 * A new libdwfl session on M's file into *OUT.  A file libdwfl refuses
 * gives PROFCONV_EFORMAT with libdwfl's reason.
 */
int
profconv__sym_handle_open(struct profconv_symbolizer *sz, struct sym_module *m,
    struct sym_handle **out)
{
	struct sym_handle *h = calloc(1, sizeof(*h));
	Dwfl_Module *mod = NULL;
	void **userdata;
	int fd = -1, rc;

	*out = NULL;
	if (h == NULL)
		return profconv__nomem();
	h->sz = sz;
	h->dwfl = dwfl_begin(&sz->callbacks);
	if (h->dwfl == NULL) {
		handle_free(h);
		return profconv__fail(PROFCONV_EFORMAT, "libdwfl: %s",
		    dwfl_errmsg(-1));
	}
	if (m->copy >= 0 && (fd = fcntl(m->copy, F_DUPFD_CLOEXEC, 0)) >= 0) {
		/* the batch's copy or file (profconv__sym_module_copy) */
		rc = 0;
		if (sz->opts.handles_sigbus && m->copy_in_place &&
		    watch(h, fd, m->path, &m->id) < 0) {
			close(fd);
			rc = profconv__nomem();
		}
	} else {
		rc = profconv__open_regular(m->path, &fd);
		/* libdwfl's own debug file search (--debuginfod) tells the
		 * binary from its debug file by the inode of the descriptor
		 * it holds: a copy would be taken for a stripped debug file
		 * of itself. */
		if (rc == 0 && !sz->opts.debuginfod)
			rc = place_file(h, fd, m->path, &m->id, &fd);
		else if (rc == 0 && sz->opts.handles_sigbus &&
		    watch(h, fd, m->path, &m->id) < 0) {
			close(fd);
			rc = profconv__nomem();
		}
	}
	if (rc == 0) {
		/* Debug info compressed in the binary itself (gcc -gz),
		 * inflated ahead as for a separate debug file. */
		if (m->zdebug)
			fd = profconv__debug_image(fd, sz->jobs);
		dwfl_report_begin(h->dwfl);
		mod = dwfl_report_elf(h->dwfl, m->path, m->path, fd, m->base,
		    true);
		if (mod == NULL || dwfl_report_end(h->dwfl, NULL, NULL) != 0) {
			if (mod == NULL)
				close(fd);
			rc = profconv__fail(PROFCONV_EFORMAT, "%s",
			    dwfl_errmsg(-1));
		}
	}
	if (rc == 0) {
		/* libdwfl owns FD now; our finder gets the handle. */
		(void)dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL,
		    NULL, NULL);
		*userdata = h;
		rc = profconv__symmod_new(&h->index, mod);
	}
	if (rc < 0) {
		handle_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void
profconv__sym_module_copy(struct profconv_symbolizer *sz,
    struct sym_module *m)
{
	int fd = -1, orig;

	if (m->copy >= 0 || sz->opts.debuginfod ||
	    profconv__open_regular(m->path, &fd) < 0)
		return;
	if (sz->opts.handles_sigbus) {
		/* Mapped in place: one file for all, watched by each. */
		m->copy = fd;
		m->copy_in_place = true;
		return;
	}
	orig = fd;
	if (profconv__sym_private_copy(fd, m->path, &fd) < 0)
		return;
	if (fd == orig)	/* not copied: mapped in place */
		close(fd);
	else
		m->copy = fd;
}

void
profconv__sym_module_uncopy(struct sym_module *m)
{
	if (m->copy >= 0)
		close(m->copy);
	m->copy = -1;
	m->copy_in_place = false;
}

/* Open M's first handle and read its debug info: once per module. */
int
profconv__sym_module_open(struct profconv_symbolizer *sz, struct sym_module *m)
{
	int rc;

	m->tried = true;
	rc = profconv__sym_handle_open(sz, m, &m->h[0]);
	if (rc == PROFCONV_EFORMAT || rc == PROFCONV_ENOTFOUND) {
		m->unusable = true;
		m->why = strdup(profconv_errmsg());
		return m->why != NULL ? 0 : profconv__nomem();
	}
	if (rc < 0)
		return rc;
	/* Decompressing the debug info is the slow part: do it here. */
	(void)profconv__symmod_has_dwarf(m->h[0]->index);
	return 0;
}

/*
 * The name of frame F in the demangle mode, kept by H.  libdw's strings
 * stay put, so their address identifies them.
 */
static int
shown_name(struct sym_handle *h, enum profconv_demangle mode,
    const struct pc_frame *f, const char **out)
{
	const char *sys = f->linkage != NULL ? f->linkage : f->name;
	const char *shown;
	uint32_t k;
	size_t len;
	int rc;

	*out = NULL;
	if (sys == NULL)
		return 0;
	if (profconv__u64map_get(&h->shown_by_ptr, (uintptr_t)sys, &k)) {
		*out = h->shown[k];
		return 0;
	}
	/* FULL is c++filt's whole text; the other modes drop the build
	 * hashes here (legacy Rust "::h<hash>") and simplify below. */
	shown = profconv__demangle(sys, &h->dm,
	    mode == PROFCONV_DEMANGLE_FULL ? 0 : PC_DEMANGLE_NO_HASH);
	if (shown == NULL)
		shown = f->name != NULL ? f->name : sys;
	/* Function.name in the demangle mode; system_name stays mangled. */
	if (mode == PROFCONV_DEMANGLE_NONE) {
		shown = sys;
	} else if (shown != sys || profconv__name_is_cxx(shown)) {
		rc = profconv__name_simplify(shown, strlen(shown), mode,
		    &h->nbuf, &h->nbuf_cap, &len);
		if (rc < 0)
			return rc;
		shown = profconv__rawpool_add(&h->names, h->nbuf, len);
		if (shown == NULL)
			return profconv__nomem();
	}
	rc = PC_GROW(h->shown, h->shown_cap, h->nshown, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&h->shown_by_ptr, (uintptr_t)sys,
		    (uint32_t)h->nshown);
	if (rc < 0)
		return rc;
	h->shown[h->nshown++] = shown;
	*out = shown;
	return 0;
}

/* Look ADDR up with H into its answers. */
int
profconv__sym_handle_lookup(struct sym_handle *h, enum profconv_demangle mode,
    uint64_t addr)
{
	struct sym_answer a = { addr, (uint32_t)h->nframes, 0, 0, false, 0 };
	enum pc_frame_source src;
	size_t n, k;
	int rc;

	rc = profconv__symmod_lookup(h->index, addr, h->buf, MAX_FRAMES, &n,
	    &src);
	if (rc == 0)
		rc = PC_GROW(h->frames, h->frames_cap, h->nframes, n);
	if (rc == 0)
		rc = PC_GROW(h->ans, h->ans_cap, h->nans, 1);
	for (k = 0; rc == 0 && k < n; k++) {
		h->frames[a.off + k].f = h->buf[k];
		rc = shown_name(h, mode, &h->buf[k],
		    &h->frames[a.off + k].shown);
	}
	if (rc < 0)
		return rc;
	a.n = (uint32_t)n;
	a.src = (uint8_t)src;
	if (n != 0)
		a.has_start = profconv__symmod_start(h->index, addr,
		    &h->buf[n - 1], &a.start);
	h->nframes += n;
	h->ans[h->nans++] = a;
	return 0;
}

/* Keep the answers of H's task in M. */
int
profconv__sym_merge_answers(struct sym_module *m, struct sym_handle *h)
{
	struct sym_answer a;
	size_t i;
	int rc;

	rc = PC_GROW(m->frames, m->frames_cap, m->nframes, h->nframes);
	if (rc < 0)
		return rc;
	if (h->nframes > 0)	/* both may still be NULL */
		memcpy(m->frames + m->nframes, h->frames, h->nframes *
		    sizeof(*h->frames));
	for (i = 0; i < h->nans; i++) {
		a = h->ans[i];
		a.off += (uint32_t)m->nframes;
		rc = PC_GROW(m->ans, m->ans_cap, m->nans, 1);
		if (rc == 0)
			rc = profconv__u64map_put(&m->by_addr, a.addr,
			    (uint32_t)m->nans);
		if (rc < 0)
			return rc;
		m->ans[m->nans++] = a;
	}
	m->nframes += h->nframes;
	h->nans = h->nframes = 0;
	return 0;
}
