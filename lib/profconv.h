/* SPDX-License-Identifier: MIT */
/*
 * profconv.h - public interface of libprofconv.
 *
 * libprofconv holds one in-memory profile model, shaped like pprof's
 * Profile message.  Readers fill it, transforms change it, a view decides
 * what is shown, and writers draw from the view.  The sections below
 * follow that pipeline:
 *
 *   1. errors and versions; the plain structures; lifetime and building
 *      (profconv_profile_new() and the builder calls make one by hand);
 *   2. reading the model (profconv_profile_sample() and friends);
 *   3. reading and writing files: profconv_profile_read() reads any
 *      supported input (pprof protobuf, raw or gzipped, and the legacy
 *      formats), profconv_profile_write() writes pprof protobuf;
 *   4. symbolization: function names, files, lines and inlined calls from
 *      the mapped binaries (profconv_symbolize(), a reusable symbolizer),
 *      and what the loader makes of a program (profconv_elf_facts_read());
 *   5. transforms: merge, subtract, scale, keep growth;
 *   6. views: what every writer shows (profconv_view_new()), and a
 *      view's block sizes (profconv_sizes_print());
 *   7. reports over views: comparing two profiles (profconv_diff_new()),
 *      what three dumps still hold (profconv_retention_new()), a series
 *      of snapshots (profconv_trend_new()), annotated source
 *      (profconv_list_write()), every view in one HTML page
 *      (profconv_report_write());
 *   8. writers of a view: folded stacks, flame-graph SVG and its palette
 *      map, speedscope JSON, pprof's call graph as DOT, SVG, PNG, PDF or
 *      callgrind (profconv_graph_write()); and printing a profile as text
 *      (profconv_profile_print(): the summary, pprof's -text, -traces,
 *      -tags, -tree and -peek reports, the raw dump; profconv_profile_top(),
 *      its -topproto).
 *
 * Options structs start with a version, set by their _INIT macro; fields
 * are only appended (under a "Version N." comment), and a library reads
 * every older version it knows, the newer fields keeping their defaults.
 *
 * Functions that can fail return 0 or a negative PROFCONV_E* value and
 * leave a one-line description in profconv_errmsg().  The library never
 * prints and never exits.
 *
 * Ids.  Mappings, functions and locations are numbered densely from 1 in
 * the order they were added; 0 means "none".  Strings are interned: a
 * string index names one entry of the profile's string table, whose entry
 * 0 is always the empty string.  Every pointer a getter returns is
 * borrowed: it stays valid until the profile is changed or freed.
 *
 * Strings.  The model holds UTF-8: text read that is not UTF-8 is
 * repaired on the way in, each byte that starts no well-formed sequence
 * replaced by U+FFFD, and counted (profconv_profile_repaired_strings()).
 * Strings keep their full length: a pprof string is length-prefixed and
 * may hold NUL bytes, and those stay through reading, merging and
 * writing; "ma\0in" and "ma" are two strings.  Every string the
 * profconv_profile_*() getters return is NUL-terminated and also carries
 * its length, which profconv_string_len() gives; it differs from strlen()
 * only for a string that holds a NUL.  The builder calls take C strings, so they
 * cannot make such a string.
 */
#ifndef PROFCONV_H
#define PROFCONV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROFCONV_VERSION_MAJOR 0
#define PROFCONV_VERSION_MINOR 1
#define PROFCONV_VERSION_PATCH 0
#define PROFCONV_VERSION_STRING "0.1.0"
#define PROFCONV_VERSION_NUMBER (PROFCONV_VERSION_MAJOR * 10000 + \
	PROFCONV_VERSION_MINOR * 100 + PROFCONV_VERSION_PATCH)

/* Result codes.  The numbers are ABI: append new ones, never renumber. */
enum profconv_err {
	PROFCONV_OK = 0,
	PROFCONV_ENOMEM = -1,		/* out of memory */
	PROFCONV_EIO = -2,		/* read or write failed */
	PROFCONV_EFORMAT = -3,		/* input is not a valid profile */
	PROFCONV_ENOTFOUND = -4,	/* named thing is absent */
	PROFCONV_EINVAL = -5,		/* invalid argument: a caller bug */
	PROFCONV_EUNSUPPORTED = -6	/* recognized but unsupported input */
};

struct profconv_profile;	/* opaque */

/* --- errors and versions ------------------------------------------------ */

/*
 * Description of this thread's most recent failure; never NULL.  The text
 * is borrowed and valid until the next failing call in this thread.
 */
const char *profconv_errmsg(void);

/* Library version at run time, as "0.1.0"; compare PROFCONV_VERSION_STRING. */
const char *profconv_version(void);

/* Library version at run time; compare with PROFCONV_VERSION_NUMBER. */
unsigned int profconv_version_number(void);

/*
 * The library and the versions of the libraries it was built with, as
 * "libprofconv 0.1.0 protobuf-c/1.4.1 zlib/1.2.13 libdw/0.188 zstd/1.5.4".
 */
const char *profconv_version_details(void);

/*
 * Full length in bytes, NULs included, of S, a string of a profile's
 * string table as the profconv_profile_*() getters return them (sample
 * and period types, header strings, comments, mappings, functions,
 * labels); any other pointer is undefined behaviour.  0 for NULL.
 */
size_t profconv_string_len(const char *s);

/* --- plain structures the API fills in or takes ------------------------- */

/* A value slot: what it counts, in which unit ("alloc_space", "bytes"). */
struct profconv_value_type {
	const char *type;
	const char *unit;
};

/* A mapped file.  Strings may be NULL for "" when passed in. */
struct profconv_mapping {
	uint64_t start;			/* memory start */
	uint64_t limit;			/* memory end, exclusive */
	uint64_t offset;		/* file offset of START */
	const char *file;
	const char *build_id;
	unsigned has_functions : 1;
	unsigned has_filenames : 1;
	unsigned has_line_numbers : 1;
	unsigned has_inline_frames : 1;
};

/* A function.  Strings may be NULL for "" when passed in. */
struct profconv_function {
	const char *name;		/* human readable, demangled */
	const char *system_name;	/* as the linker knows it */
	const char *file;
	int64_t start_line;
};

/* One line of a location: a function id and a position in its source. */
struct profconv_line {
	uint32_t function_id;
	int64_t line;
	int64_t column;
};

/* A location as a getter returns it.  LINES has NLINES entries, innermost
 * inlined function first, the outermost caller last. */
struct profconv_location {
	uint32_t mapping_id;		/* 0: unknown */
	uint64_t address;
	const struct profconv_line *lines;
	size_t nlines;
	int is_folded;
};

/* A sample label: either a string (STR non-NULL) or a number with an
 * optional unit. */
struct profconv_label {
	const char *key;
	const char *str;		/* NULL for a numeric label */
	int64_t num;
	const char *unit;		/* numeric only; NULL when none */
};

/* A sample as a getter returns it; its location ids are copied out by
 * profconv_profile_sample_locations(). */
struct profconv_sample {
	size_t nlocations;
	const int64_t *values;		/* one per sample type */
	size_t nlabels;			/* see profconv_profile_sample_label() */
};

/* --- lifetime ------------------------------------------------------------ */

/*
 * Make an empty profile in *OUT, owned by the caller.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv_profile_new(struct profconv_profile **out);

/* Release PROF and every string borrowed from it.  NULL is a no-op. */
void profconv_profile_free(struct profconv_profile *prof);

/*
 * Give back the memory of PROF's stacks (the location ids of its
 * samples: in a large heap profile, the largest part of it), for a
 * caller that has made every view of PROF it needs; a view already made
 * keeps what it read.  The samples keep their values and labels, and
 * the functions, locations and mappings stay, so views made before go on
 * reading them.  What reads stacks refuses PROF afterwards with
 * PROFCONV_EINVAL: a new view, writing it, printing it, merging it,
 * adding a sample, profconv_profile_sample_locations().  See
 * profconv_view_new_taking(), which gives them back while it builds.
 */
void profconv_profile_drop_stacks(struct profconv_profile *prof);
/* 1 while PROF has its samples' stacks, 0 once they were dropped. */
int profconv_profile_has_stacks(const struct profconv_profile *prof);
/*
 * Let the library drop PROF's stacks (profconv_profile_drop_stacks()) in
 * the next call that reads them, once it has read them for the last
 * time: profconv_profile_print(), profconv_diff_new(),
 * profconv_list_write() and profconv_report_write() do.  For a caller that owns PROF and makes one
 * such call of it: it peaks lower by the stacks' size, and can make no
 * other view of PROF after.  profconv_view_new() never drops them (see
 * profconv_view_new_taking()).
 */
void profconv_profile_set_stacks_disposable(struct profconv_profile *prof);

/* --- building -------------------------------------------------------------- */

/*
 * Add a value slot.  Samples added afterwards carry one value per slot, so
 * every sample type must be added before the first sample.
 * Errors: PROFCONV_EINVAL (samples exist already), PROFCONV_ENOMEM.
 */
int profconv_profile_add_sample_type(struct profconv_profile *prof,
    const char *type, const char *unit);

/* Set the period type and period ("space", "bytes", 524288). */
int profconv_profile_set_period(struct profconv_profile *prof,
    const char *type, const char *unit, int64_t period);

/* Set the default sample type by its type name; NULL clears it. */
int profconv_profile_set_default_sample_type(struct profconv_profile *prof,
    const char *type);

/* Set the drop_frames and keep_frames regexes; NULL clears one. */
int profconv_profile_set_drop_frames(struct profconv_profile *prof,
    const char *regex);
int profconv_profile_set_keep_frames(struct profconv_profile *prof,
    const char *regex);

/* Set the documentation URL; NULL clears it. */
int profconv_profile_set_doc_url(struct profconv_profile *prof,
    const char *url);

/* Set collection time and duration in nanoseconds.  Cannot fail. */
void profconv_profile_set_time(struct profconv_profile *prof,
    int64_t time_nanos, int64_t duration_nanos);

/* Append a free-text comment. */
int profconv_profile_add_comment(struct profconv_profile *prof,
    const char *comment);

/*
 * Add a mapping; its id (the number of mappings so far) goes to *ID_OUT
 * when ID_OUT is not NULL.  Errors: PROFCONV_ENOMEM.
 */
int profconv_profile_add_mapping(struct profconv_profile *prof,
    const struct profconv_mapping *mapping, uint32_t *id_out);

/* Add a function; its id goes to *ID_OUT.  Errors: PROFCONV_ENOMEM. */
int profconv_profile_add_function(struct profconv_profile *prof,
    const struct profconv_function *function, uint32_t *id_out);

/*
 * Add a location at ADDRESS in mapping MAPPING_ID (0: none) with NLINES
 * lines, innermost first; its id goes to *ID_OUT.
 * Errors: PROFCONV_EINVAL (an id that does not exist), PROFCONV_ENOMEM.
 */
int profconv_profile_add_location(struct profconv_profile *prof,
    uint32_t mapping_id, uint64_t address, const struct profconv_line *lines,
    size_t nlines, int is_folded, uint32_t *id_out);

/*
 * Add a sample: NLOCATIONS location ids leaf first, one value per sample
 * type, and NLABELS labels (strings NULL-terminated, copied).
 * Errors: PROFCONV_EINVAL (an unknown location id), PROFCONV_ENOMEM.
 */
int profconv_profile_add_sample(struct profconv_profile *prof,
    const uint32_t *location_ids, size_t nlocations, const int64_t *values,
    const struct profconv_label *labels, size_t nlabels);

/* --- reading the model ------------------------------------------------------ */

/* Counts.  Cannot fail. */
size_t profconv_profile_sample_type_count(const struct profconv_profile *prof);
size_t profconv_profile_sample_count(const struct profconv_profile *prof);
size_t profconv_profile_mapping_count(const struct profconv_profile *prof);
size_t profconv_profile_function_count(const struct profconv_profile *prof);
size_t profconv_profile_location_count(const struct profconv_profile *prof);
size_t profconv_profile_comment_count(const struct profconv_profile *prof);

/*
 * How many distinct strings were not UTF-8 when they came into PROF (read
 * from a file or passed to a builder call) and were repaired, each bad
 * byte replaced by U+FFFD.  Cannot fail.
 */
size_t profconv_profile_repaired_strings(const struct profconv_profile *prof);

/*
 * What the reader found wrong with the input PROF was read from, as one
 * line without the file's name, or NULL: a gperftools heap dump whose
 * header counts more than its samples hold (cut at 1 MiB, or cut short
 * before its memory map).  Borrowed from PROF; not written with it, nor
 * carried into profiles made from it.  Cannot fail.
 */
const char *profconv_profile_read_warning(
    const struct profconv_profile *prof);

/* Sample type I (0-based), borrowed strings.  Errors: PROFCONV_EINVAL. */
int profconv_profile_sample_type(const struct profconv_profile *prof,
    size_t i, struct profconv_value_type *out);

