/* SPDX-License-Identifier: MIT */
/*
 * view.h - the view's private parts: the drop/keep-frames pruner
 * (prune.c), the stack sort (stacksort.c), the view's internals
 * (view.c) and the one row engine (rows.c).
 * May include: base/, model/model.h, names/.
 */
#ifndef PROFCONV_VIEW_INTERNAL_H
#define PROFCONV_VIEW_INTERNAL_H

#include <regex.h>

#include "model/model.h"

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
	uint8_t *cut_fn;	/* per function id: cut as a wrapper found
				 * by its shape (wrappers.c); NULL: none */
};

/* 0 when RX is within the PC_RX_* bounds (bounds.h); else -1 with the
 * reason in WHY. */
int profconv__rx_check(const char *rx, char *why, size_t whylen);
/*
 * The one way a user's regular expression is compiled (POSIX extended,
 * no subexpressions), within the bounds above: RX (NULL: none, *OK
 * false) as the WHAT expression into RE, *OK true when compiled.
 * Errors: PROFCONV_EINVAL, "invalid WHAT expression 'RX': why".
 */
int profconv__view_compile(regex_t *re, const char *rx, bool *ok,
    const char *what);


/* ENABLED false: a pruner that prunes nothing.  WRAPPERS: in a profile
 * that counts allocations, cut the well-known allocation wrappers too
 * (profconv__wrappers_rx); else not even when its drop_frames has them. */
int profconv__pruner_init(struct pc_pruner *p,
    const struct profconv_profile *prof, bool enabled, bool wrappers);
void profconv__pruner_free(struct pc_pruner *p);
/* Index (leaf first) of the first location of STACK that stays. */
size_t profconv__prune_stack(struct pc_pruner *p, struct pc_stack stack,
    size_t n);
/* How many innermost lines location ID loses to a match in its middle. */
uint32_t profconv__prune_skip(struct pc_pruner *p, uint32_t id);

/*
 * Find the allocation wrappers of P's profile by their shape (the rule
 * of PC_WRAP_* in bounds.h, profconv_wrapper_rule()) and make P cut them
 * too.  *NAMES gets their function names' string indexes, largest
 * first, *N how many (0 and NULL: none; free *NAMES).  Nothing is found
 * unless P is active and its profile counts allocations.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__find_wrappers(struct pc_pruner *p, uint32_t **names,
    size_t *n);

/* --- labels: tag filters and pseudo-frames (labels.c) --------------------- */

/* What a view does with labels (NULL when nothing): --tagfocus,
 * --tagignore, --tagroot and --tagleaf as go tool pprof's. */
struct pc_labels;
/* The labels part of options O for PROF (NULL: only check O; *OUT is
 * NULL when O asks for nothing).  Errors: PROFCONV_EINVAL (a bad
 * expression or range, said in one line), PROFCONV_ENOMEM. */
int profconv__labels_new(struct pc_labels **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *o);
void profconv__labels_free(struct pc_labels *l);
/* Do sample SI's labels pass --tagfocus and --tagignore?  (L NULL:
 * yes.) */
bool profconv__labels_keep(struct pc_labels *l, size_t si);
/* Which of PROFCONV_FILTER_TAGFOCUS, _TAGIGNORE, _TAGROOT and _TAGLEAF
 * found a sample so far (in profconv__labels_keep() and
 * profconv__labels_pseudo_text()). */
unsigned profconv__labels_matched(const struct pc_labels *l);
/* Does L keep only some samples (--tagfocus, --tagignore)? */
bool profconv__labels_filter(const struct pc_labels *l);
/* Pseudo-frames per sample, of which *NROOT at the root. */
size_t profconv__labels_pseudo(const struct pc_labels *l, size_t *nroot);
/* The text (*LEN bytes, valid until the next call) of pseudo-frame K
 * of sample SI, the root ones first, and the label KEY it shows. */
int profconv__labels_pseudo_text(struct pc_labels *l, size_t si, size_t k,
    const char **text, size_t *len, const char **key);

/* The thread number and name in TEXT (LEN bytes), a thread frame of
 * split_threads ("thread N (NAME)"): *HAS_UID and *UID, and where the
 * name lies (*NAME_LEN 0: none).  -1 when TEXT is no such frame
 * ("[no thread]"). */
int profconv__thread_parse(const char *text, size_t len, int64_t *uid,
    bool *has_uid, size_t *name_at, size_t *name_len);
