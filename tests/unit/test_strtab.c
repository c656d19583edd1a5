/* SPDX-License-Identifier: MIT */
/* test_strtab.c - tests for the interned string table. */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "model/model.h"

static void
index_zero_is_empty_string(void)
{
	struct pc_strtab t;

	cr_assert(eq(int, profconv__strtab_init(&t), 0));
	cr_assert(eq(str, (char *)profconv__str(&t, 0), ""));
	profconv__strtab_free(&t);
}

static void
interning_twice_gives_same_index(void)
{
	struct pc_strtab t;
	uint32_t a, b, c;

	profconv__strtab_init(&t);
	cr_assert(eq(int, profconv__strtab_intern_cstr(&t, "malloc", &a), 0));
	cr_assert(eq(int, profconv__strtab_intern_cstr(&t, "free", &b), 0));
	cr_assert(eq(int, profconv__strtab_intern_cstr(&t, "malloc", &c), 0));
	cr_assert(eq(u32, a, c));
	cr_assert(ne(u32, a, b));
	cr_assert(eq(u32, t.len, 3));
	profconv__strtab_free(&t);
}

static void
keeps_embedded_lengths_apart(void)
{
	struct pc_strtab t;
	uint32_t a, b;

	profconv__strtab_init(&t);
	profconv__strtab_intern(&t, "abc", 2, &a);
	profconv__strtab_intern(&t, "abc", 3, &b);
	cr_assert(ne(u32, a, b));
	cr_assert(eq(str, (char *)profconv__str(&t, a), "ab"));
	profconv__strtab_free(&t);
}

static void
keeps_nul_bytes_and_full_lengths(void)
{
	struct pc_strtab t;
	uint32_t a, b;

	profconv__strtab_init(&t);
	profconv__strtab_intern(&t, "ma\0in", 5, &a);
	profconv__strtab_intern(&t, "ma", 2, &b);
	cr_assert(ne(u32, a, b));
	cr_assert(eq(sz, profconv_string_len(profconv__str(&t, a)), 5));
	cr_assert(eq(sz, profconv_string_len(profconv__str(&t, b)), 2));
	cr_assert(eq(sz, profconv_string_len(profconv__str(&t, 0)), 0));
	profconv__strtab_free(&t);
}

/* Each byte that starts no UTF-8 sequence becomes U+FFFD; a repaired
 * string is counted once however often it is interned. */
static void
repairs_invalid_utf8_and_counts_it(void)
{
	struct pc_strtab t;
	uint32_t a, b, c;

	profconv__strtab_init(&t);
	cr_assert(eq(int, profconv__strtab_intern(&t, "caf\xe9", 4, &a), 0));
	cr_assert(eq(str, (char *)profconv__str(&t, a), "caf\xef\xbf\xbd"));
	profconv__strtab_intern(&t, "caf\xe9", 4, &b);
	cr_assert(eq(u32, a, b));
	/* A truncated sequence, a lone continuation, a surrogate. */
	profconv__strtab_intern(&t, "\xe2\x82x\x80\xed\xa0\x80", 7, &c);
	cr_assert(eq(str, (char *)profconv__str(&t, c), "\xef\xbf\xbd"
	    "\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
	cr_assert(eq(sz, t.repaired, 2));
	profconv__strtab_free(&t);
}

Test(strtab, interns_strings_by_bytes_and_length)
{
	index_zero_is_empty_string();
	interning_twice_gives_same_index();
	keeps_embedded_lengths_apart();
	keeps_nul_bytes_and_full_lengths();
	repairs_invalid_utf8_and_counts_it();
}

Test(strtab, survives_growth_with_stable_pointers)
{
	struct pc_strtab t;
	char buf[32];
	const char *first;
	uint32_t idx, i;

	profconv__strtab_init(&t);
	profconv__strtab_intern_cstr(&t, "s0", &idx);
	first = profconv__str(&t, idx);
	for (i = 1; i < 200000; i++) {
		snprintf(buf, sizeof(buf), "s%u", i);
		cr_assert(eq(int, profconv__strtab_intern_cstr(&t, buf, &idx), 0));
		cr_assert(eq(u32, idx, i + 1));
	}
	cr_assert(eq(str, (char *)first, "s0"));
	cr_assert(profconv__strtab_find(&t, "s123456", 7, &idx));
	cr_assert(eq(str, (char *)profconv__str(&t, idx), "s123456"));
	cr_assert(not(profconv__strtab_find(&t, "nope", 4, &idx)));
	profconv__strtab_free(&t);
	ASSERT_NO_LEAKS();
}
