/* SPDX-License-Identifier: MIT */
/*
 * trendstat.c - what proftrend computes without a profile: the order of
 * snapshots, the growth statistics of a row, the suspect rule, and names
 * fit for JSON.
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
	if (la != lb)
		return la < lb ? -1 : 1;
	c = memcmp(p, q, la);
	if (c != 0)
		return c < 0 ? -1 : 1;
	if (*zeros == 0 && za != zb)
		*zeros = za < zb ? -1 : 1;
	return 0;
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
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	if (*a != *b)
		return *a == '\0' ? -1 : 1;
	return zeros;
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
	int r;

	if (c->by_time && c->times[i] != c->times[j])
		return c->times[i] < c->times[j] ? -1 : 1;
	r = profconv__natural_cmp(c->names[i], c->names[j]);
	if (r != 0)
		return r;
	return i < j ? -1 : i > j;	/* stable */
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

/* --- the suspect rule ---------------------------------------------------------- */

bool
profconv__trend_suspect(const struct pc_growth *g,
    const struct profconv_trend_options *opts, int64_t heap_growth)
{
	double need = ceil(opts->min_grew_fraction * (double)g->intervals -
	    1e-9);

	if (g->intervals == 0 || (double)g->grew < need || g->grew == 0)
		return false;
	if (!g->above_start || g->last <= g->first || !(g->slope > 0))
		return false;
	if (g->growth < opts->min_growth)
		return false;
	return heap_growth <= 0 || (double)g->growth >=
	    opts->min_growth_share * (double)heap_growth;
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
