/* SPDX-License-Identifier: MIT */
/*
 * test_page.c - the HTML pages' skeletons (lib/page/page.c): a fragment
 * cut at its "@@ NAME" line, its holes filled from lib/page/'s files,
 * the version or the caller, a lone '@' kept; style sheets put under a
 * scope selector by selector.
 */

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "page/page.h"

/* The caller's holes: "[NAME]". */
static void
fill(FILE *fp, const char *name, size_t len, void *arg)
{
	(*(int *)arg)++;
	fprintf(fp, "[%.*s]", (int)len, name);
}

/* Fragment NAME of PAGE as written, malloc'd. */
static char *
put(const char *page, const char *name, pc_page_fill *f, int *calls)
{
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(not(zero(ptr, fp)));
	profconv__page_put(fp, page, name, f, calls);
	fclose(fp);
	return buf;
}

static const char page[] = "@@ head\n<h>@version@</h>\n"
    "@@ body\nA @x@ b@c d@@e\n@@ tail\nT @nohole\n";

static void
fragments_cut_at_their_lines(void)
{
	int calls = 0;
	char *s;

	s = put(page, "head", fill, &calls);
	cr_assert(eq(str, s, "<h>" PROFCONV_VERSION_STRING "</h>\n"));
	free(s);
	s = put(page, "body", fill, &calls);
	cr_assert(eq(str, s, "A [x] b@c d@@e\n"));
	free(s);
	cr_assert(eq(int, calls, 1));
	s = put(page, "tail", fill, &calls);
	cr_assert(eq(str, s, "T @nohole\n"));
	free(s);
	/* A name is matched whole; an unknown one writes nothing. */
	s = put(page, "hea", fill, &calls);
	cr_assert(eq(str, s, ""));
	free(s);
	s = put(page, "nope", fill, &calls);
	cr_assert(eq(str, s, ""));
	free(s);
}

/* lib/page/'s own files fill their holes; without FILL another hole
 * writes nothing. */
static void
file_holes_and_no_fill(void)
{
	static const char p[] = "@@ css\n<style>@list.css@</style>@mine@\n";
	char *s, *want;
	size_t n = strlen(profconv__page_list_css);

	cr_assert(gt(sz, n, 0));
	s = put(p, "css", NULL, NULL);
	want = malloc(n + 32);
	snprintf(want, n + 32, "<style>%s</style>\n", profconv__page_list_css);
	cr_assert(eq(str, s, want));
	free(want);
	free(s);
}

/* Each selector of a rule under the scope; other lines as they are. */
Test(page, scoped_rules)
{
	static const char css[] = "h2, p { color: red }\n"
	    ".a .b { x: 1 }\n/* note */\n{ odd }\ntd { y }";
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(not(zero(ptr, fp)));
	profconv__page_put_scoped(fp, css, "div.x");
	profconv__page_put_scoped(fp, "", "div.x");
	fclose(fp);
	cr_assert(eq(str, buf, "div.x h2, div.x p { color: red }\n"
	    "div.x .a .b { x: 1 }\n/* note */\n{ odd }\ndiv.x td { y }\n"));
	free(buf);
}

/* A pc_page_text that shows it was called: TEXT in capitals. */
static void
put_upper(FILE *fp, const char *text)
{
	for (; *text != '\0'; text++)
		putc(toupper((unsigned char)*text), fp);
}

/* A line that ends in '\' is joined to the next, so that fragment "a"
 * ends inside a line; holes from name/text pairs, through the given
 * escaping or as they are; "@@" is an '@' and a hole not given is empty. */
static void
fragments_and_holes_from_pairs(void)
{
	static const char skel[] = "@@ a\n<p>@x@ \\\n@y@\\\n@@ b\nb@@z@\n"
	    "@@ c\n";
	struct pc_page_hole h[] = { { "x", "one" }, { "y", "t&o" } };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(not(zero(ptr, fp)));
	profconv__page_put_holes(fp, skel, "a", h, 2, put_upper);
	profconv__page_put_holes(fp, skel, "b", h, 2, NULL);
	fclose(fp);
	cr_assert(eq(str, buf, "<p>ONE T&Ob@\n"));
	free(buf);
}

/* Fragments cut at their lines, their holes filled from files or pairs. */
Test(page, fragments_and_their_holes)
{
	fragments_cut_at_their_lines();
	file_holes_and_no_fill();
	fragments_and_holes_from_pairs();
}
