/* SPDX-License-Identifier: MIT */
/*
 * test_svg_web.c - the SVG pictures' style and script elements
 * (lib/write/svg_web.c): a style sheet's @font_size@, @font_type@ and
 * @title_size@ filled from the picture's style, the font family as XML
 * text, any other '@' left as it is; the line '@import "svg_search.css";'
 * replaced by the search's rules, holes filled on both sides of it; the
 * script element holding the shared search before the picture's own
 * script, inside one CDATA.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "write/write.h"

/* What WRITE writes, malloc'd. */
static char *
written(void (*write)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(not(zero(ptr, fp)));
	write(fp, arg);
	fclose(fp);
	return buf;
}

static const struct pc_svg_style *style_arg;

static void
put_style(FILE *fp, const void *sheet)
{
	profconv__svg_put_style(fp, sheet, style_arg);
}

static void
style_holes_filled(void)
{
	struct pc_svg_style st = { 0 };
	char *got;

	st.font_type = "Verdana & <x>";
	st.font_size = 12.5;
	style_arg = &st;
	got = written(put_style, "text { font-size: @font_size@px; "
	    "font-family: @font_type@; }\n#t { font-size: @title_size@px; }\n"
	    "a@b@c @nohole@ x@\n");
	cr_assert(eq(str, got, "<style type=\"text/css\">\n"
	    "text { font-size: 12.5px; font-family: Verdana &amp; &lt;x&gt;; }\n"
	    "#t { font-size: 17.5px; }\n"
	    "a@b@c @nohole@ x@\n</style>\n"));
	free(got);
}

/* Without a style, the sheet as it is, holes and all. */
static void
style_without_values(void)
{
	char *got;

	style_arg = NULL;
	got = written(put_style, "g { font-size: @font_size@px; }\n");
	cr_assert(eq(str, got, "<style type=\"text/css\">\n"
	    "g { font-size: @font_size@px; }\n</style>\n"));
	free(got);
}

/* The import line stands for the search's rules, once, where it is; the
 * holes before and after it are filled; without it, no search rules. */
static void
style_import_of_the_search(void)
{
	struct pc_svg_style st = { 0 };
	static const char head[] = "<style type=\"text/css\">\n"
	    "a { font-size: 10px; }\n#search, #ignorecase {";
	const char *rules;
	char *got;

	st.font_type = "serif";
	st.font_size = 10;
	style_arg = &st;
	got = written(put_style, "a { font-size: @font_size@px; }\n"
	    "@import \"svg_search.css\";\nb { font-family: @font_type@; }\n");
	cr_assert(eq(int, strncmp(got, head, sizeof(head) - 1), 0), "%s", got);
	rules = strstr(got, "#search:hover");
	cr_assert(not(zero(ptr, (void *)rules)), "%s", got);
	cr_assert(zero(ptr, strstr(rules + 1, "#search:hover")));
	cr_assert(zero(ptr, strstr(got, "@import")));
	cr_assert(not(zero(ptr, strstr(rules, "}\nb { font-family: serif; }\n"
	    "</style>\n"))), "%s", got);
	free(got);
	got = written(put_style, "a { }\n@import \"other.css\";\n");
	cr_assert(zero(ptr, strstr(got, "#search")));
	cr_assert(not(zero(ptr, strstr(got, "@import \"other.css\";"))));
	free(got);
}

static void
put_script(FILE *fp, const void *own)
{
	profconv__svg_put_script(fp, own);
}

/* The shared search first, the picture's own script after it, all in
 * one CDATA section that nothing inside ends early. */
Test(svg_web, script_search_then_own)
{
	const char *own = "function own_marker() { return 1; }\n";
	char *got = written(put_script, own);
	const char *open = "<script type=\"text/ecmascript\"><![CDATA[\n";
	const char *close = "]]></script>\n";
	const char *search, *mine;
	size_t n = strlen(got);

	cr_assert(eq(int, strncmp(got, open, strlen(open)), 0), "%s", got);
	cr_assert(n > strlen(close));
	cr_assert(eq(str, got + n - strlen(close), (char *)close));
	/* One CDATA end only: the one that closes it. */
	cr_assert(eq(ptr, strstr(got, "]]>"), got + n - strlen(close)));
	search = strstr(got, "ignorecase");
	mine = strstr(got, "own_marker");
	cr_assert(not(zero(ptr, (void *)search)), "no search in the script");
	cr_assert(not(zero(ptr, (void *)mine)));
	cr_assert(lt(ptr, (void *)search, (void *)mine));
	/* The picture's own script ends the section, as it was given. */
	cr_assert(eq(int, strncmp(got + n - strlen(close) - strlen(own), own,
	    strlen(own)), 0), "%s", got);
	free(got);
}

/* The style element: holes filled, or left without a style; the import. */
Test(svg_web, style_sheet_filled)
{
	style_holes_filled();
	style_without_values();
	style_import_of_the_search();
}
