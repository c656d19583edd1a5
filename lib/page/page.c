/* SPDX-License-Identifier: MIT */
/*
 * page.c - the HTML pages' style sheets and scripts, embedded from the
 * files beside this one; a fragment of a skeleton with its holes filled;
 * a style sheet put under a scope.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profconv.h"
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
const char profconv__page_report_html[] =
#include "page/report.html.h"
	;
const char profconv__page_explore_html[] =
#include "page/explore.html.h"
	;
const char profconv__page_list_html[] =
#include "page/list.html.h"
	;

/* The holes every skeleton may have. */
static const struct {
	const char *name;
	const char *text;
} files[] = {
	{ "report.css", profconv__page_report_css },
	{ "report.js", profconv__page_report_js },
	{ "explore.css", profconv__page_explore_css },
	{ "explore.js", profconv__page_explore_js },
	{ "list_page.css", profconv__page_list_page_css },
	{ "list.css", profconv__page_list_css },
	{ "version", PROFCONV_VERSION_STRING },
};

/* A hole's name: letters, digits, '_' and '.'. */
static size_t
name_len(const char *s)
{
	size_t n = 0;

	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
	    s[n] == '_' || s[n] == '.')
		n++;
	return n;
}

/* Write LEN bytes of a fragment's text S, less each '\\' that ends a line
 * and its newline. */
static void
put_text(FILE *fp, const char *s, size_t len)
{
	const char *end = s + len, *p;

	for (p = s; (p = memchr(p, '\\', (size_t)(end - p))) != NULL; p++) {
		if (p + 1 == end || p[1] != '\n')
			continue;
		fwrite(s, 1, (size_t)(p - s), fp);
		s = ++p + 1;
	}
	fwrite(s, 1, (size_t)(end - s), fp);
}

void
profconv__page_put(FILE *fp, const char *page, const char *name,
    pc_page_fill *fill, void *arg)
{
	const char *s, *end, *at;
	size_t n = strlen(name), i;

	/* The fragment: after its "@@ NAME" line, up to the next "@@ ". */
	for (s = page; s != NULL; s = strstr(s, "\n@@ ")) {
		if (*s == '\n')
			s++;
		if (strncmp(s + 3, name, n) == 0 && s[3 + n] == '\n')
			break;
		s += 3;
	}
	if (s == NULL)
		return;
	s += 3 + n + 1;
	end = strstr(s - 1, "\n@@ ");
	end = end != NULL ? end + 1 : s + strlen(s);
	while (s < end) {
		at = memchr(s, '@', (size_t)(end - s));
		if (at == NULL)
			at = end;
		put_text(fp, s, (size_t)(at - s));
		if (at == end)
			break;
		n = name_len(at + 1);
		if (n == 0 || at + 1 + n >= end || at[1 + n] != '@') {
			putc('@', fp);
			s = at + 1;
			continue;
		}
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			if (strlen(files[i].name) == n &&
			    memcmp(files[i].name, at + 1, n) == 0)
				break;
		if (i < sizeof(files) / sizeof(files[0]))
			fputs(files[i].text, fp);
		else if (fill != NULL)
			fill(fp, at + 1, n, arg);
		s = at + n + 2;
	}
}

struct holes {
	const struct pc_page_hole *hole;
	size_t n;
	pc_page_text *put;
};

static void
fill_holes(FILE *fp, const char *name, size_t len, void *arg)
{
	const struct holes *h = arg;
	size_t i;

	for (i = 0; i < h->n; i++) {
		if (strlen(h->hole[i].name) != len ||
		    memcmp(h->hole[i].name, name, len) != 0)
			continue;
		if (h->hole[i].text == NULL)
			return;
		if (h->put != NULL)
			h->put(fp, h->hole[i].text);
		else
			fputs(h->hole[i].text, fp);
		return;
	}
}

void
profconv__page_put_holes(FILE *fp, const char *page, const char *name,
    const struct pc_page_hole *holes, size_t n, pc_page_text *put)
{
	struct holes h = { holes, n, put };

	profconv__page_put(fp, page, name, fill_holes, &h);
}

void
profconv__page_put_scoped(FILE *fp, const char *css, const char *scope)
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
