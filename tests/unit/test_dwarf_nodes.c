/* SPDX-License-Identifier: MIT */
/*
 * test_dwarf_nodes.c - one CU's function intervals: ranges recorded per
 * node, and the innermost node holding an address
 * (lib/symbolize/dwarf_nodes.c).
 */

#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "symbolize/dwarf_index.h"
#include "symbolize/dwarf_walk.h"

static struct pc_cu cu;
static const Dwarf_Die no_die;

static void
free_cu(void)
{
	free(cu.nodes);
	free(cu.ranges);
	memset(&cu, 0, sizeof(cu));
}

TestSuite(dwarf_nodes, .fini = free_cu);

/* Record one range [LO, HI) of the node *IDX (-1: a new one). */
static void
add(int tag, int32_t parent, uint32_t depth, uint64_t lo, uint64_t hi,
    int32_t *idx)
{
	cr_assert(eq(int, profconv__dwarf_add_range(&cu, &no_die, tag, parent,
	    depth, lo, hi, idx), 0));
}

/*
 * f [0x1000, 0x1100) holds g, inlined in two pieces [0x1010, 0x1020)
 * and [0x1040, 0x1050); h [0x2000, 0x2010) stands alone.  Added in
 * address order, the ranges are already as the index sorts them and
 * grouped by node, so they serve as both lists.
 */
static void
make_cu(int32_t *f, int32_t *g, int32_t *h)
{
	*f = *g = *h = -1;
	add(DW_TAG_subprogram, -1, 0, 0x1000, 0x1100, f);
	add(DW_TAG_inlined_subroutine, *f, 1, 0x1010, 0x1020, g);
	add(DW_TAG_inlined_subroutine, *f, 1, 0x1040, 0x1050, g);
	add(DW_TAG_subprogram, -1, 0, 0x2000, 0x2010, h);
	cu.own = cu.ranges;
}

static void
records_each_node_once_with_its_ranges(void)
{
	int32_t f, g, h;

	make_cu(&f, &g, &h);
	cr_assert(eq(i32, f, 0));
	cr_assert(eq(i32, g, 1));
	cr_assert(eq(i32, h, 2));
	cr_assert(eq(sz, cu.nnodes, 3));
	cr_assert(eq(sz, cu.nranges, 4));
	cr_assert(eq(u32, cu.nodes[g].range0, 1));
	cr_assert(eq(u32, cu.nodes[g].nranges, 2));
	cr_assert(eq(i32, cu.nodes[g].parent, f));
	cr_assert(cu.nodes[g].inlined);
	cr_assert(not(cu.nodes[f].inlined));
	cr_assert(eq(u32, cu.ranges[2].node, (uint32_t)g));
	cr_assert(eq(u32, cu.ranges[2].depth, 1));
	cr_assert(eq(u64, cu.ranges[3].lo, 0x2000));
	cr_assert(eq(u64, cu.ranges[3].hi, 0x2010));
	free_cu();
}

/* Code the linker discarded (at 0) and empty ranges make no node. */
static void
skips_discarded_and_empty_ranges(void)
{
	int32_t idx = -1;

	add(DW_TAG_subprogram, -1, 0, 0, 0x40, &idx);
	add(DW_TAG_subprogram, -1, 0, 0x3000, 0x3000, &idx);
	add(DW_TAG_subprogram, -1, 0, 0x3010, 0x3000, &idx);
	cr_assert(eq(i32, idx, -1));
	cr_assert(eq(sz, cu.nnodes, 0));
	cr_assert(eq(sz, cu.nranges, 0));
	add(DW_TAG_subprogram, -1, 0, 0x3000, 0x3001, &idx);
	cr_assert(eq(i32, idx, 0));
	cr_assert(eq(u32, cu.nodes[0].nranges, 1));
	free_cu();
}

/* Each node recorded once with its ranges; none for discarded code. */
Test(dwarf_nodes, records_nodes_with_ranges)
{
	records_each_node_once_with_its_ranges();
	skips_discarded_and_empty_ranges();
}

static void
finds_the_innermost_node_holding_an_address(void)
{
	int32_t f, g, h;

	make_cu(&f, &g, &h);
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0xfff), -1));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1000), f));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1015), g));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1045), g));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x2005), h));
	free_cu();
}

/* Between g's pieces and after them, f holds the address; past f's end
 * and h's end (ends are exclusive), nothing does. */
static void
falls_back_to_the_enclosing_node(void)
{
	int32_t f, g, h;

	make_cu(&f, &g, &h);
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1020), f));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1030), f));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x10ff), f));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x1100), -1));
	cr_assert(eq(i32, profconv__dwarf_find_node(&cu, 0x2010), -1));
	free_cu();
}

/* The innermost node holding an address, else the one enclosing it. */
Test(dwarf_nodes, finds_the_node_holding_an_address)
{
	finds_the_innermost_node_holding_an_address();
	falls_back_to_the_enclosing_node();
}
