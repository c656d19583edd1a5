/* SPDX-License-Identifier: MIT */
/*
 * speedscope.c - a view in speedscope's own file format
 * (https://www.speedscope.app/file-format-schema.json): the view's frames,
 * with file and line, shared by one "sampled" profile per sample type.
 * Unlike speedscope's pprof importer, which keeps one frame per location
 * and reads one sample type, this keeps every inline frame the view
 * expands and every sample type.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "base/base.h"
#include "view/view.h"
#include "write/write.h"

/* speedscope's units: bytes and time as such, counts as plain numbers. */
static const char *
unit_of(const char *unit)
{
	static const char *const known[] = { "bytes", "nanoseconds",
	    "microseconds", "milliseconds", "seconds" };
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(known); i++)
		if (strcmp(unit, known[i]) == 0)
			return known[i];
	return "none";
}

static int
put_frames(const struct profconv_view *v, FILE *fp)
{
	size_t n = profconv_view_frame_count(v), i;
	struct profconv_view_frame f;
	int rc;

	fputs("\"shared\":{\"frames\":[", fp);
	for (i = 1; i <= n; i++) {
		if ((rc = profconv_view_frame(v, (uint32_t)i, &f)) < 0)
			return rc;
		fputs(i > 1 ? ",\n{\"name\":" : "\n{\"name\":", fp);
		profconv__json_cstr(fp, f.name);
		if (*f.file != '\0') {
			fputs(",\"file\":", fp);
			profconv__json_cstr(fp, f.file);
		}
		if (f.line > 0)
			fprintf(fp, ",\"line\":%" PRId64, f.line);
		putc('}', fp);
	}
	fputs("]},\n", fp);
	return 0;
}

/* One pass writes the stacks (TYPE's nonzero ones), the next the weights. */
static int
put_profile(const struct profconv_view *v, FILE *fp, size_t type)
{
	size_t n = profconv_view_stack_count(v), i, j;
	struct pc_view_stack s;
	struct profconv_value_type vt;
	int64_t total = 0;
	bool first = true;
	int rc;

	if ((rc = profconv_profile_sample_type(profconv_view_profile(v), type,
	    &vt)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		profconv__view_stack(v, i, &s);
		pc_add_sat(&total, s.values[type]);
	}
	fputs("{\"type\":\"sampled\",\"name\":", fp);
	profconv__json_cstr(fp, vt.type);
	fprintf(fp, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRId64
	    ",\n\"samples\":[", unit_of(vt.unit), total);
	for (i = 0; i < n; i++) {
		profconv__view_stack(v, i, &s);
		if (s.values[type] == 0)
			continue;
		fputs(first ? "\n[" : ",\n[", fp);
		first = false;
		for (j = 0; j < s.nframes; j++)
			fprintf(fp, j != 0 ? ",%" PRIu32 : "%" PRIu32,
			    pc_stack_at(s.frames, j) - 1);
		putc(']', fp);
	}
	fputs("],\n\"weights\":[", fp);
	first = true;
	for (i = 0; i < n; i++) {
		profconv__view_stack(v, i, &s);
		if (s.values[type] == 0)
			continue;
		fprintf(fp, first ? "%" PRId64 : ",%" PRId64, s.values[type]);
		first = false;
	}
	fputs("]}", fp);
	return 0;
}

/* Refuse negative values before anything is written. */
static int
check_values(const struct profconv_view *v, size_t first, size_t last)
{
	size_t n = profconv_view_stack_count(v), i, t;
	struct pc_view_stack s;
	struct profconv_value_type vt;

	for (i = 0; i < n; i++) {
		profconv__view_stack(v, i, &s);
		for (t = first; t < last; t++) {
			if (s.values[t] >= 0)
				continue;
			profconv_profile_sample_type(profconv_view_profile(v),
			    t, &vt);
			return profconv__fail(PROFCONV_EFORMAT, "sample type "
			    "'%s' has a negative value (a delta profile?); "
			    "speedscope shows only positive weights", vt.type);
		}
	}
	return 0;
}

static int
put_profiles(const struct profconv_view *v, FILE *fp, size_t first,
    size_t last, size_t active)
{
	size_t t;
	int rc;

	fputs("\"profiles\":[", fp);
	for (t = first; t < last; t++) {
		if (t != first)
			fputs(",\n", fp);
		if ((rc = put_profile(v, fp, t)) < 0)
			return rc;
	}
	fprintf(fp, "],\n\"activeProfileIndex\":%zu}\n", active);
	return 0;
}

int
profconv_speedscope_write(const struct profconv_view *view, FILE *fp,
    const struct profconv_speedscope_options *opts)
{
	struct profconv_speedscope_options o;
	size_t ntypes, chosen, first = 0, last;
	int rc;

	if (view == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no view or no file");
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_speedscope)) < 0)
		return rc;
	opts = &o;
	ntypes = profconv_profile_sample_type_count(profconv_view_profile(view));
	if ((rc = profconv_view_sample_index(view, opts->sample_type,
	    &chosen)) < 0)
		return rc;
	last = ntypes;
	if (opts->sample_type != NULL) {
		first = chosen;
		last = chosen + 1;
	}
	if ((rc = check_values(view, first, last)) < 0)
		return rc;
	errno = 0;	/* what a failed write leaves is the reason */
	fputs("{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",\n", fp);
	if (opts->name != NULL) {
		fputs("\"name\":", fp);
		profconv__json_cstr(fp, opts->name);
		fputs(",\n", fp);
	}
	fputs("\"exporter\":\"profconv@" PROFCONV_VERSION_STRING "\",\n", fp);
	rc = put_frames(view, fp);
	if (rc == 0)
		rc = put_profiles(view, fp, first, last, chosen - first);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	return rc;
}
