/* SPDX-License-Identifier: MIT */
/*
 * write.h - what the writers share: palettes and colours (svg_palette.c,
 * svg_palmap.c), XML and JSON text and digit grouping (escape.c), the
 * SVG emitter (svg_emit.c).
 * May include: base/, model/model.h, view/, names/.
 */
#ifndef PROFCONV_WRITE_H
#define PROFCONV_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profconv.h"
#include "view/delta.h"

/* --- palettes (svg_palette.c) ---------------------------------------------- */

struct pc_rgb {
	unsigned char r, g, b;
};

struct pc_palette;

/* The palette called NAME, or NULL. */
const struct pc_palette *profconv__palette(const char *name);
/* The names it knows, comma-separated, for messages. */
const char *profconv__palette_names(void);
/* Whether P colours the frames after a "--" frame apart (chain). */
bool profconv__palette_chain(const struct pc_palette *p);

/* The three numbers in [0,1) a colour is made of (flamegraph.pl's v1, v2,
 * v3; the single-hue palettes use only v1). */
struct pc_shade {
	double v1, v2, v3;
};

/* flamegraph.pl's default: seeded by NAME, so the same name has the same
 * colour in every graph. */
struct pc_shade profconv__shade_seeded(const char *name);
/* --hash: from a hash of NAME's first characters and of its last ones. */
struct pc_shade profconv__shade_hash(const char *name);
/* --random: the next three numbers of the generator in *STATE. */
struct pc_shade profconv__shade_random(uint64_t *state);

/* The colour of a frame called NAME in palette P with shade S; WAKER: the
 * frame lies above a "--" frame (the chain palette's waker stacks). */
struct pc_rgb profconv__palette_color(const struct pc_palette *p,
    const char *name, bool waker, struct pc_shade s);
/* The background gradient's two stops ("#eeeeee") for the background
 * called NAME (yellow, blue, green, grey, or "#rrggbb" for one flat
 * colour), or P's own when NAME is NULL; -1 when NAME is no background. */
int profconv__background(const struct pc_palette *p, const char *name,
    char top[8], char bottom[8]);
/* The colour MAP holds for NAME into *C; when it has none, NAME gets *C
 * (a name with a line break is left out). */
int profconv__palette_map_color(struct profconv_palette_map *map,
    const char *name, struct pc_rgb *c);
/* Differential colour of a frame whose own value changed by DELTA out of
 * a largest change MAXDELTA (> 0): red grew, blue shrank, white none. */
struct pc_rgb profconv__diff_color(int64_t delta, int64_t maxdelta);

/* --- text (escape.c) ----------------------------------------------------- */

/* Write S as XML character data or attribute text: markup characters
 * escaped, a carriage return as "&#13;", characters XML cannot hold,
 * DEL and bad UTF-8 as U+FFFD; at most
 * MAX characters (code points), all when MAX is (size_t)-1. */
void profconv__xml_put(FILE *fp, const char *s, size_t max);
/* An SVG <text> element ID at X, Y (of class CLS when not NULL) holding
 * TEXT, escaped, on a line of its own. */
void profconv__svg_put_text(FILE *fp, const char *id, double x, double y,
    const char *cls, const char *text);
/* Code points in S (bad bytes count one each). */
size_t profconv__utf8_chars(const char *s);
/* V with thousands separators ("1,234,567") into BUF (>= 32 bytes). */
char *profconv__group_digits(char *buf, int64_t v);
/* DIGITS ("-1234567") with thousands separators into BUF (room for the
 * digits and a third more). */
char *profconv__group_text(char *buf, const char *digits);
/* Whether S can be written in XML as it is: well-formed UTF-8 without
 * control characters (tab aside) or U+FFFE, U+FFFF. */
bool profconv__xml_clean(const char *s);

/*
 * Text for a terminal (the dump, the summary, the diff and trend
 * tables): a name, label, comment or path from a profile is written with
 * what a terminal would obey escaped, so that a profile cannot clear the
 * screen, retitle the window, move the cursor or reorder a line: C0
 * control bytes and DEL as "\xNN", bytes that are not UTF-8 as "\xNN",
 * the C1 controls (U+0080..U+009F), the bidi controls (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069) and the line and paragraph
 * separators (U+2028, U+2029) as "\uNNNN".  Everything else, backslashes
 * too, stays as it is.
 *
 * profconv__text_safe() returns S itself when nothing in it needs
 * escaping, else its escaped copy in one of B's buffers, which the next
 * PC_TEXT_BUFS calls leave alone (so one printf can take several); ""
 * when memory runs out.
 */
