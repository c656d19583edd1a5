/* SPDX-License-Identifier: MIT */
/*
 * report_page.h - the report page's private parts shared by its files:
 * report.c (the page, its sections, a series) and report_views.c (the
 * views of one profile and its base).
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_PAGE_H
#define PROFCONV_REPORT_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <profconv.h>

/* Rows of the top table repeated in the summary. */
#define SUMMARY_TOP 5

/* Bytes of annotated source shown, in all. */
#define LISTING_MAX ((size_t)1 << 20)

/* The call graphs of at most GRAPH_TYPES sample types (report_views.c's
 * graphs_per_type). */
#define GRAPH_TYPES 4
/* Each graph reads every stack: over this many, the shown type's only. */
#define GRAPH_TYPES_STACKS 250000

/* A writer's output collected in memory (report.c). */
struct mem {
	FILE *fp;
	char *buf;
	size_t len;
};

/* A section of the page and its entry in the navigation (report.c). */
struct section {
	const char *id;
	const char *label;
};

/* One profile (and its base) as the views read it. */
struct ctx {
	const struct profconv_report_options *o;
	const struct profconv_profile *cur, *base;
	struct profconv_view *cv, *bv;
	/* The view by line that CV is too (profconv__view_by_function()),
	 * for the Explore and Source tabs; NULL when CV was made from the
	 * profile. */
	struct profconv_view *lv;
	size_t ti, nt;
	int64_t total;
	struct pc_rows *funcs;		/* flat, then cum, per type */
	size_t nfuncs;			/* rows with a value */
};

int profconv__report_summary(FILE *fp, struct ctx *c);

/*
 * profdiff's comparison table as a table that sorts on a click of a
 * header: its rows in its order (the change in bytes, or in the default
 * type, first), its signs, its TOTAL row (last, not sorted), through
 * diff.h: nothing is computed twice.
 */
int profconv__report_comparison(FILE *fp, struct ctx *c);

int profconv__report_top_table(FILE *fp, struct ctx *c);

int profconv__report_flame(FILE *fp, struct ctx *c);

int profconv__report_graphs_per_type(FILE *fp, struct ctx *c);

int profconv__report_graph(FILE *fp, struct ctx *c);

/*
 * The annotated source of the LIST_TOP heaviest of the program's own
 * functions (sources under a source root or their build directory, not
 * system headers or libraries), each stack counted for the own frame
 * nearest its leaf: a C++ function's allocations made in inlined
 * std::vector code are its own, and so are a runtime's made through its
 * allocation wrappers.  Without own functions (a comparison, or no
 * source under any root), the heaviest by flat.  Matched by name (one
 * regex of 100,000 names overflows regcomp's stack), made only as far
 * as the page shows it.  When LAST (the page's views and rows are not
 * read after), it frees C's views and rows (NULL after) before it makes
 * the listing's own view.
 */
int profconv__report_listing(FILE *fp, struct ctx *c, bool last);

int profconv__report_mem_open(struct mem *m);

/* Close M's stream; its text stays in M->buf (free it). */
int profconv__report_mem_close(struct mem *m);

/* An SVG a writer made, in a frame of its own. */
void profconv__report_frame(FILE *fp, const char *cls, const char *title,
    const struct mem *m);

void profconv__report_note(FILE *fp, const char *what, const char *msg);

void profconv__report_mem_free(struct mem *m);

void profconv__report_put(FILE *fp, const char *s);

/* Room for a number in decimal, its digits grouped or not. */
#define PC_REPORT_NUM 40

struct pc_page_hole;

/* The fragment NAME of report.html, its holes filled from the N HOLES,
 * their texts escaped (profconv__report_put). */
void profconv__report_piece(FILE *fp, const char *name,
    const struct pc_page_hole *holes, size_t n);

/* A value with thousands separators. */
void profconv__report_put_num(FILE *fp, int64_t v);

#endif
