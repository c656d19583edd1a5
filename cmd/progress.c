/* SPDX-License-Identifier: MIT */
/* progress.c - the one-line progress indicator on a terminal, and the lock
 * that keeps it and the messages on standard error apart. */

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool cmd_quiet;

/* Work shorter than this shows no progress at all. */
#define PROGRESS_DELAY 1.0
/* The line is rewritten at most this often. */
#define PROGRESS_EVERY 0.1

static pthread_mutex_t stderr_mu = PTHREAD_MUTEX_INITIALIZER;

static struct {
	bool on;		/* this phase shows progress */
	bool shown;		/* a progress line is on the terminal */
	bool bytes;		/* units are bytes */
	char units[16];
	char label[256];
	double start, last;
} prog;

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Erase the progress line; the caller holds stderr_mu. */
static void
erase_progress(void)
{
	if (prog.shown)
		fputs("\r\033[K", stderr);
	prog.shown = false;
}

/* Messages take standard error through these, so that they never land
 * in the middle of a progress line. */
void
cmd_stderr_lock(void)
{
	pthread_mutex_lock(&stderr_mu);
	erase_progress();
}

void
cmd_stderr_unlock(void)
{
	pthread_mutex_unlock(&stderr_mu);
}

void
cmd_progress_begin(const char *units, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&stderr_mu);
	erase_progress();
	prog.on = !cmd_quiet && isatty(STDERR_FILENO);
	prog.bytes = strcmp(units, "bytes") == 0;
	snprintf(prog.units, sizeof(prog.units), "%s", units);
	va_start(ap, fmt);
	vsnprintf(prog.label, sizeof(prog.label), fmt, ap);
	va_end(ap);
	prog.start = seconds();
	prog.last = 0;
	pthread_mutex_unlock(&stderr_mu);
}

static void
print_mib(uint64_t n)
{
	fprintf(stderr, "%.1f MiB", (double)n / (1024.0 * 1024.0));
}

void
cmd_progress(uint64_t done, uint64_t total)
{
	double now;

	if (!prog.on)
		return;
	now = seconds();
	pthread_mutex_lock(&stderr_mu);
	if (now - prog.start >= PROGRESS_DELAY &&
	    now - prog.last >= PROGRESS_EVERY) {
		prog.last = now;
		fprintf(stderr, "\r%s: %s: ", cmd_name, prog.label);
		if (prog.bytes && total != 0) {
			fprintf(stderr, "%d%% (", (int)(done * 100 / total));
			print_mib(done);
			fputs(" of ", stderr);
			print_mib(total);
			fputc(')', stderr);
		} else if (prog.bytes) {
			print_mib(done);
		} else if (total != 0) {
			fprintf(stderr, "%llu of %llu %s",
			    (unsigned long long)done,
			    (unsigned long long)total, prog.units);
		} else {
			fprintf(stderr, "%llu %s", (unsigned long long)done,
			    prog.units);
		}
		fputs("\033[K", stderr);
		fflush(stderr);
		prog.shown = true;
	}
	pthread_mutex_unlock(&stderr_mu);
}

void
cmd_progress_fn(uint64_t done, uint64_t total, void *payload)
{
	(void)payload;
	cmd_progress(done, total);
}

void
cmd_progress_end(void)
{
	pthread_mutex_lock(&stderr_mu);
	erase_progress();
	prog.on = false;
	pthread_mutex_unlock(&stderr_mu);
}
