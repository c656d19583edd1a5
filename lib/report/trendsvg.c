/* SPDX-License-Identifier: MIT */
/*
 * trendsvg.c - proftrend's picture: one self-contained SVG of a series of
 * snapshots, drawn from the analysis the table prints (trend.c) through
 * its public accessors.  A stacked area of the followed type per
 * snapshot: a band for each of the first rows of the table and one
 * "other" band for the rest, so that the bands add up to each
 * snapshot's total exactly; the peak marked; a legend with a sparkline
 * and the verdict per row; the script (trendsvg_script.js) shows a
 * band's figures on hover and searches.  The size of the file depends on
 * the number of bands and on the snapshots drawn (at most PICK_BUDGET,
 * profconv__trend_pick()), never on the number of stacks.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "write/write.h"
#include "report/trend.h"
#include "report/trendsvg.h"

/* heaptrack draws at most 500 points a chart (MAX_CHART_DATAPOINTS). */
#define PICK_BUDGET 500
/* heaptrack's charts have 19 entries besides the total. */
#define DEFAULT_TOP 19
#define MAX_TOP 40
#define DEFAULT_WIDTH 1200
#define NAME_MAX_CHARS 1024	/* of a row's name in its title */
#define SNAP_MAX_CHARS 120	/* of a snapshot's name */

/* Layout, in pixels. */
#define PAD 10
#define TOP 74			/* the chart and the legend start here */
#define ROW_H 20		/* one legend line */
#define SPARK_X 28
#define SPARK_W 96
#define SPARK_H 14
#define VERDICT_X 132
#define NAME_X 212
#define LEGEND_W 440
#define AXIS_W 70		/* the y axis' labels, left of the chart */
#define CHAR_W 7.08		/* 12px Verdana, flamegraph.pl's 0.59 */
#define LEGEND_CHARS ((size_t)((LEGEND_W - NAME_X) / CHAR_W))

static const char script[] =
#include "report/trendsvg_script.js.h"
    ;

static const char style[] =
#include "report/trendsvg.css.h"
    ;

/* The verdict of a row as the picture names it.  This is the one place
 * that reads it. */
static const char *
row_verdict(const struct profconv_trend_row *r)
{
	return profconv_trend_verdict_name(r->verdict);
}

struct band {
	struct profconv_trend_row row;	/* row.values is not kept */
	const char *verdict;
	int64_t peak;			/* the row's largest value */
	int64_t *v;			/* at each picked snapshot */
	double *top;			/* its upper edge, y per pick */
	struct pc_rgb color;
	bool other;
	char *shown;			/* its name in the legend */
	char *apart;			/* ... when the cut one is not */
};

struct pic {
	FILE *fp;
	const struct profconv_trend *t;
	struct profconv_trend_svg_options o;
	enum profconv_diff_by by;
	size_t n;			/* snapshots */
	int64_t *totals, *times;	/* per snapshot */
	bool by_time;			/* every snapshot has its time */
	bool by_alloc;			/* x: the verdicts' allocation axis */
	bool bytes;			/* the type counts bytes */
	size_t peak;
	size_t *pick, k;		/* the snapshots drawn */
	double *x;			/* their x */
	struct band *b;
	size_t nb;			/* bands, "other" the last */
	size_t nrows;			/* rows of the analysis */
	double w, h, cx0, cx1, cy0, cy1, ymax;
};

/* --- text ----------------------------------------------------------------- */

/* The legend's names still too long or the same as another, numbered
 * (profconv__trend_number_names()). */
static int
numbered_names(struct pic *p, size_t max, bool tail)
{
	const char **names = calloc(p->nb + 1, sizeof(*names));
	char **shown = calloc(p->nb + 1, sizeof(*shown));
	size_t i;
	int rc;

	if (names == NULL || shown == NULL) {
		free(names);
		free(shown);
		return profconv__nomem();
	}
	for (i = 0; i < p->nb; i++) {
		names[i] = p->b[i].row.name;
		shown[i] = p->b[i].shown;
	}
	rc = profconv__trend_number_names(shown, (const char *const *)names,
	    p->nb, max, tail);
	for (i = 0; i < p->nb; i++)
		p->b[i].shown = shown[i];
	free(names);
	free(shown);
	return rc;
}

