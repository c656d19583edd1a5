/* SPDX-License-Identifier: MIT */
/*
 * symbolize.c - profconv_symbolize(): give a profile's locations their
 * functions, files, lines and inline chains from the binaries and debug
 * info of their mappings, through one libdwfl session.
 *
 * The work runs in three passes.  Planning finds a binary for every
 * mapping that has locations to symbolize and computes the mapping's
 * load bias; reporting hands each binary to libdwfl once; lookup turns
 * each unique (binary, file address) into lines exactly once and copies
 * them to every location at that address.  Reporting and lookup run over
 * the binaries in batches, each with its own libdwfl session, so that
 * the open files (binary, debug file, dwz file, .dwo files) stay well
 * below the process's limit however many files a profile maps.
 *
 * Nothing here touches process-wide state: debuginfod stays off through
 * the session's own find_debuginfo callback, not by hiding
 * $DEBUGINFOD_URLS, so calls on different profiles may run in parallel.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <elfutils/libdwfl.h>

#include "symbolize.h"

#define MAX_FRAMES 64

enum map_state {
	MAP_TODO,
	MAP_UNSYMBOLIZABLE,
	MAP_NO_BINARY,
	MAP_MISMATCH,
	MAP_UNUSABLE,
	MAP_OK
};

/* One binary on disk and what was learnt from it. */
struct sym_binary {
	struct pc_found found;
	uint64_t base;			/* bias of the first mapping using it */
	Dwfl_Module *mod;		/* NULL: libdwfl refused it */
	bool unusable;			/* ... and that was reported */
	bool warned_utf8;		/* a repaired string was reported */
	struct pc_symmod *index;
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

struct session {
	struct profconv_profile *prof;
	const struct profconv_symbolize_options *opts;
	struct profconv_symbolize_stats *stats;
	struct pc_find find;
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	Dwfl *dwfl;

	struct sym_binary **bins;
	size_t nbins, bins_cap;
	size_t batch_lo, batch_hi;	/* the binaries reported now */
	struct pc_u64map bin_by_key;	/* (file, build id) -> plan code */
	struct sym_map *maps;		/* one per profile mapping */

	struct sym_result *results;
	size_t nresults, results_cap;
	struct pc_line *rlines;
	size_t nrlines, rlines_cap;

	struct pc_funcset funcs;
	struct pc_demangler dm;
	char *nbuf;			/* a name in the demangle mode */
	size_t nbuf_cap;
	struct pc_u64map name_by_ptr;	/* libdw string -> name_pairs[] */
	struct name_pair *name_pairs;
	size_t nname_pairs, name_pairs_cap;
	struct pc_u64map file_by_ptr;	/* libdw string -> string index */
	struct sym_binary *cur;		/* the binary being looked up */
	char *fixed;			/* a repaired string */
	size_t fixed_cap;
	struct pc_frame frames[MAX_FRAMES];
};

static void end_batch(struct session *s);

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

/* --- the session ---------------------------------------------------------- */

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

/*
 * The debuginfo search path: the user's directories, then libdwfl's
 * default (the binary's directory, its .debug, /usr/lib/debug with its
 * .build-id tree), then the sysroot's /usr/lib/debug.
 */
static int
make_debuginfo_path(struct session *s)
{
	const char *user = s->opts->debuginfo_path, *root = s->opts->sysroot;
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
	const struct session *s = *userdata;
	struct pc_debug_query q;
	unsigned char alt_id[64];
	const unsigned char *bits;
	GElf_Addr vaddr;
	char guess[256];
	const char *slash;
	int n;

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
	q.dirs = s->opts->debuginfo_path;
	q.sysroot = s->opts->sysroot;
	q.id_len = profconv__altlink_id(file_name, debuglink, alt_id);
	if (q.id_len > 0) {
		q.id = alt_id;
		q.crc = 0;
	} else if ((n = dwfl_module_build_id(mod, &bits, &vaddr)) > 0) {
		q.id = bits;
		q.id_len = (size_t)n;
	}
	return profconv__find_debugfile(&q, debuginfo_file_name);
}

static int
session_init(struct session *s, struct profconv_profile *prof,
    const struct profconv_symbolize_options *opts,
    struct profconv_symbolize_stats *stats)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->prof = prof;
	s->opts = opts;
	s->stats = stats;
	s->find.sysroot = opts->sysroot;
	s->find.search_path = opts->search_path;
	s->find.pid = opts->pid;
	/* libdwfl's standard callbacks ask debuginfod whenever
	 * $DEBUGINFOD_URLS is set; ours never do. */
	s->callbacks.find_elf = opts->debuginfod ? dwfl_build_id_find_elf :
	    no_find_elf;
	s->callbacks.find_debuginfo = opts->debuginfod ?
	    dwfl_standard_find_debuginfo : find_debuginfo;
	s->callbacks.section_address = dwfl_offline_section_address;
	s->callbacks.debuginfo_path = &s->debuginfo_path;
	rc = make_debuginfo_path(s);
	if (rc < 0)
		return rc;
	s->maps = calloc(prof->nmappings + 1, sizeof(*s->maps));
	if (s->maps == NULL)
		return profconv__nomem();
	return profconv__funcset_init(&s->funcs, prof);
}

