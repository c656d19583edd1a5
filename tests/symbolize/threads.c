/* SPDX-License-Identifier: MIT */
/*
 * threads.c - symbolize one profile in several threads at once, each on
 * its own copy, and check that every copy comes out the same: the
 * library must keep no process-wide state during a call.
 *
 * usage: threads NTHREADS PROFILE [ROUNDS]
 *   each thread reads and symbolizes the profile ROUNDS times (default 1)
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profconv.h"

struct job {
	const char *path;
	int rounds;
	struct profconv_profile *prof;
	struct profconv_symbolize_stats stats;
	int rc;
	char err[512];
};

static void *
run(void *arg)
{
	struct job *j = arg;
	struct profconv_symbolize_options opts = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	int r;
	FILE *fp;

	for (r = 0; r < j->rounds && j->rc == 0; r++) {
		profconv_profile_free(j->prof);
		j->prof = NULL;
		if ((fp = fopen(j->path, "rb")) == NULL) {
			j->rc = -1;
			snprintf(j->err, sizeof(j->err), "cannot open");
			return NULL;
		}
		j->rc = profconv_profile_read(&j->prof, fp, NULL, NULL);
		fclose(fp);
		if (j->rc == 0)
			j->rc = profconv_symbolize(j->prof, &opts, &j->stats);
		/* The message is per thread. */
		if (j->rc != 0)
			snprintf(j->err, sizeof(j->err), "%s",
			    profconv_errmsg());
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct job *jobs;
	pthread_t *tids;
	int i, n, rounds;

	if (argc < 3 || argc > 4 || (n = atoi(argv[1])) < 1 || n > 64 ||
	    (rounds = argc == 4 ? atoi(argv[3]) : 1) < 1) {
		fprintf(stderr, "usage: threads NTHREADS PROFILE [ROUNDS]\n");
		return 2;
	}
	jobs = calloc((size_t)n, sizeof(*jobs));
	tids = calloc((size_t)n, sizeof(*tids));
	if (jobs == NULL || tids == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		jobs[i].path = argv[2];
		jobs[i].rounds = rounds;
		if (pthread_create(&tids[i], NULL, run, &jobs[i]) != 0)
			return 1;
	}
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	for (i = 0; i < n; i++) {
		if (jobs[i].rc != 0) {
			fprintf(stderr, "thread %d: %s\n", i, jobs[i].err);
			return 1;
		}
		if (jobs[i].stats.symbolized != jobs[0].stats.symbolized ||
		    jobs[i].stats.symbolized == 0) {
			fprintf(stderr, "thread %d symbolized %zu, thread 0 %zu\n",
			    i, jobs[i].stats.symbolized,
			    jobs[0].stats.symbolized);
			return 1;
		}
	}
	printf("%d threads symbolized %zu of %zu locations each\n", n,
	    jobs[0].stats.symbolized, jobs[0].stats.locations);
	for (i = 0; i < n; i++)
		profconv_profile_free(jobs[i].prof);
	free(jobs);
	free(tids);
	return 0;
}
