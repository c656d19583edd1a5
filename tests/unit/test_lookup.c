/* SPDX-License-Identifier: MIT */
/*
 * test_lookup.c - the lookup pass: a batch's new addresses looked up
 * once each in their module and kept there, then the batch reported
 * (lib/symbolize/lookup.c).
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_fixture.h"
#include "sym_fixture.h"

static uint64_t progress[3];

TestSuite(lookup, .fini = drop_session);

static __attribute__((noinline)) int
probe_function(int x)
{
	/* Keep the call from being folded away. */
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static void
count_progress(uint64_t done, uint64_t total, void *payload)
{
	(void)payload;
	progress[0]++;
	progress[1] = done;
	progress[2] = total;
}

/* Three locations, two of one address, in this program's mapping; the
 * session planned with its one binary as the batch. */
static void
planned(uintptr_t addr)
{
	struct profconv_symbolize_options o = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_mapping m = { 0 };
	char file[4096];
	uint32_t mid;

	self_mapping(addr, &m, file, sizeof(file));
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr + 1,
	    NULL, 0, 0, NULL), 0));
	o.progress = count_progress;
	cr_assert(eq(int, profconv_symbolizer_new(&sz, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__sym_session_init(&s, sz, prof, NULL), 0));
	session_made = true;
	cr_assert(eq(int, profconv__sym_plan(&s), 0), "%s", ERRMSG);
	cr_assert(eq(sz, s.nbins, 1));
	s.batch_lo = 0;
	s.batch_hi = 1;
}

/* The outermost frame's name of the answer for file address ADDR. */
static const char *
answer_name(const struct sym_module *m, uint64_t addr)
{
	const struct sym_answer *a;
	uint32_t k;

	cr_assert(profconv__u64map_get(&m->by_addr, addr, &k),
	    "no answer for %#" PRIx64, addr);
	a = &m->ans[k];
	cr_assert(eq(u64, a->addr, addr));
	cr_assert(ge(u32, a->n, 1));
	return m->frames[a->off + a->n - 1].f.name;
}

/* Each address once, answered and kept in the module. */
static void
looks_each_new_address_up_once(void)
{
	uintptr_t addr = (uintptr_t)probe_function + 2;
	struct sym_module *m;
	uint64_t bias;

	planned(addr);
	cr_assert(eq(int, profconv__sym_lookup_batch(&s), 0), "%s", ERRMSG);
	m = s.bins[0]->m;
	bias = s.maps[0].bias;
	cr_assert(m->tried);
	cr_assert(not(m->unusable));
	cr_assert(eq(sz, m->nans, 2));
	cr_assert(eq(str, (char *)answer_name(m, addr - bias),
	    "probe_function"));
	cr_assert(eq(str, (char *)answer_name(m, addr + 1 - bias),
	    "probe_function"));
	cr_assert(eq(sz, m->ntodo, 0));
	cr_assert(eq(u64, m->used, 1));
	/* A second batch of the same addresses finds nothing new. */
	cr_assert(eq(int, profconv__sym_lookup_batch(&s), 0), "%s", ERRMSG);
	cr_assert(eq(sz, m->nans, 2));
	cr_assert(eq(u64, m->used, 2));
}

/* Progress counts the batch's binaries, of all the run's. */
static void
reports_the_batch_progress(void)
{
	planned((uintptr_t)probe_function + 2);
	cr_assert(eq(int, profconv__sym_lookup_batch(&s), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__sym_report_batch(&s), 0), "%s", ERRMSG);
	cr_assert(eq(u64, progress[0], 1));
	cr_assert(eq(u64, progress[1], 1));
	cr_assert(eq(u64, progress[2], 1));
}

/* A batch's addresses looked up once each, then the batch reported;
 * each case frees its session before the next. */
Test(lookup, looks_up_then_reports_a_batch)
{
	looks_each_new_address_up_once();
	drop_session();
	reports_the_batch_progress();
}
