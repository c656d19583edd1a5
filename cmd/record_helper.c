/* SPDX-License-Identifier: MIT */
/*
 * record_helper.c - profconv-record.so, the module "profconv record"
 * preloads into the program it runs: a thread that asks the allocator's
 * heap profiler for a dump every PROFCONV_RECORD_INTERVAL_MS
 * milliseconds (0: never) and whenever "profconv record --dump DIR"
 * asks, by a request number in PROFCONV_RECORD_DIR that each process
 * answers for itself (record.h).  jemalloc's mallctl("prof.dump") and
 * gperftools' HeapProfilerDump() are looked up at run time; without
 * either, or without PROFCONV_RECORD_DIR, it does nothing.  It takes no
 * signal: the program keeps them all.
 */

#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

/* How often the request file is looked for, in milliseconds. */
#define POLL_MS 100

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);
typedef void (*heapdump_fn)(const char *);
typedef void (*heapstart_fn)(const char *);
typedef void (*heapstop_fn)(void);
typedef void (*newhook_fn)(const void *, size_t);
typedef int (*addhook_fn)(newhook_fn);

static mallctl_fn je_ctl;
static heapdump_fn tc_dump;
static heapstart_fn tc_start;
static heapstop_fn tc_stop;
static addhook_fn tc_add_new_hook;
/* Held by a dump, and by fork() (from before the allocator's own fork
 * handlers until after them): no dump of this module's is under way in
 * another thread when a process forks. */
static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
/* tcmalloc: this process forked and its profiler has not started again
 * under its own name yet. */
static int forked;
static int exit_handler;
static char dir[PATH_MAX], request[PATH_MAX];
static long interval_ms;
/* The last request number this process answered (a forked child's is
 * its parent's at the fork). */
static unsigned long answered;

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
	tc_start(buf);
}

/* A dump now: 0, or jemalloc's error number. */
static int
dump(void)
{
	int rc = 0;

	pthread_mutex_lock(&dump_lock);
	if (je_ctl != NULL)
		rc = je_ctl("prof.dump", NULL, NULL, NULL, 0);
	else if (tc_dump != NULL)
		tc_dump("profconv record");
	pthread_mutex_unlock(&dump_lock);
	return rc;
}

/* The number in the request file; 0 when there is none. */
static unsigned long
request_number(void)
{
	char buf[32];
	ssize_t n;
	int fd = open(request, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoul(buf, NULL, 10);
}

/* Write TEXT to DIR/NAME as a whole: written beside it, then renamed. */
static void
write_whole(const char *name, const char *text)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path) || snprintf(tmp, sizeof(tmp), "%s.tmp", path) >=
	    (int)sizeof(tmp))
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmp);
		return;
	}
	close(fd);
	if (rename(tmp, path) != 0)
		unlink(tmp);
}

/*
 * This process records into DIR: its start time (which a later process
 * with its id would not share) and this module's path (which its maps
 * hold until it execs something else) in DIR/.process.PID.
 */
static void
register_process(void)
{
	char stat[1024], name[64], text[PATH_MAX + 64], *p;
	unsigned long long start;
	Dl_info self;
	ssize_t n;
	int fd, field;

	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return;
	stat[n] = '\0';
	/* Fields after the command name, which may hold anything: the
	 * state is field 3, the start time field 22. */
	p = strrchr(stat, ')');
	for (field = 2; p != NULL && field < 21; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || dladdr((void *)register_process, &self) == 0 ||
	    self.dli_fname == NULL)
		return;
	start = strtoull(p + 1, NULL, 10);
	snprintf(name, sizeof(name), "%s%d", RECORD_PROCESS_FILE,
	    (int)getpid());
	if (snprintf(text, sizeof(text), "%llu\n%s\n", start,
	    self.dli_fname) < (int)sizeof(text))
		write_whole(name, text);
}

/* Answer request NUMBER: dump, then say so in DIR/.dump-ack.PID. */
static void
answer(unsigned long number)
{
	char name[64], text[64];
	int rc = dump();

	answered = number;
	snprintf(name, sizeof(name), "%s%d", RECORD_ACK_FILE, (int)getpid());
	snprintf(text, sizeof(text), "%lu %d\n", number, rc);
	write_whole(name, text);
}

