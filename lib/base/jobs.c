/* SPDX-License-Identifier: MIT */
/*
 * jobs.c - run numbered tasks on a few threads.  Every parallel part of
 * the library (parsing chunks of a large input, compressing blocks of an
 * output, folding parts of a view) goes through here, so that thread
 * counts, error messages and cancellation follow one set of rules.
 */

#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

unsigned int
profconv__jobs_count(unsigned int asked)
{
	long n;

	if (asked == 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		asked = n > 0 ? (unsigned int)n : 1;
	}
	return asked < PROFCONV_MAX_JOBS ? asked : PROFCONV_MAX_JOBS;
}

struct pc_jobs {
	int (*task)(void *arg, size_t i);
	void *arg;
	size_t n;
	atomic_size_t next;
	atomic_bool stop;
	pthread_mutex_t mu;		/* guards the failure below */
	size_t failed_task;		/* lowest failing task, or n */
	int rc;
	char msg[1024];
};

/* Take tasks until none are left or one has failed. */
static void *
worker(void *p)
{
	struct pc_jobs *j = p;
	size_t i;
	int rc;

	while (!atomic_load(&j->stop) &&
	    (i = atomic_fetch_add(&j->next, 1)) < j->n) {
		rc = j->task(j->arg, i);
		if (rc >= 0)
			continue;
		atomic_store(&j->stop, true);
		pthread_mutex_lock(&j->mu);
		if (i < j->failed_task) {
			/* The message is the failing thread's own. */
			j->failed_task = i;
			j->rc = rc;
			snprintf(j->msg, sizeof(j->msg), "%s", profconv_errmsg());
		}
		pthread_mutex_unlock(&j->mu);
	}
	return NULL;
}

int
profconv__jobs_run(unsigned int jobs, size_t n,
    int (*task)(void *arg, size_t i), void *arg)
{
	struct pc_jobs j = { .task = task, .arg = arg, .n = n,
	    .failed_task = n };
	pthread_t tid[PROFCONV_MAX_JOBS];
	size_t started = 0, k, want;

	want = profconv__jobs_count(jobs);
	if (want > n)
		want = n;
	atomic_init(&j.next, 0);
	atomic_init(&j.stop, false);
	if (pthread_mutex_init(&j.mu, NULL) != 0)
		return profconv__nomem();
	/* The caller's thread is one of the workers. */
	for (k = 1; k < want; k++) {
		if (pthread_create(&tid[started], NULL, worker, &j) != 0)
			break;		/* fewer threads: slower, same result */
		started++;
	}
	worker(&j);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	pthread_mutex_destroy(&j.mu);
	if (j.failed_task < n)
		return profconv__fail(j.rc, "%s", j.msg);
	return 0;
}
