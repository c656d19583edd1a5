/* SPDX-License-Identifier: MIT */
/*
 * test_svg.c - the pieces of the picture writers: flamegraph.pl's colours
 * (values its Perl computes, from the project's notes), XML and JSON
 * text, and whole pictures of a profile whose names try to break them.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
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

#define EXPECT_RGB(c, R, G, B) do { \
	struct pc_rgb c_ = (c); \
	cr_expect(eq(int, c_.r, R)); \
	cr_expect(eq(int, c_.g, G)); \
	cr_expect(eq(int, c_.b, B)); \
} while (0)

/* A frame's colour as flamegraph.pl's default gives it. */
static struct pc_rgb
seeded(const char *palette, const char *name)
{
	const struct pc_palette *p = profconv__palette(palette);

	cr_assert(p != NULL, "%s", palette);
	return profconv__palette_color(p, name, false,
	    profconv__shade_seeded(name));
}

Test(svg, flamegraph_pl_colours)
{
	/* flamegraph.pl's default: srand(sum of code points), one rand(). */
	EXPECT_RGB(seeded("hot", "malloc"), 230, 119, 28);
	EXPECT_RGB(seeded("hot", ""), 213, 39, 9);
	cr_expect(profconv__palette("warm") == NULL);
	/* The seed sums code points, not bytes: "\u00e9t\u00e9" (233 + 116 +
	 * 233 = 582) is coloured as "tuuvr" (582). */
	{
		struct pc_rgb a = seeded("hot", "\xc3\xa9t\xc3\xa9");
		struct pc_rgb b = seeded("hot", "tuuvr");

		EXPECT_RGB(a, b.r, b.g, b.b);
	}
}

/* reverse(S), ASCII only. */
static void
reversed(const char *s, char *out)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n; i++)
		out[i] = s[n - 1 - i];
	out[n] = '\0';
}

Test(svg, name_hash)
{
	static const char *const names[] = { "malloc", "ab`cd", "`abc",
	    "abc`", "a`b`c", "``", "`", "", "libc.so`malloc`", "x``yz`",
	    "ab" };
	const struct pc_palette *hot = profconv__palette("hot");
	struct pc_shade m = profconv__shade_hash("malloc");
	char rev[32];
	size_t i;

	/* The notes' figures, checked against flamegraph.pl --hash. */
	cr_expect(fabs(m.v1 - 0.48903) < 1e-5, "%f", m.v1);
	cr_expect(fabs(m.v2 - 0.66458) < 1e-5, "%f", m.v2);
	cr_expect(m.v2 == m.v3);
	EXPECT_RGB(profconv__palette_color(hot, "malloc", false, m), 238, 112,
	    36);
	/* A module prefix up to a back-quote is not hashed... */
	cr_expect(profconv__shade_hash("libc.so.6`malloc").v1 == m.v1);
	/* ...nor one in first place; no name, 1. */
	cr_expect(profconv__shade_hash("`ab").v1 !=
	    profconv__shade_hash("ab").v1);
	cr_expect(profconv__shade_hash("").v1 == 1);
	/* The second number is the first of the name read backwards. */
	for (i = 0; i < PC_ARRAY_LEN(names); i++) {
		reversed(names[i], rev);
		cr_expect(profconv__shade_hash(names[i]).v2 ==
		    profconv__shade_hash(rev).v1, "%s", names[i]);
	}
}

/* The hue a palette gives NAME, told by its colour at shade 0. */
static const char *
hue(const char *palette, const char *name, bool waker)
{
	static const struct {
		const char *hue;
		struct pc_rgb c;
	} hues[] = {
		{ "red", { 200, 50, 50 } }, { "green", { 50, 200, 50 } },
		{ "aqua", { 50, 165, 165 } }, { "yellow", { 175, 175, 50 } },
		{ "orange", { 190, 90, 0 } }, { "blue", { 80, 80, 205 } },
		{ "grey", { 160, 160, 160 } }, { "light", { 200, 200, 200 } },
	};
	struct pc_rgb c = profconv__palette_color(profconv__palette(palette),
	    name, waker, (struct pc_shade){ 0, 0, 0 });
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(hues); i++)
		if (hues[i].c.r == c.r && hues[i].c.g == c.g &&
		    hues[i].c.b == c.b)
			return hues[i].hue;
	return "?";
}

