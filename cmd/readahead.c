/* SPDX-License-Identifier: MIT */
/*
 * readahead.c - read the next inputs on reader threads while the caller
 * works on the current one (merge, proftrend, profconv report), and the
 * loop over a series' snapshots that proftrend and the report share.  The library keeps no
 * shared state between profiles, so reading several profiles at once,
 * and reading while another is merged or symbolized, is safe; what the
 * caller does with them (merging, symbolizing) stays in its own thread,
 * in input order, so the result does not depend on the thread count.
 */

#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

/*
 * Reading many large inputs at once multiplies peak memory: past this
 * many concurrent reads, the threads -j allows go to reading each input
 * in parallel (the library's own read jobs) instead.
 */
#define MAX_READERS 4

struct cmd_readahead {
	char **paths;
	int n, depth;
	int nthreads;			/* reader threads planned */
	int started;			/* and started (the caller's to read) */
	unsigned int jobs;		/* threads -j allows in all */
	struct profconv_profile **prof;	/* per input; NULL when unreadable */
	bool *ready;
	int next;			/* the next input a reader claims */
	int taken;			/* inputs handed over so far */
	bool stop;			/* the caller needs no more */
	bool progress;			/* cmd_read_progress before start */
	pthread_t *tids;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* Claim the next input to read, or -1 when none is left or wanted. */
static int
claim(struct cmd_readahead *ra)
{
	int i = -1;

	pthread_mutex_lock(&ra->mu);
	while (!ra->stop && ra->next < ra->n &&
	    ra->next - ra->taken >= ra->depth)
		pthread_cond_wait(&ra->cv, &ra->mu);
	if (!ra->stop && ra->next < ra->n)
		i = ra->next++;
	pthread_mutex_unlock(&ra->mu);
	return i;
}

/*
 * The library threads for reading input I: the threads -j allows, shared
 * by the reads that can run beside it (the last inputs have fewer).
 */
static unsigned int
read_jobs(const struct cmd_readahead *ra, int i)
{
	int beside = ra->n - i < ra->nthreads ? ra->n - i : ra->nthreads;
	unsigned int jobs = ra->jobs / (unsigned int)beside;

	return jobs > 0 ? jobs : 1;
}

static void *
reader(void *arg)
{
	struct cmd_readahead *ra = arg;
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *prof;
	int i;

	while ((i = claim(ra)) >= 0) {
		ro.jobs = read_jobs(ra, i);
		prof = NULL;
		/* Errors are reported here, by the thread that read. */
		(void)cmd_read_profile(ra->paths[i], &ro, &prof);
		pthread_mutex_lock(&ra->mu);
		ra->prof[i] = prof;
		ra->ready[i] = true;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return NULL;
}

/* -j N, or one per online CPU; at least 1. */
static unsigned int
jobs_wanted(void)
{
	unsigned int jobs = cmd_jobs();
	long cpus;

	if (jobs == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? (unsigned int)cpus : 1;
	}
	return jobs < PROFCONV_MAX_JOBS ? jobs : PROFCONV_MAX_JOBS;
}

/* Split the threads -j allows between concurrent reads and each read. */
static void
plan(struct cmd_readahead *ra)
{
	unsigned int jobs = jobs_wanted();
	unsigned int readers = jobs < MAX_READERS ? jobs : MAX_READERS;

	if (readers > (unsigned int)ra->n)
		readers = (unsigned int)ra->n;
	if (readers == 0)
		readers = 1;
	ra->nthreads = (int)readers;
	ra->jobs = jobs;
	/* Every reader needs room for the input it reads. */
	if (ra->depth < ra->nthreads)
		ra->depth = ra->nthreads;
}

/* Stop the readers, wait for them and free everything left. */
static void
finish(struct cmd_readahead *ra, int started)
{
	int i;

	pthread_mutex_lock(&ra->mu);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	for (i = 0; i < started; i++)
		pthread_join(ra->tids[i], NULL);
	for (i = 0; i < ra->n; i++)	/* read, never taken */
		profconv_profile_free(ra->prof[i]);
	cmd_read_progress = ra->progress;
	pthread_mutex_destroy(&ra->mu);
	pthread_cond_destroy(&ra->cv);
	free(ra->tids);
	free(ra->prof);
	free(ra->ready);
	free(ra);
}

int
cmd_readahead_start(struct cmd_readahead **out, char **paths, int n,
    int depth)
{
	struct cmd_readahead *ra = calloc(1, sizeof(*ra));
	int i;

	*out = NULL;
	if (ra == NULL)
		return cmd_error("out of memory");
	ra->paths = paths;
	ra->n = n;
	ra->depth = depth > 0 ? depth : 1;
	plan(ra);
	/* One progress line cannot follow several reads at once. */
	ra->progress = cmd_read_progress;
	if (ra->nthreads > 1)
		cmd_read_progress = false;
	ra->prof = calloc((size_t)n + 1, sizeof(*ra->prof));
	ra->ready = calloc((size_t)n + 1, sizeof(*ra->ready));
	ra->tids = calloc((size_t)ra->nthreads, sizeof(*ra->tids));
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->cv, NULL);
	if (ra->prof == NULL || ra->ready == NULL || ra->tids == NULL) {
		finish(ra, 0);
		return cmd_error("out of memory");
	}
	for (i = 0; i < ra->nthreads; i++)
		if (pthread_create(&ra->tids[i], NULL, reader, ra) != 0)
			break;
	if (i == 0) {
		finish(ra, 0);
		return cmd_error("cannot start reading ahead");
	}
	ra->started = i;	/* fewer readers still read everything */
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
	if (ra != NULL)
		finish(ra, ra->started);
}

int
cmd_add_snapshots(const struct cmd_view *v, char **paths, int n, int depth,
    cmd_add_fn *add, void *arg)
{
	struct cmd_readahead *ra;
	struct profconv_profile *prof;
	unsigned unmatched = ~0u;	/* the filters that matched nowhere */
	int i, status = EXIT_OK;

	if (cmd_readahead_start(&ra, paths, n, depth) != EXIT_OK)
		return EXIT_FAIL;
	/* Every unreadable input is reported (by its reader) before giving
	 * up, whatever the readers' timing, as merge does. */
	for (i = 0; i < n; i++) {
		prof = cmd_readahead_take(ra, i);
		if (prof == NULL) {
			status = EXIT_FAIL;
			continue;
		}
		if (status != EXIT_OK) {
			profconv_profile_free(prof);
			continue;
		}
		if (cmd_symbolize_view(v, prof, paths[i]) != EXIT_OK) {
			profconv_profile_free(prof);
			status = EXIT_FAIL;
			continue;
		}
		/* Checked until each filter has matched in some snapshot. */
		if (unmatched != 0)
			unmatched &= cmd_unmatched(v, prof);
		status = add(arg, prof, paths[i]);
	}
	cmd_readahead_finish(ra);
	if (status == EXIT_OK)
		cmd_warn_unmatched(v, unmatched);
	return status;
}
