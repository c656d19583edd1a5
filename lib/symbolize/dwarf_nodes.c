/* SPDX-License-Identifier: MIT */
/*
 * dwarf_nodes.c - one CU's function intervals: every DW_TAG_subprogram
 * and DW_TAG_inlined_subroutine range of the unit with its nesting,
 * recorded once (by dwarf_own_walk.c's reading of the DIEs' bytes, or
 * by libdw's walk here when that cannot), sorted by start address, and
 * the innermost function node that holds an address.
 */

#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/natsort.h"
#include "symbolize/dwarf_index.h"
#include "symbolize/dwarf_walk.h"

/* --- one CU's function intervals ------------------------------------------ */

int
profconv__dwarf_add_range(struct pc_cu *cu, const Dwarf_Die *die, int tag,
    int32_t parent, uint32_t depth, Dwarf_Addr lo, Dwarf_Addr hi,
    int32_t *idx)
{
	struct pc_node *n;

	/* Code the linker discarded keeps ranges at address 0. */
	if (lo == 0 || lo >= hi)
		return 0;
	if (*idx < 0) {
		if (PC_GROW(cu->nodes, cu->nodes_cap, cu->nnodes, 1) < 0)
			return PROFCONV_ENOMEM;
		*idx = (int32_t)cu->nnodes++;
		n = &cu->nodes[*idx];
		memset(n, 0, sizeof(*n));
		n->die = *die;
		n->parent = parent;
		n->inlined = tag == DW_TAG_inlined_subroutine;
		n->range0 = (uint32_t)cu->nranges;
	}
	cu->nodes[*idx].nranges++;
	if (PC_GROW(cu->ranges, cu->ranges_cap, cu->nranges, 1) < 0)
		return PROFCONV_ENOMEM;
	cu->ranges[cu->nranges++] = (struct pc_range){ lo, hi, (uint32_t)*idx,
	    depth };
	return 0;
}

/* Record DIE as a node with its ranges; *IDX is -1 when it has no code. */
int
profconv__dwarf_add_node(struct pc_cu *cu, Dwarf_Die *die, int tag,
    int32_t parent, uint32_t depth, int32_t *idx)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int rc = 0;

	*idx = -1;
	while (rc == 0 && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		rc = profconv__dwarf_add_range(cu, die, tag, parent, depth, lo,
		    hi, idx);
	return rc;
}

/* A DIE whose children the walk is visiting, and its function node. */
struct walk_frame {
	Dwarf_Die die;
	int32_t node;
	uint32_t depth;
};

/*
 * The DIE after CUR among its siblings into *NEXT: 0, or 1 at the end of
 * the list with *END at the null entry that closes it (NULL when libdw
 * did not say where), or -1 on malformed data.
 */
static int
next_sibling(Dwarf_Die *cur, Dwarf_Die *next, unsigned char **end)
{
	int rc;

	next->addr = NULL;
	rc = dwarf_siblingof(cur, next);
	*end = rc == 1 ? next->addr : NULL;
	return rc;
}

/*
 * The sibling of the DIE whose children ended at the null entry END:
 * the entry right after it, unless that is a null entry as well (its
 * parent's list ends there too: *END moves to it and 1 is returned).
 * The Dwarf_Die is made the way dwarf_siblingof makes one: address and
 * unit, the rest cleared.
 */
static int
after_children(Dwarf_Die *parent, unsigned char **end,
    const unsigned char *cu_end, Dwarf_Die *next)
{
	unsigned char *p = *end + 1;

	if (p >= cu_end)
		return -1;
	if (*p == '\0') {
		*end = p;
		return 1;
	}
	memset(next, 0, sizeof(*next));
	next->addr = p;
	next->cu = parent->cu;
	return 0;
}

/* The first byte after the unit of CUDIE, for bounds checks. */
static const unsigned char *
unit_end(Dwarf_Die *cudie)
{
	Dwarf_Off die_off = dwarf_dieoffset(cudie), start, next = 0;
	Dwarf *dw = dwarf_cu_getdwarf(cudie->cu);

	start = die_off - dwarf_cuoffset(cudie);
	if (dw == NULL || dwarf_next_unit(dw, start, &next, NULL, NULL, NULL,
	    NULL, NULL, NULL, NULL) != 0 || next <= die_off)
		return NULL;
	return (const unsigned char *)cudie->addr + (next - die_off);
}

/*
 * Record the function nodes among the descendants of TOP, in DIE order,
 * with an explicit stack: nesting is bounded by nothing but the input.
 * Walking a DIE's children ends at the null entry that closes them, and
 * the DIE's sibling starts right after it, so no subtree is skipped over
 * twice (dwarf_siblingof on a DIE whose children were walked would scan
 * them again, which makes deep nesting quadratic).
 */
