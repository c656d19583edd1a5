/* SPDX-License-Identifier: MIT */
/*
 * model.h - the profile model every layer reads: the string table
 * (strtab.c), the model's structures and their read-only accessors
 * (profile.c).  Changing the model goes through seams.h.
 * May include: base/.
 */
#ifndef PROFCONV_MODEL_H
#define PROFCONV_MODEL_H

#include <string.h>

#include "base/base.h"
#include "base/ids.h"

/* --- string table (strtab.c) ---------------------------------------------- */

/*
 * Interned strings.  Index 0 is "".  Strings live in large chunks, so a
 * pointer once returned stays valid until the table is freed.  LENS is
 * authoritative: a string may hold NULs (pprof's may), and two strings
 * that differ only after a NUL are different entries.  Text that is not
 * UTF-8 is repaired on the way in (each bad byte becomes U+FFFD) and
 * counted in REPAIRED.
 */
struct pc_strtab {
	const char **strs;	/* index -> string, NUL-terminated too */
	uint32_t *lens;
	size_t len, cap, lens_cap;
	uint32_t *slots;	/* hash slots: index + 1, 0 = empty */
	size_t nslots;
	char *chunk;		/* current chunk, and room left in it */
	size_t chunk_left;
	char **chunks;
	size_t nchunks, chunks_cap;
	size_t repaired;	/* distinct strings repaired to UTF-8 */
};

/* Is TEXT (LEN bytes) well-formed UTF-8 (no overlongs, surrogates)? */
bool profconv__utf8_valid(const char *text, size_t len);

int profconv__strtab_init(struct pc_strtab *t);
void profconv__strtab_free(struct pc_strtab *t);
/* Intern S of LEN bytes; its index goes to *IDX. */
int profconv__strtab_intern(struct pc_strtab *t, const char *s, size_t len,
    uint32_t *idx);
/* Intern a NUL-terminated string; NULL interns "". */
int profconv__strtab_intern_cstr(struct pc_strtab *t, const char *s,
    uint32_t *idx);
/* Find S without adding it; true when present. */
bool profconv__strtab_find(const struct pc_strtab *t, const char *s,
    size_t len, uint32_t *idx);

static inline const char *
profconv__str(const struct pc_strtab *t, uint32_t idx)
{
	return t->strs[idx];
}

/* --- the profile model (profile.c) ---------------------------------------- */

struct pc_vtype {
	uint32_t type, unit;		/* string indexes */
};

struct pc_mapping {
	uint64_t start, limit, offset;
	uint32_t file, build_id;	/* string indexes */
	uint8_t flags;			/* PC_MAP_HAS_*, PC_MAP_DELETED,
					 * PC_MAP_VADDR */
	/* Not pprof's, never written: with PC_MAP_VADDR, the file's
	 * p_vaddr - p_offset where the mapping lies (the symbolizer read
	 * its program headers), so that the ELF address of a runtime
	 * address is known (profconv__unnamed_frame()). */
	uint64_t vaddr_delta;
};

enum {
	PC_MAP_HAS_FUNCTIONS = 1,
	PC_MAP_HAS_FILENAMES = 2,
	PC_MAP_HAS_LINE_NUMBERS = 4,
	PC_MAP_HAS_INLINE_FRAMES = 8,
	/* Not pprof's, never written: the kernel marked the file deleted
	 * after it was mapped (a legacy map's " (deleted)", which pprof
	 * drops from the name), so what sits at its path now is another
	 * file. */
	PC_MAP_DELETED = 16,
	/* Not pprof's, never written: vaddr_delta is known. */
	PC_MAP_VADDR = 32
};

struct pc_function {
	uint32_t name, system_name, file;	/* string indexes */
	uint32_t build_dir;	/* index in profile->build_dirs; 0: none */
	int64_t start_line;
};

struct pc_line {
	uint32_t function;	/* function id */
	int64_t line, column;
};

struct pc_location {
	uint64_t address;
	size_t line_off;	/* into profile->lines */
	uint32_t nlines;
	uint32_t mapping;	/* mapping id, 0 = none */
	/* Not pprof's, never written: with has_fn_offset, how far ADDRESS
	 * lies past the start of the function that holds it (its outermost
	 * line's, the one not inlined), as the symbolizer found it in the
	 * ELF symbol of that name.  The start's ELF address is the
	 * location's ELF address (profconv__unnamed_frame()) less this;
	 * kept as the difference, which fits in the struct's padding. */
	uint32_t fn_offset;
	bool is_folded;
	bool has_fn_offset;
};

struct pc_label {
	uint32_t key, str, unit;	/* string indexes; str != 0: string label */
	int64_t num;
};

