/* SPDX-License-Identifier: MIT */
/*
 * test_profile_load.c - a profile read and symbolized in one call, and
 * nothing handed back when either step fails (lib/symbolize/profile_load.c).
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "helpers.h"

static struct profconv_profile *prof;
static struct profconv_symbolizer *sym;
static FILE *in;

static void
drop_all(void)
{
	profconv_profile_free(prof);
	prof = NULL;
	profconv_symbolizer_free(sym);
	sym = NULL;
	if (in != NULL)
		fclose(in);
	in = NULL;
}

TestSuite(profile_load, .fini = drop_all);

/* One heap sample at 0x401010, in a mapping of a file that is not there. */
static const char heap[] =
    "heap profile: 1: 128 [ 1: 128] @ heapprofile\n"
    "1: 128 [ 1: 128] @ 0x401010\n"
    "\n"
    "MAPPED_LIBRARIES:\n"
    "00401000-00405000 r-xp 00001000 08:01 12 /nonexistent/prog\n";

static FILE *
open_text(const char *text)
{
	in = fmemopen((void *)text, strlen(text), "r");
	cr_assert(not(zero(ptr, in)));
	return in;
}

/* Without a symbolizer the profile is as read: no lines, and the
 * address one less than the return address the text holds, as pprof's
 * legacy heap reader makes it (it lands on the call). */
static void
reads_without_a_symbolizer(void)
{
	struct profconv_location loc;
	struct profconv_mapping m;

	cr_assert(eq(int, profconv_profile_load(&prof, open_text(heap), NULL,
	    NULL, NULL), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_assert(eq(u64, loc.address, 0x40100f));
	cr_assert(eq(sz, loc.nlines, 0));
	cr_assert(eq(int, profconv_profile_mapping(prof, loc.mapping_id, &m),
	    0));
	cr_assert(eq(str, (char *)m.file, "/nonexistent/prog"));
	drop_all();
}

/* With one, the symbolizer has run over the profile: its stats count
 * the location, whose binary is missing. */
static void
symbolizes_with_the_symbolizer_given(void)
{
	struct profconv_symbolize_stats st;

	memset(&st, 0xff, sizeof(st));
	cr_assert(eq(int, profconv_symbolizer_new(&sym, NULL), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, profconv_profile_load(&prof, open_text(heap), NULL,
	    sym, &st), 0), "%s", ERRMSG);
	cr_assert(not(zero(ptr, prof)));
	cr_assert(eq(sz, st.locations, 1));
	cr_assert(eq(sz, st.no_binary, 1));
	cr_assert(eq(sz, st.symbolized, 0));
	drop_all();
}

/* The profile read, then symbolized if a symbolizer is given. */
Test(profile_load, reads_with_or_without_a_symbolizer)
{
	reads_without_a_symbolizer();
	symbolizes_with_the_symbolizer_given();
}

/* A read that fails hands back nothing, with the reader's error. */
static void
hands_back_nothing_when_the_read_fails(void)
{
	prof = (struct profconv_profile *)&prof;
	cr_assert(eq(int, profconv_profile_load(&prof,
	    open_text("hello world\n"), NULL, NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, prof));
	drop_all();
}

/* So does a symbolizer that fails: the profile read is freed. */
static void
hands_back_nothing_when_symbolizing_fails(void)
{
	struct profconv_symbolize_options o = PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	o.maps_file = "/nonexistent/maps";
	cr_assert(eq(int, profconv_symbolizer_new(&sym, &o), 0), "%s", ERRMSG);
	prof = (struct profconv_profile *)&prof;
	cr_assert(eq(int, profconv_profile_load(&prof, open_text(heap), NULL,
	    sym, NULL), PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/maps': No such file or directory"));
	ASSERT_NO_LEAKS();
	drop_all();
}

/* A failed read or symbolizer hands back no profile. */
Test(profile_load, hands_back_nothing_on_failure)
{
	hands_back_nothing_when_the_read_fails();
	hands_back_nothing_when_symbolizing_fails();
}
