/* SPDX-License-Identifier: MIT */
/*
 * test_elfinfo.c - ELF facts, load bias, unsymbolizable names and paths
 * opened inside a root (lib/symbolize/elfinfo.c).
 */

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

static void
bias_of_a_pie_text_mapping(void)
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

static void
bias_when_vaddr_and_offset_differ(void)
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

static void
bias_with_a_segment_not_page_aligned(void)
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

static void
bias_of_a_classic_executable_is_zero(void)
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

static void
bias_without_a_matching_segment_is_start_minus_offset(void)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x1000, 0x1000, 0x1000, 4 },
	};
	struct pc_elfinfo info = elf_with(loads, 1, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x10000000, 0x10001000,
	    0x8000), 0x10000000 - 0x8000));
}

Test(elfinfo, load_bias)
{
	bias_of_a_pie_text_mapping();
	bias_when_vaddr_and_offset_differ();
	bias_with_a_segment_not_page_aligned();
	bias_of_a_classic_executable_is_zero();
	bias_without_a_matching_segment_is_start_minus_offset();
}

/* --- unsymbolizable mappings and build ids -------------------------------- */

static void
follows_pprof_unsymbolizable_rules(void)
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

static void
compares_build_ids_ignoring_case(void)
{
	cr_assert(profconv__build_id_equal("ABcd01", "abCD01"));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd0")));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd02")));
}

Test(elfinfo, judges_mapping_names_and_build_ids)
{
	follows_pprof_unsymbolizable_rules();
	compares_build_ids_ignoring_case();
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

Test(elfinfo, resolves_paths_inside_a_root, .init = make_root,
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

/* --- load matches --------------------------------------------------------- */

Test(elfinfo, a_mapping_matches_the_loads_its_file_range_meets)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x618, 0x618, 0x1000, 4 },
		{ 0x1000, 0x1000, 0x1d5, 0x1d5, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 3);

	cr_assert(profconv__load_matches(&info, 0x7f0000001000,
	    0x7f0000002000, 0x1000));
	/* File offset 0x2000 is past both segments' bytes (0x11d5). */
	cr_assert(not(profconv__load_matches(&info, 0x7f0000002000,
	    0x7f0000003000, 0x2000)));
	/* A fake whole-space mapping always matches, even with no loads. */
	info.nloads = 0;
	cr_assert(profconv__load_matches(&info, 0, UINT64_MAX, 0));
	cr_assert(not(profconv__load_matches(&info, 0x1000, 0x2000, 0)));
}

/* --- opening files -------------------------------------------------------- */

static void
opens_only_regular_files(void)
{
	int fd = 7;

	cr_assert(eq(int, profconv__open_regular("/tmp", &fd),
	    PROFCONV_EFORMAT));
	cr_assert(eq(int, fd, -1));
	cr_assert(eq(str, ERRMSG, "'/tmp' is not a regular file"));
	cr_assert(eq(int, profconv__open_regular("/dev/null", &fd),
	    PROFCONV_EFORMAT));
	cr_assert(eq(int, profconv__open_regular("/nonexistent/x", &fd),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/x': No such file or directory"));
	cr_assert(eq(int, profconv__open_regular("/proc/self/exe", &fd), 0));
	cr_assert(ge(int, fd, 0));
	close(fd);
}

/* The build id and PT_LOAD count of FILE as readelf shows them. */
static void
readelf_facts(const char *file, char *id, size_t *nloads)
{
	char cmd[4200], line[512], *at;
	FILE *p;

	id[0] = '\0';
	*nloads = 0;
	snprintf(cmd, sizeof(cmd), "readelf -nlW '%s'", file);
	p = popen(cmd, "r");
	cr_assert(not(zero(ptr, p)));
	while (fgets(line, sizeof(line), p) != NULL) {
		at = strstr(line, "Build ID: ");
		if (at != NULL && sscanf(at, "Build ID: %128s", id) == 1)
			continue;
		if (strncmp(line, "  LOAD ", 7) == 0)
			(*nloads)++;
	}
	cr_assert(eq(int, pclose(p), 0), "%s", cmd);
}

static void
reads_the_build_id_and_loads_readelf_shows(void)
{
	struct pc_elfinfo info;
	char self[4096], id[129];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t nloads;
	int fd;

	cr_assert(gt(sz, (size_t)n, 0));
	self[n] = '\0';
	readelf_facts(self, id, &nloads);
	cr_assert(eq(int, profconv__elfinfo_read(&info, self, &fd), 0), "%s",
	    profconv_errmsg());
	cr_assert(ge(int, fd, 0));
	close(fd);
	cr_assert(eq(str, info.build_id, id));
	cr_assert(eq(sz, info.nloads, nloads));
	cr_assert(gt(sz, nloads, 0));
	profconv__elfinfo_free(&info);
}

static void
refuses_a_file_that_is_not_elf(void)
{
	char path[] = "/tmp/test_elfinfo.XXXXXX", want[64];
	struct pc_elfinfo info;
	int fd = mkstemp(path), rc;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(sz, (size_t)write(fd, "#!/bin/sh\n", 10), 10));
	close(fd);
	rc = profconv__elfinfo_read(&info, path, &fd);
	unlink(path);
	cr_assert(eq(int, rc, PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s' is not an ELF file", path);
	cr_assert(eq(str, ERRMSG, want));
	cr_assert(eq(int, fd, -1));
	cr_assert(eq(sz, info.nloads, 0));
	cr_assert(zero(ptr, info.loads));
}

Test(elfinfo, opens_and_reads_elf_files)
{
	opens_only_regular_files();
	reads_the_build_id_and_loads_readelf_shows();
	refuses_a_file_that_is_not_elf();
}
