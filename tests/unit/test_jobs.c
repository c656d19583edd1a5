/* SPDX-License-Identifier: MIT */
/*
 * test_jobs.c - the task runner every parallel part of the library uses:
 * every task runs once whatever the thread count, and a failure reports
 * the lowest-numbered failing task's error and message in the caller's
 * thread.
 */

#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "base/base.h"

#define NTASKS 1000

struct count {
	atomic_uint runs[NTASKS];
	size_t fail_from;		/* tasks from here on fail */
};

static int
count_task(void *arg, size_t i)
{
	struct count *c = arg;

	atomic_fetch_add(&c->runs[i], 1);
	if (i >= c->fail_from)
		return profconv__fail(PROFCONV_EFORMAT, "task %zu failed", i);
	return 0;
}

static void
every_task_runs_once_for_any_thread_count(void)
{
	static const unsigned int counts[] = { 0, 1, 2, 3, 8, PROFCONV_MAX_JOBS,
	    PROFCONV_MAX_JOBS + 5 };
	static struct count c;
	size_t k, i;

	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		memset(&c, 0, sizeof(c));
		c.fail_from = NTASKS;
		cr_assert_eq(profconv__jobs_run(counts[k], NTASKS, count_task,
		    &c), 0);
		for (i = 0; i < NTASKS; i++)
			cr_assert_eq(atomic_load(&c.runs[i]), 1,
			    "jobs %u: task %zu ran %u times", counts[k], i,
			    atomic_load(&c.runs[i]));
	}
}

static void
no_tasks_is_success(void)
{
	cr_assert_eq(profconv__jobs_run(4, 0, count_task, NULL), 0);
}

Test(jobs, the_lowest_failing_task_is_reported)
{
	static struct count c;
	unsigned int jobs;

	for (jobs = 1; jobs <= 4; jobs++) {
		memset(&c, 0, sizeof(c));
		c.fail_from = 700;
		profconv__fail(0, "stale");
		cr_assert_eq(profconv__jobs_run(jobs, NTASKS, count_task, &c),
		    PROFCONV_EFORMAT);
		cr_assert_str_eq(profconv_errmsg(), "task 700 failed",
		    "jobs %u: %s", jobs, profconv_errmsg());
		/* Every task before the failure ran. */
		for (size_t i = 0; i < 700; i++)
			cr_assert_eq(atomic_load(&c.runs[i]), 1);
	}
}

Test(jobs, count_resolves_zero_and_clamps)
{
	cr_assert_geq(profconv__jobs_count(0), 1);
	cr_assert_eq(profconv__jobs_count(3), 3);
	cr_assert_eq(profconv__jobs_count(100000), PROFCONV_MAX_JOBS);
}

/* Every task runs once, for any thread count and any number of tasks. */
Test(jobs, runs_every_task_once)
{
	every_task_runs_once_for_any_thread_count();
	no_tasks_is_success();
}
