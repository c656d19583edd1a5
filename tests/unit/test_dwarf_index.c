/* SPDX-License-Identifier: MIT */
/*
 * test_dwarf_index.c - tests for a module's address index in
 * lib/symbolize/dwarf_index.c (symbol table, CU table, per-CU function
 * ranges), through its own functions, on programs gcc compiles at test
 * time: every answer is compared with libdw's (dwarf_getscopes) or with
 * the ELF symbol table.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>

#include "helpers.h"
#include "symbolize/dwarf_index.h"

#define STR(s) ((char *)(s))

#define DWARF_FIXTURE_TMP "/tmp/test_dwarf_index.XXXXXX"
#include "dwarf_fixture.h"

TestSuite(dwarf_index, .fini = cleanup);

/* The innermost function scope libdw finds at DWADDR in CU, or -1. */
static int64_t
libdw_function_at(struct pc_cu *cu, uint64_t dwaddr)
{
	Dwarf_Die *scopes = NULL;
	int64_t off = -1;
	int i, n, tag;

	n = dwarf_getscopes(&cu->die, dwaddr, &scopes);
	for (i = 0; i < n; i++) {
		tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine) {
			off = (int64_t)dwarf_dieoffset(&scopes[i]);
			break;
		}
	}
	free(scopes);
	return off;
}

/* Our innermost function node at DWADDR against libdw's scope. */
static void
expect_node_like_libdw(struct pc_cu *cu, uint64_t dwaddr)
{
	int32_t node = profconv__dwarf_find_node(cu, dwaddr);
	int64_t want = libdw_function_at(cu, dwaddr);

	cr_assert(eq(ptr, profconv__dwarf_find_cu(mod, dwaddr), cu),
	    "CU of %#llx", (unsigned long long)dwaddr);
	if (want < 0) {
		cr_assert(eq(i32, node, -1), "at %#llx",
		    (unsigned long long)dwaddr);
		return;
	}
	cr_assert(ge(i32, node, 0), "at %#llx", (unsigned long long)dwaddr);
	cr_assert(eq(i64, (int64_t)dwarf_dieoffset(&cu->nodes[node].die),
	    want), "at %#llx", (unsigned long long)dwaddr);
}

static void
check_against_libdw(void)
{
	const struct pc_range *r;
	size_t i, j, inlined = 0, checked = 0;
	struct pc_cu *cu;

	cr_assert(eq(int, profconv__dwarf_load(mod), 0));
	cr_assert(not(zero(ptr, mod->dw)));
	cr_assert(ge(sz, mod->ncus, 1));
	for (i = 1; i < mod->ncuranges; i++)
		cr_assert(le(u64, mod->curanges[i - 1].lo,
		    mod->curanges[i].lo));
	for (i = 0; i < mod->ncus; i++) {
		cu = &mod->cus[i];
		cr_assert(eq(int, profconv__dwarf_index_cu(cu), 0));
		for (j = 0; j < cu->nnodes; j++)
			inlined += cu->nodes[j].inlined;
		for (j = 0; j < cu->nranges; j++) {
			r = &cu->ranges[j];
			cr_assert(lt(u64, r->lo, r->hi));
			expect_node_like_libdw(cu, r->lo);
			expect_node_like_libdw(cu, r->lo + (r->hi - r->lo) / 2);
			expect_node_like_libdw(cu, r->hi - 1);
			checked += 3;
		}
	}
	/* plus() is inlined into twice() and main(); gcc -O2 leaves one
	 * of the two with no code of its own, hence no node. */
	cr_expect(ge(sz, inlined, 1));
	cr_expect(ge(sz, checked, 9));
}

Test(dwarf_index, finds_the_function_libdw_finds_at_O2)
{
	open_compiled("-g -O2");
	check_against_libdw();
}

Test(dwarf_index, finds_the_function_libdw_finds_at_O0_dwarf4)
{
	open_compiled("-g -gdwarf-4 -O0");
	check_against_libdw();
}

/* An inlined instance's node nests in the function it was inlined in. */
Test(dwarf_index, nests_inlined_calls_in_their_callers)
{
	const struct pc_node *n, *p;
	size_t i, j, found = 0;
	struct pc_cu *cu;

	open_compiled("-g -O2");
	cr_assert(eq(int, profconv__dwarf_load(mod), 0));
	for (i = 0; i < mod->ncus; i++) {
		cu = &mod->cus[i];
		cr_assert(eq(int, profconv__dwarf_index_cu(cu), 0));
		for (j = 0; j < cu->nnodes; j++) {
			n = &cu->nodes[j];
			if (!n->inlined)
				continue;
			cr_assert(ge(i32, n->parent, 0));
			p = &cu->nodes[n->parent];
			cr_expect(eq(int, p->inlined, 0));
			cr_expect(eq(int, profconv__dwarf_find_node(cu,
			    cu->own[n->range0].lo), (int32_t)j));
			found++;
		}
	}
	cr_expect(ge(sz, found, 1));
}

Test(dwarf_index, finds_no_cu_outside_the_ranges)
{
	open_compiled("-g -O2");
	cr_assert(eq(int, profconv__dwarf_load(mod), 0));
	cr_assert(ge(sz, mod->ncuranges, 1));
	cr_expect(zero(ptr, profconv__dwarf_find_cu(mod, 0)));
	cr_expect(zero(ptr, profconv__dwarf_find_cu(mod,
	    mod->curanges[0].lo - 1)));
	cr_expect(zero(ptr, profconv__dwarf_find_cu(mod, UINT64_MAX)));
}

Test(dwarf_index, finds_the_symbol_covering_an_address)
{
	const struct pc_sym *s;
	uint64_t main_addr, twice_addr;
	size_t i;

	open_compiled("-g -O2");
	main_addr = symbol_address("main");
	twice_addr = symbol_address("twice");
	s = profconv__dwarf_find_sym(mod, main_addr);
	cr_assert(not(zero(ptr, (void *)s)));
	cr_expect(eq(str, STR(s->name), "main"));
	s = profconv__dwarf_find_sym(mod, main_addr + 1);
	cr_assert(not(zero(ptr, (void *)s)));
	cr_expect(eq(str, STR(s->name), "main"));
	s = profconv__dwarf_find_sym(mod, twice_addr);
	cr_assert(not(zero(ptr, (void *)s)));
	cr_expect(eq(str, STR(s->name), "twice"));
	/* Sized symbols end where their size says. */
	cr_assert(ge(u64, s->size, 1));
	cr_expect(eq(str, STR(profconv__dwarf_find_sym(mod, twice_addr +
	    s->size - 1)->name), "twice"));
	s = profconv__dwarf_find_sym(mod, twice_addr + s->size);
	cr_expect(s == NULL || strcmp(s->name, "twice") != 0);
	cr_expect(zero(ptr, (void *)profconv__dwarf_find_sym(mod, 0)));
	/* Sorted by address, one per address. */
	cr_assert(mod->symtab_loaded);
	for (i = 1; i < mod->nsyms; i++)
		cr_assert(lt(u64, mod->syms[i - 1].addr, mod->syms[i].addr));
}
