/* SPDX-License-Identifier: MIT */
/*
 * contention.c - reader of legacy contention profiles ("--- contentionz",
 * "--- mutex:", "--- contention:") with google/pprof's parseContention
 * semantics (pprof-reference.md section 2.4).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "legacy.h"

/* Longest piece of input quoted in an error message. */
#define QUOTE_MAX 64

struct cont_state {
	struct pc_legacy b;
	struct pc_input *in;
	const char *line;		/* the current line, trimmed */
	size_t len;
	bool eof;			/* no current line: input exhausted */
	int64_t period, cpu_hz;
	uint64_t *addrs;		/* scratch for one stack */
	size_t naddrs, addrs_cap;
};

static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

/* Trim ASCII white space from both ends of [*P, *P + *LEN). */
static void
trim(const char **p, size_t *len)
{
	while (*len != 0 && is_ws(**p)) {
		(*p)++;
		(*len)--;
	}
	while (*len != 0 && is_ws((*p)[*len - 1]))
		(*len)--;
}

static bool
has_prefix(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(p, prefix, n) == 0;
}

/* Make the next line current (trimmed); 0 at end of input. */
static int
next_line(struct cont_state *st)
{
	int rc = profconv__input_getline(st->in, &st->line, &st->len);

	if (rc < 0)
		return rc;
	st->eof = rc == 0;
	if (st->eof)
		st->len = 0;
	else
		trim(&st->line, &st->len);
	return rc;
}

/* --- Go's strconv.ParseInt(s, 0, 64) -------------------------------------- */

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
 * Underscores may only separate digits (a base prefix counts as a digit).
 * P..END is the number after its sign; HEX allows a-f as digits.
 */
