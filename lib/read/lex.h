/* SPDX-License-Identifier: MIT */
/*
 * lex.h - the lexing every text reader shares: white space and digits as
 * Go's regexps and strings package see them, numbers (and Go's
 * strconv.ParseInt), lines of an input, and stacks of hex addresses as
 * google/pprof's legacy parsers read them (pprof-reference.md section 2).
 */
#ifndef PROFCONV_LEX_H
#define PROFCONV_LEX_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "read/input.h"

/* Skip spaces and tabs from *P up to END. */
static inline const char *
pc_skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Go's regexp \d (and strconv's decimal digits): ASCII 0-9 only. */
static inline bool
pc_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* [0-9a-f], the digits of pprof's address regexps (0x[0-9a-f]+). */
static inline bool
pc_is_lower_hex(int c)
{
	return pc_is_digit(c) || (c >= 'a' && c <= 'f');
}

/* The value of the hex digit C ([0-9a-fA-F] in ASCII, whatever the
 * locale), or -1 when C is none. */
static inline int
pc_hex_value(int c)
{
	if (pc_is_digit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static inline bool
pc_is_hex(int c)
{
	return pc_hex_value(c) >= 0;
}

/*
 * Go's int64(f) on amd64: out-of-range values and NaN become the
 * "integer indefinite" value, INT64_MIN, where C leaves them undefined.
 */
static inline int64_t
pc_go_float_to_int64(double f)
{
	if (f >= -0x1p63 && f < 0x1p63)
		return (int64_t)f;
	return INT64_MIN;
}

/* Go's regexp \s: only these five; \v is not white space there. */
static inline bool
pc_is_re_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* The ASCII white space Go's strings.TrimSpace trims (with \v). */
static inline bool
pc_is_ws(int c)
{
	return pc_is_re_space(c) || c == '\v';
}

/* strings.TrimSpace on ASCII white space: trim both ends of [*P, +*LEN). */
static inline void
pc_trim(const char **p, size_t *len)
{
	while (*len != 0 && pc_is_ws(**p)) {
		(*p)++;
		(*len)--;
	}
	while (*len != 0 && pc_is_ws((*p)[*len - 1]))
		(*len)--;
}

/* strings.HasPrefix: does [P, P + LEN) start with PREFIX? */
static inline bool
pc_has_prefix(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(p, prefix, n) == 0;
}

/*
 * Parse an unsigned decimal number at *P (no sign), advancing *P.  False
 * when there is no digit or it overflows 64 bits (then *P is unchanged).
 */
bool profconv__parse_u64(const char **p, const char *end, uint64_t *out);
/* The same with an optional leading '-', into int64_t. */
bool profconv__parse_i64(const char **p, const char *end, int64_t *out);
/* Parse hex digits (no 0x) at *P; false on none or overflow. */
extern const unsigned char profconv__hex_digit[256];	/* or 0xff */
bool profconv__parse_hex(const char **p, const char *end, uint64_t *out);

/*
 * Go's strconv.ParseInt(s, 0, 64): optional sign, a 0x/0o/0b prefix or a
 * leading 0 for octal, '_' between digits.  Returns 0, PC_GO_ESYNTAX or
 * PC_GO_ERANGE, deciding digit by digit which error comes first.
 */
#define PC_GO_ESYNTAX 1
#define PC_GO_ERANGE 2
int profconv__go_parse_int(const char *s, size_t len, int64_t *out);

/*
 * pprof's isSpaceOrComment: strings.TrimSpace(line) is empty or starts
 * with '#'.  TrimSpace trims Unicode white space, not only ASCII.
 */
bool profconv__is_space_or_comment(const char *line, size_t len);

/*
 * Make the next line of IN current in *LINE and *LEN, trimmed as
 * strings.TrimSpace does when TRIM.  Returns 1; at end of input 0, with
 * *EOF set and *LEN 0; or a negative error.
 */
int profconv__next_line(struct pc_input *in, const char **line, size_t *len,
    bool *eof, bool trim);

/* A growing list of addresses (one stack). */
struct pc_addrs {
	uint64_t *v;
	size_t n, cap;
};

/*
 * pprof's parseHexAddresses: append every "0x[0-9a-f]+" in [P, END) to
 * A, each minus ADJUST (wrapping like Go).  One too long for 64 bits
 * fails with "line LINENO: address '0x...' does not fit in 64 bits",
 * quoting at most QUOTE_MAX of its digits.
 */
int profconv__harvest_addresses(struct pc_addrs *a, const char *p,
    const char *end, uint64_t adjust, uint64_t lineno, int quote_max);

/*
 * A stack that is nothing but addresses: [P, END) must be blank-separated
 * "0x[0-9a-f]+" tokens (possibly none), appended to A as by
 * profconv__harvest_addresses().  Any other token fails with "line
 * LINENO: malformed address 'TOKEN' in stack" instead of being skipped.
 */
int profconv__parse_stack(struct pc_addrs *a, const char *p,
    const char *end, uint64_t adjust, uint64_t lineno);

#endif /* PROFCONV_LEX_H */
