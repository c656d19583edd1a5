/* SPDX-License-Identifier: MIT */
/*
 * output.c - output files that appear whole or not at all.
 *
 * A regular file is written to a temporary file beside it and renamed over
 * it when complete, so a failed or interrupted command never leaves a
 * partial output.  The rules follow what users expect of GNU tools:
 *
 * - "-o LINK" writes to the file the symbolic link names; the link stays.
 * - "-o /dev/stdout", "/dev/fd/N", "/proc/self/fd/N" (or a link to them)
 *   write to the descriptor already open, as "-" does: the shell's "> f"
 *   or ">> f" decides where the data go.
 * - A device or FIFO is written in place.
 * - Overwriting keeps the existing file's mode, owner and group (the
 *   set-user/group-ID bits are dropped when the owner cannot be kept).
 * - A file with several hard links is written in place once the whole
 *   output exists in the temporary file, so every link sees the new data
 *   (as cp(1) does).  Its old contents are copied aside first (FILE.old*)
 *   and written back if the copy fails, and the signals below wait until
 *   the copy is over, so the links see the old file or the new one.  Only
 *   when writing back fails too is the copy aside kept, and named.
 * - SIGINT, SIGTERM, SIGHUP and the other signals that end a process
 *   remove the temporary file before the process dies.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"

/* Links followed before giving up with ELOOP, as the kernel does. */
#define MAX_LINKS 40

/* Signals whose default action ends the process. */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF
};
#define NSIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/* The temporary file a signal handler removes; one output at a time. */
static char pending_tmp[PATH_MAX];
static volatile sig_atomic_t pending_armed;
static struct sigaction saved_actions[NSIGNALS];
static bool handlers_set[NSIGNALS];

static void
remove_pending(int sig)
{
	/* unlink, signal and raise are async-signal-safe. */
	if (pending_armed)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

void
cmd_output_abandon(void)
{
	if (pending_armed)
		unlink(pending_tmp);
}

static void
block_signals(sigset_t *old)
{
	sigset_t all;

	sigemptyset(&all);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(&all, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &all, old);
}

/* Catch the fatal signals not ignored or handled by someone else. */
static void
arm(const char *tmp)
{
	struct sigaction sa;

	snprintf(pending_tmp, sizeof(pending_tmp), "%s", tmp);
	pending_armed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_pending;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++) {
		struct sigaction old;

		handlers_set[i] = false;
		if (sigaction(fatal_signals[i], NULL, &old) != 0 ||
		    old.sa_handler != SIG_DFL)
			continue;
		if (sigaction(fatal_signals[i], &sa, &saved_actions[i]) == 0)
			handlers_set[i] = true;
	}
}

static void
disarm(void)
{
	pending_armed = 0;
	for (size_t i = 0; i < NSIGNALS; i++) {
		if (handlers_set[i])
			sigaction(fatal_signals[i], &saved_actions[i], NULL);
		handlers_set[i] = false;
	}
}

/* N when PATH names an open descriptor of this process, else -1. */
static int
descriptor_alias(const char *path)
{
	static const char *const prefixes[] = {
		"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"
	};
	char own[64];
	const char *num = NULL;
	char *end;
	long n;

	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(path, prefixes[i], strlen(prefixes[i])) == 0)
			num = path + strlen(prefixes[i]);
	snprintf(own, sizeof(own), "/proc/%ld/fd/", (long)getpid());
	if (num == NULL && strncmp(path, own, strlen(own)) == 0)
		num = path + strlen(own);
	if (num == NULL || *num < '0' || *num > '9')
		return -1;
	errno = 0;
	n = strtol(num, &end, 10);
	if (*end != '\0' || errno != 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

/* DIR of PATH joined with a relative link TARGET; NULL when out of memory. */
static char *
join_link(const char *path, const char *target)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash == NULL ? 0 : (size_t)(slash - path) + 1;
	size_t n = dirlen + strlen(target) + 1;
	char *out;

	if (target[0] == '/')
		dirlen = 0;
	out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "%.*s%s", (int)dirlen, path, target);
	return out;
}

/*
 * Follow PATH's chain of symbolic links (a dangling one names the file to
 * create) into *TARGET, or stop at a descriptor alias, returned as *FD.
 * 0, or an errno value.
 */