/* Each band's other text, where one was made, becomes its shown one. */
static void
take_apart(struct pic *p)
{
	struct band *b;
	size_t i;

	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		if (b->apart != NULL) {
			free(b->shown);
			b->shown = b->apart;
			b->apart = NULL;
		}
	}
}

/*
 * The legend's names: each cut to MAX characters as profconv__trend_put_cut() cuts it,
 * unless that leaves two rows with the same text.  Those keep visible the
 * character where each first differs, from its kept end, from the others
 * that read the same (profconv__trend_cut_keeping()); any still equal or
 * too long, numbered (profconv__trend_number_names()).  Every pair
 * is compared: the legend has at most MAX_TOP + 1 names.
 */
static int
legend_names(struct pic *p, size_t max, bool tail)
{
	struct band *b, *o;
	size_t i, j, c, best, n;
	bool same;
	char *t;
	int rc;

	for (i = 0; i < p->nb; i++)
		if ((rc = profconv__trend_cut_plain(&p->b[i].shown, p->b[i].row.name, max,
		    tail)) < 0)
			return rc;
	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		same = false;
		best = 0;
		for (j = 0; j < p->nb; j++) {
			o = &p->b[j];
			if (j == i || strcmp(b->shown, o->shown) != 0)
				continue;
			same = true;
			c = profconv__trend_common_chars(b->row.name, o->row.name, tail);
			best = c > best ? c : best;
		}
		if (!same)
			continue;
		n = profconv__utf8_chars(b->row.name);
		if (best >= n)		/* all of it in the other: whole */
			rc = profconv__trend_cut_plain(&t, b->row.name, (size_t)-1, tail);
		else
			rc = profconv__trend_cut_keeping(&t, b->row.name, n, max, tail,
			    tail ? n - 1 - best : best);
		if (rc < 0)
			return rc;
		b->apart = t;
	}
	take_apart(p);
	/* Still equal (the frames kept read the same): whole. */
	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		for (j = 0; j < p->nb; j++)
			if (j != i && strcmp(b->shown, p->b[j].shown) == 0)
				break;
		if (j < p->nb && (rc = profconv__trend_cut_plain(&b->apart, b->row.name,
		    (size_t)-1, tail)) < 0)
			return rc;
	}
	take_apart(p);
	return numbered_names(p, max, tail);
}

/* V for people: bytes (BYTES) as "512 B", "1.5 KiB", "-3.25 MiB",
 * other units as "1,234,567"; with SIGN a "+" before growth.  BUF holds
 * 48 bytes or more. */
static char *
human(char *buf, size_t len, int64_t v, bool sign, bool bytes)
{
	const char *unit;
	double x;

	if (!bytes) {
		buf[0] = '+';
		profconv__group_digits(buf + (sign && v > 0), v);
		return buf;
	}
	if (v > -1024 && v < 1024) {
		snprintf(buf, len, sign && v > 0 ? "+%" PRId64 " B" :
		    "%" PRId64 " B", v);
		return buf;
	}
	unit = profconv__bytes_unit(v, &x);
	snprintf(buf, len, sign && v > 0 ? "+%.*f %s" : "%.*f %s",
	    fabs(x) < 10 ? 2 : fabs(x) < 100 ? 1 : 0, x, unit);
	return buf;
}

/* The figures of a band after its name, in its <title>: the last group
 * in parentheses, which the script strips to get the name back. */
static void
put_figures(FILE *fp, const struct band *b, bool bytes)
{
	char f[48], l[48], pk[48], g[48], s[48];
	double slope = b->row.slope_bytes;

	if (b->other) {
		fputs(" (every row not drawn on its own, and the rows that "
		    "never changed)", fp);
		return;
	}
	if (!(slope > -9e18 && slope < 9e18))
		slope = 0;
	fprintf(fp, " (%s; first %s, last %s, peak %s, growth %s, slope %s "
	    "per snapshot, grew in %zu of %zu intervals)", b->verdict,
	    human(f, sizeof(f), b->row.first_bytes, false, bytes),
	    human(l, sizeof(l), b->row.last_bytes, false, bytes),
	    human(pk, sizeof(pk), b->peak, false, bytes),
	    human(g, sizeof(g), b->row.growth_bytes, true, bytes),
	    human(s, sizeof(s), (int64_t)slope, true, bytes),
	    b->row.grew_intervals, b->row.intervals);
}

