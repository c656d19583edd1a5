/* SPDX-License-Identifier: MIT */
/*
 * trend.h - the parts of proftrend's analysis that need no profile: the
 * order of snapshots, the growth statistics of one row and the suspect
 * rule (trendstat.c), and names fit for JSON.  Private to libprofconv; the unit
 * tests call these directly.
 */
#ifndef PROFCONV_TREND_H
#define PROFCONV_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profconv.h"
#include "view/view.h"

/*
 * Compare A and B in natural order: runs of digits compare as numbers
 * (so "x.m2" < "x.m10"), everything else byte by byte; equal numbers with
 * more leading zeros come later, so only equal strings compare equal.
 */
int profconv__natural_cmp(const char *a, const char *b);

/*
 * Fill ORDER[0..N) with the order of N snapshots named NAMES with the
 * collection times TIMES (nanoseconds, 0 = unknown): by time when every
 * snapshot has one (ties by name), else by name in natural order; with
 * KEEP, as given.  Equal keys keep their given order.  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__trend_order(size_t *order, const char *const *names,
    const int64_t *times, size_t n, bool keep);

/* How one row's values went over N snapshots. */
struct pc_growth {
	int64_t first, last;	/* values in the first and last snapshot */
	int64_t growth;		/* last - first, saturating */
	double slope;		/* least-squares slope per snapshot */
	size_t grew;		/* intervals in which the value went up */
	size_t intervals;	/* N - 1 */
	bool above_start;	/* every value from the third on is above
				 * the first */
	bool changed;		/* not the same value in every snapshot */
};

/*
 * The statistics of the N values V[0], V[STRIDE], ... V[(N-1)*STRIDE]
 * (N >= 1).
 */
void profconv__growth(const int64_t *v, size_t n, size_t stride,
    struct pc_growth *out);

/*
 * A robust fit of a series: Theil-Sen's slope (the median of the slopes
 * between every two points) and Mann-Kendall's trend statistic S (the
 * sum of the signs of every later-minus-earlier pair) with its normal
 * score Z (continuity-corrected, ties accounted for).  Series longer
 * than PC_FIT_POINTS are fitted on PC_FIT_POINTS evenly spread points,
 * the first and the last among them.
 */
#define PC_FIT_POINTS 256
#define PC_FIT_PAIRS (PC_FIT_POINTS * (PC_FIT_POINTS - 1) / 2)
/* Doubles of scratch space the fit and the verdict need. */
#define PC_FIT_SCRATCH (PC_FIT_PAIRS + PC_FIT_POINTS)
/* Mann-Kendall's Z for a rising trend at the one-sided 5% level. */
#define PC_MK_Z 1.6449

struct pc_fit {
	double theil_sen;	/* per snapshot */
	double mk_s, mk_z;
	size_t points;		/* fitted */
};

/* The fit of the N values V[0], V[STRIDE], ...; SCRATCH has room for
 * PC_FIT_SCRATCH doubles. */
void profconv__trend_fit(const int64_t *v, size_t n, size_t stride,
    double *scratch, struct pc_fit *out);

/* The settings of the verdict (profconv_trend_options). */
struct pc_rule {
	int64_t floor;			/* noise floor, units of the type */
	double min_grew_fraction;	/* of the intervals that moved */
	int64_t period;			/* bytes per sample; 0: every one */
	double noise;			/* the row's sampling noise (set by
					 * profconv__trend_verdict()) */
	double object_size;		/* the row's bytes per sampled
					 * object; 0: not known */
};

/* What the verdict looked at. */
struct pc_shape {
	int64_t min, max;
	size_t grew, fell;	/* intervals that went up, down */
	size_t rises, falls;	/* swings of max(floor, range / 2) */
	struct pc_fit fit;
};

/*
 * The verdict on the N values V[0], V[STRIDE], ... of one row at the
 * places X[0..N) on the x axis (increasing; NULL: 0, 1, ... N - 1), the
 * rule spelled out at profconv_trend_options in profconv.h; *OUT gets
 * the statistics of the whole series.  SCRATCH as for
 * profconv__trend_fit().
 */
enum profconv_trend_verdict profconv__trend_verdict(const int64_t *v,
    const double *x, size_t n, size_t stride, const struct pc_rule *rule,
    double *scratch, struct pc_shape *out);

/* The x axis of the verdicts (profconv__trend_x_axis()). */
enum pc_x_axis {
	PC_X_SNAPSHOTS,		/* the snapshot's place in the order */
	PC_X_ALLOCATED		/* bytes allocated since the program began */
};

