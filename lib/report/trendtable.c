/* SPDX-License-Identifier: MIT */
/* trendtable.c - proftrend's table and JSON output. */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "write/write.h"
#include "report/trend.h"
#include "view/view.h"

/* A number of bytes (or of units, when EXACT) in a field of WIDTH. */
static void
print_amount(FILE *fp, int width, int64_t v, bool exact)
{
	const char *unit;
	double x;

	if (exact || (v > -1024 && v < 1024)) {
		fprintf(fp, " %*" PRId64 "%s", exact ? width : width - 1, v,
		    exact ? "" : "B");
		return;
	}
	unit = profconv__bytes_unit(v, &x);
	fprintf(fp, " %*.2f%s", width - (int)strlen(unit), x, unit);
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
		return profconv__write_error();
	return 0;
}

/* The snapshot with the largest total (the first of equals). */
static size_t
peak_snapshot(const struct profconv_trend *t)
{
	struct profconv_trend_snapshot s;
	size_t i, peak = 0, n = profconv_trend_snapshot_count(t);
	int64_t best = INT64_MIN;

	for (i = 0; i < n; i++) {
		profconv_trend_snapshot(t, i, &s);
		if (s.inuse_bytes > best) {
			best = s.inuse_bytes;
			peak = i;
		}
	}
	return peak;
}

/* Snapshot I's line: its number, total, objects, time when known, the
 * tags TAGGED asks for (the peak is PEAK), and its name last. */
static void
print_snapshot(const struct profconv_trend *t, FILE *fp, size_t i,
    size_t peak, bool tagged, bool exact, struct pc_textbuf *tb)
{
	struct profconv_trend_snapshot s;
	time_t secs;
	struct tm tm;
	char when[32];

	profconv_trend_snapshot(t, i, &s);
	fprintf(fp, "%4zu", i + 1);
	print_amount(fp, 14, s.inuse_bytes, exact);
	if (s.inuse_objects >= 0)
		fprintf(fp, " %10" PRId64 " objs", s.inuse_objects);
	secs = (time_t)(s.time_nanos / 1000000000);
	if (s.time_nanos != 0 && gmtime_r(&secs, &tm) != NULL &&
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm) > 0)
		fprintf(fp, "  %s UTC", when);
	/* Tags before the name, which ends the line. */
	if (tagged && i == peak)
		fputs("  [peak]", fp);
	if (tagged && s.high_water)
		fputs("  [high-water]", fp);
	if (tagged && s.final)
		fputs("  [final]", fp);
	fprintf(fp, "  %s\n", profconv__text_safe(tb, s.name));
}

/* Every snapshot, a line each (proftrend --snapshots). */
static void
print_snapshots(const struct profconv_trend *t, FILE *fp, bool exact,
    struct pc_textbuf *tb)
{
	size_t i, n = profconv_trend_snapshot_count(t), peak = peak_snapshot(t);

	fprintf(fp, "%zu snapshots of %s:\n", n,
	    profconv__text_safe(tb, profconv__trend_type_name(t)));
	for (i = 0; i < n; i++)
		print_snapshot(t, fp, i, peak, true, exact, tb);
}

/*
 * The snapshots in a few lines: how many, how many of them jemalloc's
 * high-water (.u) and final (.f) dumps, then the first, the peak, the
 * last high-water dump, the final dump and the last, each once, in
 * order, named by what it is.
 */
static void
print_snapshot_summary(const struct profconv_trend *t, FILE *fp, bool exact,
    struct pc_textbuf *tb)
{
	enum { FIRST = 1, PEAK = 2, HIGH = 4, FINAL = 8, LAST = 16 };
	static const char *const roles[] = { "first", "peak", "high-water",
		"final", "last" };
	struct profconv_trend_snapshot s;
	size_t i, k, n = profconv_trend_snapshot_count(t), peak = peak_snapshot(t);
	size_t nhigh = 0, nfinal = 0, high = n, final = n, shown = 0;
	size_t which[PC_ARRAY_LEN(roles)];
	char label[PC_ARRAY_LEN(roles)][48];
	int len, widest = 0;
	unsigned int r;

