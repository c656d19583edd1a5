/* SPDX-License-Identifier: MIT */
/*
 * versions.c - the one check of an options struct's version, and what each
 * version of each public options struct looked like.
 *
 * A caller built against an older profconv.h passes an older layout: the
 * same fields, fewer of them (fields are only ever appended, each group
 * under a "Version N." comment in profconv.h).  Such a struct is read up
 * to where its version's layout ends and the rest keeps the defaults, as
 * libgit2 accepts versions 1..current.  When a field is appended, the
 * struct's version goes up in profconv.h and its list below gets the new
 * end.
 */

#include "config.h"

#include <string.h>

#include "base/base.h"

/* Where field F of struct T ends: a version's layout ends after its last
 * field (not at sizeof, which may count padding the caller lacks). */
#define PC_END(T, f) (offsetof(T, f) + sizeof(((T *)0)->f))

int
profconv__options_take(void *dst, const void *src,
    const struct pc_options_layout *l)
{
	unsigned int got, current = l->oldest + (unsigned int)l->n - 1;

	memcpy(dst, l->defaults, l->size);
	if (src == NULL)
		return 0;
	memcpy(&got, src, sizeof(got));
	if (got < l->oldest || got > current)
		return profconv__fail(PROFCONV_EINVAL, "%s options version %u "
		    "is not one this library reads (%u to %u)", l->what, got,
		    l->oldest, current);
	memcpy(dst, src, l->ends[got - l->oldest]);
	memcpy(dst, &current, sizeof(current));
	return 0;
}

#define LAYOUT(name, what, T, init, oldest, ...) \
	static const T name##_defaults = init; \
	static const size_t name##_ends[] = { __VA_ARGS__ }; \
	const struct pc_options_layout profconv__options_##name = { \
		what, oldest, name##_ends, PC_ARRAY_LEN(name##_ends), \
		&name##_defaults, sizeof(T) }

LAYOUT(read, "read", struct profconv_read_options, PROFCONV_READ_OPTIONS_INIT, 1,
    PC_END(struct profconv_read_options, threads),
    PC_END(struct profconv_read_options, progress_payload),
    PC_END(struct profconv_read_options, snapshot),
    sizeof(struct profconv_read_options));
LAYOUT(write, "write", struct profconv_write_options, PROFCONV_WRITE_OPTIONS_INIT, 1,
    PC_END(struct profconv_write_options, level),
    sizeof(struct profconv_write_options));
LAYOUT(view, "view", struct profconv_view_options, PROFCONV_VIEW_OPTIONS_INIT, 1,
    PC_END(struct profconv_view_options, payload),
    PC_END(struct profconv_view_options, jobs),
    PC_END(struct profconv_view_options, prune_from),
    PC_END(struct profconv_view_options, taghide),
    PC_END(struct profconv_view_options, wrappers_found),
    sizeof(struct profconv_view_options));
LAYOUT(diff, "diff", struct profconv_diff_options, PROFCONV_DIFF_OPTIONS_INIT, 1,
    PC_END(struct profconv_diff_options, by),
    PC_END(struct profconv_diff_options, view),
    PC_END(struct profconv_diff_options, cur_name),
    sizeof(struct profconv_diff_options));
LAYOUT(diff_print, "diff print", struct profconv_diff_print_options,
    PROFCONV_DIFF_PRINT_OPTIONS_INIT, 1,
    PC_END(struct profconv_diff_print_options, exact),
    sizeof(struct profconv_diff_print_options));
LAYOUT(trend, "trend", struct profconv_trend_options, PROFCONV_TREND_OPTIONS_INIT, 1,
    PC_END(struct profconv_trend_options, min_growth_share),
    PC_END(struct profconv_trend_options, unicode),
    PC_END(struct profconv_trend_options, list_snapshots),
    sizeof(struct profconv_trend_options));
/* Version 1 of the flame options was another struct (names and filters,
 * now the view's): it cannot be read as this one. */
LAYOUT(flame, "flame", struct profconv_flame_options, PROFCONV_FLAME_OPTIONS_INIT, 2,
    sizeof(struct profconv_flame_options));
LAYOUT(svg, "SVG", struct profconv_svg_options, PROFCONV_SVG_OPTIONS_INIT, 1,
    PC_END(struct profconv_svg_options, negate),
    PC_END(struct profconv_svg_options, palette_map),
    PC_END(struct profconv_svg_options, min_delta),
    sizeof(struct profconv_svg_options));
LAYOUT(speedscope, "speedscope", struct profconv_speedscope_options,
    PROFCONV_SPEEDSCOPE_OPTIONS_INIT, 1,
    sizeof(struct profconv_speedscope_options));
LAYOUT(graph, "graph", struct profconv_graph_options,
    PROFCONV_GRAPH_OPTIONS_INIT, 1,
    PC_END(struct profconv_graph_options, title),
    sizeof(struct profconv_graph_options));
LAYOUT(list, "list", struct profconv_list_options, PROFCONV_LIST_OPTIONS_INIT, 1,
    sizeof(struct profconv_list_options));
LAYOUT(report, "report", struct profconv_report_options,
    PROFCONV_REPORT_OPTIONS_INIT, 1,
    PC_END(struct profconv_report_options, payload),
    sizeof(struct profconv_report_options));
LAYOUT(print, "print", struct profconv_print_options, PROFCONV_PRINT_OPTIONS_INIT, 1,
    PC_END(struct profconv_print_options, top),
    PC_END(struct profconv_print_options, sample_type),
    PC_END(struct profconv_print_options, by_cum),
    PC_END(struct profconv_print_options, unit),
    PC_END(struct profconv_print_options, edgefraction),
    PC_END(struct profconv_print_options, comments),
    sizeof(struct profconv_print_options));
LAYOUT(symbolize, "symbolize", struct profconv_symbolize_options,
    PROFCONV_SYMBOLIZE_OPTIONS_INIT, 1,
    PC_END(struct profconv_symbolize_options, payload),
    PC_END(struct profconv_symbolize_options, demangle),
    PC_END(struct profconv_symbolize_options, progress),
    PC_END(struct profconv_symbolize_options, jobs),
    PC_END(struct profconv_symbolize_options, binary_report),
    sizeof(struct profconv_symbolize_options));
LAYOUT(trend_svg, "trend SVG", struct profconv_trend_svg_options,
    PROFCONV_TREND_SVG_OPTIONS_INIT, 1,
    sizeof(struct profconv_trend_svg_options));
