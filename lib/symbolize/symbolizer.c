/* SPDX-License-Identifier: MIT */
/*
 * symbolizer.c - profconv_symbolize() and the symbolizer that outlives a
 * profile: give a profile's locations their functions, files, lines and
 * inline chains from the binaries and debug info of their mappings.
 *
 * A run has three passes.  Planning finds a binary for every mapping
 * that has locations to symbolize and computes the mapping's load bias.
 * Lookup opens each binary with its own libdwfl session (a module, kept
 * by the symbolizer for later runs) and turns every address not seen
 * before into frames; modules are independent, so they are looked up on
 * several threads at once, and a large binary whose debug info is
 * stored uncompressed is opened more than once and split by address.
 * Conversion then turns the frames into the profile's lines, functions
 * and strings in location order, in the caller's thread, so the result
 * does not depend on the thread count.  Runs go over the binaries in
 * batches and the symbolizer closes the least recently used modules,
 * so the open files (binary, debug file, dwz file, .dwo files) stay
 * well below the process's limit however many files profiles map.
 *
 * Nothing here touches process-wide state: debuginfod stays off through
 * the session's own find_debuginfo callback, not by hiding
 * $DEBUGINFOD_URLS, so different symbolizers may run in parallel.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"

#define MAX_FRAMES 64
#define MAX_SHARDS 8
/* Addresses below which one module is not worth a second handle. */
#define SHARD_MIN 2048

enum map_state {
	MAP_TODO,
	MAP_UNSYMBOLIZABLE,
	MAP_NO_BINARY,
	MAP_MISMATCH,
	MAP_UNUSABLE,
	MAP_OK
};

/* One frame as looked up, with its name in the symbolizer's mode. */
struct sym_frame {
	struct pc_frame f;
	const char *shown;		/* Function.name; NULL: none */
};

/* The frames of one file address: frames[off .. off + n). */
struct sym_answer {
	uint64_t addr;
	uint32_t off, n;
	uint8_t src;			/* enum pc_frame_source */
};

/*
 * One libdwfl session on a module's file, with what its lookups made.
 * Strings of the frames borrow from it.
 */
struct sym_handle {
	Dwfl *dwfl;
	struct pc_symmod *index;
	struct pc_demangler dm;
	char *nbuf;
	size_t nbuf_cap;
	struct pc_rawpool names;	/* names in the demangle mode, byte
					 * for byte (see intern_text) */
	struct pc_u64map shown_by_ptr;	/* libdw string -> shown[] */
	const char **shown;
	size_t nshown, shown_cap;
	/* One lookup task's answers, merged into the module after it. */
	const uint64_t *todo;
	size_t ntodo;
	struct sym_answer *ans;
	size_t nans, ans_cap;
	struct sym_frame *frames;
	size_t nframes, frames_cap;
	struct pc_frame buf[MAX_FRAMES];
	int rc;
};

/* A file identity: a file changed on disk is another module. */
struct file_id {
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
};

/* One binary on disk, opened once per symbolizer. */
struct sym_module {
	char *path;
	char build_id[129];
	struct file_id id;
	uint64_t plain_debug;		/* see struct pc_elfinfo */
	bool zdebug;
	uint64_t base;			/* where libdwfl places it */
	uint64_t used;			/* the batch that used it last */
	bool pinned;			/* a run still needs it */
	bool tried;			/* opened, or found unusable */
	bool unusable;
	char *why;			/* and why */
	struct sym_handle *h[MAX_SHARDS];	/* [0]: the first one */
	struct pc_u64map by_addr;	/* file address -> ans[] */
	struct sym_answer *ans;
	size_t nans, ans_cap;
	struct sym_frame *frames;
	size_t nframes, frames_cap;
	/* This batch's addresses not looked up yet. */
	uint64_t *todo;
	size_t ntodo, todo_cap;
	size_t nshards;
};

struct profconv_symbolizer {
	struct profconv_symbolize_options opts;	/* strings copied */
	char *strs[4];
	unsigned int jobs;
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	struct sym_module **mods;
	size_t nmods, mods_cap;
	uint64_t batches;		/* batches run so far */
};

/* A binary a run uses, and what was learnt from it in this run. */
struct sym_binary {
	struct pc_found found;
	struct sym_module *m;
	uint64_t base;			/* bias of the first mapping using it */
	bool warned_utf8;		/* a repaired string was reported */
	struct pc_u64map results;	/* file address -> result index */
};

/* One profile mapping's plan, and the has_* flags its locations earned. */
struct sym_map {
	uint8_t state;
	uint8_t flags;
	uint32_t binary;
	uint64_t bias;
};

/* The lines of one unique address: s->rlines[off .. off + n). */
struct sym_result {
	size_t off;
	uint32_t n;
	uint8_t flags;
};

struct name_pair {
	uint32_t name, system_name;
};

