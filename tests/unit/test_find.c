/* SPDX-License-Identifier: MIT */
/*
 * test_find.c - finding the binary behind a mapping: by build id, under
 * a sysroot, by name in search directories (lib/symbolize/find.c).
 */

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tmpdir_fixture.h"

static char self[4096], self_id[129];

/* A directory holding a copy of this program as NAME (below it), and
 * this program's path and build id. */
static void
make_dir(void)
{
	struct pc_elfinfo info;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd;

	cr_assert(gt(sz, (size_t)n, 0));
	self[n] = '\0';
	cr_assert(eq(int, profconv__elfinfo_read(&info, self, &fd), 0));
	close(fd);
	snprintf(self_id, sizeof(self_id), "%s", info.build_id);
	profconv__elfinfo_free(&info);
	cr_assert(not(eq(str, self_id, "")), "%s has no build id", self);
	make_tmp_dir("/tmp/test_find.XXXXXX");
}

/* Copy this program to DIR/NAME, or write TEXT there when not NULL. */
static void
place(const char *name, const char *text)
{
	char cmd[8400];

	if (text != NULL)
		snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\" && "
		    "printf '%s' >'%s/%s'", dir, name, text, dir, name);
	else
		snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\" && "
		    "cp '%s' '%s/%s'", dir, name, self, dir, name);
	cr_assert(eq(int, system(cmd), 0), "%s", cmd);
}

TestSuite(find, .init = make_dir, .fini = remove_dir);

static void
uses_only_hex_build_ids_in_paths(void)
{
	cr_assert(profconv__build_id_valid("c7784650f8d4ab980208fc09fd353d76"));
	cr_assert(profconv__build_id_valid("ABCDEF01"));
	cr_assert(not(profconv__build_id_valid("../out")));
	cr_assert(not(profconv__build_id_valid("abc/def")));
	cr_assert(not(profconv__build_id_valid("abc")));
	cr_assert(not(profconv__build_id_valid("")));
}

/* pprof's layout DIR/BUILDID/BASENAME names the file wherever the
 * mapping's path pointed. */
static void
finds_a_file_by_build_id_in_a_search_directory(void)
{
	struct pc_find how = { NULL, dir, 0, false };
	struct pc_found found;
	char want[4300], name[200];

	snprintf(name, sizeof(name), "%s/prog", self_id);
	place(name, NULL);
	cr_assert(eq(int, profconv__find_binary(&how, "/nonexistent/prog",
	    self_id, &found), 0), "%s", profconv_errmsg());
	snprintf(want, sizeof(want), "%s/%s", dir, name);
	cr_assert(eq(str, found.path, want));
	cr_assert(ge(int, found.fd, 0));
	cr_assert(eq(str, found.info.build_id, self_id));
	profconv__found_free(&found);
	cr_assert(eq(int, found.fd, -1));
	cr_assert(zero(ptr, found.path));
}

/* The .build-id tree: the first two digits are a directory. */
Test(find, finds_a_file_in_a_build_id_tree)
{
	struct pc_find how = { NULL, dir, 0, false };
	struct pc_found found;
	char want[4300], name[200];

	snprintf(name, sizeof(name), ".build-id/%.2s/%s", self_id,
	    self_id + 2);
	place(name, NULL);
	cr_assert(eq(int, profconv__find_binary(&how, "/nonexistent/prog",
	    self_id, &found), 0), "%s", profconv_errmsg());
	snprintf(want, sizeof(want), "%s/%s", dir, name);
	cr_assert(eq(str, found.path, want));
	profconv__found_free(&found);
}

/* Without a build id, the base name under a search directory serves;
 * the directories are tried in their order. */
Test(find, finds_the_base_name_in_the_search_path)
{
	char path[200], want[300];
	struct pc_find how = { NULL, path, 0, false };
	struct pc_found found;

	place("b/prog", NULL);
	snprintf(path, sizeof(path), "/nonexistent:%s/a:%s/b", dir, dir);
	cr_assert(eq(int, profconv__find_binary(&how, "/usr/bin/prog", "",
	    &found), 0), "%s", profconv_errmsg());
	snprintf(want, sizeof(want), "%s/b/prog", dir);
	cr_assert(eq(str, found.path, want));
	profconv__found_free(&found);
}

/* A file with another build id is refused and remembered. */
static void
refuses_a_file_with_another_build_id(void)
{
	static const char other[] = "00112233445566778899aabbccddeeff00112233";
	struct pc_find how = { NULL, NULL, 0, false };
	struct pc_found found;

	cr_assert(eq(int, profconv__find_binary(&how, self, other, &found),
	    PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, found.path));
	cr_assert(eq(int, found.fd, -1));
	cr_assert(eq(str, found.mismatch_id, self_id));
	cr_assert(eq(str, found.mismatch_path, self));
	profconv__found_free(&found);
}

/* Build ids are hex: the same id in capitals names the same file. */
static void
takes_a_build_id_in_either_case(void)
{
	struct pc_find how = { NULL, NULL, 0, true };
	struct pc_found found;
	char upper[129];
	size_t i;

	for (i = 0; self_id[i] != '\0'; i++)
		upper[i] = (char)toupper((unsigned char)self_id[i]);
	upper[i] = '\0';
	cr_assert(eq(int, profconv__find_binary(&how, self, upper, &found), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(str, found.path, self));
	profconv__found_free(&found);
}

/* Build ids: hex only, a file found by one in a search directory or in
 * either case, and a file with another one refused.  Only one case
 * writes into the suite's directory, so none sees another's files. */
Test(find, build_ids)
{
	uses_only_hex_build_ids_in_paths();
	finds_a_file_by_build_id_in_a_search_directory();
	refuses_a_file_with_another_build_id();
	takes_a_build_id_in_either_case();
}

/* A readable file that is no ELF is not used, and said why. */
Test(find, remembers_a_file_that_is_no_elf)
{
	struct pc_find how = { NULL, dir, 0, false };
	struct pc_found found;
	char want[300], why[400];

	place("prog", "text");
	cr_assert(eq(int, profconv__find_binary(&how, "/usr/bin/prog", NULL,
	    &found), PROFCONV_ENOTFOUND));
	snprintf(want, sizeof(want), "%s/prog", dir);
	snprintf(why, sizeof(why), "'%s' is not an ELF file", want);
	cr_assert(eq(str, found.bad_path, want));
	cr_assert(eq(str, found.bad_why, why));
}

/* Under a sysroot the mapped path is taken inside it, and ".." in the
 * path does not leave it. */
Test(find, looks_inside_the_sysroot)
{
	struct pc_find how = { dir, NULL, 0, false };
	struct pc_found found;
	char want[300];

	place("usr/bin/prog", NULL);
	cr_assert(eq(int, profconv__find_binary(&how, "/../../usr/bin/prog",
	    "", &found), 0), "%s", profconv_errmsg());
	snprintf(want, sizeof(want), "%s/usr/bin/prog", dir);
	cr_assert(eq(str, found.path, want));
	profconv__found_free(&found);
	cr_assert(eq(int, profconv__find_binary(&how, "/usr/bin/other", "",
	    &found), PROFCONV_ENOTFOUND));
}
