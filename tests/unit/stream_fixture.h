/* SPDX-License-Identifier: MIT */
/*
 * stream_fixture.h - what the tests of the Explore tab's tree pruned
 * while it is built share (test_report_data_stream.c, of one view;
 * test_report_data_change.c, of a change): the tree T made, its frames
 * G, what was dropped O, and a few helpers.
 */
#ifndef PROFCONV_TEST_STREAM_FIXTURE_H
#define PROFCONV_TEST_STREAM_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "report/report_tree.h"
#include "view/view.h"
#include "writer_fixture.h"

static struct tree t;
static struct gframes g;
static struct out_lean o;

static void
clear_out(void)
{
	profconv__report_tree_free(&t);
	profconv__report_gframes_free(&g);
	free(o.dropped_sum);
	free(o.pruned);
	memset(&t, 0, sizeof(t));
	memset(&g, 0, sizeof(g));
	memset(&o, 0, sizeof(o));
}

static void
fini(void)
{
	clear_out();
	teardown();
}

/* Kept node I's function and line. */
static void
expect_node(size_t i, uint32_t parent, const char *fn, int64_t line)
{
	cr_assert(lt(sz, i, t.n));
	cr_expect(eq(u32, t.parent[i], parent), "node %zu", i);
	cr_expect(eq(str, (char *)g.fn[t.frame[i]], (char *)fn), "node %zu", i);
	cr_expect(eq(i64, g.line[t.frame[i]], line), "node %zu", i);
}

/* A step of a xorshift generator: the random profiles' numbers. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif /* PROFCONV_TEST_STREAM_FIXTURE_H */