/* Has some sample of PROF a "thread" or "thread_name" label? */
bool profconv__labels_has_thread(const struct profconv_profile *prof);

/* pprof's numLabelUnits over every sample of PROF: *OUT[K] is the unit
 * of the numeric label key string K (its first unit in the profile, or
 * for a key that never has one, "bytes" for "request" and "alignment"
 * and the key itself for the others), NULL for a string that is no
 * numeric key; free *OUT.  Errors: PROFCONV_ENOMEM. */
int profconv__label_units(const struct profconv_profile *prof,
    const char ***out);
/* Is LB a numeric label, as pprof reads one (a string label has a
 * string; a label of number 0 without a unit is none)? */
bool profconv__label_numeric(const struct pc_label *lb);

/* --tagshow and --taghide: which label keys are printed. */
struct pc_tagnames {
	regex_t show, hide;
	bool has_show, has_hide;
};
/* Errors: PROFCONV_EINVAL (an expression that does not compile). */
int profconv__tagnames_init(struct pc_tagnames *t,
    const struct profconv_view_options *o);
bool profconv__tagnames_keep(const struct pc_tagnames *t, const char *key);
void profconv__tagnames_free(struct pc_tagnames *t);

/* --- leak suppressions (suppress.c) -------------------------------------- */

struct pc_suppress;
/* As profconv__labels_new(), for O's suppressions; errors name the file
 * and line. */
int profconv__suppress_new(struct pc_suppress **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *o);
void profconv__suppress_free(struct pc_suppress *sp);
/* Is sample SI suppressed?  Counted against the suppression that hid
 * it.  (SP NULL: no.) */
bool profconv__suppress_sample(struct pc_suppress *sp, size_t si);
/*
 * The same in two steps, for samples looked at on several threads:
 * after profconv__suppress_prepare() has matched every location,
 * profconv__suppress_find() only reads (SP may be NULL), and gives the
 * suppression hiding sample SI plus one, or 0; profconv__suppress_hit()
 * counts it, in sample order (the sums saturate).
 */
void profconv__suppress_prepare(struct pc_suppress *sp);
size_t profconv__suppress_find(const struct pc_suppress *sp, size_t si);
void profconv__suppress_hit(struct pc_suppress *sp, size_t k, size_t si);
size_t profconv__suppress_count(const struct pc_suppress *sp);
void profconv__suppress_get(const struct pc_suppress *sp, size_t i,
    struct profconv_suppression *out);

/* --- sorting stacks (stacksort.c) ---------------------------------------- */

/*
 * Items 0..N-1, each a sequence of frame ids (SEQ gives item K's and its
 * length), ordered by their frames' keys: frame F counts CONT[F] where
 * another frame follows it and END[F] where it is the last, keys in
 * 1..MAXKEY; a sequence before every longer one it begins; equal ones
 * by item number.  REVERSE reads each sequence from its end.
 */
struct pc_seqsort {
	size_t n;
	struct pc_stack (*seq)(const void *arg, size_t k, size_t *len);
	const void *arg;
	const uint32_t *cont, *end;
	uint32_t maxkey;
	bool reverse;
	unsigned int jobs;
	/* Unless NULL: the sort's two work arrays, of *KEEP_SIZE bytes
	 * each, are handed back here for the caller to reuse or free, not
	 * freed (NULL when it made none). */
	void **keep;
	size_t *keep_size;
};
/* ORDER[I] = the item in place I, LENS[I] (unless NULL) its length (at
 * most UINT32_MAX), and SAME[I] (unless NULL) 1 when its keys are those
 * of the item in place I - 1, else 0: items with equal keys are
 * together, in item order. */
int profconv__seqsort(const struct pc_seqsort *s, uint32_t *order,
    uint32_t *lens, uint8_t *same);

/* --- views and rows (view.c, rows.c) ------------------------------------------ */

/*
 * A view for readers that only add its stacks' values up (rows,
 * listings): the same frames, values and totals as profconv_view_new()'s,
 * but a stack per shown sample, in the samples' order, neither sorted
 * nor merged, which saves the sort.  Only when each sample type's values,
 * as magnitudes, add up below INT64_MAX (so that no sum depends on the
 * grouping); otherwise the view is profconv_view_new()'s.  TAKE: as
 * profconv__view_new_last()'s.
 */
int profconv__view_new_unmerged(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool take);