/* --- the data ------------------------------------------------------------- */

static int
check_options(const struct profconv_trend_svg_options *o)
{
	if (o->width != 0 && (o->width < 600 || o->width > 10000))
		return profconv__fail(PROFCONV_EINVAL, "invalid width %u: "
		    "600 to 10000 pixels expected", o->width);
	if (o->top > MAX_TOP)
		return profconv__fail(PROFCONV_EINVAL, "invalid band count "
		    "%zu: at most %d rows can have a band of their own",
		    o->top, MAX_TOP);
	return 0;
}

/* The snapshots: totals, times, the peak, the ones drawn. */
static int
read_snapshots(struct pic *p)
{
	struct profconv_trend_snapshot s;
	size_t i;
	int rc;

	p->n = profconv_trend_snapshot_count(p->t);
	p->totals = calloc(p->n + 1, sizeof(*p->totals));
	p->times = calloc(p->n + 1, sizeof(*p->times));
	p->pick = calloc(p->n < PICK_BUDGET ? p->n + 1 : PICK_BUDGET,
	    sizeof(*p->pick));
	if (p->totals == NULL || p->times == NULL || p->pick == NULL)
		return profconv__nomem();
	p->by_time = true;
	for (i = 0; i < p->n; i++) {
		if ((rc = profconv_trend_snapshot(p->t, i, &s)) < 0)
			return rc;
		if (s.inuse_bytes < 0)
			return profconv__fail(PROFCONV_EFORMAT, "'%s': its "
			    "total is negative (%" PRId64 "): a stacked "
			    "chart needs totals of 0 or more", s.name,
			    s.inuse_bytes);
		p->totals[i] = s.inuse_bytes;
		p->times[i] = s.time_nanos;
		/* Time only when every snapshot has one, in order. */
		if (s.time_nanos == 0 || (i > 0 &&
		    s.time_nanos < p->times[i - 1]))
			p->by_time = false;
	}
	if (p->n < 2 || !((double)p->times[p->n - 1] > (double)p->times[0]))
		p->by_time = false;
	/* Where the verdicts judge over the bytes allocated, the picture
	 * is drawn over them too, so that its last quarter is theirs. */
	p->by_alloc = p->n >= 2 &&
	    profconv__trend_axis(p->t) == PC_X_ALLOCATED &&
	    profconv__trend_snapshot_x(p->t, p->n - 1) >
	    profconv__trend_snapshot_x(p->t, 0);
	if (p->by_alloc)
		p->by_time = false;
	p->peak = profconv__trend_peak(p->totals, p->n);
	p->k = profconv__trend_pick(p->totals, p->n, PICK_BUDGET, p->pick);
	return 0;
}

/* An easy-to-tell colour for band I: hues a golden angle apart. */
static struct pc_rgb
band_color(size_t i)
{
	double h = fmod(20 + 137.508 * (double)i, 360) / 60;
	double l = i % 2 ? 0.62 : 0.50, s = 0.62;
	double c = (1 - fabs(2 * l - 1)) * s;
	double x = c * (1 - fabs(fmod(h, 2) - 1));
	double m = l - c / 2, r = 0, g = 0, b = 0;

	switch ((int)h) {
	case 0: r = c; g = x; break;
	case 1: r = x; g = c; break;
	case 2: g = c; b = x; break;
	case 3: g = x; b = c; break;
	case 4: r = x; b = c; break;
	default: r = c; b = x; break;
	}
	return (struct pc_rgb){ (unsigned char)lround((r + m) * 255),
	    (unsigned char)lround((g + m) * 255),
	    (unsigned char)lround((b + m) * 255) };
}

