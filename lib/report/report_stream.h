/* SPDX-License-Identifier: MIT */
/*
 * report_stream.h - the walk that prunes the Explore tab's call tree
 * while it is built, shared by its two walks: of one view's stacks
 * (report_data_stream.c, which has the walk's parts) and of a change's
 * two views (report_data_change.c).  Not installed; report/ only.
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_STREAM_H
#define PROFCONV_REPORT_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "view/view.h"
#include "report/report_tree.h"

/* A node met by the walk: on the path, waiting, or in the heap. */
struct snode {
	uint32_t id;		/* the whole tree's node number */
	uint32_t parent;	/* its parent's */
	uint32_t gid;		/* the page's frame */
	uint32_t vf;		/* the view's frame (0: the root) */
	bool kids;		/* has had a callee */
	/* A change's walk (walk_change()): whether a stack of the base
	 * went through it, the MARK'th node one did. */
	bool base;
	uint32_t mark;
	double share;		/* set when finished */
	int64_t *v;		/* self[nt], then cum[nt] */
};

struct walk {
	const struct profconv_view *view;
	/* A change's walk: its frames are the page's (each + 1), whose
	 * texts are TEXT's, not VIEW's; IN_BASE while a stack of the base
	 * is walked, MARKS the nodes its stacks went through so far. */
	const char **text;
	bool change, in_base;
	uint32_t marks;
	const int64_t *total;
	size_t nt;
	uint32_t *gid_of;	/* view frame -> page frame */
	/* View frame -> its text's place in byte order, and (bit 31)
	 * whether that text begins another frame's: two frames' order by
	 * text is their places' unless one has the bit. */
	uint32_t *rank;
	uint32_t count;		/* nodes made, the root too */
	/* The path: node d at depth d (the root at 0). */
	struct snode *path;
	size_t depth, pcap;
	/* Per depth, the nodes that wait (a stack of prefixes). */
	struct snode **wait;
	size_t *nwait, *wcap;
	/* The heap of the BUDGET + 1 heaviest finished nodes (least
	 * share on top), and their values. */
	struct snode *heap;
	size_t nheap, hcap;
	/* Once the heap is full, per sample type: the largest cum
	 * magnitude whose share is at most the heap's least, so that a
	 * node too light for it is told without a division. */
	uint64_t *limit;
	/* Free value blocks, for nodes that leave the path. */
	int64_t **spare;
	size_t nspare, scap;
	bool stop;		/* not the whole tree's answer: give up */
	/*
	 * A part of the walk (walk_parts()): the stacks [FROM, TO).  A part
	 * after the first starts on the path the stacks before it left
	 * open, nodes 0..BORROWED at depths 0..BORROWED, its own nodes
	 * numbered from BORROWED + 1.  It cannot finish a borrowed node
	 * (the values before it are not its own): what it has of one that
	 * it leaves is kept in STORED[its depth] for the merge.  UNSAFE: the
	 * part ended with nodes waiting that the next part may come back
	 * to; walk the stacks in one part instead.
	 */
	size_t from, to, borrowed;
	int64_t **stored;
	bool unsafe, shares;	/* SHARES: GID_OF and RANK are another's */
};

/* Finish the nodes waiting at depth D (their parent, at D - 1, is being
 * left). */
int profconv__stream_finish_waiting(struct walk *w, size_t d);

/* Leave the node at the path's end: finished, or, without callees, to
 * wait beside its parent's other callees. */
int profconv__stream_leave(struct walk *w);

/* Enter frame VF below the path's end: a waiting node when it is one
 * (the walk comes back to it), else a new one (in a change's walk
 * marked when a stack of the base enters it: w->in_base). */
int profconv__stream_enter(struct walk *w, uint32_t vf);

/* W's ranks of its NF frames by text (w->rank). */
int profconv__stream_rank(struct walk *w, size_t nf);

/* Do stacks A and then B, which share their first L frames, come in the
 * order of their texts, B not A? */
bool profconv__stream_in_order(const struct walk *w,
    const struct pc_view_stack *a, const struct pc_view_stack *b, size_t l);

/* The frames stacks A and B begin with alike. */
size_t profconv__stream_shared(const struct pc_view_stack *a,
    const struct pc_view_stack *b);

/* The kept nodes out of the heap, in the whole tree's order, as tree T
 * and O (see report_data_stream.c). */
int profconv__stream_keep(struct walk *w, double fraction, size_t budget,
    struct tree *t, struct out_lean *o);

/* W ready to walk its view's stacks FROM to TO, BUDGET nodes kept. */
int profconv__stream_start(struct walk *w, size_t budget, size_t from,
    size_t to);

void profconv__stream_free(struct walk *w);

#endif
