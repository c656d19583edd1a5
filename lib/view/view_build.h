/* SPDX-License-Identifier: MIT */
/*
 * view_build.h - a view's insides and its working state while it is
 * built, shared by view.c, view_names.c, view_build.c and view_order.c
 * (not installed; view/ only).
 */
#ifndef PROFCONV_VIEW_VIEW_BUILD_H
#define PROFCONV_VIEW_VIEW_BUILD_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "names/names.h"
#include "view/view.h"

struct vframe {
	uint32_t text, function, file, module;	/* indexes in view->strs */
	int64_t line;
	int64_t start_line;		/* the function's first line, 0 */
	/* By address: the location the frame was first made for and the
	 * first of its lines kept (its lines loc_first..nlines-1); loc 0
	 * for a frame of no location, or another granularity. */
	uint32_t loc, loc_first;
	/* By line: the length of the frame's text by function, where its
	 * text adds " FILE:LINE" to it; 0: the whole text. */
	uint32_t fn_len;
};

struct vstack {
	size_t off;		/* into view->sframes */
	uint32_t n;
};

struct profconv_view {
	const struct profconv_profile *prof;
	/* profconv_view_new_taking()'s profile (PROF), whose stacks the
	 * build gives back once pass 2 has read them; NULL otherwise. */
	struct profconv_profile *take;
	struct profconv_view_options opts;
	size_t ntypes;
	unsigned int jobs;		/* for the writers too */

	struct pc_strtab strs;		/* frame texts and their parts */
	uint32_t *frame_of_text;	/* text index -> frame id */
	size_t frame_of_text_cap;
	struct vframe *frames;		/* frame id - 1 */
	size_t nframes, frames_cap;

	struct vstack *stacks;
	size_t nstacks, stacks_cap;
	void *sframes;			/* frame ids of all stacks, root first,
					 * uint16_t unless sframes_wide */
	bool sframes_wide;		/* uint32_t: a frame id past 65,535 */
	size_t nsframes, sframes_cap;
	uint8_t *sinline;		/* per sframes entry: 1 when the frame
					 * is an inlined line of the location
					 * the previous frame belongs to */
	int64_t *vals;			/* nstacks * ntypes */
	size_t nvals, vals_cap;
	int64_t *totals;		/* ntypes */
	uint32_t *sample_stack;		/* sample -> stack + 1, 0: not shown */
	uint32_t cut_frame;		/* PC_VIEW_CUT_FRAME's id, 0: none yet */
	char *legend[PC_VIEW_FILTERS];	/* "key=value" of each filter given,
					 * in pprof's order, for legends */
	size_t nlegend;
	unsigned filters, matched;	/* PROFCONV_FILTER_* given, and
					 * those that matched something */
	struct pc_tagnames tagnames;	/* --tagshow, --taghide */
	bool unmerged;			/* a stack per shown sample, in the
					 * samples' order (view_new_unmerged) */
	bool leaves;			/* and each its leaf frame alone
					 * (view_new_leaves) */
	/* By line: some frame's text holds its line's file and line, so
	 * that the view by function would differ; LINES_ASKED: the view
	 * of profconv__view_new_by_line(), which gives the profile's
	 * stacks back only when no frame's does. */
	bool line_texts, lines_asked;
	/* By line: the view by function of the same options can be made
	 * from this one (profconv__view_coarsen()): nothing is filtered by
	 * name, values add up in any order, and each frame's text by
	 * function is a part of its text (fn_len), the same wherever the
	 * frame is met. */
	bool coarse;
	/* profconv__view_coarsen()'s view before
	 * profconv__view_coarsen_finish(): its strings, stacks, inline
	 * marks, values, samples' stacks and tag names are the view by
	 * line's (not freed with it). */
	bool borrows;
	/* profconv__view_by_function()'s view: everything but its
	 * options is BORROWED's (not freed with it). */
	const struct profconv_view *borrowed;

	/* Scratch while building. */
	struct pc_pruner pruner;
	regex_t focus, ignore;
	bool has_focus, has_ignore;
	/* pprof's -hide, -show, -show_from, -prune_from. */
	regex_t hide, show, show_from, prune_from;
	bool has_hide, has_show, has_show_from, has_prune_from;
	struct pc_labels *labels;	/* tag filters, pseudo-frames */
	struct pc_suppress *supp;	/* leak suppressions */
	size_t npseudo, nroot;		/* pseudo-frames per sample */
	uint32_t *pseudo;		/* sample -> its npseudo frame ids */
	size_t *loc_off;		/* location id -> frames + 1 (0: unknown) */
	uint32_t *loc_n;
	uint8_t *loc_match;		/* 1 focus, 2 ignore, 4 known,
					 * LOC_SHOW_FROM, LOC_PRUNE_FROM */
	uint32_t *loc_frames;
	size_t nloc_frames, loc_frames_cap;
	uint32_t *fn_name;		/* function id -> text index + 1 */
	/* profconv__view_new_unmerged_with()'s names, sorted: a sample
	 * is shown when a frame's function is one (bit 1 of loc_match, as
	 * focus, which it never comes with). */
	const char **keep_fn;
	size_t nkeep_fn;
	bool has_keep;
	struct pc_namer namer;
	char *buf;
	size_t buf_cap;
};