/* The bands: the first rows of the table, then "other", the rest of
 * each snapshot's total. */
static int
read_bands(struct pic *p)
{
	struct profconv_trend_snapshot s;
	size_t top = p->o.top != 0 ? p->o.top : DEFAULT_TOP, i, j;
	struct band *b;
	int64_t sum;
	int rc;

	p->nrows = profconv_trend_row_count(p->t);
	p->nb = (p->nrows < top ? p->nrows : top) + 1;
	p->b = calloc(p->nb, sizeof(*p->b));
	if (p->b == NULL)
		return profconv__nomem();
	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		b->v = calloc(p->k, sizeof(*b->v));
		b->top = calloc(p->k, sizeof(*b->top));
		if (b->v == NULL || b->top == NULL)
			return profconv__nomem();
		b->other = i + 1 == p->nb;
		b->color = b->other ? (struct pc_rgb){ 192, 192, 192 } :
		    band_color(i);
		if (b->other)
			continue;
		if ((rc = profconv_trend_row(p->t, i, &b->row)) < 0)
			return rc;
		b->verdict = row_verdict(&b->row);
		b->peak = profconv__trend_row_shape(p->t, i)->max;
		for (j = 0; j < p->k; j++) {
			b->v[j] = b->row.values[p->pick[j]];
			if (b->v[j] < 0) {
				profconv_trend_snapshot(p->t, p->pick[j], &s);
				return profconv__fail(PROFCONV_EFORMAT,
				    "'%s': row '%.200s' is negative (%" PRId64
				    "): a stacked chart needs values of 0 or "
				    "more", s.name, b->row.name, b->v[j]);
			}
		}
		b->row.values = NULL;
	}
	b = &p->b[p->nb - 1];
	b->row.name = "other";
	b->verdict = "-";
	for (j = 0; j < p->k; j++) {
		sum = 0;
		for (i = 0; i + 1 < p->nb; i++)
			pc_add_sat(&sum, p->b[i].v[j]);
		b->v[j] = pc_sub_sat(p->totals[p->pick[j]], sum);
		if (b->v[j] < 0) {
			profconv_trend_snapshot(p->t, p->pick[j], &s);
			return profconv__fail(PROFCONV_EFORMAT, "'%s': its "
			    "rows add up to more than its total", s.name);
		}
	}
	return 0;
}

/* --- layout --------------------------------------------------------------- */

/* Where V is up the y axis; never above the peak, so never over the
 * title (sums of rows near INT64_MAX are doubles, and round). */
static double
y_of(const struct pic *p, double v)
{
	double f = v / p->ymax;

	f = f > 1 ? 1 : f < 0 ? 0 : f;
	return p->cy1 - f * (p->cy1 - p->cy0);
}

/* The time of snapshot I since the first, in seconds: in doubles, as
 * times across 2^63 ns differ by more than an int64 holds. */
static double
since_first(const struct pic *p, size_t i)
{
	return ((double)p->times[i] - (double)p->times[0]) / 1e9;
}

/* The bytes allocated from the first snapshot to snapshot I. */
static double
alloc_since_first(const struct pic *p, size_t i)
{
	return profconv__trend_snapshot_x(p->t, i) -
	    profconv__trend_snapshot_x(p->t, 0);
}

/* Where snapshot I is along the x axis: by the bytes allocated before
 * it, its time, or its number. */
static double
x_of(const struct pic *p, size_t i)
{
	double f;

	if (p->by_alloc)
		f = alloc_since_first(p, i) / alloc_since_first(p, p->n - 1);
	else if (p->by_time)
		f = since_first(p, i) / since_first(p, p->n - 1);
	else
		f = (double)i / (double)(p->n - 1);
	return p->cx0 + f * (p->cx1 - p->cx0);
}

