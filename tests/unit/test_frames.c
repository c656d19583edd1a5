/* SPDX-License-Identifier: MIT */
/*
 * test_frames.c - the frames no one wants at a stack's leaf
 * (lib/model/frames.c): pprof's addLegacyFrameInfo choice by sample
 * types, what counts allocations, allocator libraries and the names
 * given to their frames without symbols, and one alternative added to
 * or taken from a drop_frames expression.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "model/model.h"

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(frames, .fini = drop);

/* A profile of sample types T[0..] (NULL-ended) of unit UNIT. */
static struct profconv_profile *
typed(const char *const *t, const char *unit)
{
	struct profconv_profile *p;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	for (; *t != NULL; t++)
		profconv_profile_add_sample_type(p, *t, unit);
	return p;
}

/* pprof's choice: the heap type lists exactly, in order, get the
 * allocator frames; contentions/delay the lock frames; else the CPU
 * profiler's. */
static void
default_frames_by_sample_types(void)
{
	static const char *const heap[] = { "inuse_objects", "inuse_space",
		NULL };
	static const char *const swapped[] = { "inuse_space", "inuse_objects",
		NULL };
	static const char *const lock[] = { "contentions", "delay", NULL };
	const char *d, *k;

	prof = typed(heap, "count");
	profconv__default_frames(prof, &d, &k);
	cr_assert(not(zero(ptr, strstr(d, "|malloc|"))));
	cr_assert(eq(str, (char *)k, "runtime\\.panic|runtime\\.reflectcall|"
	    "runtime\\.call[0-9]*"));
	drop();
	prof = typed(swapped, "count");
	profconv__default_frames(prof, &d, &k);
	cr_assert(eq(str, (char *)d, "ProfileData::Add|ProfileData::"
	    "prof_handler|CpuProfiler::prof_handler|__pthread_sighandler|"
	    "__restore"));
	cr_assert(zero(ptr, (void *)k));
	drop();
	prof = typed(lock, "count");
	profconv__default_frames(prof, &d, &k);
	cr_assert(eq(int, strncmp(d, "RecordLockProfileData|", 22), 0));
	cr_assert(zero(ptr, (void *)k));
}

static void
counts_allocations_by_type_or_bytes(void)
{
	static const char *const alloc[] = { "samples", "alloc_space", NULL };
	static const char *const objects[] = { "objects", NULL };
	static const char *const cpu[] = { "samples", "cpu", NULL };

	prof = typed(alloc, "count");
	cr_assert(profconv__counts_allocations(prof));
	drop();
	prof = typed(objects, "count");
	cr_assert(profconv__counts_allocations(prof));
	drop();
	prof = typed(cpu, "bytes");
	cr_assert(profconv__counts_allocations(prof));
	drop();
	prof = typed(cpu, "nanoseconds");
	cr_assert(not(profconv__counts_allocations(prof)));
}

static void
allocator_libraries_by_base_name(void)
{
	cr_assert(profconv__allocator_library("/usr/lib/libjemalloc.so.2"));
	cr_assert(profconv__allocator_library("libtcmalloc_minimal.so.4"));
	cr_assert(profconv__allocator_library("/opt/lib/libmimalloc.so"));
	cr_assert(not(profconv__allocator_library("/usr/lib/mylibjemalloc.so")));
	cr_assert(not(profconv__allocator_library("/libjemalloc/libc.so.6")));
}

Test(frames, frames_chosen_for_allocations)
{
	default_frames_by_sample_types();
	drop();
	counts_allocations_by_type_or_bytes();
	drop();
	allocator_libraries_by_base_name();
}

/* Add or take one whole alternative; a part of one is not it. */
Test(frames, drop_with_adds_or_takes_one_alternative)
{
	static const char *const c[][4] = {
		/* drop, alt, with, without */
		{ "a|b", "c", "a|b|c", "a|b" },
		{ "", "c", "c", "" },
		{ "a|c|b", "c", "a|c|b", "a|b" },
		{ "c|a", "c", "c|a", "a" },
		{ "a|c", "c", "a|c", "a" },
		{ "c", "c", "c", "" },
		{ "ac|a", "c", "ac|a|c", "ac|a" },
	};
	char *s;

	for (size_t i = 0; i < PC_ARRAY_LEN(c); i++) {
		s = profconv__drop_with(c[i][0], c[i][1], true);
		cr_assert(eq(str, s, (char *)c[i][2]), "'%s' with", c[i][0]);
		free(s);
		s = profconv__drop_with(c[i][0], c[i][1], false);
		cr_assert(eq(str, s, (char *)c[i][3]), "'%s' without", c[i][0]);
		free(s);
	}
}

/* A location in a mapped file is named by the file's base name and its
 * address there (start - offset); one without, by its address. */
static void
unnamed_frames_and_suffixes(void)
{
	struct profconv_mapping je = { 0x7000, 0x9000, 0x1000,
		"/usr/lib/libjemalloc.so.2", NULL, 0, 0, 0, 0 };
	uint32_t in_lib, bare;
	char buf[64];

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	profconv_profile_add_mapping(prof, &je, NULL);
	profconv_profile_add_location(prof, 1, 0x7123, NULL, 0, 0, &in_lib);
	profconv_profile_add_location(prof, 0, 0xdead, NULL, 0, 0, &bare);
	cr_assert(eq(str, (char *)profconv__unnamed_frame(prof, in_lib, buf,
	    sizeof(buf)), "libjemalloc.so.2+0x1123"));
	cr_assert(eq(str, (char *)profconv__unnamed_frame(prof, bare, buf,
	    sizeof(buf)), "0xdead"));
	cr_assert(eq(str, (char *)profconv__address_suffix(prof, in_lib, buf,
	    sizeof(buf)), " [libjemalloc.so.2+0x1123]"));
	cr_assert(eq(str, (char *)profconv__address_suffix(prof, bare, buf,
	    sizeof(buf)), " [0xdead]"));
}

/* A function named as an unnamed frame is: the mapping's base name,
 * "+0x" and lower-case hex, with no file and no line. */
static void
named_unnamed_only_for_module_plus_hex(void)
{
	static const char *const names[] = { "libjemalloc.so.2+0x1123",
		"libjemalloc.so.2+0x", "libjemalloc.so.2+0x11G3",
		"libc.so.6+0x1123", "libjemalloc.so.2+0x1123" };
	static const bool want[] = { true, false, false, false, false };
	struct profconv_mapping je = { 0x7000, 0x9000, 0x1000,
		"/usr/lib/libjemalloc.so.2", NULL, 0, 0, 0, 0 };
	uint32_t fid, loc;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	profconv_profile_add_mapping(prof, &je, NULL);
	for (size_t i = 0; i < PC_ARRAY_LEN(names); i++) {
		struct profconv_function f = { names[i], names[i], "", 0 };
		/* the last one has a line number */
		struct profconv_line ln = { 0, i == 4 ? 12 : 0, 0 };

		cr_assert(eq(int, profconv_profile_add_function(prof, &f,
		    &fid), 0));
		ln.function_id = fid;
		cr_assert(eq(int, profconv_profile_add_location(prof, 1,
		    0x7100 + i, &ln, 1, 0, &loc), 0));
		cr_assert(eq(int, profconv__named_unnamed(prof, loc), want[i]),
		    "%s", names[i]);
	}
}

Test(frames, unnamed_frames_named_module_plus_hex)
{
	unnamed_frames_and_suffixes();
	drop();
	named_unnamed_only_for_module_plus_hex();
}
