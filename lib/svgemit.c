/* SPDX-License-Identifier: MIT */
/*
 * svgemit.c - the SVG text of a laid-out flame graph: flamegraph.pl's
 * document structure (frames as <g> with <title>, <rect>, <text> inside
 * <g id="frames">), our own style sheet and script (lib/flamegraph.js).
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "pictures.h"

#define XPAD 10
#define FONT_SIZE 12
#define CHAR_WIDTH (FONT_SIZE * 0.59)
#define FRAME_PAD 1
#define YPAD_TITLE (FONT_SIZE * 3)
#define YPAD_DETAILS (FONT_SIZE * 2 + 10)
#define YPAD_SUBTITLE (FONT_SIZE * 2)

static const char script[] =
#include "flamegraph-js.h"
    ;

static const char style[] =
	"text { font-family: Verdana, sans-serif; font-size: 12px; "
	"fill: rgb(0,0,0); }\n"
	"#title { text-anchor: middle; font-size: 17px; }\n"
	"#subtitle { text-anchor: middle; }\n"
	"#matched { text-anchor: end; }\n"
	"#search, #ignorecase { opacity: 0.1; cursor: pointer; }\n"
	"#search:hover, #search.show, #ignorecase:hover, #ignorecase.show "
	"{ opacity: 1; }\n"
	"#unzoom { cursor: pointer; }\n"
	"#frames > *:hover { stroke: black; stroke-width: 0.5; "
	"cursor: pointer; }\n"
	".hide { display: none; }\n"
	".parent { opacity: 0.5; }\n";

static double
tenths(double x)
{
	return round(x * 10) / 10;
}

static const char *
frame_name(const struct pc_svg_picture *pic, uint32_t id, const char **fn)
{
	struct profconv_view_frame f;

	if (id == 0 || profconv_view_frame(pic->cur, id, &f) < 0) {
		*fn = "all";
		return "all";
	}
	*fn = *f.function != '\0' ? f.function : f.name;
	return f.name;
}

/* "name (1,234 bytes, 5.67%)", and "; +1.23%" of change when differential. */
static void
put_title(FILE *fp, const struct pc_svg_picture *pic,
    const struct pc_drawn *d, const char *name)
{
	char n[32];
	double share = 100.0 * (double)d->width / (double)pic->total;

	profconv__xml_put(fp, name, (size_t)-1);
	fprintf(fp, " (%s ", profconv__group_digits(n, d->width));
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	fprintf(fp, ", %.2f%%", share);
	if (pic->diff) {
		int64_t delta = pic->opts->negate ? -d->delta : d->delta;
		double pct = 100.0 * (double)delta / (double)pic->total;

		if (delta == 0)
			fputs("; 0.00%", fp);
		else
			fprintf(fp, "; %+.2f%%", pct);
	}
	putc(')', fp);
}

/* The label: as much of the name as fits, ".." where it was cut. */
static void
put_label(FILE *fp, const char *name, double x1, double x2)
{
	int chars = (int)((x2 - x1) / CHAR_WIDTH);

	if (chars < 3)
		return;
	if (profconv__utf8_chars(name) <= (size_t)chars) {
		profconv__xml_put(fp, name, (size_t)-1);
		return;
	}
	profconv__xml_put(fp, name, (size_t)chars - 2);
	fputs("..", fp);
}

