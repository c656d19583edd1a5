/* SPDX-License-Identifier: MIT */
/*
 * svg_emit.c - the SVG text of a laid-out flame graph: flamegraph.pl's
 * document structure (frames as <g> with <title>, <rect>, <text> inside
 * <g id="frames">), our own style sheet and script (svg_script.js).
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "names/names.h"
#include "view/graph.h"
#include "write/write.h"

#define XPAD 10
#define FRAME_PAD 1
#define DEFAULT_FONT "Verdana, sans-serif"

static const char script[] =
#include "write/svg_script.js.h"
    ;

static const char style[] =
#include "write/svg_style.css.h"
    ;

/* State while the frames are written. */
struct emit {
	FILE *fp;
	const struct pc_svg_picture *pic;
	uint64_t random;		/* --random's generator */
	struct {
		uint32_t depth;
		bool waker;		/* it or a caller is a "--" frame */
	} *path;			/* the callers of the current frame */
	size_t npath, path_cap;
	char *name;			/* a waker frame's name + "_[w]" */
	size_t name_cap;
};

/* --- options ----------------------------------------------------------------- */

static int
bad(const char *what, const char *value, const char *expected)
{
	return profconv__fail(PROFCONV_EINVAL, "invalid %s '%.60s': %s", what,
	    value, expected);
}

/* Skip one name of a font-family list at *P, with the spaces around it:
 * a whole name in quotes that holds no quote, or a name without quotes.
 * False when there is no such name (quotes that nest or stand inside a
 * name would end a CSS string early, and the style sheet with it). */
static bool
font_name(const char **p)
{
	const char *s = *p + strspn(*p, " ");
	size_t len = 0;
	char q = *s;

	if (q == '"' || q == '\'') {
		for (s++; *s != q; s++, len++)
			if (*s == '\0' || *s == '"' || *s == '\'')
				return false;
		s++;
	} else {
		for (; *s != '\0' && *s != ','; s++) {
			if (*s == '"' || *s == '\'')
				return false;
			len += *s != ' ';
		}
	}
	*p = s + strspn(s, " ");
	return len > 0;
}

/* A CSS font-family list: names, quoted or not, and commas.  Anything
 * that could end the declaration or the style sheet is refused. */
static bool
font_ok(const char *s)
{
	const char *p;

	if (*s == '\0' || !profconv__utf8_valid(s, strlen(s)))
		return false;
	for (p = s; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x80 && !(c >= '0' && c <= '9') &&
		    !((c | 0x20) >= 'a' && (c | 0x20) <= 'z') &&
		    strchr(" ,-_.\"'", c) == NULL)
			return false;
	}
	for (;;) {
		if (!font_name(&s))
			return false;
		if (*s != ',')
			return *s == '\0';
		s++;
	}
}

static int
check_numbers(const struct profconv_svg_options *o, struct pc_svg_style *st)
{
	char v[32];

	st->font_size = o->font_size != 0 ? o->font_size : 12;
	st->font_width = o->font_width != 0 ? o->font_width : 0.59;
	st->factor = o->factor != 0 ? o->factor : 1;
	if (!(st->font_size >= 1 && st->font_size <= 1000)) {
		snprintf(v, sizeof(v), "%g", o->font_size);
		return bad("font size", v, "1 to 1000 pixels expected");
	}
	if (!(st->font_width >= 0.01 && st->font_width <= 10)) {
		snprintf(v, sizeof(v), "%g", o->font_width);
		return bad("font width", v, "0.01 to 10 (a share of the font "
		    "size) expected");
	}
	if (!(st->factor > 0 && st->factor <= 1e12)) {
		snprintf(v, sizeof(v), "%g", o->factor);
		return bad("factor", v, "a positive number up to 1e12 expected");
	}
	if (o->total < 0) {
		snprintf(v, sizeof(v), "%" PRId64, o->total);
		return bad("total", v, "a positive count expected");
	}
	return 0;
}

