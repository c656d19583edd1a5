/* SPDX-License-Identifier: MIT */
/*
 * lookup.c - the lookup pass: a batch of binaries' new addresses, cut
 * into tasks (one per module, more for a large module whose debug info
 * each thread can read without inflating it again) that run on jobs,
 * then merged back into their modules in address order.
 *
 * Cut here because this is the part of a run that runs on several
 * threads: what a task may touch is in view in one file.
 */

#include "config.h"

#include <stdlib.h>

#include "symbolize/symbolizer.h"

/* Addresses below which one module is not worth a second handle. */
#define SHARD_MIN 2048

/* --- lookup: the batch's new addresses, on several threads --------------- */

/* The addresses of the batch's locations that no module answered yet. */
static int
collect_todo(struct session *s)
{
	const struct pc_location *loc;
	struct sym_module *m;
	struct sym_map *sm;
	uint64_t addr;
	uint32_t k;
	size_t i, j, n;

	for (i = 0; i < s->prof->nlocations; i++) {
		if ((sm = sym_batch_map(s, (uint32_t)i + 1)) == NULL)
			continue;
		loc = pc_location(s->prof, (uint32_t)i + 1);
		m = s->bins[sm->binary]->m;
		addr = loc->address - sm->bias;
		if (profconv__u64map_get(&m->by_addr, addr, &k))
			continue;
		if (PC_GROW(m->todo, m->todo_cap, m->ntodo, 1) < 0)
			return PROFCONV_ENOMEM;
		m->todo[m->ntodo++] = addr;
	}
	/* Sorted, once each: a share of them is a range of addresses. */
	for (i = s->batch_lo; i < s->batch_hi; i++) {
		m = s->bins[i]->m;
		if (m->ntodo < 2)
			continue;
		qsort(m->todo, m->ntodo, sizeof(*m->todo), profconv__cmp_u64);
		for (j = n = 1; j < m->ntodo; j++)
			if (m->todo[j] != m->todo[n - 1])
				m->todo[n++] = m->todo[j];
		m->ntodo = n;
	}
	return 0;
}

/*
 * The modules to open whose debug info is not in the file itself: a
 * separate debug file, often compressed, which libdw inflates whole on
 * opening.  Their tasks go first so that the slowest start first.
 */
static bool
opens_slowly(const struct sym_module *m)
{
	return !m->tried && m->plain_debug == 0;
}

/*
 * M's tasks: one when it has work (or must be opened), more for many
 * addresses in debug info each thread can read without inflating it
 * again.
 */
static int
add_tasks(struct session *s, struct sym_module *m, unsigned int jobs)
{
	size_t k, n = m->tried ? 0 : 1;

	if (m->ntodo > 0 && !m->unusable) {
		n = 1;
		if (m->plain_debug != 0 && jobs > 1)
			n = m->ntodo / SHARD_MIN;
		n = n < 1 ? 1 : n > jobs ? jobs : n;
		n = n > MAX_SHARDS ? MAX_SHARDS : n;
	}
	m->nshards = n;
	for (k = 0; k < n; k++) {
		if (PC_GROW(s->tasks, s->tasks_cap, s->ntasks, 1) < 0)
			return PROFCONV_ENOMEM;
		s->tasks[s->ntasks++] = (struct sym_task){ m, k };
	}
	return 0;
}

/* The batch's tasks, those of modules that open slowly first. */
static int
plan_shards(struct session *s, unsigned int jobs)
{
	struct sym_module *m;
	size_t i, pass;
	int rc;

	s->ntasks = 0;
	for (pass = 0; pass < 2; pass++) {
		for (i = s->batch_lo; i < s->batch_hi; i++) {
			m = s->bins[i]->m;
			if (opens_slowly(m) != (pass == 0))
				continue;
			if ((rc = add_tasks(s, m, jobs)) < 0)
				return rc;
		}
	}
	return 0;
}

