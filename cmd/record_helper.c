/* SPDX-License-Identifier: MIT */
/*
 * record_helper.c - profconv-record.so, the module "profconv record"
 * preloads into the program it runs: a thread that asks the allocator's
 * heap profiler for a dump every PROFCONV_RECORD_INTERVAL_MS
 * milliseconds (0: never) and whenever the file .dump-request appears
 * in PROFCONV_RECORD_DIR ("profconv record --dump DIR"), removing it
 * once the dump is written.  jemalloc's mallctl("prof.dump") and
 * gperftools' HeapProfilerDump() are looked up at run time; without
 * either, or without PROFCONV_RECORD_DIR, it does nothing.  It takes no
 * signal: the program keeps them all.
 */

#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* How often the request file is looked for, in milliseconds. */
#define POLL_MS 100

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);
typedef void (*heapdump_fn)(const char *);
typedef int (*heapstart_fn)(const char *);
typedef void (*heapstop_fn)(void);

static mallctl_fn je_ctl;
static heapdump_fn tc_dump;
static heapstart_fn tc_start;
static heapstop_fn tc_stop;
static char request[PATH_MAX];
static long interval_ms;

/*
 * gperftools names a forked child's dumps apart only when it starts
 * again (an exec): a child that only forked goes on with its parent's
 * prefix and count, over its parent's files.  So the child's profiler
 * starts again under HEAPPROFILE_PID, as gperftools names a child's.
 */
static void
tc_own_prefix(void)
{
	const char *prefix = getenv("HEAPPROFILE");
	char buf[PATH_MAX];

	if (tc_start == NULL || tc_stop == NULL || prefix == NULL ||
	    snprintf(buf, sizeof(buf), "%s_%d", prefix, (int)getpid()) >=
	    (int)sizeof(buf))
		return;
	/* gperftools 2.10 marks a child by setting the high bit of the
	 * variable's first byte (an absolute path: '/'). */
	buf[0] = (char)(buf[0] & 0x7f);
	tc_stop();
	(void)tc_start(buf);
}

static void
dump(void)
{
	if (je_ctl != NULL)
		(void)je_ctl("prof.dump", NULL, NULL, NULL, 0);
	else if (tc_dump != NULL)
		tc_dump("profconv record");
}

static void *
helper(void *arg)
{
	struct timespec pause = { 0, POLL_MS * 1000L * 1000L };
	long since = 0;

	(void)arg;
	for (;;) {
		nanosleep(&pause, NULL);
		since += POLL_MS;
		if (interval_ms > 0 && since >= interval_ms) {
			since = 0;
			dump();
		}
		if (access(request, F_OK) == 0) {
			dump();
			unlink(request);
		}
	}
	return NULL;
}

/* Start the thread (again in a forked child, where it is gone). */
static void
start(void)
{
	pthread_attr_t attr;
	pthread_t t;

	if (pthread_attr_init(&attr) != 0)
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	(void)pthread_create(&t, &attr, helper, NULL);
	pthread_attr_destroy(&attr);
}

/* In a forked child: its own dump names (tcmalloc), its own thread. */
static void
in_child(void)
{
	if (je_ctl == NULL)
		tc_own_prefix();
	start();
}

__attribute__((constructor)) static void
profconv_record_helper_init(void)
{
	const char *dir = getenv("PROFCONV_RECORD_DIR");
	const char *ms = getenv("PROFCONV_RECORD_INTERVAL_MS");

	if (dir == NULL || *dir == '\0')
		return;
	*(void **)&je_ctl = dlsym(RTLD_DEFAULT, "mallctl");
	*(void **)&tc_dump = dlsym(RTLD_DEFAULT, "HeapProfilerDump");
	*(void **)&tc_start = dlsym(RTLD_DEFAULT, "HeapProfilerStart");
	*(void **)&tc_stop = dlsym(RTLD_DEFAULT, "HeapProfilerStop");
	if (je_ctl == NULL && tc_dump == NULL)
		return;
	if (snprintf(request, sizeof(request), "%s/.dump-request", dir) >=
	    (int)sizeof(request))
		return;
	interval_ms = ms != NULL ? strtol(ms, NULL, 10) : 0;
	/* A forked child has no thread but the one that forked: its own
	 * dumps (its own process id in their names) need one again.  The
	 * allocator is made to start first, so that its own fork handlers,
	 * which unlock its arenas in the child, come before ours (child
	 * handlers run in the order they were registered). */
	free(malloc(1));
	(void)pthread_atfork(NULL, NULL, in_child);
	start();
}
