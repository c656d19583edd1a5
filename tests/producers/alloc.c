/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - a small program with known allocation behaviour, run under
 * jemalloc's heap profiler by tests/cli/producers-jemalloc.sh.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -pthread -o alloc alloc.c -ldl
 * Usage: alloc [ROUNDS [THREADS]]
 *
 * Call paths with different sizes: a leak of small blocks, blocks kept
 * through two levels of calls, zeroed blocks, a realloc chain, blocks
 * allocated and freed again (alloc-only), and THREADS (default 3, at
 * most MAXTHREADS) named threads that each allocate their own size.  While every thread is alive, main
 * asks jemalloc for a dump ("prof.dump", so the header lists the named
 * threads); ROUNDS rounds of 1 MiB churn can trigger interval dumps.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_now.h"

#define MAXTHREADS 16
#define NOINLINE __attribute__((noinline))

static void *kept[4096];
static size_t nkept;
static pthread_barrier_t alive, dumped;

static NOINLINE void
keep(void *p)
{
	if (p == NULL) {
		fputs("alloc: out of memory\n", stderr);
		exit(1);
	}
	if (nkept < sizeof(kept) / sizeof(kept[0]))
		kept[nkept++] = p;
}

/* 1000 blocks of 24 bytes, never freed: the leak. */
static NOINLINE void
leak_small(void)
{
	static void *leaked[1000];
	int i;

	for (i = 0; i < 1000; i++)
		leaked[i] = malloc(24);
	__asm__ volatile("" : : "r"(leaked) : "memory");
}

static NOINLINE void
level2(size_t size, int n)
{
	int i;

	for (i = 0; i < n; i++)
		keep(malloc(size));
}

static NOINLINE void
level1(void)
{
	level2(1000, 200);
}

static NOINLINE void
zeroed(void)
{
	int i;

	for (i = 0; i < 64; i++)
		keep(calloc(1, 4096));
}

static NOINLINE void
grow(void)
{
	char *p = NULL;
	size_t n;

	for (n = 1024; n <= 102400; n *= 10) {
		p = realloc(p, n);
		if (p == NULL)
			exit(1);
		memset(p, 1, n);
	}
	keep(p);
}

/* Allocated and freed again: shows up only in the accumulated counts. */
static NOINLINE void
churn(size_t size, int n)
{
	void **v = malloc((size_t)n * sizeof(*v));
	int i;

	if (v == NULL)
		exit(1);
	for (i = 0; i < n; i++) {
		v[i] = malloc(size);
		if (v[i] != NULL)
			memset(v[i], 0, size);
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static NOINLINE void
thread_work(size_t size)
{
	void *mine[300];
	int i;

	for (i = 0; i < 300; i++)
		mine[i] = malloc(size);
	for (i = 0; i < 300; i += 2)
		free(mine[i]);
	__asm__ volatile("" : : "r"(mine) : "memory");
}

static void *
worker(void *arg)
{
	int id = (int)(long)arg;
	char name[16];

	/* Named before the thread's first allocation, so jemalloc's
	 * prof_sys_thread_name reads it. */
	snprintf(name, sizeof(name), "worker-%d", id);
	pthread_setname_np(pthread_self(), name);
	/* 4.9, 9.8 and 19.7 MB: sampled even at jemalloc's default rate;
	 * threads past the third, a little each, so many fit. */
	thread_work(id < 3 ? (size_t)16384 << id : (size_t)1024 * id);
	pthread_barrier_wait(&alive);
	pthread_barrier_wait(&dumped);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[MAXTHREADS];
	int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
	long i, n = argc > 2 ? strtol(argv[2], NULL, 10) : 3;

	leak_small();
	level1();
	zeroed();
	grow();
	churn(777, 500);
	if (n < 0 || n > MAXTHREADS)
		n = 3;
	pthread_barrier_init(&alive, NULL, (unsigned int)n + 1);
	pthread_barrier_init(&dumped, NULL, (unsigned int)n + 1);
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	pthread_barrier_wait(&alive);
	dump_now();
	pthread_barrier_wait(&dumped);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < rounds; i++)
		churn(1 << 20, 4);
	printf("kept %zu blocks\n", nkept);
	return 0;
}