	for (i = 0; i < n; i++) {
		profconv_trend_snapshot(t, i, &s);
		if (s.high_water)
			nhigh++, high = i;
		if (s.final)
			nfinal++, final = i;
	}
	for (i = 0; i < n; i++) {
		r = (i == 0 ? FIRST : 0) | (i == peak ? PEAK : 0) |
		    (i == high ? HIGH : 0) | (i == final ? FINAL : 0) |
		    (i == n - 1 ? LAST : 0);
		if (r == 0)
			continue;
		len = 0;
		for (k = 0; k < PC_ARRAY_LEN(roles); k++)
			if (r & (1u << k))
				len += snprintf(label[shown] + len,
				    sizeof(label[shown]) - (size_t)len,
				    "%s%s", len ? ", " : "", roles[k]);
		widest = len > widest ? len : widest;
		which[shown++] = i;
	}
	fprintf(fp, "%zu snapshots of %s", n,
	    profconv__text_safe(tb, profconv__trend_type_name(t)));
	if (nhigh != 0 || nfinal != 0)
		fprintf(fp, " (jemalloc: %zu high-water .u, %zu final .f)",
		    nhigh, nfinal);
	fputs(":\n", fp);
	for (k = 0; k < shown; k++) {
		fprintf(fp, "  %-*s ", widest, label[k]);
		print_snapshot(t, fp, which[k], peak, false, exact, tb);
	}
}

/*
 * A sparkline of the N values V in at most PC_SPARK_WIDTH characters
 * (the first, the last, and between them each the largest value of its
 * share of the snapshots, so peaks stay),
 * from the row's lowest value to its highest: Unicode blocks, or ASCII.
 * Returns the characters written.
 */
#define PC_SPARK_WIDTH 16
static size_t
print_sparkline(FILE *fp, const int64_t *v, size_t n, bool unicode)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583",
		"\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = "_.:-=+*#";
	size_t w = n < PC_SPARK_WIDTH ? n : PC_SPARK_WIDTH, c, i;
	int64_t lo = v[0], hi = v[0];

	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	for (c = 0; c < w; c++) {
		/* The first and the last character are the first and the
		 * last snapshot; the others share out the ones between. */
		size_t a = w == n || c == 0 ? c : 1 + (c - 1) * (n - 2) / (w - 2);
		size_t b = w == n || c == 0 ? c + 1 : 1 + c * (n - 2) / (w - 2);
		int64_t m;
		int level = 0;

		if (w < n && c == w - 1)
			a = n - 1, b = n;
		m = v[a];
		for (i = a + 1; i < b; i++)
			m = v[i] > m ? v[i] : m;
		/* Values far apart as integers may be one double: no
		 * 0/0, and a level within the 8 blocks whatever rounds. */
		if ((double)hi - (double)lo > 0) {
			double f = ((double)m - (double)lo) /
			    ((double)hi - (double)lo);

			level = f <= 0 ? 0 : f >= 1 ? 7 : (int)(f * 7 + 0.5);
		}
		if (unicode)
			fputs(blocks[level], fp);
		else
			fputc(ascii[level], fp);
	}
	return w;
}

/* The labels of the first TOP rows by stack, leaf first, bounded and
 * telling the rows apart (rows.c), into *OUT. */
static int
stack_labels(const struct profconv_trend *t, size_t top,
    struct pc_stack_labels **out)
{
	struct profconv_trend_row r;
	const char **names;
	size_t i;
	int rc;

	names = malloc((top ? top : 1) * sizeof(*names));
	if (names == NULL)
		return profconv__nomem();
	for (i = 0; i < top; i++) {
		profconv_trend_row(t, i, &r);
		names[i] = r.name;
	}
	rc = profconv__stack_labels_new(out, names, top, PC_STACK_LABEL_WIDTH);
	free(names);
	return rc;
}

/* Digits of the Grew column's halves: 3, or what N intervals need. */
static int
grew_digits(size_t n)
{
	int d = 1;

	while (n >= 10)
		n /= 10, d++;
	return d > 3 ? d : 3;
}

/* The numbers of row R (the Ith) and its sparkline in WIDTH
 * characters. */
