/* SPDX-License-Identifier: MIT */
/*
 * test_svg.c - the pieces of the picture writers: flamegraph.pl's colours
 * (values its Perl computes, from the project's notes), XML and JSON
 * text, and whole pictures of a profile whose names try to break them.
 */

#include <stdlib.h>

#include "helpers.h"
#include "internal.h"
#include "pictures.h"

static char *
capture_xml(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	profconv__xml_put(fp, s, max);
	fclose(fp);
	return buf;
}

static char *
capture_json(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	profconv__json_put(fp, s);
	fclose(fp);
	return buf;
}

#define EXPECT_RGB(c, R, G, B) do { \
	struct pc_rgb c_ = (c); \
	cr_expect(eq(int, c_.r, R)); \
	cr_expect(eq(int, c_.g, G)); \
	cr_expect(eq(int, c_.b, B)); \
} while (0)

Test(svg, flamegraph_pl_colours)
{
	const struct pc_palette *hot = profconv__palette("hot");

	cr_assert(hot != NULL);
	/* flamegraph.pl's default: srand(sum of code points), one rand(). */
	EXPECT_RGB(profconv__palette_color(hot, "malloc"), 230, 119, 28);
	EXPECT_RGB(profconv__palette_color(hot, ""), 213, 39, 9);
	cr_expect(profconv__palette("warm") == NULL);
	/* The seed sums code points, not bytes: "\u00e9t\u00e9" (233 + 116 +
	 * 233 = 582) is coloured as "tuuvr" (582). */
	{
		struct pc_rgb a = profconv__palette_color(hot, "\xc3\xa9t\xc3\xa9");
		struct pc_rgb b = profconv__palette_color(hot, "tuuvr");

		EXPECT_RGB(a, b.r, b.g, b.b);
	}
}

Test(svg, difference_colours)
{
	/* flamegraph.pl's example: largest change 150. */
	EXPECT_RGB(profconv__diff_color(150, 150), 255, 0, 0);
	EXPECT_RGB(profconv__diff_color(-100, 150), 70, 70, 255);
	EXPECT_RGB(profconv__diff_color(-10, 150), 196, 196, 255);
	EXPECT_RGB(profconv__diff_color(0, 150), 255, 255, 255);
}

Test(svg, xml_text)
{
	char *s;

	s = capture_xml("a<b>&\"c'", (size_t)-1);
	cr_expect(eq(str, s, "a&lt;b&gt;&amp;&quot;c&#39;"));
	free(s);
	/* Controls XML cannot hold, U+FFFE and bad UTF-8 become U+FFFD;
	 * tab stays. */
	s = capture_xml("x\x01y\tz\xef\xbf\xbe\xff", (size_t)-1);
	cr_expect(eq(str, s, "x\xef\xbf\xbdy\tz\xef\xbf\xbd\xef\xbf\xbd"));
	free(s);
	/* Cut by characters, before escaping: "&" counts one. */
	s = capture_xml("&\xc3\xa9xyz", 3);
	cr_expect(eq(str, s, "&amp;\xc3\xa9x"));
	free(s);
	cr_expect(eq(sz, profconv__utf8_chars("\xc3\xa9t\xc3\xa9"), 3));
}

Test(svg, json_text)
{
	char *s = capture_json("a\"b\\c\nd\x01\xc3\xa9\xff");

	cr_expect(eq(str, s, "\"a\\\"b\\\\c\\u000ad\\u0001\xc3\xa9\\ufffd\""));
	free(s);
}

Test(svg, grouped_digits)
{
	char buf[32];

	cr_expect(eq(str, profconv__group_digits(buf, 0), "0"));
	cr_expect(eq(str, profconv__group_digits(buf, 999), "999"));
	cr_expect(eq(str, profconv__group_digits(buf, 1234567), "1,234,567"));
	cr_expect(eq(str, profconv__group_digits(buf, -1000), "-1,000"));
	cr_expect(eq(str, profconv__group_digits(buf, INT64_MIN),
	    "-9,223,372,036,854,775,808"));
}

/* A profile of two stacks whose function names hold markup. */
static struct profconv_profile *
hostile_profile(void)
{
	static const char *const names[] = { "main", "]]></script><script>x",
	    "a\"b<c>&d" };
	struct profconv_profile *p;
	struct profconv_function fn = { 0 };
	struct profconv_line ln = { 0, 1, 0 };
	uint32_t loc[3], id;
	int64_t v[2] = { 3, 300 };
	size_t i;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "objects",
	    "count"), 0));
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
	for (i = 0; i < 3; i++) {
		fn.name = names[i];
		fn.file = "x.c";
		cr_assert(eq(int, profconv_profile_add_function(p, &fn, &id), 0));
		ln.function_id = id;
		cr_assert(eq(int, profconv_profile_add_location(p, 0,
		    0x1000 + i, &ln, 1, 0, &loc[2 - i]), 0));
	}
	/* Leaf first: hostile <- ]]> <- main, and main alone. */
	cr_assert(eq(int, profconv_profile_add_sample(p, loc, 3, v, NULL, 0), 0));
	v[0] = 1;
	v[1] = 100;
	cr_assert(eq(int, profconv_profile_add_sample(p, &loc[2], 1, v, NULL,
	    0), 0));
	return p;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay++;
	}
	return n;
}

Test(svg, hostile_names)
{
	struct profconv_profile *p = hostile_profile();
	struct profconv_view *v;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	fp = open_memstream(&buf, &len);
	o.minwidth = "0";
	cr_assert(eq(int, profconv_svg_write(v, NULL, fp, &o), 0), "%s",
	    ERRMSG);
	fclose(fp);
	/* Only our own script and CDATA section. */
	cr_expect(eq(sz, count(buf, "<script"), 1));
	cr_expect(eq(sz, count(buf, "]]>"), 1));
	cr_expect(strstr(buf, "<title>a&quot;b&lt;c&gt;&amp;d (300 bytes, "
	    "75.00%)</title>") != NULL);
	cr_expect(strstr(buf, "<title>all (400 bytes, 100.00%)</title>") != NULL);
	free(buf);

	buf = NULL;
	fp = open_memstream(&buf, &len);
	cr_assert(eq(int, profconv_speedscope_write(v, fp, NULL), 0));
	fclose(fp);
	cr_expect(strstr(buf, "{\"name\":\"a\\\"b<c>&d\"") != NULL, "%s", buf);
	cr_expect(strstr(buf, "\"weights\":[300,100]") != NULL ||
	    strstr(buf, "\"weights\":[100,300]") != NULL, "%s", buf);
	free(buf);
	profconv_view_free(v);
	profconv_profile_free(p);
}

Test(svg, bad_options)
{
	struct profconv_profile *p = hostile_profile();
	struct profconv_view *v;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_speedscope_options so =
	    PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	FILE *fp = fopen("/dev/null", "w");

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	o.version = 99;
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "SVG options version 99 is not 1"));
	o.version = PROFCONV_SVG_OPTIONS_VERSION;
	o.colors = "warm";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.colors = NULL;
	o.minwidth = "5px";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid minimum width '5px': pixels or a "
	    "percentage expected"));
	o.minwidth = NULL;
	o.sample_type = "nope";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o),
	    PROFCONV_ENOTFOUND));
	so.version = 0;
	cr_expect(eq(int, profconv_speedscope_write(v, fp, &so),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "speedscope options version 0 is not 1"));
	fclose(fp);
	profconv_view_free(v);
	profconv_profile_free(p);
}
