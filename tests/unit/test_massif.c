/* SPDX-License-Identifier: MIT */
/*
 * test_massif.c - tests for the massif reader on small hand-written
 * files in the grammar valgrind writes (heaptrack-massif.md B.2): snapshot
 * choice, stacks from the heap tree, inline folding, below-threshold
 * frames, frame text parsing, the snapshot list, and the whole series
 * read in one pass.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define HEAD "desc: --threshold=0\ncmd: ./p 1\ntime_unit: ms\n"
#define SNAP(n, t, heap, kind) \
	"#-----------\nsnapshot=" #n "\n#-----------\ntime=" #t "\n" \
	"mem_heap_B=" #heap "\nmem_heap_extra_B=8\nmem_stacks_B=0\n" \
	"heap_tree=" kind "\n"
#define ROOT(n, bytes) \
	"n" #n ": " #bytes " (heap allocation functions) malloc/new/new[], " \
	"--alloc-fns, etc.\n"

/* Snapshot 1: a tree; 2: empty; 3: the peak; 4: the last tree. */
static const char series[] = HEAD
	SNAP(0, 0, 0, "empty")
	SNAP(1, 5, 100, "detailed") ROOT(1, 100)
	" n1: 100 0x1000: f (p.c:3)\n  n0: 100 0x2000: main (p.c:9)\n"
	SNAP(2, 6, 50, "empty")
	SNAP(3, 7, 300, "peak") ROOT(2, 300)
	" n1: 200 0x1000: f (p.c:3)\n  n0: 200 0x2000: main (p.c:9)\n"
	" n0: 100 in 2 places, all below massif's threshold (1.00%)\n"
	SNAP(4, 9, 40, "detailed") ROOT(1, 40)
	" n1: 40 0x3000: g (p.c:5)\n  n0: 40 0x2000: main (p.c:9)\n";

static struct profconv_profile *
read_snapshot(const char *text, int64_t snapshot, int want_rc)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	enum profconv_format fmt;

	ro.snapshot = snapshot;
	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    &ro, &fmt), want_rc), "%s", profconv_errmsg());
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_MASSIF));
	return prof;
}

static int64_t
total(const struct profconv_profile *prof)
{
	int64_t t;

	cr_assert(eq(int, profconv_profile_total(prof, 0, &t), 0));
	return t;
}

/* The function names of sample I's location J, innermost first, joined
 * by '|'. */
static char *
names(const struct profconv_profile *prof, size_t i, size_t j)
{
	static char buf[256];
	struct profconv_location loc;
	struct profconv_function f;
	struct profconv_sample s;
	size_t k, n = 0;

	cr_assert(eq(int, profconv_profile_sample(prof, i, &s), 0));
	cr_assert(j < s.nlocations);
	cr_assert(eq(int, profconv_profile_location(prof,
	    sample_location(prof, i, j), &loc), 0));
	buf[0] = '\0';
	for (k = 0; k < loc.nlines; k++) {
		profconv_profile_function(prof, loc.lines[k].function_id, &f);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    k != 0 ? "|" : "", f.name);
	}
	return buf;
}

static void
peak_by_default(void)
{
	struct profconv_profile *prof = read_snapshot(series,
	    PROFCONV_SNAPSHOT_PEAK, 0);
	static const uint64_t want[] = { 0x1000, 0x2000 };

	cr_expect(eq(i64, total(prof), 300));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	expect_stack(prof, 0, want, 2);
	cr_expect(eq(str, names(prof, 1, 0),
	    "[in 2 places, all below massif's threshold (1.00%)]"));
	cr_expect(eq(str, (char *)profconv_profile_comment(prof, 0),
	    "massif snapshot 3 (peak) of 5, time=7 (ms)"));
	cr_expect(eq(i64, profconv_profile_duration_nanos(prof), 7000000));
	profconv_profile_free(prof);
}

static void
last_and_numbered_snapshots(void)
{
	struct profconv_profile *prof;

	prof = read_snapshot(series, PROFCONV_SNAPSHOT_LAST, 0);
	cr_expect(eq(i64, total(prof), 40));
	cr_expect(eq(str, names(prof, 0, 0), "g"));
	profconv_profile_free(prof);
	prof = read_snapshot(series, 1, 0);
	cr_expect(eq(i64, total(prof), 100));
	profconv_profile_free(prof);
	prof = read_snapshot(series, 2, PROFCONV_ENOTFOUND);
	cr_expect(eq(str, ERRMSG, "massif snapshot 2 has no heap tree (5 "
	    "snapshots, 3 with a heap tree)"));
	prof = read_snapshot(series, 7, PROFCONV_ENOTFOUND);
	cr_expect(eq(str, ERRMSG, "massif snapshot 7 does not exist (5 "
	    "snapshots, 3 with a heap tree)"));
}