static void *
helper(void *arg)
{
	struct timespec pause = { 0, POLL_MS * 1000L * 1000L };
	unsigned long number;
	long since = 0;

	(void)arg;
	register_process();
	for (;;) {
		nanosleep(&pause, NULL);
		since += POLL_MS;
		if (interval_ms > 0 && since >= interval_ms) {
			since = 0;
			(void)dump();
		}
		number = request_number();
		if (number > answered)
			answer(number);
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

/*
 * tcmalloc and fork.  gperftools' heap profiler keeps its table under one
 * spin lock (heap_lock in heap-profiler.cc, 2.10 to this day), which every
 * profiled malloc and free and every dump holds, and for which it
 * registers no fork handler: a process that forks while another thread
 * holds it leaves it held in the child for ever.  HeapProfilerStop() in
 * the child's fork handler, as this module did, then hangs a child that
 * would only have exec'd.  So the child's handler only marks the child
 * (async-signal-safe), and the profiler starts again under the child's
 * own name at the child's first allocation, from a gperftools new-hook,
 * or stops at its exit if it never allocated, before gperftools' dump at
 * exit would write under the parent's name.  A child that allocates
 * while the lock is held hangs in gperftools' own hook, with or without
 * this module: see CAVEATS in profconv-record(1).  This module's own
 * dumps are kept out of that window by dump_lock, which fork takes.
 */
static void
at_allocation(const void *ptr, size_t size)
{
	(void)ptr;
	(void)size;
	if (__atomic_load_n(&forked, __ATOMIC_RELAXED) == 0 ||
	    __atomic_exchange_n(&forked, 0, __ATOMIC_ACQ_REL) == 0)
		return;
	/* Allocations below come back here, and find nothing to do. */
	tc_own_prefix();
	start();
}

static void
at_exit(void)
{
	if (__atomic_exchange_n(&forked, 0, __ATOMIC_ACQ_REL) != 0 &&
	    tc_stop != NULL)
		tc_stop();
}

static void
before_fork(void)
{
	/* Registered now, after gperftools' dump at exit: run before it. */
	if (je_ctl == NULL && !exit_handler) {
		exit_handler = 1;
		(void)atexit(at_exit);
	}
	pthread_mutex_lock(&dump_lock);
}

static void
after_fork_parent(void)
{
	pthread_mutex_unlock(&dump_lock);
}

/* In a forked child: its own thread (jemalloc, whose fork handlers make
 * the child's allocator whole), or the mark that starts tcmalloc's
 * profiler and the thread again at the first allocation. */
static void
after_fork_child(void)
{
	pthread_mutex_unlock(&dump_lock);
	if (je_ctl != NULL)
		start();
	else
		__atomic_store_n(&forked, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void
profconv_record_helper_init(void)
{
	const char *env_dir = getenv("PROFCONV_RECORD_DIR");
	const char *ms = getenv("PROFCONV_RECORD_INTERVAL_MS");

	if (env_dir == NULL || *env_dir == '\0')
		return;
	*(void **)&je_ctl = dlsym(RTLD_DEFAULT, "mallctl");
	*(void **)&tc_dump = dlsym(RTLD_DEFAULT, "HeapProfilerDump");
	*(void **)&tc_start = dlsym(RTLD_DEFAULT, "HeapProfilerStart");
	*(void **)&tc_stop = dlsym(RTLD_DEFAULT, "HeapProfilerStop");
	*(void **)&tc_add_new_hook = dlsym(RTLD_DEFAULT,
	    "MallocHook_AddNewHook");
	if (je_ctl == NULL && tc_dump == NULL)
		return;
	if (snprintf(request, sizeof(request), "%s/%s", env_dir,
	    RECORD_REQUEST_FILE) >= (int)sizeof(request))
		return;
	memcpy(dir, env_dir, strlen(env_dir) + 1);
	interval_ms = ms != NULL ? strtol(ms, NULL, 10) : 0;
	/* Requests made before this process started are not its. */
	answered = request_number();
	/* A forked child has no thread but the one that forked: its own
	 * dumps (its own process id in their names) need one again.  The
	 * allocator is made to start first, so that its own fork handlers,
	 * which unlock its arenas in the child, come before ours (child
	 * handlers run in the order they were registered, prepare handlers
	 * in the reverse order: ours first, holding nothing of theirs). */
	free(malloc(1));
	if (je_ctl == NULL && tc_add_new_hook != NULL)
		(void)tc_add_new_hook(at_allocation);
	(void)pthread_atfork(before_fork, after_fork_parent,
	    after_fork_child);
	start();
}