static int
resolve(const char *path, char **target, int *fd)
{
	char *cur = strdup(path);

	*target = NULL;
	*fd = -1;
	for (int hops = 0; cur != NULL; hops++) {
		char link[PATH_MAX];
		struct stat st;
		ssize_t len;
		char *next;

		*fd = descriptor_alias(cur);
		if (*fd >= 0) {
			free(cur);
			return 0;
		}
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			*target = cur;
			return 0;
		}
		if (hops == MAX_LINKS) {
			free(cur);
			return ELOOP;
		}
		len = readlink(cur, link, sizeof(link) - 1);
		if (len < 0) {
			int err = errno;

			free(cur);
			return err;
		}
		link[len] = '\0';
		next = join_link(cur, link);
		free(cur);
		cur = next;
	}
	return ENOMEM;
}

/* A name for mkstemp() beside TARGET, TARGET's with SUFFIX (".tmpXXXXXX"
 * or ".oldXXXXXX"), whose last component fits NAME_MAX. */
static char *
temp_name(const char *target, const char *suffix)
{
	const char *slash = strrchr(target, '/');
	size_t dirlen = slash == NULL ? 0 : (size_t)(slash - target) + 1;
	size_t baselen = strlen(target) - dirlen;
	size_t n;
	char *tmp;

	if (baselen > NAME_MAX - strlen(suffix))
		baselen = NAME_MAX - strlen(suffix);
	n = dirlen + baselen + strlen(suffix) + 1;
	tmp = malloc(n);
	if (tmp != NULL)
		snprintf(tmp, n, "%.*s%s", (int)(dirlen + baselen), target,
		    suffix);
	return tmp;
}

/* Give the new file FD the mode and owner of the one it replaces. */
static void
keep_attributes(int fd, const struct stat *old)
{
	mode_t mode = old->st_mode & 07777;

	if (fchown(fd, old->st_uid, old->st_gid) != 0) {
		/* As chmod would: no set-ID bits on another owner's file. */
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
		if (fchown(fd, (uid_t)-1, old->st_gid) != 0)
			mode &= ~(mode_t)S_ISGID;
	}
	(void)fchmod(fd, mode);
}

static int
open_descriptor(struct cmd_output *o, int n)
{
	int fd = dup(n);

	if (fd >= 0)
		o->fp = fdopen(fd, "wb");
	if (o->fp == NULL) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return cmd_error("cannot open '%s': %s", o->path,
		    strerror(err));
	}
	return EXIT_OK;
}

static int
open_temporary(struct cmd_output *o, const struct stat *old)
{
	const char *path = o->path;	/* abort clears O */
	sigset_t mask;
	int fd, err;

	o->tmp = temp_name(o->target, ".tmpXXXXXX");
	if (o->tmp == NULL) {
		cmd_output_abort(o);
		return cmd_error("out of memory");
	}
	block_signals(&mask);
	fd = mkstemp(o->tmp);
	err = errno;
	if (fd >= 0)
		arm(o->tmp);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		cmd_output_abort(o);	/* frees the target's name */
		return cmd_error("cannot create '%s': %s", path,
		    strerror(err));
	}
	if (old != NULL) {
		keep_attributes(fd, old);
		o->in_place = old->st_nlink > 1;
	} else {
		/* mkstemp makes 0600; give the usual umask-based mode. */
		mode_t mask_bits = umask(0);

		umask(mask_bits);
		(void)fchmod(fd, 0666 & ~mask_bits);
	}
	o->fp = fdopen(fd, "wb");
	if (o->fp == NULL) {
		err = errno;
		close(fd);
		cmd_output_abort(o);
		return cmd_error("cannot create '%s': %s", path,
		    strerror(err));
	}
	return EXIT_OK;
}

int
cmd_output_open(struct cmd_output *o, const char *path)
{
	struct stat st;
	int fd, err;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return EXIT_OK;
	}
	err = resolve(path, &o->target, &fd);
	if (err != 0)
		return cmd_error("cannot open '%s': %s", path, strerror(err));
	if (fd >= 0)
		return open_descriptor(o, fd);
	if (stat(o->target, &st) != 0)
		return open_temporary(o, NULL);
	if (S_ISDIR(st.st_mode)) {
		cmd_output_abort(o);
		return cmd_error("cannot write '%s': Is a directory", path);
	}
	if (S_ISREG(st.st_mode))
		return open_temporary(o, &st);
	/* A device or pipe is written in place: never rename over it. */
	o->fp = fopen(o->target, "wb");
	if (o->fp == NULL) {
		err = errno;
		cmd_output_abort(o);
		return cmd_error("cannot open '%s': %s", path, strerror(err));
	}
	return EXIT_OK;
}

void
cmd_output_abort(struct cmd_output *o)
{
	sigset_t mask;

	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp != NULL) {
		block_signals(&mask);
		unlink(o->tmp);
		disarm();
		sigprocmask(SIG_SETMASK, &mask, NULL);
	}
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
}

