/* SPDX-License-Identifier: MIT */
/*
 * graph_build.h - the call graph's working state while it is built and
 * trimmed, shared by graph.c, graph_build.c and graph_trim.c (not
 * installed; view/ only).
 */
#ifndef PROFCONV_VIEW_GRAPH_BUILD_H
#define PROFCONV_VIEW_GRAPH_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "view/graph.h"
#include "view/view.h"

#define NONE UINT32_MAX

/* What a node is, from the frames of the views: interned once. */
struct gkey {
	const char *name, *file, *objfile;
	int64_t line;
	char *printable;
	uint64_t address;	/* by address, else 0 */
	bool own_name;		/* NAME is the key's to free */
	/* In a call tree, a calling context: the key whose name, file
	 * and printable it borrows (it frees none), and its caller's
	 * context + 1 (0: a root). */
	bool borrowed;
	uint32_t caller;
};

/* A sample of CUR (or of BASE, negated) as the graph reads it. */
struct gsample {
	const void *frames;	/* the view's frame ids (or keys), root
				 * first: uint16_t unless wide */
	const uint8_t *inl;
	uint32_t nframes;
	uint8_t view;		/* 0 CUR, 1 BASE */
	bool wide;		/* in the padding: 48 bytes a sample */
	uint32_t group;		/* string labels (index in groups) */
	uint32_t num_off, nnum;	/* its numeric tags in the build's nums */
	uint32_t cls;		/* its class of labels (by_class), NONE: none */
	int64_t w;
};

/* S's frames as base/ids.h reads them. */
static inline struct pc_stack
gsample_frames(const struct gsample *s)
{
	return pc_stack_make(s->frames, s->wide, 0, s->nframes);
}

/* S's frames are K's. */
static inline void
gsample_set_frames(struct gsample *s, struct pc_stack k)
{
	s->wide = k.wide != NULL;
	s->frames = k.wide != NULL ? (const void *)k.wide :
	    (const void *)k.narrow;
}

/* Bit I of BITS. */
static inline bool
pc_bit(const uint64_t *bits, size_t i)
{
	return (bits[i / 64] >> (i % 64) & 1) != 0;
}

struct gnum {
	uint32_t name;		/* index in groups: the formatted value */
	int64_t value;
};

/* An edge and a tag while building. */
struct bedge {
	uint32_t src, dst;	/* keys */
	int64_t w;
	uint32_t stamp;		/* the sample + 1 that last added to it */
	bool residual, inl, dead;
};

/*
 * One thread's counts in a build, over samples FROM..TO (graph_count.c):
 * part 0 works in the build's own arrays (pc_graph_build's), the others
 * in arrays of their own, added to part 0's in order when the build
 * ends.
 */
struct gpart {
	size_t from, to;
	size_t *stamp;		/* key -> sample + 1 that last counted it */
	int64_t *cum, *flat, *cum_base;
	uint32_t *touched;	/* keys counted, in order */
	size_t ntouched;
	struct bedge *edges;
	size_t nedges, edges_cap;
	uint32_t *eidx;		/* the edges by their ends (graph_count.c) */
	size_t eidx_cap;
	int64_t *ccum, *cflat;	/* tags by class (pc_graph_build's) */
	uint64_t *cseen;
	uint32_t *ctouched;
	size_t nctouched;
	void *block;		/* the per-key arrays of a part of its own */
};

struct btag {
	uint32_t key, group, name;
	bool numeric, dead;
	int64_t value, flat, cum;
};

struct pc_graph_build {
	struct gkey *keys;
	size_t nkeys, keys_cap;
	struct pc_keymap keymap;
	uint32_t *frame_key[2];	/* view frame id -> key */
	bool shared_keys[2];	/* two frames of the view have one key */
	/* By address (graph_address.c): a frame is a location's lines,
	 * one key each, so the samples' frames are keys, every stack's
	 * in XKEYS (XINL: the key is an inlined line) from XOFF[stack]. */
	bool by_address;
	/* A call tree (profconv__graph_contexts()): the samples' frames are calling
	 * contexts, keys of their own, all in TKEYS. */
	bool tree;
	uint32_t *tkeys;
	bool obj_names;		/* pc_graph_options' */
	const char *trim_path;	/* pc_graph_options' */
	/* The next build counts the nodes' weights only, no edges and
	 * no tags: for the first, whose nodes the cut reads before the
	 * build that makes the graph. */
	bool weights_only;
	uint32_t *xkeys[2];
	uint8_t *xinl[2];
	size_t *xoff[2];

