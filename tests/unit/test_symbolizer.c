/* SPDX-License-Identifier: MIT */
/* test_symbolizer.c - tests for the symbolizer: bias, names, dedupe, lookup. */

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

/* --- load bias ------------------------------------------------------------ */

static struct pc_elfinfo
elf_with(const struct pc_phdr *loads, size_t n, int e_type)
{
	struct pc_elfinfo info = { 0 };

	info.e_type = e_type;
	info.loads = (struct pc_phdr *)loads;
	info.nloads = n;
	return info;
}

Test(symbolize, bias_of_a_pie_text_mapping)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x618, 0x618, 0x1000, 4 },
		{ 0x1000, 0x1000, 0x1d5, 0x1d5, 0x1000, 5 },
		{ 0x2000, 0x2000, 0x10c, 0x10c, 0x1000, 4 },
	};
	struct pc_elfinfo info = elf_with(loads, 3, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x555555555000,
	    0x555555556000, 0x1000), 0x555555554000));
	/* The read-only first page gives the same answer. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0x555555554000,
	    0x555555555000, 0x0), 0x555555554000));
}

Test(symbolize, bias_when_vaddr_and_offset_differ)
{
	/* rustc/lld layout: text at offset 0x1000 linked at 0x2000 (coz#293). */
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x800, 0x800, 0x1000, 4 },
		{ 0x1000, 0x2000, 0x3000, 0x3000, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x7f0000001000,
	    0x7f0000004000, 0x1000), 0x7f0000000000 - 0x1000));
	cr_assert(eq(u64, 0x7f0000002500 - profconv__load_bias(&info,
	    0x7f0000001000, 0x7f0000004000, 0x1000), 0x3500));
}

Test(symbolize, bias_with_a_segment_not_page_aligned)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x2d00, 0x2d00, 0x1000, 4 },
		{ 0x2d10, 0x3d10, 0x500, 0x600, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 3);

	/* Page 0x2000 of the file is mapped for both segments; the
	 * executable one is what a profile's mapping shows. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0x7f0000003000,
	    0x7f0000004000, 0x2000), 0x7f0000003000 - 0x3000));
}

Test(symbolize, bias_of_a_classic_executable_is_zero)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x400000, 0x1000, 0x1000, 0x1000, 4 },
		{ 0x1000, 0x401000, 0x5000, 0x5000, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 2);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x401000, 0x406000,
	    0x1000), 0));
	/* A fake whole-space mapping means file addresses already. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0, UINT64_MAX, 0), 0));
}

Test(symbolize, bias_without_a_matching_segment_is_start_minus_offset)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x1000, 0x1000, 0x1000, 4 },
	};
	struct pc_elfinfo info = elf_with(loads, 1, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x10000000, 0x10001000,
	    0x8000), 0x10000000 - 0x8000));
}

/* --- unsymbolizable mappings and build ids -------------------------------- */

Test(symbolize, follows_pprof_unsymbolizable_rules)
{
	cr_assert(profconv__unsymbolizable(""));
	cr_assert(profconv__unsymbolizable("[vdso]"));
	cr_assert(profconv__unsymbolizable("[heap]"));
	cr_assert(profconv__unsymbolizable("linux-vdso.so.1"));
	cr_assert(profconv__unsymbolizable("/dev/dri/renderD128"));
	cr_assert(profconv__unsymbolizable("//anon"));
	cr_assert(profconv__unsymbolizable("/memfd:jit (deleted)"));
	/* Used when the build id proves it the same file (below). */
	cr_assert(not(profconv__unsymbolizable("/usr/bin/prog (deleted)")));
	cr_assert(eq(sz, profconv__deleted_file("/usr/bin/prog (deleted)"), 13));
	cr_assert(eq(sz, profconv__deleted_file("/usr/bin/prog"), 0));
	cr_assert(not(profconv__unsymbolizable("/usr/lib/libc.so.6")));
	cr_assert(not(profconv__unsymbolizable("./a.out")));
}

Test(symbolize, compares_build_ids_ignoring_case)
{
	cr_assert(profconv__build_id_equal("ABcd01", "abCD01"));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd0")));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd02")));
}

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

/* The executable mapping of /proc/self/maps that holds ADDR. */
static void
self_mapping(uintptr_t addr, struct profconv_mapping *m, char *file,
    size_t size)
{
	unsigned long long start, end, off;
	char line[4096], perms[8], path[4096];
	FILE *fp = fopen("/proc/self/maps", "r");

	cr_assert(not(zero(ptr, fp)));
	while (fgets(line, sizeof(line), fp) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start,
		    &end, perms, &off, path) < 4)
			continue;
		if (addr < start || addr >= end)
			continue;
		snprintf(file, size, "%s", path);
		m->start = start;
		m->limit = end;
		m->offset = off;
		m->file = file;
		fclose(fp);
		return;
	}
	fclose(fp);
	cr_fatal("no mapping holds %#" PRIxPTR, addr);
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

Test(symbolize, finds_a_function_of_this_program)
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
}