/* Bits of loc_match: the location matches show_from, prune_from. */
#define LOC_SHOW_FROM 8
#define LOC_PRUNE_FROM 16

/*
 * The view is built in passes, so that the work per sample can run on
 * the job threads and still give the same view whatever their number:
 *
 *  1. in sample order (frames are numbered as they are first met): cut
 *     the allocator frames, make each new location's frames, apply focus
 *     and ignore, and place each shown sample's frames in one array
 *     (for most views the per-sample work of this pass runs on the
 *     threads too: plan_threads());
 *  2. per range of samples: write those frames, root first (in a view
 *     of leaves, only the last of them);
 *  3. sort the shown samples by their frames (stacksort.c): samples with
 *     the same frames come together, in sample order (for an unmerged
 *     view, the samples' own order, each a stack);
 *  4. per range of that order: each run of samples is a stack, its
 *     values their sum in sample order (saturating sums depend on it),
 *     its frames the first sample's.
 */

#define RANGE 16384		/* samples per task, in passes 2 and 4 */
#define NOT_SHOWN UINT32_MAX
#define PREFETCH_AHEAD 16	/* stacks, in profconv_view_stack() */
#define SAMPLES_AHEAD 48	/* samples, in pass 4 */

struct build {
	struct profconv_view *v;
	unsigned int jobs;
	uint32_t *first;	/* sample -> frames cut off, or NOT_SHOWN */
	uint32_t *last;		/* sample -> end of its locations shown */
	size_t *off;		/* sample -> its frames in path */
	void *path;		/* every shown sample's frames, root first,
				 * uint16_t unless wide */
	bool wide;		/* uint32_t: a frame id past 65,535 */
	uint8_t *pinl;		/* per path entry: an inlined line */
	uint32_t *shown;	/* the shown samples, in order (NULL:
				 * every sample is) */
	size_t nshown;
	uint32_t *order;	/* place -> index into shown */
	uint8_t *same;		/* place -> same frames as the place before */
	void *scratch[2];	/* the sort's arrays, for the stacks' */
	size_t scratch_size;
	size_t nranges;		/* of places, in pass 4 */
	size_t *range_at;	/* range -> its first place */
	size_t *range_stack;	/* range -> its first stack */
};

/* --- view_names.c ---------------------------------------------------------- */

/* Append S (N bytes) to V->buf at *LEN. */
int profconv__view_append(struct profconv_view *v, size_t *len,
    const char *s, size_t n);
/* Intern the frame whose text is V->buf[0, LEN) (cut to
 * PC_VIEW_MAX_NAME bytes); its parts go with it the first time the text
 * is seen. */
int profconv__view_intern_frame(struct profconv_view *v, size_t len,
    uint32_t function, uint32_t file, int64_t line, int64_t start_line,
    uint32_t module, uint32_t *id);
/* The frames of location ID, outermost first, computed once. */
int profconv__view_location_frames(struct profconv_view *v, uint32_t id);

/* --- view_build.c ---------------------------------------------------------- */

/* Does any frame of location ID match focus (1) or ignore (2)? */
unsigned profconv__view_location_match(struct profconv_view *v, uint32_t id);
/* Pass 1: which samples show, with how many frames, and where. */
int profconv__view_plan(struct build *b);
/* Pass 2: the frames of samples [R * RANGE, ...), root first (a task of
 * profconv__jobs_run(), ARG the build). */
int profconv__view_path_task(void *arg, size_t r);

/* --- view_order.c ---------------------------------------------------------- */

/* cont[f] and end[f] (freed by the caller): frame F's place among all
 * frames' two keys in the folded text's byte order (F followed by ';',
 * and F ending its stack), the keys profconv__seqsort() sorts V's
 * stacks by. */
int profconv__view_frame_keys(const struct profconv_view *v, uint32_t **cont,
    uint32_t **end);
/* SIZE bytes: a sort's work array *P of HAVE bytes (then NULL), cut to
 * size when it has room, since its pages are made already; else new
 * ones (*P freed first). */
void *profconv__view_reuse(void **p, size_t have, size_t size);
/* Build V's stacks, frames and totals, on JOBS threads. */
int profconv__view_build(struct profconv_view *v, unsigned int jobs);

#endif
