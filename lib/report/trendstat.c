/* SPDX-License-Identifier: MIT */
/*
 * trendstat.c - what proftrend computes without a profile: the order of
 * snapshots, the growth statistics of a row, the verdict on the shape of
 * its series (Theil-Sen slope, Mann-Kendall test, swings), the names of
 * jemalloc's and gperftools' dumps, and names fit for JSON.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "report/trend.h"

/* --- natural order ---------------------------------------------------------- */

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Compare the digit runs at *A and *B as numbers and move past them;
 * *ZEROS collects which one had more leading zeros (a later tie-break).
 */
static int
number_cmp(const char **a, const char **b, int *zeros)
{
	const char *p = *a, *q = *b;
	size_t za = 0, zb = 0, la, lb;
	int c;

	while (*p == '0' && is_digit(p[1])) {
		p++;
		za++;
	}
	while (*q == '0' && is_digit(q[1])) {
		q++;
		zb++;
	}
	for (la = 0; is_digit(p[la]); la++)
		;
	for (lb = 0; is_digit(q[lb]); lb++)
		;
	*a = p + la;
	*b = q + lb;
	c = PC_CMP(la, lb);
	if (c == 0)
		c = memcmp(p, q, la);
	if (c == 0 && *zeros == 0)
		*zeros = PC_CMP(za, zb);
	return PC_CMP(c, 0);
}

int
profconv__natural_cmp(const char *a, const char *b)
{
	int zeros = 0, c;

	while (*a != '\0' && *b != '\0') {
		if (is_digit(*a) && is_digit(*b)) {
			c = number_cmp(&a, &b, &zeros);
			if (c != 0)
				return c;
			continue;
		}
		c = PC_CMP((unsigned char)*a, (unsigned char)*b);
		if (c != 0)
			return c;
		a++;
		b++;
	}
	/* One has ended: it sorts first. */
	c = PC_CMP((unsigned char)*a, (unsigned char)*b);
	return c != 0 ? c : zeros;
}

/* --- order of snapshots -------------------------------------------------------- */

struct order_ctx {
	const char *const *names;
	const int64_t *times;
	bool by_time;
};

static int
order_cmp(const void *x, const void *y, void *payload)
{
	const struct order_ctx *c = payload;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int r = c->by_time ? PC_CMP(c->times[i], c->times[j]) : 0;

	if (r == 0)
		r = profconv__natural_cmp(c->names[i], c->names[j]);
	return r != 0 ? r : PC_CMP(i, j);	/* stable */
}

int
profconv__trend_order(size_t *order, const char *const *names,
    const int64_t *times, size_t n, bool keep)
{
	struct order_ctx c = { names, times, true };
	size_t i;

	for (i = 0; i < n; i++) {
		order[i] = i;
		c.by_time = c.by_time && times != NULL && times[i] != 0;
	}
	if (!keep && n > 1)
		qsort_r(order, n, sizeof(*order), order_cmp, &c);
	return 0;
}

/* --- growth statistics ------------------------------------------------------- */

void
profconv__growth(const int64_t *v, size_t n, size_t stride,
    struct pc_growth *out)
{
	double mean_x = (double)(n - 1) / 2, mean_y = 0, sxy = 0, sxx = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->first = v[0];
	out->last = v[(n - 1) * stride];
	out->growth = pc_sub_sat(out->last, out->first);
	out->intervals = n - 1;
	out->above_start = true;
	for (i = 0; i < n; i++)
		mean_y += (double)v[i * stride] / (double)n;
	for (i = 0; i < n; i++) {
		double dx = (double)i - mean_x;

		sxy += dx * ((double)v[i * stride] - mean_y);
		sxx += dx * dx;
		if (i == 0)
			continue;
		if (v[i * stride] > v[(i - 1) * stride])
			out->grew++;
		if (v[i * stride] != v[0])
			out->changed = true;
		if (i >= 2 && v[i * stride] <= v[0])
			out->above_start = false;
	}
	out->slope = sxx > 0 ? sxy / sxx : 0;
}

/* --- the shape of a series: statistics ------------------------------------------ */

/* The value of point I of the series (stride STRIDE) as a double. */
#define AT(v, i, stride) ((double)(v)[(size_t)(i) * (stride)])

/*
 * The indexes of at most PC_FIT_POINTS points of N, evenly spread, the
 * first and the last always among them.
 */
