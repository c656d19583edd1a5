/* SPDX-License-Identifier: MIT */
/*
 * test_trendsvg_names.c - names cut to the room of proftrend's picture
 * (lib/report/trendsvg_names.c): at their start or end with "..", kept
 * visible where two differ, numbered when they still read the same.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "base/base.h"
#include "write/write.h"
#include "report/trendsvg.h"

/* S cut to MAX as XML text. */
static char *
put_cut(const char *s, size_t max, bool tail)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	profconv__trend_put_cut(fp, s, max, tail);
	fclose(fp);
	return buf;
}

static char *
cut_plain(const char *s, size_t max, bool tail)
{
	char *t = NULL;

	cr_assert(eq(int, profconv__trend_cut_plain(&t, s, max, tail), 0));
	return t;
}

#define EXPECT_CUT(call, want) do { \
	char *got_ = (call); \
	cr_expect(eq(str, got_, (char *)(want))); \
	free(got_); \
} while (0)

/* Nine characters into six: four and "..", or ".." and the last four
 * (9 - 6 + 2 = 5 skipped); counted in characters, "<" one before its
 * escape, each "\u00e9" one though two bytes. */
static void
cut_at_start_or_end(void)
{
	EXPECT_CUT(put_cut("a<bcdefgh", 6, false), "a&lt;bc..");
	EXPECT_CUT(put_cut("a<bcdefgh", 6, true), "..efgh");
	EXPECT_CUT(put_cut("a<bcdefgh", 9, true), "a&lt;bcdefgh");
	EXPECT_CUT(cut_plain("a<bcdefgh", 6, false), "a<bc..");
	EXPECT_CUT(cut_plain("a<bcdefgh", 6, true), "..efgh");
	EXPECT_CUT(cut_plain("a<bcdefgh", 9, false), "a<bcdefgh");
	EXPECT_CUT(put_cut("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4,
	    true), "..\xc3\xa9\xc3\xa9");
	EXPECT_CUT(cut_plain("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4,
	    false), "\xc3\xa9\xc3\xa9..");
}

static void
common_ends_in_characters(void)
{
	cr_expect(eq(sz, profconv__trend_common_chars("a;b;x", "c;b;x", true),
	    4));
	cr_expect(eq(sz, profconv__trend_common_chars("a;b;x", "c;b;x", false),
	    0));
	cr_expect(eq(sz, profconv__trend_common_chars("abc", "abd", false),
	    2));
	cr_expect(eq(sz, profconv__trend_common_chars("x\xc3\xa9",
	    "y\xc3\xa9", true), 1));
	cr_expect(eq(sz, profconv__trend_common_chars("same", "same", true),
	    4));
}

/*
 * "aaaaaaaaaa;XY;bbbbbbbbbb" (24 characters) into 12, keeping the X
 * (character 11) seen: 4 go to the marks, the frame XY takes 2 of the 8
 * left, and 6 of the kept end: "..XY..bbbbbb" or "aaaaaa..XY..".  A
 * character in the last frame is near the kept end: the name comes back
 * whole, for the caller to cut plainly.
 */
static void
cut_keeping_the_frame_that_differs(void)
{
	static const char s[] = "aaaaaaaaaa;XY;bbbbbbbbbb";
	char *t;

	cr_assert(eq(int, profconv__trend_cut_keeping(&t, s, 24, 12, true,
	    11), 0));
	cr_expect(eq(str, t, "..XY..bbbbbb"));
	free(t);
	cr_assert(eq(int, profconv__trend_cut_keeping(&t, s, 24, 12, false,
	    11), 0));
	cr_expect(eq(str, t, "aaaaaa..XY.."));
	free(t);
	cr_assert(eq(int, profconv__trend_cut_keeping(&t, s, 24, 12, true,
	    20), 0));
	cr_expect(eq(str, t, (char *)s));
	free(t);
}

Test(trendsvg_names, names_cut_to_their_room)
{
	cut_at_start_or_end();
	common_ends_in_characters();
	cut_keeping_the_frame_that_differs();
}