	struct pc_keymap groupmap;	/* label texts -> index */
	char **groups;
	size_t ngroups, groups_cap;

	struct gsample *gsamples;
	size_t ngsamples, gsamples_cap;
	struct gnum *nums;
	size_t nnums, nums_cap;
	const char *num_unit;
	struct pc_u64map num_names;	/* numeric tag value -> its name */
	const struct pc_tagnames *tn;	/* the label keys kept (the view's
					 * --tagshow, --taghide) */

	/* The threads a build may use (the view's jobs), and whether
	 * the samples' weights add up, as magnitudes, below INT64_MAX:
	 * then no sum can saturate, and sums made in parts and added up
	 * are the sums made sample by sample (SUMS_FIT, once SUMS_KNOWN). */
	unsigned int jobs;
	bool sums_known, sums_fit;
	struct gpart *parts;	/* parts 1.. of a build on threads */
	size_t nparts;

	/* One build.  The arrays by key share one block, PER_KEY
	 * (graph.c). */
	void *per_key;
	int64_t *flat, *cum;
	int64_t *cum_base;	/* key -> the base's part of cum, negated */
	size_t *stamp;		/* key -> sample + 1 that last counted it */
	uint32_t *touched;	/* keys counted, in order */
	size_t ntouched;
	struct bedge *edges;
	size_t nedges, edges_cap;
	uint32_t *eidx;		/* the edges by their ends (graph_count.c) */
	size_t eidx_cap;
	struct btag *tags;
	size_t ntags, tags_cap;
	/* (key << 32 | tag kind) -> tag; a tag kind is (numeric, group,
	 * name), numbered once per graph in tagkinds, so that a sample's
	 * kinds are found once, not once per frame. */
	struct pc_u64map tagmap;
	uint32_t **tagrows;	/* kind -> key -> tag + 1 (tag_cell()) */
	size_t ntagrows, tagrows_cap;
	struct pc_keymap tagkinds;
	uint32_t *kinds;	/* the kinds of the sample being counted */
	size_t kinds_cap;
	/*
	 * Tags by class (graph_tags.c): samples with the same labels (string
	 * group, numeric names and values) are one class.  When BY_CLASS, a
	 * build adds a sample's weight to one cell of (key, class), CCUM or
	 * CFLAT at key * nclasses + class, not to each of its tags, and
	 * makes the tags from the cells touched (CTOUCHED, in the order the
	 * samples first reached them) when it ends.
	 */
	bool classes_done, by_class;
	struct pc_keymap classmap;
	uint32_t *class_rep;	/* class -> its first sample */
	size_t nclasses, class_rep_cap;
	int64_t *ccum, *cflat;
	uint64_t *cseen;	/* a bit per cell: reached by the build */
	uint32_t *ctouched;
	size_t nctouched;
	uint32_t *nodes;	/* the graph's keys, in order */
	size_t nnodes;
	int64_t *score;		/* key -> entropy score */
	uint32_t *in_off, *out_off, *in, *out;	/* adjacency, edge ids */
	size_t in_cap, out_cap;	/* of IN and OUT: the last build's edges */
	uint32_t *pos;		/* key -> place in nodes + 1 */
};

int profconv__graph_map_frames(struct pc_graph_build *b,
    const struct profconv_view *v, int vi);

/* A node's file into *OUT: pprof trims the -trim_path prefixes (and
 * Bazel's "/proc/self/cwd/") off a function's file name and cleans
 * it; "" when none is left, else malloc'd. */