static void
print_row(const struct profconv_trend *t, FILE *fp,
    const struct profconv_trend_row *r, size_t i, size_t width, bool exact)
{
	size_t w;

	print_amount(fp, 14, r->first_bytes, exact);
	print_amount(fp, 14, r->last_bytes, exact);
	print_amount(fp, 14, profconv__trend_row_shape(t, i)->max, exact);
	print_amount(fp, 14, r->growth_bytes, exact);
	print_amount(fp, 14, slope_amount(r->slope_bytes), exact);
	fprintf(fp, " %*zu/%-*zu  %-13s  ", grew_digits(r->intervals),
	    r->grew_intervals, grew_digits(r->intervals), r->intervals,
	    profconv_trend_verdict_name(r->verdict));
	w = print_sparkline(fp, r->values, profconv_trend_snapshot_count(t),
	    profconv__trend_options(t)->unicode != 0);
	fprintf(fp, "%*s", (int)(width > w ? width - w : 0), "");
}

int
profconv_trend_print(const struct profconv_trend *t, FILE *fp, size_t top,
    int exact)
{
	const struct profconv_trend_options *o;
	struct pc_textbuf tb = { 0 };
	struct profconv_trend_row r;
	size_t i, n = profconv_trend_row_count(t), namew = 4, w;
	size_t nsnaps = profconv_trend_snapshot_count(t);
	size_t width = nsnaps < PC_SPARK_WIDTH ? nsnaps : PC_SPARK_WIDTH;
	struct pc_stack_labels *sl = NULL;
	bool stacks;
	int rc;

	if (!profconv__trend_ran(t))
		return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
	o = profconv__trend_options(t);
	/* Rows by stack name the row first, in a bounded column. */
	stacks = o->by == PROFCONV_DIFF_BY_STACK && !o->wide;
	if (top == 0 || top > n)
		top = n;
	if (stacks && (rc = stack_labels(t, top, &sl)) < 0)
		return rc;
	for (i = 0; stacks && i < top; i++) {
		w = profconv__utf8_chars(profconv__text_safe(&tb,
		    profconv__stack_labels_get(sl, i)));
		namew = w > namew ? w : namew;
	}
	/* Names, the sample type and the files' names as text for a
	 * terminal (write.h). */
	errno = 0;
	fprintf(fp, "%zu suspect%s in %zu rows that changed (judged over %s)"
	    "\n\n", profconv_trend_suspect_count(t),
	    profconv_trend_suspect_count(t) == 1 ? "" : "s", n,
	    profconv__trend_axis(t) == PC_X_ALLOCATED ? "the bytes allocated" :
	    "the snapshots in order");
	if (stacks)
		fprintf(fp, "%-*s ", (int)namew, "Stack");
	fprintf(fp, " %14s %14s %14s %14s %14s %*s  %-13s  ", "First",
	    "Last", "Peak", "Growth", "Slope/snap", 2 * grew_digits(nsnaps - 1) + 1, "Grew",
	    "Verdict");
	if (stacks)
		fputs("Trend\n", fp);
	else
		fprintf(fp, "%-*s  Name\n", (int)width, "Trend");
	for (i = 0; i < top; i++) {
		profconv_trend_row(t, i, &r);
		if (stacks) {
			const char *name = profconv__text_safe(&tb,
			    profconv__stack_labels_get(sl, i));

			fprintf(fp, "%s%*s ", name, (int)(namew -
			    profconv__utf8_chars(name)), "");
		}
		print_row(t, fp, &r, i, stacks ? 0 : width, exact != 0);
		if (!stacks)
			fprintf(fp, "  %s", profconv__text_safe(&tb, r.name));
		fputc('\n', fp);
	}
	profconv__hidden_print(fp, profconv__trend_hidden(t), !exact, true);
	fputc('\n', fp);
	if (o->list_snapshots)
		print_snapshots(t, fp, exact != 0, &tb);
	else
		print_snapshot_summary(t, fp, exact != 0, &tb);
	profconv__stack_labels_free(sl);
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
		/* Where the verdicts stand it: the bytes allocated so far. */
		if (profconv__trend_axis(t) == PC_X_ALLOCATED)
			fprintf(fp, ",\"allocated_bytes\":%.0f",
			    profconv__trend_snapshot_x(t, i));
		else
			fputs(",\"allocated_bytes\":null", fp);
		fprintf(fp, ",\"time_nanos\":%" PRId64 ",\"high_water\":%s"
		    ",\"final\":%s}", s.time_nanos,
		    s.high_water ? "true" : "false",
		    s.final ? "true" : "false");
	}
	fputs("]", fp);
}

