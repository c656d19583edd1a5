/* SPDX-License-Identifier: MIT */
/*
 * test_convert.c - a run's locations given their lines from the answers,
 * each location counted once in the stats, and the files that left
 * locations unnamed reported once each (lib/symbolize/convert.c).
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_fixture.h"
#include "sym_fixture.h"

TestSuite(convert, .fini = drop_session);

static __attribute__((noinline)) int
probe_function(int x)
{
	/* Keep the call from being folded away. */
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static uint32_t
location(uint32_t mid, uint64_t addr, const struct profconv_line *line)
{
	uint32_t id;

	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, line,
	    line != NULL, 0, &id), 0));
	return id;
}

static uint32_t
add_mapping(const struct profconv_mapping *m)
{
	uint32_t id;

	cr_assert(eq(int, profconv_profile_add_mapping(prof, m, &id), 0));
	return id;
}

/*
 * This program's mapping with two locations of one address, a missing
 * file with two, [vdso] with one, and a location that has its line
 * already: 6 locations, 2 symbolized, 1 already, 1 unsymbolizable, 2
 * without their binary, 1 address looked up.
 */
Test(convert, names_locations_and_counts_each_once)
{
	struct profconv_symbolize_options o = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_mapping self = { 0 }, gone = { 0 }, vdso = { 0 };
	struct profconv_function fn = { "f", "f", "f.c", 1 };
	struct profconv_symbolize_stats st;
	struct profconv_location loc;
	struct profconv_function got;
	struct profconv_line line = { 0, 7, 0 };
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t ms, mg, mv, l1, l2, lk;
	char file[4096];
	size_t len;

	self_mapping(addr, &self, file, sizeof(file));
	gone.start = 0x1000;
	gone.limit = 0x2000;
	gone.file = "/nonexistent/bin";
	vdso.start = 0x3000;
	vdso.limit = 0x4000;
	vdso.file = "[vdso]";
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	ms = add_mapping(&self);
	mg = add_mapping(&gone);
	mv = add_mapping(&vdso);
	cr_assert(eq(int, profconv_profile_add_function(prof, &fn,
	    &line.function_id), 0));
	l1 = location(ms, addr, NULL);
	l2 = location(ms, addr, NULL);
	(void)location(mg, 0x1010, NULL);
	(void)location(mg, 0x1020, NULL);
	(void)location(mv, 0x3010, NULL);
	lk = location(ms, addr + 4, &line);
	o.binary_report = note_report;
	nreported = 0;
	cr_assert(eq(int, profconv_symbolizer_new(&sz, &o), 0), "%s", ERRMSG);
	memset(&st, 0, sizeof(st));
	cr_assert(eq(int, profconv__sym_session_init(&s, sz, prof, &st), 0));
	session_made = true;
	cr_assert(eq(int, profconv__sym_plan(&s), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__sym_symbolize_locations(&s), 0), "%s",
	    ERRMSG);
	cr_assert(eq(sz, st.locations, 6));
	cr_assert(eq(sz, st.symbolized, 2));
	cr_assert(eq(sz, st.already_symbolized, 1));
	cr_assert(eq(sz, st.unsymbolizable, 1));
	cr_assert(eq(sz, st.no_binary, 2));
	cr_assert(eq(sz, st.addresses, 1));
	/* Both locations of the address got its lines: the function last. */
	cr_assert(eq(int, profconv_profile_location(prof, l2, &loc), 0));
	cr_assert(ge(sz, loc.nlines, 1));
	cr_assert(eq(int, profconv_profile_function(prof,
	    loc.lines[loc.nlines - 1].function_id, &got), 0));
	cr_assert(eq(str, (char *)got.name, "probe_function"));
	len = strlen(got.file);
	cr_assert(ge(sz, len, 14));
	cr_assert(eq(str, (char *)got.file + len - 14, "test_convert.c"));
	cr_assert(eq(int, profconv_profile_location(prof, l1, &loc), 0));
	cr_assert(ge(sz, loc.nlines, 1));
	/* The location that had a line keeps it alone. */
	cr_assert(eq(int, profconv_profile_location(prof, lk, &loc), 0));
	cr_assert(eq(sz, loc.nlines, 1));
	cr_assert(eq(i64, loc.lines[0].line, 7));
	/* The missing file, once, with both its locations. */
	cr_assert(eq(sz, nreported, 1));
	cr_assert(eq(str, reported[0], "/nonexistent/bin"));
	cr_assert(eq(sz, reported_locations[0], 2));
}