/* Without a peak snapshot the default is the largest detailed one. */
static void
no_peak_means_the_largest(void)
{
	static const char text[] = HEAD
	    SNAP(0, 1, 100, "detailed") ROOT(1, 100)
	    " n0: 100 0x1000: f (p.c:3)\n"
	    SNAP(1, 2, 500, "detailed") ROOT(1, 500)
	    " n0: 500 0x1000: f (p.c:3)\n"
	    SNAP(2, 3, 200, "detailed") ROOT(1, 200)
	    " n0: 200 0x1000: f (p.c:3)\n";
	struct profconv_profile *prof = read_snapshot(text,
	    PROFCONV_SNAPSHOT_PEAK, 0);

	cr_expect(eq(i64, total(prof), 500));
	cr_expect(eq(str, (char *)profconv_profile_comment(prof, 1),
	    "massif recorded no peak snapshot: this is the detailed snapshot "
	    "with the largest total"));
	profconv_profile_free(prof);
}

/* Which snapshot is read: the peak, the last, a numbered one, or the
 * largest when none is the peak. */
Test(massif, chooses_the_snapshot)
{
	peak_by_default();
	last_and_numbered_snapshots();
	no_peak_means_the_largest();
}

/* Same-address chains: inline (distinct lines) fold into one location;
 * recursion (repeated lines) stays one location per frame. */
static void
folds_inline_chains_not_recursion(void)
{
	static const char text[] = HEAD
	    SNAP(0, 1, 30, "peak") ROOT(2, 30)
	    " n1: 10 0x1000: asdf (i.c:3)\n"
	    "  n1: 10 0x1000: bar (i.c:4)\n"
	    "   n1: 10 0x1000: foo (i.c:5)\n"
	    "    n0: 10 0x2000: main (i.c:9)\n"
	    " n1: 20 0x3000: rec(int) (r.cc:7)\n"
	    "  n1: 20 0x3000: rec(int) (r.cc:7)\n"
	    "   n0: 20 0x4000: main (r.cc:12)\n";
	struct profconv_profile *prof = read_snapshot(text,
	    PROFCONV_SNAPSHOT_PEAK, 0);
	static const uint64_t inl[] = { 0x1000, 0x2000 };
	static const uint64_t rec[] = { 0x3000, 0x3000, 0x4000 };

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	expect_stack(prof, 0, inl, 2);
	cr_expect(eq(str, names(prof, 0, 0), "asdf|bar|foo"));
	expect_stack(prof, 1, rec, 3);
	cr_expect(eq(str, names(prof, 1, 0), "rec(int)"));
	profconv_profile_free(prof);
}

/* Names with parentheses; objects become mappings; "???" has no line. */
static void
parses_frame_text_from_the_end(void)
{
	static const char text[] = HEAD
	    SNAP(0, 1, 6, "peak") ROOT(3, 6)
	    " n0: 1 0x1000: std::function<void ()>::operator()() const "
	    "(std_function.h:591)\n"
	    " n0: 2 0x2000: ??? (in /usr/lib/libx.so.1)\n"
	    " n1: 3 0x3000: fn (in /usr/lib/libx.so.1)\n"
	    "  n0: 3 0x37: ???\n";
	struct profconv_profile *prof = read_snapshot(text,
	    PROFCONV_SNAPSHOT_PEAK, 0);
	struct profconv_location loc;
	struct profconv_function f;
	struct profconv_mapping m;
	struct profconv_sample s;

	cr_assert(eq(sz, profconv_profile_sample_count(prof), 3));
	profconv_profile_sample(prof, 0, &s);
	profconv_profile_location(prof, sample_location(prof, 0, 0), &loc);
	profconv_profile_function(prof, loc.lines[0].function_id, &f);
	cr_expect(eq(str, (char *)f.name,
	    "std::function<void ()>::operator()() const"));
	cr_expect(eq(str, (char *)f.file, "std_function.h"));
	cr_expect(eq(i64, loc.lines[0].line, 591));
	profconv_profile_sample(prof, 1, &s);
	profconv_profile_location(prof, sample_location(prof, 1, 0), &loc);
	cr_expect(eq(sz, loc.nlines, 0));
	cr_assert(eq(int, profconv_profile_mapping(prof, loc.mapping_id, &m),
	    0));
	cr_expect(eq(str, (char *)m.file, "/usr/lib/libx.so.1"));
	cr_expect(m.has_functions);
	cr_expect(eq(sz, profconv_profile_mapping_count(prof), 1));
	profconv_profile_sample(prof, 2, &s);
	cr_assert(eq(sz, s.nlocations, 2));
	cr_expect(eq(str, names(prof, 2, 0), "fn"));
	profconv_profile_location(prof, sample_location(prof, 2, 1), &loc);
	cr_expect(eq(sz, loc.nlines, 0));
	cr_expect(eq(u64, loc.address, 0x37));
	profconv_profile_free(prof);
}

