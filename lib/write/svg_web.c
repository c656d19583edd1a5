/* SPDX-License-Identifier: MIT */
/*
 * svg_web.c - the style and script elements of the library's SVG
 * pictures (profflame's, svg_emit.c; proftrend's, report/trendsvg.c):
 * the one place that writes them around the embedded files' text, so
 * that no other C file writes a style element (tests/policy/web-in-c.sh
 * allows this file's one line).
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

void
profconv__svg_put_style(FILE *fp, const char *sheet,
    const struct pc_svg_style *st)
{
	const char *s = sheet, *at, *end;

	fputs("<style type=\"text/css\">\n", fp);
	while ((at = strchr(s, '@')) != NULL &&
	    (end = strchr(at + 1, '@')) != NULL) {
		fwrite(s, 1, (size_t)(at - s), fp);
		if (put_value(fp, at + 1, (size_t)(end - at - 1), st)) {
			s = end + 1;
		} else {
			/* Not a name of ours: the '@' as it is. */
			putc('@', fp);
			s = at + 1;
		}
	}
	fputs(s, fp);
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
