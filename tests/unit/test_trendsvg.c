/* SPDX-License-Identifier: MIT */
/* test_trendsvg.c - which snapshots proftrend's picture draws (first,
 * last, the peak and each bucket's largest), what
 * profconv_trend_write_svg() refuses, and names from a profile as text. */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "write/write.h"
#include "report/trendsvg.h"
#include "view_helpers.h"

TestSuite(trendsvg);

static void
peak_is_the_first_largest(void)
{
	cr_expect(eq(sz, profconv__trend_peak((int64_t[]){ 5 }, 1), 0));
	cr_expect(eq(sz, profconv__trend_peak((int64_t[]){ 1, 9, 3, 9 }, 4),
	    1));
	cr_expect(eq(sz, profconv__trend_peak((int64_t[]){ 1, 2, 3, 4 }, 4),
	    3));
}

static void
few_snapshots_are_all_drawn(void)
{
	int64_t v[7] = { 3, 1, 4, 1, 5, 9, 2 };
	size_t out[7], i;

	cr_assert(eq(sz, profconv__trend_pick(v, 7, 7, out), 7));
	for (i = 0; i < 7; i++)
		cr_expect(eq(sz, out[i], i));
	cr_assert(eq(sz, profconv__trend_pick(v, 2, 500, out), 2));
}

/* The picks of N values against the rule, bucket by bucket, computed
 * here independently: budget - 2 equal stretches of the inner values. */
static void
check_pick(const int64_t *v, size_t n, size_t budget)
{
	size_t *out = calloc(budget, sizeof(*out)), k, i, j, peak = 0;
	size_t inner = n - 2, nb = budget - 2;
	bool seen_peak = false;

	cr_assert(out != NULL);
	k = profconv__trend_pick(v, n, budget, out);
	cr_assert(eq(sz, k, budget), "n %zu budget %zu", n, budget);
	cr_expect(eq(sz, out[0], 0));
	cr_expect(eq(sz, out[k - 1], n - 1));
	for (i = 1; i < n; i++)
		if (v[i] > v[peak])
			peak = i;
	for (i = 0; i < k; i++) {
		if (i > 0)
			cr_expect(out[i] > out[i - 1], "picks not in order");
		seen_peak = seen_peak || out[i] == peak;
	}
	cr_expect(seen_peak, "the peak %zu is not drawn (n %zu)", peak, n);
	/* Pick J + 1 is bucket J's first largest value. */
	for (j = 0; j < nb; j++) {
		size_t lo = 1 + j * inner / nb, hi = 1 + (j + 1) * inner / nb;
		size_t best = lo;

		cr_assert(lo < hi);
		for (i = lo; i < hi; i++)
			if (v[i] > v[best])
				best = i;
		cr_expect(eq(sz, out[j + 1], best), "bucket %zu of n %zu", j,
		    n);
	}
	free(out);
}

static void
many_snapshots_keep_first_last_peak_and_bucket_maxima(void)
{
	static const size_t sizes[] = { 4, 11, 501, 502, 999, 3000, 100003 };
	int64_t *v = calloc(100003, sizeof(*v));
	uint64_t x = 42;
	size_t s, i;

	cr_assert(v != NULL);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (i = 0; i < sizes[s]; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i] = (int64_t)(x >> 40);
		}
		if (sizes[s] > 500)
			check_pick(v, sizes[s], 500);
		check_pick(v, sizes[s], 3);
	}
	/* A peak at the start, at the end, and a plateau: its first. */
	for (i = 0; i < 3000; i++)
		v[i] = 7;
	v[0] = 100;
	check_pick(v, 3000, 500);
	v[0] = 7;
	v[2999] = 100;
	check_pick(v, 3000, 500);
	free(v);
}

Test(trendsvg, snapshots_drawn_are_first_last_peak_and_maxima)
{
	peak_is_the_first_largest();
	few_snapshots_are_all_drawn();
	many_snapshots_keep_first_last_peak_and_bucket_maxima();
}

/* A snapshot with V1 bytes under NAME (called by main) and V2 in main
 * itself. */
static struct profconv_profile *
snapshot(const char *name, int64_t v1, int64_t v2)
{
	struct profconv_profile *p;
	uint32_t fmain, fname, lmain, lname;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "space", "bytes");
	fmain = add_fn(p, "main", "");
	fname = add_fn(p, name, "");
	lmain = LOC1(p, 0, 0x10, fmain, 1);
	lname = LOC1(p, 0, 0x20, fname, 1);
	SAMPLE(p, ((int64_t[]){ v1 }), lname, lmain);
	SAMPLE(p, ((int64_t[]){ v2 }), lmain);
	return p;
}

static struct profconv_trend *
series(const char *name, int64_t v1, int64_t v2)
{
	struct profconv_trend *t = NULL;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	cr_assert(eq(int, profconv_trend_add(t, snapshot(name, 1000, 50),
	    "s1"), 0));
	cr_assert(eq(int, profconv_trend_add(t, snapshot(name, v1, v2),
	    "s2"), 0));
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	return t;
}