int
profconv__svg_style(const struct profconv_svg_options *o,
    const struct pc_palette *p, struct pc_svg_style *st)
{
	int rc = check_numbers(o, st);

	if (rc < 0)
		return rc;
	st->font_type = o->font_type != NULL ? o->font_type : DEFAULT_FONT;
	st->nametype = o->nametype != NULL ? o->nametype : "Function:";
	st->pad_title = st->font_size * 3;
	st->pad_details = st->font_size * 2 + 10;
	st->pad_subtitle = st->font_size * 2;
	if (!font_ok(st->font_type))
		return bad("font", st->font_type, "CSS font names (letters, "
		    "digits, spaces, '-', '_', '.'), each quoted or not, "
		    "separated by commas expected");
	if (o->notes != NULL && strstr(o->notes, "--") != NULL)
		return bad("notes", o->notes, "'--' cannot be in an XML "
		    "comment");
	if (o->notes != NULL && !profconv__xml_clean(o->notes))
		return bad("notes", o->notes, "control characters and bad "
		    "UTF-8 cannot be in an XML comment");
	if (o->hash && o->random)
		return profconv__fail(PROFCONV_EINVAL, "hash and random "
		    "colours exclude each other");
	if (profconv__background(p, o->bgcolors, st->bg_top,
	    st->bg_bottom) < 0)
		return bad("background", o->bgcolors, "yellow, blue, green, "
		    "grey or #rrggbb expected");
	return 0;
}

/* The rows above the frames: the subtitle's (a differential graph
 * always has one) and the legend's. */
static double
pad_top(const struct pc_svg_style *st, const struct profconv_svg_options *o)
{
	return (o->subtitle != NULL || o->facts || st->pad_legend > 0 ?
	    st->pad_subtitle : 0) + st->pad_legend;
}

double
profconv__svg_height(const struct pc_svg_style *st,
    const struct profconv_svg_options *o, unsigned int maxdepth,
    unsigned int fheight)
{
	return (double)(maxdepth + 1) * fheight + st->pad_title +
	    st->pad_details + pad_top(st, o);
}

/* --- frames ------------------------------------------------------------------ */

static double
tenths(double x)
{
	return round(x * 10) / 10;
}

/* The frame's name (for the title and label) and the name that chooses
 * its colour (its function's, the same at every line of it). */
static const char *
frame_name(const struct pc_svg_picture *pic, uint32_t id, const char **fn)
{
	return profconv__svg_frame_name(pic->names, id, fn);
}

/* V times --factor, as flamegraph.pl prints it: to the nearest whole
 * number (half to even), with thousands separators.  A value times a
 * factor up to 1e12 has at most 32 digits; BUF holds them grouped. */
static char *
shown_value(char *buf, int64_t v, double factor)
{
	char digits[64];

	if (factor == 1)
		return profconv__group_digits(buf, v);
	snprintf(digits, sizeof(digits), "%.0f", (double)v * factor);
	return profconv__group_text(buf, digits);
}

char *
profconv__svg_value(char *buf, int64_t v, double factor)
{
	return shown_value(buf, v, factor);
}

/* V of the picture's type in pprof's units ("4.08MB"), then exactly. */
static void
put_total(FILE *fp, const struct pc_svg_picture *pic, int64_t v)
{
	char n[64];

	if (pic->style->factor == 1 && *pic->unit != '\0') {
		profconv__xml_put(fp, profconv__measure_label(n, sizeof(n), v,
		    pic->unit, "auto"), (size_t)-1);
		fputs(" (", fp);
	}
	fputs(shown_value(n, v, pic->style->factor), fp);
	putc(' ', fp);
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	if (pic->style->factor == 1 && *pic->unit != '\0')
		putc(')', fp);
}

void
profconv__svg_facts(FILE *fp, const struct pc_svg_picture *pic)
{
	const char *src = pic->opts->source;

	profconv__xml_put(fp, pic->type, (size_t)-1);
	putc(' ', fp);
	if (pic->diff) {
		put_total(fp, pic, pic->base_total);
		fputs(" \xe2\x86\x92 ", fp);
	}
	put_total(fp, pic, pic->cur_total);
	if (src != NULL && *src != '\0') {
		fputs(" \xc2\xb7 ", fp);
		profconv__xml_put(fp, src, (size_t)-1);
	}
}

/* A differential frame's title, pprof's form: "+CHANGE UNIT (+P%) |
 * BEFORE -> AFTER | NAME", P of the base's total; "self" before the
 * change when the frame is coloured by its own. */