/* One lookup task: a module's handle and its share of the addresses. */
struct sym_task {
	struct sym_module *m;
	size_t shard;
};

struct session {
	struct profconv_symbolizer *sz;
	struct profconv_profile *prof;
	const struct profconv_symbolize_options *opts;
	struct profconv_symbolize_stats *stats;
	struct pc_find find;

	struct sym_binary **bins;
	size_t nbins, bins_cap;
	size_t batch_lo, batch_hi;	/* the binaries looked up now */
	struct pc_u64map bin_by_key;	/* (file, build id) -> plan code */
	struct sym_map *maps;		/* one per profile mapping */
	struct sym_task *tasks;
	size_t ntasks, tasks_cap;

	struct sym_result *results;
	size_t nresults, results_cap;
	struct pc_line *rlines;
	size_t nrlines, rlines_cap;

	struct pc_funcset funcs;
	struct pc_u64map name_by_ptr;	/* libdw string -> name_pairs[] */
	struct name_pair *name_pairs;
	size_t nname_pairs, name_pairs_cap;
	struct pc_u64map file_by_ptr;	/* libdw string -> string index */
	struct sym_binary *cur;		/* the binary being converted */
	char *fixed;			/* a repaired string */
	size_t fixed_cap;
};

/* --- function deduplication ----------------------------------------------- */

static uint64_t
func_key(const struct pc_function *f)
{
	uint64_t k[4];

	k[0] = f->name;
	k[1] = f->system_name;
	k[2] = f->file;
	k[3] = (uint64_t)f->start_line;
	return profconv__hash_bytes(k, sizeof(k), 0x9e3779b97f4a7c15ULL);
}

static bool
same_function(const struct pc_function *a, const struct pc_function *b)
{
	return a->name == b->name && a->system_name == b->system_name &&
	    a->file == b->file && a->start_line == b->start_line;
}

/*
 * Find F under its hash key, or the first free key after it: keys of
 * different functions that collide are told apart by comparing them.
 */
static bool
funcset_find(const struct pc_funcset *set,
    const struct profconv_profile *prof, const struct pc_function *f,
    uint64_t *key, uint32_t *id)
{
	for (*key = func_key(f); profconv__u64map_get(&set->ids, *key, id);
	    (*key)++)
		if (same_function(pc_function(prof, *id), f))
			return true;
	return false;
}

int
profconv__funcset_init(struct pc_funcset *set, struct profconv_profile *prof)
{
	uint64_t key;
	uint32_t id;
	size_t i;
	int rc;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < prof->nfunctions; i++) {
		if (funcset_find(set, prof, &prof->functions[i], &key, &id))
			continue;	/* a duplicate: the first one wins */
		rc = profconv__u64map_put(&set->ids, key, (uint32_t)i + 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
profconv__funcset_free(struct pc_funcset *set)
{
	profconv__u64map_free(&set->ids);
}

int
profconv__funcset_get(struct pc_funcset *set, struct profconv_profile *prof,
    const struct pc_function *f, uint32_t *id_out)
{
	uint64_t key;
	int rc;

	if (funcset_find(set, prof, f, &key, id_out))
		return 0;
	rc = profconv__add_function_raw(prof, f, id_out);
	if (rc == 0)
		rc = profconv__u64map_put(&set->ids, key, *id_out);
	return rc;
}

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

/* --- finding files for libdwfl, without debuginfod ----------------------- */

/* Every module is reported with its file already open. */
static int
no_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
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
	const struct profconv_symbolizer *s = *userdata;
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
	return fd >= 0 ? profconv__debug_image(fd, s->jobs) : fd;
}

/* --- modules: one binary, its libdwfl sessions and its answers ------------- */

static void
handle_free(struct sym_handle *h)
{
	if (h == NULL)
		return;
	/* The index first: it borrows libdw's data. */
	profconv__symmod_free(h->index);
	if (h->dwfl != NULL)
		dwfl_end(h->dwfl);
	profconv__demangler_free(&h->dm);
	free(h->nbuf);
	profconv__rawpool_free(&h->names);
	profconv__u64map_free(&h->shown_by_ptr);
	free(h->shown);
	free(h->ans);
	free(h->frames);
	free(h);
}

static void
module_free(struct sym_module *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < MAX_SHARDS; i++)
		handle_free(m->h[i]);
	free(m->path);
	free(m->why);
	profconv__u64map_free(&m->by_addr);
	free(m->ans);
	free(m->frames);
	free(m->todo);
	free(m);
}

