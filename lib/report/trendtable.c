/* SPDX-License-Identifier: MIT */
/* trendtable.c - proftrend's table and JSON output. */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "model/model.h"
#include "write/write.h"
#include "report/trend.h"

/* A number of bytes (or of units, when EXACT) in a field of WIDTH. */
static void
print_amount(FILE *fp, int width, int64_t v, bool exact)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double x = (double)v;
	size_t u = 0;

	if (exact || (v > -1024 && v < 1024)) {
		fprintf(fp, " %*" PRId64 "%s", exact ? width : width - 1, v,
		    exact ? "" : "B");
		return;
	}
	while ((x >= 1024 || x <= -1024) && u + 1 < PC_ARRAY_LEN(units)) {
		x /= 1024;
		u++;
	}
	fprintf(fp, " %*.2f%s", width - 3, x, units[u]);
}

/* A slope as a whole number of bytes: the doubles beyond int64 (a row
 * that went from 0 to INT64_MAX in one step is 2^63) saturate. */
static int64_t
slope_amount(double slope)
{
	if (slope >= 9.2233720368547758e18)
		return INT64_MAX;
	if (slope <= -9.2233720368547758e18)
		return INT64_MIN;
	return slope == slope ? (int64_t)slope : 0;
}

/* PROFCONV_EIO with the reason when FP could not take everything. */
static int
check_written(FILE *fp)
{
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return 0;
}

static void
print_snapshots(const struct profconv_trend *t, FILE *fp, bool exact,
    struct pc_textbuf *tb)
{
	struct profconv_trend_snapshot s;
	size_t i, n = profconv_trend_snapshot_count(t);

	for (i = 0; i < n; i++) {
		profconv_trend_snapshot(t, i, &s);
		fprintf(fp, "%4zu", i + 1);
		print_amount(fp, 14, s.inuse_bytes, exact);
		if (s.inuse_objects >= 0)
			fprintf(fp, " %10" PRId64 " objs", s.inuse_objects);
		fprintf(fp, "  %s\n", profconv__text_safe(tb, s.name));
	}
}

int
profconv_trend_print(const struct profconv_trend *t, FILE *fp, size_t top,
    int exact)
{
	struct pc_textbuf tb = { 0 };
	struct profconv_trend_row r;
	size_t i, n = profconv_trend_row_count(t);

	if (!profconv__trend_ran(t))
		return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
	/* Names, the sample type and the files' names as text for a
	 * terminal (write.h). */
	errno = 0;
	fprintf(fp, "%zu snapshots, %s:\n", profconv_trend_snapshot_count(t),
	    profconv__text_safe(&tb, profconv__trend_type_name(t)));
	print_snapshots(t, fp, exact != 0, &tb);
	fprintf(fp, "%zu suspect%s in %zu rows that changed\n\n",
	    profconv_trend_suspect_count(t),
	    profconv_trend_suspect_count(t) == 1 ? "" : "s", n);
	fprintf(fp, " %14s %14s %14s %14s %7s  %-7s  %s\n", "First", "Last",
	    "Growth", "Slope/snap", "Grew", "Verdict", "Name");
	for (i = 0; i < n && (top == 0 || i < top); i++) {
		profconv_trend_row(t, i, &r);
		print_amount(fp, 14, r.first_bytes, exact);
		print_amount(fp, 14, r.last_bytes, exact);
		print_amount(fp, 14, r.growth_bytes, exact);
		print_amount(fp, 14, slope_amount(r.slope_bytes), exact);
		fprintf(fp, " %3zu/%-3zu  %-7s  %s\n", r.grew_intervals,
		    r.intervals, r.suspect ? "SUSPECT" : "-",
		    profconv__text_safe(&tb, r.name));
	}
	profconv__hidden_print(fp, profconv__trend_hidden(t), !exact, true);
	profconv__textbuf_free(&tb);
	return check_written(fp);
}

/* --- JSON ------------------------------------------------------------------------ */

static void
json_snapshots(const struct profconv_trend *t, FILE *fp)
{
	struct profconv_trend_snapshot s;
	size_t i, n = profconv_trend_snapshot_count(t);

	fputs("\"snapshots\":[", fp);
	for (i = 0; i < n; i++) {
		profconv_trend_snapshot(t, i, &s);
		fputs(i ? ",\n{\"file\":" : "\n{\"file\":", fp);
		profconv__json_cstr(fp, s.name);
		fprintf(fp, ",\"inuse_bytes\":%" PRId64, s.inuse_bytes);
		if (s.inuse_objects >= 0)
			fprintf(fp, ",\"inuse_objects\":%" PRId64,
			    s.inuse_objects);
		else
			fputs(",\"inuse_objects\":null", fp);
		fprintf(fp, ",\"time_nanos\":%" PRId64 "}", s.time_nanos);
	}
	fputs("]", fp);
}

static void
json_row(FILE *fp, const struct profconv_trend_row *r, size_t nsnaps)
{
	size_t k;

	fputs("{\"name\":", fp);
	profconv__json_cstr(fp, r->name);
	fprintf(fp, ",\"first_bytes\":%" PRId64 ",\"last_bytes\":%" PRId64
	    ",\"growth_bytes\":%" PRId64 ",\"slope_bytes\":%.1f"
	    ",\"grew_intervals\":%zu,\"intervals\":%zu,\"suspect\":%s"
	    ",\"values\":[", r->first_bytes, r->last_bytes, r->growth_bytes,
	    r->slope_bytes, r->grew_intervals, r->intervals,
	    r->suspect ? "true" : "false");
	for (k = 0; k < nsnaps; k++)
		fprintf(fp, k ? ",%" PRId64 : "%" PRId64, r->values[k]);
	fputs("]}", fp);
}

int
profconv_trend_write_json(const struct profconv_trend *t, FILE *fp)
{
	const struct profconv_trend_options *o = profconv__trend_options(t);
	struct profconv_trend_row r;
	size_t i, n = profconv_trend_row_count(t);

	if (!profconv__trend_ran(t))
		return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
	errno = 0;
	fputs("{", fp);
	json_snapshots(t, fp);
	fputs(",\n\"sample_type\":", fp);
	profconv__json_cstr(fp, profconv__trend_type_name(t));
	fprintf(fp, ",\"suspects\":%zu,\"rule\":{\"min_grew_fraction\":%g,"
	    "\"min_growth\":%" PRId64 ",\"min_growth_share\":%g},\n\"rows\":[",
	    profconv_trend_suspect_count(t), o->min_grew_fraction,
	    o->min_growth, o->min_growth_share);
	for (i = 0; i < n; i++) {
		profconv_trend_row(t, i, &r);
		fputs(i ? ",\n" : "\n", fp);
		json_row(fp, &r, profconv_trend_snapshot_count(t));
	}
	fputs("]", fp);
	profconv__hidden_json(fp, profconv__trend_hidden(t), true);
	fputs("}\n", fp);
	return check_written(fp);
}
