/* SPDX-License-Identifier: MIT */
/*
 * readahead.c - read the next inputs in a second thread while the first
 * one works on the current input (merge, proftrend).  The library keeps
 * no shared state between profiles, so reading one profile while another
 * is merged or symbolized is safe; symbolizing stays in the caller's
 * thread.
 */

#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "common.h"

struct cmd_readahead {
	char **paths;
	int n, depth;
	struct profconv_profile **prof;	/* per input; NULL when unreadable */
	bool *ready;
	int taken;			/* inputs handed over so far */
	bool stop;			/* the caller needs no more */
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *
reader(void *arg)
{
	struct cmd_readahead *ra = arg;
	struct profconv_profile *prof;
	bool stop;
	int i;

	for (i = 0; i < ra->n; i++) {
		pthread_mutex_lock(&ra->mu);
		while (i - ra->taken >= ra->depth && !ra->stop)
			pthread_cond_wait(&ra->cv, &ra->mu);
		stop = ra->stop;
		pthread_mutex_unlock(&ra->mu);
		if (stop)
			break;
		prof = NULL;
		/* Errors are reported here, in input order. */
		(void)cmd_read_profile(ra->paths[i], NULL, &prof);
		pthread_mutex_lock(&ra->mu);
		ra->prof[i] = prof;
		ra->ready[i] = true;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return NULL;
}

int
cmd_readahead_start(struct cmd_readahead **out, char **paths, int n,
    int depth)
{
	struct cmd_readahead *ra = calloc(1, sizeof(*ra));

	*out = NULL;
	if (ra == NULL)
		return cmd_error("out of memory");
	ra->paths = paths;
	ra->n = n;
	ra->depth = depth > 0 ? depth : 1;
	ra->prof = calloc((size_t)n + 1, sizeof(*ra->prof));
	ra->ready = calloc((size_t)n + 1, sizeof(*ra->ready));
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->cv, NULL);
	if (ra->prof == NULL || ra->ready == NULL ||
	    pthread_create(&ra->tid, NULL, reader, ra) != 0) {
		free(ra->prof);
		free(ra->ready);
		free(ra);
		return cmd_error("cannot start reading ahead");
	}
	*out = ra;
	return EXIT_OK;
}

struct profconv_profile *
cmd_readahead_take(struct cmd_readahead *ra, int i)
{
	struct profconv_profile *prof;

	pthread_mutex_lock(&ra->mu);
	while (!ra->ready[i])
		pthread_cond_wait(&ra->cv, &ra->mu);
	prof = ra->prof[i];
	ra->prof[i] = NULL;
	ra->taken = i + 1;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	return prof;
}

void
cmd_readahead_finish(struct cmd_readahead *ra)
{
	int i;

	if (ra == NULL)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	pthread_join(ra->tid, NULL);
	for (i = 0; i < ra->n; i++)	/* read, never taken */
		profconv_profile_free(ra->prof[i]);
	pthread_mutex_destroy(&ra->mu);
	pthread_cond_destroy(&ra->cv);
	free(ra->prof);
	free(ra->ready);
	free(ra);
}