/*
 * profconv__view_new_unmerged()'s view of only the samples that have a
 * frame whose function (profconv_view_frame()'s function) is one of the
 * N NAMES: a reader that adds up those functions' frames, as the
 * listing does, reads the same sums from it, and a big profile's other
 * samples are never laid out.  Its totals (and so relative percentages)
 * are those of the samples kept.  NAMES are read while the view is made,
 * not kept.  Not with OPTS's focus (PROFCONV_EINVAL).
 */
int profconv__view_new_unmerged_with(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, const char *const *names,
    size_t n);

/*
 * A view for readers of each stack's leaf frame alone (rows by function
 * or line without cum): profconv__view_new_unmerged()'s, its frames,
 * totals, filters and suppressions the same, but each of its stacks
 * holds only its leaf frame (none when it has none), so that a big
 * profile's frames are never laid out.  When that view would be
 * profconv_view_new()'s, so is this one, whole stacks and all.
 */
int profconv__view_new_leaves(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts);
/*
 * profconv_view_new()'s view, or profconv__view_new_leaves()'s when
 * LEAVES; when TAKE (the last view a public call makes of PROF, not
 * called from another), it takes PROF's stacks (as
 * profconv_view_new_taking()) if their owner let them go
 * (profconv_profile_set_stacks_disposable()).
 */
int profconv__view_new_last(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool leaves, bool take);
/* Is VIEW such a view (its stacks' leaves alone)? */
bool profconv__view_is_leaves(const struct profconv_view *view);
/* Is VIEW a stack per shown sample, in the samples' order (its frames
 * then lie in its stacks' order)? */
bool profconv__view_is_unmerged(const struct profconv_view *view);

/*
 * profconv_view_new()'s view of PROF by line (OPTS's granularity must be
 * PROFCONV_BY_LINE), which says whether it is also the view by function
 * of the same options: when no frame's text holds a file and line (the
 * profile has no source lines: not symbolized, or binaries without
 * debug information), the two views have the same frames, numbered
 * alike, the same stacks and values (profconv__view_is_by_function(),
 * profconv__view_by_function()).  TAKE: it takes PROF's stacks when
 * their owner let them go (profconv_profile_set_stacks_disposable()),
 * but only when it is also the view by function; else PROF keeps them,
 * for that view.
 */
int profconv__view_new_by_line(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool take);
bool profconv__view_is_by_function(const struct profconv_view *view);
/*
 * The view by function of LV's profile and options, when LV
 * (profconv__view_new_by_line()'s) is it too: LV's frames, stacks and
 * values, not copied; LV must outlive it.  Errors: PROFCONV_EINVAL (LV
 * is not), PROFCONV_ENOMEM.
 */
int profconv__view_by_function(struct profconv_view **out,
    const struct profconv_view *lv);

/*
 * The view by function of LV's profile and options, made from LV
 * (profconv__view_new_by_line()'s, when profconv__view_is_coarse() says
 * it can be: a view by line with no name filter, whose values add up in
 * any order), in two steps, so that LV can be read between them and is
 * never held beside the sort of the stacks by function:
 * profconv__view_coarsen() gives the view's frames, totals and each
 * sample's frames by function, but LV's stacks, not merged yet (readers
 * that only add values up, such as rows and listings, read the same sums
 * from it), and borrows LV's strings, stacks and values;
 * profconv__view_coarsen_finish() then takes them, frees LV, and merges
 * the stacks: the view is profconv_view_new()'s by function, frame for
 * frame and stack for stack.  Errors: PROFCONV_EINVAL (LV is not such a
 * view; VIEW not made from it), PROFCONV_ENOMEM (then VIEW is freed by
 * the caller, LV is freed by profconv__view_coarsen_finish() always).
 */
bool profconv__view_is_coarse(const struct profconv_view *lv);
int profconv__view_coarsen(struct profconv_view **out,
    struct profconv_view *lv);
int profconv__view_coarsen_finish(struct profconv_view *view,
    struct profconv_view *lv);

/* How a stack without frames is named in every writer. */
#define PC_EMPTY_STACK "[no stack]"

/* The stack of VIEW that sample I of its profile went to, plus one; 0
 * when the sample is not shown (all zero, filtered out). */
size_t profconv__view_sample_stack(const struct profconv_view *view,
    size_t i);

/*
 * A stack of a view as the library reads it: its frame ids, root first,
 * in the width the view holds them (base/ids.h, read with pc_stack_at()),
 * how many, and its values (NULL when the profile has no sample types).
 */
