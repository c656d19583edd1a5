/* SPDX-License-Identifier: MIT */
/*
 * lex.c - the text readers' lexing: decimal and hex numbers, Go's
 * strconv.ParseInt, lines, pprof's isSpaceOrComment, and stacks of
 * addresses.
 */

#include "config.h"

#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "read/lex.h"

/* --- number parsing ------------------------------------------------------------ */

bool
profconv__parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp, *fast;
	uint64_t v = 0;

	if (p == end || *p < '0' || *p > '9')
		return false;
	/* 19 digits cannot overflow: no check until then. */
	fast = end - p > 19 ? p + 19 : end;
	for (; p < fast && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	*pp = p;
	return true;
}

bool
profconv__parse_i64(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	bool neg = false;
	uint64_t v;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (!profconv__parse_u64(&p, end, &v))
		return false;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*pp = p;
	return true;
}

#if defined(__SSE2__) && defined(__x86_64__)
/*
 * How many hex digits lead the 16 bytes at P (all of them may be read),
 * and when that is 1 to 15, their value in *OUT; 16 digits (maybe more)
 * go the scalar way, which checks overflow.  SSE2, which every x86-64
 * has: sixteen bytes classified and turned into nibbles at once, then
 * packed in pairs.
 */
static inline unsigned
hex16(const char *p, uint64_t *out)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
	/* Bytes of 0x80 and more compare as negative: never digits. */
	__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
	    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
	__m128i letter = _mm_and_si128(
	    _mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
	    _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
	unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(digit,
	    letter));
	unsigned n = (unsigned)__builtin_ctz(~mask | 0x10000u);
	__m128i nib, pairs;
	uint64_t w;

	if (n == 0 || n == 16)
		return n;
	/* Digits: c - '0'; letters: (c | 0x20) - 'a' + 10 = (c | 0x20) - 87. */
	nib = _mm_or_si128(
	    _mm_and_si128(digit, _mm_sub_epi8(v, _mm_set1_epi8('0'))),
	    _mm_andnot_si128(digit, _mm_sub_epi8(lower, _mm_set1_epi8(87))));
	nib = _mm_and_si128(nib, _mm_set1_epi8(0x0f));
	/* Byte pairs (a, b) -> a << 4 | b, then eight bytes, first digit
	 * first: big-endian. */
	pairs = _mm_or_si128(_mm_slli_epi16(nib, 4), _mm_srli_epi16(nib, 8));
	pairs = _mm_and_si128(pairs, _mm_set1_epi16(0xff));
	pairs = _mm_packus_epi16(pairs, pairs);
	w = (uint64_t)_mm_cvtsi128_si64(pairs);
	*out = __builtin_bswap64(w) >> (4 * (16 - n));
	return n;
}
#endif