/*
 * Samples keep their stacks and labels in the profile's flat arrays and
 * their values in a flat array of nsamples * ntypes: no allocation per
 * sample.
 */
struct pc_sample {
	size_t loc_off;		/* into profile->stack */
	size_t label_off;	/* into profile->labels */
	uint32_t nlocs;
	uint32_t nlabels;
};

/* A place in a profile's LABELS where a set of labels lies. */
struct pc_labelset {
	size_t off;
	uint32_t n;		/* 0: an empty slot */
};
#define PC_LABELSETS 4096

struct profconv_profile {
	struct pc_strtab strings;

	struct pc_vtype *sample_types;
	size_t nsample_types, sample_types_cap;
	uint32_t default_sample_type;
	struct pc_vtype period_type;
	int64_t period;
	int64_t time_nanos, duration_nanos;
	uint32_t drop_frames, keep_frames, doc_url;
	uint32_t *comments;
	size_t ncomments, comments_cap;

	struct pc_mapping *mappings;		/* id - 1 */
	size_t nmappings, mappings_cap;
	struct pc_function *functions;		/* id - 1 */
	size_t nfunctions, functions_cap;
	struct pc_location *locations;		/* id - 1 */
	size_t nlocations, locations_cap;
	struct pc_line *lines;
	size_t nlines, lines_cap;

	struct pc_sample *samples;
	size_t nsamples, samples_cap;
	/* The location ids of all samples, read through pc_sample_stack():
	 * two bytes each while every id added fits in two (a profile of
	 * fewer than 65,536 locations), four once one has not (profile.c
	 * widens them all then, once).  NSTACK and STACK_CAP count ids. */
	void *stack;
	size_t nstack, stack_cap;
	bool stack_wide;
	/* profconv_profile_drop_stacks() freed STACK: every sample's
	 * NLOCS is 0, and what reads stacks refuses the profile. */
	bool stacks_dropped;
	/* profconv_profile_set_stacks_disposable(): the call that reads
	 * the stacks last may drop them (profconv__disposable()). */
	bool stacks_disposable;
	int64_t *values;			/* nsamples * nsample_types */
	size_t nvalues, values_cap;
	struct pc_label *labels;
	size_t nlabels, labels_cap;

	/* What the reader found wrong with its input, one line, or NULL;
	 * not part of the profile (never written, nor copied). */
	char *read_warning;

	/* Where LABELS already holds a sample's set of labels, by a hash
	 * of them (PC_LABELSETS slots, made with the first labels): a
	 * sample whose labels are one of those sets shares its place
	 * (profconv__add_sample_raw()), as a heap profile's samples share
	 * a few dozen sizes.  Not part of the profile. */
	struct pc_labelset *labelsets;

	/* The build directories (DW_AT_comp_dir) of the functions' files,
	 * as the symbolizer read them from the binaries in this run: a
	 * source root for those files only (report/source.c).  pprof's
	 * format has no place for them and a profile's own claim would let
	 * its names choose what is read, so they are never written nor
	 * read back: a profile loaded from a file has none. */
	struct pc_strtab build_dirs;
};

/*
 * Reading the model.  Ids are 1-based; these turn an id into its element
 * (the id must be valid: 1..n).  Everything outside profile.c reads the
 * arrays through them, never by hand.
 */
static inline const struct pc_mapping *
pc_mapping(const struct profconv_profile *prof, uint32_t id)
{
	return &prof->mappings[id - 1];
}


static inline const struct pc_function *
pc_function(const struct profconv_profile *prof, uint32_t id)
{
	return &prof->functions[id - 1];
}

static inline const struct pc_location *
pc_location(const struct profconv_profile *prof, uint32_t id)
{
	return &prof->locations[id - 1];
}

/* The lines of location L, innermost first (NULL when it has none). */
static inline const struct pc_line *
pc_location_lines(const struct profconv_profile *prof,
    const struct pc_location *l)
{
	return l->nlines != 0 ? prof->lines + l->line_off : NULL;
}

/*
 * A sample's location ids, leaf first, in the width the profile holds
 * them (base/ids.h): neither set for a sample without a stack.
 */
/*
 * 0 while PROF has its stacks; once they were dropped
 * (profconv_profile_drop_stacks()), PROFCONV_EINVAL with a message that
 * WHAT (a few words: "a view", "writing") needs them.
 */
int profconv__need_stacks(const struct profconv_profile *prof,
    const char *what);

/*
 * PROF, to drop its stacks, when its owner let the library do so
 * (profconv_profile_set_stacks_disposable()); else NULL.  For a call
 * that has read PROF's stacks for the last time:
 * profconv_profile_drop_stacks(profconv__disposable(prof)).
 */
