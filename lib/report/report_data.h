/* SPDX-License-Identifier: MIT */
/*
 * report_data.h - the data the report page's own views draw from
 * (report_data.c); the script that draws them is lib/page/explore.js.
 * May include: base/, model/model.h, names/, view/, write/write.h.
 */
#ifndef PROFCONV_REPORT_DATA_H
#define PROFCONV_REPORT_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* At most this many nodes, the heaviest (the fraction rises to it). */
#define PC_REPORT_TREE_NODES 20000

/*
 * Write PROF's call tree as the view with options VO shows it, one
 * frame per source line, as JSON in <script type="application/json"
 * id="live-data"> (no '<', '>' or '&' in it, so no name can end the
 * element): the sample types, the string table, the nodes (parent,
 * function, file, line, self and pruned (the sum of the dropped subtree
 * below it) per type; root first, parents before
 * children), the totals and what pruning at FRACTION (negative: none)
 * dropped, with pprof's "Showing nodes accounting for" and "Dropped N
 * nodes (cum <= C)" per type; at most BUDGET nodes (0: no bound) stay,
 * the cut rising above FRACTION as far as needed.  DEF is the type shown first.  Errors:
 * those of profconv_view_new(), PROFCONV_ENOMEM.
 */
int profconv__report_data(FILE *fp, const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def);
/* The same of V, the view profconv__report_data() would make (its
 * options', one frame per line). */
int profconv__report_data_view(FILE *fp, const struct profconv_view *v,
    double fraction, size_t budget, size_t def);

/*
 * The Explore tab (section id "live"): the controls, the top table and
 * the flame graph the script draws from the data above, TOP rows at
 * most in the table.  With BASE (NULL: none) the change from BASE to
 * PROF: one tree of both (the same node for the same path, "diff":
 * true, the base's values of PROF's types in the first half of the
 * columns, PROF's in the second), the table's base, current, change
 * and change in percent of the base's total, the flame graph coloured
 * by the change.  Errors: those of profconv__report_data().
 */
int profconv__report_live(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, size_t top);
/* The same of one profile, from its view V as
 * profconv__report_data_view() takes it. */
int profconv__report_live_view(FILE *fp, const struct profconv_view *v,
    double fraction, size_t budget, size_t def, size_t top);

/*
 * The same for the series S (profconv_report_series_add()): one tree
 * of its snapshots, each snapshot's values of its sample type in a
 * column, in the order of the N names ORDER (the trend's; NULL: as
 * added; a name not added is skipped), the cut on each node's largest
 * share of a snapshot's total.  Of more than PC_REPORT_SERIES_POINTS
 * columns, profconv__report_series_pick()'s are kept, and the tree
 * keeps at most PC_REPORT_SERIES_CELLS values (BUDGET falls to that
 * divided by the columns).  With the view's split_threads, the frames
 * below the root are threads, and the data says "threads": true.
 */
int profconv__report_data_series(FILE *fp, struct profconv_report_series *s,
    const char *const *order, size_t n, double fraction, size_t budget);
/*
 * Of the N snapshots of a series whose totals are TOTAL (in order), the
 * ones its page carries: at most PC_REPORT_SERIES_POINTS, picked as the
 * trend's picture picks them (profconv__trend_pick()); their indexes go
 * to OUT (room for N) in increasing order, and their count is returned.
 */
size_t profconv__report_series_pick(const int64_t *total, size_t n,
    size_t *out);
/* The Explore tab of a series: a snapshot in place of a sample type. */
int profconv__report_live_series(FILE *fp, struct profconv_report_series *s,
    const char *const *order, size_t n, double fraction, size_t budget,
    size_t top);

#endif /* PROFCONV_REPORT_DATA_H */
