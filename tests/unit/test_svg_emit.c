/* SPDX-License-Identifier: MIT */
/*
 * test_svg_emit.c - the SVG text of a flame graph (lib/write/svg_emit.c):
 * the style options checked and their defaults (flamegraph.pl's), the
 * height, values as titles show them, and the document written for a
 * small profile: flamegraph.pl's structure and geometry.
 */

#include "config.h"

#include <stdlib.h>

#include "write/write.h"
#include "view_helpers.h"

/* The style of options O with the hot palette; its result. */
static int
style(const struct profconv_svg_options *o, struct pc_svg_style *st)
{
	memset(st, 0, sizeof(*st));
	return profconv__svg_style(o, profconv__palette("hot"), st);
}

/* flamegraph.pl's defaults: fontsize 12, fontwidth 0.59, ypad1 = 3
 * fontsize, ypad2 = 2 fontsize + 10; the hot palette's yellow. */
static void
style_defaults(void)
{
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct pc_svg_style st;

	cr_assert(eq(int, style(&o, &st), 0), "%s", ERRMSG);
	cr_expect(eq(dbl, st.font_size, 12));
	cr_expect(eq(dbl, st.font_width, 0.59));
	cr_expect(eq(dbl, st.factor, 1));
	cr_expect(eq(dbl, st.pad_title, 36));
	cr_expect(eq(dbl, st.pad_details, 34));
	cr_expect(eq(dbl, st.pad_subtitle, 24));
	cr_expect(eq(str, (char *)st.font_type, "Verdana, sans-serif"));
	cr_expect(eq(str, (char *)st.nametype, "Function:"));
	cr_expect(eq(str, st.bg_top, "#eeeeee"));
	cr_expect(eq(str, st.bg_bottom, "#eeeeb0"));
	/* (maxdepth + 1) frames of 16, the pads; a subtitle adds its row. */
	cr_expect(eq(dbl, profconv__svg_height(&st, &o, 3, 16), 134));
	o.subtitle = "s";
	cr_expect(eq(dbl, profconv__svg_height(&st, &o, 3, 16), 158));
}

static void
style_refusals(void)
{
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct pc_svg_style st;

	o.font_size = 1001;
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid font size '1001': 1 to 1000 pixels "
	    "expected"));
	o.font_size = 0;
	o.font_width = 0.001;
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid font width '0.001': 0.01 to 10 (a "
	    "share of the font size) expected"));
	o.font_width = 0;
	o.factor = 2e12;
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid factor '2e+12': a positive number "
	    "up to 1e12 expected"));
	o.factor = 0;
	o.total = -1;
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid total '-1': a positive count "
	    "expected"));
	o.total = 0;
	/* What would end the CSS declaration, or a string in it. */
	o.font_type = "a;b";
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	o.font_type = "a</style>";
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	o.font_type = "'a";
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	o.font_type = "";
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	o.font_type = "'Noto Sans', Helvetica-Neue, sans-serif";
	cr_expect(eq(int, style(&o, &st), 0), "%s", ERRMSG);
	o.font_type = NULL;
	o.notes = "bell\a";
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid notes 'bell\a': control "
	    "characters and bad UTF-8 cannot be in an XML comment"));
	o.notes = NULL;
	o.hash = o.random = 1;
	cr_expect(eq(int, style(&o, &st), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "hash and random colours exclude each other"));
}

Test(svg_emit, style_checked_and_defaulted)
{
	style_defaults();
	style_refusals();
}

/* flamegraph.pl's --factor: V times it to the nearest whole number, half
 * to even, with thousands separators. */
Test(svg_emit, values_shown)
{
	char b[64];

	cr_expect(eq(str, profconv__svg_value(b, 1234567, 1), "1,234,567"));
	cr_expect(eq(str, profconv__svg_value(b, 1234, 1000), "1,234,000"));
	cr_expect(eq(str, profconv__svg_value(b, 5, 0.5), "2"));
	cr_expect(eq(str, profconv__svg_value(b, 7, 0.5), "4"));
	cr_expect(eq(str, profconv__svg_value(b, -3000, 1), "-3,000"));
}

/* main (100 bytes of its own) calls a (300): 400 in all. */
static struct profconv_profile *
small(void)
{
	struct profconv_profile *p;
	uint32_t map, fm, fa, lm, la;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	map = add_map(p, 0x1000, 0x2000, "/bin/x");
	fm = add_fn(p, "main", "m.c");
	fa = add_fn(p, "a", "a.c");
	lm = LOC1(p, map, 0x1000, fm, 1);
	la = LOC1(p, map, 0x1010, fa, 1);
	SAMPLE(p, ((int64_t[]){ 300 }), la, lm);
	SAMPLE(p, ((int64_t[]){ 100 }), lm);
	return p;
}