#define PC_TEXT_BUFS 4
struct pc_textbuf {
	char *buf[PC_TEXT_BUFS];
	size_t cap[PC_TEXT_BUFS];
	unsigned int next;
};
const char *profconv__text_safe(struct pc_textbuf *b, const char *s);
void profconv__textbuf_free(struct pc_textbuf *b);
/*
 * The same, one character at a time: the character at S (not at its
 * end) is *LEN bytes; true when profconv__text_safe() escapes it, its
 * escape ("\x1b", "\u202e") then in ESC.
 */
bool profconv__text_escape(const char *s, size_t *len, char esc[8]);

/* --- pprof's label reports (traces.c) ---------------------------------- */

/* profconv_profile_print() with OPTS->traces or OPTS->tags: that report
 * of the view VOPTS makes of PROF (OPTS and VOPTS current layouts). */
int profconv__print_label_report(const struct profconv_profile *prof,
    FILE *fp, const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts);

/* --- pprof's -tree, -peek and -text (tree.c) ---------------------------- */

/* profconv_profile_print() with OPTS->tree, OPTS->peek or OPTS->text: that report
 * of the view VOPTS makes of PROF (OPTS and VOPTS current layouts). */
int profconv__print_tree(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts);

/* --- emitting the SVG (svg_emit.c) -------------------------------------- */

/* Differential: what the stacks beneath a frame hold. */
struct pc_frame_sums {
	int64_t base, cur;	/* before and after */
	int64_t up, down;	/* the growth (>= 0) and shrinkage (<= 0) of
				 * those stacks, apart */
	int64_t self;		/* the change of its own value and of its
				 * children too narrow to draw */
};

/* A frame that is drawn: where it starts and how wide it is, in values. */
struct pc_drawn {
	uint32_t frame;		/* frame id (pc_svg_names); 0: the root */
	uint32_t depth;		/* 0: the root */
	int64_t start, width;
	int64_t delta;		/* differential: the change it is coloured
				 * by (whole, or own with self_diff) */
	struct pc_frame_sums sums;
	enum pc_change change;
};

/* The frames of the current view, ids 1..NCUR, and after them those of
 * the base view whose names the current one lacks: id NCUR + K is base
 * frame EXTRA[K - 1]. */
struct pc_svg_names {
	const struct profconv_view *cur, *base;
	uint32_t ncur, nextra;
	const uint32_t *extra;
};
/* Frame ID's name, and in *FN the name that chooses its colour (its
 * function's); "all" (and "") for the root. */
const char *profconv__svg_frame_name(const struct pc_svg_names *n,
    uint32_t id, const char **fn);

/* The options that shape the text and background, checked, defaults
 * filled in. */
struct pc_svg_style {
	const char *font_type, *nametype;
	double font_size, font_width, factor;
	double pad_title, pad_details, pad_subtitle;	/* flamegraph.pl's
					 * ypad1, ypad2, ypad3 */
	double pad_legend;		/* differential: the legend's row */
	char bg_top[8], bg_bottom[8];
};

/* The picture's style element holding SHEET, an embedded style sheet
 * whose @font_size@, @font_type@ and @title_size@ are ST's (font size,
 * family as XML text, size + 5); with ST NULL, or another name between
 * '@'s, the text as it is. */
void profconv__svg_put_style(FILE *fp, const char *sheet,
    const struct pc_svg_style *st);
/* The picture's script element holding the shared search
 * (svg_search.js), then OWN, its embedded script. */
void profconv__svg_put_script(FILE *fp, const char *own);

/* Check O's text, font, background and colour options (P: the palette)
 * into *ST; PROFCONV_EINVAL with a message when one is wrong. */
int profconv__svg_style(const struct profconv_svg_options *o,
    const struct pc_palette *p, struct pc_svg_style *st);
/* The image height for MAXDEPTH + 1 rows of FHEIGHT pixels. */
double profconv__svg_height(const struct pc_svg_style *st,
    const struct profconv_svg_options *o, unsigned int maxdepth,
    unsigned int fheight);

