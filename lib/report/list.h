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
#include <sys/types.h>

#include <profconv.h>

/* --- source files (source.c) ---------------------------------------------- */

/* A file's text and where its lines start: every PC_SOURCE_MARK-th
 * line's start only, so that a file of newlines costs its size. */
#define PC_SOURCE_MARK 64
struct pc_text {
	const char *text;
	size_t len, line_count;
	size_t *mark;		/* start of line 1 + K * PC_SOURCE_MARK */
	size_t nmark;
	char *own;		/* what to free, or NULL */
	dev_t dev;
	ino_t ino;
};

/* Index TEXT (LEN bytes, borrowed) into T (its mark freed by the
 * caller) as Go's bufio.ScanLines splits lines.  Errors: ENOMEM. */
int profconv__text_index(struct pc_text *t, const char *text, size_t len);
/* Line N of T (1-based, without its '\r\n') into *TEXT and *LEN; false
 * when there is none. */
bool profconv__text_line(const struct pc_text *t, int64_t n,
    const char **text, size_t *len);

/* A source file as the listing asked for it. */
struct pc_source {
	char *name;		/* the file name as the profile has it */
	const char *text;	/* NULL when not found */
	const struct pc_text *body;	/* its text; shared by every name
					 * of the same file */
	char *path;		/* where it was found, or NULL */
	char *note;		/* not found: what was tried (one line) */
	bool withheld;		/* a candidate was outside the roots */
};

struct pc_sources;

/* Sources looked for as OPTS says (source_path, trim_path, find_source,
 * max_source); OPTS is borrowed and must outlive *OUT. */
int profconv__sources_new(struct pc_sources **out,
    const struct profconv_list_options *opts);
void profconv__sources_free(struct pc_sources *s);
/* Tests: check paths beneath a root without openat2(). */
void profconv__sources_no_openat2(struct pc_sources *s);

/*
 * Record that the profile's file name FILE was compiled in the build
 * directory DIR (absolute; the symbolizer read it from the DWARF in this
 * run): files beneath DIR are read when looking for FILE, as beneath
 * the other roots.  The first directory recorded for a file is kept.
 * Errors: PROFCONV_ENOMEM.
 */
int profconv__sources_build_dir(struct pc_sources *s, const char *file,
    const char *dir);

/*
 * Is FILE (the profile's name) one of the program's own sources: beneath
 * a source root or the build directory recorded for it; a relative name,
 * a regular file beneath a root?  Nothing is opened.
 */
bool profconv__source_own(struct pc_sources *s, const char *file);

/*
 * The at most MAX heaviest of the program's own functions in VIEW (their
 * files profconv__source_own() with O's source roots and PROF's build
 * directories), by value slot TI: each stack counts for the own frame
 * nearest its leaf (what it allocated itself or through library and
 * system code it called), magnitudes.  Their names (borrowed from VIEW)
 * into NAMES, heaviest first, their number into *N (0: none).  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__list_own_top(const struct profconv_view *view, size_t ti,
    const struct profconv_list_options *o, size_t max, const char **names,
    size_t *n);

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
	int64_t gap;		/* not 0: a row for this many lines from
				 * LINE on, not shown */
};

/* A function in one file, as go tool pprof's ROUTINE. */
struct pc_list_routine {
	const char *name;
	const char *file;	/* as displayed */
	int64_t flat, cum;
	const struct pc_source *src;
	struct pc_list_row *rows;
	size_t nrows;
	bool cut;		/* the listing's bound was reached in it */
};

struct pc_listing {
	int64_t total;
	const char *unit;	/* the sample type's unit */
	const char *type;	/* the sample type's name */
	bool diff;
	struct pc_list_routine *routines;
	size_t nroutines;
	size_t more;		/* routines after a cut, not listed */
};

/* Why a listing was cut, for a note. */
extern const char profconv__list_full[];

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
 * profconv_list_write() of the functions named exactly NAMES[0..N-1]
 * (no regex), drawn as profconv__list_write_html_fragment() draws it
 * (OPTS->html is not read), and stopped once about BUDGET bytes of page
 * are made (0: no budget; the page says where it was cut).  Errors: as
 * profconv_list_write(); PROFCONV_ENOTFOUND's message says no function
 * named has source information.
 */
int profconv__list_write_fragment(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *const *names,
    size_t n, FILE *fp, const struct profconv_list_options *opts,
    size_t budget);
/* The same of one profile from VIEW, the view by line the listing
 * would make of it with OPTS (with no focus or ignore): added up over
 * its stacks, merged or not, the sums are the same. */
int profconv__list_write_fragment_view(const struct profconv_view *view,
    const char *const *names, size_t n, FILE *fp,
    const struct profconv_list_options *opts, size_t budget);

#endif /* PROFCONV_REPORT_LIST_H */