/*
 * Functions that look something up return its index (0 or more), or
 * PROFCONV_ENOTFOUND when it is absent: "none" is never -1, which is
 * PROFCONV_ENOMEM.  Test the result with < 0.  Absence is an answer, not
 * a failure: no message is set (these run on hot paths).
 */

/*
 * Index of the default sample type: the one named by default_sample_type,
 * else the last one, as pprof chooses.  PROFCONV_ENOTFOUND when there are
 * no sample types.
 */
int profconv_profile_default_sample_index(const struct profconv_profile *prof);

/* Index of the sample type named TYPE, or PROFCONV_ENOTFOUND. */
int profconv_profile_sample_type_index(const struct profconv_profile *prof,
    const char *type);

/* Period type and period; the strings are "" when unset.  Cannot fail. */
int64_t profconv_profile_period(const struct profconv_profile *prof,
    struct profconv_value_type *type_out);

/* Scalar header fields.  Strings are borrowed, "" when unset. */
const char *profconv_profile_default_sample_type(
    const struct profconv_profile *prof);
const char *profconv_profile_drop_frames(const struct profconv_profile *prof);
const char *profconv_profile_keep_frames(const struct profconv_profile *prof);
const char *profconv_profile_doc_url(const struct profconv_profile *prof);
const char *profconv_profile_comment(const struct profconv_profile *prof,
    size_t i);
int64_t profconv_profile_time_nanos(const struct profconv_profile *prof);
int64_t profconv_profile_duration_nanos(const struct profconv_profile *prof);

/* Mapping, function, location by id (1-based).  Errors: PROFCONV_EINVAL. */
int profconv_profile_mapping(const struct profconv_profile *prof,
    uint32_t id, struct profconv_mapping *out);
int profconv_profile_function(const struct profconv_profile *prof,
    uint32_t id, struct profconv_function *out);
int profconv_profile_location(const struct profconv_profile *prof,
    uint32_t id, struct profconv_location *out);

/* Sample I (0-based) and its label J.  Errors: PROFCONV_EINVAL. */
int profconv_profile_sample(const struct profconv_profile *prof, size_t i,
    struct profconv_sample *out);
int profconv_profile_sample_label(const struct profconv_profile *prof,
    size_t i, size_t j, struct profconv_label *out);

/*
 * The location ids of sample I, leaf first, copied into IDS: as many as
 * CAP holds.  *NLOCATIONS (when not NULL) gets how many the sample has,
 * which may be more than CAP; IDS may be NULL when CAP is 0.  A copy, as
 * the profile holds its ids in two bytes each while they fit.
 * Errors: PROFCONV_EINVAL.
 */
int profconv_profile_sample_locations(const struct profconv_profile *prof,
    size_t i, uint32_t *ids, size_t cap, size_t *nlocations);

/*
 * Sum of value slot TYPE_INDEX over all samples, into *OUT; saturates
 * instead of overflowing.  Errors: PROFCONV_EINVAL.
 */
int profconv_profile_total(const struct profconv_profile *prof,
    size_t type_index, int64_t *out);

/* --- reading and writing files -------------------------------------------- */

/* Formats profconv_profile_read() can recognize. */
enum profconv_format {
	PROFCONV_FORMAT_UNKNOWN = 0,
	PROFCONV_FORMAT_PPROF = 1,	/* pprof protobuf */
	PROFCONV_FORMAT_HEAP = 2,	/* "heap profile:" text (gperftools, Go) */
	PROFCONV_FORMAT_JEMALLOC = 3,	/* jemalloc "heap_v2/N" text */
	PROFCONV_FORMAT_CPU = 4,	/* gperftools legacy CPU binary */
	PROFCONV_FORMAT_CONTENTION = 5,	/* "--- contention" / "--- mutex" */
	PROFCONV_FORMAT_GOCOUNT = 6,	/* "goroutine profile: total N" */
	PROFCONV_FORMAT_THREAD = 7,	/* "--- threadz" */
	PROFCONV_FORMAT_HEAPTRACK = 8,	/* heaptrack data, "v 10400 3" */
	PROFCONV_FORMAT_MASSIF = 9	/* Valgrind massif, "desc: ..." */
};

/*
 * Progress of a long call: DONE of TOTAL units (TOTAL 0: not known), the
 * units being what the option that takes it says.  Called from the
 * calling thread, now and then (not for every unit); it must not call
 * back into the library on the object being worked on.  The library
 * never prints: a program shows progress, if it wants, from here.
 */
typedef void (*profconv_progress_fn)(uint64_t done, uint64_t total,
    void *payload);

struct profconv_read_options {
	unsigned int version;		/* PROFCONV_READ_OPTIONS_VERSION */
	/* Largest decompressed or whole-file input accepted, in bytes;
	 * 0 means the default, PROFCONV_DEFAULT_MAX_INPUT. */
	uint64_t max_input;
	/* jemalloc: one sample per thread line, with a numeric "thread"
	 * label, the thread's uid in the unit "thread" (pprof drops a 0
	 * without a unit), and a string "thread_name" where the
	 * header names the thread, instead of the t*: totals. */
	int threads;
	/* Version 2.  Bytes of the input (compressed, as stored) read so
	 * far, of the file's size (0 for a pipe); may be NULL. */
	profconv_progress_fn progress;
	void *progress_payload;
	/* Version 3.  Valgrind massif: which snapshot becomes the profile,
	 * a snapshot number or PROFCONV_SNAPSHOT_PEAK (the default) or
	 * PROFCONV_SNAPSHOT_LAST; see profconv_snapshots_read(). */
	int64_t snapshot;
	/* Version 4.  Threads that may parse a large input at once; 0: one
	 * per online CPU, 1: none but the caller's.  The profile read is the
	 * same whatever the count. */
	unsigned int jobs;
};
#define PROFCONV_READ_OPTIONS_VERSION 4
/* The peak snapshot; the detailed one with the largest total when massif
 * recorded no peak (a program that never frees). */
#define PROFCONV_SNAPSHOT_PEAK (-1)
/* The last snapshot that has a heap tree. */
#define PROFCONV_SNAPSHOT_LAST (-2)
#define PROFCONV_READ_OPTIONS_INIT \
	{ PROFCONV_READ_OPTIONS_VERSION, 0, 0, NULL, NULL, \
	PROFCONV_SNAPSHOT_PEAK, 0 }
/* The most threads any call uses, whatever it is asked for. */
#define PROFCONV_MAX_JOBS 256
#define PROFCONV_DEFAULT_MAX_INPUT ((uint64_t)8 << 30)	/* 8 GiB */
/* The longest suppressions text a view takes (its suppressions option):
 * 1 MiB, where real files have a few kilobytes. */
#define PROFCONV_MAX_SUPPRESSIONS ((size_t)1 << 20)

/*
 * Read a profile from FP in any supported format, gzip-compressed or not,
 * into a new profile *OUT owned by the caller.  OPTS may be NULL, or of
 * version 1 or 2.  When
 * FORMAT_OUT is not NULL it receives the format found.  On failure *OUT is
 * NULL and profconv_errmsg() says what is wrong, with the line or byte
 * offset where there is one.
 * Errors: PROFCONV_EIO, PROFCONV_EFORMAT, PROFCONV_EUNSUPPORTED,
 * PROFCONV_ENOMEM.
 */
int profconv_profile_read(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, enum profconv_format *format_out);

/*
 * Read a profile from memory: as profconv_profile_read(), without a FILE.
 */
int profconv_profile_read_mem(struct profconv_profile **out,
    const void *data, size_t len, const struct profconv_read_options *opts,
    enum profconv_format *format_out);

/*
 * A snapshot of a series (Valgrind massif): its number, time in the
 * file's unit (instructions, ms or bytes), memory, and whether it has a
 * heap tree, so that reading with options.snapshot = NUMBER gives it as
 * a profile.
 */
struct profconv_snapshot {
	uint64_t number;
	int64_t time;
	int64_t heap_bytes;		/* mem_heap_B: what the tree holds */
	int64_t heap_extra_bytes;	/* mem_heap_extra_B */
	int64_t stacks_bytes;		/* mem_stacks_B */
	int detailed;			/* has a heap tree */
	int peak;			/* massif's peak snapshot */
};

/*
 * List the snapshots of a massif file read from FP, in file order, into
 * *OUT (freed with profconv_snapshots_free()) and their number into
 * *COUNT.  Only OPTS->max_input is used; OPTS may be NULL.
 * Errors: PROFCONV_EFORMAT (not massif, or malformed), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_snapshots_read(struct profconv_snapshot **out, size_t *count,
    FILE *fp, const struct profconv_read_options *opts);

/* Release a list from profconv_snapshots_read().  NULL is a no-op. */
void profconv_snapshots_free(struct profconv_snapshot *snapshots);

/*
 * Read a massif file from FP once and every snapshot of it: *SNAPSHOTS
 * lists them as profconv_snapshots_read() does, and *PROFILES holds, for
 * each of the *COUNT in the same order, the profile that reading with
 * options.snapshot set to its number gives, or NULL for a snapshot
 * without a heap tree: a series for profconv_trend_add() without
 * reading the file again per snapshot.  OPTS's snapshot is not used;
 * OPTS may be NULL.  Release with profconv_snapshot_profiles_free() and
 * profconv_snapshots_free().  Errors: those of profconv_snapshots_read().
 */
int profconv_snapshots_read_profiles(struct profconv_snapshot **snapshots,
    struct profconv_profile ***profiles, size_t *count, FILE *fp,
    const struct profconv_read_options *opts);

/* Release the COUNT profiles (NULLs among them) and the array from
 * profconv_snapshots_read_profiles().  NULL is a no-op. */
void profconv_snapshot_profiles_free(struct profconv_profile **profiles,
    size_t count);

struct profconv_write_options {
	unsigned int version;		/* PROFCONV_WRITE_OPTIONS_VERSION */
	/* gzip level 1..9, 0 for uncompressed output, -1 for the default:
	 * 6, or 1 above 32 MiB of uncompressed output */
	int level;
	/* Version 2.  Threads that may compress at once; 0: one per online
	 * CPU, 1: none but the caller's.  The bytes written are the same
	 * whatever the count. */
	unsigned int jobs;
};
#define PROFCONV_WRITE_OPTIONS_VERSION 2
#define PROFCONV_WRITE_OPTIONS_INIT { PROFCONV_WRITE_OPTIONS_VERSION, -1, 0 }

/*
 * Write PROF to FP as a pprof protobuf, gzip-compressed unless OPTS says
 * level 0.  OPTS may be NULL.  FP is flushed, not closed.
 * Errors: PROFCONV_EIO, PROFCONV_EINVAL (a bad level), PROFCONV_ENOMEM.
 */
int profconv_profile_write(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_write_options *opts);

/*
 * Convert: read a profile from IN as profconv_profile_read() does and
 * write it to OUT as profconv_profile_write() does, the same bytes, but
 * without holding every sample: the samples of large gperftools and
 * jemalloc heap text are written while the rest is read, so that memory
 * stays near the size of the profile's locations rather than of its
 * samples.  ROPTS and WOPTS may be NULL; FORMAT_OUT as for
 * profconv_profile_read().  When PROF_OUT is not NULL it receives the
 * profile read without its samples (its mappings, locations, strings,
 * repairs and read warning; profconv_profile_sample_count() is 0), owned
 * by the caller; on failure NULL.  On failure OUT holds part of a
 * profile: write to a file to remove then.
 * Errors: those of profconv_profile_read() and profconv_profile_write().
 */
int profconv_profile_convert(FILE *in, FILE *out,
    const struct profconv_read_options *ropts,
    const struct profconv_write_options *wopts,
    struct profconv_profile **prof_out, enum profconv_format *format_out);

/* Name of FORMAT ("pprof"); never NULL. */
const char *profconv_format_name(enum profconv_format format);

/* --- symbolization --------------------------------------------------------- */

/*
 * How function names are shown: pprof's -symbolize=demangle= modes.
 * SIMPLE drops parameter lists, template arguments and return types
 * ("app::Pool::grow"); TEMPLATES keeps template arguments; FULL is the
 * demangler's whole text less clone suffixes; NONE is the linker's name.
 * Applied to C++ and Rust names only (a mangled system name, or "::" in
 * the name); Go and C names are shown as they are.
 */
enum profconv_demangle {
	PROFCONV_DEMANGLE_SIMPLE = 0,
	PROFCONV_DEMANGLE_TEMPLATES = 1,
	PROFCONV_DEMANGLE_FULL = 2,
	PROFCONV_DEMANGLE_NONE = 3
};

/*
 * The mode named TEXT ("simple", "templates", "full", "none") into *OUT.
 * Errors: PROFCONV_EINVAL (unknown name).
 */
int profconv_demangle_parse(const char *text, enum profconv_demangle *out);