static void
put_diff_title(FILE *fp, const struct pc_svg_picture *pic,
    const struct pc_drawn *d, const char *name)
{
	double factor = pic->style->factor;
	char n[64];

	fprintf(fp, "%s%s%s ", pic->opts->self_diff ? "self " : "",
	    d->delta > 0 ? "+" : "", shown_value(n, d->delta, factor));
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	fprintf(fp, " (%+.2f%%) | ", profconv__delta_percent(pic->scale,
	    d->delta));
	fputs(shown_value(n, d->sums.base, factor), fp);
	fputs(" \xe2\x86\x92 ", fp);
	fputs(shown_value(n, d->sums.cur, factor), fp);
	fputs(" | ", fp);
	profconv__xml_put(fp, name, (size_t)-1);
}

/* "name (1,234 bytes, 5.67%)", and "; +1.23%" of change when differential. */
static void
put_title(FILE *fp, const struct pc_svg_picture *pic,
    const struct pc_drawn *d, const char *name)
{
	char n[64];
	double share = 100.0 * (double)d->width / (double)pic->total;

	if (pic->diff) {
		put_diff_title(fp, pic, d, name);
		return;
	}
	profconv__xml_put(fp, name, (size_t)-1);
	fprintf(fp, " (%s ", shown_value(n, d->width, pic->style->factor));
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
put_label(FILE *fp, const struct pc_svg_style *st, const char *name,
    double x1, double x2)
{
	int chars = (int)((x2 - x1) / (st->font_size * st->font_width));

	if (chars < 3)
		return;
	if (profconv__utf8_chars(name) <= (size_t)chars) {
		profconv__xml_put(fp, name, (size_t)-1);
		return;
	}
	profconv__xml_put(fp, name, (size_t)chars - 2);
	fputs("..", fp);
}

static bool
separator(const char *fn)
{
	return strcmp(fn, "--") == 0 || strcmp(fn, "-") == 0;
}

/* Whether D lies above a "--" frame: its callers are the frames on the
 * path whose depth is smaller (frames come each after its parent). */
static int
waker(struct emit *e, const struct pc_drawn *d, const char *fn, bool *out)
{
	int rc;

	while (e->npath != 0 && e->path[e->npath - 1].depth >= d->depth)
		e->npath--;
	*out = e->npath != 0 && e->path[e->npath - 1].waker;
	if ((rc = PC_GROW(e->path, e->path_cap, e->npath, 1)) < 0)
		return rc;
	e->path[e->npath].depth = d->depth;
	e->path[e->npath++].waker = *out || strcmp(fn, "--") == 0;
	return 0;
}

/* FN with "_[w]" after it, in E->name. */
static int
waker_name(struct emit *e, const char *fn)
{
	size_t n = strlen(fn);
	int rc = PC_GROW(e->name, e->name_cap, 0, n + 5);

	if (rc < 0)
		return rc;
	memcpy(e->name, fn, n);
	memcpy(e->name + n, "_[w]", 5);
	return 0;
}

/*
 * The frame's label name: pprof's short form of its function (the
 * namespaces and package paths gone, names/shorten.c), then what the
 * frame's text adds to the function (a line, a module).  NULL when
 * memory runs out; the title keeps NAME whole.
 */
static char *
short_name(const char *name, const char *fn)
{
	size_t n = strlen(fn), m, rest;
	char *s, *out;

	if (strncmp(name, fn, n) != 0)
		return strdup(name);
	if ((s = profconv__name_shorten(fn)) == NULL)
		return NULL;
	m = strlen(s);
	rest = strlen(name + n);
	if ((out = realloc(s, m + rest + 1)) == NULL) {
		free(s);
		return NULL;
	}
	memcpy(out + m, name + n, rest + 1);
	return out;
}

/* flamegraph.pl's order: separators grey, differences red and blue, the
 * palette map's colour, the palette's. */
static int
frame_color(struct emit *e, const struct pc_drawn *d, const char *fn,
    struct pc_rgb *c)
{
	const struct pc_svg_picture *pic = e->pic;
	const struct profconv_svg_options *o = pic->opts;
	struct pc_shade shade;
	bool wakes = false;
	int rc;

	if (profconv__palette_chain(pic->palette) &&
	    (rc = waker(e, d, fn, &wakes)) < 0)
		return rc;
	if (pic->diff && !separator(fn)) {
		*c = profconv__svg_diff_fill(d, pic->maxdelta, o->negate != 0);
		return 0;
	}
	/* flamegraph.pl names the frames of a waker stack NAME_[w]: their
	 * shade, and "-" no longer a separator, follow from that name. */
	if (wakes && strcmp(fn, "--") != 0) {
		if ((rc = waker_name(e, fn)) < 0)
			return rc;
		fn = e->name;
	}
	shade = o->hash ? profconv__shade_hash(fn) : o->random ?
	    profconv__shade_random(&e->random) : profconv__shade_seeded(fn);
	*c = profconv__palette_color(pic->palette, fn, wakes, shade);
	if (o->palette_map != NULL && !separator(fn))
		return profconv__palette_map_color(o->palette_map, fn, c);
	return 0;
}

/* Whether black text would be hard to read on C (a deep red or blue of
 * a differential graph): its luma is low. */
static bool
dark(struct pc_rgb c)
{
	return 299 * c.r + 587 * c.g + 114 * c.b < 110000;
}

static int
put_frame(struct emit *e, const struct pc_drawn *d)
{
	const struct pc_svg_picture *pic = e->pic;
	const struct pc_svg_style *st = pic->style;
	FILE *fp = e->fp;
	const char *fn, *name = frame_name(pic, d->frame, &fn);
	char *label;
	double x1 = XPAD + (double)d->start * pic->per_value;
	double x2 = XPAD + (double)(d->start + d->width) * pic->per_value;
	double y1, y2;
	struct pc_rgb c;
	int rc;

	if (pic->opts->inverted) {
		y1 = st->pad_title + pad_top(st, pic->opts) +
		    (double)d->depth * pic->fheight;
		y2 = y1 + pic->fheight - FRAME_PAD;
	} else {
		y2 = pic->height - st->pad_details -
		    (double)d->depth * pic->fheight;
		y1 = y2 - pic->fheight + FRAME_PAD;
	}
	if ((rc = frame_color(e, d, fn, &c)) < 0)
		return rc;
	if ((label = short_name(name, fn)) == NULL)
		return profconv__nomem();
	fprintf(fp, "<g data-s=\"%" PRId64 "\" data-v=\"%" PRId64
	    "\" data-d=\"%" PRIu32 "\"", d->start, d->width, d->depth);
	if (pic->diff)
		fprintf(fp, " data-b=\"%" PRId64 "\" data-c=\"%" PRId64 "\" "
		    "data-up=\"%" PRId64 "\" data-down=\"%" PRId64 "\" "
		    "data-change=\"%s\"", d->sums.base, d->sums.cur, d->sums.up,
		    d->sums.down, profconv__change_name(d->change));
	/* The script cuts labels from the short name when it differs. */
	if (strcmp(label, name) != 0) {
		fputs(" data-n=\"", fp);
		profconv__xml_put(fp, label, (size_t)-1);
		putc('"', fp);
	}
	fputs("><title>", fp);
	put_title(fp, pic, d, name);
	fprintf(fp, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\" fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>"
	    "<text x=\"%.2f\" y=\"%.1f\"%s>", tenths(x1), y1,
	    tenths(x2) - tenths(x1), y2 - y1, c.r, c.g, c.b, x1 + 3,
	    3 + (y1 + y2) / 2, pic->diff && dark(c) ? " class=\"on-dark\"" : "");
	put_label(fp, st, label, x1, x2);
	fputs("</text></g>\n", fp);
	free(label);
	return 0;
}

/* --- the document ------------------------------------------------------------ */


static void
put_head(FILE *fp, const struct pc_svg_picture *pic)
{
	const struct profconv_svg_options *o = pic->opts;
	const struct pc_svg_style *st = pic->style;
	unsigned int w = pic->width;
	double h = pic->height, fs = st->font_size;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg version=\"1.1\" width=\"%u\" height=\"%g\" "
	    "viewBox=\"0 0 %u %g\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<!-- Flame graph by profflame (profconv %s); click a frame to "
	    "zoom, Ctrl-F to search. -->\n", w, h, w, h,
	    PROFCONV_VERSION_STRING);
	if (o->notes != NULL)
		fprintf(fp, "<!-- NOTES: %s -->\n", o->notes);
	fprintf(fp, "<defs><linearGradient id=\"background\" y1=\"0\" "
	    "y2=\"1\" x1=\"0\" x2=\"0\"><stop stop-color=\"%s\" "
	    "offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
	    "</linearGradient></defs>\n", st->bg_top, st->bg_bottom);
	profconv__svg_put_style(fp, style, st);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%g\" "
	    "fill=\"url(#background)\"/>\n", w, h);
	profconv__svg_put_text(fp, "title", w / 2.0, fs * 2, NULL, o->title != NULL ?
	    o->title : o->inverted ? "Icicle Graph" : "Flame Graph");
	if (pic->diff) {
		fprintf(fp, "<text id=\"subtitle\" x=\"%.1f\" y=\"%.1f\">",
		    w / 2.0, fs * 4);
		profconv__svg_diff_subtitle(fp, pic);
		fputs("</text>\n", fp);
		profconv__svg_diff_legend(fp, pic, st->pad_title +
		    st->pad_subtitle + fs * 1.2);
	} else if (o->subtitle != NULL) {
		profconv__svg_put_text(fp, "subtitle", w / 2.0, fs * 4, NULL, o->subtitle);
	} else if (o->facts) {
		fprintf(fp, "<text id=\"subtitle\" x=\"%.1f\" y=\"%.1f\">",
		    w / 2.0, fs * 4);
		profconv__svg_facts(fp, pic);
		fputs("</text>\n", fp);
	}
	profconv__svg_put_text(fp, "details", XPAD, h - st->pad_details / 2, NULL, " ");
	profconv__svg_put_text(fp, "unzoom", XPAD, fs * 2, "hide", "Reset Zoom");
	profconv__svg_put_text(fp, "search", w - XPAD - 100, fs * 2, NULL, "Search");
	profconv__svg_put_text(fp, "ignorecase", w - XPAD - 16, fs * 2, NULL, "ic");
	profconv__svg_put_text(fp, "matched", w - XPAD, h - st->pad_details / 2, NULL, " ");
}