static void
lists_the_snapshots(void)
{
	FILE *fp = fmemopen((void *)series, strlen(series), "rb");
	struct profconv_snapshot *s = NULL;
	size_t n = 0;

	cr_assert(eq(int, profconv_snapshots_read(&s, &n, fp, NULL), 0), "%s",
	    profconv_errmsg());
	cr_assert(eq(sz, n, 5));
	cr_expect(eq(u64, s[3].number, 3));
	cr_expect(s[3].peak && s[3].detailed);
	cr_expect(eq(int, s[2].detailed + s[2].peak, 0));
	cr_expect(eq(int, s[4].detailed, 1));
	cr_expect(eq(int, s[4].peak, 0));
	cr_expect(eq(i64, s[4].time, 9));
	cr_expect(eq(i64, s[3].heap_bytes, 300));
	cr_expect(eq(i64, s[3].heap_extra_bytes, 8));
	profconv_snapshots_free(s);
	fclose(fp);
	fp = fmemopen((void *)"v 10400 3\n", 10, "rb");
	cr_expect(eq(int, profconv_snapshots_read(&s, &n, fp, NULL),
	    PROFCONV_EFORMAT));
	cr_expect(eq(ptr, s, NULL));
	fclose(fp);
}

/* PROF as pprof bytes (uncompressed) in a malloc'd buffer. */
static char *
pprof_bytes(const struct profconv_profile *prof, size_t *len)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	wo.level = 0;
	cr_assert(eq(int, profconv_profile_write(prof, fp, &wo), 0));
	fclose(fp);
	return buf;
}

/* One pass gives every snapshot with a tree as the profile reading it by
 * number gives, byte for byte; the others are NULL. */
static void
reads_every_snapshot_in_one_pass(void)
{
	FILE *fp = fmemopen((void *)series, strlen(series), "rb");
	struct profconv_snapshot *s = NULL;
	struct profconv_profile **profs = NULL, *one;
	size_t n = 0, i, la, lb;
	char *a, *b;

	cr_assert(eq(int, profconv_snapshots_read_profiles(&s, &profs, &n, fp,
	    NULL), 0), "%s", profconv_errmsg());
	fclose(fp);
	cr_assert(eq(sz, n, 5));
	for (i = 0; i < n; i++) {
		cr_assert(eq(u64, s[i].number, i));
		if (!s[i].detailed) {
			cr_expect(zero(ptr, profs[i]), "snapshot %zu", i);
			continue;
		}
		cr_assert(not(zero(ptr, profs[i])), "snapshot %zu", i);
		one = read_snapshot(series, (int64_t)i, 0);
		a = pprof_bytes(profs[i], &la);
		b = pprof_bytes(one, &lb);
		cr_expect(eq(sz, la, lb), "snapshot %zu", i);
		cr_expect(eq(int, memcmp(a, b, la < lb ? la : lb), 0),
		    "snapshot %zu", i);
		free(a);
		free(b);
		profconv_profile_free(one);
	}
	cr_expect(eq(i64, total(profs[3]), 300));
	profconv_snapshot_profiles_free(profs, n);
	profconv_snapshots_free(s);
	/* Not massif: nothing to free. */
	fp = fmemopen((void *)"v 10400 3\n", 10, "rb");
	cr_expect(eq(int, profconv_snapshots_read_profiles(&s, &profs, &n, fp,
	    NULL), PROFCONV_EFORMAT));
	cr_expect(zero(ptr, s));
	cr_expect(zero(ptr, profs));
	cr_expect(eq(sz, n, 0));
	fclose(fp);
	profconv_snapshot_profiles_free(NULL, 3);
}

/* The whole series: the snapshot list, and every profile in one pass. */
Test(massif, reads_the_series)
{
	lists_the_snapshots();
	reads_every_snapshot_in_one_pass();
}

static void
checks_the_tree(void)
{
	struct profconv_profile *prof;
	static const char bad[] = HEAD
	    SNAP(0, 1, 6, "peak") ROOT(1, 6)
	    " n0: 7 0x1000: f (p.c:1)\n";
	static const char own[] = HEAD
	    SNAP(0, 1, 6, "peak") ROOT(1, 6)
	    " n0: 5 0x1000: f (p.c:1)\n";

	prof = read_snapshot(bad, PROFCONV_SNAPSHOT_PEAK, PROFCONV_EFORMAT);
	cr_expect(eq(str, ERRMSG, "line 13: heap tree children hold more "
	    "bytes than their parent"));
	cr_expect(eq(ptr, prof, NULL));
	/* Bytes the root holds itself: a sample without frames. */
	prof = read_snapshot(own, PROFCONV_SNAPSHOT_PEAK, 0);
	cr_expect(eq(i64, total(prof), 6));
	cr_expect(eq(sz, profconv_profile_sample_count(prof), 2));
	profconv_profile_free(prof);
}

/* A snapshot's heap tree: its frames, their text, and its byte counts. */
Test(massif, reads_the_heap_tree)
{
	folds_inline_chains_not_recursion();
	parses_frame_text_from_the_end();
	checks_the_tree();
}
