/* SPDX-License-Identifier: MIT */
/*
 * runtimegrowth.c - a program whose C runtime allocates more as it runs
 * beside a leak of its own, for tests/cli/report-series.sh.  Every step
 * it keeps 16 KiB more (keep(): the program's leak), registers 40 more
 * atexit handlers (glibc's __new_exitfn allocates a block for every 32)
 * and starts one more thread that waits to the end (its thread-local
 * storage: _dl_allocate_tls, allocate_dtv), so the runtime's rows grow
 * too, as a long-running server's do; the thread, named "step-N", holds
 * 2 KiB of its own (mine()) to the end.
 * After every step main asks jemalloc for a dump (mallctl "prof.dump",
 * when run under a profiling jemalloc).
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -pthread -o runtimegrowth \
 *        runtimegrowth.c -ldl
 * Usage: runtimegrowth [STEPS]     (default 10, 4..60)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dump_now.h"

#define NOINLINE __attribute__((noinline))
#define MAXSTEPS 60

static pthread_barrier_t started, end;
static void *kept[MAXSTEPS * 16];

static void
nothing(void)
{
}

static NOINLINE void
keep(int s)
{
	int i;

	for (i = 0; i < 16; i++) {
		kept[s * 16 + i] = malloc(1024);
		if (kept[s * 16 + i] == NULL) {
			fputs("runtimegrowth: out of memory\n", stderr);
			exit(1);
		}
		__asm__ volatile("" : : "r"(kept[s * 16 + i]) : "memory");
	}
}

static NOINLINE void *
mine(void)
{
	void *p = malloc(2048);

	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

static void *
waiter(void *arg)
{
	char name[16];
	void *p;

	snprintf(name, sizeof(name), "step-%d", (int)(long)arg);
	pthread_setname_np(pthread_self(), name);
	p = mine();
	pthread_barrier_wait(&started);
	pthread_barrier_wait(&end);
	free(p);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[MAXSTEPS];
	int steps, s, i;

	steps = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;
	if (steps < 4 || steps > MAXSTEPS)
		steps = 10;
	pthread_barrier_init(&started, NULL, 2);
	pthread_barrier_init(&end, NULL, (unsigned)steps + 1);
	for (s = 0; s < steps; s++) {
		keep(s);
		for (i = 0; i < 40; i++)
			atexit(nothing);
		if (pthread_create(&t[s], NULL, waiter, (void *)(long)s) != 0) {
			fputs("runtimegrowth: cannot start a thread\n", stderr);
			return 1;
		}
		pthread_barrier_wait(&started);
		dump_now();
	}
	pthread_barrier_wait(&end);
	for (s = 0; s < steps; s++)
		pthread_join(t[s], NULL);
	return 0;
}
