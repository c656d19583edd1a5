/* SPDX-License-Identifier: MIT */
/*
 * test_dwarf_frames.c - the frames of an address: the inline chain with
 * its files and lines, the symbol table when there is no DWARF, where
 * the outer function starts (lib/symbolize/dwarf_frames.c), on programs
 * gcc compiles at test time, the lines read from the source itself.
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

#define DWARF_FIXTURE_TMP "/tmp/test_dwarf_frames.XXXXXX"
#include "dwarf_fixture.h"

TestSuite(dwarf_frames, .fini = cleanup);

static void
answers_from_the_symbol_table_without_dwarf(void)
{
	struct pc_frame frames[8];
	enum pc_frame_source src;
	size_t n;

	open_compiled("-g0 -O2");
	cr_expect(not(profconv__symmod_has_dwarf(mod)));
	cr_expect(zero(ptr, mod->dw));
	cr_expect(eq(sz, mod->ncus, 0));
	cr_assert(eq(int, profconv__symmod_lookup(mod, symbol_address("twice"),
	    frames, 8, &n, &src), 0));
	cr_assert(eq(sz, n, 1));
	cr_expect(eq(int, src, PC_FRAMES_SYMTAB));
	cr_expect(eq(str, STR(frames[0].name), "twice"));
	cr_expect(zero(ptr, (void *)frames[0].file));
	cleanup();
}

/* An address of twice() where plus() is inlined: a chain of two. */
static uint64_t
inlined_address(struct pc_frame *frames, size_t *n)
{
	uint64_t a = symbol_address("twice");
	enum pc_frame_source src;
	size_t i;

	for (i = 0; i < 256; i++) {
		cr_assert(eq(int, profconv__symmod_lookup(mod, a + i, frames,
		    8, n, &src), 0));
		if (*n == 2)
			return a + i;
	}
	cr_assert(0, "plus() is inlined nowhere in twice()");
	return 0;
}

/* With -O0, always_inline plus() still lands inside twice(): plus's
 * body is line 5 of the source, its call line 10, the functions are
 * named on lines 3 and 8. */
static void
gives_the_inline_chain_innermost_first(void)
{
	struct pc_frame f[8];
	size_t n, len;

	open_compiled("-g -O0");
	(void)inlined_address(f, &n);
	cr_assert(eq(str, STR(f[0].name), "plus"));
	cr_assert(eq(i64, f[0].line, 5));
	cr_assert(eq(i64, f[0].start_line, 3));
	cr_assert(eq(str, STR(f[1].name), "twice"));
	cr_assert(eq(i64, f[1].line, 10));
	cr_assert(eq(i64, f[1].start_line, 8));
	cr_assert(not(zero(ptr, (void *)f[0].file)));
	len = strlen(f[0].file);
	cr_assert(ge(sz, len, 7));
	cr_assert(eq(str, STR(f[0].file + len - 7), "/prog.c"));
	cr_assert(not(zero(ptr, (void *)f[0].comp_dir)));
	cr_assert(eq(str, STR(f[0].comp_dir), dir));
	cleanup();
}

/* Room for one frame keeps the outermost: the function the address is
 * in, as pprof's last line of a location is. */
static void
keeps_the_outermost_frame_when_short_of_room(void)
{
	struct pc_frame f[8];
	enum pc_frame_source src;
	uint64_t a;
	size_t n;

	open_compiled("-g -O0");
	a = inlined_address(f, &n);
	cr_assert(eq(int, profconv__symmod_lookup(mod, a, f, 1, &n, &src), 0));
	cr_assert(eq(sz, n, 1));
	cr_assert(eq(int, src, PC_FRAMES_DWARF));
	cr_assert(eq(str, STR(f[0].name), "twice"));
	cleanup();
}

/* The outer function starts where its ELF symbol does; a frame named
 * otherwise has no start. */
static void
finds_where_the_outer_function_starts(void)
{
	struct pc_frame f[8], other = { 0 };
	uint64_t a, start = 0;
	size_t n;

	open_compiled("-g -O0");
	a = inlined_address(f, &n);
	cr_assert(profconv__symmod_start(mod, a, &f[1], &start));
	cr_assert(eq(u64, start, symbol_address("twice")));
	other.name = "main";
	cr_assert(not(profconv__symmod_start(mod, a, &other, &start)));
	other.name = NULL;
	cr_assert(not(profconv__symmod_start(mod, a, &other, &start)));
	cleanup();
}

/* The frames of an address: from the symbol table, or the inline chain. */
Test(dwarf_frames, frames_of_an_address)
{
	answers_from_the_symbol_table_without_dwarf();
	gives_the_inline_chain_innermost_first();
	keeps_the_outermost_frame_when_short_of_room();
	finds_where_the_outer_function_starts();
}

/* Our line tables against libdw's, row by row, through the module. */
Test(dwarf_frames, reads_every_line_table_as_libdw_does)
{
	size_t rows = 0;

	open_compiled("-g -O2");
	cr_assert(eq(int, profconv__symmod_check_lines(mod, &rows), 0), "%s",
	    profconv_errmsg());
	cr_assert(ge(sz, rows, 10));
}
