/* SPDX-License-Identifier: MIT */
/*
 * test_svg_palette.c - flame-graph colours (lib/write/svg_palette.c):
 * flamegraph.pl's palettes, shades and backgrounds (values its Perl
 * computes, from the project's notes), and the differential scale.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg_fixture.h"
#include "base/base.h"
#include "write/write.h"

/* A frame's colour as flamegraph.pl's default gives it. */
static struct pc_rgb
seeded(const char *palette, const char *name)
{
	const struct pc_palette *p = profconv__palette(palette);

	cr_assert(p != NULL, "%s", palette);
	return profconv__palette_color(p, name, false,
	    profconv__shade_seeded(name));
}

static void
flamegraph_pl_colours(void)
{
	/* flamegraph.pl's default: srand(sum of code points), one rand(). */
	EXPECT_RGB(seeded("hot", "malloc"), 230, 119, 28);
	EXPECT_RGB(seeded("hot", ""), 213, 39, 9);
	cr_expect(profconv__palette("warm") == NULL);
	/* The seed sums code points, not bytes: "\u00e9t\u00e9" (233 + 116 +
	 * 233 = 582) is coloured as "tuuvr" (582). */
	{
		struct pc_rgb a = seeded("hot", "\xc3\xa9t\xc3\xa9");
		struct pc_rgb b = seeded("hot", "tuuvr");

		EXPECT_RGB(a, b.r, b.g, b.b);
	}
}

/* reverse(S), ASCII only. */
static void
reversed(const char *s, char *out)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n; i++)
		out[i] = s[n - 1 - i];
	out[n] = '\0';
}

static void
name_hash(void)
{
	static const char *const names[] = { "malloc", "ab`cd", "`abc",
	    "abc`", "a`b`c", "``", "`", "", "libc.so`malloc`", "x``yz`",
	    "ab" };
	const struct pc_palette *hot = profconv__palette("hot");
	struct pc_shade m = profconv__shade_hash("malloc");
	char rev[32];
	size_t i;

	/* The notes' figures, checked against flamegraph.pl --hash. */
	cr_expect(fabs(m.v1 - 0.48903) < 1e-5, "%f", m.v1);
	cr_expect(fabs(m.v2 - 0.66458) < 1e-5, "%f", m.v2);
	cr_expect(m.v2 == m.v3);
	EXPECT_RGB(profconv__palette_color(hot, "malloc", false, m), 238, 112,
	    36);
	/* A module prefix up to a back-quote is not hashed... */
	cr_expect(profconv__shade_hash("libc.so.6`malloc").v1 == m.v1);
	/* ...nor one in first place; no name, 1. */
	cr_expect(profconv__shade_hash("`ab").v1 !=
	    profconv__shade_hash("ab").v1);
	cr_expect(profconv__shade_hash("").v1 == 1);
	/* The second number is the first of the name read backwards. */
	for (i = 0; i < PC_ARRAY_LEN(names); i++) {
		reversed(names[i], rev);
		cr_expect(profconv__shade_hash(names[i]).v2 ==
		    profconv__shade_hash(rev).v1, "%s", names[i]);
	}
}

/* The hue a palette gives NAME, told by its colour at shade 0. */
static const char *
hue(const char *palette, const char *name, bool waker)
{
	static const struct {
		const char *hue;
		struct pc_rgb c;
	} hues[] = {
		{ "red", { 200, 50, 50 } }, { "green", { 50, 200, 50 } },
		{ "aqua", { 50, 165, 165 } }, { "yellow", { 175, 175, 50 } },
		{ "orange", { 190, 90, 0 } }, { "blue", { 80, 80, 205 } },
		{ "grey", { 160, 160, 160 } }, { "light", { 200, 200, 200 } },
	};
	struct pc_rgb c = profconv__palette_color(profconv__palette(palette),
	    name, waker, (struct pc_shade){ 0, 0, 0 });
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(hues); i++)
		if (hues[i].c.r == c.r && hues[i].c.g == c.g &&
		    hues[i].c.b == c.b)
			return hues[i].hue;
	return "?";
}

