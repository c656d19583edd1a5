/* SPDX-License-Identifier: MIT */
/* test_symbolizer.c - tests for the symbolizer: names, dedupe, lookup. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helpers.h"
#include "sym_fixture.h"
#include "symbolize/symbolize.h"

#define STR(s) ((char *)(s))

static struct profconv_profile *prof;

static void
drop_profile(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(symbolize, .fini = drop_profile);

/* --- function deduplication ----------------------------------------------- */

static struct pc_function
func(const char *name, const char *file, int64_t start_line)
{
	struct pc_function f = { 0 };

	cr_assert(eq(int, profconv__intern(prof, name, &f.name), 0));
	f.system_name = f.name;
	cr_assert(eq(int, profconv__intern(prof, file, &f.file), 0));
	f.start_line = start_line;
	return f;
}

Test(symbolize, dedupes_functions_by_all_four_fields)
{
	struct profconv_function pub = { "main", "main", "m.c", 3 };
	struct pc_funcset set;
	struct pc_function f;
	uint32_t id0, id1, id2, id3;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_function(prof, &pub, &id0), 0));
	cr_assert(eq(int, profconv__funcset_init(&set, prof), 0));
	f = func("main", "m.c", 3);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id1), 0));
	cr_assert(eq(u32, id1, id0), "an existing function is reused");
	f = func("main", "m.c", 4);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id2), 0));
	cr_assert(ne(u32, id2, id0));
	f = func("main", "n.c", 3);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id3), 0));
	cr_assert(ne(u32, id3, id0));
	cr_assert(ne(u32, id3, id2));
	f = func("main", "m.c", 4);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id1), 0));
	cr_assert(eq(u32, id1, id2));
	cr_assert(eq(sz, profconv_profile_function_count(prof), 3));
	profconv__funcset_free(&set);
}

/* --- symbolizing this very test program ----------------------------------- */

static __attribute__((noinline)) int
probe_function(int x)
{
	/* Keep the call from being folded away. */
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static uint32_t
self_location(uintptr_t addr)
{
	struct profconv_mapping m = { 0 };
	char file[4096];
	uint32_t mid, lid;

	self_mapping(addr, &m, file, sizeof(file));
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, &lid), 0));
	return lid;
}

static void
expect_function(uint32_t lid, const char *name, const char *file_tail)
{
	struct profconv_location loc;
	struct profconv_function fn;
	size_t flen, tlen = strlen(file_tail);

	cr_assert(eq(int, profconv_profile_location(prof, lid, &loc), 0));
	cr_assert(ge(sz, loc.nlines, 1));
	cr_assert(eq(int, profconv_profile_function(prof,
	    loc.lines[loc.nlines - 1].function_id, &fn), 0));
	cr_assert(eq(str, STR(fn.name), STR(name)));
	flen = strlen(fn.file);
	cr_assert(ge(sz, flen, tlen));
	cr_assert(eq(str, STR(fn.file + flen - tlen), STR(file_tail)));
	cr_assert(gt(i64, loc.lines[loc.nlines - 1].line, 0));
}

static void
finds_a_function_of_this_program(void)
{
	struct profconv_symbolize_stats st;
	struct profconv_mapping m;
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid = self_location(addr);

	cr_assert(eq(int, probe_function(2), 7));
	cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	cr_assert(eq(sz, st.addresses, 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(m.has_functions && m.has_filenames && m.has_line_numbers);
	ASSERT_NO_LEAKS();
	drop_profile();
}

/*
 * PROF with one location, an address inside probe_function() of this
 * running process, and OPTS set to read that process's maps.  Returns
 * the location's id.
 */
static uint32_t
live_probe_location(struct profconv_symbolize_options *opts)
{
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, addr, NULL,
	    0, 0, &lid), 0));
	opts->pid = (int)getpid();
	return lid;
}

