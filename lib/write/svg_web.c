/* SPDX-License-Identifier: MIT */
/*
 * svg_web.c - the style and script elements of the library's SVG
 * pictures (profflame's, svg_emit.c; proftrend's, report/trendsvg.c):
 * the one place that writes them around the embedded files' text, so
 * that no other C file writes a style element (tests/policy/web-in-c.sh
 * allows this file's one line).  A sheet's line
 * '@import "svg_search.css";' stands for the search's rules, which both
 * pictures share as they share its script.
 */

#include "config.h"

#include <string.h>

#include "write/write.h"

/* Write the value of the template name N (N_LEN bytes, between '@'s) of
 * ST; 0 when it is not one of ours. */
static int
put_value(FILE *fp, const char *n, size_t n_len, const struct pc_svg_style *st)
{
	if (st == NULL)
		return 0;
	if (n_len == 9 && memcmp(n, "font_size", n_len) == 0)
		fprintf(fp, "%g", st->font_size);
	else if (n_len == 9 && memcmp(n, "font_type", n_len) == 0)
		profconv__xml_put(fp, st->font_type, (size_t)-1);
	else if (n_len == 10 && memcmp(n, "title_size", n_len) == 0)
		fprintf(fp, "%g", st->font_size + 5);
	else
		return 0;
	return 1;
}

/* Write the LEN bytes of sheet S with ST's values for its names. */
static void
put_sheet(FILE *fp, const char *s, size_t len, const struct pc_svg_style *st)
{
	const char *stop = s + len, *at, *end;

	while ((at = memchr(s, '@', (size_t)(stop - s))) != NULL &&
	    (end = memchr(at + 1, '@', (size_t)(stop - at - 1))) != NULL) {
		fwrite(s, 1, (size_t)(at - s), fp);
		if (put_value(fp, at + 1, (size_t)(end - at - 1), st)) {
			s = end + 1;
		} else {
			/* Not a name of ours: the '@' as it is. */
			putc('@', fp);
			s = at + 1;
		}
	}
	fwrite(s, 1, (size_t)(stop - s), fp);
}

/* The search's rules, and the line of a sheet that stands for them. */
static const char search_css[] =
#include "write/svg_search.css.h"
    ;
static const char search_import[] = "@import \"svg_search.css\";\n";

void
profconv__svg_put_style(FILE *fp, const char *sheet,
    const struct pc_svg_style *st)
{
	const char *imp = strstr(sheet, search_import);

	fputs("<style type=\"text/css\">\n", fp);
	if (imp != NULL) {
		put_sheet(fp, sheet, (size_t)(imp - sheet), st);
		fputs(search_css, fp);
		sheet = imp + sizeof(search_import) - 1;
	}
	put_sheet(fp, sheet, strlen(sheet), st);
	fputs("</style>\n", fp);
}

/* The search both pictures offer; each picture's own script uses it. */
static const char search[] =
#include "write/svg_search.js.h"
    ;

void
profconv__svg_put_script(FILE *fp, const char *own)
{
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n%s%s]]>"
	    "</script>\n", search, own);
}
