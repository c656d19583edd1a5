/* SPDX-License-Identifier: MIT */
/*
 * view_dump.h - everything of a view a reader sees, as text, for unit
 * tests that compare two views made two ways (test_stacks_given.c,
 * test_coarsen.c).
 */
#ifndef PROFCONV_TESTS_VIEW_DUMP_H
#define PROFCONV_TESTS_VIEW_DUMP_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "view/view.h"

/* Everything of V a reader sees, as text: each frame's parts, each
 * stack's frame ids, inline marks and values, each sample's stack, the
 * totals, the filters that matched, the suppressions, the legend. */
static inline char *
view_dump(const struct profconv_view *v)
{
	const struct profconv_profile *p = profconv_view_profile(v);
	size_t nt = profconv_profile_sample_type_count(p), i, j, len = 0;
	const char *const *legend;
	struct profconv_view_frame fr;
	struct pc_view_stack st;
	const uint8_t *inl;
	char *text = NULL;
	FILE *fp = open_memstream(&text, &len);
	int64_t t;

	cr_assert(fp != NULL);
	for (i = 1; i <= profconv_view_frame_count(v); i++) {
		cr_assert(eq(int, profconv_view_frame(v, (uint32_t)i, &fr), 0));
		fprintf(fp, "%zu [%s] [%s] [%s] %" PRId64 " [%s] %" PRId64 "\n",
		    i, fr.name, fr.function, fr.file, fr.line, fr.module,
		    profconv__view_frame_start_line(v, (uint32_t)i));
	}
	for (i = 0; i < profconv_view_stack_count(v); i++) {
		cr_assert(eq(int, profconv__view_stack(v, i, &st), 0));
		inl = profconv__view_stack_inline(v, i);
		for (j = 0; j < st.nframes; j++)
			fprintf(fp, " %" PRIu32 "%s", pc_stack_at(st.frames, j),
			    inl != NULL && inl[j] ? "i" : "");
		fputs(" =", fp);
		for (j = 0; j < nt; j++)
			fprintf(fp, " %" PRId64, st.values[j]);
		fputc('\n', fp);
	}
	fputs("samples", fp);
	for (i = 0; i < profconv_profile_sample_count(p); i++)
		fprintf(fp, " %zu", profconv__view_sample_stack(v, i));
	fputs("\ntotals", fp);
	for (j = 0; j < nt; j++) {
		cr_assert(eq(int, profconv_view_total(v, j, &t), 0));
		fprintf(fp, " %" PRId64, t);
	}
	fprintf(fp, "\nunmatched %u suppressions %zu\n",
	    profconv_view_unmatched(v), profconv_view_suppression_count(v));
	for (i = 0; i < profconv__view_filters(v, &legend); i++)
		fprintf(fp, "legend %s\n", legend[i]);
	fclose(fp);
	return text;
}

#endif
