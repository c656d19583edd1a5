/* SPDX-License-Identifier: MIT */
/*
 * test_heaptrack.c - tests for the heaptrack reader on small hand-made
 * data files; the expected values follow heaptrack_print's definitions
 * (heaptrack-massif.md A.12), worked out by hand for each event list.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "helpers.h"

enum { ALLOC_OBJECTS, ALLOC_SPACE, INUSE_OBJECTS, INUSE_SPACE, PEAK_SPACE,
	TEMPORARY_OBJECTS };

/* Strings: 1 prog, 2 f, 3 f.c, 4 g, 5 main; ips 1..3 in prog; traces
 * 1 = main, 2 = main>f, 3 = main>g. */
#define HEAD \
	"v 10400 3\nX ./prog arg\nI 1000 10\n" \
	"s 4 prog\ns 1 f\ns 3 f.c\ns 1 g\ns 4 main\n" \
	"i 1010 1 5 3 9\ni 1020 1 2 3 2\ni 1030 1 4 3 5\n" \
	"t 1 0\nt 2 1\nt 3 1\n"
#define TAIL "c 1f\nR 20\n\n# strings: 5\n# ips: 3\n"

static struct profconv_profile *
read_ok(const char *text)
{
	struct profconv_profile *prof = NULL;
	enum profconv_format fmt;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    NULL, &fmt), 0), "%s", profconv_errmsg());
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_HEAPTRACK));
	return prof;
}

static void
expect_fail(const char *text, int code, const char *msg)
{
	struct profconv_profile *prof = NULL;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    NULL, NULL), code), "%s", profconv_errmsg());
	cr_expect(eq(ptr, prof, NULL));
	cr_expect(eq(str, ERRMSG, (char *)msg));
}

/* Sample I's value slot T. */
static int64_t
value(const struct profconv_profile *prof, size_t i, int t)
{
	struct profconv_sample s;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	return s.values[t];
}

static const char *
function_name(const struct profconv_profile *prof, uint32_t id)
{
	struct profconv_function f;

	cr_assert(eq(int, profconv_profile_function(prof, id, &f), 0));
	return f.name;
}

static void
replays_events_per_trace(void)
{
	/* info 0: 100 B at f, info 1: 10 B at g, info 2: 7 B at f. */
	struct profconv_profile *prof = read_ok(HEAD
	    "a 64 2\na a 3\n+ 0\n+ 1\n- 1\n+ 0\na 7 2\n+ 2\n- 0\n" TAIL);
	struct profconv_value_type vt;

	cr_assert(eq(sz, profconv_profile_sample_type_count(prof), 6));
	profconv_profile_sample_type(prof, 5, &vt);
	cr_expect(eq(str, (char *)vt.type, "temporary_objects"));
	cr_expect(eq(str, (char *)profconv_profile_default_sample_type(prof),
	    "inuse_space"));
	/* One sample per trace, in the order the traces got infos. */
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	cr_expect(eq(i64, value(prof, 0, ALLOC_OBJECTS), 3));
	cr_expect(eq(i64, value(prof, 0, ALLOC_SPACE), 207));
	cr_expect(eq(i64, value(prof, 0, INUSE_OBJECTS), 2));
	cr_expect(eq(i64, value(prof, 0, INUSE_SPACE), 107));
	cr_expect(eq(i64, value(prof, 1, ALLOC_OBJECTS), 1));
	cr_expect(eq(i64, value(prof, 1, INUSE_SPACE), 0));
	/* g's block was freed right after it was made: temporary. */
	cr_expect(eq(i64, value(prof, 1, TEMPORARY_OBJECTS), 1));
	cr_expect(eq(i64, value(prof, 0, TEMPORARY_OBJECTS), 0));
	/* The peak, 207 B, is after "+ 2": f held all of it. */
	cr_expect(eq(i64, value(prof, 0, PEAK_SPACE), 207));
	cr_expect(eq(i64, value(prof, 1, PEAK_SPACE), 0));
	cr_expect(eq(i64, profconv_profile_duration_nanos(prof), 31000000));
	profconv_profile_free(prof);
}

/* Equal maxima: the first one counts (heaptrack_print compares with >). */
static void
peak_is_the_first_maximum(void)
{
	struct profconv_profile *prof = read_ok(HEAD
	    "a 186a0 2\na 186a0 3\na 30d40 1\n"
	    "+ 0\n+ 1\n- 0\n- 1\n+ 2\n" TAIL);

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	cr_expect(eq(i64, value(prof, 0, PEAK_SPACE), 100000));
	cr_expect(eq(i64, value(prof, 1, PEAK_SPACE), 100000));
	cr_expect(eq(i64, value(prof, 2, PEAK_SPACE), 0));
	profconv_profile_free(prof);
}

/* The peak moves on when a later maximum is higher. */
static void
peak_follows_a_higher_maximum(void)
{
	struct profconv_profile *prof = read_ok(HEAD
	    "a 64 2\na c8 3\n+ 0\n- 0\n+ 1\n+ 0\n- 1\n" TAIL);

	cr_expect(eq(i64, value(prof, 0, PEAK_SPACE), 100));
	cr_expect(eq(i64, value(prof, 1, PEAK_SPACE), 200));
	profconv_profile_free(prof);
}

/* A free of info 0 after another free counts as temporary, as in
 * heaptrack_print, whose "latest allocation" starts and resets at 0. */