static size_t
fit_points(size_t n, size_t *idx)
{
	size_t i, m = n < PC_FIT_POINTS ? n : PC_FIT_POINTS;

	for (i = 0; i < m; i++)
		idx[i] = m == n ? i : (size_t)(((double)i * (double)(n - 1)) /
		    (double)(m - 1) + 0.5);
	return m;
}

/* The median of X[0..N), N >= 1; X is reordered. */
static double
median(double *x, size_t n)
{
	double a = profconv__select_kth(x, n, n / 2), b;
	size_t i;

	if (n % 2 == 1)
		return a;
	/* The largest of the lower half: X[0..n/2) is all <= a. */
	b = x[0];
	for (i = 1; i < n / 2; i++)
		if (x[i] > b)
			b = x[i];
	return a / 2 + b / 2;
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return PC_CMP(x, y);
}

void
profconv__trend_fit(const int64_t *v, size_t n, size_t stride,
    double *scratch, struct pc_fit *out)
{
	size_t idx[PC_FIT_POINTS], m, i, j, np = 0, run;
	double *slopes = scratch, *sorted = scratch + PC_FIT_PAIRS, s = 0;
	double var, ties = 0, dy;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return;
	m = fit_points(n, idx);
	for (i = 0; i < m; i++) {
		for (j = i + 1; j < m; j++) {
			dy = AT(v, idx[j], stride) - AT(v, idx[i], stride);
			slopes[np++] = dy / (double)(idx[j] - idx[i]);
			s += (dy > 0) - (dy < 0);
		}
		sorted[i] = AT(v, idx[i], stride);
	}
	out->theil_sen = median(slopes, np);
	out->mk_s = s;
	/* Mann-Kendall's variance of S, less what runs of equal values
	 * take away: sum of t(t-1)(2t+5) over the runs of length t. */
	qsort(sorted, m, sizeof(*sorted), dbl_cmp);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && sorted[j] == sorted[i]; j++)
			;
		run = j - i;
		ties += (double)run * (double)(run - 1) * (double)(2 * run + 5);
	}
	var = ((double)m * (double)(m - 1) * (double)(2 * m + 5) - ties) / 18;
	if (var > 0 && s != 0)
		out->mk_z = (s - (s > 0 ? 1 : -1)) / sqrt(var);
	out->points = m;
}

/*
 * Count the swings of V by at least D: a rise is a climb of D or more
 * from the lowest value since the last swing, a fall a drop of D or more
 * from the highest (a zigzag with threshold D).
 */
static void
swings(const int64_t *v, size_t n, size_t stride, double d, size_t *rises,
    size_t *falls)
{
	double lo = AT(v, 0, stride), hi = lo, x;
	int dir = 0;
	size_t i;

	*rises = *falls = 0;
	for (i = 1; i < n; i++) {
		x = AT(v, i, stride);
		if (dir >= 0 && x > hi)
			hi = x;
		if (dir <= 0 && x < lo)
			lo = x;
		if (dir >= 0 && hi - x >= d) {
			(*falls)++;
			dir = -1;
			lo = x;
		} else if (dir <= 0 && x - lo >= d) {
			(*rises)++;
			dir = 1;
			hi = x;
		}
	}
}

/* --- the shape of a series: the verdict ------------------------------------------ */

#define NOISE_SDS 2	/* standard deviations of sampling that are noise */

/* The x of point I: X[I], or I when X is NULL. */
static double
x_at(const double *x, size_t i)
{
	return x != NULL ? x[i] : (double)i;
}

/*
 * The size of the objects behind a sampled row whose estimates give R
 * bytes per object, PERIOD the sampling period.  An object of S bytes
 * is sampled with probability p = 1 - exp(-S / PERIOD) and then counts
 * 1 / p objects of S / p bytes; the readers round the objects down (as
 * pprof does), so R is S when a row has many, and up to S / p when it
 * has one.  The smaller answer, the S whose S / p is R, is returned: a
 * smaller size is more noise, and the verdict errs towards noise.
 * Objects of R < PERIOD bytes are taken as small: 0.
 */
