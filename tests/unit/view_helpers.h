/* SPDX-License-Identifier: MIT */
/* view_helpers.h - hand-built profiles and views as text, for the view,
 * row and writer tests. */
#ifndef PROFCONV_TEST_VIEW_HELPERS_H
#define PROFCONV_TEST_VIEW_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

/* A function named NAME in FILE ("" for none). */
static inline uint32_t
add_fn(struct profconv_profile *p, const char *name, const char *file)
{
	struct profconv_function f = { name, name, file, 1 };
	uint32_t id = 0;

	cr_assert(eq(int, profconv_profile_add_function(p, &f, &id), 0));
	return id;
}

/* A location at ADDR in mapping MAP with N lines of FNS (innermost
 * first), at lines LINE, LINE+1, ... */
static inline uint32_t
add_loc(struct profconv_profile *p, uint32_t map, uint64_t addr,
    const uint32_t *fns, size_t n, int64_t line)
{
	struct profconv_line lines[8];
	uint32_t id = 0;
	size_t i;

	cr_assert(n <= 8);
	for (i = 0; i < n; i++)
		lines[i] = (struct profconv_line){ fns[i], line + (int64_t)i, 0 };
	cr_assert(eq(int, profconv_profile_add_location(p, map, addr, lines, n,
	    0, &id), 0), "%s", ERRMSG);
	return id;
}

/* Location of one line of function FN. */
#define LOC1(p, map, addr, fn, line) \
	add_loc((p), (map), (addr), (uint32_t[]){ (fn) }, 1, (line))
/* Location with an inline chain, innermost function first. */
#define LOCN(p, map, addr, line, ...) \
	add_loc((p), (map), (addr), (uint32_t[]){ __VA_ARGS__ }, \
	    sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), (line))

/* A sample with VALUES (one per sample type) on locations, leaf first. */
#define SAMPLE(p, values, ...) \
	cr_assert(eq(int, profconv_profile_add_sample((p), \
	    (uint32_t[]){ __VA_ARGS__ }, \
	    sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), \
	    (values), NULL, 0), 0), "%s", ERRMSG)

static inline uint32_t
add_map(struct profconv_profile *p, uint64_t start, uint64_t limit,
    const char *file)
{
	struct profconv_mapping m = { start, limit, 0, file, "", 0, 0, 0, 0 };
	uint32_t id = 0;

	cr_assert(eq(int, profconv_profile_add_mapping(p, &m, &id), 0));
	return id;
}

/* VIEW as text: one line per stack, "root;...;leaf v0 v1 ...", in the
 * view's order; a stack without frames is "-".  Caller frees. */
static inline char *
view_text(const struct profconv_view *v)
{
	const struct profconv_profile *p = profconv_view_profile(v);
	size_t nt = profconv_profile_sample_type_count(p), i, j, len = 0;
	struct profconv_view_stack st;
	struct profconv_view_frame fr;
	uint32_t *ids = NULL;
	size_t nids = 0;
	char *text = NULL;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	/* Through the public calls: the frames copied out. */
	for (i = 0; i < profconv_view_stack_count(v); i++) {
		cr_assert(eq(int, profconv_view_stack(v, i, &st), 0));
		if (st.nframes == 0)
			fputs("-", fp);
		if (st.nframes > nids) {
			free(ids);
			nids = st.nframes;
			ids = malloc(nids * sizeof(*ids));
			cr_assert(ids != NULL);
		}
		cr_assert(eq(int, profconv_view_stack_frames(v, i, ids, nids,
		    &j), 0));
		cr_assert(eq(sz, j, st.nframes));
		for (j = 0; j < st.nframes; j++) {
			cr_assert(eq(int, profconv_view_frame(v, ids[j], &fr),
			    0));
			fprintf(fp, "%s%s", j != 0 ? ";" : "", fr.name);
		}
		for (j = 0; j < nt; j++)
			fprintf(fp, " %lld", (long long)st.values[j]);
		fputs("\n", fp);
	}
	free(ids);
	fclose(fp);
	return text;
}

/* The view of P with OPTS (NULL: defaults) is WANT exactly. */
static inline void
expect_view(const struct profconv_profile *p,
    const struct profconv_view_options *opts, const char *want)
{
	struct profconv_view *v = NULL;
	char *got;

	cr_assert(eq(int, profconv_view_new(&v, p, opts), 0), "%s", ERRMSG);
	got = view_text(v);
	cr_expect(eq(str, got, (char *)want));
	free(got);
	profconv_view_free(v);
}

/* Everything FN writes to a memory stream, as a string; caller frees. */
#define CAPTURE(text, call) do { \
	size_t capture_len_ = 0; \
	FILE *fp = open_memstream(&(text), &capture_len_); \
	cr_assert(fp != NULL); \
	cr_assert(eq(int, (call), 0), "%s", ERRMSG); \
	fclose(fp); \
} while (0)

#endif /* PROFCONV_TEST_VIEW_HELPERS_H */
