/* SPDX-License-Identifier: MIT */
/*
 * palette.c - flame-graph colours: flamegraph.pl's palettes (the same
 * names give the same hues), chosen per function name so that a function
 * keeps its colour from one graph to the next, and the red/blue scale of
 * differential graphs.
 */

#include "config.h"

#include <string.h>

#include "internal.h"
#include "pictures.h"

enum hue { HOT, MEM, IO, RED, GREEN, BLUE, AQUA, YELLOW, PURPLE, ORANGE };

struct pc_palette {
	const char *name;
	enum hue hue;
	const char *top, *bottom;	/* background gradient */
};

#define YELLOW_BG "#eeeeee", "#eeeeb0"
#define GREEN_BG "#eef2ee", "#e0ffe0"
#define BLUE_BG "#eeeeee", "#e0e0ff"
#define GREY_BG "#f8f8f8", "#e8e8e8"

static const struct pc_palette palettes[] = {
	{ "hot", HOT, YELLOW_BG },
	{ "mem", MEM, GREEN_BG },
	{ "io", IO, BLUE_BG },
	{ "wakeup", AQUA, BLUE_BG },
	{ "red", RED, GREY_BG },
	{ "green", GREEN, GREY_BG },
	{ "blue", BLUE, GREY_BG },
	{ "aqua", AQUA, GREY_BG },
	{ "yellow", YELLOW, GREY_BG },
	{ "purple", PURPLE, GREY_BG },
	{ "orange", ORANGE, GREY_BG },
};

const struct pc_palette *
profconv__palette(const char *name)
{
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(palettes); i++)
		if (strcmp(palettes[i].name, name) == 0)
			return &palettes[i];
	return NULL;
}

const char *
profconv__palette_names(void)
{
	return "hot, mem, io, wakeup, red, green, blue, aqua, yellow, "
	    "purple, orange";
}

void
profconv__palette_background(const struct pc_palette *p, const char **top,
    const char **bottom)
{
	*top = p->top;
	*bottom = p->bottom;
}

/* The sum of NAME's code points (bytes of bad UTF-8 count as themselves),
 * modulo 2^32: flamegraph.pl's seed, so our colours match its. */
static uint32_t
code_point_sum(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t sum = 0;

	while (*p != '\0') {
		size_t n = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 :
		    *p >= 0xc0 ? 2 : 0;
		uint32_t cp;
		size_t i;

		if (n <= 1 || !profconv__utf8_valid((const char *)p, n) ||
		    strnlen((const char *)p, n) < n) {
			sum += *p++;
			continue;
		}
		cp = *p & (0x7f >> n);
		for (i = 1; i < n; i++)
			cp = cp << 6 | (p[i] & 0x3f);
		sum += cp;
		p += n;
	}
	return sum;
}

/* The first number drand48() gives after srand48(SEED), computed here
 * because those keep global state: X = (SEED << 16) + 0x330e, then one
 * step of X = (0x5deece66d X + 0xb) mod 2^48, over 2^48. */
static double
first_drand48(uint32_t seed)
{
	uint64_t x = ((uint64_t)seed << 16) + 0x330e;

	x = (0x5deece66dULL * x + 0xb) & ((1ULL << 48) - 1);
	return (double)x / (double)(1ULL << 48);
}

struct pc_rgb
profconv__palette_color(const struct pc_palette *p, const char *name)
{
	double v = first_drand48(code_point_sum(name));
	int a = (int)(50 * v), b = (int)(55 * v), c = (int)(60 * v);

	switch (p->hue) {
	case HOT:
		return (struct pc_rgb){ 205 + a, (int)(230 * v), b };
	case MEM:
		return (struct pc_rgb){ 0, 190 + a, (int)(210 * v) };
	case IO:
		return (struct pc_rgb){ 80 + c, 80 + c, 190 + b };
	case RED:
		return (struct pc_rgb){ 200 + b, 50 + (int)(80 * v),
		    50 + (int)(80 * v) };
	case GREEN:
		return (struct pc_rgb){ 50 + c, 200 + b, 50 + c };
	case BLUE:
		return (struct pc_rgb){ 80 + c, 80 + c, 205 + a };
	case AQUA:
		return (struct pc_rgb){ 50 + c, 165 + b, 165 + b };
	case YELLOW:
		return (struct pc_rgb){ 175 + b, 175 + b, 50 + (int)(20 * v) };
	case PURPLE:
		return (struct pc_rgb){ 190 + (int)(65 * v), 80 + c,
		    190 + (int)(65 * v) };
	case ORANGE:
		return (struct pc_rgb){ 190 + (int)(65 * v),
		    90 + (int)(65 * v), 0 };
	}
	return (struct pc_rgb){ 0, 0, 0 };
}

struct pc_rgb
profconv__diff_color(int64_t delta, int64_t maxdelta)
{
	double max = (double)maxdelta, d = (double)delta;
	int c;

	if (delta > 0) {
		c = (int)(210 * (max - d) / max);
		return (struct pc_rgb){ 255, c, c };
	}
	if (delta < 0) {
		c = (int)(210 * (max + d) / max);
		return (struct pc_rgb){ c, c, 255 };
	}
	return (struct pc_rgb){ 255, 255, 255 };
}