static int
lay_out(struct pic *p)
{
	size_t i, j;
	double cum;

	p->w = p->o.width != 0 ? p->o.width : DEFAULT_WIDTH;
	p->cx0 = PAD + LEGEND_W + AXIS_W;
	p->cx1 = p->w - 2 * PAD;
	p->cy0 = TOP;
	p->cy1 = TOP + fmax(360, (double)(p->nb + 1) * ROW_H);
	p->h = p->cy1 + 76;
	p->ymax = p->totals[p->peak] > 0 ? (double)p->totals[p->peak] : 1;
	p->x = calloc(p->k, sizeof(*p->x));
	if (p->x == NULL)
		return profconv__nomem();
	for (j = 0; j < p->k; j++) {
		p->x[j] = x_of(p, p->pick[j]);
		cum = 0;
		for (i = 0; i < p->nb; i++) {
			cum += (double)p->b[i].v[j];
			p->b[i].top[j] = y_of(p, cum);
		}
	}
	return 0;
}

/* --- the SVG -------------------------------------------------------------- */


static const char *
by_text(enum profconv_diff_by by)
{
	switch (by) {
	case PROFCONV_DIFF_BY_LINE:
		return "by line (a row: the stacks whose innermost frame is "
		    "at that line)";
	case PROFCONV_DIFF_BY_STACK:
		return "by stack (a row: one whole stack)";
	default:
		return "by function (a row: the stacks whose innermost frame "
		    "is that function, its own bytes)";
	}
}

static void
put_head(struct pic *p)
{
	FILE *fp = p->fp;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
	    "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<!-- Memory over time by proftrend (profconv %s); hover a band "
	    "for its figures, Ctrl-F to search. -->\n", p->w, p->h, p->w,
	    p->h, PROFCONV_VERSION_STRING);
	profconv__svg_put_style(fp, style, NULL);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
	    "fill=\"rgb(255,255,255)\"/>\n", p->w, p->h);
}

static void
put_titles(struct pic *p)
{
	FILE *fp = p->fp;
	size_t top = p->nb - 1;

	profconv__svg_put_text(fp, "title", p->w / 2, 24, NULL, p->o.title != NULL ?
	    p->o.title : "Memory over time");
	fprintf(fp, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\">", p->w / 2);
	if (p->o.subtitle != NULL) {
		profconv__xml_put(fp, p->o.subtitle, (size_t)-1);
	} else {
		profconv__xml_put(fp, profconv__trend_type_name(p->t),
		    (size_t)-1);
		fprintf(fp, " %s; the first %zu of %zu rows of the "
		    "table and \"other\" add up to each snapshot's total",
		    by_text(p->by), top, p->nrows);
	}
	fputs("</text>\n", fp);
	if (p->k < p->n)
		fprintf(fp, "<text id=\"sampled\" x=\"%.1f\" y=\"60\">%zu of "
		    "%zu snapshots drawn: the first, the last, and the one "
		    "with the largest total of each stretch (the peak "
		    "among them)</text>\n", p->w / 2, p->k, p->n);
	profconv__svg_put_text(fp, "search", p->w - PAD - 100, 24, NULL, "Search");
	profconv__svg_put_text(fp, "ignorecase", p->w - PAD - 16, 24, NULL, "ic");
	profconv__svg_put_text(fp, "details", PAD, p->h - 12, NULL, " ");
	profconv__svg_put_text(fp, "matched", p->w - PAD, p->h - 12, NULL, " ");
}

/* V, a fraction of the peak, as an int64: (double)INT64_MAX is 2^63,
 * which llround() cannot give back. */
static int64_t
label_value(double v)
{
	if (!(v < 9223372036854775807.0))
		return INT64_MAX;
	return v > 0 ? llround(v) : 0;
}

/* A "nice" step (1, 2 or 5 times a power of ten) for about 8 ticks
 * over SPAN. */