/*
 * Why the locations of one mapped file got no name, as a symbolizer run
 * reports it to profconv_symbolize_options.binary_report.
 */
enum profconv_binary_problem {
	PROFCONV_BINARY_MISSING = 1,	/* the mapped file was not found */
	PROFCONV_BINARY_OTHER_BUILD,	/* only files with another build id */
	PROFCONV_BINARY_UNUSABLE,	/* found, but no usable ELF file */
	PROFCONV_BINARY_NO_SYMBOLS,	/* found, without symbols for these
					 * addresses (stripped, or no debug
					 * info found) */
	PROFCONV_BINARY_LAYOUT		/* found, but no loadable segment
					 * holds the mapping's file range:
					 * likely another build of it; its
					 * names may be wrong (LOCATIONS
					 * counts every location there) */
};
struct profconv_binary_report {
	const char *path;		/* the file found, else the mapped
					 * path; valid during the call */
	enum profconv_binary_problem problem;
	size_t locations;		/* locations concerned */
};

/*
 * Where profconv_symbolize() finds mappings, binaries and debug info.
 * Every pointer may be NULL.  Addresses are looked up in the profile's own
 * mappings unless MAPS_FILE or PID names a memory map to use instead.
 */
struct profconv_symbolize_options {
	unsigned int version;		/* PROFCONV_SYMBOLIZE_OPTIONS_VERSION */
	/* Directory prefixed to every mapped path ("/" of a copied system). */
	const char *sysroot;
	/* Colon-separated directories searched for binaries: by build id
	 * (DIR/BUILDID/NAME, DIR/.build-id/xx/rest), then by mapped path
	 * under DIR, then by base name. */
	const char *search_path;
	/* Colon-separated directories searched for separate debug info
	 * before libdwfl's default (":.debug:/usr/lib/debug"). */
	const char *debuginfo_path;
	/* A saved memory map in any form the legacy readers accept
	 * (/proc/PID/maps text, pprof's brief form); its entries replace the
	 * profile's mappings for the addresses they cover. */
	const char *maps_file;
	/* A live process whose /proc/PID/maps is used like MAPS_FILE; 0: none. */
	int pid;
	/* Nonzero: let libdwfl ask the debuginfod servers in
	 * $DEBUGINFOD_URLS for missing debug info.  Zero keeps it off even
	 * when the variable is set, without changing the environment. */
	int debuginfod;
	/* Nonzero: a mapped file that exists but is no usable ELF file (not
	 * ELF, truncated) fails the call instead of being counted. */
	int strict;
	/* Called once per problem worth a warning (a binary whose build id
	 * differs from the profile's), with a one-line message; may be NULL. */
	void (*warn)(const char *msg, void *payload);
	void *payload;
	/* Version 2.  How Function.name is written (system_name keeps the
	 * linker's name); see enum profconv_demangle.  Default: simple, as
	 * pprof. */
	enum profconv_demangle demangle;
	/* Version 3.  Modules (binaries found) indexed so far, of how many;
	 * may be NULL.  PAYLOAD is passed to it. */
	profconv_progress_fn progress;
	/* Version 4.  Threads that look addresses up, one binary (or part
	 * of a large one) each; 0: one per CPU.  The result is the same
	 * whatever the number. */
	unsigned int jobs;
	/* Version 5.  Called at the end of a run, from the calling thread,
	 * once per mapped file and problem that left locations without a
	 * name (see struct profconv_binary_report); may be NULL.  PAYLOAD
	 * is passed to it. */
	void (*binary_report)(const struct profconv_binary_report *r,
	    void *payload);
	/* Version 6.  Nonzero: the caller handles SIGBUS on a mapped file
	 * (one truncated while it is read), so binaries and debug files are
	 * mapped in place instead of read into a private copy; each one's
	 * identity (device, inode, size, modification and change times) is
	 * checked after it is read, and a file rewritten meanwhile fails the
	 * call with PROFCONV_EIO.  Zero: private copies, as before. */
	int handles_sigbus;
};
#define PROFCONV_SYMBOLIZE_OPTIONS_VERSION 6
#define PROFCONV_SYMBOLIZE_OPTIONS_INIT \
	{ PROFCONV_SYMBOLIZE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0, 0, \
	  0, NULL, NULL, PROFCONV_DEMANGLE_SIMPLE, NULL, 0, NULL, 0 }

/* What profconv_symbolize() did, counted in locations. */
struct profconv_symbolize_stats {
	size_t locations;		/* all locations of the profile */
	size_t symbolized;		/* got at least a function or file */
	size_t already_symbolized;	/* had lines before; left alone */
	size_t unsymbolizable;		/* no mapping, or [vdso], anonymous,
					 * deleted and the like */
	size_t no_binary;		/* the mapped file was not found */
	size_t build_id_mismatch;	/* only files with another build id */
	size_t no_debuginfo;		/* binary found, address unknown to it */
	size_t unusable;		/* file found, but no usable ELF file */
	size_t addresses;		/* unique addresses looked up */
};

/*
 * Symbolize PROF in place: every location without lines whose mapping
 * names a binary that can be found gets its lines, innermost inlined
 * function first, with demangled names (system names stay mangled),
 * files, lines and columns; mappings get their build ids and has_*
 * flags.  Binaries are used only when their build id matches the
 * mapping's.  OPTS and STATS may be NULL.  Missing binaries and debug
 * info are not errors; they are counted in STATS.  Debug-info text that
 * is not UTF-8 is kept with U+FFFD in place of the bad bytes, and one
 * warning per binary goes to OPTS->warn.
 *
 * Thread safety: calls on different profiles may run at the same time
 * in different threads.  The call keeps all its state in its own
 * libdwfl sessions, never touches the environment (debuginfod is kept
 * off through its own callbacks, not by hiding $DEBUGINFOD_URLS), and
 * OPTS->warn is called from the calling thread.  One profile must not
 * be used by another thread during the call.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (the maps
 * file or process cannot be read), PROFCONV_EFORMAT (libdwfl failed),
 * PROFCONV_EIO (a file changed while it was read), PROFCONV_ENOMEM.
 */
int profconv_symbolize(struct profconv_profile *prof,
    const struct profconv_symbolize_options *opts,
    struct profconv_symbolize_stats *stats);

/*
 * A symbolizer that outlives one profile: it keeps the binaries it opened,
 * their debug info and every address it looked up, so that symbolizing
 * several profiles of one program (a series of heap dumps, the two sides
 * of a diff) opens and decodes each binary once.  A binary is reused only
 * while its path, build id and file identity (device, inode, size,
 * modification and change times) stay the same: a file changed on disk is
 * read again.
 * At most a few hundred binaries stay open (the rest are closed, least
 * recently used first), so open files stay well below the process limit.
 */
struct profconv_symbolizer;

/*
 * A new symbolizer into *OUT with OPTS (copied, strings included; NULL:
 * the defaults).  Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOMEM.
 */
int profconv_symbolizer_new(struct profconv_symbolizer **out,
    const struct profconv_symbolize_options *opts);

/*
 * Symbolize PROF in place with S, exactly as profconv_symbolize() with
 * S's options would.  STATS may be NULL.  One symbolizer must not be used
 * by two threads at the same time; different symbolizers may.  Errors:
 * as profconv_symbolize().
 */
int profconv_symbolizer_run(struct profconv_symbolizer *s,
    struct profconv_profile *prof, struct profconv_symbolize_stats *stats);

/* Close S's binaries and free it; NULL is a no-op. */
void profconv_symbolizer_free(struct profconv_symbolizer *s);

/*
 * What the kernel and the dynamic loader will make of the program at
 * PATH before it runs: the ELF file that is loaded (PATH itself, or the
 * interpreter its "#!" line names, followed as the kernel does), whether
 * it has a program interpreter (PT_INTERP: without one the program is
 * statically linked and LD_PRELOAD cannot reach it), the libraries it
 * asks for (DT_NEEDED, in order), whether it is position independent,
 * and its set-user-ID and set-group-ID bits (the loader ignores
 * LD_PRELOAD in such a program).  Every string is borrowed from the
 * facts and lives until profconv_elf_facts_free().
 */
struct profconv_elf_facts {
	const char *path;		/* the ELF file read: PATH, or the
					 * interpreter of PATH's "#!" line */
	const char *script_interpreter;	/* the "#!" line's interpreter as
					 * written; NULL when PATH is ELF */
	int elf_class;			/* 32 or 64 */
	int elf_type;			/* ET_EXEC (2) or ET_DYN (3) */
	int pie;			/* ET_DYN marked DF_1_PIE, or ET_DYN
					 * with a program interpreter */
	int set_id;			/* set-user-ID or set-group-ID */
	const char *interpreter;	/* PT_INTERP; NULL: statically linked */
	const char *build_id;		/* GNU build id, lowercase hex; "" */
	const char *const *needed;	/* DT_NEEDED names, in order */
	size_t nneeded;
};

/*
 * The facts of the program at PATH into *OUT (freed with
 * profconv_elf_facts_free()).  A script's "#!" line is followed to its
 * interpreter, at most 4 scripts deep.  Bounds: see LIMITS in
 * libprofconv(3).  Errors: PROFCONV_ENOTFOUND (PATH or an interpreter
 * cannot be opened), PROFCONV_EFORMAT (not a regular file, neither ELF
 * nor a "#!" script, not an executable or shared object, malformed or
 * beyond a bound; the message names the file and the offset),
 * PROFCONV_ENOMEM.
 */
int profconv_elf_facts_read(struct profconv_elf_facts **out,
    const char *path);

/* Free facts from profconv_elf_facts_read(); NULL is a no-op. */
void profconv_elf_facts_free(struct profconv_elf_facts *facts);

/*
 * Read a profile from FP with OPTS (NULL: the defaults) into *OUT and,
 * when SYM is not NULL, symbolize it with SYM (a binary that is missing
 * is counted in STATS, not an error; STATS may be NULL): how the profconv
 * commands take every input.  Keeping one SYM for the profiles of one
 * program opens and indexes each binary once.  On failure *OUT is NULL.
 * Errors: those of profconv_profile_read() and profconv_symbolizer_run().
 */
int profconv_profile_load(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, struct profconv_symbolizer *sym,
    struct profconv_symbolize_stats *stats);

/* --- transforms ----------------------------------------------------------- */

/*
 * Merge N profiles into a new one, *OUT, with pprof's semantics: the
 * sample types all of them have are kept (by name, in the first one's
 * order), and they must share the period type; mappings are identified without
 * their load address (size, file offset, build id or file), locations by
 * mapping-relative address and lines, samples by stack and labels; values
 * of identical samples add up; all-zero samples are dropped; period is the
 * largest, duration the sum (saturating), time the earliest nonzero one.  The inputs
 * are not changed.  Errors: PROFCONV_EINVAL (incompatible or no
 * profiles), PROFCONV_ENOMEM.
 */
int profconv_profile_merge(struct profconv_profile **out,
    struct profconv_profile *const *profs, size_t n);

/*
 * The same merge one source at a time, so that a program need not hold
 * every input at once: make a merger, add each profile (it may be freed
 * right after), then finish to get the result.  Sample types are kept by
 * name when every source has them, in the first source's order; one in
 * another unit, or another period type, makes a source incompatible.  A
 * heap source typed objects/space gives its values to alloc_* and inuse_*;
 * when the first source is typed objects/space, later sources' inuse_*
 * values go to objects/space (see profconv_profiles_compatibilize()).
 * Errors: PROFCONV_EINVAL (incompatible, or no sample type in common,
 * reported by finish), PROFCONV_ENOMEM.
 */
struct profconv_merger;	/* opaque */
int profconv_merger_new(struct profconv_merger **out);
int profconv_merger_add(struct profconv_merger *merger,
    const struct profconv_profile *prof);
int profconv_merger_finish(struct profconv_profile **out,
    struct profconv_merger *merger);
/* Release MERGER; NULL is a no-op. */
void profconv_merger_free(struct profconv_merger *merger);

/*
 * CUR minus BASE as a new profile *OUT: BASE's values negated and merged
 * into CUR.  What cancels out disappears; negative values remain.
 * Errors: as profconv_profile_merge().
 */
int profconv_profile_subtract(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base);

/*
 * CUR and BASE as pprof's -diff_base combines them, into a new profile
 * *OUT: BASE's samples labelled pprof::base=true (replacing any value of
 * that label), negated and merged after CUR's.  The label keeps BASE's
 * samples apart from CUR's, so nothing cancels: pprof shows the
 * difference and takes the labelled samples' total as 100% (percentages
 * of the base), and go tool pprof -http draws its diff flame graph.
 * Normalize first, if at all, as pprof does: CUR scaled to BASE
 * (profconv_profile_normalize(cur, base)).
 * Errors: as profconv_profile_merge().
 */
int profconv_profile_diff_base(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base);