static void
hostile_names_are_text(void)
{
	static const char name[] =
	    "<script>alert(1)</script>]]>\"'&\x01\x1b[2J";
	struct profconv_trend *t = series(name, 5000, 70);
	char *text = NULL;
	const char *end;

	CAPTURE(text, profconv_trend_write_svg(t, fp, NULL));
	cr_expect(strstr(text, "<script>alert") == NULL);
	cr_expect(strstr(text, "&lt;script&gt;alert(1)&lt;/script&gt;]]&gt;"
	    "&quot;&#39;&amp;") != NULL, "%s", text);
	cr_expect(strchr(text, '\x01') == NULL && strchr(text, '\x1b') == NULL);
	/* One CDATA end: the script's. */
	end = strstr(text, "]]>");
	cr_assert(end != NULL);
	cr_expect(strstr(end + 3, "]]>") == NULL);
	cr_expect(strstr(text, "</svg>\n") != NULL);
	/* The rows are disjoint: by function, main holds its own 70 bytes
	 * only; with the hostile row they make the total, no "other". */
	cr_expect(strstr(text, "data-v=\"50,70\"") != NULL, "%s", text);
	cr_expect(strstr(text, "data-v=\"1000,5000\"") != NULL);
	cr_expect(strstr(text, "data-v=\"0,0\"") != NULL);
	free(text);
	profconv_trend_free(t);
}

Test(trendsvg, refuses_bad_options_and_negative_values)
{
	struct profconv_trend_svg_options o = PROFCONV_TREND_SVG_OPTIONS_INIT;
	struct profconv_trend *t = series("f", 5000, 70), *neg, *unrun = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	o.width = 100;
	cr_expect(eq(int, profconv_trend_write_svg(t, fp, &o),
	    PROFCONV_EINVAL));
	o.width = 0;
	o.top = 41;
	cr_expect(eq(int, profconv_trend_write_svg(t, fp, &o),
	    PROFCONV_EINVAL));
	o.top = 0;
	o.version = 99;
	cr_expect(eq(int, profconv_trend_write_svg(t, fp, &o),
	    PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_trend_new(&unrun, NULL), 0));
	cr_expect(eq(int, profconv_trend_write_svg(unrun, fp, NULL),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_trend_write_svg(NULL, fp, NULL),
	    PROFCONV_EINVAL));
	neg = series("f", -5, 70);
	cr_expect(eq(int, profconv_trend_write_svg(neg, fp, NULL),
	    PROFCONV_EFORMAT));
	cr_expect(strstr(profconv_errmsg(), "negative") != NULL, "%s",
	    profconv_errmsg());
	fclose(fp);
	free(text);
	profconv_trend_free(neg);
	profconv_trend_free(unrun);
	profconv_trend_free(t);
}

/* Every point of the areas (<path d="M x,y L ...Z"): inside the chart,
 * whose top is 74 pixels down (below the title), 1200 wide. */
static void
areas_inside(const char *text)
{
	const char *p = text;
	double x, y;
	int n, points = 0;

	while ((p = strstr(p, "<path d=\"")) != NULL) {
		p += 9;
		while (*p == 'M' || *p == 'L') {
			cr_assert(sscanf(p + 1, "%lf,%lf%n", &x, &y, &n) == 2,
			    "%.40s", p);
			cr_expect(x >= 0 && x <= 1200, "x %g", x);
			cr_expect(y >= 74 && y < 2000, "y %g: over the title", y);
			points++;
			p += 1 + n;
		}
	}
	cr_expect(points > 0, "no area");
}

/* Times across 2^63 ns, and values whose sum is past INT64_MAX: the
 * snapshots are placed in order on the chart, the labels are not
 * negative, nothing is drawn over the title. */
static void
extreme_times_and_values(void)
{
	static const int64_t times[] = { -6000000000000000000,
		1000000000000000000, 6000000000000000000 };
	struct profconv_trend *t = NULL;
	struct profconv_profile *p;
	char *text = NULL, name[8];
	const char *label;
	size_t i;

	cr_assert(eq(int, profconv_trend_new(&t, NULL), 0));
	for (i = 0; i < 3; i++) {
		p = snapshot("f", i == 2 ? INT64_MAX : 1000, i == 2 ?
		    INT64_MAX : 50);
		profconv_profile_set_time(p, times[i], 0);
		snprintf(name, sizeof(name), "s%zu", i);
		cr_assert(eq(int, profconv_trend_add(t, p, name), 0));
	}
	cr_assert(eq(int, profconv_trend_run(t), 0), "%s", ERRMSG);
	CAPTURE(text, profconv_trend_write_svg(t, fp, NULL));
	areas_inside(text);
	cr_expect(strstr(text, "data-mode=\"time\"") != NULL);
	cr_expect(strstr(text, "class=\"ylabel\" x=") != NULL);
	cr_expect(strstr(text, "EiB") != NULL);
	for (label = text; (label = strstr(label, "class=\"ylabel\"")) !=
	    NULL; label++) {
		label = strchr(label, '>');
		cr_assert(label != NULL);
		cr_expect(label[1] != '-', "a negative label: %.20s", label);
	}
	free(text);
	profconv_trend_free(t);
}

Test(trendsvg, hostile_and_extreme_input_drawn_safely)
{
	hostile_names_are_text();
	extreme_times_and_values();
}
