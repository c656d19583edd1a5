/* SPDX-License-Identifier: MIT */
/*
 * test_lex.c - the text readers' lexing (lib/read/lex.c): decimal and
 * hex numbers at their 64-bit limits, Go's strconv.ParseInt(s, 0, 64),
 * pprof's isSpaceOrComment with Unicode spaces, and stacks of addresses
 * as pprof's parseHexAddresses finds them.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "read/lex.h"

/* Parse S with FN; the value, and how many bytes were taken in *USED
 * (-1 when refused). */
#define PARSE(fn, s, v, used) do { \
	const char *p_ = (s), *e_ = p_ + strlen(p_); \
	*(used) = fn(&p_, e_, (v)) ? (int)(p_ - (s)) : -1; \
} while (0)

static void
decimal_numbers_at_the_limits(void)
{
	uint64_t u;
	int64_t i;
	int used;

	PARSE(profconv__parse_u64, "18446744073709551615x", &u, &used);
	cr_assert(eq(int, used, 20));
	cr_assert(eq(u64, u, UINT64_MAX));
	PARSE(profconv__parse_u64, "18446744073709551616", &u, &used);
	cr_assert(eq(int, used, -1));
	PARSE(profconv__parse_u64, "00000000000000000000042", &u, &used);
	cr_assert(eq(u64, u, 42));
	PARSE(profconv__parse_u64, "-1", &u, &used);
	cr_assert(eq(int, used, -1));
	PARSE(profconv__parse_i64, "-9223372036854775808", &i, &used);
	cr_assert(eq(int, used, 20));
	cr_assert(eq(i64, i, INT64_MIN));
	PARSE(profconv__parse_i64, "9223372036854775808", &i, &used);
	cr_assert(eq(int, used, -1));
	PARSE(profconv__parse_i64, "-", &i, &used);
	cr_assert(eq(int, used, -1));
}

/* Hex runs long enough for the 16-byte path and short ones agree. */
static void
hex_numbers_both_paths(void)
{
	uint64_t v;
	int used;

	PARSE(profconv__parse_hex, "deadBEEF and more text", &v, &used);
	cr_assert(eq(int, used, 8));
	cr_assert(eq(u64, v, 0xdeadbeef));
	PARSE(profconv__parse_hex, "123456789abcdef rest", &v, &used);
	cr_assert(eq(int, used, 15));
	cr_assert(eq(u64, v, 0x123456789abcdefULL));
	PARSE(profconv__parse_hex, "ffffffffffffffff", &v, &used);
	cr_assert(eq(u64, v, UINT64_MAX));
	PARSE(profconv__parse_hex, "10000000000000000", &v, &used);
	cr_assert(eq(int, used, -1));
	PARSE(profconv__parse_hex, "000000000000000000001 ", &v, &used);
	cr_assert(eq(int, used, 21));
	cr_assert(eq(u64, v, 1));
	PARSE(profconv__parse_hex, "a", &v, &used);
	cr_assert(eq(u64, v, 10));
	PARSE(profconv__parse_hex, "g0000000000000000000", &v, &used);
	cr_assert(eq(int, used, -1));
	PARSE(profconv__parse_hex, "", &v, &used);
	cr_assert(eq(int, used, -1));
}

/* strconv.ParseInt(s, 0, 64) as Go answers each (value, or which
 * error: the first met going digit by digit). */
static void
go_parse_int_as_strconv(void)
{
	static const struct { const char *s; int rc; int64_t v; } c[] = {
		{ "0x1F", 0, 31 }, { "0X_1f", 0, 31 }, { "017", 0, 15 },
		{ "0o17", 0, 15 }, { "0b101", 0, 5 }, { "1_000", 0, 1000 },
		{ "+5", 0, 5 }, { "-0x8000000000000000", 0, INT64_MIN },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "9223372036854775808", PC_GO_ERANGE, 0 },
		{ "0x8000000000000000", PC_GO_ERANGE, 0 },
		{ "99999999999999999999x", PC_GO_ERANGE, 0 },
		{ "9x99999999999999999999", PC_GO_ESYNTAX, 0 },
		{ "08", PC_GO_ESYNTAX, 0 }, { "", PC_GO_ESYNTAX, 0 },
		{ "0x", PC_GO_ESYNTAX, 0 }, { "_1", PC_GO_ESYNTAX, 0 },
		{ "1__0", PC_GO_ESYNTAX, 0 }, { "1_", PC_GO_ESYNTAX, 0 },
		{ "-", PC_GO_ESYNTAX, 0 }, { " 1", PC_GO_ESYNTAX, 0 },
	};
	int64_t v;

	for (size_t i = 0; i < PC_ARRAY_LEN(c); i++) {
		v = 0;
		cr_expect(eq(int, profconv__go_parse_int(c[i].s, strlen(c[i].s),
		    &v), c[i].rc), "'%s'", c[i].s);
		if (c[i].rc == 0)
			cr_expect(eq(i64, v, c[i].v), "'%s'", c[i].s);
	}
}