struct pc_view_stack {
	struct pc_stack frames;
	size_t nframes;
	const int64_t *values;
};
/* Stack I of VIEW into *OUT, as profconv_view_stack() (PROFCONV_EINVAL
 * past the last), and the frames of a stack further on asked for: for a
 * walk of the stacks in order. */
int profconv__view_stack(const struct profconv_view *view, size_t i,
    struct pc_view_stack *out);
/* One byte per frame of stack I of VIEW (NULL when it has none, or when
 * no frame of VIEW is one): nonzero where the frame is an inlined line
 * of the location its caller, the frame before it, belongs to (pprof's
 * inline edges). */
const uint8_t *profconv__view_stack_inline(const struct profconv_view *view,
    size_t i);

/* The filters VIEW was made with, as pprof's legend lists them: one
 * "key=value" string per filter given (focus, ignore, hide, show,
 * show_from, tagfocus, tagignore, tagshow, taghide, in that order, with
 * pprof's names), into *OUT; their count.  Cannot fail. */
#define PC_VIEW_FILTERS 9
size_t profconv__view_filters(const struct profconv_view *view,
    const char *const **out);
/* The label keys VIEW's --tagshow and --taghide keep. */
const struct pc_tagnames *profconv__view_tagnames(
    const struct profconv_view *view);
/* What a frame of VIEW is: a function, a line or an address. */
enum profconv_granularity profconv__view_granularity(
    const struct profconv_view *view);
/* The first line of frame ID's function (0: unknown; no checks). */
int64_t profconv__view_frame_start_line(const struct profconv_view *view,
    uint32_t id);
/* By address (PROFCONV_BY_ADDRESS): the location frame ID stands for,
 * and into *FIRST the first of its lines the frame keeps (the lines
 * FIRST..nlines-1, outermost last: all but those pruned, only the
 * outermost with no_inline; nlines: none); 0 for a frame of no location
 * (a label's, a thread's) and in other granularities. */
uint32_t profconv__view_frame_location(const struct profconv_view *view,
    uint32_t id, uint32_t *first);
/* The demangle mode VIEW names functions in. */
enum profconv_demangle profconv__view_demangle(
    const struct profconv_view *view);

/* The threads the view's options ask for (0: one per CPU), which the
 * writers that read it use too. */
unsigned int profconv__view_jobs(const struct profconv_view *view);
/* The text of frame ID of VIEW (no checks). */
/* profconv_view_sample_index() before any view: the index of sample
 * type TYPE of PROF (NULL: its default) into *OUT; PROFCONV_ENOTFOUND. */
int profconv__sample_index(const struct profconv_profile *prof,
    const char *type, size_t *out);
const char *profconv__view_frame_text(const struct profconv_view *view,
    uint32_t id);
/* The values of stack I of VIEW (no checks), without reading (or
 * prefetching) its frames. */
const int64_t *profconv__view_stack_values(const struct profconv_view *view,
    size_t i);
/*
 * For a walk of the stacks in no order (the samples' order, say), where
 * profconv_view_stack()'s look at the stacks further on costs a cache
 * miss for nothing: stack I (no checks) into *OUT without it, and two
 * hints, to be given a few stacks ahead of the read, the first further
 * ahead than the second: where stack I lies, then its frames (and
 * their inline bytes).
 */
void profconv__view_stack_at(const struct profconv_view *view, size_t i,
    struct pc_view_stack *out);
void profconv__view_prefetch_stack(const struct profconv_view *view,
    size_t i);
void profconv__view_prefetch_frames(const struct profconv_view *view,
    size_t i);
/* How many frames stack I of VIEW has (no checks), without reading (or
 * prefetching) them. */
size_t profconv__view_stack_depth(const struct profconv_view *view, size_t i);

/*
 * The one aggregation engine: rows keyed by the text writers show, each
 * with WIDTH int64 columns.  Views add into it at a column offset, so
 * several profiles share one table.
 */
struct pc_rows;
/* PC_ROWS_THREAD_*: as PC_ROWS_FUNCTION and PC_ROWS_STACK in a view
 * made with split_threads, one row per thread and function ("THREAD:
 * LEAF") or stack ("THREAD;...;LEAF"), THREAD the stack's root frame;
 * no CUM. */