struct pc_svg_picture {
	const struct profconv_view *cur;
	const struct pc_svg_names *names;
	const struct profconv_svg_options *opts;
	const struct pc_svg_style *style;
	const struct pc_palette *palette;
	const struct pc_drawn *drawn;	/* root first, then by position:
					 * each frame after its parent */
	size_t ndrawn;
	int64_t total;			/* the scale: 100% */
	int64_t maxdelta;
	bool diff;
	const struct pc_delta_scale *scale;	/* differential */
	double per_value, height;
	unsigned int width, fheight;
	const char *countname;
	/* The facts of the subtitle: the sample type and its unit, the
	 * views' totals of it. */
	const char *type, *unit;
	int64_t cur_total, base_total;
};

int profconv__svg_emit(FILE *fp, const struct pc_svg_picture *pic);
/* V times FACTOR as titles show it: to the nearest whole number, with
 * thousands separators, into BUF (>= 64 bytes). */
char *profconv__svg_value(char *buf, int64_t v, double factor);
/* The facts of the subtitle (profconv_svg_options' facts), as XML text:
 * "TYPE TOTAL (EXACT UNIT) · SOURCE", a differential graph's "TYPE
 * BEFORE → AFTER (...)". */
void profconv__svg_facts(FILE *fp, const struct pc_svg_picture *pic);

/* --- the differential graph (svg_diff.c) ---------------------------------- */

/* Set each of the N frames' delta (its whole change, or with
 * O->self_diff its own) and its change by S's rules; returns the largest
 * |delta| (at least 1), the scale of the colours. */
int64_t profconv__svg_classify(struct pc_drawn *d, size_t n,
    const struct pc_delta_scale *s, const struct profconv_svg_options *o);
/* The fill of D: red grew, blue shrank (or gone), purple new, white
 * none; deeper for a larger |delta| out of MAXDELTA; NEGATE swaps red
 * and blue. */
struct pc_rgb profconv__svg_diff_fill(const struct pc_drawn *d,
    int64_t maxdelta, bool negate);
/* The subtitle: the user's, then what the widths and colours are. */
void profconv__svg_diff_subtitle(FILE *fp, const struct pc_svg_picture *pic);
/* The legend's row, at Y. */
void profconv__svg_diff_legend(FILE *fp, const struct pc_svg_picture *pic,
    double y);

/* --- JSON text (escape.c) --------------------------------------------------- */

/* Write S (LEN bytes, UTF-8) as a JSON string literal. */
void profconv__json_string(FILE *fp, const char *s, size_t len);
void profconv__json_cstr(FILE *fp, const char *s);

/* --- the call graph writers (dot.c) ---------------------------------------- */

struct pc_graph;
struct pc_graph_options;
/*
 * What every writer of the graph starts with: profconv__graph_type() of
 * TYPE (filling GO, *VT and UNIT, SIZE bytes), then the graph of CUR
 * minus BASE into *OUT by profconv__graph_new().
 */
int profconv__write_graph_open(struct pc_graph **out,
    const struct profconv_view *cur, const struct profconv_view *base,
    const char *type, struct pc_graph_options *go,
    struct profconv_value_type *vt, char *unit, size_t size);

/* --- callgrind (callgrind.c) ------------------------------------------------ */

/* The call graph of CUR (minus BASE unless NULL) to FP in callgrind's
 * format, as pprof -callgrind writes it: untrimmed, nodes by flat value,
 * pprof's name and address compression; O's sample type (the rest of O
 * is not read).  Errors: those of profconv_graph_write(). */
int profconv__callgrind_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_graph_options *o);

/* --- Graphviz's library (graphviz.c, or its absence) -------------------- */

/* 0 when pictures can be drawn; else PROFCONV_EUNSUPPORTED, with why. */
int profconv__graphviz_check(void);
/* The DOT text TEXT (LEN bytes) laid out with dot and drawn as FORMAT
 * (enum profconv_graph_format, not DOT) to FP.  HEAVIEST: the node the SVG
 * opens on (its class gets "heaviest"), or NULL.  Errors:
 * PROFCONV_EUNSUPPORTED, PROFCONV_EFORMAT (Graphviz's message),
 * PROFCONV_EIO, PROFCONV_ENOMEM. */
int profconv__graphviz_render(const char *text, size_t len, int format,
    const char *heaviest, FILE *fp);

#endif /* PROFCONV_WRITE_H */
