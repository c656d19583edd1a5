/* SPDX-License-Identifier: MIT */
/*
 * test_escape.c - names as XML, JSON and terminal text, and numbers with
 * thousands separators (lib/write/escape.c), against the XML 1.0 and
 * JSON (RFC 8259) rules and the escapes write.h promises.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "write/write.h"

/* What profconv__xml_put() writes of S, at most MAX characters. */
static char *
xml(const char *s, size_t max)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	profconv__xml_put(fp, s, max);
	fclose(fp);
	return text;
}

/* What profconv__json_string() writes of the LEN bytes at S. */
static char *
json(const char *s, size_t len)
{
	char *text = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&text, &n);

	cr_assert(fp != NULL);
	profconv__json_string(fp, s, len);
	fclose(fp);
	return text;
}

#define EXPECT_TEXT(got, want) do { \
	char *got_ = (got); \
	cr_expect(eq(str, got_, (char *)(want))); \
	free(got_); \
} while (0)

static void
xml_markup_and_characters_xml_cannot_hold(void)
{
	EXPECT_TEXT(xml("a<b&\"c'>", (size_t)-1),
	    "a&lt;b&amp;&quot;c&#39;&gt;");
	/* Tab and newline are XML text; CR is kept as a reference. */
	EXPECT_TEXT(xml("a\tb\nc\rd", (size_t)-1), "a\tb\nc&#13;d");
	/* C0 control, DEL, U+FFFE, a byte that starts no UTF-8: U+FFFD. */
	EXPECT_TEXT(xml("\x01|\x7f|\xef\xbf\xbe|\xff", (size_t)-1),
	    "\xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd");
	/* Well-formed UTF-8 stays (U+00E9, U+20AC). */
	EXPECT_TEXT(xml("caf\xc3\xa9 \xe2\x82\xac", (size_t)-1),
	    "caf\xc3\xa9 \xe2\x82\xac");
}

static void
xml_put_counts_characters_not_bytes(void)
{
	/* "h", U+00E9 (two bytes), then stop. */
	EXPECT_TEXT(xml("h\xc3\xa9llo", 2), "h\xc3\xa9");
	EXPECT_TEXT(xml("<<<", 1), "&lt;");
	EXPECT_TEXT(xml("abc", 0), "");
	cr_expect(eq(sz, profconv__utf8_chars("h\xc3\xa9llo"), 5));
	cr_expect(eq(sz, profconv__utf8_chars("\xe2\x82\xac"), 1));
	/* Bytes that are no UTF-8 count one each; a cut sequence too. */
	cr_expect(eq(sz, profconv__utf8_chars("\xff\xfe\xe2\x82"), 4));
}

static void
xml_clean(void)
{
	cr_expect(profconv__xml_clean("ok\tok caf\xc3\xa9"));
	cr_expect(not(profconv__xml_clean("a\nb")));
	cr_expect(not(profconv__xml_clean("\xef\xbf\xbf")));
	/* An overlong NUL: not UTF-8. */
	cr_expect(not(profconv__xml_clean("a\xc0\x80")));
	cr_expect(profconv__xml_clean(""));
}

Test(escape, json_strings_as_rfc_8259)
{
	EXPECT_TEXT(json("a\"b\\c", 5), "\"a\\\"b\\\\c\"");
	EXPECT_TEXT(json("\n\r\t\x01\x1f", 5), "\"\\n\\r\\t\\u0001\\u001f\"");
	/* The length counts, an embedded NUL included. */
	EXPECT_TEXT(json("a\0b", 3), "\"a\\u0000b\"");
	EXPECT_TEXT(json("abc", 2), "\"ab\"");
	/* Not UTF-8 (a lone lead byte, a sequence cut by the length). */
	EXPECT_TEXT(json("\xc0x", 2), "\"\\ufffdx\"");
	EXPECT_TEXT(json("\xc3\xa9", 1), "\"\\ufffd\"");
	/* U+2028, U+2029 escaped for JavaScript; DEL and U+00E9 kept. */
	EXPECT_TEXT(json("\xe2\x80\xa8\xe2\x80\xa9\x7f\xc3\xa9", 9),
	    "\"\\u2028\\u2029\x7f\xc3\xa9\"");
}

Test(escape, thousands_separators)
{
	char buf[32];

	cr_expect(eq(str, profconv__group_digits(buf, 0), "0"));
	cr_expect(eq(str, profconv__group_digits(buf, 999), "999"));
	cr_expect(eq(str, profconv__group_digits(buf, 1000), "1,000"));
	cr_expect(eq(str, profconv__group_digits(buf, 1234567), "1,234,567"));
	cr_expect(eq(str, profconv__group_digits(buf, -1234), "-1,234"));
	cr_expect(eq(str, profconv__group_digits(buf, INT64_MIN),
	    "-9,223,372,036,854,775,808"));
	cr_expect(eq(str, profconv__group_text(buf, "-1234567"), "-1,234,567"));
	cr_expect(eq(str, profconv__group_text(buf, "123456"), "123,456"));
	cr_expect(eq(str, profconv__group_text(buf, "12"), "12"));
}

Test(escape, terminal_text)
{
	struct pc_textbuf tb = { 0 };
	const char *plain = "dir\\file caf\xc3\xa9";
	const char *first;
	char esc[8];
	size_t len;

	/* Nothing to escape: S itself, backslash and all. */
	cr_expect(eq(ptr, (void *)profconv__text_safe(&tb, plain),
	    (void *)plain));
	first = profconv__text_safe(&tb, "\x1b[2J");
	cr_expect(eq(str, (char *)first, "\\x1b[2J"));
	cr_expect(eq(str, (char *)profconv__text_safe(&tb,
	    "a\xe2\x80\xae" "b\xc2\x85\x7f\xff"),
	    "a\\u202eb\\u0085\\x7f\\xff"));
	/* The next PC_TEXT_BUFS - 1 escapes leave the first one alone. */
	profconv__text_safe(&tb, "\x01");
	profconv__text_safe(&tb, "\x02");
	cr_expect(eq(str, (char *)first, "\\x1b[2J"));

	cr_expect(not(profconv__text_escape("\xc3\xa9z", &len, esc)));
	cr_expect(eq(sz, len, 2));
	cr_expect(profconv__text_escape("\xe2\x81\xa6z", &len, esc));
	cr_expect(eq(sz, len, 3));
	cr_expect(eq(str, esc, "\\u2066"));
	profconv__textbuf_free(&tb);
}

static void
svg_text_element(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	profconv__svg_put_text(fp, "t1", 1.5, 10, "func", "a<b");
	profconv__svg_put_text(fp, "t2", 0, 0, NULL, "x");
	fclose(fp);
	cr_expect(eq(str, text,
	    "<text id=\"t1\" x=\"1.5\" y=\"10.0\" class=\"func\">"
	    "a&lt;b</text>\n"
	    "<text id=\"t2\" x=\"0.0\" y=\"0.0\">x</text>\n"));
	free(text);
}

/* Names as XML text: escaped, cut by characters, checked, and inside
 * an SVG <text> element. */
Test(escape, xml_and_svg_text)
{
	xml_markup_and_characters_xml_cannot_hold();
	xml_put_counts_characters_not_bytes();
	xml_clean();
	svg_text_element();
}