static void
put_frame(FILE *fp, const struct pc_svg_picture *pic,
    const struct pc_drawn *d)
{
	const char *fn, *name = frame_name(pic, d->frame, &fn);
	double x1 = XPAD + (double)d->start * pic->per_value;
	double x2 = XPAD + (double)(d->start + d->width) * pic->per_value;
	double y1, y2;
	struct pc_rgb c;

	if (pic->opts->inverted) {
		y1 = YPAD_TITLE + (pic->opts->subtitle != NULL ?
		    YPAD_SUBTITLE : 0) + (double)d->depth * pic->fheight;
		y2 = y1 + pic->fheight - FRAME_PAD;
	} else {
		y2 = (double)pic->height - YPAD_DETAILS -
		    (double)d->depth * pic->fheight;
		y1 = y2 - pic->fheight + FRAME_PAD;
	}
	if (pic->diff)
		c = profconv__diff_color(pic->opts->negate ? -d->delta :
		    d->delta, pic->maxdelta);
	else
		c = profconv__palette_color(pic->palette, fn);
	fprintf(fp, "<g data-s=\"%" PRId64 "\" data-v=\"%" PRId64
	    "\" data-d=\"%" PRIu32 "\"><title>", d->start, d->width, d->depth);
	put_title(fp, pic, d, d->frame == 0 ? "all" : name);
	fprintf(fp, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\" fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>"
	    "<text x=\"%.2f\" y=\"%.1f\">", tenths(x1), y1,
	    tenths(x2) - tenths(x1), y2 - y1, c.r, c.g, c.b, x1 + 3,
	    3 + (y1 + y2) / 2);
	put_label(fp, d->frame == 0 ? "all" : name, x1, x2);
	fputs("</text></g>\n", fp);
}

static void
put_text(FILE *fp, const char *id, double x, double y, const char *cls,
    const char *text)
{
	fprintf(fp, "<text id=\"%s\" x=\"%.1f\" y=\"%.1f\"%s%s%s>", id, x, y,
	    cls != NULL ? " class=\"" : "", cls != NULL ? cls : "",
	    cls != NULL ? "\"" : "");
	profconv__xml_put(fp, text, (size_t)-1);
	fputs("</text>\n", fp);
}

static void
put_head(FILE *fp, const struct pc_svg_picture *pic)
{
	const struct profconv_svg_options *o = pic->opts;
	const char *top, *bottom;
	unsigned int w = pic->width, h = pic->height;

	profconv__palette_background(pic->palette, &top, &bottom);
	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg version=\"1.1\" width=\"%u\" height=\"%u\" "
	    "viewBox=\"0 0 %u %u\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<!-- Flame graph by profflame (profconv %s); click a frame to "
	    "zoom, Ctrl-F to search. -->\n"
	    "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" "
	    "x1=\"0\" x2=\"0\"><stop stop-color=\"%s\" offset=\"5%%\"/>"
	    "<stop stop-color=\"%s\" offset=\"95%%\"/></linearGradient>"
	    "</defs>\n<style type=\"text/css\">\n%s</style>\n"
	    "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
	    "fill=\"url(#background)\"/>\n", w, h, w, h,
	    PROFCONV_VERSION_STRING, top, bottom, style, w, h);
	put_text(fp, "title", w / 2.0, FONT_SIZE * 2, NULL, o->title != NULL ?
	    o->title : o->inverted ? "Icicle Graph" : "Flame Graph");
	if (o->subtitle != NULL)
		put_text(fp, "subtitle", w / 2.0, FONT_SIZE * 4, NULL,
		    o->subtitle);
	put_text(fp, "details", XPAD, h - YPAD_DETAILS / 2.0, NULL, " ");
	put_text(fp, "unzoom", XPAD, FONT_SIZE * 2, "hide", "Reset Zoom");
	put_text(fp, "search", w - XPAD - 100, FONT_SIZE * 2, NULL, "Search");
	put_text(fp, "ignorecase", w - XPAD - 16, FONT_SIZE * 2, NULL, "ic");
	put_text(fp, "matched", w - XPAD, h - YPAD_DETAILS / 2.0, NULL, " ");
}

int
profconv__svg_emit(FILE *fp, const struct pc_svg_picture *pic)
{
	size_t i;

	put_head(fp, pic);
	fprintf(fp, "<g id=\"frames\" data-total=\"%" PRId64 "\" "
	    "data-xpad=\"%d\" data-charw=\"%.2f\" data-unit=\"", pic->total,
	    XPAD, CHAR_WIDTH);
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	fputs("\">\n", fp);
	for (i = 0; i < pic->ndrawn; i++)
		put_frame(fp, pic, &pic->drawn[i]);
	fputs("</g>\n", fp);
	if (pic->ndrawn == 0)
		put_text(fp, "empty", pic->width / 2.0, pic->height / 2.0,
		    NULL, "no samples");
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]>"
	    "</script>\n</svg>\n", script);
	return 0;
}
