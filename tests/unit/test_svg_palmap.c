/* SPDX-License-Identifier: MIT */
/*
 * test_svg_palmap.c - palette maps (lib/write/svg_palmap.c): the text of
 * flamegraph.pl's palette.map read and written, and a name that keeps
 * its first colour whatever later graphs choose.
 */

#include <stdlib.h>
#include <string.h>

#include "svg_fixture.h"
#include "base/base.h"
#include "write/write.h"

/* A profile of two stacks: a<-b<-main and main alone. */
static struct profconv_profile *
small_profile(void)
{
	static const char *const names[] = { "main", "b", "a" };

	return two_stacks(names);
}

static char *
map_text(const struct profconv_palette_map *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(eq(int, profconv_palette_map_write(m, fp), 0), "%s", ERRMSG);
	fclose(fp);
	return buf;
}

static int
map_read(struct profconv_palette_map *m, const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	int rc = profconv_palette_map_read(m, fp);

	fclose(fp);
	return rc;
}

static void
palette_map_text(void)
{
	struct profconv_palette_map *m;
	char *t;

	cr_assert(eq(int, profconv_palette_map_new(&m), 0));
	/* Sorted by name on the way out; a later line wins; a name may hold
	 * "->" (C++'s operator->), the colour follows the last one. */
	cr_expect(eq(int, map_read(m, "zeta->rgb(1,2,3)\n"
	    "std::unique_ptr<T>::operator->->rgb(4,5,6)\n\n"
	    "alpha->rgb(7,8,9)\r\n\r\nzeta->rgb(10,11,12)\n"), 0), "%s",
	    ERRMSG);
	t = map_text(m);
	cr_expect(eq(str, t, "alpha->rgb(7,8,9)\n"
	    "std::unique_ptr<T>::operator->->rgb(4,5,6)\n"
	    "zeta->rgb(10,11,12)\n"));
	free(t);
	cr_expect(eq(int, map_read(m, "a->rgb(1,2,3)\nb->rgb(256,0,0)\n"),
	    PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "line 2: invalid colour 'rgb(256,0,0)' "
	    "(expected rgb(R,G,B), each 0 to 255)"));
	cr_expect(eq(int, map_read(m, "no arrow\n"), PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "line 1: no '->' between a name and a "
	    "colour"));
	cr_expect(eq(int, map_read(m, "a->rgb(1,2,3) \n"), PROFCONV_EFORMAT));
	cr_expect(eq(int, map_read(m, "a->rgb(-1,2,3)\n"), PROFCONV_EFORMAT));
	profconv_palette_map_free(m);
}

static char *
draw(const struct profconv_view *v, struct profconv_svg_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(eq(int, profconv_svg_write(v, NULL, fp, o), 0), "%s",
	    ERRMSG);
	fclose(fp);
	return buf;
}

static void
palette_map_keeps_colours(void)
{
	struct profconv_profile *p = small_profile();
	struct profconv_view *v;
	struct profconv_svg_options o = PROFCONV_SVG_OPTIONS_INIT;
	struct profconv_palette_map *m;
	char *first, *second, *t;

	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	cr_assert(eq(int, profconv_palette_map_new(&m), 0));
	cr_assert(eq(int, map_read(m, "main->rgb(1,2,3)\n"), 0));
	o.minwidth = "0";
	o.palette_map = m;
	o.random = 1;
	o.random_seed = 1;
	first = draw(v, &o);
	/* The mapped name keeps its colour; the others were added. */
	cr_expect(strstr(first, "<title>main (400 bytes") != NULL);
	cr_expect(strstr(first, "fill=\"rgb(1,2,3)\"") != NULL);
	t = map_text(m);
	cr_expect(eq(sz, count(t, "\n"), 4), "%s", t);	/* "", 3 names */
	cr_expect(strncmp(t, "->rgb(", 6) == 0, "%s", t);
	cr_expect(strstr(t, "main->rgb(1,2,3)\n") != NULL, "%s", t);
	free(t);
	/* Another palette, another seed: the same colours. */
	o.random_seed = 2;
	o.colors = "aqua";
	/* (The background is the palette's: compare the frames.) */
	second = draw(v, &o);
	cr_expect(eq(str, strstr(second, "<g id=\"frames\""),
	    strstr(first, "<g id=\"frames\"")));
	o.palette_map = NULL;
	free(second);
	second = draw(v, &o);
	cr_expect(strcmp(strstr(second, "<g id=\"frames\""),
	    strstr(first, "<g id=\"frames\"")) != 0);
	free(first);
	free(second);
	profconv_palette_map_free(m);
	profconv_view_free(v);
	profconv_profile_free(p);
}

/* A name the map has keeps its colour; a new one is given the offered
 * colour; a name with a line break, which the text could not hold, is
 * left out. */
static void
first_colour_kept(void)
{
	struct profconv_palette_map *m;
	struct pc_rgb c = { 1, 2, 3 };
	char *t;

	cr_assert(eq(int, profconv_palette_map_new(&m), 0));
	cr_expect(eq(int, profconv__palette_map_color(m, "f", &c), 0));
	c = (struct pc_rgb){ 9, 9, 9 };
	cr_expect(eq(int, profconv__palette_map_color(m, "f", &c), 0));
	cr_expect(eq(int, c.r, 1));
	cr_expect(eq(int, c.g, 2));
	cr_expect(eq(int, c.b, 3));
	c = (struct pc_rgb){ 4, 5, 6 };
	cr_expect(eq(int, profconv__palette_map_color(m, "g\nh", &c), 0));
	cr_expect(eq(int, c.r, 4));
	t = map_text(m);
	cr_expect(eq(str, t, "f->rgb(1,2,3)\n"));
	free(t);
	/* A NUL inside a line is refused, not cut. */
	{
		static const char text[] = "x\0y->rgb(1,1,1)\n";
		FILE *fp = fmemopen((void *)text, sizeof(text) - 1, "r");

		cr_expect(eq(int, profconv_palette_map_read(m, fp),
		    PROFCONV_EFORMAT));
		cr_expect(eq(str, ERRMSG, "line 1: a NUL byte"));
		fclose(fp);
	}
	profconv_palette_map_free(m);
	profconv_palette_map_free(NULL);
}

/* Palette maps: their text, the colours they keep in a graph and after. */
Test(svg_palmap, palette_maps)
{
	palette_map_text();
	palette_map_keeps_colours();
	first_colour_kept();
}