static void
session_free(struct session *s)
{
	size_t i;

	/* The modules' indexes first: they borrow libdw's data. */
	end_batch(s);
	for (i = 0; i < s->nbins; i++) {
		profconv__u64map_free(&s->bins[i]->results);
		profconv__found_free(&s->bins[i]->found);
		free(s->bins[i]);
	}
	free(s->bins);
	profconv__u64map_free(&s->bin_by_key);
	free(s->maps);
	free(s->results);
	free(s->rlines);
	profconv__funcset_free(&s->funcs);
	profconv__demangler_free(&s->dm);
	free(s->nbuf);
	profconv__u64map_free(&s->name_by_ptr);
	free(s->name_pairs);
	profconv__u64map_free(&s->file_by_ptr);
	free(s->debuginfo_path);
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
add_binary(struct session *s, struct pc_found *found, uint32_t *idx)
{
	struct sym_binary *b;
	size_t i = binary_at(s, found->path);

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
	/* Opened again when its batch is reported: a profile may map
	 * more files than the process may have open. */
	if (b->found.fd >= 0)
		close(b->found.fd);
	b->found.fd = -1;
	b->base = UINT64_MAX;
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
 * Look for the binary of FILE with BUILD_ID; the outcome, coded as
 * binary index << 3 | state, goes to *CODE.
 */
static int
locate(struct session *s, const char *file, const char *build_id,
    uint32_t *code)
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
		rc = add_binary(s, &found, &idx);
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
		rc = locate(s, file, profconv__pstr(s->prof, m->build_id), &code);
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
	if (b->base == UINT64_MAX)
		b->base = sm->bias;
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

/* --- reporting the binaries to libdwfl ------------------------------------ */

/*
 * How many binaries one libdwfl session holds: each may keep a few files
 * open (binary, debug file, dwz file, .dwo files), and the caller's own
 * descriptors need room too.
 */
static size_t
batch_size(void)
{
	struct rlimit rl;
	rlim_t n = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		n = rl.rlim_cur;
	n /= 8;
	return n < 8 ? 8 : n > 256 ? 256 : (size_t)n;
}

/* Hand binary B to libdwfl, placed by its first mapping. */
static int
report_binary(struct session *s, struct sym_binary *b)
{
	uint32_t code;
	void **userdata;
	int fd, rc;

	rc = profconv__open_regular(b->found.path, &fd);
	if (rc == 0) {
		/* Other mappings' biases are undone before every lookup. */
		b->mod = dwfl_report_elf(s->dwfl, b->found.path,
		    b->found.path, fd, b->base, true);
		if (b->mod == NULL) {
			close(fd);
			profconv__fail(PROFCONV_EFORMAT, "%s", dwfl_errmsg(-1));
		}
	}
	if (b->mod == NULL) {
		rc = unusable(s, b->found.path, profconv_errmsg(), &code);
		b->unusable = true;
		return rc;
	}
	/* libdwfl owns FD now; our finder gets the session back. */
	(void)dwfl_module_info(b->mod, &userdata, NULL, NULL, NULL, NULL,
	    NULL, NULL);
	*userdata = s;
	return 0;
}

/* Report the binaries [LO, HI) to a new libdwfl session. */
static int
report_batch(struct session *s, size_t lo, size_t hi)
{
	size_t i;
	int rc;

	s->batch_lo = lo;
	s->batch_hi = hi;
	s->dwfl = dwfl_begin(&s->callbacks);
	if (s->dwfl == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "libdwfl: %s",
		    dwfl_errmsg(-1));
	dwfl_report_begin(s->dwfl);
	for (i = lo; i < hi; i++) {
		rc = report_binary(s, s->bins[i]);
		if (rc < 0)
			return rc;
	}
	if (dwfl_report_end(s->dwfl, NULL, NULL) != 0)
		return profconv__fail(PROFCONV_EFORMAT, "libdwfl: %s",
		    dwfl_errmsg(-1));
	for (i = lo; i < hi; i++) {
		if (s->bins[i]->mod == NULL)
			continue;
		rc = profconv__symmod_new(&s->bins[i]->index, s->bins[i]->mod);
		if (rc < 0)
			return rc;
		if (s->opts->progress != NULL)
			s->opts->progress(i + 1, s->nbins, s->opts->payload);
	}
	return 0;
}

/*
 * Close the batch's libdwfl session.  The name and file caches are keyed
 * by libdw's string addresses, which mean nothing once it is gone.
 */
static void
end_batch(struct session *s)
{
	size_t i;

	for (i = s->batch_lo; i < s->batch_hi; i++) {
		profconv__symmod_free(s->bins[i]->index);
		s->bins[i]->index = NULL;
		s->bins[i]->mod = NULL;
	}
	if (s->dwfl != NULL)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	profconv__u64map_free(&s->name_by_ptr);
	memset(&s->name_by_ptr, 0, sizeof(s->name_by_ptr));
	profconv__u64map_free(&s->file_by_ptr);
	memset(&s->file_by_ptr, 0, sizeof(s->file_by_ptr));
	s->nname_pairs = 0;
}

/* --- lookup: frames to lines ---------------------------------------------- */

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
frame_names(struct session *s, const struct pc_frame *f, uint32_t *name,
    uint32_t *system_name)
{
	const char *sys = f->linkage != NULL ? f->linkage : f->name;
	const char *shown;
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
	/* FULL is c++filt's whole text; the other modes drop the build
	 * hashes here (legacy Rust "::h<hash>") and simplify below. */
	shown = profconv__demangle(sys, &s->dm,
	    s->opts->demangle == PROFCONV_DEMANGLE_FULL ? 0 :
	    PC_DEMANGLE_NO_HASH);
	if (shown == NULL)
		shown = f->name != NULL ? f->name : sys;
	/* Function.name in the demangle mode; system_name stays mangled. */
	if (s->opts->demangle == PROFCONV_DEMANGLE_NONE) {
		shown = sys;
	} else if (shown != sys || profconv__name_is_cxx(shown)) {
		size_t len;

		rc = profconv__name_simplify(shown, strlen(shown),
		    s->opts->demangle, &s->nbuf, &s->nbuf_cap, &len);
		if (rc < 0)
			return rc;
		shown = s->nbuf;
	}
	rc = intern_text(s, shown, &np.name);
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

/* Turn frame F into a line with its (deduplicated) function. */
static int
frame_line(struct session *s, const struct pc_frame *f, struct pc_line *out,
    uint8_t *flags)
{
	struct pc_function fn;
	int rc;

	fn.start_line = f->start_line;
	rc = frame_names(s, f, &fn.name, &fn.system_name);
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

/* Look ADDR up in binary B once; the result's index goes to *RES. */
static int
resolve(struct session *s, struct sym_binary *b, uint64_t addr,
    uint32_t *res)
{
	struct sym_result r = { s->nrlines, 0, 0 };
	enum pc_frame_source src;
	size_t n, k;
	int rc;

	if (profconv__u64map_get(&b->results, addr, res))
		return 0;
	s->cur = b;
	rc = profconv__symmod_lookup(b->index, addr, s->frames, MAX_FRAMES,
	    &n, &src);
	if (rc == 0)
		rc = PC_GROW(s->rlines, s->rlines_cap, s->nrlines, n);
	for (k = 0; rc == 0 && k < n; k++)
		rc = frame_line(s, &s->frames[k], &s->rlines[r.off + k],
		    &r.flags);
	if (rc == 0)
		rc = PC_GROW(s->results, s->results_cap, s->nresults, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&b->results, addr,
		    (uint32_t)s->nresults);
	if (rc < 0)
		return rc;
	/* Only DWARF says whether calls were inlined into the address. */
	if (src == PC_FRAMES_DWARF && n != 0)
		r.flags |= PC_MAP_HAS_INLINE_FRAMES;
	r.n = (uint32_t)n;
	s->nrlines += n;
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

	if (b->unusable) {
		s->stats->unusable++;
		return 0;
	}
	if (b->index == NULL) {
		s->stats->no_debuginfo++;
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
	size_t lo, hi, step = batch_size();
	int rc = 0;

	count_others(s);
	for (lo = 0; rc == 0 && lo < s->nbins; lo = hi) {
		hi = s->nbins - lo > step ? lo + step : s->nbins;
		rc = report_batch(s, lo, hi);
		if (rc == 0)
			rc = symbolize_batch(s);
		end_batch(s);
	}
	for (lo = 0; lo < s->prof->nmappings; lo++)
		s->prof->mappings[lo].flags |= s->maps[lo].flags;
	return rc;
}

/* --- the entry point ------------------------------------------------------ */

static int
check_options(const struct profconv_symbolize_options *opts)
{
	int rc = profconv__check_version(opts->version,
	    PROFCONV_SYMBOLIZE_OPTIONS_VERSION, "symbolize");

	if (rc < 0)
		return rc;
	if (opts->pid < 0)
		return profconv__fail(PROFCONV_EINVAL, "invalid process id %d",
		    opts->pid);
	if (opts->pid > 0 && opts->maps_file != NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "a process and a maps file cannot both be given");
	return 0;
}

int
profconv_symbolize(struct profconv_profile *prof,
    const struct profconv_symbolize_options *opts,
    struct profconv_symbolize_stats *stats)
{
	static const struct profconv_symbolize_options defaults =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats ignored;
	struct session s;
	int rc;

	opts = opts != NULL ? opts : &defaults;
	stats = stats != NULL ? stats : &ignored;
	memset(stats, 0, sizeof(*stats));
	rc = check_options(opts);
	if (rc == 0 && (opts->maps_file != NULL || opts->pid > 0))
		rc = profconv__symbolize_remap(prof, opts->maps_file, opts->pid);
	if (rc < 0)
		return rc;
	rc = session_init(&s, prof, opts, stats);
	if (rc == 0)
		rc = plan(&s);
	if (rc == 0)
		rc = symbolize_locations(&s);
	session_free(&s);
	return rc;
}