static void
language_palettes(void)
{
	/* java: annotations, JVM packages, C++, the rest. */
	cr_expect(eq(str, (char *)hue("java", "foo_[j]", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "std::foo_[i]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("java", "java/lang/Thread.run", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("java", "Lorg/x/Y;.z", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "xjava/lang", false), "red"));
	cr_expect(eq(str, (char *)hue("java", "a:::b", false), "green"));
	cr_expect(eq(str, (char *)hue("java", "std::vector<int>::push_back",
	    false), "yellow"));
	cr_expect(eq(str, (char *)hue("java", "vfs_read_[k]", false),
	    "orange"));
	cr_expect(eq(str, (char *)hue("java", "malloc", false), "red"));
	/* perl */
	cr_expect(eq(str, (char *)hue("perl", "Foo::bar", false), "yellow"));
	cr_expect(eq(str, (char *)hue("perl", "Perl_pp_entersub", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("perl", "/usr/bin/x.pl", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("perl", "do_sys_open_[k]", false),
	    "orange"));
	cr_expect(eq(str, (char *)hue("perl", "main", false), "red"));
	/* js */
	cr_expect(eq(str, (char *)hue("js", "/app/a.js:3_[j]", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("js", "Builtin:Map_[j]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("js", "v8::internal::Heap", false),
	    "yellow"));
	cr_expect(eq(str, (char *)hue("js", "/app/src/index.js", false),
	    "green"));
	cr_expect(eq(str, (char *)hue("js", "a.js/b", false), "red"));
	cr_expect(eq(str, (char *)hue("js", "LazyCompile:foo", false),
	    "aqua"));
	cr_expect(eq(str, (char *)hue("js", " ", false), "green"));
	cr_expect(eq(str, (char *)hue("js", "x_[k]y", false), "orange"));
	cr_expect(eq(str, (char *)hue("js", "uv_run", false), "red"));
	/* wakeup, chain, and the separators in every palette. */
	cr_expect(eq(str, (char *)hue("wakeup", "schedule", false), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "schedule", false), "blue"));
	cr_expect(eq(str, (char *)hue("chain", "schedule", true), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "wake_[w]", false), "aqua"));
	cr_expect(eq(str, (char *)hue("chain", "--", true), "grey"));
	cr_expect(eq(str, (char *)hue("java", "-", false), "light"));
	cr_expect(eq(str, (char *)hue("hot", "--", false), "grey"));
}

static void
random_shades(void)
{
	uint64_t a = 42, b = 42, c = 43;
	struct pc_shade x = profconv__shade_random(&a);
	struct pc_shade y = profconv__shade_random(&b);
	struct pc_shade z = profconv__shade_random(&c);
	int i;

	/* One seed, one sequence; another seed, another. */
	cr_expect(x.v1 == y.v1 && x.v2 == y.v2 && x.v3 == y.v3);
	cr_expect(x.v1 != z.v1);
	cr_expect(x.v1 != x.v2);
	for (i = 0; i < 1000; i++) {
		x = profconv__shade_random(&a);
		cr_assert(x.v1 >= 0 && x.v1 < 1 && x.v3 >= 0 && x.v3 < 1);
	}
}

Test(svg_palette, backgrounds)
{
	const struct pc_palette *mem = profconv__palette("mem");
	char top[8], bottom[8];

	cr_expect(eq(int, profconv__background(mem, NULL, top, bottom), 0));
	cr_expect(eq(str, top, "#eef2ee"));
	cr_expect(eq(str, bottom, "#e0ffe0"));
	cr_expect(eq(int, profconv__background(profconv__palette("chain"),
	    NULL, top, bottom), 0));
	cr_expect(eq(str, bottom, "#e0e0ff"));
	cr_expect(eq(int, profconv__background(mem, "yellow", top, bottom), 0));
	cr_expect(eq(str, bottom, "#eeeeb0"));
	cr_expect(eq(int, profconv__background(mem, "#A0b0c0", top, bottom),
	    0));
	cr_expect(eq(str, top, "#A0b0c0"));
	cr_expect(eq(str, bottom, "#A0b0c0"));
	cr_expect(eq(int, profconv__background(mem, "#a0b0c", top, bottom),
	    -1));
	cr_expect(eq(int, profconv__background(mem, "#a0b0cg", top, bottom),
	    -1));
	cr_expect(eq(int, profconv__background(mem, "pink", top, bottom), -1));
}

Test(svg_palette, difference_colours)
{
	/* flamegraph.pl's example: largest change 150. */
	EXPECT_RGB(profconv__diff_color(150, 150), 255, 0, 0);
	EXPECT_RGB(profconv__diff_color(-100, 150), 70, 70, 255);
	EXPECT_RGB(profconv__diff_color(-10, 150), 196, 196, 255);
	EXPECT_RGB(profconv__diff_color(0, 150), 255, 255, 255);
}

/* flamegraph.pl's color(): hot is (205 + 50 v3, 230 v1, 55 v2), mem
 * (0, 190 + 50 v2, 210 v1), io (80 + 60 v1, same, 190 + 55 v2), each
 * term truncated by int(). */
static void
shade_terms_per_palette(void)
{
	struct pc_shade s = { 0.5, 0.2, 0.9 };

	EXPECT_RGB(profconv__palette_color(profconv__palette("hot"), "f",
	    false, s), 250, 115, 11);
	EXPECT_RGB(profconv__palette_color(profconv__palette("mem"), "f",
	    false, s), 0, 200, 105);
	EXPECT_RGB(profconv__palette_color(profconv__palette("io"), "f",
	    false, s), 110, 110, 201);
}

/* A frame's shade, seeded, hashed or random, and how each palette
 * turns it into a colour, as flamegraph.pl does. */
Test(svg_palette, shades_as_flamegraph_pl)
{
	flamegraph_pl_colours();
	name_hash();
	random_shades();
	shade_terms_per_palette();
}

/* Every name the list offers is a palette; only "chain" draws chains. */
static void
names_listed_are_palettes(void)
{
	char names[256], *tok, *save = NULL;
	size_t n = 0;

	snprintf(names, sizeof(names), "%s", profconv__palette_names());
	for (tok = strtok_r(names, ", ", &save); tok != NULL;
	    tok = strtok_r(NULL, ", ", &save)) {
		const struct pc_palette *p = profconv__palette(tok);

		cr_assert(p != NULL, "%s", tok);
		cr_expect(eq(int, profconv__palette_chain(p),
		    strcmp(tok, "chain") == 0), "%s", tok);
		n++;
	}
	cr_expect(eq(sz, n, 15));
	cr_expect(profconv__palette("Hot") == NULL);
	cr_expect(profconv__palette("") == NULL);
}

/* The palettes: each one listed, and the hues the language ones pick. */
Test(svg_palette, palettes_by_name)
{
	language_palettes();
	names_listed_are_palettes();
}
