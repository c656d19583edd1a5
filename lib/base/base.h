/* SPDX-License-Identifier: MIT */
/*
 * base.h - what every part of libprofconv uses and that knows nothing of
 * profiles: errors, threads, options versions, quoting, growable arrays,
 * hashes, saturating arithmetic, compressed-stream magic numbers.
 * May include: libc and profconv.h (for the error codes) only.
 */
#ifndef PROFCONV_BASE_H
#define PROFCONV_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profconv.h"
#include "base/bounds.h"

#define PC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* -1, 0 or 1 as A sorts before, with or after B: one key of a
 * comparison, without the overflow of a subtraction. */
#define PC_CMP(a, b) (((a) > (b)) - ((a) < (b)))
/*
 * For a helper whose only effect is __builtin_prefetch(): GCC 12 counts
 * such a function as one without effect (its analysis of what a call
 * changes) and drops the calls, unless it was inlined before.  So it is.
 */
#define PC_PREFETCHER __attribute__((always_inline)) inline

/* qsort's comparison of two uint64_t. */
static inline int
profconv__cmp_u64(const void *a, const void *b)
{
	return PC_CMP(*(const uint64_t *)a, *(const uint64_t *)b);
}

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
/* The usual failure of a write to a stream: PROFCONV_EIO, "write error: "
 * and errno's text (EIO's when errno says nothing). */
int profconv__write_error(void);

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
 * with.  Copy the caller's SRC into DST (a struct of the current layout
 * L describes) as that version laid it out, the fields appended since
 * keeping their defaults; SRC NULL: the defaults.  Version 0 (an
 * uninitialised struct) and versions newer than this library are
 * refused with PROFCONV_EINVAL.  The layouts are in versions.c.
 */
struct pc_options_layout {
	const char *what;		/* "read", "view"... for the message */
	unsigned int oldest;		/* the oldest version still read */
	const size_t *ends;		/* [v - oldest]: where version v ends */
	size_t n;			/* versions oldest .. oldest + n - 1 */
	const void *defaults;		/* the current _INIT */
	size_t size;			/* sizeof the current struct */
};
int profconv__options_take(void *dst, const void *src,
    const struct pc_options_layout *l);
extern const struct pc_options_layout profconv__options_read,
    profconv__options_write, profconv__options_view, profconv__options_diff,
    profconv__options_diff_print, profconv__options_trend,
    profconv__options_flame, profconv__options_svg,
    profconv__options_speedscope, profconv__options_print,
    profconv__options_symbolize, profconv__options_trend_svg,
    profconv__options_graph, profconv__options_list,
    profconv__options_report;

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

/*
 * Arrays of hundreds of megabytes fill page by page, a fault each 4 KB:
 * ask the kernel for huge pages under the block P (LEN bytes) instead,
 * where it hands them out on request (transparent huge pages in madvise
 * mode).  A hint only: nothing changes when it is not taken, errno
 * included.  Blocks under 8 MB are left as they are.
 * profconv__malloc_big() and profconv__calloc_big() are malloc() and
 * calloc() with the hint.  profconv__grow() moves an array that grows
 * to 8 MB or more into such a block (copied, not realloc()ed: the copy
 * itself is what needs the huge pages).
 */
void profconv__huge_pages(void *p, size_t len);
/*
 * The whole pages inside the block P (LEN bytes) given back to the
 * system, in steps of a huge page (2 MB), so that a block in huge pages
 * is not split into small ones: a block whose bytes are read no more,
 * though it is not freed yet.  They read as zeros after.  Nothing else
 * changes, errno included.  Returns where the pages given back end (at
 * most P + LEN): the start of the next such call on the same block,
 * which gives back the step this one left.
 */
void *profconv__pages_give_back(void *p, size_t len);

/* The strings at A and B (each a char *) in strcmp()'s order: qsort()
 * and bsearch() of arrays of strings. */
int profconv__by_str(const void *a, const void *b);
void *profconv__malloc_big(size_t size);
void *profconv__calloc_big(size_t n, size_t size);

/* ... with the check that there is room already made here, where the
 * readers call it once per line or sample. */
static inline int
pc_grow(void **ptr, size_t *cap, size_t len, size_t n, size_t size)
{
	if (len <= *cap && n <= *cap - len)
		return 0;
	return profconv__grow(ptr, cap, len, n, size);
}

#define PC_GROW(ptr, cap, len, n) \
	pc_grow((void **)&(ptr), &(cap), (len), (n), sizeof(*(ptr)))