static double
object_size(double r, double period)
{
	double lo = 0, hi = r, mid;
	int i;

	if (!(r > period) || !(period > 0))
		return 0;
	for (i = 0; i < 64; i++) {
		mid = (lo + hi) / 2;
		if (mid / -expm1(-mid / period) < r)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The sampling noise of the N values of V, estimates from samples, one
 * every PERIOD bytes on average; 0 when every allocation is recorded.
 * A sampled object stays in every dump while it lives, so what moves
 * the estimate between two dumps is only the bytes that came or went
 * between them.  B bytes in objects of S bytes move it with a variance
 * of B S (1 - p) / p (p as in object_size()): about B * PERIOD for
 * objects much smaller than the period (a count of samples is near
 * Poisson), and next to nothing for objects larger than it, which are
 * nearly always sampled.  SIZE is the row's bytes per object (0 when
 * not known: taken as small); B is the sum of the moves from dump to
 * dump, at most the row's highest value (the spread of a single
 * estimate at it).  NOISE_SDS standard deviations of that are noise.
 * A level that keeps its objects has none however large; a ramp's is
 * that of its rise, not of its height.
 */
static double
sampling_noise(const int64_t *v, size_t n, size_t stride, int64_t period,
    double size)
{
	double top = 0, moved = 0, per = (double)period, s;
	size_t i;

	if (period <= 1)
		return 0;
	for (i = 0; i < n; i++) {
		top = fmax(top, fabs(AT(v, i, stride)));
		if (i > 0)
			moved += fabs(AT(v, i, stride) - AT(v, i - 1, stride));
	}
	/* S (1 - p) / p = S / (exp(S / PERIOD) - 1): PERIOD as S goes
	 * to 0. */
	s = object_size(size, (double)period);
	if (s > 0)
		per = s / (double)period < 700 ? s / expm1(s / (double)period) :
		    0;
	return fmin(ceil(NOISE_SDS * sqrt(fmin(moved, top) * per)), 9e18);
}

/*
 * The tail of N points on the x axis X: the first point of the last
 * quarter of the x range (x >= x1 + 3/4 (xN - x1)); the last point at
 * least.
 */
static size_t
tail_start(const double *x, size_t n)
{
	double x1 = x_at(x, 0), xn = x_at(x, n - 1);
	double cut = x1 + (xn - x1) * 0.75;
	size_t i = n - 1;

	while (i > 1 && x_at(x, i - 1) >= cut)
		i--;
	return i;
}

/*
 * The Theil-Sen slope (per unit of x) of points T0..N-1 of V, at most
 * PC_FIT_POINTS of them evenly spread, times the x length of the
 * stretch: how much the stretch rose, robust to dips and outliers.
 */
static double
tail_rise(const int64_t *v, const double *x, size_t t0, size_t n,
    size_t stride, double *scratch)
{
	size_t idx[PC_FIT_POINTS], m, i, j, np = 0;
	double dx, len = x_at(x, n - 1) - x_at(x, t0);

	if (n - t0 < 2 || !(len > 0))
		return 0;
	m = fit_points(n - t0, idx);
	for (i = 0; i < m; i++)
		for (j = i + 1; j < m; j++) {
			dx = x_at(x, t0 + idx[j]) - x_at(x, t0 + idx[i]);
			if (dx > 0)
				scratch[np++] = (AT(v, t0 + idx[j], stride) -
				    AT(v, t0 + idx[i], stride)) / dx;
		}
	return np == 0 ? 0 : median(scratch, np) * len;
}

/*
 * The tail of V: where its last quarter starts (T0, of the x range, two
 * points at least), the lowest value in the last quarter proper (LOW),
 * the highest before it (BEFORE) and in it (TOP), and its rise.
 */
struct tail {
	size_t t0;
	double low, before, top, rise;
	double drop;	/* the deepest fall before it, from a high */
};

static void
tail_of(const int64_t *v, const double *x, size_t n, size_t stride,
    double *scratch, struct tail *tl)
{
	size_t q = tail_start(x, n), i;

	tl->low = tl->top = AT(v, q, stride);
	for (i = q + 1; i < n; i++) {
		tl->low = fmin(tl->low, AT(v, i, stride));
		tl->top = fmax(tl->top, AT(v, i, stride));
	}
	tl->t0 = q == n - 1 ? n - 2 : q;
	tl->before = AT(v, 0, stride);
	tl->drop = 0;
	for (i = 1; i < q; i++) {
		tl->before = fmax(tl->before, AT(v, i, stride));
		tl->drop = fmax(tl->drop, tl->before - AT(v, i, stride));
	}
	tl->rise = tail_rise(v, x, tl->t0, n, stride, scratch);
}

/*
 * Whether V kept climbing over the second half of the x range: the
 * Theil-Sen rise of that half passes both the row's noise and a fifth
 * of HELD, and the last quarter keeps a third of that half's pace or
 * more (a plateau keeps none).  The rise of a half rests on twice the
 * points of the last quarter's and is twice as tall on a steady ramp,
 * so it tells a ramp whose dumps sampling scatters (each by about the
 * noise) from a level, where the last quarter alone cannot.
 */
