/* SPDX-License-Identifier: MIT */
/*
 * test_dwarf_own_walk.c - a unit's DIEs read as bytes give the function
 * index libdw's walk gives, on programs gcc and g++ compile at test time
 * (lib/symbolize/dwarf_own_walk.c).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>

#include "helpers.h"
#include "symbolize/dwarf_index.h"

#define DWARF_FIXTURE_TMP "/tmp/test_dwarf_own_walk.XXXXXX"
#include "dwarf_fixture.h"

TestSuite(dwarf_own_walk, .fini = cleanup);

/*
 * C++ of the kind index_cu reads its DIEs for itself: templates and
 * inline functions in sections of their own (some discarded by the
 * linker), always_inline chains, and functions split into hot and cold
 * parts, whose DIEs have range lists.
 */
static const char test_cxx_source[] =
	"#include <cstdio>\n"
	"#include <cstdlib>\n"
	"template <int L> struct Chain {\n"
	"\t__attribute__((always_inline)) static inline long\n"
	"\tgo(long x)\n"
	"\t{\n"
	"\t\tif (__builtin_expect(x % (L + 7) == 3, 0))\n"
	"\t\t\tstd::printf(\"%ld\\n\", x);\n"
	"\t\treturn Chain<L - 1>::go(x * 3 + L);\n"
	"\t}\n"
	"};\n"
	"template <> struct Chain<0> {\n"
	"\tstatic long go(long x) { return x ^ 5; }\n"
	"};\n"
	"inline long unused_inline(long x) { return x * 7; }\n"
	"template <typename T> __attribute__((noinline)) T\n"
	"work(T x)\n"
	"{\n"
	"\tif (__builtin_expect(x < 0, 0))\n"
	"\t\tstd::abort();\n"
	"\treturn T(Chain<6>::go(long(x)));\n"
	"}\n"
	"int\n"
	"main(int argc, char **)\n"
	"{\n"
	"\treturn int(work<int>(argc) + work<long>(argc) + "
	"Chain<4>::go(argc)) & 1;\n"
	"}\n";

/* Copies of a CU's nodes and ranges, to index it again. */
struct cu_copy {
	struct pc_node *nodes;
	size_t nnodes;
	struct pc_range *ranges, *own;
	size_t nranges;
};

static void
take_index(struct pc_cu *cu, struct cu_copy *c)
{
	c->nodes = cu->nodes;
	c->nnodes = cu->nnodes;
	c->ranges = cu->ranges;
	c->own = cu->own;
	c->nranges = cu->nranges;
	cu->nodes = NULL;
	cu->ranges = cu->own = NULL;
	cu->nnodes = cu->nodes_cap = cu->nranges = cu->ranges_cap = 0;
	cu->indexed = false;
}

/* The index of each CU read here against the one libdw's walk gives. */
static void
check_own_walk(size_t min_ranges)
{
	struct cu_copy c;
	size_t i, j, own = 0, ranges = 0;
	struct pc_cu *cu;

	cr_assert(eq(int, profconv__dwarf_load(mod), 0));
	for (i = 0; i < mod->ncus; i++) {
		cu = &mod->cus[i];
		own += cu->abbrev != NULL;
		cr_assert(eq(int, profconv__dwarf_index_cu(cu), 0));
		take_index(cu, &c);
		cu->abbrev = NULL;	/* libdw walks it now */
		cr_assert(eq(int, profconv__dwarf_index_cu(cu), 0));
		cr_assert(eq(sz, cu->nnodes, c.nnodes), "CU %zu", i);
		cr_assert(eq(sz, cu->nranges, c.nranges), "CU %zu", i);
		for (j = 0; j < c.nnodes; j++) {
			cr_expect(eq(ptr, cu->nodes[j].die.addr,
			    c.nodes[j].die.addr), "node %zu", j);
			cr_expect(eq(i32, cu->nodes[j].parent,
			    c.nodes[j].parent), "node %zu", j);
			cr_expect(eq(int, cu->nodes[j].inlined,
			    c.nodes[j].inlined), "node %zu", j);
			cr_expect(eq(u32, cu->nodes[j].range0,
			    c.nodes[j].range0), "node %zu", j);
			cr_expect(eq(u32, cu->nodes[j].nranges,
			    c.nodes[j].nranges), "node %zu", j);
		}
		for (j = 0; j < c.nranges; j++) {
			cr_expect(eq(int, memcmp(&cu->ranges[j], &c.ranges[j],
			    sizeof(c.ranges[j])), 0), "range %zu", j);
			cr_expect(eq(int, memcmp(&cu->own[j], &c.own[j],
			    sizeof(c.own[j])), 0), "range %zu", j);
		}
		ranges += c.nranges;
		free(c.nodes);
		free(c.ranges);
		free(c.own);
	}
	cr_expect(ge(sz, own, 1));
	cr_expect(ge(sz, ranges, min_ranges), "%zu ranges", ranges);
}

/* The DIEs read as bytes give the index libdw's walk gives. */
Test(dwarf_own_walk, reads_dies_as_libdw_walks_them_dwarf5)
{
	open_compiled_source("g++", "prog.cc", test_cxx_source,
	    "-g -gdwarf-5 -O2 -ffunction-sections -Wl,--gc-sections");
	check_own_walk(8);
}

Test(dwarf_own_walk, reads_dies_as_libdw_walks_them_dwarf4)
{
	open_compiled_source("g++", "prog.cc", test_cxx_source,
	    "-g -gdwarf-4 -O2");
	check_own_walk(8);
}

Test(dwarf_own_walk, reads_dies_as_libdw_walks_them_in_c)
{
	open_compiled("-g -O2");
	check_own_walk(2);
}
