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
	 * next snapshot that has the stack again (checked up the tree). */
	bool by_stack;
	struct pc_u64map leaves;
	/* A series: (node, column, value) of each stack, made dense by
	 * tree_columns() once the columns are known. */
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

/* Make T's values columns ORDER[0..N-1] of its stacks' values, of the
 * ALL columns they were added as (the others left out). */
int profconv__report_tree_columns(struct tree *t, const size_t *order,
    size_t n, size_t all);

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

#endif