static void
file_id_of(const struct stat *st, struct file_id *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = (uint64_t)st->st_size;
	id->mtime_sec = (int64_t)st->st_mtim.tv_sec;
	id->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
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
static int
module_for(struct profconv_symbolizer *sz, const struct pc_found *found,
    uint64_t base, struct sym_module **out)
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
			module_free(m);
			sz->mods[i--] = sz->mods[--sz->nmods];
		}
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL || (m->path = strdup(found->path)) == NULL ||
	    PC_GROW(sz->mods, sz->mods_cap, sz->nmods, 1) < 0) {
		module_free(m);
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
static size_t
open_limit(void)
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
static void
evict(struct profconv_symbolizer *sz, size_t limit)
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
		module_free(sz->mods[oldest]);
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
static int
handle_open(struct profconv_symbolizer *sz, struct sym_module *m,
    struct sym_handle **out)
{
	struct sym_handle *h = calloc(1, sizeof(*h));
	Dwfl_Module *mod = NULL;
	void **userdata;
	int fd = -1, rc;

	*out = NULL;
	if (h == NULL)
		return profconv__nomem();
	h->dwfl = dwfl_begin(&sz->callbacks);
	if (h->dwfl == NULL) {
		handle_free(h);
		return profconv__fail(PROFCONV_EFORMAT, "libdwfl: %s",
		    dwfl_errmsg(-1));
	}
	rc = profconv__open_regular(m->path, &fd);
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
		/* libdwfl owns FD now; our finder gets the symbolizer. */
		(void)dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL,
		    NULL, NULL);
		*userdata = sz;
		rc = profconv__symmod_new(&h->index, mod);
	}
	if (rc < 0) {
		handle_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

/* Open M's first handle and read its debug info: once per module. */
static int
module_open(struct profconv_symbolizer *sz, struct sym_module *m)
{
	int rc;

	m->tried = true;
	rc = handle_open(sz, m, &m->h[0]);
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
static int
handle_lookup(struct sym_handle *h, enum profconv_demangle mode,
    uint64_t addr)
{
	struct sym_answer a = { addr, (uint32_t)h->nframes, 0, 0 };
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
	h->nframes += n;
	h->ans[h->nans++] = a;
	return 0;
}

/* Task I: one shard of one module's addresses (see plan_shards). */
static int
lookup_task(void *arg, size_t i)
{
	struct session *s = arg;
	struct sym_task *t = &s->tasks[i];
	struct sym_module *m = t->m;
	struct sym_handle *h;
	size_t k, lo, hi;
	int rc;

	if (t->shard == 0 && !m->tried) {
		rc = module_open(s->sz, m);
		if (rc < 0)
			return rc;
	}
	if (t->shard == 0 && m->unusable)
		return 0;
	if (m->h[t->shard] == NULL) {
		/* The same file opened again for this thread; when that
		 * fails, the first handle does this share afterwards. */
		rc = handle_open(s->sz, m, &m->h[t->shard]);
		if (rc == PROFCONV_EFORMAT || rc == PROFCONV_ENOTFOUND)
			return 0;
		if (rc < 0)
			return rc;
	}
	h = m->h[t->shard];
	lo = m->ntodo * t->shard / m->nshards;
	hi = m->ntodo * (t->shard + 1) / m->nshards;
	h->nans = h->nframes = 0;
	for (k = lo; k < hi; k++) {
		rc = handle_lookup(h, s->opts->demangle, m->todo[k]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Keep the answers of H's task in M. */
static int
merge_answers(struct sym_module *m, struct sym_handle *h)
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

/* --- a run: one profile --------------------------------------------------- */

static void
warn(struct session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (s->opts->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->opts->warn(msg, s->opts->payload);
}

static int
session_init(struct session *s, struct profconv_symbolizer *sz,
    struct profconv_profile *prof, struct profconv_symbolize_stats *stats)
{
	memset(s, 0, sizeof(*s));
	s->sz = sz;
	s->prof = prof;
	s->opts = &sz->opts;
	s->stats = stats;
	s->find.sysroot = sz->opts.sysroot;
	s->find.search_path = sz->opts.search_path;
	s->find.pid = sz->opts.pid;
	s->maps = calloc(prof->nmappings + 1, sizeof(*s->maps));
	if (s->maps == NULL)
		return profconv__nomem();
	return profconv__funcset_init(&s->funcs, prof);
}

/* Forget libdw's string addresses: modules may be closed after this. */
static void
forget_strings(struct session *s)
{
	profconv__u64map_free(&s->name_by_ptr);
	memset(&s->name_by_ptr, 0, sizeof(s->name_by_ptr));
	profconv__u64map_free(&s->file_by_ptr);
	memset(&s->file_by_ptr, 0, sizeof(s->file_by_ptr));
	s->nname_pairs = 0;
}

static void
session_free(struct session *s)
{
	size_t i;

	forget_strings(s);
	for (i = 0; i < s->nbins; i++) {
		profconv__u64map_free(&s->bins[i]->results);
		profconv__found_free(&s->bins[i]->found);
		free(s->bins[i]);
	}
	free(s->bins);
	profconv__u64map_free(&s->bin_by_key);
	free(s->maps);
	free(s->tasks);
	free(s->results);
	free(s->rlines);
	profconv__funcset_free(&s->funcs);
	free(s->name_pairs);
	free(s->fixed);
}

/* --- planning: a binary and a bias per mapping ---------------------------- */

/* The binary already found at PATH, or nbins. */
static size_t
binary_at(const struct session *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->nbins; i++)
		if (strcmp(s->bins[i]->found.path, path) == 0)
			return i;
	return s->nbins;
}

/* Keep FOUND as a binary (or reuse the same file); its index to *IDX. */
static int
add_binary(struct session *s, struct pc_found *found, uint64_t bias,
    uint32_t *idx)
{
	struct sym_binary *b;
	size_t i = binary_at(s, found->path);
	int rc;

	if (i < s->nbins) {
		profconv__found_free(found);
		*idx = (uint32_t)i;
		return 0;
	}
	b = calloc(1, sizeof(*b));
	if (b == NULL || PC_GROW(s->bins, s->bins_cap, s->nbins, 1) < 0) {
		free(b);
		profconv__found_free(found);
		return profconv__nomem();
	}
	b->found = *found;
	b->base = bias;
	rc = module_for(s->sz, &b->found, bias, &b->m);
	/* Opened again when it is looked up: a profile may map more
	 * files than the process may have open. */
	if (b->found.fd >= 0)
		close(b->found.fd);
	b->found.fd = -1;
	if (rc < 0) {
		profconv__found_free(&b->found);
		free(b);
		return rc;
	}
	*idx = (uint32_t)s->nbins;
	s->bins[s->nbins++] = b;
	return 0;
}

/*
 * A file was found for a mapping but is no ELF file libdw can use (not
 * ELF, truncated): an error in strict mode, else a warning and a count.
 */
static int
unusable(struct session *s, const char *path, const char *why,
    uint32_t *code)
{
	*code = MAP_UNUSABLE;
	/* The reason may name the file already. */
	if (strstr(why, path) != NULL) {
		if (s->opts->strict)
			return profconv__fail(PROFCONV_EFORMAT, "%s", why);
		warn(s, "%s", why);
		return 0;
	}
	if (s->opts->strict)
		return profconv__fail(PROFCONV_EFORMAT, "cannot use '%s': %s",
		    path, why);
	warn(s, "cannot use '%s': %s", path, why);
	return 0;
}

/*
 * Look for the binary of mapping M's file FILE with BUILD_ID; the
 * outcome, coded as binary index << 3 | state, goes to *CODE.
 */
static int
locate(struct session *s, const struct pc_mapping *m, const char *file,
    const char *build_id, uint32_t *code)
{
	struct pc_found found;
	uint32_t idx = 0;
	int rc;

	rc = profconv__find_binary(&s->find, file, build_id, &found);
	if (rc == PROFCONV_ENOTFOUND && found.mismatch_id[0] == '\0' &&
	    found.bad_path[0] != '\0')
		return unusable(s, found.bad_path, found.bad_why, code);
	if (rc == PROFCONV_ENOTFOUND) {
		if (found.mismatch_id[0] == '\0') {
			*code = MAP_NO_BINARY;
			return 0;
		}
		warn(s, "'%s' has build id %s, not %s as in the profile; "
		    "not used", found.mismatch_path, found.mismatch_id,
		    build_id);
		*code = MAP_MISMATCH;
		return 0;
	}
	if (rc == 0)
		rc = add_binary(s, &found, profconv__load_bias(&found.info,
		    m->start, m->limit, m->offset), &idx);
	if (rc < 0)
		return rc;
	*code = idx << 3 | MAP_OK;
	return 0;
}

static int
plan_mapping(struct session *s, uint32_t id)
{
	struct pc_mapping *m = pc_mapping_mut(s->prof, id);
	struct sym_map *sm = &s->maps[id - 1];
	const char *file = profconv__pstr(s->prof, m->file);
	uint64_t key = (uint64_t)m->file << 32 | m->build_id;
	struct sym_binary *b;
	uint32_t code;
	int rc;

	if (profconv__unsymbolizable(file)) {
		sm->state = MAP_UNSYMBOLIZABLE;
		return 0;
	}
	if (!profconv__u64map_get(&s->bin_by_key, key, &code)) {
		rc = locate(s, m, file, profconv__pstr(s->prof, m->build_id),
		    &code);
		if (rc == 0)
			rc = profconv__u64map_put(&s->bin_by_key, key, code);
		if (rc < 0)
			return rc;
	}
	sm->state = code & 7;
	sm->binary = code >> 3;
	if (sm->state != MAP_OK)
		return 0;
	b = s->bins[sm->binary];
	sm->bias = profconv__load_bias(&b->found.info, m->start, m->limit,
	    m->offset);
	/* Record what the file says when the profile did not know. */
	if (m->build_id == 0 && b->found.info.build_id[0] != '\0')
		return profconv__intern(s->prof, b->found.info.build_id,
		    &m->build_id);
	return 0;
}

static bool
needs_lines(const struct pc_location *loc)
{
	return loc->nlines == 0 && loc->mapping != 0;
}

static int
plan(struct session *s)
{
	const struct pc_location *loc;
	size_t i;
	int rc;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		if (!needs_lines(loc) || s->maps[loc->mapping - 1].state !=
		    MAP_TODO)
			continue;
		rc = plan_mapping(s, loc->mapping);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* --- lookup: the batch's new addresses, on several threads --------------- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The addresses of the batch's locations that no module answered yet. */
static int
collect_todo(struct session *s)
{
	const struct pc_location *loc;
	struct sym_module *m;
	struct sym_map *sm;
	uint64_t addr;
	uint32_t k;
	size_t i, j, n;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		if (!needs_lines(loc))
			continue;
		sm = &s->maps[loc->mapping - 1];
		if (sm->state != MAP_OK || sm->binary < s->batch_lo ||
		    sm->binary >= s->batch_hi)
			continue;
		m = s->bins[sm->binary]->m;
		addr = loc->address - sm->bias;
		if (profconv__u64map_get(&m->by_addr, addr, &k))
			continue;
		if (PC_GROW(m->todo, m->todo_cap, m->ntodo, 1) < 0)
			return PROFCONV_ENOMEM;
		m->todo[m->ntodo++] = addr;
	}
	/* Sorted, once each: a share of them is a range of addresses. */
	for (i = s->batch_lo; i < s->batch_hi; i++) {
		m = s->bins[i]->m;
		if (m->ntodo < 2)
			continue;
		qsort(m->todo, m->ntodo, sizeof(*m->todo), cmp_u64);
		for (j = n = 1; j < m->ntodo; j++)
			if (m->todo[j] != m->todo[n - 1])
				m->todo[n++] = m->todo[j];
		m->ntodo = n;
	}
	return 0;
}

/*
 * The modules to open whose debug info is not in the file itself: a
 * separate debug file, often compressed, which libdw inflates whole on
 * opening.  Their tasks go first so that the slowest start first.
 */
static bool
opens_slowly(const struct sym_module *m)
{
	return !m->tried && m->plain_debug == 0;
}

/*
 * M's tasks: one when it has work (or must be opened), more for many
 * addresses in debug info each thread can read without inflating it
 * again.
 */
static int
add_tasks(struct session *s, struct sym_module *m, unsigned int jobs)
{
	size_t k, n = m->tried ? 0 : 1;

	if (m->ntodo > 0 && !m->unusable) {
		n = 1;
		if (m->plain_debug != 0 && jobs > 1)
			n = m->ntodo / SHARD_MIN;
		n = n < 1 ? 1 : n > jobs ? jobs : n;
		n = n > MAX_SHARDS ? MAX_SHARDS : n;
	}
	m->nshards = n;
	for (k = 0; k < n; k++) {
		if (PC_GROW(s->tasks, s->tasks_cap, s->ntasks, 1) < 0)
			return PROFCONV_ENOMEM;
		s->tasks[s->ntasks++] = (struct sym_task){ m, k };
	}
	return 0;
}

/* The batch's tasks, those of modules that open slowly first. */
static int
plan_shards(struct session *s, unsigned int jobs)
{
	struct sym_module *m;
	size_t i, pass;
	int rc;

	s->ntasks = 0;
	for (pass = 0; pass < 2; pass++) {
		for (i = s->batch_lo; i < s->batch_hi; i++) {
			m = s->bins[i]->m;
			if (opens_slowly(m) != (pass == 0))
				continue;
			if ((rc = add_tasks(s, m, jobs)) < 0)
				return rc;
		}
	}
	return 0;
}

/* Keep every task's answers in its module, in address order. */
static int
merge_batch(struct session *s)
{
	struct sym_module *m;
	struct sym_handle *h;
	size_t i, k, lo, hi, j;
	int rc;

	for (i = 0; i < s->ntasks; i++) {
		m = s->tasks[i].m;
		k = s->tasks[i].shard;
		h = m->h[k];
		if (m->unusable)
			continue;
		if (h == NULL) {
			/* This share's own handle failed: the first one. */
			h = m->h[0];
			lo = m->ntodo * k / m->nshards;
			hi = m->ntodo * (k + 1) / m->nshards;
			for (j = lo; j < hi; j++)
				if ((rc = handle_lookup(h, s->opts->demangle,
				    m->todo[j])) < 0)
					return rc;
		}
		rc = merge_answers(m, h);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
lookup_batch(struct session *s)
{
	struct sym_module *m;
	unsigned int jobs = profconv__jobs_count(s->sz->jobs);
	size_t i;
	int rc;

	s->sz->batches++;
	for (i = s->batch_lo; i < s->batch_hi; i++) {
		m = s->bins[i]->m;
		m->used = s->sz->batches;
		m->ntodo = 0;
		m->nshards = 0;
	}
	rc = collect_todo(s);
	if (rc == 0)
		rc = plan_shards(s, jobs);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, s->ntasks, lookup_task, s);
	if (rc == 0)
		rc = merge_batch(s);
	for (i = s->batch_lo; i < s->batch_hi; i++)
		s->bins[i]->m->ntodo = 0;
	return rc;
}

/* Warnings, errors and progress of the batch's binaries, in order. */
static int
report_batch(struct session *s)
{
	struct sym_binary *b;
	uint32_t code;
	size_t i;
	int rc;

	for (i = s->batch_lo; i < s->batch_hi; i++) {
		b = s->bins[i];
		if (b->m->unusable) {
			rc = unusable(s, b->found.path, b->m->why, &code);
			if (rc < 0)
				return rc;
		}
		if (s->opts->progress != NULL)
			s->opts->progress(i + 1, s->nbins, s->opts->payload);
	}
	return 0;
}

/* --- conversion: frames to lines, in location order ----------------------- */

/*
 * TEXT for the profile's string table, which holds UTF-8 only.  Debug
 * info may carry other bytes (a source tree in a Latin-1 directory):
 * each byte that starts no valid sequence becomes U+FFFD, and the binary
 * is named in one warning, rather than failing the whole call.
 */
static int
intern_text(struct session *s, const char *text, uint32_t *idx)
{
	size_t len = strlen(text), i, n, o = 0;
	unsigned char c;

	if (profconv__utf8_valid(text, len))
		return profconv__intern(s->prof, text, idx);
	if (len > (SIZE_MAX - 1) / 3 ||
	    PC_GROW(s->fixed, s->fixed_cap, 0, len * 3 + 1) < 0)
		return profconv__nomem();
	for (i = 0; i < len; i += n) {
		c = (unsigned char)text[i];
		n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		if (i + n <= len && profconv__utf8_valid(text + i, n)) {
			memcpy(s->fixed + o, text + i, n);
			o += n;
			continue;
		}
		memcpy(s->fixed + o, "\xef\xbf\xbd", 3);
		o += 3;
		n = 1;
	}
	s->fixed[o] = '\0';
	if (s->cur != NULL && !s->cur->warned_utf8) {
		s->cur->warned_utf8 = true;
		warn(s, "'%s': debug info has text that is not UTF-8 "
		    "(shown with U+FFFD): '%s'", s->cur->found.path, s->fixed);
	}
	return profconv__intern(s->prof, s->fixed, idx);
}

/* String indexes of a frame's display name and system name. */
static int
frame_names(struct session *s, const struct sym_frame *sf, uint32_t *name,
    uint32_t *system_name)
{
	const struct pc_frame *f = &sf->f;
	const char *sys = f->linkage != NULL ? f->linkage : f->name;
	struct name_pair np;
	uint32_t k;
	int rc;

	*name = *system_name = 0;
	if (sys == NULL)
		return 0;
	/* libdw's strings stay put, so their address identifies them. */
	if (profconv__u64map_get(&s->name_by_ptr, (uintptr_t)sys, &k)) {
		*name = s->name_pairs[k].name;
		*system_name = s->name_pairs[k].system_name;
		return 0;
	}
	rc = intern_text(s, sf->shown, &np.name);
	if (rc == 0)
		rc = intern_text(s, sys, &np.system_name);
	if (rc == 0)
		rc = PC_GROW(s->name_pairs, s->name_pairs_cap, s->nname_pairs,
		    1);
	if (rc == 0)
		rc = profconv__u64map_put(&s->name_by_ptr, (uintptr_t)sys,
		    (uint32_t)s->nname_pairs);
	if (rc < 0)
		return rc;
	s->name_pairs[s->nname_pairs++] = np;
	*name = np.name;
	*system_name = np.system_name;
	return 0;
}

static int
file_index(struct session *s, const char *file, uint32_t *idx)
{
	int rc;

	*idx = 0;
	if (file == NULL)
		return 0;
	if (profconv__u64map_get(&s->file_by_ptr, (uintptr_t)file, idx))
		return 0;
	rc = intern_text(s, file, idx);
	if (rc == 0)
		rc = profconv__u64map_put(&s->file_by_ptr, (uintptr_t)file,
		    *idx);
	return rc;
}

/* Turn frame SF into a line with its (deduplicated) function. */
static int
frame_line(struct session *s, const struct sym_frame *sf,
    struct pc_line *out, uint8_t *flags)
{
	const struct pc_frame *f = &sf->f;
	struct pc_function fn;
	int rc;

	fn.start_line = f->start_line;
	rc = frame_names(s, sf, &fn.name, &fn.system_name);
	if (rc == 0)
		rc = file_index(s, f->file, &fn.file);
	if (rc == 0)
		rc = profconv__funcset_get(&s->funcs, s->prof, &fn,
		    &out->function);
	if (rc < 0)
		return rc;
	out->line = f->line;
	out->column = f->column;
	*flags |= (fn.name != 0 ? PC_MAP_HAS_FUNCTIONS : 0) |
	    (fn.file != 0 ? PC_MAP_HAS_FILENAMES : 0) |
	    (f->line > 0 ? PC_MAP_HAS_LINE_NUMBERS : 0);
	return 0;
}

/* Convert ADDR of binary B once; the result's index goes to *RES. */
static int
resolve(struct session *s, struct sym_binary *b, uint64_t addr,
    uint32_t *res)
{
	struct sym_result r = { s->nrlines, 0, 0 };
	const struct sym_answer *a;
	uint32_t k;
	size_t i;
	int rc;

	if (profconv__u64map_get(&b->results, addr, res))
		return 0;
	if (!profconv__u64map_get(&b->m->by_addr, addr, &k))
		return profconv__fail(PROFCONV_EFORMAT,
		    "internal error: address %#llx of '%s' not looked up",
		    (unsigned long long)addr, b->found.path);
	a = &b->m->ans[k];
	s->cur = b;
	rc = PC_GROW(s->rlines, s->rlines_cap, s->nrlines, a->n);
	for (i = 0; rc == 0 && i < a->n; i++)
		rc = frame_line(s, &b->m->frames[a->off + i],
		    &s->rlines[r.off + i], &r.flags);
	if (rc == 0)
		rc = PC_GROW(s->results, s->results_cap, s->nresults, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&b->results, addr,
		    (uint32_t)s->nresults);
	if (rc < 0)
		return rc;
	/* Only DWARF says whether calls were inlined into the address. */
	if (a->src == PC_FRAMES_DWARF && a->n != 0)
		r.flags |= PC_MAP_HAS_INLINE_FRAMES;
	r.n = a->n;
	s->nrlines += a->n;
	*res = (uint32_t)s->nresults;
	s->results[s->nresults++] = r;
	s->stats->addresses++;
	return 0;
}

/* Symbolize location ID of a mapping planned MAP_OK. */
static int
symbolize_location(struct session *s, uint32_t id, struct sym_map *sm)
{
	const struct pc_location *loc = pc_location(s->prof, id);
	struct sym_binary *b = s->bins[sm->binary];
	const struct sym_result *r;
	uint32_t res;
	int rc;

	if (b->m->unusable) {
		s->stats->unusable++;
		return 0;
	}
	rc = resolve(s, b, loc->address - sm->bias, &res);
	if (rc < 0)
		return rc;
	r = &s->results[res];
	if (r->n == 0) {
		s->stats->no_debuginfo++;
		return 0;
	}
	sm->flags |= r->flags;
	s->stats->symbolized++;
	return profconv__set_location_lines(s->prof, id, &s->rlines[r->off],
	    r->n);
}

/* Count the locations that no batch will look at. */
static void
count_others(struct session *s)
{
	struct profconv_symbolize_stats *st = s->stats;
	const struct pc_location *loc;
	size_t i;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		st->locations++;
		if (loc->nlines != 0)
			st->already_symbolized++;
		else if (loc->mapping == 0)
			st->unsymbolizable++;
		else
			switch (s->maps[loc->mapping - 1].state) {
			case MAP_OK:
				break;
			case MAP_NO_BINARY:
				st->no_binary++;
				break;
			case MAP_MISMATCH:
				st->build_id_mismatch++;
				break;
			case MAP_UNUSABLE:
				st->unusable++;
				break;
			default:
				st->unsymbolizable++;
				break;
			}
	}
}

/* Symbolize the locations whose binaries the current batch holds. */
static int
symbolize_batch(struct session *s)
{
	const struct pc_location *loc;
	struct sym_map *sm;
	size_t i;
	int rc;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		if (loc->nlines != 0 || loc->mapping == 0)
			continue;
		sm = &s->maps[loc->mapping - 1];
		if (sm->state != MAP_OK || sm->binary < s->batch_lo ||
		    sm->binary >= s->batch_hi)
			continue;
		rc = symbolize_location(s, (uint32_t)i + 1, sm);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
symbolize_locations(struct session *s)
{
	size_t lo, hi, i, step = open_limit();
	int rc = 0;

	count_others(s);
	for (i = 0; i < s->nbins; i++)
		s->bins[i]->m->pinned = true;
	/* The modules of batches done may be closed: B->m is stale there. */
	for (lo = 0; rc == 0 && lo < s->nbins; lo = hi) {
		hi = s->nbins - lo > step ? lo + step : s->nbins;
		s->batch_lo = lo;
		s->batch_hi = hi;
		rc = lookup_batch(s);
		if (rc == 0)
			rc = report_batch(s);
		if (rc == 0)
			rc = symbolize_batch(s);
		/* The batch's modules may be closed from here on. */
		forget_strings(s);
		for (i = lo; i < hi; i++)
			s->bins[i]->m->pinned = false;
		evict(s->sz, step);
	}
	for (i = lo; i < s->nbins; i++)	/* after a failure */
		s->bins[i]->m->pinned = false;
	for (lo = 0; lo < s->prof->nmappings; lo++)
		s->prof->mappings[lo].flags |= s->maps[lo].flags;
	return rc;
}

/* --- the symbolizer -------------------------------------------------------- */

static int
check_options(const struct profconv_symbolize_options *opts)
{
	if (opts->pid < 0)
		return profconv__fail(PROFCONV_EINVAL, "invalid process id %d",
		    opts->pid);
	if (opts->pid > 0 && opts->maps_file != NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "a process and a maps file cannot both be given");
	return 0;
}

/* Copy the string option *FIELD into SZ; NULL stays NULL. */
static int
copy_string(struct profconv_symbolizer *sz, size_t slot, const char **field)
{
	if (*field == NULL)
		return 0;
	sz->strs[slot] = strdup(*field);
	if (sz->strs[slot] == NULL)
		return profconv__nomem();
	*field = sz->strs[slot];
	return 0;
}

int
profconv_symbolizer_new(struct profconv_symbolizer **out,
    const struct profconv_symbolize_options *opts)
{
	struct profconv_symbolize_options o;
	struct profconv_symbolizer *sz;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_symbolize)) < 0)
		return rc;
	opts = &o;
	rc = check_options(opts);
	if (rc < 0)
		return rc;
	sz = calloc(1, sizeof(*sz));
	if (sz == NULL)
		return profconv__nomem();
	sz->opts = *opts;
	sz->jobs = opts->jobs;
	rc = copy_string(sz, 0, &sz->opts.sysroot);
	if (rc == 0)
		rc = copy_string(sz, 1, &sz->opts.search_path);
	if (rc == 0)
		rc = copy_string(sz, 2, &sz->opts.debuginfo_path);
	if (rc == 0)
		rc = copy_string(sz, 3, &sz->opts.maps_file);
	if (rc == 0)
		rc = make_debuginfo_path(sz);
	if (rc < 0) {
		profconv_symbolizer_free(sz);
		return rc;
	}
	/* libdwfl's standard callbacks ask debuginfod whenever
	 * $DEBUGINFOD_URLS is set; ours never do. */
	sz->callbacks.find_elf = opts->debuginfod ? dwfl_build_id_find_elf :
	    no_find_elf;
	sz->callbacks.find_debuginfo = opts->debuginfod ?
	    dwfl_standard_find_debuginfo : find_debuginfo;
	sz->callbacks.section_address = dwfl_offline_section_address;
	sz->callbacks.debuginfo_path = &sz->debuginfo_path;
	profconv__libelf_init();
	*out = sz;
	return 0;
}

void
profconv_symbolizer_free(struct profconv_symbolizer *sz)
{
	size_t i;

	if (sz == NULL)
		return;
	for (i = 0; i < sz->nmods; i++)
		module_free(sz->mods[i]);
	free(sz->mods);
	for (i = 0; i < sizeof(sz->strs) / sizeof(sz->strs[0]); i++)
		free(sz->strs[i]);
	free(sz->debuginfo_path);
	free(sz);
}

int
profconv_symbolizer_run(struct profconv_symbolizer *sz,
    struct profconv_profile *prof, struct profconv_symbolize_stats *stats)
{
	struct profconv_symbolize_stats ignored;
	struct session s;
	int rc = 0;

	stats = stats != NULL ? stats : &ignored;
	memset(stats, 0, sizeof(*stats));
	if (sz->opts.maps_file != NULL || sz->opts.pid > 0)
		rc = profconv__symbolize_remap(prof, sz->opts.maps_file,
		    sz->opts.pid);
	if (rc < 0)
		return rc;
	rc = session_init(&s, sz, prof, stats);
	if (rc == 0)
		rc = plan(&s);
	if (rc == 0)
		rc = symbolize_locations(&s);
	session_free(&s);
	return rc;
}

int
profconv_symbolize(struct profconv_profile *prof,
    const struct profconv_symbolize_options *opts,
    struct profconv_symbolize_stats *stats)
{
	struct profconv_symbolizer *sz;
	int rc;

	if (stats != NULL)
		memset(stats, 0, sizeof(*stats));
	rc = profconv_symbolizer_new(&sz, opts);
	if (rc == 0)
		rc = profconv_symbolizer_run(sz, prof, stats);
	profconv_symbolizer_free(sz);
	return rc;
}
