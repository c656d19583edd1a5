/* SPDX-License-Identifier: MIT */
/*
 * record_dump.c - "profconv record --dump DIR": a dump now from every
 * process recording into DIR (each runs the helper module,
 * record_helper.c, and answers for itself: record.h), and the wait for
 * their answers.
 */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <profconv.h>
#include "cli.h"
#include "record.h"

/* How often the answers are looked for, in milliseconds. */
#define POLL_MS 50

/* A process that records into the directory, as it registered. */
struct dumper {
	pid_t pid;
	unsigned long long start;	/* field 22 of /proc/PID/stat */
	char module[PATH_MAX];		/* the helper's path, in its maps */
	int state;			/* 0 waited for, 1 dumped, 2 failed,
					 * 3 gone */
	int rc;				/* its allocator's error, when 2 */
};

/* The first LEN bytes of file PATH into BUF (NUL-terminated); false
 * when it cannot be read. */
static bool
read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* The start time of process PID; 0 when it is gone. */
static unsigned long long
start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!read_small(path, buf, sizeof(buf)))
		return 0;
	/* The state is field 3, after the command name, which may hold
	 * anything; the start time is field 22. */
	p = strrchr(buf, ')');
	for (field = 2; p != NULL && field < 21; field++)
		p = strchr(p + 1, ' ');
	return p != NULL ? strtoull(p + 1, NULL, 10) : 0;
}

/* Whether the maps of process PID hold the module MODULE. */
static bool
maps_hold(pid_t pid, const char *module)
{
	char path[64], line[PATH_MAX + 256];
	size_t len = strlen(module);
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "r");
	if (fp == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		char *p = strchr(line, '/');

		found = p != NULL && strncmp(p, module, len) == 0 &&
		    (p[len] == '\n' || p[len] == '\0');
	}
	fclose(fp);
	return found;
}

/* Still the process that registered, and still running the helper. */
static bool
alive(const struct dumper *d)
{
	return start_time(d->pid) == d->start && maps_hold(d->pid, d->module);
}

/* The processes registered in DIR that are alive and run the helper,
 * into D (at most RECORD_MAX_DUMPERS); their count. */
static size_t
find_dumpers(const char *dir, struct dumper *d)
{
	size_t plen = strlen(RECORD_PROCESS_FILE), n = 0;
	char path[PATH_MAX], buf[PATH_MAX + 64], *end, *nl;
	struct dirent *de;
	DIR *dp = opendir(dir);
	long pid;

	if (dp == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL && n < RECORD_MAX_DUMPERS) {
		if (strncmp(de->d_name, RECORD_PROCESS_FILE, plen) != 0)
			continue;
		errno = 0;
		pid = strtol(de->d_name + plen, &end, 10);
		if (errno != 0 || *end != '\0' || pid <= 0 || pid > INT_MAX)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path) || !read_small(path, buf, sizeof(buf)))
			continue;
		memset(&d[n], 0, sizeof(d[n]));
		d[n].pid = (pid_t)pid;
		d[n].start = strtoull(buf, &end, 10);
		if (*end != '\n' || (nl = strchr(end + 1, '\n')) == NULL ||
		    (size_t)(nl - end - 1) >= sizeof(d[n].module))
			continue;
		memcpy(d[n].module, end + 1, (size_t)(nl - end - 1));
		d[n].module[nl - end - 1] = '\0';
		if (alive(&d[n]))
			n++;
	}
	closedir(dp);
	return n;
}

/* Whether process D answered request NUMBER; its state then. */
static void
check_answer(const char *dir, struct dumper *d, unsigned long number)
{
	char path[PATH_MAX], buf[64];
	unsigned long got;
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s%d", dir, RECORD_ACK_FILE,
	    (int)d->pid) < (int)sizeof(path) &&
	    read_small(path, buf, sizeof(buf)) &&
	    sscanf(buf, "%lu %d", &got, &rc) == 2 && got >= number) {
		d->state = rc == 0 ? 1 : 2;
		d->rc = rc;
	} else if (!alive(d)) {
		/* It exited meanwhile: its dump at exit stands. */
		d->state = 3;
	}
}

