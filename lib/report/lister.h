/* SPDX-License-Identifier: MIT */
/*
 * lister.h - the annotated listing while it is computed, shared by
 * list.c (the entry point, the text) and list_rows.c (the tree of frames,
 * from the tree to routines and rows).
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_LISTER_H
#define PROFCONV_REPORT_LISTER_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "report/list.h"
#include "view/delta.h"
#include "view/view.h"

/* A frame of interest and the calls inlined under it, as a tree: roots
 * are the frames of matching functions, children the frames inlined
 * into their parent. */
struct tnode {
	const char *function, *file, *module;	/* borrowed from a view */
	int64_t line, start_line;
	uint32_t parent;	/* node + 1; 0: a root */
	uint32_t child, next;	/* first child, next sibling: node + 1 */
	int64_t flat, cum;
	size_t stamp;		/* the last stack counted, + 1 */
};

/* The listing being computed. */
struct lister {
	const struct profconv_list_options *o;
	regex_t rx;
	bool have_rx;
	const char **names;	/* or these exact names, sorted */
	size_t nnames;
	size_t rows;		/* of every routine */
	size_t budget, bytes;	/* the page's bytes, estimated; 0: none */
	struct tnode *nodes;
	size_t nnodes, nodes_cap;
	struct pc_keymap keys;	/* (parent, frame text) -> node + 1 */
	size_t stamp;
	struct pc_delta_scale scale;	/* totals and reference */
	struct pc_sources *sources;
	struct pc_listing out;
	char **displays;	/* per node: its file as displayed */
};

/*
 * A profile as the listing sees it: its line view (frames per function
 * and line, inline marks) and, when focus or ignore filter it, each
 * stack's value of the samples they keep.
 */
struct lview {
	struct profconv_view *v;
	int64_t *vals;		/* per stack; NULL: the view's own */
	size_t ti;
	bool relative;		/* shares of what the filters keep */
};

/* Add L's stacks, value slot TI, as a base's part of the change when
 * FROM_BASE. */
int profconv__list_add_view(struct lister *l, const struct lview *lv,
    bool from_base);

/* The build directories the symbolizer recorded for PROF's files, as
 * the sources' roots for those files. */
int profconv__list_build_dirs(struct pc_sources *sources,
    const struct profconv_profile *prof);

int profconv__list_make_listing(struct lister *l,
    const struct profconv_profile *prof);

#endif
