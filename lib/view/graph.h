/* SPDX-License-Identifier: MIT */
/*
 * graph.h - the call graph of a view, as pprof builds it for its graph
 * outputs (graph.c), and pprof's measurement arithmetic: units, scaled
 * labels, percentages.  The DOT writer (write/dot.c) draws it.
 * May include: base/, model/model.h, names/.
 */
#ifndef PROFCONV_VIEW_GRAPH_H
#define PROFCONV_VIEW_GRAPH_H

#include "model/model.h"
#include "view/delta.h"

/* A node: one function (or function and line, or address, function,
 * file and line) of the view. */
struct pc_gnode {
	uint64_t address;	/* by address, else 0 */
	const char *name;	/* function name in the view's demangle mode,
				 * "" when there is none */
	const char *file;	/* source file (line granularity), else "" */
	int64_t line;		/* its line (line granularity), else 0 */
	const char *objfile;	/* module base name when name is "", or "" */
	const char *printable;	/* pprof's PrintableName: name, file:line */
	int64_t flat, cum;	/* in a diff: CUR - BASE */
	int64_t base, cur;	/* cum's two sides in a diff (base 0 else) */
	enum pc_change change;	/* how cum changed (view/delta.h) */
	size_t tag_off, ntags;	/* its tags in the graph's tags */
	bool has_out;		/* it has out edges */
	size_t caller;		/* in a call tree, its caller's context,
				 * a number + 1, the same for the nodes of
				 * one caller (0: a root, or no tree) */
};

/* An edge between nodes (indexes in the graph's nodes). */
struct pc_gedge {
	size_t src, dst;
	int64_t weight;
	bool residual;		/* nodes between the two were left out */
	bool inl;		/* every call it stands for was inlined */
};

/* A tag of a node: a sample's string labels, or one of its numeric
 * "bytes" labels under its string labels (pprof's nodelets). */
struct pc_gtag {
	const char *group;	/* the string labels, "k:v\nk:v" ("" none) */
	const char *name;	/* label tag: GROUP; numeric: its label */
	bool numeric;
	const char *unit;	/* numeric: the unit of VALUE */
	int64_t value;
	int64_t flat, cum;
};

/* How the nodes are ordered (pprof's SortNodes): VISUAL, by entropy
 * score, for the pictures (tags count as nodes against nodecount, and
 * redundant residual edges go); FLAT and CUM, by that value then name,
 * for the text reports (pprof's -tree). */
enum pc_graph_order { PC_GRAPH_VISUAL = 0, PC_GRAPH_FLAT, PC_GRAPH_CUM };

struct pc_graph_options {
	size_t nodecount;	/* 0: every node */
	double nodefraction, edgefraction;
	size_t type;		/* sample type index in CUR */
	size_t base_type;	/* and in BASE */
	enum pc_graph_order order;	/* how nodes are ranked and kept */
	/* pprof's ObjNames (its callgrind output): by address, every node
	 * keeps its mapped file's path in objfile, named or not. */
	bool obj_names;
	/* pprof's -call_tree: a node per calling context (the path from
	 * the root), so the graph is a forest; its cuts join a context's
	 * callers to its callees, as pprof's TrimTree does. */
	bool call_tree;
	const char *trim_path;	/* pprof's -trim_path: ':'-separated
				 * prefixes cut off file names */
};

struct pc_graph {
	struct pc_gnode *nodes;	/* pprof's order: by entropy score */
	size_t nnodes;
	struct pc_gedge *edges;	/* heaviest first */
	size_t nedges;
	struct pc_gtag *tags;	/* by node */
	size_t ntags;
	/* The rules of the change in a diff (view/delta.h): the totals
	 * and pprof's reference, of BASE in a diff. */
	struct pc_delta_scale scale;
	int64_t total;		/* pprof's report total: scale.reference */
	size_t orig_count;	/* nodes above the node cutoff */
	size_t dropped_nodes, dropped_edges;
	size_t capped_edges;	/* edges past PC_GRAPH_MAX_EDGES, left out */
	const char *unit;	/* the sample type's unit, lower case */
	struct pc_graph_build *build;	/* private */
};

/*
 * The graph of CUR (minus BASE when BASE is not NULL: pprof's
 * -diff_base) into *OUT (free with profconv__graph_free()), trimmed and
 * ordered as pprof's visual (DOT) outputs do.  Errors: PROFCONV_ENOMEM.
 */
int profconv__graph_new(struct pc_graph **out,
    const struct profconv_view *cur, const struct profconv_view *base,
    const struct pc_graph_options *opts);
void profconv__graph_free(struct pc_graph *g);
/*
 * The sample type named TYPE (NULL: the default) of CUR into O->type and
 * *VT, its index in BASE (when not NULL) into O->base_type, and its unit
 * in lower case into UNIT (SIZE bytes): what every writer of the graph
 * needs before profconv__graph_new().  Errors: PROFCONV_ENOTFOUND.
 */
int profconv__graph_type(const struct profconv_view *cur,
    const struct profconv_view *base, const char *type,
    struct pc_graph_options *o, struct profconv_value_type *vt, char *unit,
    size_t size);

/* --- pprof's measurement ---------------------------------------------------- */

/* V in FROM scaled to TO ("minimum"/"auto": the best unit); the unit
 * reached goes to *UNIT ("" when uninteresting). */
double profconv__measure_scale(int64_t v, const char *from, const char *to,
    const char **unit);
/* pprof's selectOutputUnit: the unit G's values are best shown in, of
 * the smallest node value shown, or a larger one when values span more
 * than a hundredfold; UNIT (the sample type's, lower case) when none. */
const char *profconv__graph_output_unit(const struct pc_graph *g,
    const char *unit);
/* As profconv__graph_output_unit(), for values written as integers
 * (pprof's callgrind): the smallest node value's unit, never a larger. */
const char *profconv__graph_output_unit_integral(const struct pc_graph *g,
    const char *unit);
/* UNIT in lower case into BUF (SIZE bytes, cut to fit), as pprof
 * compares a sample type's unit; returns BUF. */
char *profconv__measure_unit_lower(char *buf, size_t size, const char *unit);
/* measurement.ScaledLabel: "1.50MB", "0", "12". */
char *profconv__measure_label(char *buf, size_t size, int64_t v,
    const char *from, const char *to);
/* measurement.Percentage, spaces trimmed: "12.50%", "0.41%", "100%". */
char *profconv__measure_percent(char *buf, size_t size, int64_t v,
    int64_t total);
/* measurement.Percentage as printed, leading spaces kept. */
char *profconv__measure_percent_padded(char *buf, size_t size, int64_t v,
    int64_t total);

#endif /* PROFCONV_VIEW_GRAPH_H */