bool
profconv__parse_hex(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp, *fast;
	uint64_t v = 0;
	unsigned d;

#if defined(__SSE2__) && defined(__x86_64__)
	if (end - p >= 16) {
		unsigned n = hex16(p, &v);

		if (n == 0)
			return false;
		if (n < 16) {
			*out = v;
			*pp = p + n;
			return true;
		}
		v = 0;
	}
#endif

	/* 16 digits cannot overflow: no check until then. */
	fast = end - p > 16 ? p + 16 : end;
	for (; p < fast && (d = profconv__hex_digit[(unsigned char)*p]) < 16;
	    p++)
		v = v << 4 | d;
	for (; p < end && (d = profconv__hex_digit[(unsigned char)*p]) < 16;
	    p++) {
		if (v >> 60 != 0)
			return false;
		v = v << 4 | d;
	}
	if (p == *pp)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* [0-9a-fA-F] to their values, anything else to 0xff. */
#define H16(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : \
	(c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
	(c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : 0xff)
#define H4(c) H16(c), H16((c) + 1), H16((c) + 2), H16((c) + 3)
#define H32(c) H4(c), H4((c) + 4), H4((c) + 8), H4((c) + 12), \
	H4((c) + 16), H4((c) + 20), H4((c) + 24), H4((c) + 28)
const unsigned char profconv__hex_digit[256] = {
	H32(0), H32(32), H32(64), H32(96),
	H32(128), H32(160), H32(192), H32(224)
};
#undef H32
#undef H4
#undef H16

/* --- lines ------------------------------------------------------------------ */

int
profconv__next_line(struct pc_input *in, const char **line, size_t *len,
    bool *eof, bool trim)
{
	int rc = profconv__input_getline(in, line, len);

	if (rc < 0)
		return rc;
	*eof = rc == 0;
	if (*eof)
		*len = 0;
	else if (trim)
		pc_trim(line, len);
	return rc;
}

/* --- Go's strconv.ParseInt(s, 0, 64) ------------------------------------------ */

/* A digit's value in bases up to 36 (strconv's lower(c) - 'a' + 10). */
static int
digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/*
 * strconv's underscoreOK: '_' only between digits (a base prefix counts
 * as a digit).  P..END is the number after its sign and prefix; HEX
 * allows a-f as digits.
 */
static bool
underscores_ok(const char *p, const char *end, bool prefixed, bool hex)
{
	char saw = prefixed ? '0' : '^';

	for (; p < end; p++) {
		bool digit = pc_is_digit(*p) ||
		    (hex && digit_value(*p) >= 10 && digit_value(*p) < 16);

		if (digit)
			saw = '0';
		else if (*p == '_' && saw != '0')
			return false;
		else if (*p == '_')
			saw = '_';
		else if (saw == '_')
			return false;
		else
			saw = '!';
	}
	return saw != '_';
}

/* strconv's base 0: the base from the prefix, advancing *P past it. */
static unsigned
go_base(const char **p, const char *end, bool *prefixed)
{
	const char *s = *p;

	*prefixed = false;
	if (s == end || *s != '0')
		return 10;
	if (end - s >= 3 && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' ||
	    s[1] == 'B' || s[1] == 'o' || s[1] == 'O')) {
		*prefixed = true;
		*p = s + 2;
		return s[1] == 'x' || s[1] == 'X' ? 16 :
		    s[1] == 'b' || s[1] == 'B' ? 2 : 8;
	}
	*p = s + 1;		/* a leading 0 means octal */
	return 8;
}

/*
 * Unlike Go, the int64 bound is checked digit by digit, so a number that
 * is out of range before a bad digit is a range error, not a syntax one.
 */
int
profconv__go_parse_int(const char *s, size_t len, int64_t *out)
{
	const char *p = s, *end = s + len, *num;
	bool neg = false, prefixed, underscores = false;
	uint64_t v = 0, max;
	unsigned base;
	int d;

	if (p < end && (*p == '+' || *p == '-')) {
		neg = *p == '-';
		p++;
	}
	if (p == end)
		return PC_GO_ESYNTAX;
	max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	num = p;
	base = go_base(&p, end, &prefixed);
	for (; p < end; p++) {
		if (*p == '_') {
			underscores = true;
			continue;
		}
		d = digit_value(*p);
		if (d >= (int)base)
			return PC_GO_ESYNTAX;
		if (v > (max - (uint64_t)d) / base)
			return PC_GO_ERANGE;
		v = v * base + (uint64_t)d;
	}
	if (underscores && !underscores_ok(num + (prefixed ? 2 : 0), end,
	    prefixed, base == 16))
		return PC_GO_ESYNTAX;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* --- text --------------------------------------------------------------------- */

/* Length of the UTF-8 encoded Unicode space (beyond ASCII) at S, or 0. */
static size_t
unicode_space_len(const unsigned char *s, const unsigned char *end)
{
	if (end - s >= 2 && s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;			/* U+0085, U+00A0 */
	if (end - s < 3)
		return 0;
	if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
		return 3;			/* U+1680 */
	if (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8a) ||
	    s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
		return 3;		/* U+2000-200A, 2028, 2029, 202F */
	if ((s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f) ||
	    (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80))
		return 3;			/* U+205F, U+3000 */
	return 0;
}

bool
profconv__is_space_or_comment(const char *line, size_t len)
{
	const unsigned char *s = (const unsigned char *)line, *end = s + len;
	size_t n;

	while (s < end) {
		if (pc_is_ws(*s)) {
			s++;
			continue;
		}
		n = unicode_space_len(s, end);
		if (n == 0)
			return *s == '#';
		s += n;
	}
	return true;
}

int
profconv__harvest_addresses(struct pc_addrs *a, const char *p,
    const char *end, uint64_t adjust, uint64_t lineno, int quote_max)
{
	const char *q;
	uint64_t v;
	int rc;

	while (p < end) {
		if (end - p < 3 || p[0] != '0' || p[1] != 'x' ||
		    !pc_is_lower_hex(p[2])) {
			p++;
			continue;
		}
		for (q = p + 2; q < end && pc_is_lower_hex(*q); q++)
			;
		p += 2;
		if (!profconv__parse_hex(&p, q, &v))
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: address '0x%.*s' does not fit in 64 "
			    "bits", (unsigned long long)lineno,
			    (int)(q - p < quote_max ? q - p : quote_max), p);
		rc = PC_GROW(a->v, a->cap, a->n, 1);
		if (rc < 0)
			return rc;
		a->v[a->n++] = v - adjust;
	}
	return 0;
}

/* The value of [0-9a-f] (pprof's address digits), or 16 and more. */
static inline unsigned
lower_hex(char c)
{
	unsigned d = (unsigned)(unsigned char)c - '0';

	return d < 10 ? d : (unsigned)(unsigned char)c - 'a' < 6 ?
	    (unsigned)(unsigned char)c - 'a' + 10 : 16;
}

int
profconv__parse_stack(struct pc_addrs *a, const char *p, const char *end,
    uint64_t adjust, uint64_t lineno)
{
	char quoted[PC_QUOTE_SIZE];
	const char *q, *h;
	int rc;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return 0;
		/* The usual token, 0x and at most 16 lower-case hex digits,
		 * scanned and converted in one pass; anything else goes the
		 * long way below, which also words the errors. */
		if (end - p >= 3 && p[0] == '0' && p[1] == 'x') {
			uint64_t v = 0;
			unsigned d;

			for (h = p + 2; h < end && h - p <= 17 &&
			    (d = lower_hex(*h)) < 16; h++)
				v = v << 4 | d;
			if (h > p + 2 && h - p <= 18 &&
			    (h == end || *h == ' ' || *h == '\t')) {
				rc = PC_GROW(a->v, a->cap, a->n, 1);
				if (rc < 0)
					return rc;
				a->v[a->n++] = v - adjust;
				p = h;
				continue;
			}
		}
		for (q = p; q < end && *q != ' ' && *q != '\t'; q++)
			;
		for (h = p + 2; h < q && pc_is_lower_hex(*h); h++)
			;
		if (q - p < 3 || p[0] != '0' || p[1] != 'x' || h != q)
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: malformed address '%s' in stack",
			    (unsigned long long)lineno,
			    profconv__quote(quoted, p, (size_t)(q - p)));
		rc = profconv__harvest_addresses(a, p, q, adjust, lineno, 32);
		if (rc < 0)
			return rc;
		p = q;
	}
}