/* The attributes of <g id="frames"> the script reads. */
static void
put_frames_start(FILE *fp, const struct pc_svg_picture *pic)
{
	const struct pc_svg_style *st = pic->style;

	fprintf(fp, "<g id=\"frames\" data-total=\"%" PRId64 "\" "
	    "data-xpad=\"%d\" data-charw=\"%.6g\" data-factor=\"%.17g\" "
	    "data-unit=\"", pic->total, XPAD, st->font_size * st->font_width,
	    st->factor);
	profconv__xml_put(fp, pic->countname, (size_t)-1);
	fputs("\" data-nametype=\"", fp);
	profconv__xml_put(fp, st->nametype, (size_t)-1);
	/* A width asked for stays; the default follows the window. */
	if (pic->opts->width != 0)
		fputs("\" data-fixed=\"1", fp);
	if (pic->diff)
		fprintf(fp, "\" data-diff=\"%s\" data-before=\"%" PRId64
		    "\" data-after=\"%" PRId64, pic->opts->self_diff ? "self" :
		    "whole", pic->scale->base_total, pic->scale->cur_total);
	fputs("\">\n", fp);
}

int
profconv__svg_emit(FILE *fp, const struct pc_svg_picture *pic)
{
	struct emit e = { fp, pic, pic->opts->random_seed, NULL, 0, 0, NULL,
	    0 };
	size_t i;
	int rc = 0;

	put_head(fp, pic);
	put_frames_start(fp, pic);
	for (i = 0; rc == 0 && i < pic->ndrawn; i++)
		rc = put_frame(&e, &pic->drawn[i]);
	free(e.path);
	free(e.name);
	if (rc < 0)
		return rc;
	fputs("</g>\n", fp);
	if (pic->ndrawn == 0)
		profconv__svg_put_text(fp, "empty", pic->width / 2.0, pic->height / 2,
		    NULL, "no samples");
	profconv__svg_put_script(fp, script);
	fputs("</svg>\n", fp);
	return 0;
}