/* Write request NUMBER, one more than the last, as a whole. */
static int
write_request(const char *dir, unsigned long *number)
{
	char path[PATH_MAX], tmp[PATH_MAX], buf[32];
	FILE *fp;

	if (snprintf(path, sizeof(path), "%s/%s", dir, RECORD_REQUEST_FILE) >=
	    (int)sizeof(path) || snprintf(tmp, sizeof(tmp), "%s/%s.new", dir,
	    RECORD_REQUEST_FILE) >= (int)sizeof(tmp))
		return cmd_error("cannot write into '%s': %s", dir,
		    strerror(ENAMETOOLONG));
	*number = read_small(path, buf, sizeof(buf)) ?
	    strtoul(buf, NULL, 10) + 1 : 1;
	fp = fopen(tmp, "w");
	if (fp == NULL)
		return cmd_error("cannot create '%s': %s", tmp, strerror(errno));
	fprintf(fp, "%lu\n", *number);
	if (fclose(fp) != 0 || rename(tmp, path) != 0) {
		cmd_error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The ids of the processes in state STATE, as "1234, 5678" in BUF; their
 * count. */
static size_t
list_pids(const struct dumper *d, size_t n, int state, char *buf, size_t len)
{
	size_t i, k = 0, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (d[i].state != state)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
			    k > 0 ? ", " : "", (int)d[i].pid);
		k++;
	}
	return k;
}

int
record_dump(const char *dir)
{
	struct timespec pause = { 0, POLL_MS * 1000L * 1000L };
	struct dumper *d;
	char mark[PATH_MAX], buf[64], pids[512];
	unsigned long number = 0;
	int waited, pid = 0, status;
	size_t n = 0, i, left, k;

	if (snprintf(mark, sizeof(mark), "%s/%s", dir, RECORD_MARK_FILE) <
	    (int)sizeof(mark) && read_small(mark, buf, sizeof(buf)))
		pid = (int)strtol(buf, NULL, 10);
	if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
		return cmd_error("no program is recording into '%s' (profconv "
		    "record -o '%s' -- PROG)", dir, dir);
	d = calloc(RECORD_MAX_DUMPERS, sizeof(*d));
	if (d == NULL)
		return cmd_error("out of memory");
	/* A program that just started registers within a poll or two. */
	for (waited = 0; waited < RECORD_DUMP_WAIT_MS; waited += POLL_MS) {
		n = find_dumpers(dir, d);
		if (n > 0)
			break;
		nanosleep(&pause, NULL);
	}
	if (n == 0) {
		free(d);
		return cmd_error("no process recording into '%s' answers: its "
		    "allocator has no heap profiler to ask", dir);
	}
	status = write_request(dir, &number);
	for (waited = 0; status == EXIT_OK; waited += POLL_MS) {
		for (i = 0, left = 0; i < n; i++) {
			if (d[i].state == 0)
				check_answer(dir, &d[i], number);
			left += d[i].state == 0;
		}
		if (left == 0 || waited >= RECORD_DUMP_WAIT_MS)
			break;
		nanosleep(&pause, NULL);
	}
	if (status == EXIT_OK && (k = list_pids(d, n, 0, pids,
	    sizeof(pids))) > 0)
		status = cmd_error("no dump in '%s' after %d s from process%s "
		    "%s (of %zu recording)", dir, RECORD_DUMP_WAIT_MS / 1000,
		    k > 1 ? "es" : "", pids, n);
	else if (status == EXIT_OK && (k = list_pids(d, n, 2, pids,
	    sizeof(pids))) > 0) {
		for (i = 0; d[i].state != 2; i++)
			;
		status = cmd_error("process%s %s recording into '%s' could not "
		    "dump: %s", k > 1 ? "es" : "", pids, dir,
		    strerror(d[i].rc));
	}
	free(d);
	return status;
}

void
record_dump_cleanup(const char *dir)
{
	size_t plen = strlen(RECORD_PROCESS_FILE),
	    alen = strlen(RECORD_ACK_FILE);
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dp = opendir(dir);

	if (dp == NULL)
		return;
	while ((de = readdir(dp)) != NULL)
		if ((strncmp(de->d_name, RECORD_PROCESS_FILE, plen) == 0 ||
		    strncmp(de->d_name, RECORD_ACK_FILE, alen) == 0 ||
		    strncmp(de->d_name, RECORD_REQUEST_FILE,
		    strlen(RECORD_REQUEST_FILE)) == 0) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) <
		    (int)sizeof(path))
			unlink(path);
	closedir(dp);
}
