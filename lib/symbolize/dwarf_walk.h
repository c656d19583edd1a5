/* SPDX-License-Identifier: MIT */
/*
 * dwarf_walk.h - what the two walks of one CU's DIEs share:
 * dwarf_nodes.c records the function nodes (walking with libdw when it
 * must), dwarf_own_walk.c reads the DIEs' bytes itself.  Private to
 * those two files.
 */
#ifndef PROFCONV_DWARF_WALK_H
#define PROFCONV_DWARF_WALK_H

#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>

#include "symbolize/dwarf_index.h"

/* profconv__dwarf_own_walk's answer when the unit is libdw's to walk. */
#define PC_WALK_LIBDW 1

static inline bool
profconv__dwarf_is_function_tag(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	    tag == DW_TAG_entry_point;
}

/* Tags whose children can hold functions with code. */
static inline bool
profconv__dwarf_may_hold_code(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_entry_point:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

/*
 * Record DIE (of TAG, under the node PARENT, at nesting DEPTH) as a node
 * of CU with its ranges from dwarf_ranges; *IDX is its index, -1 when it
 * has no code.  Errors: PROFCONV_ENOMEM.
 */
int profconv__dwarf_add_node(struct pc_cu *cu, Dwarf_Die *die, int tag,
    int32_t parent, uint32_t depth, int32_t *idx);
/* One range [LO, HI) of DIE, as profconv__dwarf_add_node() records each
 * (its node made on the first, *IDX -1 before); a range at 0 or empty
 * is none.  Errors: PROFCONV_ENOMEM. */
int profconv__dwarf_add_range(struct pc_cu *cu, const Dwarf_Die *die,
    int tag, int32_t parent, uint32_t depth, Dwarf_Addr lo, Dwarf_Addr hi,
    int32_t *idx);

/*
 * CU's function nodes and ranges from its DIEs read as bytes, in the
 * order the libdw walk records them: 0, PROFCONV_ENOMEM, or
 * PC_WALK_LIBDW (then CU's nodes and ranges are to be made again).
 */
int profconv__dwarf_own_walk(struct pc_cu *cu);

#endif /* PROFCONV_DWARF_WALK_H */
