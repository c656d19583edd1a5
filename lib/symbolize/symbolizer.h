/* SPDX-License-Identifier: MIT */
/*
 * symbolizer.h - what the files of a symbolizer run share: the
 * symbolizer, its modules and their libdwfl handles, and the session of
 * one run.  Private to symbolizer.c, modules.c, plan.c, lookup.c and
 * convert.c; it includes libdwfl, so symbolize.h stays free of it.
 *
 * A run has three passes.  Planning (plan.c) finds a binary for every
 * mapping that has locations to symbolize and computes the mapping's
 * load bias.  Lookup (lookup.c) opens each binary with its own libdwfl
 * session (a module, kept by the symbolizer for later runs: modules.c)
 * and turns every address not seen before into frames; modules are
 * independent, so they are looked up on several threads at once, and a
 * large binary whose debug info is stored uncompressed is opened more
 * than once and split by address.  Conversion (convert.c) then turns the
 * frames into the profile's lines, functions and strings in location
 * order, in the caller's thread, so the result does not depend on the
 * thread count.  Runs go over the binaries in batches and the
 * symbolizer closes the least recently used modules, so the open files
 * (binary, debug file, dwz file, .dwo files) stay well below the
 * process's limit however many files profiles map.
 *
 * The cut follows those passes: each file reads the structures below
 * and calls the few functions declared after them, and nothing else of
 * the others.
 */
#ifndef PROFCONV_SYMBOLIZER_H
#define PROFCONV_SYMBOLIZER_H

#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"

#define MAX_FRAMES 64
#define MAX_SHARDS 8

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
	bool has_start;
	uint64_t start;			/* with has_start: where the outermost
					 * frame's function starts */
};

/* A file identity: a file changed on disk is another module. */
struct file_id {
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
	int64_t ctime_sec, ctime_nsec;
};

/*
 * A file a handle maps in place (see profconv_symbolize_options's
 * handles_sigbus): a descriptor of it, its name for messages, and its
 * identity when it was opened, checked once it has been read.
 */
struct sym_watch {
	int fd;
	char *path;
	struct file_id id;
};

/*
 * One libdwfl session on a module's file, with what its lookups made.
 * Strings of the frames borrow from it.
 */
struct sym_handle {
	struct profconv_symbolizer *sz;	/* libdwfl's finder gets the handle */
	struct sym_watch *watch;	/* the files it maps in place */
	size_t nwatch, watch_cap;
	Dwfl *dwfl;
	struct pc_symmod *index;
	struct pc_demangler dm;
	char *nbuf;
	size_t nbuf_cap;
	struct pc_rawpool names;	/* names in the demangle mode, byte
					 * for byte (see convert.c) */
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
	int copy;			/* the file all its handles of a
					 * batch read (a descriptor of its
					 * private copy, or of the file itself
					 * when mapped in place), or -1 */
	bool copy_in_place;		/* COPY is the file itself */
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
	uint8_t problem;		/* enum profconv_binary_problem, or 0 */
	bool layout;			/* no PT_LOAD holds the mapping */
	uint32_t binary;
	uint64_t bias;
	size_t unnamed;			/* its locations left without lines */
	size_t located;			/* its locations looked at */
};

/* The lines of one unique address: s->rlines[off .. off + n). */
struct sym_result {
	size_t off;
	uint32_t n;
	uint8_t flags;
	bool has_fn_offset;		/* fn_offset: ADDR less its function's
					 * start (sym_answer) */
	uint32_t fn_offset;
};

struct name_pair {
	uint32_t name, system_name;
};

/* One lookup task: a module's handle and its share of the addresses. */
struct sym_task {
	struct sym_module *m;
	size_t shard;
};

/* One run of a symbolizer over one profile. */
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

/* An address the run should symbolize: no lines yet (or only a name
 * for none), and a mapping. */
static inline bool
sym_needs_lines(const struct profconv_profile *prof, uint32_t id)
{
	const struct pc_location *loc = pc_location(prof, id);

	/* A name the pprof writer gave a location without symbols is no
	 * symbol either. */
	return loc->mapping != 0 && (loc->nlines == 0 ||
	    profconv__named_unnamed(prof, id));
}

/* The map of location ID when the run should symbolize it and its
 * binary is in the current batch, else NULL. */
static inline struct sym_map *
sym_batch_map(const struct session *s, uint32_t id)
{
	struct sym_map *sm;

	if (!sym_needs_lines(s->prof, id))
		return NULL;
	sm = &s->maps[pc_location(s->prof, id)->mapping - 1];
	if (sm->state != MAP_OK || sm->binary < s->batch_lo ||
	    sm->binary >= s->batch_hi)
		return NULL;
	return sm;
}

/* --- modules: binaries, their libdwfl handles and answers (modules.c) ---- */