/*
 * Keep in each of the N profiles only the sample types (by type name)
 * that all of them have, in the first profile's order.  A default sample
 * type that goes away becomes the first common one.  Heap profiles of one
 * producer are made comparable first: when some profile has inuse_objects
 * and inuse_space, one typed objects/space (pprof's name for a heap dump
 * whose alloc totals equal its in-use totals: the first dump of a
 * process) is retyped alloc_objects, alloc_space, inuse_objects,
 * inuse_space, each pair holding its values; so it compares with later
 * dumps on all four, and with jemalloc's inuse-only dumps (no prof_accum)
 * on the in-use pair.
 * Errors: PROFCONV_EINVAL (nothing in common), PROFCONV_ENOMEM.
 */
int profconv_profiles_compatibilize(struct profconv_profile *const *profs,
    size_t n);

/*
 * Multiply value slot I of every sample by RATIOS[I] (one per sample
 * type), rounding to the nearest integer; samples whose scaled slots all
 * become zero are dropped (slots with ratio 1 do not count), as pprof's
 * ScaleN does.  Errors: PROFCONV_EINVAL (a ratio that is NaN or
 * infinite: nothing is changed), PROFCONV_ENOMEM.
 */
int profconv_profile_scale(struct profconv_profile *prof,
    const double *ratios);

/*
 * Scale PROF so that its total of every sample type equals TO's.
 * Errors: PROFCONV_EINVAL (incompatible), PROFCONV_ENOMEM.
 */
int profconv_profile_normalize(struct profconv_profile *prof,
    const struct profconv_profile *to);

/* --- views: what every writer shows ------------------------------------- */

/* What one frame of a view is. */
enum profconv_granularity {
	PROFCONV_BY_FUNCTION = 0,	/* "name" */
	PROFCONV_BY_LINE = 1,		/* "name file.c:12" (the file's base name) */
	PROFCONV_BY_ADDRESS = 2,	/* "name+0x2f": one per location */
	/* A frame per source file, "/src/a.c" (the profile's name for it,
	 * cleaned as Go's filepath.Clean, as pprof -files names it); a
	 * frame without a file is its module, "[libfoo.so]" (pprof's
	 * name; "<unknown>" without one), whatever its function or
	 * address. */
	PROFCONV_BY_FILE = 3,
	/* A frame per function and file, "name /src/a.c" as pprof
	 * -filefunctions names it; "name" without a file, "/src/a.c"
	 * without a name, "[libfoo.so]" without either. */
	PROFCONV_BY_FILE_FUNCTION = 4
};

struct profconv_view_options {
	unsigned int version;		/* PROFCONV_VIEW_OPTIONS_VERSION */
	enum profconv_granularity granularity;
	enum profconv_demangle demangle;
	/* One frame per location (its outermost function), no inlined calls. */
	int no_inline;
	/* Keep drop_frames matches and frames inside allocator libraries. */
	int keep_allocator_frames;
	/* Keep only stacks with a frame matching FOCUS, and drop those with
	 * a frame matching IGNORE (POSIX extended regexes, searched in the
	 * frame's text); NULL: no filter. */
	const char *focus;
	const char *ignore;
	/* Called with a one-line message when the view is made differently
	 * from what the profile asks (its own drop_frames or keep_frames
	 * refused as too costly to match: the defaults are used); NULL: no
	 * warnings. */
	void (*warn)(const char *msg, void *payload);
	void *payload;
	/* Version 2.  Threads for building the view and for the folded and
	 * SVG writers that read it (0: one per online CPU); the view is the
	 * same whatever the number. */
	unsigned int jobs;
	/* Version 3.  Keep the well-known allocation wrappers of runtimes
	 * and libraries (xmalloc, zmalloc, PyObject_Malloc, g_malloc, ...),
	 * which are otherwise cut like malloc in profiles that count
	 * allocations. */
	int no_wrappers;
	/* pprof's -hide, -show, -show_from and -prune_from (POSIX extended
	 * regexes, searched; NULL: none): HIDE removes the frames whose
	 * function, source file or mapped file matches, SHOW keeps only
	 * those; SHOW_FROM drops the frames above the outermost match of a
	 * stack (and stacks without one); PRUNE_FROM drops the frames below
	 * the innermost function that matches. */
	const char *hide;
	const char *show;
	const char *show_from;
	const char *prune_from;
	/* Version 4.  go tool pprof's label filters, with its syntax and
	 * meaning (see profconv-show(1)): keep only samples whose labels
	 * match TAGFOCUS, drop those matching TAGIGNORE ("KEY=VALUE" or
	 * "VALUE", VALUE a numeric range such as "8kb:" or "16kb:64kb" or
	 * regular expressions split at ','); TAGROOT and TAGLEAF, label
	 * keys split at ',', add a frame named by each key's values at the
	 * root (the first key outermost) or the leaf (the last innermost)
	 * of every stack.  NULL: none. */
	const char *tagfocus;
	const char *tagignore;
	const char *tagroot;
	const char *tagleaf;
	/* Leak suppressions in LeakSanitizer's format: the text of a
	 * suppressions file (NULL: none), named SUPPRESSIONS_NAME in
	 * messages; samples with a frame whose function, file or module a
	 * "leak:" pattern matches are not shown, nor, with
	 * DEFAULT_SUPPRESSIONS, those matching the built-in list of
	 * one-time runtime allocations (profconv_default_suppressions).
	 * See profconv_view_suppression(). */
	const char *suppressions;
	const char *suppressions_name;
	int default_suppressions;
	/* One root frame per thread, outside the TAGROOT ones, from the
	 * "thread" and "thread_name" labels (profconv text2pb --threads):
	 * "thread N (NAME)", "thread N", or "[no thread]". */
	int split_threads;
	/* Which labels are printed where labels are (profconv show's
	 * dump and reports, the call graph's tag nodes), as pprof's
	 * -tagshow and -taghide: keys matching TAGSHOW (when not NULL) and
	 * not TAGHIDE, POSIX extended regexes.  They keep and drop no
	 * sample. */
	const char *tagshow;
	const char *taghide;
	/* Version 5.  In a profile that counts allocations, find more
	 * allocation wrappers by their shape in the profile
	 * (profconv_wrapper_rule() says the rule) and cut them like
	 * malloc, and, when any were found, call WRAPPERS_FOUND with their
	 * names (borrowed for the call, largest first) and PAYLOAD. */
	int find_wrappers;
	void (*wrappers_found)(const char *const *names, size_t n,
	    void *payload);
	/* Version 6.  Percentages of what the filters keep (pprof's
	 * -relative_percentages); 0: of the whole profile, as pprof
	 * takes them (see profconv_view_percent_total()). */
	int relative_percentages;
};
#define PROFCONV_VIEW_OPTIONS_VERSION 6
#define PROFCONV_VIEW_OPTIONS_INIT \
	{ PROFCONV_VIEW_OPTIONS_VERSION, PROFCONV_BY_FUNCTION, \
	  PROFCONV_DEMANGLE_SIMPLE, 0, 0, NULL, NULL, NULL, NULL, 0, 0, \
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, \
	  NULL, NULL, 0, NULL, 0 }

/*
 * A view: a profile as it is shown.  Every writer that shows stacks or
 * names (the summary, the comparison table, folded stacks, SVG,
 * speedscope, trend) reads one, so one profile shows the same stacks,
 * names and totals everywhere:
 *
 *   - allocator frames are cut off the leaf end of each stack: the
 *     profile's drop_frames (less keep_frames), and, in profiles that
 *     count allocations, the well-known allocation wrappers (unless
 *     no_wrappers) and frames without symbols inside an allocator
 *     library (libjemalloc*, libtcmalloc*, libmimalloc*);
 *   - then focus and ignore pick stacks, hide and show frames, show_from
 *     and prune_from cut stacks, in pprof's order;
 *   - each location gives one frame per line, outermost first (inline
 *     calls expanded), unless no_inline; a location without lines is
 *     "module+0xADDRESS", the ELF address addr2line takes (or its
 *     address without a mapped file);
 *   - names follow the demangle mode;
 *   - frames are identified by their text and stacks by their frames;
 *     samples whose values are all zero are left out.
 *
 * Stacks run root first and are sorted by their folded text ("a;b;c",
 * byte order).  The view borrows PROF, which must outlive it unchanged.
 */
struct profconv_view;	/* opaque */

/* A frame of a view; strings borrowed from the view. */
struct profconv_view_frame {
	const char *name;	/* the frame's text, as writers show it */
	const char *function;	/* function name in the demangle mode, "" when
				 * unsymbolized */
	const char *file;	/* source file as the profile names it, "" */
	int64_t line;		/* line of the first location seen, 0 unknown */
	const char *module;	/* base name of the mapped file, "" */
};

/* A stack of a view; its frame ids are copied out by
 * profconv_view_stack_frames(). */
struct profconv_view_stack {
	size_t nframes;		/* 0 for samples without frames */
	const int64_t *values;	/* one per sample type of the profile */
};

/*
 * Make the view of PROF in *OUT (free with profconv_view_free()).  OPTS
 * may be NULL.  Errors: PROFCONV_EINVAL (bad options or regex),
 * PROFCONV_ENOMEM.
 */
int profconv_view_new(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts);
/*
 * profconv_view_new() for a caller that needs no more of PROF's stacks
 * than this view: the view drops them (profconv_profile_drop_stacks())
 * as soon as it has read them, before it sorts, so that a command making
 * one view of a large profile peaks lower by their size.  The view is
 * the one profconv_view_new() makes.  PROF's stacks are dropped whether
 * or not it succeeds.  Errors: as profconv_view_new().
 */
int profconv_view_new_taking(struct profconv_view **out,
    struct profconv_profile *prof,
    const struct profconv_view_options *opts);
/*
 * Check OPTS as profconv_view_new() would, without a profile: the
 * version, the modes, and that FOCUS and IGNORE compile; so a caller can
 * refuse them before reading any input.  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (the message says what is wrong).
 */
int profconv_view_options_check(const struct profconv_view_options *opts);
/* Release VIEW; NULL is a no-op. */
void profconv_view_free(struct profconv_view *view);
/*
 * The rule by which the view's find_wrappers finds allocation wrappers,
 * in short, for a message (static storage): after allocator frames and
 * the wrappers found so far are cut, a function is cut as a wrapper when
 * it is the leaf in most of the value of the samples it is in, directly
 * under many distinct callers, for a fair share of the profile's value
 * (of its default sample type); repeated while that finds more.  The
 * numbers are in libprofconv(3), LIMITS.
 */
const char *profconv_wrapper_rule(void);

/* The filters of a view's options, as bits of an unsigned int. */
enum profconv_filter {
	PROFCONV_FILTER_FOCUS = 1 << 0,
	PROFCONV_FILTER_IGNORE = 1 << 1,
	PROFCONV_FILTER_HIDE = 1 << 2,
	PROFCONV_FILTER_SHOW = 1 << 3,
	PROFCONV_FILTER_SHOW_FROM = 1 << 4,
	PROFCONV_FILTER_PRUNE_FROM = 1 << 5,
	PROFCONV_FILTER_TAGFOCUS = 1 << 6,
	PROFCONV_FILTER_TAGIGNORE = 1 << 7,
	PROFCONV_FILTER_TAGROOT = 1 << 8,
	PROFCONV_FILTER_TAGLEAF = 1 << 9,
	PROFCONV_FILTER_TAGSHOW = 1 << 10,
	PROFCONV_FILTER_TAGHIDE = 1 << 11
};
/*
 * The filters VIEW was made with (those of its options that are not NULL
 * nor empty) that matched nothing, as PROFCONV_FILTER_* bits; 0 when
 * every one matched.  As go tool pprof says "Focus expression matched no
 * samples": FOCUS, IGNORE, HIDE, SHOW, SHOW_FROM and PRUNE_FROM matched
 * when some frame of a sample they saw matched them (for SHOW: some
 * frame was kept; samples already left out by the label filters,
 * suppressions or values of zero are not seen); TAGFOCUS when some
 * sample passed it, TAGIGNORE when some sample matched it; TAGROOT and
 * TAGLEAF when some shown sample had a label of one of their keys;
 * TAGSHOW and TAGHIDE when some shown sample had a label whose key
 * matched them (string or numeric, as pprof's -tagshow).  The
 * library prints nothing: callers say it.  Cannot fail.
 */
unsigned profconv_view_unmatched(const struct profconv_view *view);
/*
 * profconv_view_unmatched() of the view OPTS would make of PROF, into
 * *OUT, for callers whose views are made inside the library (the
 * comparison, the trend, the report, the summary); when OPTS has no
 * filter, 0 and no view is made.  Errors: as profconv_view_new().
 */
int profconv_filters_unmatched(const struct profconv_profile *prof,
    const struct profconv_view_options *opts, unsigned *out);

