/* SPDX-License-Identifier: MIT */
/*
 * recordfork.c - a program that forks, for tests/cli/record.sh: the
 * parent keeps 64 KiB a step from parent_leak(), the child 32 KiB a
 * step from child_leak(), STEPS steps each, both churning 256 KiB a
 * step and sleeping STEP_MS (default 0) after it, so that both are
 * alive together; the child exits 0 through exit() (so its allocator's
 * dump at exit runs), the parent waits for it and exits 0.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o recordfork recordfork.c
 * Usage: recordfork STEPS [STEP_MS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void *
parent_leak(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(99);
	memset(p, 'p', n);
	return p;
}

static NOINLINE void *
child_leak(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(99);
	memset(p, 'c', n);
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
	int steps, ms = 0, i, st;
	void *volatile kept;
	struct timespec pause;
	pid_t pid;

	if (argc != 2 && argc != 3)
		return 98;
	steps = (int)strtol(argv[1], NULL, 10);
	if (argc == 3)
		ms = (int)strtol(argv[2], NULL, 10);
	pause.tv_sec = ms / 1000;
	pause.tv_nsec = (long)(ms % 1000) * 1000000L;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 97;
	for (i = 0; i < steps; i++) {
		kept = pid == 0 ? child_leak(32 * 1024) : parent_leak(64 * 1024);
		(void)kept;
		churn(256 * 1024);
		if (ms > 0)
			nanosleep(&pause, NULL);
	}
	if (pid == 0)
		exit(0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return 96;
	printf("recordfork: %d steps\n", steps);
	return 0;
}