static char *
picture(const struct profconv_profile *p, struct profconv_svg_options *o)
{
	struct profconv_view *v = NULL;
	char *out = NULL;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
	CAPTURE(out, profconv_svg_write(v, NULL, fp, o));
	profconv_view_free(v);
	return out;
}

#define HAS(text, s) \
	cr_expect(not(zero(ptr, strstr((text), (s)))), "no %s in %s", (s), \
	    (text))

/*
 * 1200 wide, frames 16 high: three levels and the pads are 3 * 16 + 36 +
 * 34 = 118 high.  2.95 pixels a byte ((1200 - 2 * 10) / 400).  As in
 * flamegraph.pl, whose sorted input has "main" before "main;a", main's
 * own 100 come first: "a" starts at 100, x 10 + 295, 885 wide.  Depth 0
 * ends at 118 - 34 = 84 and starts 15 above (a pixel between frames);
 * depth 2 spans 37 to 52, its text at x1 + 3 and the middle + 3.
 */
static void
document_of_a_small_profile(void)
{
	static const char head[] = "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg version=\"1.1\" width=\"1200\" height=\"118\" "
	    "viewBox=\"0 0 1200 118\" xmlns=\"http://www.w3.org/2000/svg\">\n";
	struct profconv_profile *p = small();
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	char *out;

	o.notes = "made by a test";
	o.title = "T<1>";
	out = picture(p, &o);
	cr_expect(eq(int, strncmp(out, head, sizeof(head) - 1), 0), "%.300s",
	    out);
	HAS(out, "<!-- NOTES: made by a test -->\n");
	HAS(out, "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop "
	    "stop-color=\"#eeeeb0\" offset=\"95%\"/>");
	HAS(out, ">T&lt;1&gt;</text>");
	HAS(out, "<g id=\"frames\" data-total=\"400\" data-xpad=\"10\" "
	    "data-charw=\"7.08\" data-factor=\"1\" data-unit=\"bytes\" "
	    "data-nametype=\"Function:\">\n");
	HAS(out, "<g data-s=\"0\" data-v=\"400\" data-d=\"0\"><title>all (400 "
	    "bytes, 100.00%)</title><rect x=\"10.0\" y=\"69.0\" "
	    "width=\"1180.0\" height=\"15.0\" fill=\"rgb(");
	HAS(out, "<g data-s=\"0\" data-v=\"400\" data-d=\"1\"><title>main (400 "
	    "bytes, 100.00%)</title><rect x=\"10.0\" y=\"53.0\" ");
	HAS(out, "<g data-s=\"100\" data-v=\"300\" data-d=\"2\"><title>a (300 "
	    "bytes, 75.00%)</title><rect x=\"305.0\" y=\"37.0\" "
	    "width=\"885.0\" height=\"15.0\" fill=\"rgb(");
	HAS(out, " rx=\"2\" ry=\"2\"/><text x=\"308.00\" y=\"47.5\">a</text>"
	    "</g>\n");
	cr_expect(eq(str, out + strlen(out) - 20, "]]></script>\n</svg>\n"),
	    "%s", out + strlen(out) - 20);
	free(out);
	profconv_profile_free(p);
}

/* A frame too narrow for 3 characters has no label; a wider one is cut
 * with "..": with 100 pixels and 7.08 a character, 14 fit, 12 of the
 * name and "..". */
static void
labels_cut_to_fit(void)
{
	struct profconv_profile *p;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	uint32_t f;
	char *out;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	f = add_fn(p, "abcdefghijklmnopqrstuvwxyz", "");
	SAMPLE(p, ((int64_t[]){ 1 }), LOC1(p, 0, 0x10, f, 1));
	o.width = 120;
	out = picture(p, &o);
	HAS(out, ">abcdefghijkl..</text>");
	free(out);
	o.width = 40;
	out = picture(p, &o);
	HAS(out, "</title><rect x=\"10.0\" y=\"37.0\" width=\"20.0\" ");
	HAS(out, "\"></text></g>");
	free(out);
	profconv_profile_free(p);
}

/* No samples: no frames, and the words that say so. */
static void
empty_picture(void)
{
	struct profconv_profile *p;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	char *out;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	out = picture(p, &o);
	cr_expect(zero(ptr, strstr(out, "<g data-s=")), "%s", out);
	HAS(out, ">no samples</text>");
	free(out);
	profconv_profile_free(p);
}

Test(svg_emit, documents_written)
{
	document_of_a_small_profile();
	labels_cut_to_fit();
	empty_picture();
}
