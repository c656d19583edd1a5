/* SPDX-License-Identifier: MIT */
/*
 * test_modules.c - the symbolizer's modules: private copies of the files
 * it maps, and how many modules it keeps open (lib/symbolize/modules.c).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "helpers.h"
#include "symbolize/symbolizer.h"

static char path[64];

static void
remove_file(void)
{
	if (path[0] != '\0')
		unlink(path);
	path[0] = '\0';
}

TestSuite(modules, .fini = remove_file);

/* A file holding TEXT, open for reading. */
static int
file_with(const char *text)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_modules.XXXXXX");
	fd = mkstemp(path);
	cr_assert(ge(int, fd, 0));
	cr_assert(eq(sz, (size_t)write(fd, text, strlen(text)),
	    strlen(text)));
	close(fd);
	fd = open(path, O_RDONLY);
	cr_assert(ge(int, fd, 0));
	return fd;
}

/* The copy holds the bytes, the file's descriptor is closed, and what
 * is done to the file afterwards does not reach the copy. */
static void
copies_a_file_no_one_else_can_change(void)
{
	int fd = file_with("hello"), out = -1;
	char buf[16];

	cr_assert(eq(int, profconv__sym_private_copy(fd, path, &out), 0));
	cr_assert(ge(int, out, 0));
	cr_assert(ne(int, out, fd));
	errno = 0;
	cr_assert(eq(int, fcntl(fd, F_GETFD), -1), "the file's fd is closed");
	cr_assert(eq(int, errno, EBADF));
	cr_assert(eq(int, truncate(path, 0), 0));
	cr_assert(eq(sz, (size_t)pread(out, buf, sizeof(buf), 0), 5));
	cr_assert(eq(int, memcmp(buf, "hello", 5), 0));
	close(out);
}

/* A copy would pass RLIMIT_FSIZE (and raise SIGXFSZ): the file is kept. */
static void
keeps_a_file_over_the_size_limit(void)
{
	struct rlimit rl = { 4, 4 };
	int fd = file_with("hello"), out = -1;

	cr_assert(eq(int, setrlimit(RLIMIT_FSIZE, &rl), 0));
	cr_assert(eq(int, profconv__sym_private_copy(fd, path, &out), 0));
	cr_assert(eq(int, out, fd));
	close(fd);
}

/* The private copy of a module's file, or the file itself when a copy
 * would pass the size limit (which stays lowered: that case is last). */
Test(modules, private_copy_or_the_file_kept)
{
	copies_a_file_no_one_else_can_change();
	remove_file();
	keeps_a_file_over_the_size_limit();
}

/* An eighth of RLIMIT_NOFILE, between 8 and 256. */
Test(modules, keeps_an_eighth_of_the_descriptors_for_modules)
{
	static const rlim_t soft[] = { 1024, 100, 40, 4096, 65536 };
	static const size_t want[] = { 128, 12, 8, 256, 256 };
	struct rlimit rl, orig;
	size_t i;

	cr_assert(eq(int, getrlimit(RLIMIT_NOFILE, &orig), 0));
	for (i = 0; i < sizeof(soft) / sizeof(soft[0]); i++) {
		if (orig.rlim_max != RLIM_INFINITY && soft[i] > orig.rlim_max)
			continue;
		rl.rlim_cur = soft[i];
		rl.rlim_max = orig.rlim_max;
		cr_assert(eq(int, setrlimit(RLIMIT_NOFILE, &rl), 0));
		cr_assert(eq(sz, profconv__sym_open_limit(), want[i]),
		    "soft limit %llu", (unsigned long long)soft[i]);
	}
}