/* The profile VIEW shows.  Cannot fail. */
const struct profconv_profile *profconv_view_profile(
    const struct profconv_view *view);
/* Number of frames (ids 1..n) and stacks (0..n-1).  Cannot fail. */
size_t profconv_view_frame_count(const struct profconv_view *view);
size_t profconv_view_stack_count(const struct profconv_view *view);
/* Frame ID and stack I.  Errors: PROFCONV_EINVAL (no such one). */
int profconv_view_frame(const struct profconv_view *view, uint32_t id,
    struct profconv_view_frame *out);
int profconv_view_stack(const struct profconv_view *view, size_t i,
    struct profconv_view_stack *out);
/*
 * The frame ids of stack I of VIEW, root first, copied into IDS: as many
 * as CAP holds.  *NFRAMES (when not NULL) gets how many the stack has,
 * which may be more than CAP; IDS may be NULL when CAP is 0.  A copy, as
 * the view holds its ids in two bytes each while they fit.
 * Errors: PROFCONV_EINVAL (no such stack).
 */
int profconv_view_stack_frames(const struct profconv_view *view, size_t i,
    uint32_t *ids, size_t cap, size_t *nframes);
/* Sum of sample type TYPE_INDEX over the view's stacks (saturating).
 * Errors: PROFCONV_EINVAL. */
int profconv_view_total(const struct profconv_view *view, size_t type_index,
    int64_t *out);
/*
 * The total that percentages of VIEW are of, of sample type TYPE_INDEX,
 * into *OUT: the sum of the magnitudes of every sample of its profile,
 * before any filter (focus, ignore, hide, show, the tag filters, leak
 * suppressions) took a sample or a frame away, as go tool pprof's
 * reports take it; so a function's share does not grow when others are
 * filtered out.  With the view option relative_percentages, the view's
 * own total (profconv_view_total()).  Errors: PROFCONV_EINVAL.
 */
int profconv_view_percent_total(const struct profconv_view *view,
    size_t type_index, int64_t *out);
/*
 * Index of the sample type named TYPE, or of the default one when TYPE
 * is NULL, into *OUT.  Errors: PROFCONV_ENOTFOUND (with a message).
 */
int profconv_view_sample_index(const struct profconv_view *view,
    const char *type, size_t *out);

/* What one leak suppression of a view hid (see the view options'
 * suppressions). */
struct profconv_suppression {
	const char *pattern;	/* after "leak:" */
	const char *file;	/* the suppressions' name, or "built-in" */
	size_t line;		/* in that file; 0 built in */
	size_t samples;		/* samples (stacks) it hid */
	const int64_t *values;	/* their sum per sample type */
};
/* How many suppressions VIEW applied.  Cannot fail. */
size_t profconv_view_suppression_count(const struct profconv_view *view);
/* Suppression I of VIEW (strings and values borrowed from the view).
 * Errors: PROFCONV_EINVAL (no such one). */
int profconv_view_suppression(const struct profconv_view *view, size_t i,
    struct profconv_suppression *out);
/* The built-in suppressions, NULL-ended, for documentation. */
const char *const *profconv_default_suppressions(void);

/*
 * Print to FP a log2 histogram of the average block size of VIEW's
 * stacks (bytes / objects of the bytes type TYPE, such as inuse_space,
 * and its objects type beside it; NULL: inuse_space, or space), one
 * line per power of two with the stacks, objects and bytes in it, and a
 * line saying that a dump knows only averages per stack.  Errors:
 * PROFCONV_ENOTFOUND (no such pair of types), PROFCONV_EIO.
 */
int profconv_sizes_print(const struct profconv_view *view, FILE *fp,
    const char *type);

/* --- comparing two profiles ------------------------------------------------- */

/* How the comparison groups stacks into rows. */
enum profconv_diff_by {
	PROFCONV_DIFF_BY_FUNCTION = 0,	/* the leaf frame of the view */
	PROFCONV_DIFF_BY_LINE = 1,	/* the leaf frame, "name file:line" */
	PROFCONV_DIFF_BY_STACK = 2	/* the whole stack, root first */
};

struct profconv_diff_options {
	unsigned int version;		/* PROFCONV_DIFF_OPTIONS_VERSION */
	enum profconv_diff_by by;
	/* Version 2.  Keep only what grew (profconv_profile_keep_growth()),
	 * in the delta and in the table. */
	int leaks;
	/* Frames, names and filters; NULL: the defaults.  Its granularity
	 * is set from BY. */
	const struct profconv_view_options *view;
	/* Version 3.  Called with a one-line message for each reason to
	 * doubt the comparison (CUR allocated less in all than BASE: the
	 * two swapped; their main binaries differ); NULL: no warnings.
	 * BASE_NAME and CUR_NAME name the profiles in it (NULL: "BASE",
	 * "CUR"). */
	void (*warn)(const char *msg, void *payload);
	void *payload;
	const char *base_name;
	const char *cur_name;
	/* Version 4.  Names LATER of profconv_retention_new() in its
	 * warning that LATER and CUR are of different programs (NULL:
	 * "LATER"). */
	const char *later_name;
};
#define PROFCONV_DIFF_OPTIONS_VERSION 4
#define PROFCONV_DIFF_OPTIONS_INIT \
	{ PROFCONV_DIFF_OPTIONS_VERSION, PROFCONV_DIFF_BY_FUNCTION, 0, NULL, \
	  NULL, NULL, NULL, NULL, NULL }

/*
 * A comparison of BASE and CUR, which must have the same sample types
 * (see profconv_profiles_compatibilize()): the delta profile CUR - BASE
 * (profconv_profile_subtract(), then the leak filter when asked) and the
 * rows of the table, all made from views of the three profiles with the
 * same options.  The table's delta columns are the delta profile's.
 */
struct profconv_diff;	/* opaque */

/*
 * Compare BASE and CUR into *OUT (free with profconv_diff_free()); the
 * inputs may be freed afterwards.  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (different sample types, bad options),
 * PROFCONV_ENOMEM.
 */
int profconv_diff_new(struct profconv_diff **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_diff_options *opts);
void profconv_diff_free(struct profconv_diff *diff);

/* The delta profile, borrowed from DIFF.  Cannot fail. */
const struct profconv_profile *profconv_diff_delta(
    const struct profconv_diff *diff);

struct profconv_diff_print_options {
	unsigned int version;		/* PROFCONV_DIFF_PRINT_OPTIONS_VERSION */
	const char *sort;		/* column name; NULL: the delta bytes,
					 * or delta of the default type */
	size_t top;			/* rows to print; 0: all */
	int exact;			/* exact numbers, not KiB/MiB */
	/* Version 2.  Rows by stack: 0, the name first, leaf first and at
	 * most 60 characters ("leaf < caller < ... < root", the middle
	 * elided); 1, the whole folded stack (root;...;leaf) last, as the
	 * JSON has it. */
	int wide;
};
#define PROFCONV_DIFF_PRINT_OPTIONS_VERSION 2
#define PROFCONV_DIFF_PRINT_OPTIONS_INIT \
	{ PROFCONV_DIFF_PRINT_OPTIONS_VERSION, NULL, 0, 0, 0 }

/*
 * Print DIFF's comparison table to FP.  Heap profiles with alloc_* and
 * inuse_* types get the columns New, Freed, Delta objs, Alloc bytes,
 * Freed bytes and Delta bytes (the memory debuggers' comparison view,
 * computed from the delta); others get base, cur and delta per sample
 * type.  Rows whose delta is zero are left out; a TOTAL row ends the
 * table.  Sort columns: new, freed, delta-objects, alloc-bytes,
 * freed-bytes, delta-bytes, name; or a sample type name.
 * Errors: PROFCONV_EINVAL (unknown sort column), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_diff_print(const struct profconv_diff *diff, FILE *fp,
    const struct profconv_diff_print_options *opts);

/*
 * Write DIFF as one JSON object to FP: "before" and "after" totals, and
 * "rows" sorted as the table is.  Heap rows carry name, newCount,
 * deletedCount, countDelta, allocatedSize, freedSize, sizeDelta (the
 * DevTools comparison view's names); other rows carry name and, per
 * sample type, base, cur and delta.  OPTS as for profconv_diff_print().
 * Errors: as profconv_diff_print().
 */
int profconv_diff_write_json(const struct profconv_diff *diff, FILE *fp,
    const struct profconv_diff_print_options *opts);

/*
 * Retention across three dumps of one process taken in the order BASE,
 * CUR, LATER, with the same sample types (profdiff --still-at): per row
 * (function, line or stack, as OPTS->by and OPTS->view say; OPTS->warn
 * gets profconv_diff_new()'s warnings for BASE and CUR and one when
 * LATER and CUR are of different programs), what grew from BASE to CUR and is still held at
 * LATER, max(0, min(CUR - BASE, LATER - BASE)), for the in-use object
 * count and bytes (inuse_objects/inuse_space, or objects/space), or the
 * default sample type of other profiles.  Dumps count rows, not objects:
 * a row whose objects from BASE..CUR were freed and replaced by as many
 * newer ones looks retained.  The inputs may be freed afterwards.
 * Errors: PROFCONV_EINVAL (different sample types, bad options),
 * PROFCONV_ENOMEM.
 */
struct profconv_retention;	/* opaque */
int profconv_retention_new(struct profconv_retention **out,
    const struct profconv_profile *base, const struct profconv_profile *cur,
    const struct profconv_profile *later,
    const struct profconv_diff_options *opts);
void profconv_retention_free(struct profconv_retention *retention);
/* How many rows still hold something they grew.  Cannot fail. */
size_t profconv_retention_held(const struct profconv_retention *retention);
/*
 * Print the rows that grew from BASE to CUR, most still held first, then
 * most grown: per followed type, Grew (CUR - BASE), Later (LATER - BASE)
 * and Held (still held); a TOTAL row sums the rows.  OPTS: top and
 * exact; a sort column is PROFCONV_EINVAL.  The JSON has "rows" (name,
 * "values": per type base, cur, later, grew, later_delta, still_held),
 * "total" and "rows_held".  Errors: PROFCONV_EINVAL, PROFCONV_EIO.
 */
int profconv_retention_print(const struct profconv_retention *retention,
    FILE *fp, const struct profconv_diff_print_options *opts);
int profconv_retention_write_json(
    const struct profconv_retention *retention, FILE *fp,
    const struct profconv_diff_print_options *opts);

/*
 * The leak view of a delta profile: keep only the samples that grew,
 * by one definition everywhere: in-use objects or bytes went up
 * (inuse_objects/inuse_space, or objects/space); in profiles without
 * in-use counters, any value went up.  Cannot fail; returns 0.
 */
int profconv_profile_keep_growth(struct profconv_profile *prof);

/* --- a series of snapshots: leak suspects --------------------------------- */