/* Decimal and hex numbers at their limits, and as Go's strconv reads them. */
Test(lex, numbers_as_go_parses_them)
{
	decimal_numbers_at_the_limits();
	hex_numbers_both_paths();
	go_parse_int_as_strconv();
}

/* TrimSpace trims Unicode white space (U+00A0, U+3000), not a zero
 * width space (U+200B), which Go's unicode.IsSpace does not count. */
Test(lex, space_or_comment_as_pprof)
{
	static const struct { const char *s; bool want; } c[] = {
		{ "", true }, { " \t\r\v\f", true }, { "  # note", true },
		{ "x #", false }, { "\xc2\xa0# nbsp", true },
		{ "\xe3\x80\x80\xe2\x80\xaf", true },
		{ "\xe2\x80\x8b#", false }, { "\xc2", false },
	};

	for (size_t i = 0; i < PC_ARRAY_LEN(c); i++)
		cr_expect(eq(int, profconv__is_space_or_comment(c[i].s,
		    strlen(c[i].s)), c[i].want), "case %zu", i);
}

/* parseHexAddresses: every 0x[0-9a-f]+ anywhere in the text, upper-case
 * digits not among them, each less ADJUST with Go's wrap-around. */
static void
harvest_finds_every_lower_hex_address(void)
{
	static const char s[] = "@ 0x1 0x2 foo 0xAB x0x10 0x";
	struct pc_addrs a = { 0 };

	cr_assert(eq(int, profconv__harvest_addresses(&a, s, s + strlen(s),
	    2, 1, 32), 0));
	cr_assert(eq(sz, a.n, 3));
	cr_assert(eq(u64, a.v[0], UINT64_MAX));
	cr_assert(eq(u64, a.v[1], 0));
	cr_assert(eq(u64, a.v[2], 0xe));
	free(a.v);
}

static void
harvest_refuses_addresses_over_64_bits(void)
{
	static const char s[] = "0x10000000000000000";
	struct pc_addrs a = { 0 };

	cr_assert(eq(int, profconv__harvest_addresses(&a, s, s + strlen(s),
	    0, 7, 4), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 7: address '0x1000' does not fit in "
	    "64 bits"));
	free(a.v);
}

/* A stack is addresses only: 16 digits on the fast path, more (zeros
 * first) on the long one; any other token is named. */
static void
stack_of_addresses_only(void)
{
	static const char ok[] = " 0x10\t0xffffffffffffffff 0x00000000000000000a ";
	static const char bad[] = "0x1 0x2z 0x3";
	struct pc_addrs a = { 0 };

	cr_assert(eq(int, profconv__parse_stack(&a, ok, ok + strlen(ok), 0,
	    3), 0), "%s", ERRMSG);
	cr_assert(eq(sz, a.n, 3));
	cr_assert(eq(u64, a.v[0], 0x10));
	cr_assert(eq(u64, a.v[1], UINT64_MAX));
	cr_assert(eq(u64, a.v[2], 0xa));
	cr_assert(eq(int, profconv__parse_stack(&a, bad, bad + strlen(bad), 0,
	    9), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 9: malformed address '0x2z' in stack"));
	free(a.v);
}

/* Hex addresses found in text and in stacks, as pprof's
 * parseHexAddresses finds them. */
Test(lex, hex_addresses_as_pprof_finds_them)
{
	harvest_finds_every_lower_hex_address();
	harvest_refuses_addresses_over_64_bits();
	stack_of_addresses_only();
}
