/* SPDX-License-Identifier: MIT */
/*
 * test_svg.c - the pieces of the picture writers: XML and JSON text, and
 * whole pictures of a profile whose names try to break them (colours:
 * test_svg_palette.c, palette maps: test_svg_palmap.c).
 */

#include <stdlib.h>
#include <string.h>

#include "svg_fixture.h"
#include "base/base.h"
#include "write/write.h"

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

/* S (LEN bytes) as the one JSON escaper writes it. */
static char *
capture_json(const char *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	profconv__json_string(fp, s, n);
	fclose(fp);
	return buf;
}

static void
xml_text(void)
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

/*
 * Every JSON writer (speedscope, the diff and trend JSON) spells a name
 * the same way: short escapes, other controls as \u00XX, bytes that are
 * not UTF-8 (a cut sequence at the end too) as U+FFFD, a NUL kept, and
 * U+2028/2029, which end a line in JavaScript, escaped.
 */
static void
json_text(void)
{
	static const char in[] = "a\"b\\c\nd\x01\xc3\xa9\xff\t\0"
	    "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80";
	char *s = capture_json(in, sizeof(in) - 1);

	cr_expect(eq(str, s, "\"a\\\"b\\\\c\\nd\\u0001\xc3\xa9\\ufffd\\t"
	    "\\u0000\\u2028\\u2029\\ufffd\\ufffd\""));
	free(s);
}

static void
grouped_digits(void)
{
	char buf[32];

	cr_expect(eq(str, profconv__group_digits(buf, 0), "0"));
	cr_expect(eq(str, profconv__group_digits(buf, 999), "999"));
	cr_expect(eq(str, profconv__group_digits(buf, 1234567), "1,234,567"));
	cr_expect(eq(str, profconv__group_digits(buf, -1000), "-1,000"));
	cr_expect(eq(str, profconv__group_digits(buf, INT64_MIN),
	    "-9,223,372,036,854,775,808"));
}

Test(svg, text_pieces_written)
{
	xml_text();
	json_text();
	grouped_digits();
}

/* A profile of two stacks whose function names hold markup. */
static struct profconv_profile *
hostile_profile(void)
{
	static const char *const names[] = { "main", "]]></script><script>x",
	    "a\"b<c>&d" };

	return two_stacks(names);
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
	cr_expect(eq(str, ERRMSG, "SVG options version 99 is not one this library "
	    "reads (1 to 4)"));
	o.version = PROFCONV_SVG_OPTIONS_VERSION;
	o.diff_width = (enum profconv_diff_width)7;
	cr_expect(eq(int, profconv_svg_write(v, v, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid differential width 7"));
	o.diff_width = PROFCONV_DIFF_WIDTH_DELTA;
	o.min_delta = 101;
	cr_expect(eq(int, profconv_svg_write(v, v, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid noise floor 101: 0 to 100 (percent "
	    "of the base's total) expected"));
	o.min_delta = 0.0 / 0.0;
	cr_expect(eq(int, profconv_svg_write(v, v, fp, &o), PROFCONV_EINVAL));
	o.min_delta = 0;
	o.diff_width = PROFCONV_DIFF_WIDTH_MAX;
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
	o.sample_type = NULL;
	o.font_type = "x{y}";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	/* Quotes that balance in number but nest, or stand inside a name,
	 * would end a CSS string early and run it into the style sheet. */
	o.font_type = "\"x'\" y 'z\"";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "'a\"b', \"c'd\"";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "Dejavu\"Sans\"";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "\"Sans\" Mono";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "\"\"";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "a,,b";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_type = "'DejaVu Sans Mono' ,Courier-New, \"x.y_z\" ";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), 0), "%s", ERRMSG);
	o.font_type = "\"DejaVu Sans\", monospace";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), 0), "%s", ERRMSG);
	o.notes = "a--b";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid notes 'a--b': '--' cannot be in an "
	    "XML comment"));
	o.notes = "a\x01";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.notes = NULL;
	o.total = 399;		/* the profile holds 400 */
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid total 399: less than the profile's "
	    "400"));
	o.total = 400;
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), 0));
	o.total = 0;
	o.hash = o.random = 1;
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.hash = 0;
	o.font_size = 0.5;
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.font_size = 0;
	o.factor = -1;
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	o.factor = 0;
	o.bgcolors = "#12345";
	cr_expect(eq(int, profconv_svg_write(v, NULL, fp, &o), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "invalid background '#12345': yellow, blue, "
	    "green, grey or #rrggbb expected"));
	so.version = 0;
	cr_expect(eq(int, profconv_speedscope_write(v, fp, &so),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "speedscope options version 0 is not one this "
	    "library reads (1 to 1)"));
	fclose(fp);
	profconv_view_free(v);
	profconv_profile_free(p);
}