static void
temporary_counts_as_heaptrack_print(void)
{
	struct profconv_profile *prof = read_ok(HEAD
	    "a 64 2\na a 3\n+ 0\n+ 1\n- 1\n- 0\n" TAIL);

	cr_expect(eq(i64, value(prof, 1, TEMPORARY_OBJECTS), 1));
	cr_expect(eq(i64, value(prof, 0, TEMPORARY_OBJECTS), 1));
	profconv_profile_free(prof);
}

/* The events replayed per trace: allocations, the peak and temporary
 * allocations counted as heaptrack_print counts them. */
Test(heaptrack, replays_events_as_heaptrack_print)
{
	replays_events_per_trace();
	peak_is_the_first_maximum();
	peak_follows_a_higher_maximum();
	temporary_counts_as_heaptrack_print();
}

static void
stacks_and_inline_lines(void)
{
	struct profconv_profile *prof = read_ok(
	    "v 10400 3\ns 4 prog\ns 1 f\ns 3 f.c\ns 4 main\ns 5 inner\n"
	    "i 1010 1 4 3 9\ni 1020 1 5 3 3 2 3 8\nt 1 0\nt 2 1\n"
	    "a 8 2\n+ 0\n\n# strings: 5\n# ips: 2\n");
	static const uint64_t want[] = { 0x1020, 0x1010 };
	struct profconv_location loc;
	struct profconv_sample s;
	struct profconv_mapping m;

	expect_stack(prof, 0, want, 2);
	profconv_profile_sample(prof, 0, &s);
	profconv_profile_location(prof, sample_location(prof, 0, 0), &loc);
	cr_assert(eq(sz, loc.nlines, 2));
	cr_expect(eq(str, (char *)function_name(prof, loc.lines[0].function_id),
	    "inner"));
	cr_expect(eq(i64, loc.lines[0].line, 3));
	cr_expect(eq(str, (char *)function_name(prof, loc.lines[1].function_id),
	    "f"));
	cr_expect(eq(i64, loc.lines[1].line, 8));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	profconv_profile_mapping(prof, loc.mapping_id, &m);
	cr_expect(eq(str, (char *)m.file, "prog"));
	cr_expect(m.has_functions && m.has_filenames && m.has_line_numbers &&
	    m.has_inline_frames);
	/* f in f.c appears once, however many ips name it. */
	cr_expect(eq(sz, profconv_profile_function_count(prof), 3));
	profconv_profile_free(prof);
}

/* Format 2: strings are the rest of the line, addresses are return
 * addresses (moved back by one); no trailer is required. */
static void
reads_format_2(void)
{
	struct profconv_profile *prof = read_ok(
	    "v 10200 2\ns a prog with spaces\ns main\n"
	    "i 1011 1 2\nt 1 0\na 8 1\n+ 0\n");
	static const uint64_t want[] = { 0x1010 };
	struct profconv_mapping m;

	expect_stack(prof, 0, want, 1);
	profconv_profile_mapping(prof, 1, &m);
	cr_expect(eq(str, (char *)m.file, "a prog with spaces"));
	profconv_profile_free(prof);
}

/* Stacks of ips with their inline lines, in formats 3 and 2. */
Test(heaptrack, reads_stacks)
{
	stacks_and_inline_lines();
	reads_format_2();
}

Test(heaptrack, rejects_bad_structure)
{
	expect_fail("v 10400 3\nt 0 1\n", PROFCONV_EFORMAT,
	    "line 2: trace refers to parent 1, not defined before it");
	expect_fail("v 10400 3\ni 1 0 0 0\n", PROFCONV_EFORMAT,
	    "line 2: malformed 'i' record, expected 'i IP MODULE [FUNCTION "
	    "[FILE LINE]...]'");
	expect_fail("v 10400 3\ni 1 5\n", PROFCONV_EFORMAT,
	    "line 2: string 5 is not defined (0 so far)");
	expect_fail("v 10400 0\n", PROFCONV_EUNSUPPORTED,
	    "heaptrack file format 0 (development builds before 1.0) is not "
	    "supported");
	expect_fail("v 10400 3\nQ 1\n", PROFCONV_EFORMAT,
	    "line 2: unknown heaptrack record 'Q'");
	expect_fail("v 10400 3\n+ 10 1 5\n", PROFCONV_EUNSUPPORTED,
	    "line 2: raw heaptrack data (not interpreted); run it through "
	    "heaptrack_interpret first");
	expect_fail("v 10400 3\n+  1\n", PROFCONV_EFORMAT,
	    "line 2: expected one space before each field");
}

Test(heaptrack, comments_say_what_ran)
{
	struct profconv_profile *prof = read_ok(HEAD "A\na 64 2\n+ 0\n" TAIL);
	size_t i, n = profconv_profile_comment_count(prof);
	bool cmd = false, rss = false, attached = false;

	for (i = 0; i < n; i++) {
		const char *c = profconv_profile_comment(prof, i);

		cmd |= strcmp(c, "command: ./prog arg") == 0;
		rss |= strcmp(c, "peak RSS (with heaptrack's overhead): 131072 "
		    "bytes") == 0;
		attached |= strncmp(c, "attached to a running process", 29) == 0;
	}
	cr_expect(cmd && rss && attached);
	profconv_profile_free(prof);
}
