/* SPDX-License-Identifier: MIT */
/*
 * page.h - the HTML pages' own files: the report page's style sheet and
 * script (report.css, report.js), its Explore tab's (explore.css,
 * explore.js), and the source listing's (list_page.css, its page alone;
 * list.css, its tables, in its page or inside the report's).  Each is
 * a file in lib/page/ the build turns into a C string (embed.sh), so no
 * CSS or script is written in C.
 * May include: base/.
 */
#ifndef PROFCONV_PAGE_H
#define PROFCONV_PAGE_H

#include <stdio.h>

extern const char profconv__page_report_css[];
extern const char profconv__page_report_js[];
extern const char profconv__page_explore_css[];
extern const char profconv__page_explore_js[];
extern const char profconv__page_list_page_css[];
extern const char profconv__page_list_css[];

/*
 * Write a <style> element of the style sheet CSS, then MORE when not
 * NULL.  A sheet has one rule a line ("SELECTORS { ... }"); under SCOPE,
 * when not NULL, each selector of a rule (split at ", ") is put under
 * it: "h2, p { }" under "div.x" is "div.x h2, div.x p { }", so that a
 * page's rules reach only its part of another page.
 */
void profconv__page_style(FILE *fp, const char *css, const char *more,
    const char *scope);

#endif
