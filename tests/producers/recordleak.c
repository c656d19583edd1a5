/* SPDX-License-Identifier: MIT */
/*
 * recordleak.c - a program for tests/cli/record.sh: every step it keeps
 * 64 KiB it never frees (leak_buffer(), the leak) and allocates and
 * frees 256 KiB of scratch (churn()), then sleeps STEP_MS; at the end it
 * prints one line to standard output and exits with STATUS.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o recordleak recordleak.c
 * Usage: recordleak STEPS STEP_MS STATUS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void *
leak_buffer(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(99);
	memset(p, 'x', n);
	return p;
}

static NOINLINE void
churn(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(99);
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
}

int
main(int argc, char **argv)
{
	int steps, ms, status, i;
	void *volatile kept;
	struct timespec pause;

	if (argc != 4)
		return 98;
	steps = atoi(argv[1]);
	ms = atoi(argv[2]);
	status = atoi(argv[3]);
	pause.tv_sec = ms / 1000;
	pause.tv_nsec = (long)(ms % 1000) * 1000000L;
	for (i = 0; i < steps; i++) {
		kept = leak_buffer(64 * 1024);
		(void)kept;
		churn(256 * 1024);
		if (ms > 0)
			nanosleep(&pause, NULL);
	}
	printf("recordleak: %d steps\n", steps);
	return status;
}
