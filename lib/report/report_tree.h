/* SPDX-License-Identifier: MIT */
/*
 * report_tree.h - the call tree of the report page's data, shared by
 * report_data.c (the tree, its strings and frames, JSON inside <script>,
 * the Explore tab) and report_data_json.c (pruning it and writing it as
 * the page's data, of one profile, a change or a series).
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_TREE_H
#define PROFCONV_REPORT_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* A call tree: its nodes and their self values per sample type. */
struct tree {
	size_t nt;		/* sample types */
	size_t n, pcap, fcap;	/* nodes */
	uint32_t *parent;	/* node 0 is the root */
	uint32_t *frame;	/* view frame id; 0 for the root */
	int64_t *self;		/* n * nt */
	size_t selfcap;
	/* (parent, frame) -> node + 1, open addressing */
	uint64_t *keys;
	uint32_t *vals;
	size_t hcap, hn;
	/* A series: each stack's leaf by the hash of its frames, for the
	 * next snapshot that has the stack again: the hash names one of
	 * LEAF, whose frames (shared ids, root first) are kept in LPOOL
	 * to be compared, in one place rather than up the tree. */
	bool by_stack;
	struct pc_u64map leaves;
	struct tree_leaf {
		uint32_t node, n;	/* the leaf, its depth */
		size_t off;		/* its frames in lpool */
		uint32_t gen, pos;	/* the last add to meet it, where */
	} *leaf;
	size_t nleaf, leafcap;
	uint32_t *lpool;	/* frames */
	uint32_t *lnodes;	/* and their nodes, at the same places */
	size_t lpn, lpcap, lncap;
	/* The leaves the add before met (ORDER[0]) and this one's
	 * (ORDER[1]), in the order met: a snapshot's stacks come in the
	 * folded order of the one before, so the stack after the last one
	 * found is tried first (at CURSOR in ORDER[0]). */
	uint32_t *order[2];
	size_t norder[2], ordercap[2];
	size_t cursor;
	uint32_t gen;		/* adds so far */
	/* A series: (node, column, value) of each stack, laid out a
	 * column at a time once the columns are known
	 * (profconv__report_series_prune()). */
	uint32_t *tnode, *tcol;
	int64_t *tval;
	size_t tn, tncap, tccap, tvcap;
};

/* Interned strings (report_data.c). */
struct strs {
	const char **s;
	size_t n, cap;
	/* text -> index + 1, open addressing on the pointers' text */
	uint32_t *h;
	size_t hcap;
};

/* The frames of every view a tree is made of, one per function, file
 * and line (the key), with those three kept for the page. */
struct gframes {
	struct strs keys;
	char **owned;		/* the keys, to free */
	const char **fn, **file;
	int64_t *line;
	size_t n, cap, fcap, lcap, ocap;
};

void profconv__report_tree_free(struct tree *t);

/* |V|, INT64_MIN's too. */
static inline uint64_t
profconv__report_mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

void profconv__report_gframes_free(struct gframes *g);

/* The shared id of frame ID of V in G (new when its function, file and
 * line are), into *OUT; G keeps copies of its strings. */
int profconv__report_gframe(struct gframes *g, const struct profconv_view *v,
    uint32_t id, uint32_t *out);

/* A tree pruned (report_data_json.c): which nodes are kept, and where
 * each counts. */
struct out {
	size_t n;		/* kept nodes */
	uint32_t *map;		/* old node -> kept node it counts in */
	bool *kept;
	int64_t *cum;		/* old nodes, n * nt (NULL: not kept) */
	int64_t *dropped_sum;	/* per type */
	size_t dropped;
	double fraction;	/* the cut applied; negative: none */
};

void profconv__report_out_free(struct out *o);

/*
 * A series' tree T (its values only as T's triples) pruned as the page
 * prunes a tree whose columns are those of T's columns COL[0..K-1] (of
 * ALL), with the totals TOTAL (K), FRACTION and BUDGET, but a column at
 * a time, the columns split over JOBS threads (0: one per CPU): the
 * whole N x K matrix is never held.  Into O (O->cum NULL), *SELF and
 * *PRUNED (O->n x K each: the kept nodes' own values, and what was
 * dropped below each); free them and O's arrays.
 */
int profconv__report_series_prune(const struct tree *t, const size_t *col,
    size_t k, size_t all, const int64_t *total, double fraction,
    size_t budget, unsigned int jobs, struct out *o, int64_t **self,
    int64_t **pruned);

/* What pruning a tree dropped, when the tree holds only the kept nodes
 * (report_data_stream.c). */
struct out_lean {
	double fraction;	/* the cut applied; negative: none */
	size_t dropped;		/* nodes */
	int64_t *dropped_sum;	/* per type */
	int64_t *pruned;	/* per kept node and type: dropped below it */
};

/*
 * The tree of V's stacks (every sample type K in column K) pruned as
 * report_data_json.c prunes the whole one (FRACTION, BUDGET, the
 * totals TOTAL), without the whole one: the kept nodes into T (empty;
 * the root first, in the whole tree's order, its frames G's), what was
 * dropped into O (free its arrays).  1 when V's stacks are not such that
 * the walk gives the whole tree's answer (see the file): nothing made,
 * build the whole tree.  Errors: PROFCONV_ENOMEM.
 */
int profconv__report_tree_stream(const struct profconv_view *v,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, struct tree *t, struct out_lean *o);
/* ... with the stacks walked in NPARTS parts (on the view's threads)
 * and merged, the same answer; profconv__report_tree_stream() takes
 * one part per thread, each of 65536 stacks at least. */
int profconv__report_tree_stream_parts(const struct profconv_view *v,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, size_t nparts, struct tree *t, struct out_lean *o);

/*
 * The tree of a change, the stacks of BV (the base, each of its types K
 * in column BCOLS[K], none when SIZE_MAX) and of V (its NT types K in
 * columns NT + K), pruned as profconv__report_tree_stream() prunes one
 * view's, without the whole tree: the same nodes, in the same order, as
 * the whole tree of BV's stacks added, then V's.  1 when the stacks are
 * not such that the walk gives the whole tree's answer.
 */
int profconv__report_tree_stream_change(const struct profconv_view *bv,
    const size_t *bcols, const struct profconv_view *v, size_t nt,
    struct gframes *g, const int64_t *total, double fraction,
    size_t budget, struct tree *t, struct out_lean *o);
/*
 * Add V's stacks to T: with TI == SIZE_MAX every sample type K into
 * column K, or with COLS each of V's COL types K into column COLS[K]
 * (none when SIZE_MAX); else sample type TI into column COL.
 */
int profconv__report_tree_add(struct tree *t, struct gframes *g,
    const struct profconv_view *v,
    size_t ti, size_t col, const size_t *cols);

/* A JSON string whose '<', '>' and '&' are \u escapes. */
void profconv__report_json_str(FILE *fp, const char *s);

int profconv__report_str_index(struct strs *st, const char *s, uint32_t *out);

int profconv__report_node_add(struct tree *t, uint32_t parent, uint32_t frame,
    uint32_t *out);

/*
 * BASE and PROF in one tree (the same node for the same path; 0 where
 * a path is in one only): columns 0..NT-1 the base's values of PROF's
 * NT sample types (those it has, by name), NT..2NT-1 PROF's.
 */
int profconv__report_data_diff(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def);
/* ... pruned while it is built when it can be, or WHOLE: the whole tree
 * built first (the same answer; for the tests). */
int profconv__report_data_diff_tree(FILE *fp,
    const struct profconv_profile *base, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, bool whole);

#endif
