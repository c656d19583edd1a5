/* SPDX-License-Identifier: MIT */
/*
 * list.h - the annotated source listing's private parts: finding and
 * reading source files (source.c), the listing computed from views
 * (list.c) and its HTML page (listhtml.c).
 * May include: base/, model/model.h, names/, view/, write/write.h.
 */
#ifndef PROFCONV_REPORT_LIST_H
#define PROFCONV_REPORT_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <profconv.h>

/* --- source files (source.c) ---------------------------------------------- */

/* A source file as read: its text split into lines (1-based). */
struct pc_source {
	char *name;		/* the file name as the profile has it */
	char *text;		/* NULL when not found */
	size_t *line_off;	/* start of line I (1..line_count) at [I - 1] */
	size_t *line_len;
	size_t line_count;
	char *path;		/* where it was found, or NULL */
	char *note;		/* not found: what was tried (one line) */
};

struct pc_sources;

/* Sources looked for as OPTS says (source_path, trim_path, find_source,
 * max_source); OPTS is borrowed and must outlive *OUT. */
int profconv__sources_new(struct pc_sources **out,
    const struct profconv_list_options *opts);
void profconv__sources_free(struct pc_sources *s);

/*
 * The name a listing shows for FILE, as go tool pprof does: the trim
 * path's prefixes (or, without one, everything up to a directory named
 * as a search directory's last component) cut, then cleaned as Go's
 * filepath.Clean; malloc'd, NULL when memory ran out.
 */
char *profconv__source_display(const struct pc_sources *s, const char *file);

/*
 * The source of DISPLAY (a name from profconv__source_display() of ORIG,
 * the profile's own name), found in order: as pprof finds it (the trim
 * path, the search path and its parents; an absolute name as it is),
 * ORIG as the debug information records it, then the find_source
 * callback with BUILD_ID (hex; "" when unknown).  Read once and kept;
 * *OUT is borrowed from S, and stays where it is until S is freed.  A
 * file not found is no error: its text is
 * NULL and its note says what was tried.  Errors: PROFCONV_ENOMEM.
 */
int profconv__source_get(struct pc_sources *s, const char *display,
    const char *orig, const char *build_id, const struct pc_source **out);

/* Line N of SRC into *TEXT and *LEN; false when there is none. */
bool profconv__source_line(const struct pc_source *src, int64_t n,
    const char **text, size_t *len);

/* --- the listing (list.c) --------------------------------------------------- */

/* A row: a line of a routine (depth 0), or a line inlined under the row
 * before it of depth - 1. */
struct pc_list_row {
	int64_t line;
	int64_t flat, cum;
	uint32_t depth;
	const char *function;	/* inlined rows: the function inlined */
	const char *file;	/* inlined rows: its file, as displayed */
	const struct pc_source *src;
	bool has_value;		/* some sample went through it */
};

/* A function in one file, as go tool pprof's ROUTINE. */
struct pc_list_routine {
	const char *name;
	const char *file;	/* as displayed */
	int64_t flat, cum;
	const struct pc_source *src;
	struct pc_list_row *rows;
	size_t nrows;
};

struct pc_listing {
	int64_t total;
	const char *unit;	/* the sample type's unit */
	const char *type;	/* the sample type's name */
	bool diff;
	struct pc_list_routine *routines;
	size_t nroutines;
};

/* Value V in UNIT as go tool pprof prints it ("1.50MB", "12") into BUF. */
const char *profconv__list_value(char buf[48], int64_t v, const char *unit);
/* V of TOTAL as pprof's Percentage (" 4.56%", "  100%") into BUF. */
const char *profconv__list_percent(char buf[32], int64_t v, int64_t total);

/* --- the HTML page (listhtml.c) -------------------------------------------- */

int profconv__list_write_html(const struct pc_listing *l, FILE *fp,
    const char *regex);
/* The same tables without the page around them, to go into another
 * page: a <div class="pc-list"> and its style, every rule under it. */
int profconv__list_write_html_fragment(const struct pc_listing *l, FILE *fp);

/*
 * profconv_list_write() with the listing drawn as
 * profconv__list_write_html_fragment() draws it (OPTS->html is not
 * read).  Errors: as profconv_list_write().
 */
int profconv__list_write_fragment(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *regex, FILE *fp,
    const struct profconv_list_options *opts);

#endif /* PROFCONV_REPORT_LIST_H */