Test(symbolize, maps_addresses_with_a_live_process)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats st;
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, addr, NULL,
	    0, 0, &lid), 0));
	opts.pid = (int)getpid();
	cr_assert(eq(int, profconv_symbolize(prof, &opts, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
}

Test(symbolize, leaves_locations_of_missing_binaries_alone)
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
}

/* What binary_report hears, in order. */
static char reported[4][64];
static int reported_problem[4];
static size_t reported_locations[4], nreported;

static void
note_report(const struct profconv_binary_report *r, void *payload)
{
	(void)payload;
	if (nreported < 4) {
		snprintf(reported[nreported], sizeof(reported[0]), "%s",
		    r->path);
		reported_problem[nreported] = (int)r->problem;
		reported_locations[nreported] = r->locations;
	}
	nreported++;
}

Test(symbolize, reports_each_missing_file_once_with_its_locations)
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
}

Test(symbolize, rejects_a_process_and_a_maps_file_together)
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
}

Test(symbolize, names_a_maps_file_it_cannot_open)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	opts.maps_file = "/nonexistent/maps";
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/maps': No such file or directory"));
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
Test(symbolize, reports_progress_in_modules)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	uint64_t seen[3] = { 0, 0, 0 };
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, addr, NULL,
	    0, 0, &lid), 0));
	opts.pid = (int)getpid();
	opts.progress = count_modules;
	opts.payload = seen;
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(u64, seen[0], 1));
	cr_assert(eq(u64, seen[1], 1));
	cr_assert(eq(u64, seen[2], 1));
	expect_function(lid, "probe_function", "test_symbolizer.c");
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
Test(symbolize, fails_when_a_mapped_binary_changes_while_read)
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
}

/* Without the option, the library reads a private copy, which the
 * rewrite cannot touch: the call succeeds as before. */
Test(symbolize, reads_a_private_copy_without_handles_sigbus)
{
	uint32_t lid;
	int rc = symbolize_rewritten_copy(0, &lid);

	unlink(copy_path);
	cr_assert(eq(int, rc, 0), "%s", profconv_errmsg());
	expect_function(lid, "probe_function", "test_symbolizer.c");
	ASSERT_NO_LEAKS();
}

/* --- paths inside a root -------------------------------------------------- */

static char root_dir[64];

/* A root with a file, links into it of every kind, a loop and an escape. */
static void
make_root(void)
{
	char cmd[512];

	snprintf(root_dir, sizeof(root_dir), "/tmp/test_symbolize.XXXXXX");
	cr_assert(not(zero(ptr, mkdtemp(root_dir))));
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir a && echo in >a/file && "
	    "ln -s /a/file abs && ln -s a/../a/file rel && "
	    "ln -s ../../../a/file up && ln -s loop loop && "
	    "ln -s /etc/hostname esc && ln -s /a absdir", root_dir);
	cr_assert(eq(int, system(cmd), 0), "%s", cmd);
}

static void
remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root_dir);
	(void)system(cmd);
}

/* The inode PATH (inside the root) resolves to by both ways, or 0. */
static ino_t
resolved_inode(const char *path, int *err)
{
	struct stat st, st2;
	char *real = NULL;
	int rootfd, fd, fd2;
	ino_t ino = 0;

	rootfd = open(root_dir, O_PATH | O_DIRECTORY);
	cr_assert(ge(int, rootfd, 0));
	fd = profconv__walk_in_root(rootfd, path);
	*err = fd < 0 ? errno : 0;
	if (fd >= 0) {
		cr_assert(eq(int, fstat(fd, &st), 0));
		ino = st.st_ino;
		close(fd);
	}
	close(rootfd);
	/* The library's way (openat2 where the kernel has it) agrees. */
	if (profconv__open_in_root(root_dir, path, &fd2, &real) == 0) {
		cr_assert(eq(int, fstat(fd2, &st2), 0));
		cr_assert(eq(u64, (uint64_t)st2.st_ino, (uint64_t)ino), "%s",
		    path);
		cr_assert(eq(int, strncmp(real, root_dir, strlen(root_dir)), 0),
		    "%s is %s", path, real);
		close(fd2);
		free(real);
	} else {
		cr_assert(eq(u64, (uint64_t)ino, 0), "%s", path);
	}
	return ino;
}

Test(symbolize, resolves_paths_inside_a_root, .init = make_root,
    .fini = remove_root)
{
	char file[128];
	struct stat st;
	int err;

	snprintf(file, sizeof(file), "%s/a/file", root_dir);
	cr_assert(eq(int, stat(file, &st), 0));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/a/file", &err),
	    (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/../../../a/./file",
	    &err), (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/abs", &err),
	    (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("rel", &err),
	    (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/up", &err),
	    (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/absdir/../absdir/file",
	    &err), (uint64_t)st.st_ino));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/esc", &err), 0));
	cr_assert(eq(int, err, ENOENT));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/loop", &err), 0));
	cr_assert(eq(int, err, ELOOP));
	cr_assert(eq(u64, (uint64_t)resolved_inode("/a/file/x", &err), 0));
	cr_assert(eq(int, err, ENOTDIR));
}

Test(symbolize, uses_only_hex_build_ids_in_paths)
{
	cr_assert(profconv__build_id_valid("c7784650f8d4ab980208fc09fd353d76"));
	cr_assert(profconv__build_id_valid("ABCDEF01"));
	cr_assert(not(profconv__build_id_valid("../out")));
	cr_assert(not(profconv__build_id_valid("abc/def")));
	cr_assert(not(profconv__build_id_valid("abc")));
	cr_assert(not(profconv__build_id_valid("")));
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
