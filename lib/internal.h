/* SPDX-License-Identifier: MIT */
/* internal.h - private structures and helpers shared inside libprofconv. */
#ifndef PROFCONV_INTERNAL_H
#define PROFCONV_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <regex.h>

#include "profconv.h"
#include "bounds.h"

#define PC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* --- errors (error.c) ----------------------------------------------------- */

/* Set this thread's message and return CODE. */
int profconv__fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int profconv__vfail(int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* A PROFCONV_EFORMAT failure at input line LINENO: "line N: ...". */
int profconv__fail_line(uint64_t lineno, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The usual out-of-memory failure. */
int profconv__nomem(void);

/* --- threads (jobs.c) --- */

/* ASKED threads (an options' jobs field), 0 meaning one per online CPU,
 * clamped to PROFCONV_MAX_JOBS. */
unsigned int profconv__jobs_count(unsigned int asked);

/*
 * Run TASK(ARG, I) for every I in [0, N) on up to JOBS threads (resolved
 * by profconv__jobs_count()), the caller's thread among them.  Tasks are
 * taken in increasing order; once one fails no more are started.
 * Returns 0, or the error of the lowest-numbered task that failed, with
 * its message set in the caller's thread, so that what is reported does
 * not depend on the thread count.
 */
int profconv__jobs_run(unsigned int jobs, size_t n,
    int (*task)(void *arg, size_t i), void *arg);

/*
 * Options structs carry the version of the layout the caller was built
 * with: refuse one this library does not know (0 is an uninitialised
 * struct).  WHAT names the struct in the message ("read", "write"...).
 */
static inline int
profconv__check_version(unsigned int got, unsigned int want, const char *what)
{
	if (got != want)
		return profconv__fail(PROFCONV_EINVAL,
		    "%s options version %u is not %u", what, got, want);
	return 0;
}

/*
 * A piece of input or a path fit to quote in a message: LEN bytes of S,
 * control bytes shown as '?', and when longer than PC_QUOTE_SIZE - 1
 * bytes its middle elided as "...", so that the reason around it stays
 * readable.  Writes BUF (PC_QUOTE_SIZE bytes) and returns it.
 */
#define PC_QUOTE_SIZE 64
const char *profconv__quote(char *buf, const char *s, size_t len);

/* --- growable arrays (vec.c) ---------------------------------------------- */

/*
 * Make room for N more elements of SIZE bytes in the array *PTR that holds
 * *LEN and has room for *CAP.  Grows geometrically.  Returns 0 or
 * PROFCONV_ENOMEM (with the message set).
 */
int profconv__grow(void **ptr, size_t *cap, size_t len, size_t n,
    size_t size);

#define PC_GROW(ptr, cap, len, n) \
	profconv__grow((void **)&(ptr), &(cap), (len), (n), sizeof(*(ptr)))

/* --- hashing (hash.c) ----------------------------------------------------- */

/*
 * The hashes are keyed with a random seed chosen when the library is
 * loaded (once per process), so a crafted input cannot aim all its keys
 * at one chain of a table (the tables probe linearly).  Nothing may
 * depend on the order of a table's slots: it changes from run to run.
 */
uint64_t profconv__hash_seed(void);
uint64_t profconv__hash_bytes(const void *data, size_t len, uint64_t seed);
/* The unkeyed 64-bit mixer (MurmurHash3's fmix64); see hash_key(). */
static inline uint64_t
profconv__hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * An open-addressing table from 64-bit keys to 32-bit values; key 0 is
 * allowed (kept aside).  Used to deduplicate addresses and ids.
 */
struct pc_u64map {
	uint64_t *keys;
	uint32_t *vals;		/* 0 marks an empty slot; values are stored +1 */
	size_t cap;		/* a power of two, or 0 */
	size_t len;
	bool has_zero;
	uint32_t zero_val;
};

void profconv__u64map_free(struct pc_u64map *m);
/* Find KEY; true and *VAL when present. */
bool profconv__u64map_get(const struct pc_u64map *m, uint64_t key,
    uint32_t *val);
/* Insert or overwrite.  Returns 0 or PROFCONV_ENOMEM. */
int profconv__u64map_put(struct pc_u64map *m, uint64_t key, uint32_t val);

/*
 * A table from byte-string keys to 32-bit values: for composite keys
 * (mapping, function, location, sample identity) built by transforms.
 */
struct pc_keyentry {
	size_t off, len;
	uint64_t hash;
	uint32_t value;
};

struct pc_keymap {
	uint32_t *slots;		/* entry index + 1, 0 = empty */
	size_t nslots;
	struct pc_keyentry *entries;
	size_t n, entries_cap;
	unsigned char *blob;		/* the keys, back to back */
	size_t blob_len, blob_cap;
};

void profconv__keymap_free(struct pc_keymap *m);
/*
 * Find KEY; when absent, add it with VALUE.  *VALUE_OUT is the stored
 * value and *INSERTED says whether it was added.
 */
int profconv__keymap_intern(struct pc_keymap *m, const void *key, size_t len,
    uint32_t value, uint32_t *value_out, bool *inserted);

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
	uint8_t flags;			/* PC_MAP_HAS_* */
};

enum {
	PC_MAP_HAS_FUNCTIONS = 1,
	PC_MAP_HAS_FILENAMES = 2,
	PC_MAP_HAS_LINE_NUMBERS = 4,
	PC_MAP_HAS_INLINE_FRAMES = 8
};

struct pc_function {
	uint32_t name, system_name, file;	/* string indexes */
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
	bool is_folded;
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
	uint32_t *stack;			/* location ids of all samples */
	size_t nstack, stack_cap;
	int64_t *values;			/* nsamples * nsample_types */
	size_t nvalues, values_cap;
	struct pc_label *labels;
	size_t nlabels, labels_cap;
};

/* ACC += V, saturating at the int64 bounds instead of overflowing. */
static inline void
pc_add_sat(int64_t *acc, int64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		*acc = v > 0 ? INT64_MAX : INT64_MIN;
}

/* A - B, saturating at the int64 bounds. */
static inline int64_t
pc_sub_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		r = b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

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

/* The same for changing a mapping's fields (the symbolizer fills in a
 * build id and flags); its place in the array never changes. */
static inline struct pc_mapping *
pc_mapping_mut(struct profconv_profile *prof, uint32_t id)
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

/* The location ids of sample S, leaf first (NULL when it has none: no
 * arithmetic on an array that may not exist yet). */
static inline const uint32_t *
pc_sample_stack(const struct profconv_profile *prof, const struct pc_sample *s)
{
	return s->nlocs != 0 ? prof->stack + s->loc_off : NULL;
}

/* The labels of sample S (NULL when it has none). */
static inline const struct pc_label *
pc_sample_labels(const struct profconv_profile *prof, const struct pc_sample *s)
{
	return s->nlabels != 0 ? prof->labels + s->label_off : NULL;
}

/* The values of sample I, one per sample type; they may be changed in
 * place (a transform scaling them), never resized. */
static inline int64_t *
pc_sample_values(struct profconv_profile *prof, size_t i)
{
	return prof->values + i * prof->nsample_types;
}

/* Intern a C string into PROF's table (NULL is ""). */
int profconv__intern(struct profconv_profile *prof, const char *s,
    uint32_t *idx);

static inline const char *
profconv__pstr(const struct profconv_profile *prof, uint32_t idx)
{
	return profconv__str(&prof->strings, idx);
}

/* Intern string IDX of SRC (its full length) into DST's table. */
static inline int
profconv__intern_from(struct profconv_profile *dst,
    const struct profconv_profile *src, uint32_t idx, uint32_t *out)
{
	return profconv__strtab_intern(&dst->strings, src->strings.strs[idx],
	    src->strings.lens[idx], out);
}

/*
 * Append a sample whose location ids, values and labels are already in
 * the model's terms (string indexes for labels).  Ids are not checked:
 * callers that build from trusted state use this on hot paths.
 */
int profconv__add_sample_raw(struct profconv_profile *prof,
    const uint32_t *locs, size_t nlocs, const int64_t *values,
    const struct pc_label *labels, size_t nlabels);

/*
 * Keep only the samples for which KEEP(PROF, I, PAYLOAD) is true, in
 * order; the others' stacks and labels stay unreferenced until the
 * profile is freed.  Cannot fail.
 */
void profconv__keep_samples(struct profconv_profile *prof,
    bool (*keep)(const struct profconv_profile *prof, size_t i,
    void *payload), void *payload);

/* Add a location from model-level lines (no id checks). */
int profconv__add_location_raw(struct profconv_profile *prof,
    uint32_t mapping, uint64_t address, const struct pc_line *lines,
    size_t nlines, bool is_folded, uint32_t *id_out);

/*
 * --- changing the model's layout --------------------------------------------
 * Only profile.c grows, compacts or re-lays out the model's arrays; readers,
 * transforms and the symbolizer go through these.  tests/cli/model-owner.sh
 * checks that no other file does.  Ids passed in are not checked: these
 * serve callers that build from trusted state.
 */

/* Room for N more of each (bulk decoding sizes the arrays once). */
struct pc_reserve {
	size_t sample_types, comments, mappings, functions, locations, lines;
	size_t samples, stack, values, labels;
};
int profconv__reserve(struct profconv_profile *prof,
    const struct pc_reserve *n);

/* Append one element already in the model's terms (string indexes). */
int profconv__add_sample_type_raw(struct profconv_profile *prof,
    const struct pc_vtype *vt);
int profconv__add_comment_raw(struct profconv_profile *prof, uint32_t str);
int profconv__add_mapping_raw(struct profconv_profile *prof,
    const struct pc_mapping *m, uint32_t *id_out);
int profconv__add_function_raw(struct profconv_profile *prof,
    const struct pc_function *f, uint32_t *id_out);

/* Give location ID the N lines LINES (innermost first) in place of its
 * own, and unfold it.  Its old lines stay unused in the flat array. */
int profconv__set_location_lines(struct profconv_profile *prof, uint32_t id,
    const struct pc_line *lines, size_t n);

/* Point location ID at mapping MAPPING (0: none). */
void profconv__set_location_mapping(struct profconv_profile *prof,
    uint32_t id, uint32_t mapping);

/*
 * Keep the mappings whose KEEP[id] is true (KEEP has nmappings + 1
 * entries, [0] unused), renumbering them in order; locations follow, and
 * one whose mapping goes points at none.
 */
int profconv__compact_mappings(struct profconv_profile *prof,
    const bool *keep);

/*
 * Re-lay out the sample types as the N types TYPES: value J of every
 * sample becomes its old value FROM[J], or 0 when FROM[J] is negative.
 * Widening (jemalloc's alloc pair) and narrowing (types in common) are
 * both this.  A default sample type naming no remaining type moves to
 * the first one.
 */
int profconv__retype(struct profconv_profile *prof,
    const struct pc_vtype *types, const ptrdiff_t *from, size_t n);

static inline bool
profconv__is_gzip(const unsigned char *p, size_t len)
{
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* The magic number of a zstd frame, 0xFD2FB528 little endian. */
static inline bool
profconv__is_zstd(const unsigned char *p, size_t len)
{
	return len >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd;
}
/* --- interval stabbing (stab.c) ------------------------------------------ */

/*
 * Which of a set of half-open intervals [lo, hi), numbered from 0, holds
 * a point: the lowest number, in O(log n).  All end points are given to
 * init; intervals are then added (stab_add) or, for a set whose members
 * can be removed, given at once (stab_build_removable).
 */
struct pc_stab {
	uint64_t *x;		/* distinct end points, sorted */
	size_t nx, size;	/* leaves: the gaps between end points */
	uint32_t *tag;		/* per node: lowest id added over it */
	uint32_t *list;		/* removable: ids per node, ascending */
	size_t *first;		/* removable: node i's ids at first[i] */
	size_t *cursor;		/* removable: ids before it are dead */
};
#define PC_STAB_NONE UINT32_MAX

int profconv__stab_init(struct pc_stab *s, const uint64_t *ends, size_t n);
void profconv__stab_free(struct pc_stab *s);
/* Add interval ID, [LO, HI), whose ends were given to init. */
void profconv__stab_add(struct pc_stab *s, uint64_t lo, uint64_t hi,
    uint32_t id);
/* The lowest id added that holds A, or PC_STAB_NONE. */
uint32_t profconv__stab_min(const struct pc_stab *s, uint64_t a);
/* Intervals 0..N-1, [LO[i], HI[i]), of which some may later die. */
int profconv__stab_build_removable(struct pc_stab *s, const uint64_t *lo,
    const uint64_t *hi, size_t n);
/* The lowest id of those built that holds A and is not DEAD[id]. */
uint32_t profconv__stab_min_alive(struct pc_stab *s, uint64_t a,
    const bool *dead);

/* --- drop_frames / keep_frames (prune.c) ----------------------------------- */

/*
 * Applies a profile's drop_frames and keep_frames as pprof's Prune does.
 * Locations are classified lazily, once each.
 */
struct pc_pruner {
	const struct profconv_profile *prof;
	regex_t drop, keep;
	bool has_drop, has_keep;
	/* Why the profile's own drop_frames or keep_frames was refused as
	 * too costly (PC_RX_* bounds; the defaults below are used instead),
	 * for the caller to warn; "" when nothing was. */
	char refused[192];
	bool alloc_profile;	/* counts allocations, or drops malloc */
	bool active;		/* anything to prune at all */
	uint8_t *state;		/* per location id */
	uint32_t *skip;		/* innermost lines a location loses */
};

/* 0 when RX is within the PC_RX_* bounds (bounds.h); else -1 with the
 * reason in WHY. */
int profconv__rx_check(const char *rx, char *why, size_t whylen);

/* pprof's default drop_frames and keep_frames (NULL: none) for PROF's
 * sample types (legacy.c). */
void profconv__default_frames(const struct profconv_profile *prof,
    const char **drop, const char **keep);

/* ENABLED false: a pruner that prunes nothing. */
int profconv__pruner_init(struct pc_pruner *p,
    const struct profconv_profile *prof, bool enabled);
void profconv__pruner_free(struct pc_pruner *p);
/* Index (leaf first) of the first location of STACK that stays. */
size_t profconv__prune_stack(struct pc_pruner *p, const uint32_t *stack,
    size_t n);
/* How many innermost lines location ID loses to a match in its middle. */
uint32_t profconv__prune_skip(struct pc_pruner *p, uint32_t id);

/* --- names (names.c) -------------------------------------------------------- */

/*
 * NAME (LEN bytes, demangled C++ or Rust) as MODE shows it, into *BUF
 * (grown as needed, NUL-terminated), its length in *OUT_LEN.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__name_simplify(const char *name, size_t len,
    enum profconv_demangle mode, char **buf, size_t *cap, size_t *out_len);
/* Is NAME a mangled C++ ("_Z") or Rust v0 ("_R") linker name? */
bool profconv__name_is_mangled(const char *name);
/* Does NAME look like a C++ or Rust path (has "::")? */
bool profconv__name_is_cxx(const char *name);

/* --- sorting stacks (seqsort.c) --------------------------------------------- */

/*
 * Items 0..N-1, each a sequence of frame ids (SEQ gives item K's and its
 * length), ordered by their frames' keys: frame F counts CONT[F] where
 * another frame follows it and END[F] where it is the last, keys in
 * 1..MAXKEY; a sequence before every longer one it begins; equal ones
 * by item number.  REVERSE reads each sequence from its end.
 */
struct pc_seqsort {
	size_t n;
	const uint32_t *(*seq)(const void *arg, size_t k, size_t *len);
	const void *arg;
	const uint32_t *cont, *end;
	uint32_t maxkey;
	bool reverse;
	unsigned int jobs;
};
/* ORDER[I] = the item in place I, and LENS[I] (unless NULL) its length
 * (at most UINT32_MAX). */
int profconv__seqsort(const struct pc_seqsort *s, uint32_t *order,
    uint32_t *lens);

/* --- views and rows (view.c, rows.c) ------------------------------------------ */

/* How a stack without frames is named in every writer. */
#define PC_EMPTY_STACK "[no stack]"

/* The stack of VIEW that sample I of its profile went to, plus one; 0
 * when the sample is not shown (all zero, filtered out). */
size_t profconv__view_sample_stack(const struct profconv_view *view,
    size_t i);

/* The threads the view's options ask for (0: one per CPU), which the
 * writers that read it use too. */
unsigned int profconv__view_jobs(const struct profconv_view *view);
/* The text of frame ID of VIEW (no checks). */
const char *profconv__view_frame_text(const struct profconv_view *view,
    uint32_t id);

/*
 * The one aggregation engine: rows keyed by the text writers show, each
 * with WIDTH int64 columns.  Views add into it at a column offset, so
 * several profiles share one table.
 */
struct pc_rows;
enum pc_rows_by { PC_ROWS_FUNCTION, PC_ROWS_STACK };
typedef int pc_rows_cmp(const int64_t *a, const char *aname,
    const int64_t *b, const char *bname, void *payload);

int profconv__rows_new(struct pc_rows **out, size_t width);
void profconv__rows_free(struct pc_rows *r);
/*
 * Add VIEW's stacks: each sample type T's value goes to column COL + T
 * of the row of the stack's leaf frame (PC_ROWS_FUNCTION; with CUM, of
 * every distinct frame of the stack instead) or of the whole stack
 * (PC_ROWS_STACK).  Errors: PROFCONV_EINVAL (columns out of range),
 * PROFCONV_ENOMEM.
 */
int profconv__rows_add(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, bool cum, size_t col);
/*
 * The row that stack I of VIEW goes to without CUM (made when new, with
 * zero values) into *OUT.  Errors: PROFCONV_EINVAL (no stack I),
 * PROFCONV_ENOMEM.
 */
int profconv__rows_row_of(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, size_t i, size_t *out);
size_t profconv__rows_count(const struct pc_rows *r);
const char *profconv__rows_name(const struct pc_rows *r, size_t i);
int64_t *profconv__rows_values(struct pc_rows *r, size_t i);
void profconv__rows_sort(struct pc_rows *r, pc_rows_cmp *cmp, void *payload);

/*
 * The one definition of "grew" (a leak candidate), for DELTA, values
 * laid out as PROF's sample types: in-use objects or bytes went up
 * (inuse_objects/inuse_space, else objects/space); in profiles without
 * in-use counters, any value went up.
 */
bool profconv__grew(const struct profconv_profile *prof, const int64_t *delta);

/* --- JSON text (json.c) ------------------------------------------------------- */

/* Write S (LEN bytes, UTF-8) as a JSON string literal. */
void profconv__json_string(FILE *fp, const char *s, size_t len);
void profconv__json_cstr(FILE *fp, const char *s);

/* --- pprof codec (pb.c) ---------------------------------------------------- */

/*
 * Decode pprof protobuf bytes into a new profile, with at most BUDGET bytes
 * (0: no bound) of sample arrays (an empty sample of 2 wire bytes takes
 * 24), decoding samples on up to JOBS threads (the result is the same).
 */
int profconv__pb_decode(struct profconv_profile **out,
    const unsigned char *data, size_t len, uint64_t budget,
    unsigned int jobs);
/* Fail with why DATA is no pprof Profile, as far as its top-level fields
 * tell: one cut off by the end (truncated), a bad field, or neither. */
int profconv__pb_invalid(const unsigned char *data, size_t len);

/*
 * Write PROF as pprof at LEVEL (0: uncompressed, -1: the default) on up
 * to JOBS threads with compressor BACKEND; the bytes depend on neither
 * JOBS nor how they are scheduled.  profconv_profile_write() is this
 * with PC_GZ_BEST; tests name a backend.
 */
enum pc_gz_backend { PC_GZ_BEST, PC_GZ_ZLIB, PC_GZ_LIBDEFLATE };
int profconv__pb_write(const struct profconv_profile *prof, FILE *fp,
    int level, unsigned int jobs, enum pc_gz_backend backend);

/* --- gzip output (gzout.c) ------------------------------------------------- */

/* Uncompressed bytes per gzip member. */
#define PC_GZ_BLOCK ((size_t)1 << 20)

/* A piece of a stream to compress. */
struct pc_piece {
	const unsigned char *p;
	size_t len;
};

/* Does this build have BACKEND (PC_GZ_BEST: the fastest it has)? */
bool profconv__gz_has(enum pc_gz_backend backend);
/*
 * Write the N pieces PIECES, one stream in order, to FP gzip-compressed
 * at LEVEL (1..9): one member per PC_GZ_BLOCK bytes of the stream,
 * compressed on up to JOBS threads.  Errors: PROFCONV_EIO,
 * PROFCONV_ENOMEM, PROFCONV_EINVAL (no BACKEND).
 */
int profconv__gz_write(FILE *fp, const struct pc_piece *pieces, size_t n,
    int level, unsigned int jobs, enum pc_gz_backend backend);

#endif /* PROFCONV_INTERNAL_H */
