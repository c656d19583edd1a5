/* SPDX-License-Identifier: MIT */
/*
 * threadleak.c - a leak in one thread of three, for
 * tests/cli/trend-threads.sh.  All three threads allocate through one
 * function, hold(), so only rows per thread tell them apart.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -pthread -o threadleak \
 *        threadleak.c -ldl
 * Usage: threadleak [STEPS]     (default 10, 4..200)
 *
 * Three threads, named before their first allocation (jemalloc's
 * prof_sys_thread_name reads the names):
 *   worker-1   holds 1 MiB from the first step on, flat
 *   worker-2   keeps 8 KiB more every step: the leak
 *   churner    holds 16 KiB in even steps and 64 KiB in odd ones,
 *              freeing the last step's blocks
 * After every step main asks jemalloc for a dump (mallctl "prof.dump",
 * when run under a profiling jemalloc), while the threads wait.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dump_now.h"

#define NOINLINE __attribute__((noinline))
#define BLOCK 4096
#define MAXSTEPS 200

static pthread_barrier_t go, done;
static int steps;

static void *flat[256];
static void *leak[MAXSTEPS * 2];
static void *churn[2][16];

/* The one allocating function of every thread. */
static NOINLINE void *
hold(size_t size)
{
	void *p = malloc(size);

	if (p == NULL) {
		fputs("threadleak: out of memory\n", stderr);
		exit(1);
	}
	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

static NOINLINE void
worker1_step(int s)
{
	int i;

	if (s == 0)
		for (i = 0; i < 256; i++)
			flat[i] = hold(BLOCK);
}

static NOINLINE void
worker2_step(int s)
{
	leak[2 * s] = hold(BLOCK);
	leak[2 * s + 1] = hold(BLOCK);
}

static NOINLINE void
churner_step(int s)
{
	int i, n = s % 2 != 0 ? 16 : 4;

	for (i = 0; i < 16; i++) {
		free(churn[(s + 1) % 2][i]);
		churn[(s + 1) % 2][i] = NULL;
	}
	for (i = 0; i < n; i++)
		churn[s % 2][i] = hold(BLOCK);
}

static void *
thread(void *arg)
{
	int id = (int)(long)arg, s;
	static const char *const names[] = { "worker-1", "worker-2",
		"churner" };

	pthread_setname_np(pthread_self(), names[id]);
	for (s = 0; s < steps; s++) {
		pthread_barrier_wait(&go);
		if (id == 0)
			worker1_step(s);
		else if (id == 1)
			worker2_step(s);
		else
			churner_step(s);
		pthread_barrier_wait(&done);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[3];
	long i;
	int s;

	steps = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;
	if (steps < 4 || steps > MAXSTEPS)
		steps = 10;
	pthread_barrier_init(&go, NULL, 4);
	pthread_barrier_init(&done, NULL, 4);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, thread, (void *)i);
	for (s = 0; s < steps; s++) {
		pthread_barrier_wait(&go);
		pthread_barrier_wait(&done);
		dump_now();
	}
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
