/* SPDX-License-Identifier: MIT */
/*
 * fuzz_trendsvg.c - fuzz proftrend's analysis and its writers: the
 * verdicts, the table, the JSON and the picture (report/trendsvg.c).  The
 * input is a series, not a file format:
 *   byte 0: 2 + b % 15 snapshots; byte 1: 1 + b % 6 rows; byte 2: flags
 *   (1: an alloc_space type, 2: values may be negative, 4: times, 8: by
 *   stack), its high nibble the length of row 0's name, whose bytes come
 *   next; then per snapshot, little-endian int64s (missing bytes are 0):
 *   its time (with flag 4), its allocated bytes (with flag 1), each row's
 *   value.
 * Properties of a picture that was written: one SVG document, no control
 * byte in it, every point of the bands' areas inside the chart (x within
 * the width, y below the title, the chart's top being 74 pixels down),
 * no negative y-axis label.  Crashes and sanitizer reports abort too.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define WIDTH 1200
#define CHART_TOP 74

static void
check(int ok)
{
	if (!ok)
		abort();
}

static int64_t
get64(const unsigned char **p, const unsigned char *end)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)(*p < end ? *(*p)++ : 0) << (8 * i);
	return (int64_t)v;
}

/* One snapshot of NROWS rows, function I named NAMES[I] under main. */
static struct profconv_profile *
snapshot(const char *const *names, size_t nrows, int flags,
    const unsigned char **p, const unsigned char *end)
{
	struct profconv_profile *prof = NULL;
	struct profconv_function fn;
	struct profconv_line line;
	uint32_t fid, loc[2], mainloc;
	int64_t vals[2], t = 0, alloc = 0;
	size_t i;

	if (profconv_profile_new(&prof) < 0)
		return NULL;
	if (flags & 4)
		t = get64(p, end);
	profconv_profile_set_time(prof, t, 0);
	profconv_profile_add_sample_type(prof, "inuse_space", "bytes");
	if (flags & 1) {
		profconv_profile_add_sample_type(prof, "alloc_space", "bytes");
		alloc = get64(p, end);
	}
	memset(&fn, 0, sizeof(fn));
	fn.name = "main";
	profconv_profile_add_function(prof, &fn, &fid);
	memset(&line, 0, sizeof(line));
	line.function_id = fid;
	line.line = 1;
	profconv_profile_add_location(prof, 0, 0x10, &line, 1, 0, &mainloc);
	for (i = 0; i < nrows; i++) {
		fn.name = names[i];
		profconv_profile_add_function(prof, &fn, &fid);
		line.function_id = fid;
		profconv_profile_add_location(prof, 0, 0x100 + i, &line, 1, 0,
		    &loc[0]);
		loc[1] = mainloc;
		vals[0] = get64(p, end);
		if (!(flags & 2) && vals[0] < 0)
			vals[0] = -(vals[0] + 1);
		vals[1] = i == 0 ? alloc : 0;
		profconv_profile_add_sample(prof, loc, 2, vals, NULL, 0);
	}
	return prof;
}

/* The properties of a written picture TEXT of LEN bytes. */
static void
check_svg(const char *text, size_t len)
{
	const char *p = text;
	double x, y;
	size_t i;
	int n;

	check(len > 7 && strstr(text, "<svg") != NULL &&
	    strcmp(text + len - 7, "</svg>\n") == 0);
	for (i = 0; i < len; i++)
		check((unsigned char)text[i] >= 0x20 || text[i] == '\n' ||
		    text[i] == '\t');
	while ((p = strstr(p, "<path d=\"")) != NULL) {
		p += 9;
		while (*p == 'M' || *p == 'L') {
			check(sscanf(p + 1, "%lf,%lf%n", &x, &y, &n) == 2);
			check(x >= 0 && x <= WIDTH && y >= CHART_TOP);
			p += 1 + n;
		}
	}
	for (p = text; (p = strstr(p, "class=\"ylabel\"")) != NULL; p++) {
		p = strchr(p, '>');
		check(p != NULL && p[1] != '-');
	}
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_trend_options o = PROFCONV_TREND_OPTIONS_INIT;
	const unsigned char *p = data, *end = data + size;
	struct profconv_trend *t = NULL;
	struct profconv_profile *prof;
	static const char *const fixed[] = { "", "f1", "f2", "f3", "f4",
		"f5" };
	const char *names[6];
	char row0[16], snap[16];
	size_t nsnap, nrows, i, len = 0;
	char *text = NULL;
	FILE *fp, *sink;
	int flags;

	if (size < 3)
		return 0;
	nsnap = 2 + p[0] % 15;
	nrows = 1 + p[1] % 6;
	flags = p[2];
	p += 3;
	for (i = 0; i < (size_t)(flags >> 4) && p < end; i++, p++)
		row0[i] = *p != '\0' ? (char)*p : 'x';
	row0[i] = '\0';
	memcpy(names, fixed, sizeof(names));
	names[0] = row0[0] != '\0' ? row0 : "f0";
	if (flags & 8)
		o.by = PROFCONV_DIFF_BY_STACK;
	if (profconv_trend_new(&t, &o) < 0)
		return 0;
	for (i = 0; i < nsnap; i++) {
		prof = snapshot(names, nrows, flags, &p, end);
		snprintf(snap, sizeof(snap), "s%zu", i);
		if (prof == NULL || profconv_trend_add(t, prof, snap) < 0)
			goto out;
	}
	if (profconv_trend_run(t) < 0)
		goto out;
	sink = fopen("/dev/null", "w");
	check(sink != NULL);
	profconv_trend_print(t, sink, 0, (flags & 16) != 0);
	profconv_trend_write_json(t, sink);
	fclose(sink);
	fp = open_memstream(&text, &len);
	check(fp != NULL);
	if (profconv_trend_write_svg(t, fp, NULL) == 0) {
		check(fclose(fp) == 0);
		check_svg(text, len);
	} else {
		fclose(fp);
	}
	free(text);
out:
	profconv_trend_free(t);
	return 0;
}