/* Two names of 24 characters alike but for the frame in the middle, in
 * 16: each is cut keeping that frame (room 16 - 2 for "#K"), then "#K".
 * "short" reads apart and fits: it stays. */
static void
numbered_keep_the_difference(void)
{
	static const char *const names[] = {
		"aaaaaaaaaa;X1;bbbbbbbbbb",
		"aaaaaaaaaa;X2;bbbbbbbbbb",
		"short",
	};
	char *shown[3];
	size_t i;

	for (i = 0; i < 3; i++)
		shown[i] = cut_plain(names[i], (size_t)-1, true);
	cr_assert(eq(int, profconv__trend_number_names(shown, names, 3, 16,
	    true), 0));
	cr_expect(eq(str, shown[0], "..X1..bbbbbbbb#1"));
	cr_expect(eq(str, shown[1], "..X2..bbbbbbbb#2"));
	cr_expect(eq(str, shown[2], "short"));
	for (i = 0; i < 3; i++)
		free(shown[i]);
}

/* Every shown name of N after profconv__trend_number_names(): at most MAX
 * characters, none the same as another, and those that fit and read
 * apart before unchanged. */
static void
check_numbered(const char *const *names, size_t n, size_t max, bool tail)
{
	char **shown = calloc(n, sizeof(*shown)), **before = calloc(n,
	    sizeof(*before));
	size_t i, j;

	cr_assert(shown != NULL && before != NULL);
	for (i = 0; i < n; i++) {
		cr_assert(profconv__trend_cut_plain(&shown[i], names[i],
		    (size_t)-1, tail) == 0);
		before[i] = strdup(shown[i]);
		cr_assert(before[i] != NULL);
	}
	cr_assert(eq(int, profconv__trend_number_names(shown, names, n, max,
	    tail), 0));
	for (i = 0; i < n; i++) {
		bool apart = true;

		cr_expect(profconv__utf8_chars(shown[i]) <= max,
		    "'%s' is %zu characters", shown[i],
		    profconv__utf8_chars(shown[i]));
		for (j = 0; j < n; j++)
			if (j != i) {
				cr_expect(strcmp(shown[i], shown[j]) != 0,
				    "two read '%s'", shown[i]);
				apart = apart && strcmp(before[i],
				    before[j]) != 0;
			}
		if (apart && profconv__utf8_chars(before[i]) <= max)
			cr_expect(eq(str, shown[i], before[i]));
	}
	for (i = 0; i < n; i++) {
		free(shown[i]);
		free(before[i]);
	}
	free(shown);
	free(before);
}

static void
legend_names_that_read_the_same_are_numbered_within_room(void)
{
	/* Whole names too long, one the end of the other. */
	static const char *const suffix[] = {
		"_start;main;perl_parse;Perl_yyparse;Perl_newUNOP;"
		    "Perl_Slab_Alloc",
		"_start;__libc_start_main;main;perl_parse;Perl_yyparse;"
		    "Perl_newUNOP;Perl_Slab_Alloc",
		"short",
	};
	/* The same frames kept, the same cut: read the same. */
	static const char *const same[] = {
		"root;aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;mid;leaf_function",
		"root;bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb;mid;leaf_function",
		"root;ccccccccccccccccccccccccccccccccccccccc;mid;leaf_function",
	};
	/* A name that reads as another's number; names of several bytes a
	 * character. */
	static const char *const hostile[] = {
		"x", "x", "x#2", "x#2",
		"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
		    "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
		    "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
		    "\u00e9\u00e9\u00e9\u00e9;\u00fc",
	};

	check_numbered(suffix, 3, 32, true);
	check_numbered(suffix, 3, 32, false);
	check_numbered(same, 3, 32, true);
	check_numbered(same, 3, 12, false);
	check_numbered(hostile, 5, 32, true);
	check_numbered(hostile, 5, 12, false);
}

Test(trendsvg_names, names_that_read_the_same_are_numbered)
{
	numbered_keep_the_difference();
	legend_names_that_read_the_same_are_numbered_within_room();
}
