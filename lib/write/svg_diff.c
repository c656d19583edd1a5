/* SPDX-License-Identifier: MIT */
/*
 * svg_diff.c - what makes a flame graph differential: one set of frame
 * ids over both views, each frame's change judged by the view layer's
 * rules (view/delta.c), its fill, the subtitle that says what the widths
 * and colours are, and the legend.
 */

#include "config.h"

#include <string.h>

#include "view/delta.h"
#include "view/view.h"
#include "write/write.h"

const char *
profconv__svg_frame_name(const struct pc_svg_names *n, uint32_t id,
    const char **fn)
{
	struct profconv_view_frame f;
	int rc = -1;

	if (id != 0 && id <= n->ncur)
		rc = profconv_view_frame(n->cur, id, &f);
	else if (id > n->ncur && id - n->ncur <= n->nextra)
		rc = profconv_view_frame(n->base, n->extra[id - n->ncur - 1],
		    &f);
	if (rc < 0) {
		*fn = "";	/* flamegraph.pl colours its root by "" */
		return "all";
	}
	*fn = *f.function != '\0' ? f.function : f.name;
	return f.name;
}

static uint64_t
magnitude(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

int64_t
profconv__svg_classify(struct pc_drawn *d, size_t n,
    const struct pc_delta_scale *s, const struct profconv_svg_options *o)
{
	uint64_t max = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pc_frame_sums *f = &d[i].sums;

		d[i].delta = o->self_diff ? f->self :
		    profconv__delta(f->base, f->cur);
		d[i].change = profconv__delta_change(s, d[i].delta, f->base,
		    f->cur);
		if (magnitude(d[i].delta) > max)
			max = magnitude(d[i].delta);
	}
	return max > INT64_MAX ? INT64_MAX : (int64_t)max;
}

struct pc_rgb
profconv__svg_diff_fill(const struct pc_drawn *d, int64_t maxdelta,
    bool negate)
{
	double t = (double)magnitude(d->delta) / (double)maxdelta;
	int64_t v = d->delta == INT64_MIN ? INT64_MIN + 1 : d->delta;

	switch (d->change) {
	case PC_SAME:
		return (struct pc_rgb){ 255, 255, 255 };
	case PC_NEW:	/* purple, from lavender to deep */
		return (struct pc_rgb){ (unsigned char)(240 - 70 * t),
		    (unsigned char)(215 - 135 * t),
		    (unsigned char)(250 - 30 * t) };
	default:
		return profconv__diff_color(negate ? -v : v, maxdelta);
	}
}

static const char *
width_text(enum profconv_diff_width w)
{
	switch (w) {
	case PROFCONV_DIFF_WIDTH_CUR: return "after";
	case PROFCONV_DIFF_WIDTH_BASE: return "before";
	case PROFCONV_DIFF_WIDTH_DELTA: return "|change| (pprof)";
	default: return "larger of before and after";
	}
}

void
profconv__svg_diff_subtitle(FILE *fp, const struct pc_svg_picture *pic)
{
	const struct profconv_svg_options *o = pic->opts;
	char n[64];

	if (o->subtitle != NULL) {
		profconv__xml_put(fp, o->subtitle, (size_t)-1);
		fputs(" \xc2\xb7 ", fp);
	}
	fprintf(fp, "widths: %s \xc2\xb7 colours: %s", width_text(
	    o->diff_width), o->self_diff ? "own change" :
	    "whole change (callees included)");
	if (o->min_delta > 0) {
		fprintf(fp, " \xc2\xb7 white under %g%% of before (%s ",
		    o->min_delta, profconv__svg_value(n, pic->scale->floor,
		    pic->style->factor));
		profconv__xml_put(fp, pic->countname, (size_t)-1);
		putc(')', fp);
	}
}

/* One swatch of the legend and its words at *X; *X moves past them. */
static void
swatch(FILE *fp, const struct pc_svg_picture *pic, double *x, double y,
    struct pc_rgb c, const char *words)
{
	double fs = pic->style->font_size;

	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%g\" height=\"%g\" "
	    "fill=\"rgb(%d,%d,%d)\" stroke=\"rgb(120,120,120)\" "
	    "stroke-width=\"0.5\"/><text x=\"%.1f\" y=\"%.1f\">", *x,
	    y - fs * 0.85, fs, fs, c.r, c.g, c.b, *x + fs * 1.4, y);
	profconv__xml_put(fp, words, (size_t)-1);
	fputs("</text>\n", fp);
	*x += fs * 1.4 + (double)profconv__utf8_chars(words) * fs *
	    pic->style->font_width + fs * 1.5;
}

void
profconv__svg_diff_legend(FILE *fp, const struct pc_svg_picture *pic,
    double y)
{
	struct pc_drawn grew = { .delta = 1, .change = PC_GREW };
	struct pc_drawn shrank = { .delta = -1, .change = PC_SHRANK };
	struct pc_drawn added = { .delta = 1, .change = PC_NEW };
	bool neg = pic->opts->negate != 0;
	double x = 10;
	char n[64];

	fputs("<g id=\"legend\">\n", fp);
	swatch(fp, pic, &x, y, profconv__svg_diff_fill(&grew, 1, neg),
	    "grew");
	swatch(fp, pic, &x, y, profconv__svg_diff_fill(&shrank, 1, neg),
	    "shrank or freed");
	swatch(fp, pic, &x, y, profconv__svg_diff_fill(&added, 1, neg),
	    "new");
	swatch(fp, pic, &x, y, (struct pc_rgb){ 255, 255, 255 },
	    "no change");
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">deepest colour: \xc2\xb1",
	    x, y);
	fputs(profconv__svg_value(n, pic->maxdelta, pic->style->factor), fp);
	putc(' ', fp);
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	fputs("</text>\n</g>\n", fp);
}