Test(svg, language_palettes)
{
	/* java: annotations, JVM packages, C++, the rest. */
	cr_expect(eq(str, (char *)hue("java", "foo_[j]", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "std::foo_[i]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("java", "java/lang/Thread.run", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("java", "Lorg/x/Y;.z", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "xjava/lang", false), "red"));
	cr_expect(eq(str, (char *)hue("java", "a:::b", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "std::vector<int>::push_back",
	    false), "yellow"));
	cr_expect(eq(str, (char *)hue("java", "vfs_read_[k]", false),
	    "orange"));
	cr_expect(eq(str, (char *)hue("java", "malloc", false), "red"));
	/* perl */
	cr_expect(eq(str, (char *)hue("perl", "Foo::bar", false), "yellow"));
	cr_expect(eq(str, (char *)hue("perl", "Perl_pp_entersub", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("perl", "/usr/bin/x.pl", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("perl", "do_sys_open_[k]", false),
	    "orange"));
	cr_expect(eq(str, (char *)hue("perl", "main", false), "red"));
	/* js */
	cr_expect(eq(str, (char *)hue("js", "/app/a.js:3_[j]", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("js", "Builtin:Map_[j]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("js", "v8::internal::Heap", false),
	    "yellow"));
	cr_expect(eq(str, (char *)hue("js", "/app/src/index.js", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("js", "a.js/b", false), "red"));
	cr_expect(eq(str, (char *)hue("js", "LazyCompile:foo", false),
	    "aqua"));
	cr_expect(eq(str, (char *)hue("js", " ", false), "green"));
	cr_expect(eq(str, (char *)hue("js", "x_[k]y", false), "orange"));
	cr_expect(eq(str, (char *)hue("js", "uv_run", false), "red"));
	/* wakeup, chain, and the separators in every palette. */
	cr_expect(eq(str, (char *)hue("wakeup", "schedule", false), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "schedule", false), "blue"));
	cr_expect(eq(str, (char *)hue("chain", "schedule", true), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "wake_[w]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "--", true), "grey"));
	cr_expect(eq(str, (char *)hue("java", "-", false), "light"));
	cr_expect(eq(str, (char *)hue("hot", "--", false), "grey"));
}

Test(svg, random_shades)
{
	uint64_t a = 42, b = 42, c = 43;
	struct pc_shade x = profconv__shade_random(&a);
	struct pc_shade y = profconv__shade_random(&b);
	struct pc_shade z = profconv__shade_random(&c);
	int i;

	/* One seed, one sequence; another seed, another. */
	cr_expect(x.v1 == y.v1 && x.v2 == y.v2 && x.v3 == y.v3);
	cr_expect(x.v1 != z.v1);
	cr_expect(x.v1 != x.v2);
	for (i = 0; i < 1000; i++) {
		x = profconv__shade_random(&a);
		cr_assert(x.v1 >= 0 && x.v1 < 1 && x.v3 >= 0 && x.v3 < 1);
	}
}

Test(svg, backgrounds)
{
	const struct pc_palette *mem = profconv__palette("mem");
	char top[8], bottom[8];

	cr_expect(eq(int, profconv__background(mem, NULL, top, bottom), 0));
	cr_expect(eq(str, top, "#eef2ee"));
	cr_expect(eq(str, bottom, "#e0ffe0"));
	cr_expect(eq(int, profconv__background(profconv__palette("chain"),
	    NULL, top, bottom), 0));
	cr_expect(eq(str, bottom, "#e0e0ff"));
	cr_expect(eq(int, profconv__background(mem, "yellow", top, bottom), 0));
	cr_expect(eq(str, bottom, "#eeeeb0"));
	cr_expect(eq(int, profconv__background(mem, "#A0b0c0", top, bottom),
	    0));
	cr_expect(eq(str, top, "#A0b0c0"));
	cr_expect(eq(str, bottom, "#A0b0c0"));
	cr_expect(eq(int, profconv__background(mem, "#a0b0c", top, bottom),
	    -1));
	cr_expect(eq(int, profconv__background(mem, "#a0b0cg", top, bottom),
	    -1));
	cr_expect(eq(int, profconv__background(mem, "pink", top, bottom), -1));
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

/*
 * Every JSON writer (speedscope, the diff and trend JSON) spells a name
 * the same way: short escapes, other controls as \u00XX, bytes that are
 * not UTF-8 (a cut sequence at the end too) as U+FFFD, a NUL kept, and
 * U+2028/2029, which end a line in JavaScript, escaped.
 */
Test(svg, json_text)
{
	static const char in[] = "a\"b\\c\nd\x01\xc3\xa9\xff\t\0"
	    "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80";
	char *s = capture_json(in, sizeof(in) - 1);

	cr_expect(eq(str, s, "\"a\\\"b\\\\c\\nd\\u0001\xc3\xa9\\ufffd\\t"
	    "\\u0000\\u2028\\u2029\\ufffd\\ufffd\""));
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

/* The differential graph's fills and judgements: purple for new paths,
 * red and blue by the sign, white for no change; a frame judged by its
 * whole change, or with self_diff by its own. */
Test(svg, differential_fills)
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

static char *
map_text(const struct profconv_palette_map *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(eq(int, profconv_palette_map_write(m, fp), 0), "%s", ERRMSG);
	fclose(fp);
	return buf;
}

static int
map_read(struct profconv_palette_map *m, const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	int rc = profconv_palette_map_read(m, fp);

	fclose(fp);
	return rc;
}

Test(svg, palette_map_text)
{
	struct profconv_palette_map *m;
	char *t;

	cr_assert(eq(int, profconv_palette_map_new(&m), 0));
	/* Sorted by name on the way out; a later line wins; a name may hold
	 * "->" (C++'s operator->), the colour follows the last one. */
	cr_expect(eq(int, map_read(m, "zeta->rgb(1,2,3)\n"
	    "std::unique_ptr<T>::operator->->rgb(4,5,6)\n\n"
	    "alpha->rgb(7,8,9)\r\n\r\nzeta->rgb(10,11,12)\n"), 0), "%s",
	    ERRMSG);
	t = map_text(m);
	cr_expect(eq(str, t, "alpha->rgb(7,8,9)\n"
	    "std::unique_ptr<T>::operator->->rgb(4,5,6)\n"
	    "zeta->rgb(10,11,12)\n"));
	free(t);
	cr_expect(eq(int, map_read(m, "a->rgb(1,2,3)\nb->rgb(256,0,0)\n"),
	    PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "line 2: invalid colour 'rgb(256,0,0)' "
	    "(expected rgb(R,G,B), each 0 to 255)"));
	cr_expect(eq(int, map_read(m, "no arrow\n"), PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "line 1: no '->' between a name and a "
	    "colour"));
	cr_expect(eq(int, map_read(m, "a->rgb(1,2,3) \n"), PROFCONV_EFORMAT));
	cr_expect(eq(int, map_read(m, "a->rgb(-1,2,3)\n"), PROFCONV_EFORMAT));
	profconv_palette_map_free(m);
}

static char *
draw(const struct profconv_view *v, struct profconv_svg_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(eq(int, profconv_svg_write(v, NULL, fp, o), 0), "%s",
	    ERRMSG);
	fclose(fp);
	return buf;
}

Test(svg, palette_map_keeps_colours)
{
	struct profconv_profile *p = hostile_profile();
	struct profconv_view *v;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_palette_map *m;
	char *first, *second, *t;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	cr_assert(eq(int, profconv_palette_map_new(&m), 0));
	cr_assert(eq(int, map_read(m, "main->rgb(1,2,3)\n"), 0));
	o.minwidth = "0";
	o.palette_map = m;
	o.random = 1;
	o.random_seed = 1;
	first = draw(v, &o);
	/* The mapped name keeps its colour; the others were added. */
	cr_expect(strstr(first, "<title>main (400 bytes") != NULL);
	cr_expect(strstr(first, "fill=\"rgb(1,2,3)\"") != NULL);
	t = map_text(m);
	cr_expect(eq(sz, count(t, "\n"), 4), "%s", t);	/* "", 3 names */
	cr_expect(strncmp(t, "->rgb(", 6) == 0, "%s", t);
	cr_expect(strstr(t, "main->rgb(1,2,3)\n") != NULL, "%s", t);
	free(t);
	/* Another palette, another seed: the same colours. */
	o.random_seed = 2;
	o.colors = "aqua";
	/* (The background is the palette's: compare the frames.) */
	second = draw(v, &o);
	cr_expect(eq(str, strstr(second, "<g id=\"frames\""),
	    strstr(first, "<g id=\"frames\"")));
	o.palette_map = NULL;
	free(second);
	second = draw(v, &o);
	cr_expect(strcmp(strstr(second, "<g id=\"frames\""),
	    strstr(first, "<g id=\"frames\"")) != 0);
	free(first);
	free(second);
	profconv_palette_map_free(m);
	profconv_view_free(v);
	profconv_profile_free(p);
}