/*
 * The debuginfo path and the libdwfl callbacks of SZ, from its options.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__sym_dwfl_setup(struct profconv_symbolizer *sz);

/* Close M's handles and free it; NULL is a no-op. */
void profconv__sym_module_free(struct sym_module *m);

/*
 * Before a batch's handles of M are opened on several threads: one
 * private copy of M's file for all of them (as if each copied it, less
 * the copying), when M is copied at all; when files are mapped in place,
 * one descriptor of it, so that all read the same file.  Its failures are left to the
 * handles, which then copy on their own.  profconv__sym_module_uncopy
 * drops it once they are open.
 */
void profconv__sym_module_copy(struct profconv_symbolizer *sz,
    struct sym_module *m);
void profconv__sym_module_uncopy(struct sym_module *m);

/*
 * The module for the file FOUND names (open on FOUND->fd): the one kept
 * when the same file was used before, else a new one placed at BASE.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__sym_module_for(struct profconv_symbolizer *sz,
    const struct pc_found *found, uint64_t base, struct sym_module **out);

/*
 * Open M's first handle and read its debug info, once per module.  A
 * file libdwfl refuses marks M unusable (with the reason in M->why)
 * rather than failing.  Errors: PROFCONV_ENOMEM.
 */
int profconv__sym_module_open(struct profconv_symbolizer *sz,
    struct sym_module *m);

/*
 * Another libdwfl session on M's file into *OUT.  Errors:
 * PROFCONV_EFORMAT (libdwfl refuses the file), PROFCONV_ENOTFOUND,
 * PROFCONV_ENOMEM.
 */
int profconv__sym_handle_open(struct profconv_symbolizer *sz,
    struct sym_module *m, struct sym_handle **out);

/*
 * Whether the files M's handles map in place are still what they were
 * when opened.  Errors: PROFCONV_EIO ("'PATH' changed while it was
 * read").
 */
int profconv__sym_module_check(const struct sym_module *m);

/* Look ADDR up with H into H's answers.  Errors: PROFCONV_ENOMEM. */
int profconv__sym_handle_lookup(struct sym_handle *h,
    enum profconv_demangle mode, uint64_t addr);

/* Keep the answers of H's task in M.  Errors: PROFCONV_ENOMEM. */
int profconv__sym_merge_answers(struct sym_module *m, struct sym_handle *h);

/* How many modules a symbolizer keeps open, from RLIMIT_NOFILE. */
size_t profconv__sym_open_limit(void);

/* Close the least recently used modules until LIMIT handles are open. */
void profconv__sym_evict(struct profconv_symbolizer *sz, size_t limit);

/* --- a run and its plan (plan.c) ------------------------------------------ */

/* Report a warning through the options' callback, if any. */
void profconv__sym_warn(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Start a run of SZ over PROF.  Errors: PROFCONV_ENOMEM. */
int profconv__sym_session_init(struct session *s,
    struct profconv_symbolizer *sz, struct profconv_profile *prof,
    struct profconv_symbolize_stats *stats);
void profconv__sym_session_free(struct session *s);

/* Forget libdw's string addresses: modules may be closed after this. */
void profconv__sym_forget_strings(struct session *s);

/*
 * A file was found for a mapping but is no ELF file libdw can use: an
 * error in strict mode, else a warning; *CODE becomes MAP_UNUSABLE.
 * Errors: PROFCONV_EFORMAT (strict mode).
 */
/* A private copy of the file open on FD: modules.c. */
int profconv__sym_private_copy(int fd, const char *path, int *out);

int profconv__sym_unusable(struct session *s, const char *path,
    const char *why, uint32_t *code);

/*
 * A binary and a bias for every mapping that has locations to
 * symbolize.  Errors: PROFCONV_EFORMAT (strict mode), PROFCONV_ENOMEM.
 */
int profconv__sym_plan(struct session *s);

/* --- lookup, a batch of binaries at a time (lookup.c) -------------------- */

/* Look up the batch's new addresses on threads.  Errors: PROFCONV_ENOMEM. */
int profconv__sym_lookup_batch(struct session *s);

/*
 * Warnings, errors and progress of the batch's binaries, in order.
 * Errors: PROFCONV_EFORMAT (an unusable binary in strict mode).
 */
int profconv__sym_report_batch(struct session *s);

/* --- conversion (convert.c) ----------------------------------------------- */

/*
 * Symbolize the planned locations, batch by batch: look up, report,
 * convert, then let the batch's modules be closed.  Errors: those of
 * the passes.
 */
int profconv__sym_symbolize_locations(struct session *s);

/* libdwfl's find_elf callback for modules reported with their file
 * already open: there is nothing to find (modules.c; the DWARF fuzzer
 * uses it too). */
int profconv__sym_no_find_elf(Dwfl_Module *mod, void **userdata,
    const char *modname, Dwarf_Addr base, char **file_name, Elf **elfp);

#endif /* PROFCONV_SYMBOLIZER_H */