static bool
kept_climbing(const int64_t *v, const double *x, size_t n, size_t stride,
    const struct pc_rule *rule, const struct tail *tl, double held,
    double *scratch)
{
	double x1 = x_at(x, 0), xn = x_at(x, n - 1), rise, pace;
	size_t h = tail_start(x, n);

	while (h > 0 && x_at(x, h - 1) >= x1 + (xn - x1) / 2)
		h--;
	if (h >= tl->t0 || !(xn > x_at(x, h)))
		return false;
	rise = tail_rise(v, x, h, n, stride, scratch);
	pace = rise * (xn - x_at(x, tl->t0)) / (xn - x_at(x, h));
	return rise >= fmax(rule->noise, held / 5) && tl->rise >= pace / 3;
}

/*
 * The leak test on the N points of V (see profconv.h): no fall of a
 * swing; what the last quarter holds at its lowest is at least the
 * floor above the row's lowest; and the last quarter still rises, by a
 * fifth of that at least, up to within max(floor, a tenth of the range)
 * of all before it or above, or tops all before it by that much.
 */
static bool
is_leak(const int64_t *v, const double *x, size_t n, size_t stride,
    const struct pc_rule *rule, const struct pc_shape *sh, double *scratch)
{
	size_t moved = sh->grew + sh->fell;
	double need = ceil(rule->min_grew_fraction * (double)moved - 1e-9);
	struct tail tl;
	double held, lim;

	if (n < 2 || sh->falls != 0 || moved == 0 || (double)sh->grew < need)
		return false;
	tail_of(v, x, n, stride, scratch, &tl);
	held = tl.low - (double)sh->min;
	if (!(held >= (double)rule->floor))
		return false;
	lim = fmax((double)rule->floor, ((double)sh->max - (double)sh->min) /
	    10);
	/* Rising at the end is growth only where the end reaches the
	 * row's old high (within the same margin): a row that rises again
	 * after it fell back (by less than a swing) and stays below its
	 * peak is sampling noise around a level, not a leak.  In a sampled
	 * row, a last quarter that sank below the old high by more than
	 * the margin and climbed back within it is that noise too (perl's
	 * bounded cache, 14 runs in 200).  A half that climbed out of a
	 * dip deeper than that margin must top the old high by the dip: a
	 * level that wanders tops its old high by chance in one run of
	 * four (the last quarter of a quarter of its dumps). */
	if (tl.top - tl.before >= lim)
		return true;
	if (tl.top < tl.before - lim)
		return false;
	if (tl.rise > 0 && tl.rise >= fmax(rule->noise, held / 5) &&
	    (rule->noise <= 0 || tl.before - tl.low <= lim))
		return true;
	return tl.top >= (tl.drop > lim ? tl.before + tl.drop : tl.before -
	    lim) && kept_climbing(v, x, n, stride, rule, &tl, held, scratch);
}

/*
 * The leak test of a sampled row (RULE the settings, before the row's
 * own noise): a sampled object stays in every dump while it lives, so
 * each rise of a row that never went down from one dump to the next is
 * objects still live, whatever their estimate's noise; it still grows
 * when its last quarter tops all before it by two sampled objects or a
 * quarter of its range (one small object more at the end is no
 * growth).  A row that went down now
 * and then, by less than a swing, still grows when its last quarter
 * went down by no more than a sampled object or two (two periods) at a
 * time and tops all before it by max(floor, a tenth of the range): the
 * temporaries of a loop come and go in its row.  A level whose objects
 * come and go goes down too, and its moves make its noise (the stable
 * test) larger than its range.
 */
static bool
gains_to_the_end(const int64_t *v, const double *x, size_t n, size_t stride,
    const struct pc_rule *rule, const struct pc_shape *sh, double *scratch)
{
	struct tail tl;
	size_t i;

	if (rule->period <= 1 || n < 3 || sh->falls != 0)
		return false;
	tail_of(v, x, n, stride, scratch, &tl);
	/* By two sampled objects (each counts a period or more), or by a
	 * quarter of the range (its share of a steady climb): one small
	 * object more at the end is no growth. */
	if (!(tl.top - tl.before >= fmin(2 * (double)rule->period,
	    ((double)sh->max - (double)sh->min) / 4)))
		return false;
	if (sh->fell == 0)
		return true;
	for (i = tl.t0 + 1; i < n; i++)
		if (AT(v, i - 1, stride) - AT(v, i, stride) >
		    2 * (double)rule->period)
			return false;
	return tl.top - tl.before >= fmax((double)rule->floor,
	    ((double)sh->max - (double)sh->min) / 10);
}