/* Task I: one shard of one module's addresses (see plan_shards). */
static int
lookup_task(void *arg, size_t i)
{
	struct session *s = arg;
	struct sym_task *t = &s->tasks[i];
	struct sym_module *m = t->m;
	struct sym_handle *h;
	size_t k, lo, hi;
	int rc;

	if (t->shard == 0 && !m->tried) {
		rc = profconv__sym_module_open(s->sz, m);
		if (rc < 0)
			return rc;
	}
	if (t->shard == 0 && m->unusable)
		return 0;
	if (m->h[t->shard] == NULL) {
		/* The same file opened again for this thread; when that
		 * fails, the first handle does this share afterwards. */
		rc = profconv__sym_handle_open(s->sz, m, &m->h[t->shard]);
		if (rc == PROFCONV_EFORMAT || rc == PROFCONV_ENOTFOUND)
			return 0;
		if (rc < 0)
			return rc;
	}
	h = m->h[t->shard];
	lo = m->ntodo * t->shard / m->nshards;
	hi = m->ntodo * (t->shard + 1) / m->nshards;
	h->nans = h->nframes = 0;
	for (k = lo; k < hi; k++) {
		rc = profconv__sym_handle_lookup(h, s->opts->demangle,
		    m->todo[k]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Keep every task's answers in its module, in address order. */
static int
merge_batch(struct session *s)
{
	struct sym_module *m;
	struct sym_handle *h;
	size_t i, k, lo, hi, j;
	int rc;

	for (i = 0; i < s->ntasks; i++) {
		m = s->tasks[i].m;
		k = s->tasks[i].shard;
		h = m->h[k];
		if (m->unusable)
			continue;
		if (h == NULL) {
			/* This share's own handle failed: the first one. */
			h = m->h[0];
			lo = m->ntodo * k / m->nshards;
			hi = m->ntodo * (k + 1) / m->nshards;
			for (j = lo; j < hi; j++) {
				rc = profconv__sym_handle_lookup(h,
				    s->opts->demangle, m->todo[j]);
				if (rc < 0)
					return rc;
			}
		}
		rc = profconv__sym_merge_answers(m, h);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
profconv__sym_lookup_batch(struct session *s)
{
	struct sym_module *m;
	unsigned int jobs = profconv__jobs_count(s->sz->jobs);
	size_t i;
	int rc;

	s->sz->batches++;
	for (i = s->batch_lo; i < s->batch_hi; i++) {
		m = s->bins[i]->m;
		m->used = s->sz->batches;
		m->ntodo = 0;
		m->nshards = 0;
	}
	rc = collect_todo(s);
	if (rc == 0)
		rc = plan_shards(s, jobs);
	/* A module opened on several threads: copied once for all. */
	for (i = s->batch_lo; rc == 0 && i < s->batch_hi; i++)
		if (s->bins[i]->m->nshards > 1)
			profconv__sym_module_copy(s->sz, s->bins[i]->m);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, s->ntasks, lookup_task, s);
	for (i = s->batch_lo; i < s->batch_hi; i++)
		profconv__sym_module_uncopy(s->bins[i]->m);
	if (rc == 0)
		rc = merge_batch(s);
	for (i = s->batch_lo; i < s->batch_hi; i++)
		s->bins[i]->m->ntodo = 0;
	return rc;
}

/* Warnings, errors and progress of the batch's binaries, in order. */
int
profconv__sym_report_batch(struct session *s)
{
	struct sym_binary *b;
	uint32_t code;
	size_t i;
	int rc;

	for (i = s->batch_lo; i < s->batch_hi; i++) {
		b = s->bins[i];
		if (b->m->unusable) {
			rc = profconv__sym_unusable(s, b->found.path,
			    b->m->why, &code);
			if (rc < 0)
				return rc;
		}
		if (s->opts->progress != NULL)
			s->opts->progress(i + 1, s->nbins, s->opts->payload);
	}
	return 0;
}