static double
nice_step(double span)
{
	double raw = span / 8, e = pow(10, floor(log10(raw))), f = raw / e;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

static void
put_axes(struct pic *p)
{
	FILE *fp = p->fp;
	double span, unit = 1, step, v, x;
	const char *uname = "s";
	char buf[48];
	int i, decimals;

	for (i = 0; i <= 4; i++) {
		double y = y_of(p, p->ymax * i / 4);

		fprintf(fp, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/><text class=\"ylabel\" "
		    "x=\"%.1f\" y=\"%.1f\">%s</text>\n", p->cx0, y, p->cx1, y,
		    p->cx0 - 6, y + 4, human(buf, sizeof(buf),
		    label_value(p->ymax * i / 4), false, p->bytes));
	}
	fprintf(fp, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\"/>\n<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
	    "x2=\"%.1f\" y2=\"%.1f\"/>\n", p->cx0, p->cy0, p->cx0, p->cy1,
	    p->cx0, p->cy1, p->cx1, p->cy1);
	if (p->by_alloc) {
		/* Labels in the binary unit that gives at least 2 of it. */
		unsigned k;

		span = alloc_since_first(p, p->n - 1);
		k = profconv__bytes_power(span / 2);
		uname = profconv__bytes_unit_name(k);
		for (i = 0; i < (int)k; i++)
			unit *= 1024;
		span /= unit;
	} else if (p->by_time) {
		span = since_first(p, p->n - 1);
		if (span >= 2 * 3600) {
			unit = 3600;
			uname = "h";
		} else if (span >= 2 * 60) {
			unit = 60;
			uname = "min";
		}
		span /= unit;
	} else {
		span = (double)(p->n - 1);
	}
	step = nice_step(span > 0 ? span : 1);
	if (!p->by_time && !p->by_alloc && step < 1)
		step = 1;
	/* Enough decimals for the step: 0.05 needs two. */
	decimals = step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;
	for (v = 0; v <= span + step * 1e-9; v += step) {
		x = p->cx0 + (span > 0 ? v / span : 0) * (p->cx1 - p->cx0);
		fprintf(fp, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/><text class=\"xlabel\" "
		    "x=\"%.1f\" y=\"%.1f\">%.*f</text>\n", x, p->cy1, x,
		    p->cy1 + 4, x, p->cy1 + 17, decimals,
		    p->by_time || p->by_alloc ? v : v + 1);
	}
	fprintf(fp, "<text id=\"xaxis\" data-mode=\"%s\" x=\"%.1f\" "
	    "y=\"%.1f\">", p->by_alloc ? "allocated" : p->by_time ? "time" :
	    "order", (p->cx0 + p->cx1) / 2, p->cy1 + 34);
	if (p->by_alloc)
		fprintf(fp, "bytes allocated since the first snapshot (%s), "
		    "the allocator's count: the axis the verdicts judge on",
		    uname);
	else if (p->by_time)
		fprintf(fp, "time since the first snapshot (%s), from the "
		    "snapshots' collection times (the verdicts judge in "
		    "snapshot order)", uname);
	else
		fputs("snapshot number, in the order taken (one step per "
		    "snapshot, not a time scale)", fp);
	fputs("</text>\n", fp);
}

/* One band's area: its upper edge left to right, the one below (or the
 * axis) back. */
static void
put_area(struct pic *p, size_t i)
{
	FILE *fp = p->fp;
	size_t j;

	fputs("<path d=\"", fp);
	for (j = 0; j < p->k; j++)
		fprintf(fp, "%s%.1f,%.1f", j ? "L" : "M", p->x[j],
		    p->b[i].top[j]);
	for (j = p->k; j-- > 0;)
		fprintf(fp, "L%.1f,%.1f", p->x[j],
		    i > 0 ? p->b[i - 1].top[j] : p->cy1);
	fprintf(fp, "Z\" fill=\"rgb(%u,%u,%u)\"/>", p->b[i].color.r,
	    p->b[i].color.g, p->b[i].color.b);
}

static void
put_bands(struct pic *p)
{
	FILE *fp = p->fp;
	const struct band *b;
	size_t i, j;

	fprintf(fp, "<g id=\"bands\" data-snapshots=\"%zu\" data-drawn="
	    "\"%zu\" data-rows=\"%zu\" data-bytes=\"%d\" data-by=\"%s\">"
	    "\n", p->n, p->k, p->nrows, p->bytes,
	    p->by == PROFCONV_DIFF_BY_STACK ? "stack" :
	    p->by == PROFCONV_DIFF_BY_LINE ? "line" : "function");
	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		fprintf(fp, "<g class=\"band%s\" data-band=\"%zu\" "
		    "data-verdict=\"%s\"", b->other ? " other" : "", i,
		    b->verdict);
		if (!b->other)
			fprintf(fp, " data-rank=\"%zu\" data-first=\"%" PRId64
			    "\" data-last=\"%" PRId64 "\" data-growth=\"%"
			    PRId64 "\" data-grew=\"%zu\" data-intervals=\"%zu\""
			    " data-suspect=\"%d\"", i + 1, b->row.first_bytes,
			    b->row.last_bytes, b->row.growth_bytes,
			    b->row.grew_intervals, b->row.intervals,
			    b->row.suspect != 0);
		fputs(" data-v=\"", fp);
		for (j = 0; j < p->k; j++)
			fprintf(fp, j ? ",%" PRId64 : "%" PRId64, b->v[j]);
		fputs("\"><title>", fp);
		profconv__trend_put_cut(fp, b->row.name, NAME_MAX_CHARS,
		    p->by == PROFCONV_DIFF_BY_STACK);
		put_figures(fp, b, p->bytes);
		fputs("</title>", fp);
		put_area(p, i);
		fputs("</g>\n", fp);
	}
	fputs("</g>\n", fp);
}