static bool
underscores_ok(const char *p, const char *end, bool prefixed, bool hex)
{
	char saw = prefixed ? '0' : '^';

	for (; p < end; p++) {
		bool digit = (*p >= '0' && *p <= '9') ||
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

/* The base of [*P, END) from its prefix, advancing *P past the prefix. */
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

/* Parse an attribute value as Go's strconv.ParseInt(s, 0, 64) does. */
static bool
go_parse_int(const char *s, size_t len, int64_t *out)
{
	const char *p = s, *end = s + len, *num;
	bool neg = false, prefixed, underscores = false;
	uint64_t v = 0;
	unsigned base;
	int d;

	if (p < end && (*p == '+' || *p == '-')) {
		neg = *p == '-';
		p++;
	}
	if (p == end)
		return false;
	num = p;
	base = go_base(&p, end, &prefixed);
	for (; p < end; p++) {
		if (*p == '_') {
			underscores = true;
			continue;
		}
		d = digit_value(*p);
		if (d >= (int)base || v > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	if (underscores && !underscores_ok(num + (prefixed ? 2 : 0), end,
	    prefixed, base == 16))
		return false;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* --- attributes ----------------------------------------------------------- */

static int
bad_value(const struct cont_state *st, const char *key, size_t klen,
    const char *val, size_t vlen)
{
	return profconv__fail(PROFCONV_EFORMAT,
	    "line %llu: invalid value '%.*s' for attribute '%.*s'",
	    (unsigned long long)st->in->lineno, (int)(vlen < QUOTE_MAX ?
	    vlen : QUOTE_MAX), val, (int)klen, key);
}

/* Apply one "key = value" line. */
static int
attribute(struct cont_state *st, const char *key, size_t klen,
    const char *val, size_t vlen)
{
	int64_t v;

#define KEY_IS(s) (klen == strlen(s) && memcmp(key, s, klen) == 0)
	if (KEY_IS("discarded samples"))
		return 0;
	if (KEY_IS("format") || KEY_IS("resolution"))
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "Java contention profiles are not supported");
	if (!KEY_IS("cycles/second") && !KEY_IS("sampling period") &&
	    !KEY_IS("ms since reset"))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: unknown contention profile attribute '%.*s'",
		    (unsigned long long)st->in->lineno,
		    (int)(klen < QUOTE_MAX ? klen : QUOTE_MAX), key);
	if (!go_parse_int(val, vlen, &v))
		return bad_value(st, key, klen, val, vlen);
	if (KEY_IS("cycles/second"))
		st->cpu_hz = v;
	else if (KEY_IS("sampling period"))
		st->period = v;
	else	/* Go's int64 product wraps; so does this one. */
		profconv_profile_set_time(st->b.prof, 0,
		    (int64_t)((uint64_t)v * 1000000));
#undef KEY_IS
	return 0;
}

/*
 * Read the "key = value" lines after the header.  They end at a line
 * without '=' or starting with "---", which stays current.
 */
static int
read_attributes(struct cont_state *st)
{
	const char *eq, *key, *val;
	size_t klen, vlen;
	int rc;

	while ((rc = next_line(st)) == 1) {
		if (st->len == 0 || st->line[0] == '#')
			continue;
		if (has_prefix(st->line, st->len, "---"))
			break;
		eq = memchr(st->line, '=', st->len);
		if (eq == NULL)
			break;
		key = st->line;
		klen = (size_t)(eq - key);
		val = eq + 1;
		vlen = st->len - klen - 1;
		trim(&key, &klen);
		trim(&val, &vlen);
		rc = attribute(st, key, klen, val, vlen);
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

/* --- samples -------------------------------------------------------------- */

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * pprof's unanchored contentionSampleRE, (\d+) *(\d+) @([ x0-9a-f]*),
 * with its leftmost-first choice: the first digit run that can start a
 * match; its whole run as the first number when spaces and a second run
 * follow, else all but its last digit.  Sets the two number spans and
 * the address text.
 */
static bool
match_sample(const char *p, const char *end, const char *num[4],
    const char **addrs, const char **addrs_end)
{
	const char *r, *s, *t;

	for (; p < end; p = r) {
		if (!is_digit(*p)) {
			r = p + 1;
			continue;
		}
		for (r = p; r < end && is_digit(*r); r++)
			;
		for (s = r; s < end && *s == ' '; s++)
			;
		for (t = s; t < end && is_digit(*t); t++)
			;
		if (t == s || end - t < 2 || t[0] != ' ' || t[1] != '@') {
			/* Backtrack: the run's last digit is the count. */
			if (r - p < 2 || end - r < 2 || r[0] != ' ' ||
			    r[1] != '@')
				continue;
			s = r - 1;
			t = r;
			r = s;
		}
		num[0] = p;
		num[1] = r;
		num[2] = s;
		num[3] = t;
		for (r = t + 2; r < end && (*r == ' ' || *r == 'x' ||
		    is_digit(*r) || (*r >= 'a' && *r <= 'f')); r++)
			;
		*addrs = t + 2;
		*addrs_end = r;
		return true;
	}
	return false;
}

static bool
is_lower_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* Every 0x<lowercase hex> in [P, END) minus one, as parseHexAddresses. */
static int
harvest_addresses(struct cont_state *st, const char *p, const char *end)
{
	const char *q;
	uint64_t a;
	int rc;

	while (p < end) {
		if (end - p < 3 || p[0] != '0' || p[1] != 'x' ||
		    !is_lower_hex(p[2])) {
			p++;
			continue;
		}
		for (q = p + 2; q < end && is_lower_hex(*q); q++)
			;
		p += 2;
		if (!profconv__parse_hex(&p, q, &a))
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: address '0x%.*s' does not fit in 64 "
			    "bits", (unsigned long long)st->in->lineno,
			    (int)(q - p < QUOTE_MAX ? q - p : QUOTE_MAX), p);
		rc = PC_GROW(st->addrs, st->addrs_cap, st->naddrs, 1);
		if (rc < 0)
			return rc;
		/* Return addresses: step back into the call (wraps like Go). */
		st->addrs[st->naddrs++] = a - 1;
	}
	return 0;
}

/* Go's float64 -> int64 on amd64: out of range gives INT64_MIN. */
static int64_t
go_float_to_int64(double x)
{
	if (x >= -0x1p63 && x < 0x1p63)
		return (int64_t)x;
	return INT64_MIN;
}

/* One "delay count @ addrs" line: values unsampled as pprof does. */
static int
sample(struct cont_state *st)
{
	const char *num[4], *a, *a_end, *p;
	int64_t v[2];
	int i, rc;

	if (!match_sample(st->line, st->line + st->len, num, &a, &a_end))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: expected 'delay count @ addresses', got '%.*s'",
		    (unsigned long long)st->in->lineno,
		    (int)(st->len < QUOTE_MAX ? st->len : QUOTE_MAX), st->line);
	for (i = 0; i < 2; i++) {
		p = num[2 * i];
		if (!profconv__parse_i64(&p, num[2 * i + 1], &v[i]))
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: sample value '%.*s' is out of range",
			    (unsigned long long)st->in->lineno,
			    (int)(num[2 * i + 1] - num[2 * i]), num[2 * i]);
	}
	if (st->period > 0) {
		/* The exact float64 steps of pprof, so results agree. */
		if (st->cpu_hz > 0)
			v[0] = go_float_to_int64((double)v[0] *
			    (double)st->period / ((double)st->cpu_hz / 1e9));
		v[1] = (int64_t)((uint64_t)v[1] * (uint64_t)st->period);
	}
	st->naddrs = 0;
	rc = harvest_addresses(st, a, a_end);
	if (rc == 0) {
		int64_t values[2] = { v[1], v[0] };	/* count, delay */

		rc = profconv__legacy_add_sample(&st->b, st->addrs, st->naddrs,
		    values, NULL, 0);
	}
	return rc;
}

/* Sample lines, from the current one up to a "---" line or the end. */
static int
read_samples(struct cont_state *st)
{
	int rc;

	while (!st->eof) {
		if (has_prefix(st->line, st->len, "---"))
			return 0;
		if (st->len != 0 && st->line[0] != '#') {
			rc = sample(st);
			if (rc < 0)
				return rc;
		}
		rc = next_line(st);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Skip to the memory-map sentinel (maybe the current line); parse the rest. */
static int
read_maps(struct cont_state *st)
{
	int rc;

	while (!st->eof && !profconv__maps_is_sentinel(st->line, st->len)) {
		rc = next_line(st);
		if (rc < 0)
			return rc;
	}
	if (st->eof)
		return 0;
	return profconv__maps_parse_rest(&st->b.maps, st->in);
}

static int
read_all(struct cont_state *st)
{
	int rc;

	/* The header is matched untrimmed, as pprof does. */
	rc = profconv__input_getline(st->in, &st->line, &st->len);
	if (rc < 0)
		return rc;
	if (rc == 0 || !(has_prefix(st->line, st->len, "--- contentionz ") ||
	    has_prefix(st->line, st->len, "--- mutex:") ||
	    has_prefix(st->line, st->len, "--- contention:")))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line 1: expected a '--- contentionz', '--- mutex:' or "
		    "'--- contention:' header");
	rc = profconv_profile_add_sample_type(st->b.prof, "contentions",
	    "count");
	if (rc == 0)
		rc = profconv_profile_add_sample_type(st->b.prof, "delay",
		    "nanoseconds");
	if (rc == 0)
		rc = read_attributes(st);
	if (rc == 0)
		rc = profconv_profile_set_period(st->b.prof, "contentions",
		    "count", st->period);
	if (rc == 0)
		rc = read_samples(st);
	if (rc == 0)
		rc = read_maps(st);
	return rc;
}

int
profconv__read_contention(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct cont_state st = { .in = in, .period = 1 };
	int rc;

	(void)opts;
	*out = NULL;
	rc = profconv__legacy_init(&st.b);
	if (rc == 0)
		rc = read_all(&st);
	if (rc == 0)
		rc = profconv__legacy_finish(&st.b, out);
	free(st.addrs);
	profconv__legacy_free(&st.b);
	return rc;
}