/*
 * The x axis of N ordered snapshots whose cumulative allocations are
 * ALLOCATED[0..N) (-1: unknown), into X[0..N): the allocations so far
 * (the largest up to each) when every snapshot has one, none goes down
 * (in a profile sampled every PERIOD > 1 bytes, by more than
 * 2 sqrt(total * PERIOD), twice the spread sampling gives the total)
 * and the last is above the first; else the snapshot numbers 0..N-1.
 */
enum pc_x_axis profconv__trend_x(double *x, const int64_t *allocated,
    size_t n, int64_t period);

/*
 * What a dump's file name says.  jemalloc: PREFIX.PID.SEQ.KIND[KSEQ].heap
 * with KIND i (lg_prof_interval), m (prof.dump), u (prof_gdump: a new
 * high-water mark) or f (prof_final, no KSEQ); gperftools:
 * PREFIX.NNNN.heap, PREFIX_PID.NNNN.heap for a forked child.  GROUP is
 * the name of the process's series, for messages ("DIR/je.123.*" or
 * "DIR/prog.*.heap"), malloc'd; NULL when the name is neither.
 */
struct pc_dump_name {
	char *group;
	char kind;		/* 'i', 'm', 'u', 'f'; 0: not jemalloc */
};
int profconv__dump_name(const char *name, struct pc_dump_name *out);

/* For trendtable.c: whether T was run successfully, its options, and
 * the name of the sample type it follows. */
bool profconv__trend_ran(const struct profconv_trend *t);
const struct profconv_trend_options *profconv__trend_options(
    const struct profconv_trend *t);
const char *profconv__trend_type_name(const struct profconv_trend *t);
/* What the verdict of row I looked at; the noise floor it used. */
const struct pc_shape *profconv__trend_row_shape(
    const struct profconv_trend *t, size_t i);
/* The x axis the verdicts used, and snapshot I's place on it. */
enum pc_x_axis profconv__trend_axis(const struct profconv_trend *t);
double profconv__trend_snapshot_x(const struct profconv_trend *t, size_t i);
int64_t profconv__trend_floor(const struct profconv_trend *t);
/* With by_thread: how many bytes at the start of row I's name name its
 * thread (the view's split_threads frame); else 0. */
size_t profconv__trend_row_thread(const struct profconv_trend *t, size_t i);
/* For trend_suspects.c: the view options T reads each snapshot with, how
 * it groups stacks into rows, and its first and last snapshots (an
 * error when T has not run). */
const struct profconv_view_options *profconv__trend_view(
    const struct profconv_trend *t);
enum pc_rows_by profconv__trend_rows_by(const struct profconv_trend *t);
int profconv__trend_ends(const struct profconv_trend *t,
    const struct profconv_profile **first,
    const struct profconv_profile **last);

/*
 * A copy of S (malloc'd; NULL when out of memory) with every byte that is
 * not part of valid UTF-8 replaced by U+FFFD: file names may be in any
 * encoding, JSON and the model hold UTF-8 only.
 */
char *profconv__utf8_copy(const char *s);

/* --- what leak suppressions hid (suppressed.c) -------------------------- */

struct pc_hidden {
	char *pattern, *file;
	size_t line;		/* 0: built in */
	size_t stacks;		/* in the last view taken */
	int64_t first, last;	/* values of the report's type */
};
struct pc_hidden_list {
	struct pc_hidden *h;
	size_t n;
};
/*
 * Take what VIEW's suppressions hid of sample type TYPE: as the first
 * snapshot's (FIRST) or as the last's, with its stack counts.  Every
 * view taken into one list must have the same suppressions.  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__hidden_take(struct pc_hidden_list *l,
    const struct profconv_view *view, size_t type, bool first);
void profconv__hidden_free(struct pc_hidden_list *l);
/* The suppressions that hid something, as lines after a table (values
 * in bytes when BYTES; with GROWTH, last - first too) and as a JSON
 * member ',"suppressed":[...]' (nothing when there were no
 * suppressions). */
void profconv__hidden_print(FILE *fp, const struct pc_hidden_list *l,
    bool bytes, bool growth);
void profconv__hidden_json(FILE *fp, const struct pc_hidden_list *l,
    bool growth);
/* What T's suppressions hid (trend.c). */
const struct pc_hidden_list *profconv__trend_hidden(
    const struct profconv_trend *t);

#endif /* PROFCONV_TREND_H */