static int
walk_children(struct pc_cu *cu, Dwarf_Die *top)
{
	const unsigned char *cu_end = unit_end(top);
	struct walk_frame *stack = NULL, *f;
	size_t nstack = 0, cap = 0;
	unsigned char *end;
	Dwarf_Die cur, next;
	int32_t node;
	int tag, rc = 0, more;

	if (dwarf_child(top, &cur) != 0)
		return 0;
	if (PC_GROW(stack, cap, nstack, 1) < 0)
		return PROFCONV_ENOMEM;
	stack[nstack++] = (struct walk_frame){ *top, -1, 0 };
	for (;;) {
		f = &stack[nstack - 1];
		tag = dwarf_tag(&cur);
		node = f->node;
		if (profconv__dwarf_is_function_tag(tag)) {
			rc = profconv__dwarf_add_node(cu, &cur, tag, f->node,
			    f->depth, &node);
			if (rc < 0)
				break;
		}
		/* A declaration (no code) has no inlined calls either. */
		if ((node >= 0 || !profconv__dwarf_is_function_tag(tag)) &&
		    profconv__dwarf_may_hold_code(tag) &&
		    dwarf_haschildren(&cur) &&
		    dwarf_child(&cur, &next) == 0) {
			uint32_t depth = node != f->node ? f->depth + 1 :
			    f->depth;

			/* F points into the stack, which may move now. */
			if ((rc = PC_GROW(stack, cap, nstack, 1)) < 0)
				break;
			stack[nstack++] = (struct walk_frame){ cur, node, depth };
			cur = next;
			continue;
		}
		more = next_sibling(&cur, &next, &end);
		while (more == 1 && --nstack > 0) {
			/* The children of the popped DIE are done. */
			f = &stack[nstack];
			if (end != NULL && cu_end != NULL)
				more = after_children(&f->die, &end, cu_end,
				    &next);
			else	/* libdw did not say where: skip again */
				more = next_sibling(&f->die, &next, &end);
		}
		if (more != 0)
			break;	/* the end, or malformed data: stop here */
		cur = next;
	}
	free(stack);
	return rc;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct pc_range *x = a, *y = b;
	int c = PC_CMP(x->lo, y->lo);

	/* At one start address the innermost range comes last. */
	if (c == 0)
		c = PC_CMP(x->depth, y->depth);
	return c != 0 ? c : PC_CMP(x->node, y->node);
}

static bool
ranges_sorted(const struct pc_cu *cu)
{
	size_t i;

	for (i = 1; i < cu->nranges; i++)
		if (cmp_range(&cu->ranges[i - 1], &cu->ranges[i]) > 0)
			return false;
	return true;
}

/* Ranges come in DIE order, which in one function is mostly address
 * order already (a C++ unit's functions are in sections of their own,
 * so the unit as a whole is not); cmp_range is a total order over a
 * unit's ranges, so the result is qsort's. */
PC_NATURAL_MERGE_SORT(merge_sort_ranges, struct pc_range, cmp_range)

int
profconv__dwarf_index_cu(struct pc_cu *cu)
{
	size_t size;
	int rc;

	cu->indexed = true;
	rc = cu->abbrev != NULL ? profconv__dwarf_own_walk(cu) :
	    PC_WALK_LIBDW;
	if (rc == PC_WALK_LIBDW) {
		/* Start again, the way libdw walks. */
		cu->nnodes = cu->nranges = 0;
		rc = walk_children(cu, &cu->tree);
	}
	if (rc < 0 || cu->nranges == 0)
		return rc;
	/* Keep each node's ranges together for the containment test. */
	size = cu->nranges * sizeof(*cu->ranges);
	cu->own = malloc(size);
	if (cu->own == NULL)
		return profconv__nomem();
	memcpy(cu->own, cu->ranges, size);
	/* Compilers mostly emit functions in address order already. */
	if (!ranges_sorted(cu)) {
		struct pc_range *tmp = malloc(size);

		if (tmp == NULL)
			qsort(cu->ranges, cu->nranges, sizeof(*cu->ranges),
			    cmp_range);
		else
			merge_sort_ranges(cu->ranges, tmp, cu->nranges);
		free(tmp);
	}
	return 0;
}

static bool
node_holds(const struct pc_cu *cu, const struct pc_node *n, uint64_t dwaddr)
{
	const struct pc_range *r = &cu->own[n->range0];
	uint32_t i;

	for (i = 0; i < n->nranges; i++)
		if (dwaddr >= r[i].lo && dwaddr < r[i].hi)
			return true;
	return false;
}

/*
 * The innermost function node whose ranges hold DWADDR, or -1.  Ranges
 * nest like their DIEs, so among the ranges that start at or before the
 * address the last one either holds it or lies inside one that does:
 * then one of its enclosing nodes holds the address.
 */
int32_t
profconv__dwarf_find_node(struct pc_cu *cu, uint64_t dwaddr)
{
	size_t k = PC_UPPER_BOUND(cu->ranges, cu->nranges, lo, dwaddr), i;
	const struct pc_range *r;
	int32_t n;

	if (k == 0)
		return -1;
	r = &cu->ranges[k - 1];
	if (dwaddr < r->hi)
		return (int32_t)r->node;
	for (n = cu->nodes[r->node].parent; n >= 0; n = cu->nodes[n].parent)
		if (node_holds(cu, &cu->nodes[n], dwaddr))
			return n;
	/* Producers that break the nesting: look back a little. */
	for (i = k - 1; i > 0 && k - i < 64; i--)
		if (dwaddr >= cu->ranges[i - 1].lo && dwaddr < cu->ranges[i - 1].hi)
			return (int32_t)cu->ranges[i - 1].node;
	return -1;
}
