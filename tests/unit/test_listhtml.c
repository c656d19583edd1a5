/* SPDX-License-Identifier: MIT */
/*
 * test_listhtml.c - the annotated listing as HTML (lib/report/
 * listhtml.c): routines, rows, value cells shaded by their share, gaps,
 * inlined calls, notes and escaping, from listings built by hand.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "report/list.h"
#include "view_helpers.h"

static char *out;
static struct pc_text text;

static void
teardown(void)
{
	free(out);
	out = NULL;
	free(text.mark);
	memset(&text, 0, sizeof(text));
}

TestSuite(listhtml, .fini = teardown);

/* Line 1 holds a NUL byte, line 2 markup, line 3 an indented call. */
static const char source[] = "int\0x;\n\tif (a < b && c)\n\t\tgo();\n";

static struct pc_source found = { "w.c", source, &text, NULL, NULL, false };
static struct pc_source withheld = { "/x/l.c", NULL, NULL, NULL,
	"/x/l.c (outside the source roots)", true };

/*
 * work<T> in w.c: line 1 empty, line 2 hot (flat 2, cum 8 of a total
 * of 8), go inlined at line 3 with -4 (a change), then 5 lines skipped,
 * and the listing's bound reached; lost, withheld; a&b, without source;
 * one routine more, not listed.
 */
static char *
write_listing(int page)
{
	static struct pc_list_row rows[] = {
		{ 1, 0, 0, 0, NULL, NULL, &found, false, 0 },
		{ 2, 2, 8, 0, NULL, NULL, &found, true, 0 },
		{ 3, -4, -4, 1, "go", "src/w.c", &found, true, 0 },
		{ 4, 0, 0, 0, NULL, NULL, &found, false, 5 },
		{ 9, 0, 0, 0, NULL, NULL, &found, false, 1 },
	};
	static struct pc_list_routine routines[] = {
		{ "work<T>", "w.c", 2, 8, &found, rows, 5, true },
		{ "lost", "/x/l.c", 0, 0, &withheld, NULL, 0, false },
		{ "a&b", NULL, 0, 0, NULL, NULL, 0, false },
	};
	struct pc_listing l = { 8, "count", "objects", false, routines, 3, 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	free(text.mark);
	memset(&text, 0, sizeof(text));
	cr_assert(eq(int, profconv__text_index(&text, source,
	    sizeof(source) - 1), 0));
	fp = open_memstream(&buf, &len);
	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(int, page ? profconv__list_write_html(&l, fp, "^w<") :
	    profconv__list_write_html_fragment(&l, fp), 0));
	fclose(fp);
	return buf;
}

#define HAS(s) cr_expect(not(zero(ptr, strstr(out, (s)))), "%s\n--\n%s", \
	(s), out)

/* The first routine to the byte: a cell's background is 0.08 + 0.7 of
 * its share of the total (2 of 8: 0.255; 8 of 8: 0.780; -4: 0.430 in
 * green); an inlined row is indented, named, its text's own indent
 * dropped; a NUL byte is U+FFFD. */
static void
routine_rows(void)
{
	out = write_listing(0);
	HAS("<section class=\"routine\">\n"
	    "<h2>work&lt;T&gt; in w.c</h2>\n"
	    "<p class=\"sum\">flat 2, cum 8,   100% of total</p>\n"
	    "<table class=\"src\">\n<tr><th>flat</th><th>cum</th>"
	    "<th>line</th><th></th></tr>\n"
	    "<tr class=\"line\"><td class=\"v\">.</td><td class=\"v\">.</td>"
	    "<td class=\"n\">1</td><td class=\"s\">int\xef\xbf\xbdx;</td></tr>\n"
	    "<tr class=\"line hot\"><td class=\"v\" style=\"background: "
	    "rgba(220, 40, 20, 0.255)\">2</td><td class=\"v\" style=\""
	    "background: rgba(220, 40, 20, 0.780)\">8</td><td class=\"n\">2"
	    "</td><td class=\"s\">\tif (a &lt; b &amp;&amp; c)</td></tr>\n"
	    "<tr class=\"inl hot\"><td class=\"v\" style=\"background: "
	    "rgba(20, 150, 60, 0.430)\">-4</td><td class=\"v\" style=\""
	    "background: rgba(20, 150, 60, 0.430)\">-4</td><td class=\"n\">3"
	    "</td><td class=\"s\" style=\"padding-left: 2cm\"><span "
	    "class=\"fn\">go w.c:3</span> go();</td></tr>\n"
	    "<tr class=\"gap\"><td class=\"v\">.</td><td class=\"v\">.</td>"
	    "<td class=\"n\">...</td><td class=\"s\">[5 lines not shown: far "
	    "from every line that holds something]</td></tr>\n"
	    "<tr class=\"gap\"><td class=\"v\">.</td><td class=\"v\">.</td>"
	    "<td class=\"n\">...</td><td class=\"s\">[1 line not shown: far "
	    "from every line that holds something]</td></tr>\n"
	    "</table>\n<p class=\"note\">Cut here: ");
}

/* A source withheld says what was tried; a routine without a file says
 * it has no source; the routines left out are counted. */
static void
notes(void)
{
	char want[256];

	out = write_listing(0);
	HAS("<h2>lost in /x/l.c</h2>\n");
	HAS("</p>\n<p class=\"note\">Source withheld; tried /x/l.c (outside "
	    "the source roots)</p>\n<table class=\"src\">");
	HAS("<section class=\"routine\">\n<h2>a&amp;b</h2>\n<p class=\"note\">"
	    "No source information</p>\n</section>\n");
	snprintf(want, sizeof(want), "<section class=\"routine\">\n"
	    "<p class=\"note\">1 more function not listed: %s.</p>\n"
	    "</section>\n", profconv__list_full);
	HAS(want);
	cr_expect(zero(ptr, strstr(out, "<h2>work<T>")), "names escaped");
}

/* The fragment goes into another page: its routines in a <div
 * class="pc-list">, after its scoped style; the page has the regex and
 * the type in its head, escaped, and the same routines. */
static void
fragment_and_page(void)
{
	const char *div, *routine, *end, *at;
	char *frag;

	out = write_listing(0);
	div = strstr(out, "<div class=\"pc-list\">");
	routine = strstr(out, "<section class=\"routine\">");
	cr_assert(not(zero(ptr, (void *)div)), "%s", out);
	cr_assert(not(zero(ptr, (void *)routine)));
	cr_expect(lt(ptr, (void *)div, (void *)routine));
	cr_expect(zero(ptr, strstr(out, "<html")));
	frag = out;
	out = write_listing(1);
	HAS("<title>profconv list ^w&lt;</title>");
	HAS("<h1>objects, total 8</h1>");
	/* The page's routines are the fragment's, to the byte. */
	for (end = NULL, at = routine; (at = strstr(at, "</section>\n"));
	    at++)
		end = at + strlen("</section>\n");
	cr_assert(not(zero(ptr, (void *)end)));
	frag[end - frag] = '\0';
	HAS(routine);
	free(frag);
}

/* A listing as HTML: its rows, its notes, as a fragment and a page;
 * each case frees what it wrote before the next. */
Test(listhtml, listing_as_html)
{
	routine_rows();
	teardown();
	notes();
	teardown();
	fragment_and_page();
}
