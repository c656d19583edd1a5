/* SPDX-License-Identifier: MIT */
/*
 * failio.c - an LD_PRELOAD shim that makes writes into one file go wrong
 * on cue, for output-files.sh: a disk that fails (EIO) or a signal that
 * comes in the middle of a copy, at a byte chosen by the test.
 *
 * FAILIO_PATH names the file; its inode is what is watched, so every
 * hard link of it counts and a temporary file beside it does not.
 * FAILIO_AFTER is how many bytes go into it before FAILIO_DO happens:
 *
 *   eio         one write fails with EIO, the later ones succeed
 *   eio-always  every write from then on fails with EIO
 *   TERM, INT, HUP
 *               the signal is raised once, and the write goes on
 *   rename      every rename() fails with EIO (FAILIO_AFTER unused)
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static struct stat watched;
static int ready;		/* 1: watching, -1: nothing to watch */
static size_t after, written;
static int done;

static void
setup(void)
{
	const char *path = getenv("FAILIO_PATH");
	const char *n = getenv("FAILIO_AFTER");

	ready = -1;
	if (path == NULL || stat(path, &watched) != 0)
		return;
	after = n != NULL ? strtoul(n, NULL, 10) : 0;
	ready = 1;
}

static int
is_watched(int fd)
{
	struct stat st;

	if (ready == 0)
		setup();
	return ready == 1 && fstat(fd, &st) == 0 &&
	    st.st_dev == watched.st_dev && st.st_ino == watched.st_ino;
}

static int
signal_named(const char *s)
{
	if (strcmp(s, "TERM") == 0)
		return SIGTERM;
	if (strcmp(s, "INT") == 0)
		return SIGINT;
	if (strcmp(s, "HUP") == 0)
		return SIGHUP;
	return 0;
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	const char *what = getenv("FAILIO_DO");
	ssize_t w;

	if (what == NULL || !is_watched(fd))
		return syscall(SYS_write, fd, buf, n);
	if (written < after) {
		/* Up to the chosen byte, and no further in this call. */
		if (n > after - written)
			n = after - written;
		w = syscall(SYS_write, fd, buf, n);
		if (w > 0)
			written += (size_t)w;
		return w;
	}
	if (strcmp(what, "eio-always") == 0 ||
	    (strcmp(what, "eio") == 0 && !done)) {
		done = 1;
		errno = EIO;
		return -1;
	}
	if (signal_named(what) != 0 && !done) {
		done = 1;
		raise(signal_named(what));
	}
	return syscall(SYS_write, fd, buf, n);
}

int
rename(const char *from, const char *to)
{
	const char *what = getenv("FAILIO_DO");

	if (what != NULL && strcmp(what, "rename") == 0) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_rename, from, to);
}