/* The saturation test: rose, no fall, and the last quarter is a plateau
 * in the upper half of the climb that rises (or sinks) by less than
 * max(floor, a fifth of the climb) and tops the earlier peak by less
 * than max(floor, a tenth of it). */
static bool
is_saturating(const int64_t *v, const double *x, size_t n, size_t stride,
    const struct pc_rule *rule, const struct pc_shape *sh, double *scratch)
{
	double rise = (double)sh->max - AT(v, 0, stride), lim;
	struct tail tl;

	if (n < 3 || sh->falls != 0 || rise < (double)rule->floor)
		return false;
	tail_of(v, x, n, stride, scratch, &tl);
	lim = fmax((double)rule->floor, rise / 10);
	return tl.low >= AT(v, 0, stride) + rise / 2 &&
	    fabs(tl.rise) < fmax((double)rule->floor, rise / 5) &&
	    tl.top - tl.before < lim;
}

/* Statistics of the N points of V, for the verdict. */
static void
shape(const int64_t *v, size_t n, size_t stride, const struct pc_rule *rule,
    double *scratch, struct pc_shape *sh)
{
	size_t i;
	double range;

	memset(sh, 0, sizeof(*sh));
	sh->min = sh->max = v[0];
	for (i = 1; i < n; i++) {
		int64_t x = v[i * stride], prev = v[(i - 1) * stride];

		sh->grew += x > prev;
		sh->fell += x < prev;
		if (x < sh->min)
			sh->min = x;
		if (x > sh->max)
			sh->max = x;
	}
	range = (double)sh->max - (double)sh->min;
	swings(v, n, stride, fmax((double)rule->floor, range / 2), &sh->rises,
	    &sh->falls);
	profconv__trend_fit(v, n, stride, scratch, &sh->fit);
}

enum profconv_trend_verdict
profconv__trend_verdict(const int64_t *v, const double *x, size_t n,
    size_t stride, const struct pc_rule *all, double *scratch,
    struct pc_shape *out)
{
	struct pc_shape body;
	struct pc_shape *sh = out;
	struct pc_rule own = *all;
	const struct pc_rule *rule = &own;

	own.noise = sampling_noise(v, n, stride, all->period,
	    all->object_size);
	if (own.noise > (double)own.floor)
		own.floor = (int64_t)own.noise;
	shape(v, n, stride, rule, scratch, sh);
	if (n < 2 || (double)sh->max - (double)sh->min < (double)rule->floor)
		return PROFCONV_TREND_STABLE;
	if (is_leak(v, x, n, stride, rule, sh, scratch) ||
	    gains_to_the_end(v, x, n, stride, all, sh, scratch))
		return PROFCONV_TREND_LEAK;
	/* The last dump fell: judge the series before it by the same leak
	 * tests (a sampled row's too: its objects live until the exit dump
	 * however noisy the estimate of their total).  A leak up to
	 * it is freed at exit when the last dump is back within the floor
	 * of the first, and still a leak when it holds more. */
	if (n >= 3 && AT(v, n - 2, stride) - AT(v, n - 1, stride) >=
	    (double)rule->floor) {

		shape(v, n - 1, stride, rule, scratch, &body);
		if (is_leak(v, x, n - 1, stride, rule, &body, scratch) ||
		    gains_to_the_end(v, x, n - 1, stride, all, &body, scratch))
			return AT(v, n - 1, stride) - AT(v, 0, stride) <
			    (double)rule->floor ? PROFCONV_TREND_FREED_AT_EXIT :
			    PROFCONV_TREND_LEAK;
		/* Only the last dump fell: it does not hide what came
		 * before it (a cache at its cap, tables held all along). */
		if (body.falls == 0 && is_saturating(v, x, n - 1, stride, rule,
		    &body, scratch))
			return PROFCONV_TREND_SATURATING;
		if (body.falls == 0 && (double)body.max - (double)body.min <
		    (double)rule->floor)
			return PROFCONV_TREND_STABLE;
	}
	if (is_saturating(v, x, n, stride, rule, sh, scratch))
		return PROFCONV_TREND_SATURATING;
	if (sh->rises + sh->falls >= 3)
		return PROFCONV_TREND_PERIODIC;
	if (sh->falls >= 1)
		return PROFCONV_TREND_TRANSIENT;
	return PROFCONV_TREND_STABLE;
}