/* The snapshots drawn, for the script: where, which, how much. */
static void
put_snapshots(struct pic *p)
{
	struct profconv_trend_snapshot s;
	FILE *fp = p->fp;
	size_t j;

	fputs("<g id=\"snapshots\" class=\"hide\">\n", fp);
	for (j = 0; j < p->k; j++) {
		profconv_trend_snapshot(p->t, p->pick[j], &s);
		fprintf(fp, "<text data-i=\"%zu\" data-x=\"%.1f\" data-total="
		    "\"%" PRId64 "\" data-time=\"%" PRId64 "\">", p->pick[j],
		    p->x[j], s.inuse_bytes, s.time_nanos);
		profconv__trend_put_cut(fp, s.name, SNAP_MAX_CHARS, true);
		fputs("</text>\n", fp);
	}
	fputs("</g>\n", fp);
}

static void
put_peak(struct pic *p)
{
	struct profconv_trend_snapshot s;
	FILE *fp = p->fp;
	double x = x_of(p, p->peak);
	bool right = x > (p->cx0 + p->cx1) / 2;
	char buf[48];

	profconv_trend_snapshot(p->t, p->peak, &s);
	fprintf(fp, "<g id=\"peak\" data-i=\"%zu\" data-total=\"%" PRId64
	    "\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
	    "<text x=\"%.1f\" y=\"%.1f\"%s>peak: %s "
	    "at snapshot %zu</text></g>\n", p->peak, s.inuse_bytes, x,
	    p->cy0 - 2, x, p->cy1, right ? x - 4 : x + 4, p->cy0 + 10,
	    right ? " class=\"left\"" : "", human(buf, sizeof(buf), s.inuse_bytes,
	    false, p->bytes), p->peak + 1);
	fprintf(fp, "<line id=\"cursor\" class=\"hide\" x1=\"0\" y1=\"%.1f\" "
	    "x2=\"0\" y2=\"%.1f\"/>\n", p->cy0, p->cy1);
}

/* A row's values as a small line, scaled to its own largest value. */
static void
put_spark(struct pic *p, const struct band *b, double y)
{
	FILE *fp = p->fp;
	int64_t max = 1;
	size_t j;

	for (j = 0; j < p->k; j++)
		if (b->v[j] > max)
			max = b->v[j];
	fputs("<path class=\"spark\" d=\"", fp);
	for (j = 0; j < p->k; j++)
		fprintf(fp, "%s%.1f,%.1f", j ? "L" : "M", SPARK_X +
		    (p->x[j] - p->cx0) / (p->cx1 - p->cx0) * SPARK_W,
		    y + SPARK_H - (double)b->v[j] / (double)max * SPARK_H);
	fputs("\"/>", fp);
}