/* A double as JSON: not-a-number and infinities have no JSON form. */
static void
json_double(FILE *fp, double x)
{
	if (x == x && x < 1e300 && x > -1e300)
		fprintf(fp, "%.4g", x);
	else
		fputs("null", fp);
}

/* With by_thread, row R's "thread" (its number, or null) and
 * "thread_name" (or null) from the first THREAD bytes of its name. */
static void
json_thread(FILE *fp, const struct profconv_trend_row *r, size_t thread)
{
	size_t at, len;
	int64_t uid;
	bool has_uid;

	if (profconv__thread_parse(r->name, thread, &uid, &has_uid, &at,
	    &len) < 0) {
		fputs("\"thread\":null,\"thread_name\":null,", fp);
		return;
	}
	if (has_uid)
		fprintf(fp, "\"thread\":%" PRId64 ",", uid);
	else
		fputs("\"thread\":null,", fp);
	fputs("\"thread_name\":", fp);
	if (len != 0)
		profconv__json_string(fp, r->name + at, len);
	else
		fputs("null", fp);
	fputc(',', fp);
}

static void
json_row(FILE *fp, const struct profconv_trend_row *r,
    const struct pc_shape *sh, size_t nsnaps, bool by_thread, size_t thread)
{
	size_t k;

	fputc('{', fp);
	if (by_thread)
		json_thread(fp, r, thread);
	fputs("\"name\":", fp);
	profconv__json_cstr(fp, r->name);
	fprintf(fp, ",\"first_bytes\":%" PRId64 ",\"last_bytes\":%" PRId64
	    ",\"peak_bytes\":%" PRId64 ",\"swing_bytes\":%" PRId64
	    ",\"growth_bytes\":%" PRId64 ",\"slope_bytes\":%.1f"
	    ",\"grew_intervals\":%zu,\"intervals\":%zu,\"verdict\":\"%s\""
	    ",\"suspect\":%s,\"theil_sen_slope\":", r->first_bytes,
	    r->last_bytes, sh->max, pc_sub_sat(sh->max, sh->min),
	    r->growth_bytes, r->slope_bytes, r->grew_intervals,
	    r->intervals, profconv_trend_verdict_name(r->verdict),
	    r->suspect ? "true" : "false");
	json_double(fp, sh->fit.theil_sen);
	fputs(",\"mann_kendall_z\":", fp);
	json_double(fp, sh->fit.mk_z);
	fputs(",\"values\":[", fp);
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
	fprintf(fp, ",\"x_axis\":\"%s\"",
	    profconv__trend_axis(t) == PC_X_ALLOCATED ? "allocated_bytes" :
	    "snapshots");
	fprintf(fp, ",\"suspects\":%zu,\"peak_snapshot\":%zu,"
	    "\"rule\":{\"min_grew_fraction\":%g,\"min_growth\":%" PRId64
	    ",\"noise_floor\":%" PRId64 ",\"mann_kendall_z\":%g"
	    ",\"min_growth_share\":%g},\n\"rows\":[",
	    profconv_trend_suspect_count(t), peak_snapshot(t),
	    o->min_grew_fraction, o->min_growth, profconv__trend_floor(t),
	    PC_MK_Z, o->min_growth_share);
	for (i = 0; i < n; i++) {
		profconv_trend_row(t, i, &r);
		fputs(i ? ",\n" : "\n", fp);
		json_row(fp, &r, profconv__trend_row_shape(t, i),
		    profconv_trend_snapshot_count(t), o->by_thread != 0,
		    profconv__trend_row_thread(t, i));
	}
	fputs("]", fp);
	profconv__hidden_json(fp, profconv__trend_hidden(t), true);
	fputs("}\n", fp);
	return check_written(fp);
}
