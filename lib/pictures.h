/* SPDX-License-Identifier: MIT */
/* pictures.h - private parts the SVG and speedscope writers share. */
#ifndef PROFCONV_PICTURES_H
#define PROFCONV_PICTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profconv.h"

/* --- palettes (palette.c) ------------------------------------------------ */

struct pc_rgb {
	unsigned char r, g, b;
};

struct pc_palette;

/* The palette called NAME, or NULL. */
const struct pc_palette *profconv__palette(const char *name);
/* The names it knows, comma-separated, for messages. */
const char *profconv__palette_names(void);
/* The colour of a frame whose function is NAME: the same name gives the
 * same colour in every graph (flamegraph.pl's name-seeded default). */
struct pc_rgb profconv__palette_color(const struct pc_palette *p,
    const char *name);
/* The background gradient's two stops ("#eeeeee"). */
void profconv__palette_background(const struct pc_palette *p,
    const char **top, const char **bottom);
/* Differential colour of a frame whose own value changed by DELTA out of
 * a largest change MAXDELTA (> 0): red grew, blue shrank, white none. */
struct pc_rgb profconv__diff_color(int64_t delta, int64_t maxdelta);

/* --- text (svgtext.c) ---------------------------------------------------- */

/* Write S as XML character data or attribute text: markup characters
 * escaped, characters XML cannot hold and bad UTF-8 as U+FFFD; at most
 * MAX characters (code points), all when MAX is (size_t)-1. */
void profconv__xml_put(FILE *fp, const char *s, size_t max);
/* Code points in S (bad bytes count one each). */
size_t profconv__utf8_chars(const char *s);
/* Write S as a JSON string, quotes included. */
void profconv__json_put(FILE *fp, const char *s);
/* V with thousands separators ("1,234,567") into BUF (>= 32 bytes). */
char *profconv__group_digits(char *buf, int64_t v);

/* --- emitting the SVG (svgemit.c) ---------------------------------------- */

/* A frame that is drawn: where it starts and how wide it is, in values. */
struct pc_drawn {
	uint32_t frame;		/* view frame id; 0: the root */
	uint32_t depth;		/* 0: the root */
	int64_t start, width;
	int64_t delta;		/* differential: its own value's change */
};

struct pc_svg_picture {
	const struct profconv_view *cur;
	const struct profconv_svg_options *opts;
	const struct pc_palette *palette;
	const struct pc_drawn *drawn;	/* root first, then by position */
	size_t ndrawn;
	int64_t total, maxdelta;
	bool diff;
	double per_value;
	unsigned int width, height, fheight;
	const char *countname;
};

int profconv__svg_emit(FILE *fp, const struct pc_svg_picture *pic);

#endif /* PROFCONV_PICTURES_H */
