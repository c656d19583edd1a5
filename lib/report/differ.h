/* SPDX-License-Identifier: MIT */
/*
 * differ.h - the comparison's state, shared by diff.c (building it, the
 * reasons to doubt it), diff_table.c (its columns, table, JSON and rows
 * for other writers) and diff_retention.c (profdiff --still-at).
 * May include: base/, model/model.h, names/, view/, transform/,
 * write/write.h, report/.
 */
#ifndef PROFCONV_REPORT_DIFFER_H
#define PROFCONV_REPORT_DIFFER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "model/model.h"
#include "report/trend.h"
#include "view/view.h"
#include "write/write.h"

enum { HEAP_ALLOC_N, HEAP_ALLOC_B, HEAP_INUSE_N, HEAP_INUSE_B, HEAP_SLOTS };
enum { COL_BASE, COL_CUR, COL_DELTA };

struct profconv_diff {
	struct profconv_profile *delta;
	struct pc_rows *rows;	/* 3 * nt columns: base, cur, delta */
	size_t nt;
	int heap[HEAP_SLOTS];	/* slot of each heap counter */
	bool is_heap;
	bool leaks;
	bool stacks;		/* rows by stack */
	int64_t *totals;	/* 3 * nt: the views' totals */
	struct pc_hidden_list hidden;	/* what suppressions hid of delta */
};

/*
 * The Name column.  Rows by stack, unless the caller asks for them wide,
 * are named first, leaf first in at most PC_STACK_LABEL_WIDTH characters
 * (rows.c), so the numbers start on the first screen; other rows, last.
 */
struct name_col {
	bool first;		/* the stack labels, first */
	int width;		/* of the column when first */
	struct pc_textbuf tb;
	struct pc_stack_labels *sl;	/* of the rows shown, when first */
	const char **names;	/* their keys, while gathered */
	size_t n;
};

/* diff.c: the checks both comparisons make of their inputs, and the type
 * suppression reports count. */
int profconv__diff_same_types(const struct profconv_profile *a,
    const struct profconv_profile *b);
void profconv__diff_check_unrelated(const struct profconv_diff_options *o,
    const struct profconv_profile *a, const char *an,
    const struct profconv_profile *b, const char *bn);
void profconv__diff_check_inputs(struct profconv_diff_options *o,
    const struct profconv_profile *base, const struct profconv_profile *cur);
size_t profconv__diff_hidden_type(const struct profconv_profile *prof);

/* diff_table.c: the Name column and the values, as the table prints them
 * (the retention table prints the same way). */
int profconv__diff_add_name(struct name_col *nc, const char *name);
int profconv__diff_make_labels(struct name_col *nc);
const char *profconv__diff_shown_name(struct name_col *nc, size_t i,
    const char *name);
void profconv__diff_fit_name(struct name_col *nc, const char *name);
void profconv__diff_name_col_free(struct name_col *nc);
void profconv__diff_name_before(FILE *fp, struct name_col *nc,
    const char *shown);
void profconv__diff_name_after(FILE *fp, const struct name_col *nc,
    const char *shown);
void profconv__diff_print_value(FILE *fp, int width, int64_t v, bool bytes,
    bool exact);

#endif /* PROFCONV_REPORT_DIFFER_H */
