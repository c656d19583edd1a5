/* SPDX-License-Identifier: MIT */
/*
 * label_fixture.h - a profile of four labelled samples in P, made
 * afresh for every test, for the label and suppression tests.
 */
#ifndef PROFCONV_TEST_LABEL_FIXTURE_H
#define PROFCONV_TEST_LABEL_FIXTURE_H

#include "view_helpers.h"
#include "view/view.h"

static struct profconv_profile *p;

static inline void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
}

static inline void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

/* A sample of VALUE bytes on location LOC with labels L. */
static inline void
sample(uint32_t loc, int64_t value, const struct profconv_label *l, size_t n)
{
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc, 1, &value, l,
	    n), 0), "%s", ERRMSG);
}

/* Four samples: 1, 10, 100, 1000 bytes, on one location each. */
static inline void
four(void)
{
	uint32_t m = add_map(p, 0x1000, 0x9000, "/usr/lib/libfoo.so.1");
	uint32_t fa = add_fn(p, "a", "src/a.c");
	uint32_t fb = add_fn(p, "b", "src/b.c");
	uint32_t fi = add_fn(p, "inlined_helper", "src/h.h");

	/* 1 byte: worker-1, bytes 512 B, no unit label "size". */
	sample(LOC1(p, m, 0x1100, fa, 1), 1, (struct profconv_label[]){
	    { "thread_name", "worker-1", 0, NULL },
	    { "bytes", NULL, 512, "bytes" } }, 2);
	/* 10 bytes: worker-2, bytes 2 KiB. */
	sample(LOC1(p, m, 0x1200, fb, 2), 10, (struct profconv_label[]){
	    { "thread_name", "worker-2", 0, NULL },
	    { "bytes", NULL, 2048, "bytes" } }, 2);
	/* 100 bytes: main, bytes 1 MiB, request 64 (no unit: bytes). */
	sample(LOCN(p, m, 0x1300, 3, fi, fa), 100, (struct profconv_label[]){
	    { "thread_name", "main", 0, NULL },
	    { "bytes", NULL, 1048576, "bytes" },
	    { "request", NULL, 64, NULL } }, 3);
	/* 1000 bytes: no labels but a numeric 0 without a unit. */
	sample(LOC1(p, 0, 0x9999, fb, 4), 1000, (struct profconv_label[]){
	    { "thread", NULL, 0, NULL } }, 1);
}

#endif /* PROFCONV_TEST_LABEL_FIXTURE_H */
