/* SPDX-License-Identifier: MIT */
/*
 * page.c - the HTML pages' style sheets and scripts, embedded from the
 * files beside this one, and the element that holds a style sheet.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "page/page.h"

const char profconv__page_report_css[] =
#include "page/report.css.h"
	;
const char profconv__page_report_js[] =
#include "page/report.js.h"
	;
const char profconv__page_explore_css[] =
#include "page/explore.css.h"
	;
const char profconv__page_explore_js[] =
#include "page/explore.js.h"
	;
const char profconv__page_list_page_css[] =
#include "page/list_page.css.h"
	;
const char profconv__page_list_css[] =
#include "page/list.css.h"
	;

static void
put_scoped(FILE *fp, const char *css, const char *scope)
{
	const char *line, *end, *body, *sel, *comma;

	for (line = css; *line != '\0'; line = end + (*end != '\0')) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		body = memchr(line, '{', (size_t)(end - line));
		if (body == NULL || body == line) {
			/* Not a rule: as it is. */
			fprintf(fp, "%.*s\n", (int)(end - line), line);
			continue;
		}
		/* The selectors end before the space ahead of '{'. */
		for (sel = line; sel < body - 1; sel = comma) {
			comma = strstr(sel, ", ");
			if (comma == NULL || comma > body - 1)
				comma = body - 1;
			fprintf(fp, "%s %.*s", scope, (int)(comma - sel), sel);
			if (comma < body - 1) {
				fputs(", ", fp);
				comma += 2;
			}
		}
		fprintf(fp, "%.*s\n", (int)(end - body + 1), body - 1);
	}
}

void
profconv__page_style(FILE *fp, const char *css, const char *more,
    const char *scope)
{
	fputs("<style>\n", fp);
	if (scope != NULL)
		put_scoped(fp, css, scope);
	else
		fputs(css, fp);
	if (more != NULL && scope != NULL)
		put_scoped(fp, more, scope);
	else if (more != NULL)
		fputs(more, fp);
	fputs("</style>\n", fp);
}