int profconv__graph_file(const struct pc_graph_build *b, const char *path,
    const char **out);

/* K's key into *OUT, interned: a new key takes K's file (and name when
 * own_name), an old one frees them. */
int profconv__graph_intern_key(struct pc_graph_build *b, struct gkey *k,
    uint32_t *out);

/* By address: the keys of every stack of view VI, V, into b->xkeys[VI]
 * (after profconv__graph_map_frames()). */
int profconv__graph_address_stacks(struct pc_graph_build *b,
    const struct profconv_view *v, int vi);

/* pprof's call tree: each sample's frames become calling contexts,
 * one key per caller's context and key (after every
 * profconv__graph_add_samples()). */
int profconv__graph_contexts(struct pc_graph_build *b);

/* pprof's NumLabelUnits for "bytes": the first unit a sample gives it,
 * else "bytes". */
void profconv__graph_find_num_unit(struct pc_graph_build *b,
    const struct profconv_profile *prof);

int profconv__graph_add_samples(struct pc_graph_build *b,
    const struct profconv_view *v, int vi,
    size_t type);

/* pprof's newGraph over the samples, with only the keys KEPT has
 * (every key when KEPT is NULL) (graph_count.c). */
int profconv__graph_build(struct pc_graph_build *b, const uint8_t *kept);

/* The parts of the builds on threads (graph_count.c), freed. */
void profconv__graph_free_parts(struct pc_graph_build *b);

/* Tags (graph_tags.c).  Before a build: forget the last one's tags
 * (its class cells are zeroed with its counts, graph_count.c). */
void profconv__graph_reset_tags(struct pc_graph_build *b);

/* Sample S's tag kinds into b->kinds: its labels' group (when it has
 * string labels), then each numeric label. */
int profconv__graph_sample_kinds(struct pc_graph_build *b,
    const struct gsample *s);

/* S's weight into the tags of key K for S's kinds (b->kinds), the
 * flat or the cum part: pprof's Node.addSample. */
int profconv__graph_node_tags(struct pc_graph_build *b, uint32_t k,
    const struct gsample *s, bool flat);

/* Whether the builds count tags by class (b->by_class), decided once,
 * before the first build that counts tags: every sample's class, the
 * bound on the sums, the cells. */
int profconv__graph_classes(struct pc_graph_build *b);

/* The tags from the cells a build by class touched: every cum first,
 * in the order the cells were reached (which makes the tags), then the
 * flats. */
int profconv__graph_class_tags(struct pc_graph_build *b);

void profconv__graph_sort_nodes(struct pc_graph_build *b,
    enum pc_graph_order order);

void profconv__graph_trim_tags(struct pc_graph_build *b, int64_t cutoff);

/* Edges into nodes of the graph under CUTOFF go; how many.  (An edge
 * into a node whose values cancelled out, which is not in the graph,
 * stays, as in pprof: it still counts as an out edge of its source.) */
size_t profconv__graph_trim_edges(struct pc_graph_build *b, int64_t cutoff);

/* pprof's selectTopNodes in visual mode: how many nodes to keep. */
int profconv__graph_top_nodes(struct pc_graph_build *b, size_t max,
    size_t *keep);

/* pprof's RemoveRedundantEdges. */
int profconv__graph_remove_redundant(struct pc_graph_build *b);

/* |V|, wrapping as Go's does: INT64_MIN stays INT64_MIN. */
int64_t profconv__graph_abs64(int64_t v);

/* POS[K]: the place of key K in the graph's nodes + 1, 0 when not in. */
void profconv__graph_mark_nodes(struct pc_graph_build *b);

int profconv__graph_by_edge_id(const void *pa, const void *pb, void *payload);

/* The tags sorted by node (the tag map is rebuilt by the next build);
 * FIRST[K] is the first of key K's. */
int profconv__graph_group_tags(struct pc_graph_build *b, size_t **first);

int profconv__graph_intern_group(struct pc_graph_build *b, const char *s,
    size_t len,
    uint32_t *out);

#endif