/*
 * proftrend's analysis of N >= 2 snapshots of one program (heap dumps
 * taken one after another).  Every snapshot is seen through a view (see
 * profconv_view_new()) and its stacks grouped into rows, one per
 * function, line or stack, the same row in every snapshot; each row's
 * value of one sample type (in-use bytes for heap profiles) is followed
 * from the first snapshot to the last.
 *
 * Verdicts.  A row's values v1..vN over N snapshots, at x1..xN on the
 * x axis: the bytes the program had allocated at each (the total of
 * alloc_space: gperftools' header, jemalloc's with prof_accum, Go's)
 * when every snapshot has it and it never goes down (first dumps
 * without it count their in-use bytes; a sampled total that comes out
 * under the largest before it by at most 2 sqrt(largest * period) is
 * taken as that largest), else 0..N-1.  So dumps by time
 * judge as dumps by allocation volume.  The last quarter is the
 * snapshots with x >= x1 + 3/4 (xN - x1) (the last one at least; its
 * slope takes the one before too).
 * The noise floor F is min_growth, or the profile's sampling period in
 * bytes when larger (jemalloc's 2^lg_prof_sample, Go's MemProfileRate);
 * in a sampled profile a row's own F is 2 sqrt(M * period) when larger,
 * its noise N, where M, the bytes that came or went, is the sum of
 * |v(i+1) - vi| but at most max |v| (a sampled object stays in every
 * dump while it lives: only what changed moves the estimate); for a
 * row whose objects are S bytes (from its bytes and objects over the
 * snapshots), S / (exp(S / period) - 1) stands for the period: objects
 * larger than the period are nearly always sampled.
 * A swing is a move of at least D = max(F, (max - min) / 2): a rise from
 * the lowest value since the last swing, or a fall from the highest.
 * The rise of the last quarter is its Theil-Sen slope (the median of
 * (vj - vi) / (xj - xi) over its pairs) times its length in x.
 * The first of these that holds is the verdict:
 *   1. stable: max - min < F;
 *   2. leak: the leak test holds:
 *      a. no fall;
 *      b. the lowest value of the last quarter is at least F above the
 *         row's lowest (its "held" height H);
 *      c. the last quarter still grows: its rise is positive and at
 *         least max(N, H / 5), or its highest value tops every earlier
 *         one by at least max(F, (max - min) / 10), or the second half
 *         of the x range kept climbing: its rise (Theil-Sen, as the last
 *         quarter's) is at least max(N, H / 5) and the last quarter's is
 *         at least a third of the half's pace over the quarter's length;
 *         in the first and the third case the last quarter's highest
 *         value comes within max(F, (max - min) / 10) of every earlier
 *         (in the first, of a sampled row, its lowest value does too),
 *         and in the third, when the value fell before the last quarter
 *         by more than that margin from a high, tops every earlier one
 *         by that fall (a wandering level ends on a new high by chance);
 *      or, in a sampled profile (period P), there is no fall, the
 *      last quarter's highest tops every earlier value by min(2 P,
 *      (max - min) / 4) (two sampled objects), and either the
 *      value never went down from one snapshot to the next (each sample
 *      gained is still live) or within the last quarter it went down by
 *      at most 2 P at a time and its highest tops every earlier value
 *      by max(F0, (max - min) / 10), F0 the floor before the row's N;
 *      d. with min_grew_fraction (0: off, the default), of the
 *         intervals in which the value changed, at least that fraction
 *         went up (rounded up);
 *   3. the last snapshot fell by F or more from the one before and
 *      v1..v(N-1) pass the leak test: freed-at-exit when vN - v1 < F
 *      (jemalloc's .f dump, gperftools' dump at exit), else leak (still
 *      held);
 *   4. saturating: no fall, max - v1 >= F, and the last quarter is a
 *      plateau: its lowest value is at least v1 + (max - v1) / 2, its
 *      rise is under max(F, (max - v1) / 5) either way, and its highest
 *      tops the earlier ones by less than max(F, (max - v1) / 10);
 *   5. periodic: three swings or more;
 *   6. transient: one or two swings, one of them a fall;
 *   7. stable: anything else.
 * The leak rows are the suspects.  A row's size never decides: a leak
 * of a few bytes a snapshot beside a large one is a leak.  Rows rank by
 * swing (max - min).  min_growth_share is kept for compatibility and
 * ignored.
 */
struct profconv_trend_options {
	unsigned int version;		/* PROFCONV_TREND_OPTIONS_VERSION */
	enum profconv_diff_by by;	/* rows per function, line or stack */
	/* Frames, names and filters; NULL: the defaults.  Its granularity
	 * is set from BY; its regexes must outlive the run. */
	const struct profconv_view_options *view;
	const char *sample_type;	/* NULL: inuse_space, else space, else
					 * the default sample type */
	int keep_order;			/* snapshots in the order added */
	double min_grew_fraction;	/* of the intervals that moved; 0..1;
					 * 0: off (the default) */
	int64_t min_growth;		/* noise floor, bytes (units of the
					 * type) */
	double min_growth_share;	/* no longer decides anything: the
					 * rows rank by growth; 0..1 */
	/* Version 2.  The table's sparklines in Unicode block characters
	 * (U+2581..U+2588) for a UTF-8 terminal; 0: in ASCII. */
	int unicode;
	/* Version 3.  The table: rows by stack named in full, as
	 * profconv_diff_print_options' wide; after the rows, a line per
	 * snapshot instead of their summary. */
	int wide;
	int list_snapshots;
	/* Version 4.  Every row split per thread: a row is a thread and a
	 * function (line, stack), from the "thread" and "thread_name"
	 * labels (profconv_read_options' threads).  Rows by function or
	 * line are named "THREAD: NAME", rows by stack have the thread as
	 * their root frame, THREAD being the view's split_threads frame
	 * ("thread N (NAME)", "thread N", "[no thread]"); the JSON rows
	 * get "thread" and "thread_name".  A snapshot with samples but no
	 * thread label is refused (profconv_trend_add()). */
	int by_thread;
};
#define PROFCONV_TREND_OPTIONS_VERSION 4
#define PROFCONV_TREND_OPTIONS_INIT \
	{ PROFCONV_TREND_OPTIONS_VERSION, PROFCONV_DIFF_BY_FUNCTION, NULL, \
	  NULL, 0, 0, 4096, 0.01, 0, 0, 0, 0 }

struct profconv_trend;	/* opaque */

/*
 * Make an empty analysis in *OUT with OPTS (NULL: the defaults).
 * Errors: PROFCONV_EINVAL (a bad option), PROFCONV_ENOMEM.
 */
int profconv_trend_new(struct profconv_trend **out,
    const struct profconv_trend_options *opts);

/* Release TREND and the profiles it took.  NULL is a no-op. */
void profconv_trend_free(struct profconv_trend *trend);

/*
 * Add snapshot PROF, named NAME (its file; copied).  TREND takes PROF,
 * even on failure.  A series is one process: a snapshot whose name is a
 * jemalloc or gperftools dump of another process than the first
 * snapshot's (PREFIX.PID.SEQ.KIND.heap with another PID,
 * PREFIX.NNNN.heap with another PREFIX, so PREFIX_PID for a forked
 * child), or whose first mapping is another file, is refused.  Names
 * ending .u.heap/.uN.heap and .f.heap mark jemalloc's high-water and
 * final dumps.  Errors: PROFCONV_EINVAL (no TREND or no PROF, after
 * profconv_trend_run(), or another process; with by_thread, a snapshot
 * with samples of which none has a thread label), PROFCONV_ENOTFOUND (no
 * such sample type), the errors of profconv_view_new(), PROFCONV_ENOMEM.
 */
int profconv_trend_add(struct profconv_trend *trend,
    struct profconv_profile *prof, const char *name);

/*
 * Analyse the snapshots: order them (by collection time when every one
 * has a time, else by name in natural order, so "x.m2" comes before
 * "x.m10"; as added with keep_order), make their sample types comparable
 * (profconv_profiles_compatibilize()), group their stacks into rows and
 * give every row its statistics and verdict.  Rows come by their swing
 * (largest value minus smallest, largest first), then suspects first,
 * by growth (largest first), by name.  Each snapshot is reduced
 * to its value per row when added and its profile freed, but for the
 * ones that may turn out first or last (kept for
 * profconv_trend_suspects()): memory grows with rows times snapshots.
 * Errors: PROFCONV_EINVAL (fewer than 2 snapshots, or run twice),
 * PROFCONV_ENOTFOUND (no such sample type), the errors of
 * profconv_profiles_compatibilize() and profconv_view_new().
 */
int profconv_trend_run(struct profconv_trend *trend);

/* One snapshot of a run analysis, in order. */
struct profconv_trend_snapshot {
	const char *name;
	int64_t time_nanos;		/* 0: unknown */
	int64_t inuse_bytes;		/* total of the chosen type */
	int64_t inuse_objects;		/* total of inuse_objects/objects;
					 * -1 when the profile has none */
	/* jemalloc's dump kind, from a name prefix.PID.SEQ.KIND.heap: */
	int high_water;			/* .u: a new high-water mark
					 * (prof_gdump) */
	int final;			/* .f: the dump at exit (prof_final) */
};

/*
 * What a row's series of values looks like (the rule is described at
 * profconv_trend_options).  Only PROFCONV_TREND_LEAK rows are suspects.
 */
enum profconv_trend_verdict {
	PROFCONV_TREND_STABLE,		/* no trend: flat, or noise */
	PROFCONV_TREND_LEAK,		/* grew steadily and still grows */
	PROFCONV_TREND_SATURATING,	/* grew, then flat at a cap */
	PROFCONV_TREND_PERIODIC,	/* comes and goes (sawtooth) */
	PROFCONV_TREND_TRANSIENT,	/* grew, then came back down */
	PROFCONV_TREND_FREED_AT_EXIT	/* grew, gone in the final dump */
};

/*
 * The name of VERDICT: "stable", "leak", "saturating", "periodic",
 * "transient", "freed-at-exit"; "?" for a value out of range.
 */
const char *profconv_trend_verdict_name(enum profconv_trend_verdict verdict);

/* One row of a run analysis.  VALUES has one entry per snapshot; it is
 * valid until the next call of profconv_trend_row(). */
struct profconv_trend_row {
	const char *name;
	int64_t first_bytes, last_bytes, growth_bytes;
	double slope_bytes;		/* per snapshot, least squares */
	size_t grew_intervals;
	size_t intervals;		/* snapshots - 1 */
	int suspect;			/* verdict == PROFCONV_TREND_LEAK */
	const int64_t *values;
	enum profconv_trend_verdict verdict;
};

size_t profconv_trend_snapshot_count(const struct profconv_trend *trend);
/* Errors: PROFCONV_EINVAL (I out of range, or not run). */
int profconv_trend_snapshot(const struct profconv_trend *trend, size_t i,
    struct profconv_trend_snapshot *out);
/* Rows whose value changed at some snapshot, in the order above. */
size_t profconv_trend_row_count(const struct profconv_trend *trend);
size_t profconv_trend_suspect_count(const struct profconv_trend *trend);
/* Errors: PROFCONV_EINVAL (I out of range, or not run). */
int profconv_trend_row(const struct profconv_trend *trend, size_t i,
    struct profconv_trend_row *out);

/*
 * Print the analysis as a table: a line counting the suspects, then per
 * row the first, last, growth, slope, grown intervals, verdict and a
 * sparkline of its values (at most 16 characters: the first and the last
 * snapshot, each between the largest of its share; ASCII, or Unicode
 * blocks with the option unicode) and its name (rows by stack: first,
 * leaf first in at most 60 characters, unless the option wide); TOP rows
 * at most (0: all); EXACT: numbers in units, not KiB/MiB/GiB.  After the
 * rows, the snapshots: how many, and a line each for the first, the peak
 * (largest total), jemalloc's last high-water (.u) and final (.f) dumps
 * and the last; with the option list_snapshots, a line per snapshot
 * (tagged [peak], [high-water], [final]) instead.
 * Errors: PROFCONV_EINVAL (not run), PROFCONV_EIO.
 */
int profconv_trend_print(const struct profconv_trend *trend, FILE *fp,
    size_t top, int exact);

/*
 * Write the analysis as one JSON object: "snapshots" (file, inuse_bytes,
 * inuse_objects, time_nanos, high_water, final), "x_axis" (what the
 * verdicts were judged over: "allocated_bytes" or "snapshots"),
 * "peak_snapshot" (its index), "rows" (name, first_bytes, last_bytes,
 * peak_bytes, swing_bytes (max - min), growth_bytes,
 * slope_bytes, grew_intervals, intervals, verdict, suspect,
 * theil_sen_slope, mann_kendall_z, values; with by_thread, thread, the
 * number or null, and thread_name, the text or null, first) and the
 * rule's settings
 * (with the noise floor used).  Errors: PROFCONV_EINVAL (not run),
 * PROFCONV_EIO.
 */
int profconv_trend_write_json(const struct profconv_trend *trend, FILE *fp);

/*
 * The last snapshot minus the first as a new profile *OUT, keeping only
 * the samples whose row is a suspect.
 * Errors: PROFCONV_EINVAL (not run), PROFCONV_ENOMEM.
 */
int profconv_trend_suspects(const struct profconv_trend *trend,
    struct profconv_profile **out);

/* Options of profconv_trend_write_svg(). */
struct profconv_trend_svg_options {
	unsigned int version;		/* PROFCONV_TREND_SVG_OPTIONS_VERSION */
	const char *title;		/* NULL: "Memory over time" */
	const char *subtitle;		/* NULL: what the bands are */
	unsigned int width;		/* pixels, 600..10000; 0: 1200 */
	size_t top;			/* rows with a band of their own, the
					 * first of the table; at most 40;
					 * 0: 19 */
};
#define PROFCONV_TREND_SVG_OPTIONS_VERSION 1
#define PROFCONV_TREND_SVG_OPTIONS_INIT \
	{ PROFCONV_TREND_SVG_OPTIONS_VERSION, NULL, NULL, 0, 0 }

/*
 * Draw the analysis as one self-contained SVG to FP (an embedded script,
 * nothing fetched): a stacked area of the followed type per snapshot, a
 * band for each of the first OPTS->top rows of the table (in its order)
 * and one "other" band holding the rest of each snapshot's total, so the
 * bands add up to the total exactly (rows are disjoint: by function, a
 * row holds the stacks whose innermost frame is that function).  The
 * peak snapshot is marked; the x axis is the snapshots' collection time
 * when every one has a time, in order, else the snapshot number.  A
 * legend gives each band's sparkline, verdict and name; hovering a band
 * shows its figures, Ctrl-F searches bands by regular expression.  Of
 * more than 500 snapshots, 500 are drawn: the first, the last, and the
 * one with the largest total of each stretch between them (the peak
 * among them).  Names longer than 1024 characters are cut.  OPTS may be
 * NULL.
 * Errors: PROFCONV_EINVAL (not run, or bad options), PROFCONV_EFORMAT (a
 * negative value, which cannot be stacked), PROFCONV_EIO, PROFCONV_ENOMEM.
 */
