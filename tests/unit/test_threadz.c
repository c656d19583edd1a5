/* SPDX-License-Identifier: MIT */
/*
 * test_threadz.c - tests for the threadz reader (read/threadz.c): legacy
 * thread profiles, a block of addresses per thread.
 */

#include "config.h"

#include <stdint.h>

#include "read_fixture.h"

TestSuite(thread, .fini = drop);

static void
expect_count(size_t i, int64_t v)
{
	struct profconv_sample s;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(eq(i64, s.values[0], v), "sample %zu", i);
}

static void
reads_threadz_blocks(void)
{
	static const char text[] =
	    "--- threadz 1 ---\n"
	    "some free text\n"
	    "\n"
	    "--- Thread 7f794ab90940 (name: main/14748) stack: ---\n"
	    "  PC:  0x00bc8f1c: helper(arg *)\n"
	    "  0x0040be31: main\n"
	    "--- Thread 7f794964e700 (name: a/b/14751) stack: ---\n"
	    "  PC: 0x7f794a32bf7d 0x7f794a32414e\n"
	    "      creator: 0xa45b96 0x40bce4\n"
	    "--- Thread 7f794934c700 (name: thread2/14752) stack: ---\n"
	    "  same as previous thread\n"
	    "--- Thread 7f794934c701 (name: thread3/14753) stack: ---\n"
	    "--- Memory map: ---\n"
	    "  00400000-00fcb000: /bin/app\n";
	static const uint64_t s0[] = { 0xbc8f1c, 0x40be30 };
	static const uint64_t s1[] = { 0x7f794a32bf7d, 0x7f794a32414d,
		0xa45b95, 0x40bce3 };
	struct profconv_value_type vt;
	struct profconv_mapping m;

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_THREAD), 0), "%s",
	    ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 1));
	cr_assert(eq(int, profconv_profile_sample_type(prof, 0, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, "thread"));
	cr_assert(eq(str, (char *)vt.unit, "count"));
	cr_assert(eq(i64, profconv_profile_period(prof, &vt), 1));
	cr_assert(eq(str, (char *)vt.type, "thread"));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	expect_stack(prof, 0, s0, 2);
	expect_stack(prof, 1, s1, 4);
	/* "same as previous" and an empty block both count the previous. */
	expect_count(0, 1);
	expect_count(1, 3);
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(eq(str, (char *)m.file, "/bin/app"));
	ASSERT_NO_LEAKS();
}

static void
reads_a_bare_thread_header_and_stops_at_no_stack_trace(void)
{
	static const char text[] =
	    "# comment\n"
	    "--- Thread 1 (name: t/2) stack: ---\n"
	    "0x100 0x100 0x200\n"
	    "---- no stack trace for thread 3\n"
	    "--- Thread 4 (name: u/5) stack: ---\n"
	    "0x300\n";
	static const uint64_t s0[] = { 0x100, 0x1ff };

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_THREAD), 0), "%s",
	    ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	/* The unwinder's copy of the leaf (now 0xff) is dropped, but keeps
	 * its location, as in pprof. */
	expect_stack(prof, 0, s0, 2);
	cr_assert(eq(sz, profconv_profile_location_count(prof), 3));
}

Test(thread, reads_thread_blocks)
{
	reads_threadz_blocks();
	drop();
	reads_a_bare_thread_header_and_stops_at_no_stack_trace();
}

static void
rejects_an_overlong_address(void)
{
	static const char text[] =
	    "\n--- threadz 1 ---\n\n"
	    "--- Thread 7eff063d9940 (name: main/25376) stack: ---\n"
	    "  PC: 0x40b688 0x4d5f51 0x40be31 0x473add693e639c6f0\n"
	    "--- Memory map: ---\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_THREAD),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 5: address '0x473add693e639c6f0' does "
	    "not fit in 64 bits"));
}

static void
rejects_a_stray_section(void)
{
	static const char text[] =
	    "--- Thread 1 (name: t/2) stack: ---\n0x100\n--- bogus ---\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_THREAD),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 3: expected '--- Thread ID (name: "
	    "NAME/TID) stack: ---', got '--- bogus ---'"));
}

/* pprof fails a thread profile cut short; so do we rather than guess. */
static void
rejects_a_profile_without_its_memory_map(void)
{
	static const char text[] =
	    "--- threadz 1 ---\n"
	    "--- Thread 1 (name: t/2) stack: ---\n0x100\n\n";

	cr_assert(eq(int, read_text(text, PROFCONV_FORMAT_THREAD),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 4: thread profile ends without a "
	    "memory map"));
}

Test(thread, rejects_malformed_profiles)
{
	rejects_an_overlong_address();
	drop();
	rejects_a_stray_section();
	drop();
	rejects_a_profile_without_its_memory_map();
}