static void
put_legend(struct pic *p)
{
	FILE *fp = p->fp;
	const struct band *b;
	size_t i;
	double y;

	fputs("<g id=\"legend\">\n", fp);
	for (i = 0; i < p->nb; i++) {
		b = &p->b[i];
		y = p->cy0 + (double)i * ROW_H;
		fprintf(fp, "<g class=\"item%s\" data-band=\"%zu\">"
		    "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"12\" "
		    "fill=\"rgb(%u,%u,%u)\"/>", b->other ? " other" : "", i,
		    PAD, y + 1, b->color.r, b->color.g, b->color.b);
		put_spark(p, b, y);
		fprintf(fp, "<text class=\"verdict verdict-%s\" x=\"%d\" "
		    "y=\"%.1f\">%s</text><text class=\"name\" x=\"%d\" "
		    "y=\"%.1f\">", b->verdict, VERDICT_X, y + 12, b->verdict,
		    NAME_X, y + 12);
		profconv__xml_put(fp, b->shown, (size_t)-1);
		fputs("</text></g>\n", fp);
	}
	fputs("</g>\n", fp);
}

static void
put_svg(struct pic *p)
{
	FILE *fp = p->fp;

	put_head(p);
	put_titles(p);
	put_axes(p);
	put_bands(p);
	put_peak(p);
	put_snapshots(p);
	put_legend(p);
	profconv__svg_put_script(fp, script);
	fputs("</svg>\n", fp);
}

static void
free_pic(struct pic *p)
{
	size_t i;

	for (i = 0; p->b != NULL && i < p->nb; i++) {
		free(p->b[i].v);
		free(p->b[i].top);
		free(p->b[i].shown);
		free(p->b[i].apart);
	}
	free(p->b);
	free(p->totals);
	free(p->times);
	free(p->pick);
	free(p->x);
}

int
profconv_trend_write_svg(const struct profconv_trend *t, FILE *fp,
    const struct profconv_trend_svg_options *opts)
{
	struct pic p = { 0 };
	int rc;

	if (t == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no trend or no file");
	if (!profconv__trend_ran(t))
		return profconv__fail(PROFCONV_EINVAL, "trend not analysed");
	rc = profconv__options_take(&p.o, opts, &profconv__options_trend_svg);
	if (rc == 0)
		rc = check_options(&p.o);
	if (rc < 0)
		return rc;
	p.fp = fp;
	p.t = t;
	p.by = profconv__trend_options(t)->by;
	/* inuse_space, alloc_space, space, ..._bytes: bytes; else counts. */
	p.bytes = strstr(profconv__trend_type_name(t), "space") != NULL ||
	    strstr(profconv__trend_type_name(t), "bytes") != NULL;
	rc = read_snapshots(&p);
	if (rc == 0)
		rc = read_bands(&p);
	if (rc == 0)
		rc = lay_out(&p);
	if (rc == 0)
		rc = legend_names(&p, LEGEND_CHARS,
		    p.by == PROFCONV_DIFF_BY_STACK);
	if (rc == 0) {
		errno = 0;
		put_svg(&p);
		if (fflush(fp) != 0 || ferror(fp))
			rc = profconv__write_error();
	}
	free_pic(&p);
	return rc;
}

/* --- which snapshots are drawn -------------------------------------------- */

size_t
profconv__trend_peak(const int64_t *totals, size_t n)
{
	size_t i, peak = 0;

	for (i = 1; i < n; i++)
		if (totals[i] > totals[peak])
			peak = i;
	return peak;
}

size_t
profconv__trend_pick(const int64_t *totals, size_t n, size_t budget,
    size_t *out)
{
	size_t i, j, k = 0, lo, hi, best, nb, inner;

	if (n <= budget) {
		for (i = 0; i < n; i++)
			out[i] = i;
		return n;
	}
	/* N > BUDGET >= 3: each bucket holds one snapshot or more. */
	nb = budget - 2;
	inner = n - 2;
	out[k++] = 0;
	for (j = 0; j < nb; j++) {
		lo = 1 + j * inner / nb;
		hi = 1 + (j + 1) * inner / nb;
		for (best = lo, i = lo + 1; i < hi; i++)
			if (totals[i] > totals[best])
				best = i;
		out[k++] = best;
	}
	out[k++] = n - 1;
	return k;
}