int profconv_trend_write_svg(const struct profconv_trend *trend, FILE *fp,
    const struct profconv_trend_svg_options *opts);

/* --- annotated source: what each line of a function holds ---------------- */

struct profconv_list_options {
	unsigned int version;		/* PROFCONV_LIST_OPTIONS_VERSION */
	/* Frames, names and filters; NULL: the defaults.  Its granularity
	 * is set to lines; its regexes must outlive the call. */
	const struct profconv_view_options *view;
	const char *sample_type;	/* NULL: the default sample type */
	/* Where sources are looked for, as go tool pprof's -source_path
	 * and -trim_path: ':'-separated directories searched with their
	 * parents (NULL: the current directory), and ':'-separated
	 * prefixes cut from the profile's file names (NULL: none, which
	 * lets a search directory's last component stand for one). */
	const char *source_path;
	const char *trim_path;
	/*
	 * The last place a source is looked for, after the search path and
	 * the name the debug information records: called with the build id
	 * (hex) of the binary the function is in ("" when unknown) and that
	 * recorded name; returns 0 with a malloc'd path of a copy of the
	 * source in *PATH_OUT, or a negative PROFCONV_E* value when it has
	 * none.  NULL: not asked.  profconv_debuginfod_find_source() asks
	 * the debuginfod servers.
	 */
	int (*find_source)(const char *build_id, const char *file,
	    char **path_out, void *payload);
	void *payload;
	int html;			/* one HTML page instead of text */
	uint64_t max_source;		/* largest source file read, in
					 * bytes; 0: 64 MiB */
};
#define PROFCONV_LIST_OPTIONS_VERSION 1
#define PROFCONV_LIST_OPTIONS_INIT \
	{ PROFCONV_LIST_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, \
	  0, 0 }

/*
 * Write the annotated source of every function of CUR whose name (in
 * the view's demangle mode) matches REGEX (a POSIX extended regex,
 * searched) to FP, as go tool pprof -list prints it: "Total: T", then
 * per function and source file a "ROUTINE ======================== NAME
 * in FILE" line, the function's flat and cum values and cum's share of
 * the total, and every line of the function's range with its flat and
 * cum values ("." for none) and its text.  The values, totals and
 * percentages are pprof's: a line's cum counts each sample once, the
 * total is the sum of the samples' magnitudes.  Under a line that
 * inlined calls, each inlined function's lines follow with their values,
 * indented, marked "+ NAME FILE:LINE".  A source file that is not found
 * gives the lines that have values, and a note naming where it was
 * looked for.
 *
 * With BASE (of the same sample types), the values are CUR - BASE and
 * the percentages of BASE's total, as pprof's -diff_base.  OPTS->html
 * writes one self-contained HTML page instead (no scripts, nothing
 * fetched).  OPTS may be NULL.  Only files beneath a source root are
 * read: each search directory (the current directory when none is
 * given) and each trim path prefix that is a directory; a name under
 * none, or one whose ".." or symbolic link leads out of its root, is
 * withheld and the note says so.  Errors: PROFCONV_EINVAL (bad regex,
 * one beyond the regex bounds, or options; a BASE whose sample type is
 * not CUR's), PROFCONV_ENOTFOUND (no such sample type; no function
 * matches), PROFCONV_EIO, PROFCONV_ENOMEM.
 */
int profconv_list_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *regex, FILE *fp,
    const struct profconv_list_options *opts);
/*
 * Check REGEX and OPTS as profconv_list_write() would, without a
 * profile, so that a caller can refuse them before reading any input:
 * the options' version, and REGEX within the bounds every regex has
 * (counted repetitions, size, nesting; see LIMITS in libprofconv(3)) and
 * compiling.  Errors: PROFCONV_EINVAL (the message says why).
 */
int profconv_list_check(const char *regex,
    const struct profconv_list_options *opts);

/*
 * Ask the debuginfod servers named by $DEBUGINFOD_URLS (through
 * elfutils' libdebuginfod, loaded when first asked) for the source FILE
 * of the binary whose build id is BUILD_ID (hex): on success *PATH_OUT
 * is a malloc'd path of the copy in debuginfod's cache.  PAYLOAD is
 * unused (the form of profconv_list_options.find_source).
 * Errors: PROFCONV_ENOTFOUND (no build id, no library, no server has
 * it; the message says which), PROFCONV_ENOMEM.
 */
int profconv_debuginfod_find_source(const char *build_id, const char *file,
    char **path_out, void *payload);

/* --- every view in one HTML page ------------------------------------------ */

struct profconv_report_options {
	unsigned int version;		/* PROFCONV_REPORT_OPTIONS_VERSION */
	/* Frames, names and filters of every view; NULL: the defaults.
	 * Its regexes must outlive the call. */
	const struct profconv_view_options *view;
	const char *sample_type;	/* NULL: the default sample type */
	const char *title;		/* NULL: "profconv report" */
	const char *cur_name;		/* the profile's file, shown; NULL */
	const char *base_name;		/* the base's file, shown; NULL */
	size_t top;			/* rows of the tables; 0: 50 */
	size_t list_top;		/* functions with annotated source;
					 * 0: 5 */
	size_t nodecount;		/* call graph nodes; 0: 80 */
	const char *minwidth;		/* flame graph, as
					 * profconv_svg_options; NULL: "0.1" */
	/* Sources, as profconv_list_options. */
	const char *source_path;
	const char *trim_path;
	int (*find_source)(const char *build_id, const char *file,
	    char **path_out, void *payload);
	void *payload;
	/* Version 2.  The Explore tab's call tree leaves out the nodes
	 * whose cum is at most NODE_FRACTION of the total for every sample
	 * type (pprof's -nodefraction; 0: none), and keeps at most
	 * TREE_NODES, the heaviest (0: 20000; the cut rises to it), counting
	 * what it leaves out in their callers. */
	double node_fraction;
	size_t tree_nodes;
	/* The snapshots of a series, for profconv_report_write_trend()'s
	 * Explore tab (NULL: none); see profconv_report_series_new(). */
	struct profconv_report_series *series;
};
#define PROFCONV_REPORT_OPTIONS_VERSION 2
#define PROFCONV_REPORT_OPTIONS_INIT \
	{ PROFCONV_REPORT_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, 0, \
	  0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL }

/*
 * Write one self-contained HTML page of CUR to FP, each view in a tab:
 * a summary (totals per sample type, samples), the top OPTS->top
 * functions by flat value with flat, cum and shares (sorted by a click
 * on a header), the flame graph (profconv_svg_write(), with its zoom
 * and search), the call graph (profconv_graph_write() as SVG, when
 * built with Graphviz's library; a note otherwise) and the annotated
 * source of the OPTS->list_top heaviest functions
 * (profconv_list_write()).  With BASE (same sample types), the views
 * are of the change: the differential flame graph and call graph,
 * listings as pprof's -diff_base, and the comparison table
 * (profconv_diff_print()).  Every script and style is inline, a
 * Content-Security-Policy forbids fetching anything, and every name
 * from the profiles is escaped; the page's size follows OPTS->top,
 * OPTS->minwidth, OPTS->nodecount and OPTS->list_top, not the
 * profile's.  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (no such
 * sample type), the errors of the writers, PROFCONV_EIO, PROFCONV_ENOMEM.
 */
int profconv_report_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, FILE *fp,
    const struct profconv_report_options *opts);

/*
 * The same page for a series analysed by profconv_trend_run(): the
 * picture of profconv_trend_write_svg(), the snapshots and the first
 * OPTS->top rows with their verdicts (a table sorted by a click on a
 * header).  Only OPTS->title and OPTS->top are used.
 * Errors: PROFCONV_EINVAL (not run, bad options), the errors of
 * profconv_trend_write_svg(), PROFCONV_EIO, PROFCONV_ENOMEM.
 */
int profconv_report_write_trend(const struct profconv_trend *trend,
    FILE *fp, const struct profconv_report_options *opts);

/*
 * The snapshots of a series as the Explore tab of
 * profconv_report_write_trend() shows them: each added profile is
 * reduced at once to its values on one call tree shared by all (the
 * view of OPTS->view, the sample type OPTS->sample_type, else
 * inuse_space, space or the default one, as profconv_trend_run()), so
 * the caller may then free it or give it to profconv_trend_add().
 * OPTS (its view options must outlive S) may be NULL.  Errors:
 * PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (no such sample
 * type), the errors of profconv_view_new(), PROFCONV_ENOMEM.
 */
struct profconv_report_series;	/* opaque */
int profconv_report_series_new(struct profconv_report_series **out,
    const struct profconv_report_options *opts);
/* Add PROF (borrowed for the call), named NAME as its trend snapshot. */
int profconv_report_series_add(struct profconv_report_series *s,
    const struct profconv_profile *prof, const char *name);
/* Release S; NULL is a no-op. */
void profconv_report_series_free(struct profconv_report_series *s);

/* --- folded stacks for flame graphs ---------------------------------------- */

struct profconv_flame_options {
	unsigned int version;		/* PROFCONV_FLAME_OPTIONS_VERSION */
	const char *sample_type;	/* NULL: the default sample type */
};
#define PROFCONV_FLAME_OPTIONS_VERSION 2
#define PROFCONV_FLAME_OPTIONS_INIT { PROFCONV_FLAME_OPTIONS_VERSION, NULL }

/*
 * Write the view CUR as folded stacks to FP: "root;...;leaf COUNT" per
 * stack of the view with a nonzero count, in the view's order; ';' and
 * line breaks in names replaced, a stack without frames as "[no stack]".
 * With BASE (a view made with the same options), write
 * "stack BASE_COUNT CUR_COUNT" for every stack of either
 * (flamegraph.pl's differential form).  Negative counts (a delta
 * profile) are refused.
 * Errors: PROFCONV_EINVAL (no CUR or no FP), PROFCONV_ENOTFOUND (no such
 * sample type), PROFCONV_EFORMAT (negative counts), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_flame_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_flame_options *opts);

/* --- pictures: flame-graph SVG and speedscope JSON ------------------------ */


struct profconv_palette_map;	/* function name -> colour, shared */

/* What a frame of a differential flame graph is as wide as: the sum,
 * over the stacks beneath it, of each stack's value in the current
 * profile, in the base, the larger of the two (nothing that existed on
 * either side vanishes), or |change| (pprof's diff flame graph:
 * |increases| + |decreases|; what did not change vanishes). */
enum profconv_diff_width {
	PROFCONV_DIFF_WIDTH_MAX = 0,
	PROFCONV_DIFF_WIDTH_CUR = 1,
	PROFCONV_DIFF_WIDTH_BASE = 2,
	PROFCONV_DIFF_WIDTH_DELTA = 3
};

struct profconv_svg_options {
	unsigned int version;		/* PROFCONV_SVG_OPTIONS_VERSION */
	const char *sample_type;	/* NULL: the view's default type */
	const char *title;		/* NULL: "Flame Graph" ("Icicle Graph"
					 * when inverted) */
	const char *subtitle;		/* NULL: none */
	const char *countname;		/* word after each value; NULL: from
					 * the unit ("bytes", "objects",
					 * "samples", "ns", ...) */
	const char *colors;		/* palette (hot, mem, io, wakeup,
					 * chain, java, js, perl, red, green,
					 * blue, aqua, yellow, purple,
					 * orange); NULL: "hot" */
	unsigned int width;		/* image width in pixels; 0: 1200 */
	unsigned int frame_height;	/* height of one row; 0: 16 */
	const char *minwidth;		/* frames narrower than this many
					 * pixels ("0.1") or this share of
					 * the total ("0.5%") are not drawn;
					 * NULL: "0.1" */
	int inverted;			/* icicle graph: the root at the top */
	int reverse;			/* merge stacks from the leaf end */
	int negate;			/* differential: swap red and blue */
	/* Version 2. */
	int hash;			/* shades from flamegraph.pl's name
					 * hash (--hash) */
	int random;			/* shades at random from random_seed,
					 * per frame (--random) */
	uint64_t random_seed;
	const char *bgcolors;		/* yellow, blue, green, grey or
					 * "#rrggbb"; NULL: by palette */
	const char *font_type;		/* CSS font-family; NULL: "Verdana" */
	double font_size;		/* pixels; 0: 12 */
	double font_width;		/* mean glyph width / font size, to fit
					 * labels; 0: 0.59 */
	const char *nametype;		/* before a frame's title on mouse-over;
					 * NULL: "Function:" */
	const char *notes;		/* in a comment "<!-- NOTES: ... -->" */
	int64_t total;			/* widths and shares out of this
					 * (>= the profile's); 0: its own */
	double factor;			/* displayed values are multiplied by
					 * it; 0: 1 */
	struct profconv_palette_map *palette_map;	/* colours of names
					 * found here kept, of the others
					 * added; NULL: none */
	/* Version 3: the differential graph (with a base view). */
	enum profconv_diff_width diff_width;	/* what a frame's width is */
	int self_diff;			/* colour by the frame's own value's
					 * change (flamegraph.pl), not by its
					 * whole change (callees included) */
	double min_delta;		/* noise floor: changes smaller than
					 * this percentage of the base's
					 * total are drawn as none; 0: none */
	/* Version 4.  When SUBTITLE is NULL, a subtitle of what the picture
	 * shows (beside the differential graph's own): the sample type,
	 * its total in pprof's units and exactly ("inuse_space 4.08MB
	 * (4,280,320 bytes)"; a differential graph's before and after) and
	 * SOURCE. */
	int facts;
	const char *source;		/* the input's name (its file); NULL:
					 * none */
};
#define PROFCONV_SVG_OPTIONS_VERSION 4
#define PROFCONV_SVG_OPTIONS_INIT \
	{ PROFCONV_SVG_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, 0, 0, \
	  NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL, \
	  PROFCONV_DIFF_WIDTH_MAX, 0, 0, 0, NULL }

