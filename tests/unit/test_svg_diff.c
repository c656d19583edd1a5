/* SPDX-License-Identifier: MIT */
/*
 * test_svg_diff.c - what makes a flame graph differential
 * (lib/write/svg_diff.c): each frame's judgement and fill, the root's
 * name, and the subtitle that says what widths and colours mean.
 */

#include <stdlib.h>
#include <string.h>

#include "svg_fixture.h"
#include "base/base.h"
#include "view/delta.h"
#include "write/write.h"

/* The differential graph's fills and judgements: purple for new paths,
 * red and blue by the sign, white for no change; a frame judged by its
 * whole change, or with self_diff by its own. */
static void
differential_fills(void)
{
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct pc_delta_scale s;
	struct pc_drawn d[3] = {
		{ .sums = { .base = 20, .cur = 60, .up = 40, .self = 0 } },
		{ .sums = { .base = 0, .cur = 20, .up = 20, .self = 20 } },
		{ .sums = { .base = 30, .cur = 0, .down = -30, .self = -30 } },
	};

	profconv__delta_scale(&s, 50, 80, 0);
	cr_expect(eq(i64, profconv__svg_classify(d, 3, &s, &o), 40));
	cr_expect(eq(int, d[0].change, PC_GREW));
	cr_expect(eq(int, d[1].change, PC_NEW));
	cr_expect(eq(int, d[2].change, PC_GONE));
	EXPECT_RGB(profconv__svg_diff_fill(&d[0], 40, false), 255, 0, 0);
	EXPECT_RGB(profconv__svg_diff_fill(&d[0], 40, true), 0, 0, 255);
	EXPECT_RGB(profconv__svg_diff_fill(&d[1], 40, false), 205, 147, 235);
	EXPECT_RGB(profconv__svg_diff_fill(&d[2], 40, false), 52, 52, 255);
	o.self_diff = 1;
	cr_expect(eq(i64, profconv__svg_classify(d, 3, &s, &o), 30));
	cr_expect(eq(int, d[0].change, PC_SAME));
	EXPECT_RGB(profconv__svg_diff_fill(&d[0], 30, false), 255, 255, 255);
	EXPECT_RGB(profconv__svg_diff_fill(&d[2], 30, false), 0, 0, 255);
	o.self_diff = 0;
	profconv__delta_scale(&s, 50, 80, 50);	/* floor: 25 */
	profconv__svg_classify(d, 3, &s, &o);
	cr_expect(eq(int, d[1].change, PC_SAME));
	cr_expect(eq(int, d[2].change, PC_GONE));
}

/* The fill's ends: the deepest purple of a new frame is (170, 80, 220),
 * the faintest (240, 215, 250); a grown frame at the largest change is
 * pure red, or with negate pure blue. */
static void
fill_ends(void)
{
	struct pc_drawn d = { .delta = 100, .change = PC_NEW };

	EXPECT_RGB(profconv__svg_diff_fill(&d, 100, false), 170, 80, 220);
	d.delta = 0;
	EXPECT_RGB(profconv__svg_diff_fill(&d, 100, false), 240, 215, 250);
	d.delta = INT64_MIN;	/* |INT64_MIN| out of INT64_MAX: 1, not UB */
	d.change = PC_SHRANK;
	EXPECT_RGB(profconv__svg_diff_fill(&d, INT64_MAX, false), 0, 0, 255);
	EXPECT_RGB(profconv__svg_diff_fill(&d, INT64_MAX, true), 255, 0, 0);
}

/* Id 0, and ids past both views' frames, are the root: "all", coloured
 * by "". */
Test(svg_diff, root_and_unknown_ids)
{
	struct pc_svg_names n = { 0 };
	const char *fn = "x";

	cr_expect(eq(str, (char *)profconv__svg_frame_name(&n, 0, &fn),
	    "all"));
	cr_expect(eq(str, (char *)fn, ""));
	fn = "x";
	cr_expect(eq(str, (char *)profconv__svg_frame_name(&n, 7, &fn),
	    "all"));
	cr_expect(eq(str, (char *)fn, ""));
}

static char *
subtitle(const struct pc_svg_picture *pic)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	profconv__svg_diff_subtitle(fp, pic);
	fclose(fp);
	return buf;
}

Test(svg_diff, subtitle_says_what_widths_and_colours_are)
{
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct pc_svg_style st = { .factor = 1 };
	struct pc_delta_scale s = { .floor = 1234 };
	struct pc_svg_picture pic = { .opts = &o, .style = &st, .scale = &s,
	    .countname = "b<ytes" };
	char *t;

	o.subtitle = "a<b";
	o.diff_width = PROFCONV_DIFF_WIDTH_CUR;
	o.self_diff = 1;
	t = subtitle(&pic);
	cr_expect(eq(str, t, "a&lt;b \xc2\xb7 widths: after \xc2\xb7 "
	    "colours: own change"));
	free(t);
	o.subtitle = NULL;
	o.self_diff = 0;
	o.diff_width = PROFCONV_DIFF_WIDTH_DELTA;
	o.min_delta = 5;
	t = subtitle(&pic);
	cr_expect(eq(str, t, "widths: |change| (pprof) \xc2\xb7 colours: "
	    "whole change (callees included) \xc2\xb7 white under 5% of "
	    "before (1,234 b&lt;ytes)"));
	free(t);
}

/* Each frame's judgement and fill, and the fill's ends. */
Test(svg_diff, differential_fills_and_their_ends)
{
	differential_fills();
	fill_ends();
}
