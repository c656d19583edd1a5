/* SPDX-License-Identifier: MIT */
/*
 * fuzz_transform.c - fuzz what runs on a profile once it is read: the
 * summary, folded output (plain and differential), merge and subtract,
 * the comparison table.  Properties: a profile minus itself is empty, and
 * merging a profile with itself doubles every total.
 */

#include <stdio.h>
#include <stdlib.h>

#include <profconv.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Are all sums of absolute values far from int64 saturation?  Only then
 * must arithmetic properties hold exactly. */
static int
small_values(const struct profconv_profile *p)
{
	struct profconv_sample s;
	uint64_t sum = 0, v;
	size_t i, j;

	for (i = 0; i < profconv_profile_sample_count(p); i++) {
		profconv_profile_sample(p, i, &s);
		for (j = 0; j < profconv_profile_sample_type_count(p); j++) {
			v = s.values[j] < 0 ? 0 - (uint64_t)s.values[j] :
			    (uint64_t)s.values[j];
			if (v > (UINT64_MAX >> 3) - sum)
				return 0;
			sum += v;
		}
	}
	return sum < ((uint64_t)1 << 60);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_profile *p = NULL, *m = NULL, *d = NULL;
	struct profconv_profile *two[2];
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	struct profconv_diff *diff = NULL;
	int mode;
	FILE *sink = fopen("/dev/null", "w");
	int64_t t1, t2;
	size_t i;

	ro.max_input = 64 << 20;
	if (sink == NULL)
		abort();
	if (profconv_profile_read_mem(&p, data, size, &ro, NULL) < 0)
		goto out;
	po.summary = 1;
	profconv_profile_print(p, sink, &po);
	po.view = &vo;
	for (mode = 0; mode < 4; mode++) {
		vo.demangle = (enum profconv_demangle)mode;
		vo.granularity = (enum profconv_granularity)(mode % 3);
		vo.no_inline = mode == 3;
		profconv_profile_print(p, sink, &po);
		if (profconv_view_new(&v, p, &vo) < 0)
			continue;
		profconv_flame_write(v, NULL, sink, NULL);
		profconv_flame_write(v, v, sink, NULL);
		/* The view cuts frames, never value: its totals are the
		 * profile's. */
		for (i = 0; small_values(p) &&
		    i < profconv_profile_sample_type_count(p); i++) {
			profconv_profile_total(p, i, &t1);
			profconv_view_total(v, i, &t2);
			if (t1 != t2)
				abort();
		}
		profconv_view_free(v);
		v = NULL;
	}
	if (profconv_diff_new(&diff, p, p, NULL) == 0) {
		profconv_diff_print(diff, sink, NULL);
		profconv_diff_write_json(diff, sink, NULL);
		if (small_values(p) &&
		    profconv_profile_sample_count(profconv_diff_delta(diff)) != 0)
			abort();
		profconv_diff_free(diff);
	}
	if (profconv_profile_subtract(&d, p, p) == 0 && small_values(p) &&
	    profconv_profile_sample_count(d) != 0)
		abort();
	two[0] = p;
	two[1] = p;
	if (profconv_profile_merge(&m, two, 2) == 0 && small_values(p)) {
		for (i = 0; i < profconv_profile_sample_type_count(p); i++) {
			profconv_profile_total(p, i, &t1);
			profconv_profile_total(m, i, &t2);
			if (t2 != 2 * t1)
				abort();
		}
	}
out:
	profconv_profile_free(p);
	profconv_profile_free(m);
	profconv_profile_free(d);
	fclose(sink);
	return 0;
}