static void
maps_addresses_with_a_live_process(void)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats st;
	uint32_t lid = live_probe_location(&opts);

	cr_assert(eq(int, profconv_symbolize(prof, &opts, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	drop_profile();
}

static void
leaves_locations_of_missing_binaries_alone(void)
{
	struct profconv_mapping m = { 0x1000, 0x2000, 0, "/nonexistent/bin",
		"", 0, 0, 0, 0 };
	struct profconv_mapping v = { 0x3000, 0x4000, 0, "[vdso]", "", 0, 0,
		0, 0 };
	struct profconv_symbolize_stats st;
	struct profconv_location loc;
	uint32_t mid, vid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &v, &vid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, 0x1010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, vid, 0x3010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 0x5010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0));
	cr_assert(eq(sz, st.locations, 3));
	cr_assert(eq(sz, st.no_binary, 1));
	cr_assert(eq(sz, st.unsymbolizable, 2));
	cr_assert(eq(sz, st.symbolized, 0));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_assert(eq(sz, loc.nlines, 0));
	drop_profile();
}

static void
reports_each_missing_file_once_with_its_locations(void)
{
	/* Two mappings of one missing file (text and data, say), another
	 * missing file, and [vdso], which is no binary's fault. */
	struct profconv_mapping m1 = { 0x1000, 0x2000, 0, "/nonexistent/a",
		"", 0, 0, 0, 0 };
	struct profconv_mapping m2 = { 0x2000, 0x3000, 0x1000,
		"/nonexistent/a", "", 0, 0, 0, 0 };
	struct profconv_mapping m3 = { 0x5000, 0x6000, 0, "/nonexistent/b",
		"", 0, 0, 0, 0 };
	struct profconv_mapping v = { 0x7000, 0x8000, 0, "[vdso]", "", 0, 0,
		0, 0 };
	struct profconv_symbolize_options o = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	uint32_t id[4];

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m1, &id[0]), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m2, &id[1]), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m3, &id[2]), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &v, &id[3]), 0));
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2 + i; j++)
			cr_assert(eq(int, profconv_profile_add_location(prof,
			    id[i], 0x1010 + 0x1000 * (uint64_t)i + 8 *
			    (uint64_t)j + (i >= 2 ? 0x2000 : 0), NULL, 0, 0,
			    NULL), 0));
	o.binary_report = note_report;
	nreported = 0;
	cr_assert(eq(int, profconv_symbolize(prof, &o, NULL), 0));
	cr_assert(eq(sz, nreported, 2));
	cr_assert(eq(str, reported[0], "/nonexistent/a"));
	cr_assert(eq(int, reported_problem[0], PROFCONV_BINARY_MISSING));
	cr_assert(eq(sz, reported_locations[0], 2 + 3));
	cr_assert(eq(str, reported[1], "/nonexistent/b"));
	cr_assert(eq(sz, reported_locations[1], 4));
	drop_profile();
}

Test(symbolize, handles_missing_binaries)
{
	leaves_locations_of_missing_binaries_alone();
	reports_each_missing_file_once_with_its_locations();
}

static void
rejects_a_process_and_a_maps_file_together(void)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	opts.pid = 1;
	opts.maps_file = "/proc/self/maps";
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG,
	    "a process and a maps file cannot both be given"));
	drop_profile();
}

static void
names_a_maps_file_it_cannot_open(void)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	opts.maps_file = "/nonexistent/maps";
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/maps': No such file or directory"));
	drop_profile();
}

Test(symbolize, refuses_maps_it_cannot_use)
{
	rejects_a_process_and_a_maps_file_together();
	names_a_maps_file_it_cannot_open();
}

static void
count_modules(uint64_t done, uint64_t total, void *payload)
{
	uint64_t *seen = payload;

	seen[0]++;
	seen[1] = done;
	seen[2] = total;
}