enum pc_rows_by { PC_ROWS_FUNCTION, PC_ROWS_STACK, PC_ROWS_THREAD_FUNCTION,
	PC_ROWS_THREAD_STACK };
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
 * Add VIEW's function rows flat, at column FLAT_COL + T, and cum, at
 * CUM_COL + T, as two calls of profconv__rows_add() would (SIZE_MAX: not
 * that one), in one walk of the stacks.
 */
int profconv__rows_add_functions(struct pc_rows *r,
    const struct profconv_view *view, size_t flat_col, size_t cum_col);
/*
 * The row that stack I of VIEW goes to without CUM (made when new, with
 * zero values) into *OUT.  Errors: PROFCONV_EINVAL (no stack I),
 * PROFCONV_ENOMEM.
 */
int profconv__rows_row_of(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, size_t i, size_t *out);
size_t profconv__rows_count(const struct pc_rows *r);
const char *profconv__rows_name(const struct pc_rows *r, size_t i);
/* How many bytes at the start of row I's name name its thread
 * (PC_ROWS_THREAD_*; 0 for other rows). */
size_t profconv__rows_thread(const struct pc_rows *r, size_t i);
int64_t *profconv__rows_values(struct pc_rows *r, size_t i);
void profconv__rows_sort(struct pc_rows *r, pc_rows_cmp *cmp, void *payload);
/* Largest magnitude of column *(size_t *)PAYLOAD first, then by name:
 * the order of the text top lists and of show --summary. */
int profconv__rows_by_magnitude(const int64_t *a, const char *aname,
    const int64_t *b, const char *bname, void *payload);

/*
 * A stack row's name as the text tables show it (profdiff, proftrend):
 * FOLDED is the row's key, its frames root first with ';' between them;
 * the label is leaf first, each caller after " < ", in at most WIDTH
 * characters (UTF-8 code points; WIDTH >= 20).  When the whole stack
 * does not fit, the middle goes: the leaf and as many of its callers as
 * fit, then " < ... < " and the root ("leaf < caller < ... < root"); a
 * leaf or root too long by itself is cut, ending in "...".  The label is
 * written into *BUF (grown as needed, *CAP its size).  Returns 0 or
 * PROFCONV_ENOMEM.
 */
#define PC_STACK_LABEL_WIDTH 60
int profconv__rows_stack_label(char **buf, size_t *cap, const char *folded,
    size_t width);

/*
 * The labels of a set of stack rows, FOLDED[0..N-1] (distinct keys), that
 * tell them apart: each is profconv__rows_stack_label()'s in WIDTH unless
 * two or more of those are equal.  Those are widened, a round at a time
 * until no two are equal or the stacks are shown whole: each shows the
 * leaf, the first frame (from the leaf) where its stack differs from the
 * stack nearest it among the equal ones, and the root, with " < ... < "
 * where frames are left out, and as many of the leaf's callers as WIDTH
 * leaves room for; frames are not cut.  Sorting, not comparing every
 * pair: O(N log N) a round.  Returns 0 or PROFCONV_ENOMEM.
 */
struct pc_stack_labels;
int profconv__stack_labels_new(struct pc_stack_labels **out,
    const char *const *folded, size_t n, size_t width);
/* Label I; borrowed until the set is freed. */
const char *profconv__stack_labels_get(const struct pc_stack_labels *sl,
    size_t i);
void profconv__stack_labels_free(struct pc_stack_labels *sl);

/*
 * VIEW's stack values summed per frame id (frame_totals.c): FLAT[F * NT +
 * T] the values of the stacks whose leaf is frame F, CUM[F * NT + T]
 * those of the stacks frame F is in, once per stack; slot 0 is the
 * stacks without frames.  LEAVES (with FLAT) and FRAMES (with CUM) are
 * the slots in the order a walk of the stacks, frames root first, first
 * meets them as a leaf and anywhere.  On the view's jobs.  Returns 1
 * when done; 0, with nothing in *OUT, when a sum could saturate (every
 * stack's magnitude added up reaches INT64_MAX), as the result would
 * then depend on the order; PROFCONV_ENOMEM.
 */
struct pc_frame_totals {
	size_t nt;
	int64_t *flat, *cum;
	uint32_t *leaves, *frames;
	size_t nleaves, nframes;
};
int profconv__frame_totals(struct pc_frame_totals *out,
    const struct profconv_view *view, bool flat, bool cum);
void profconv__frame_totals_free(struct pc_frame_totals *s);

#endif /* PROFCONV_VIEW_INTERNAL_H */