enum pc_x_axis
profconv__trend_x(double *x, const int64_t *allocated, size_t n,
    int64_t period)
{
	bool ok = n >= 2 && allocated != NULL;
	double top = 0, a;
	size_t i;

	for (i = 0; ok && i < n; i++) {
		a = (double)allocated[i];
		/* A sampled total is an estimate: it may come out a little
		 * lower than the one before, within what sampling spreads
		 * it by; the program did not allocate less. */
		ok = a >= 0 && (i == 0 || a >= top || (period > 1 &&
		    top - a <= 2 * sqrt(top * (double)period)));
		top = i == 0 || a > top ? a : top;
		x[i] = top;
	}
	ok = ok && top > (double)allocated[0];
	for (i = 0; !ok && i < n; i++)
		x[i] = (double)i;
	return ok ? PC_X_ALLOCATED : PC_X_SNAPSHOTS;
}

/* --- verdicts ------------------------------------------------------------------ */

const char *
profconv_trend_verdict_name(enum profconv_trend_verdict verdict)
{
	switch (verdict) {
	case PROFCONV_TREND_STABLE:
		return "stable";
	case PROFCONV_TREND_LEAK:
		return "leak";
	case PROFCONV_TREND_SATURATING:
		return "saturating";
	case PROFCONV_TREND_PERIODIC:
		return "periodic";
	case PROFCONV_TREND_TRANSIENT:
		return "transient";
	case PROFCONV_TREND_FREED_AT_EXIT:
		return "freed-at-exit";
	}
	return "?";
}

/* --- what a dump's name says ------------------------------------------------------ */

/* The digits just before END (back to S at most): their start, or END. */
static const char *
digits_before(const char *s, const char *end)
{
	while (end > s && is_digit(end[-1]))
		end--;
	return end;
}

/* A malloc'd copy of the LEN bytes at S followed by SUFFIX. */
static char *
join(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	char *out = malloc(len + n + 1);

	if (out != NULL) {
		memcpy(out, s, len);
		memcpy(out + len, suffix, n + 1);
	}
	return out;
}

int
profconv__dump_name(const char *name, struct pc_dump_name *out)
{
	size_t len = strlen(name);
	const char *end, *p, *seq, *pid;

	memset(out, 0, sizeof(*out));
	if (len > 3 && strcmp(name + len - 3, ".gz") == 0)
		len -= 3;	/* kept compressed */
	if (len <= 5 || strncmp(name + len - 5, ".heap", 5) != 0)
		return 0;
	end = name + len - 5;
	p = digits_before(name, end);
	if (p < end && p > name && p[-1] == '.' && end - p >= 4) {
		/* gperftools: PREFIX.NNNN.heap */
		out->group = join(name, (size_t)(p - name), "*.heap");
		return out->group == NULL ? profconv__nomem() : 0;
	}
	/* jemalloc: PREFIX.PID.SEQ.KIND[KSEQ].heap */
	if (p == name || strchr("imuf", p[-1]) == NULL ||
	    (p == end && p[-1] != 'f') || p - 1 == name || p[-2] != '.')
		return 0;
	out->kind = p[-1];
	seq = digits_before(name, p - 2);
	if (seq == p - 2 || seq == name || seq[-1] != '.')
		goto not_je;
	pid = digits_before(name, seq - 1);
	if (pid == seq - 1 || pid == name || pid[-1] != '.')
		goto not_je;
	out->group = join(name, (size_t)(seq - name), "*");
	return out->group == NULL ? profconv__nomem() : 0;
not_je:
	out->kind = 0;
	return 0;
}

/* --- names of snapshots ---------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at S (1..4), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n = *s < 0x80 ? 1 : *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 :
	    *s >= 0xc0 ? 2 : 0;
	size_t i;

	if (n == 0 || *s > 0xf4)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return profconv__utf8_valid((const char *)s, n) ? n : 0;
}

char *
profconv__utf8_copy(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(3 * strlen(s) + 1), *q = out;
	size_t n;

	if (out == NULL)
		return NULL;
	while (*p != '\0') {
		if ((n = utf8_len(p)) != 0) {
			memcpy(q, p, n);
			q += n;
			p += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);	/* U+FFFD */
			q += 3;
			p++;
		}
	}
	*q = '\0';
	return out;
}
