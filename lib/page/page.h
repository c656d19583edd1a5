/* SPDX-License-Identifier: MIT */
/*
 * page.h - the HTML pages' own files: the report page's style sheet and
 * script (report.css, report.js), its Explore tab's (explore.css,
 * explore.js), and the source listing's (list_page.css, its page alone;
 * list.css, its tables, in its page or inside the report's).  Each is
 * a file in lib/page/ the build turns into a C string (embed.sh), so no
 * CSS or script is written in C; so are the pages' skeletons, whose
 * fragments profconv__page_put() writes with their holes filled.
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
/* The pages' skeletons: report.html, explore.html, list.html. */
extern const char profconv__page_report_html[];
extern const char profconv__page_explore_html[];
extern const char profconv__page_list_html[];

/* Write the value of the hole NAME (LEN bytes, not NUL-terminated). */
typedef void pc_page_fill(FILE *fp, const char *name, size_t len, void *arg);

/*
 * Write the fragment NAME of the skeleton PAGE: the lines after its
 * "@@ NAME" line up to the next "@@ " line, a line that ends in '\'
 * joined to the next (neither written), so that a fragment may end
 * inside a line.  A hole "@NAME@" in it is one of lib/page/'s files
 * (@report.css@), the version (@version@), or else FILL's to write.
 */
void profconv__page_put(FILE *fp, const char *page, const char *name,
    pc_page_fill *fill, void *arg);

/* Write TEXT escaped for the page (the caller's escaping). */
typedef void pc_page_text(FILE *fp, const char *text);

/* A hole and the text it is filled with. */
struct pc_page_hole {
	const char *name;
	const char *text;
};

/*
 * profconv__page_put() with the holes filled from the N HOLES, each
 * text through PUT (NULL: as it is); a hole not among them, or whose
 * text is NULL, is left empty.
 */
void profconv__page_put_holes(FILE *fp, const char *page, const char *name,
    const struct pc_page_hole *holes, size_t n, pc_page_text *put);

/*
 * Write the style sheet CSS, one rule a line ("SELECTORS { ... }"), with
 * each selector of a rule (split at ", ") under SCOPE: "h2, p { }" under
 * "div.x" is "div.x h2, div.x p { }", so that a page's rules reach only
 * its part of another page.
 */
void profconv__page_put_scoped(FILE *fp, const char *css, const char *scope);

#endif