/* Flush and close o->fp; 0 or an errno value. */
static int
close_stream(struct cmd_output *o)
{
	int err = 0;

	errno = 0;
	if (fflush(o->fp) != 0 || ferror(o->fp))
		err = errno != 0 ? errno : EIO;
	if (fclose(o->fp) != 0 && err == 0)
		err = errno;
	o->fp = NULL;
	return err;
}

static int
copy_fd(int from, int to)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(to, buf + done, (size_t)(n - done));

			if (w < 0 && errno != EINTR)
				return errno;
			if (w > 0)
				done += w;
		}
	}
	return 0;
}

/* Copy FROM to TO, both from their start, and cut TO to SIZE bytes.
 * With RESERVE, reserve SIZE bytes first, so a full file system fails
 * before TO is overwritten.  0, or an errno value. */
static int
copy_whole(int from, int to, off_t size, bool reserve)
{
	int err = 0;

	if (lseek(from, 0, SEEK_SET) < 0 || lseek(to, 0, SEEK_SET) < 0)
		return errno;
	if (reserve && size != 0)
		err = posix_fallocate(to, 0, size);
	if (err == EOPNOTSUPP || err == EINVAL)
		err = 0;
	if (err == 0)
		err = copy_fd(from, to);
	if (err == 0 && ftruncate(to, size) != 0)
		err = errno;
	return err;
}

/*
 * Copy the finished temporary file into the hard-linked target, with the
 * fatal signals blocked by the caller.  The target's old contents go to
 * a file beside it first (a full file system fails there, before the
 * target is touched); when the copy fails they are written back, so the
 * target is its old self or the new output, whole.  Only when writing
 * back fails too is that file kept, its name in *KEPT.  0, or an errno
 * value.
 */
static int
copy_into_target(struct cmd_output *o, char **kept)
{
	struct stat st, old;
	char *aside = NULL;
	int from, to, bak = -1, err = 0;

	*kept = NULL;
	from = open(o->tmp, O_RDONLY | O_CLOEXEC);
	if (from < 0)
		return errno;
	to = open(o->target, O_RDWR | O_CLOEXEC);
	if (to < 0 || fstat(from, &st) != 0 || fstat(to, &old) != 0)
		err = errno;
	if (err == 0) {
		aside = temp_name(o->target, ".oldXXXXXX");
		bak = aside == NULL ? -1 : mkostemp(aside, O_CLOEXEC);
		if (bak < 0)
			err = aside == NULL ? ENOMEM : errno;
	}
	if (err == 0)
		err = copy_whole(to, bak, old.st_size, true);
	if (err != 0) {
		/* The target is as it was. */
		if (bak >= 0)
			unlink(aside);
	} else {
		err = copy_whole(from, to, st.st_size, true);
		if (err == 0 && fsync(to) != 0 && errno != EINVAL)
			err = errno;
		if (err != 0 && copy_whole(bak, to, old.st_size, false) != 0)
			*kept = aside;		/* the old contents are there */
		else
			unlink(aside);
	}
	if (*kept == NULL)
		free(aside);
	if (bak >= 0)
		close(bak);
	if (to >= 0 && close(to) != 0 && err == 0)
		err = errno;
	close(from);
	return err;
}

int
cmd_output_commit(struct cmd_output *o)
{
	const char *path = o->path;	/* abort clears O */
	char *kept = NULL;
	sigset_t mask;
	int err, status = EXIT_OK;

	if (o->fp == stdout) {
		o->fp = NULL;
		return EXIT_OK;		/* checked by cmd_close_stdout() */
	}
	err = close_stream(o);
	/* A signal now waits until the output is in place (or the old one
	 * is back) and the message is out; then it removes the temporary
	 * file, if any is left, and ends the process. */
	block_signals(&mask);
	if (err == 0 && o->tmp != NULL) {
		if (o->in_place) {
			err = copy_into_target(o, &kept);
		} else if (rename(o->tmp, o->target) == 0) {
			disarm();
			free(o->tmp);
			o->tmp = NULL;
		} else {
			err = errno;
		}
	}
	cmd_output_abort(o);
	if (err != 0 && kept != NULL)
		status = cmd_error("cannot write '%s': %s; its old contents "
		    "are in '%s'", path, strerror(err), kept);
	else if (err != 0)
		status = cmd_error("cannot write '%s': %s", path,
		    strerror(err));
	free(kept);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	return status;
}

int
cmd_output_end(struct cmd_output *o, int status)
{
	if (status == EXIT_OK)
		return cmd_output_commit(o);
	cmd_output_abort(o);
	return status;
}