/* Progress counts the modules indexed, of how many. */
static void
reports_progress_in_modules(void)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	uint64_t seen[3] = { 0, 0, 0 };
	uint32_t lid = live_probe_location(&opts);

	opts.progress = count_modules;
	opts.payload = seen;
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(u64, seen[0], 1));
	cr_assert(eq(u64, seen[1], 1));
	cr_assert(eq(u64, seen[2], 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
	drop_profile();
}

Test(symbolize, symbolizes_this_program)
{
	finds_a_function_of_this_program();
	maps_addresses_with_a_live_process();
	reports_progress_in_modules();
}

/* --- files mapped in place (handles_sigbus) -------------------------------- */

static char copy_path[64];

/* A progress callback that runs between reading a binary and copying its
 * names: it gives the binary another modification time, as a rebuild
 * writing over it in place would. */
static void
rewrite_binary(uint64_t done, uint64_t total, void *payload)
{
	struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	(void)done;
	(void)total;
	(void)payload;
	cr_assert(eq(int, utimensat(AT_FDCWD, copy_path, ts, 0), 0));
}

/* A location in a copy of this program, symbolized with HANDLES_SIGBUS
 * while the copy is rewritten: the status of profconv_symbolize(). */
static int
symbolize_rewritten_copy(int handles_sigbus, uint32_t *lid)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_mapping m = { 0 };
	uintptr_t addr = (uintptr_t)probe_function + 2;
	char file[4096], cmd[4200];
	uint32_t mid;
	int fd;

	self_mapping(addr, &m, file, sizeof(file));
	snprintf(copy_path, sizeof(copy_path), "/tmp/pc-symmap-XXXXXX");
	fd = mkstemp(copy_path);
	cr_assert(ge(int, fd, 0));
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", file, copy_path);
	cr_assert(eq(int, system(cmd), 0));
	m.file = copy_path;
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, lid), 0));
	opts.handles_sigbus = handles_sigbus;
	opts.progress = rewrite_binary;
	return profconv_symbolize(prof, &opts, NULL);
}

/* Mapped in place, a binary rewritten while it is read fails the call
 * with one line naming it. */
static void
fails_when_a_mapped_binary_changes_while_read(void)
{
	char want[128];
	uint32_t lid;
	int rc = symbolize_rewritten_copy(1, &lid);

	snprintf(want, sizeof(want), "'%s' changed while it was read",
	    copy_path);
	unlink(copy_path);
	cr_assert(eq(int, rc, PROFCONV_EIO));
	cr_assert(eq(str, STR(profconv_errmsg()), want));
	ASSERT_NO_LEAKS();
	drop_profile();
}

/* Without the option, the library reads a private copy, which the
 * rewrite cannot touch: the call succeeds as before. */
static void
reads_a_private_copy_without_handles_sigbus(void)
{
	uint32_t lid;
	int rc = symbolize_rewritten_copy(0, &lid);

	unlink(copy_path);
	cr_assert(eq(int, rc, 0), "%s", profconv_errmsg());
	expect_function(lid, "probe_function", "test_symbolizer.c");
	ASSERT_NO_LEAKS();
	drop_profile();
}

Test(symbolize, binary_rewritten_while_read)
{
	fails_when_a_mapped_binary_changes_while_read();
	reads_a_private_copy_without_handles_sigbus();
}

/* --- deleted files -------------------------------------------------------- */

/* This program's location at ADDR, its file marked deleted, with BUILD_ID
 * ("self": its own). */
static uint32_t
deleted_location(uintptr_t addr, const char *build_id)
{
	struct profconv_mapping m = { 0 };
	struct pc_elfinfo info;
	char file[4096], marked[4200];
	uint32_t mid, lid;
	int fd;

	self_mapping(addr, &m, file, sizeof(file));
	cr_assert(eq(int, profconv__elfinfo_read(&info, file, &fd), 0));
	close(fd);
	cr_assert(not(eq(str, info.build_id, "")), "%s has no build id", file);
	snprintf(marked, sizeof(marked), "%s (deleted)", file);
	m.file = marked;
	m.build_id = strcmp(build_id, "self") == 0 ? info.build_id : build_id;
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, &lid), 0));
	profconv__elfinfo_free(&info);
	return lid;
}

Test(symbolize, uses_a_deleted_file_only_when_its_build_id_proves_it)
{
	static const char *const others[] = {
		"", "00112233445566778899aabbccddeeff00112233", "../x",
	};
	struct profconv_symbolize_stats st;
	struct profconv_location loc;
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid = deleted_location(addr, "self");
	size_t i;

	/* The file at the path is the very one: its build id says so. */
	cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
	/* No build id, or another: whatever is there now is not used. */
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		drop_profile();
		lid = deleted_location(addr, others[i]);
		cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0));
		cr_assert(eq(sz, st.symbolized, 0), "build id '%s'", others[i]);
		cr_assert(eq(sz, st.unsymbolizable, 1), "build id '%s'",
		    others[i]);
		cr_assert(eq(int, profconv_profile_location(prof, lid, &loc), 0));
		cr_assert(eq(sz, loc.nlines, 0));
	}
}