struct profconv_profile *profconv__disposable(
    const struct profconv_profile *prof);

static inline struct pc_stack
pc_sample_stack(const struct profconv_profile *prof, const struct pc_sample *s)
{
	return pc_stack_make(prof->stack, prof->stack_wide, s->loc_off,
	    s->nlocs);
}

/* The labels of sample S (NULL when it has none). */
static inline const struct pc_label *
pc_sample_labels(const struct profconv_profile *prof, const struct pc_sample *s)
{
	return s->nlabels != 0 ? prof->labels + s->label_off : NULL;
}

/* Are the N labels at A those at B, field by field (never their
 * padding)? */
static inline bool
pc_labels_equal(const struct pc_label *a, const struct pc_label *b,
    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].key != b[i].key || a[i].str != b[i].str ||
		    a[i].unit != b[i].unit || a[i].num != b[i].num)
			return false;
	return true;
}

/* Sample I, 0-based (samples have no ids), read-only. */
static inline const struct pc_sample *
pc_sample(const struct profconv_profile *prof, size_t i)
{
	return &prof->samples[i];
}

/* The values of sample I, one per sample type. */
static inline const int64_t *
pc_sample_values(const struct profconv_profile *prof, size_t i)
{
	return prof->values + i * prof->nsample_types;
}

/* Sample type I, 0-based. */
static inline const struct pc_vtype *
pc_sample_type(const struct profconv_profile *prof, size_t i)
{
	return &prof->sample_types[i];
}

static inline const char *
profconv__pstr(const struct profconv_profile *prof, uint32_t idx)
{
	return profconv__str(&prof->strings, idx);
}

/* pprof's default drop_frames and keep_frames (NULL: none) for PROF's
 * sample types (frames.c). */
void profconv__default_frames(const struct profconv_profile *prof,
    const char **drop, const char **keep);

/* Does PROF count allocations (heap, heaptrack, massif: a type alloc_*,
 * inuse_*, space, objects, or in bytes)?  Then frames without symbols
 * inside an allocator library are the allocator's (frames.c). */
bool profconv__counts_allocations(const struct profconv_profile *prof);
/* Is FILE (a path) an allocator's own library: libjemalloc*,
 * libtcmalloc*, libmimalloc*? */
bool profconv__allocator_library(const char *file);
/* The well-known allocation wrappers (frames.c), cut like malloc unless
 * the view's no_wrappers: a drop_frames alternative. */
extern const char profconv__wrappers_rx[];
/* DROP with ALT as one of its alternatives (WITH) or without it, newly
 * allocated; NULL when out of memory. */
char *profconv__drop_with(const char *drop, const char *alt, bool with);
/* The drop_frames alternative that matches the names
 * profconv__unnamed_frame() gives locations in allocator libraries. */
extern const char profconv__allocator_library_rx[];
/*
 * The name of location ID when it has no function: "module+0xN", N the
 * ELF virtual address addr2line, gdb and nm take (from the mapping's
 * vaddr_delta when known, else taken equal to the file offset, as in
 * shared libraries and PIE executables), or "0xADDRESS" without a
 * mapped file.  Into BUF (SIZE bytes); returns BUF.
 */
const char *profconv__unnamed_frame(const struct profconv_profile *prof,
    uint32_t id, char *buf, size_t size);
/* The buffer size the view and the pprof writer name them in: a longer
 * name (a module's name of hundreds of bytes) is cut short the same in
 * both. */
#define PC_UNNAMED_MAX 256
/*
 * What follows a location's function name when the view shows one frame
 * per address (PROFCONV_BY_ADDRESS), the one notation of every format:
 * "+0xOFFSET", the offset into that function, as gdb, perf and
 * backtrace(3) read "name+0x..", when the symbolizer knew where the
 * function starts (pc_location.has_fn_offset); else " [module+0xN]",
 * N the ELF address as profconv__unnamed_frame() gives it (what
 * addr2line -e module reads), or " [0xADDRESS]" without a mapped file:
 * an address in brackets, as backtrace(3) writes one, never taken for an
 * offset.  Into BUF (SIZE bytes); returns BUF.
 */
const char *profconv__address_suffix(const struct profconv_profile *prof,
    uint32_t id, char *buf, size_t size);
/* Is location ID's one line a function named so by the pprof writer
 * (lib/pprof/encode.c), that is, still without symbols? */
bool profconv__named_unnamed(const struct profconv_profile *prof,
    uint32_t id);

#endif /* PROFCONV_MODEL_H */
