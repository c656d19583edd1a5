/* SPDX-License-Identifier: MIT */
/*
 * forkspin.c - a program for tests/cli/record.sh: a thread allocates and
 * frees without pause while the main thread forks FORKS children, each
 * of which exits at once (_exit(), nothing but async-signal-safe calls
 * between fork and exit, as a fork before exec).  A child still there
 * after 5 s is killed, and the program says so and exits 3; otherwise
 * it prints "forkspin: FORKS forks" and exits 0.
 *
 * Build: cc -O1 -g -pthread -o forkspin forkspin.c
 * Usage: forkspin FORKS
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;

static void *
spin(void *arg)
{
	unsigned i = 0;

	(void)arg;
	while (!stop) {
		void *volatile p = malloc(64 + i++ % 256);

		free(p);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000000 };
	int forks, i, waited, st;
	pthread_t t;
	pid_t pid;

	if (argc != 2)
		return 98;
	forks = (int)strtol(argv[1], NULL, 10);
	if (pthread_create(&t, NULL, spin, NULL) != 0)
		return 97;
	for (i = 0; i < forks; i++) {
		pid = fork();
		if (pid < 0)
			return 96;
		if (pid == 0)
			_exit(0);
		for (waited = 0; waitpid(pid, &st, WNOHANG) == 0; waited++) {
			if (waited == 5000) {
				kill(pid, SIGKILL);
				waitpid(pid, &st, 0);
				stop = 1;
				pthread_join(t, NULL);
				printf("forkspin: child %d of %d hung after "
				    "fork\n", i + 1, forks);
				return 3;
			}
			nanosleep(&ms, NULL);
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("forkspin: %d forks\n", forks);
	return 0;
}