/*
 * A palette map: function names and their colours, read from and
 * written to flamegraph.pl's palette.map text ("name->rgb(r,g,b)" lines,
 * sorted by name), so that several graphs give one function one colour
 * whatever the palette options.  profconv_svg_write adds the names it
 * colours that the map lacks.  read takes the lines of FP into MAP, a
 * later line for a name replacing an earlier one (a name may hold "->":
 * the colour follows the last one); write prints the whole map, sorted
 * bytewise by name.  A name holding a line break cannot be written and
 * is not kept.
 * Errors: PROFCONV_EFORMAT (a bad line, with its number), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_palette_map_new(struct profconv_palette_map **out);
int profconv_palette_map_read(struct profconv_palette_map *map, FILE *fp);
int profconv_palette_map_write(const struct profconv_palette_map *map,
    FILE *fp);
void profconv_palette_map_free(struct profconv_palette_map *map);

/*
 * Write CUR as a self-contained flame-graph SVG to FP: one rectangle per
 * node of the merged stack tree (siblings in name order), each with a
 * <title> giving its full name, its value with the unit and its share of
 * the total; an embedded script (no external resource) zooms on click and
 * searches (Ctrl-F); colours are a function of the function name only, so
 * one function has one colour in every graph.  Frames narrower than
 * OPTS->minwidth are left to their parent.  With BASE (a view of an older
 * profile of the same kind) the graph is differential: the stacks of
 * both, those only in BASE too; widths as OPTS->diff_width says; each
 * frame red when its whole value (callees included; its own value with
 * OPTS->self_diff, as flamegraph.pl) grew, blue when it shrank, purple
 * when it is new, deeper for larger changes on one scale symmetric about
 * zero, white under the noise floor OPTS->min_delta; the change of a
 * frame too narrow to draw counts in its parent's, so the root's is the
 * profile's; titles in pprof's form "CHANGE (PERCENT) | BEFORE -> AFTER
 * | NAME", percentages of BASE's total; a subtitle naming the widths and
 * a legend.  OPTS may be NULL.  Negative values (a delta profile) are
 * refused.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (no such
 * sample type), PROFCONV_EFORMAT (negative values), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_svg_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_svg_options *opts);

struct profconv_speedscope_options {
	unsigned int version;		/* PROFCONV_SPEEDSCOPE_OPTIONS_VERSION */
	const char *sample_type;	/* NULL: one profile per sample type */
	const char *name;		/* the file's "name"; NULL: none */
};
#define PROFCONV_SPEEDSCOPE_OPTIONS_VERSION 1
#define PROFCONV_SPEEDSCOPE_OPTIONS_INIT \
	{ PROFCONV_SPEEDSCOPE_OPTIONS_VERSION, NULL, NULL }

/*
 * Write VIEW in speedscope's file format (JSON, $schema
 * https://www.speedscope.app/file-format-schema.json) to FP: the view's
 * frames (name, file, line) shared by one "sampled" profile per sample
 * type (or only OPTS->sample_type), each stack root first with its value
 * as the weight, in the type's unit (bytes and time units as such, others
 * "none"); the default sample type is the one shown first.  Stacks with
 * a zero value are left out.  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (no such
 * sample type), PROFCONV_EFORMAT (negative values), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_speedscope_write(const struct profconv_view *view, FILE *fp,
    const struct profconv_speedscope_options *opts);

/* --- call graphs: pprof's graph as DOT, SVG, PNG or PDF ------------------ */

enum profconv_graph_format {
	PROFCONV_GRAPH_DOT = 0,		/* Graphviz DOT text */
	PROFCONV_GRAPH_SVG = 1,		/* laid out by Graphviz's library */
	PROFCONV_GRAPH_PNG = 2,
	PROFCONV_GRAPH_PDF = 3,
	/* pprof -callgrind: the graph by address, untrimmed, in
	 * callgrind's format (KCachegrind, callgrind_annotate); best from
	 * a view by address with inlined calls (pprof forces both) */
	PROFCONV_GRAPH_CALLGRIND = 4
};

struct profconv_graph_options {
	unsigned int version;		/* PROFCONV_GRAPH_OPTIONS_VERSION */
	const char *sample_type;	/* NULL: the view's default type */
	enum profconv_graph_format format;
	size_t nodecount;		/* at most this many nodes (nodelets
					 * count too); 0: all */
	double nodefraction;		/* nodes whose |cum| is under this
					 * share of the total go */
	double edgefraction;		/* and edges under this share */
	const char *title;		/* the graph's name; NULL: the base
					 * name of the main mapping */
	/* Version 2. */
	int call_tree;			/* nonzero: pprof's -call_tree, a node
					 * per calling context (the path from
					 * the root), for DOT, pictures and
					 * callgrind */
	const char *trim_path;		/* pprof's -trim_path: ':'-separated
					 * prefixes cut off the file names
					 * shown ("/proc/self/cwd/" always
					 * is); NULL: none */
};
#define PROFCONV_GRAPH_OPTIONS_VERSION 2
#define PROFCONV_GRAPH_OPTIONS_INIT \
	{ PROFCONV_GRAPH_OPTIONS_VERSION, NULL, PROFCONV_GRAPH_DOT, 80, \
	  0.005, 0.001, NULL, 0, NULL }

/*
 * Check OPTS as profconv_graph_write() would, before any input is read:
 * the version, the fractions, and that a picture format can be drawn
 * (SVG, PNG and PDF need Graphviz's library, libgvc, found when profconv
 * was built).  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_EUNSUPPORTED (no
 * libgvc: only DOT).
 */
int profconv_graph_options_check(const struct profconv_graph_options *opts);

/*
 * Write the call graph of CUR to FP as google/pprof's graph outputs draw
 * it (pprof -dot): one node per function of the view (functions without
 * a name one per module, "[libfoo.so]"), each labelled with its name
 * split at "::" and ".", its flat and cumulative values and their shares
 * of the total; edges weighted by the value that went through each call,
 * dotted where nodes between were left out, marked "(inline)" where the
 * call was inlined; string labels and the numeric "bytes" label as
 * nodelets; pprof's cutoffs (OPTS->nodefraction of the total for nodes
 * and tags, OPTS->edgefraction for edges), its entropy order and
 * OPTS->nodecount; pprof's colours, font sizes and legend.  Values are
 * written in the unit pprof picks (B, kB, MB...; ns, ms, s...).
 * With BASE (a view of an older profile, made with the same options),
 * the graph is of CUR minus BASE, as pprof -diff_base draws it: signed
 * values, red where CUR grew and green where it shrank, shares of BASE's
 * total.  With a picture format the DOT is laid out and drawn in-process
 * by Graphviz's library (no "dot" program is run); an SVG gets an
 * embedded script to pan (drag) and zoom (wheel) that needs no other
 * file.  Graphviz's library is not thread-safe: draw pictures from one
 * thread at a time (DOT has no such limit).  OPTS may be NULL.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND (no such
 * sample type), PROFCONV_EUNSUPPORTED (a picture without libgvc),
 * PROFCONV_EFORMAT (Graphviz refused the graph), PROFCONV_EIO,
 * PROFCONV_ENOMEM.
 */
int profconv_graph_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_graph_options *opts);

/* --- printing ------------------------------------------------------------- */

struct profconv_print_options {
	unsigned int version;		/* PROFCONV_PRINT_OPTIONS_VERSION */
	int summary;			/* nonzero: totals and top lists only */
	size_t top;			/* summary: how many stacks/functions */
	/* Version 2.  Names and frames of the summary and of function names
	 * in the dump; NULL: the defaults. */
	const struct profconv_view_options *view;
	/* Summary: the sample type the top lists rank by; NULL: the
	 * default one. */
	const char *sample_type;
	/* Version 3.  Summary: rank functions by their cumulative value
	 * (pprof's -top -cum); 0: by flat value (pprof's -top). */
	int by_cum;
	/* Version 4.  Instead of the dump or the summary, one of go tool
	 * pprof's label reports of the view's samples, by SAMPLE_TYPE:
	 * TRACES (pprof's -traces), every sample's labels and stack, leaf
	 * first, with its value; TAGS (pprof's -tags), each label key's
	 * values with their totals and shares, numeric values scaled.
	 * UNIT: the unit values are shown in, as pprof's -unit; NULL: the
	 * smallest that keeps a value at 1 or more ("minimum"). */
	int traces;
	int tags;
	const char *unit;
	/* Version 5.  TREE: go tool pprof's -tree report of the view by
	 * SAMPLE_TYPE: each node of its call graph (by flat value, or by
	 * cum with BY_CUM) with its callers above and its callees below.
	 * NODECOUNT (0: all), NODEFRACTION and EDGEFRACTION trim the graph
	 * as pprof's options of the same names.  PEEK, when not NULL (a
	 * POSIX extended regular expression, no TREE needed): the report
	 * of the nodes whose names match it only, the graph untrimmed (the
	 * three trims ignored), as pprof's -peek; PROFCONV_ENOTFOUND when
	 * none matches. */
	int tree;
	const char *peek;
	size_t nodecount;
	double nodefraction, edgefraction;
	/* Version 6.  COMMENTS: instead of any other report, the profile's
	 * free-text comments, one a line, "#" ones too (pprof's
	 * -comments). */
	int comments;
	/* Version 7.  TEXT: go tool pprof's -text (-top) table of the view
	 * by SAMPLE_TYPE: a row per node of the call graph pprof's text
	 * reports draw (trimmed by NODECOUNT, NODEFRACTION and
	 * EDGEFRACTION as TREE is; pprof's own default for -text is a
	 * NODECOUNT of 0), by flat value or, with BY_CUM, by cum: flat,
	 * flat%, sum%, cum, cum%, the name and "(inline)" where every call
	 * into it was inlined ("(partial-inline)" where some were). */
	int text;
};
#define PROFCONV_PRINT_OPTIONS_VERSION 7
#define PROFCONV_PRINT_OPTIONS_INIT \
	{ PROFCONV_PRINT_OPTIONS_VERSION, 0, 10, NULL, NULL, 0, 0, 0, NULL, \
	  0, NULL, 80, 0.005, 0.001, 0, 0 }

/*
 * Print PROF to FP as stable, diffable text: header fields, sample types,
 * samples with values, labels and location ids, locations with their lines,
 * functions (named in the view's demangle mode) and mappings.  With
 * OPTS->summary, print the totals per sample type, then the top stacks
 * and functions of the view by the chosen (or default) sample type
 * instead; with OPTS->traces, OPTS->tags, OPTS->tree, OPTS->peek or
 * OPTS->text, that report of the view (profconv-show(1), --traces,
 * --tags, --tree, --peek and --text, says its format); with
 * OPTS->comments, the comments.
 * Errors: PROFCONV_EINVAL (bad options), PROFCONV_ENOTFOUND
 * (no such sample type), PROFCONV_EIO, PROFCONV_ENOMEM.
 */
int profconv_profile_print(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts);

/*
 * The rows OPTS->text would print of PROF as a new profile in *OUT (free
 * with profconv_profile_free()), as go tool pprof's -topproto writes it:
 * sample types "cum" and "flat" in the unit the table shows values in
 * (values cut to integers in it), one sample per row at a location of
 * its own (the row's address by address, else 0; no mapping) with one
 * line of the row's function and line; period, time and duration of PROF.  OPTS->text and the other
 * reports' fields are not read.  Errors: PROFCONV_EINVAL (bad options),
 * PROFCONV_ENOTFOUND (no such sample type), PROFCONV_ENOMEM.
 */
int profconv_profile_top(struct profconv_profile **out,
    const struct profconv_profile *prof,
    const struct profconv_print_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* PROFCONV_H */