/* Room for N elements in *PTR, the ones it adds zeroed: a table indexed
 * by id that grows to hold id N - 1, its empty slots 0. */
int profconv__grow_zeroed(void **ptr, size_t *cap, size_t n, size_t size);
#define PC_GROW_ZEROED(ptr, cap, n) \
	profconv__grow_zeroed((void **)&(ptr), &(cap), (n), sizeof(*(ptr)))

/* --- searching (intervals.c) --------------------------------------------- */

/*
 * How many of the N elements at V (SIZE bytes each, sorted by a uint64_t
 * key OFF bytes into each) have a key at most X: the index just past the
 * last of them.  PC_UPPER_BOUND names the array and its key field, which
 * must be 8 bytes wide (a narrower one does not compile).
 */
size_t profconv__upper_bound(const void *v, size_t n, size_t size,
    size_t off, uint64_t x);
#define PC_UPPER_BOUND(arr, n, field, x) \
	((void)sizeof(char[sizeof((arr)->field) == sizeof(uint64_t) ? \
	    1 : -1]), \
	profconv__upper_bound((arr), (n), sizeof(*(arr)), \
	    offsetof(__typeof__(*(arr)), field), (x)))

/* --- selecting (select.c) ------------------------------------------------- */

/*
 * The K-th smallest (from 0) of the N doubles at X (K < N; no NaN): X is
 * reordered so that it is at X[K], what is below it before and what is
 * above it after.  In linear time on average; past ROUNDS partitions
 * (profconv__select_kth: twice log2 N and 16), the range left is sorted,
 * so that no order of the values costs more than a sort.
 */
double profconv__select_kth(double *x, size_t n, size_t k);
double profconv__select_kth_rounds(double *x, size_t n, size_t k,
    size_t rounds);

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

/* UTF-8 code points in the LEN bytes at S: the bytes that do not
 * continue a sequence (for text known to be valid UTF-8). */
static inline size_t
profconv__utf8_count(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* Bytes of the first K code points of the LEN bytes at S (LEN when it
 * holds fewer), so that a cut there splits no sequence. */
static inline size_t
profconv__utf8_prefix(const char *s, size_t len, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n++ == k)
			break;
	return i;
}

/* --- bytes for people ---------------------------------------------------- */

/*
 * The one rule for bytes a person reads: binary units, B, KiB, MiB, GiB,
 * TiB, PiB and EiB, the largest in which the magnitude of V is at least
 * 1 (B below 1024).  profconv__bytes_power() is that unit as a power of
 * 1024, profconv__bytes_unit() its name with *X the value in it; each
 * writer picks its precision and spacing ("1.50 MiB" in the tables,
 * "1.5 MiB" in pictures).  pprof's own units ("MB" of 2^20 bytes) are
 * another rule, graph_measure.c's.
 */
static inline unsigned
profconv__bytes_power(double v)
{
	unsigned k = 0;

	while ((v >= 1024 || v <= -1024) && k < 6) {
		v /= 1024;
		k++;
	}
	return k;
}

static inline const char *
profconv__bytes_unit_name(unsigned power)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB",
		"TiB", "PiB", "EiB" };

	return units[power < 6 ? power : 6];
}

static inline const char *
profconv__bytes_unit(int64_t v, double *x)
{
	unsigned k = profconv__bytes_power((double)v), i;

	/* Dividing by powers of two is exact: as one division by 1024^k. */
	*x = (double)v;
	for (i = 0; i < k; i++)
		*x /= 1024;
	return profconv__bytes_unit_name(k);
}

/* --- paths (path.c) ----------------------------------------------------- */

/* PATH made lexically clean as Go's filepath.Clean does ("./a/../b" is
 * "b", "" is "."), malloc'd; NULL when out of memory.  The one rule for
 * every path pprof would clean: the graph's file keys, list's sources. */
char *profconv__clean_path(const char *path);
/* The next element of a ':'-separated LIST (Go's SplitList: "" has none,
 * "a::b" has an empty one) into *EL and *LEN; false at the end. */
bool profconv__path_next_elem(const char **list, const char **el,
    size_t *len);
/* pprof's trimPath: where in PATH the name shown starts, after the
 * first of TRIM's ':'-separated prefixes it has (or, with no TRIM,
 * after "/BASE/" of SEARCH's first directory found in it), then after
 * "/proc/self/cwd/" (Bazel's sandbox); PATH itself when none. */
const char *profconv__trim_path(const char *path, const char *trim,
    const char *search);

#endif /* PROFCONV_BASE_H */
