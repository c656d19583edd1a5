/* SPDX-License-Identifier: MIT */
/*
 * gocount.c - reader of Go's count profiles ("goroutine profile: total N",
 * "threadcreate profile: total N", any "<type> profile: total N"), read
 * as google/pprof's parseGoCount does (pprof-reference.md section 2.3).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "legacy.h"

#define TOTAL_TAG " profile: total "

struct count_reader {
	struct pc_legacy b;
	struct pc_input *in;
	uint64_t *addrs;
	size_t addrs_cap;
};

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool
is_lower_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* Go's regexp \s: only these five; \v is not white space there. */
static bool
is_re_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

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

/*
 * pprof's isSpaceOrComment: strings.TrimSpace(line) is empty or starts
 * with '#'.  TrimSpace trims Unicode white space, not only ASCII.
 */
static bool
is_space_or_comment(const char *line, size_t len)
{
	const unsigned char *s = (const unsigned char *)line, *end = s + len;
	size_t n = 0;

	while (s < end) {
		if (*s == ' ' || (*s >= '\t' && *s <= '\r')) {
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

/*
 * countStartRE, "\A(\S+) profile: total \d+\z": the whole line.  The type
 * word goes to *TYPE as a NUL-terminated copy the caller frees.
 */
static int
parse_header(struct count_reader *r, const char *line, size_t len,
    char **type)
{
	const char *end = line + len, *p = line, *q;
	size_t tag = strlen(TOTAL_TAG);

	*type = NULL;
	while (p < end && !is_re_space((unsigned char)*p))
		p++;
	q = p + tag;
	if (p == line || (size_t)(end - p) <= tag ||
	    memcmp(p, TOTAL_TAG, tag) != 0)
		goto bad;
	while (q < end && is_digit(*q))
		q++;
	if (q != end || q == p + tag)
		goto bad;
	*type = strndup(line, (size_t)(p - line));
	return *type != NULL ? 0 : profconv__nomem();
bad:
	return profconv__fail(PROFCONV_EFORMAT,
	    "line %llu: malformed count profile header, expected "
	    "'TYPE profile: total N'", (unsigned long long)r->in->lineno);
}

/*
 * The sample count, read as strconv.ParseInt(s, 0, 64) reads it: a
 * leading 0 makes the rest octal.
 */
static int
parse_count(struct count_reader *r, const char *p, const char *end,
    int64_t *out)
{
	unsigned base = (end - p > 1 && *p == '0') ? 8 : 10;
	const char *s = p;
	uint64_t v = 0;

	for (; s < end; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d >= base)
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: invalid octal sample count '%.*s'",
			    (unsigned long long)r->in->lineno,
			    (int)(end - p < 32 ? end - p : 32), p);
		if (v > ((uint64_t)INT64_MAX - d) / base)
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: sample count '%.*s' out of range",
			    (unsigned long long)r->in->lineno,
			    (int)(end - p < 32 ? end - p : 32), p);
		v = v * base + d;
	}
	*out = (int64_t)v;
	return 0;
}

/* " 0x1f 0xab...": one or more lowercase hex numbers, one space before each. */
static bool
is_stack(const char *p, const char *end)
{
	if (p == end)
		return false;
	while (p < end) {
		if (end - p < 4 || p[0] != ' ' || p[1] != '0' || p[2] != 'x' ||
		    !is_lower_hex(p[3]))
			return false;
		for (p += 4; p < end && is_lower_hex(*p); p++)
			;
	}
	return true;
}

/* The addresses of a well-formed stack, each moved back onto its call. */
static int
parse_stack(struct count_reader *r, const char *p, const char *end,
    size_t *n)
{
	const char *q;
	uint64_t a;
	int rc;

	for (*n = 0; p < end; p = q) {
		p += 3;
		for (q = p; q < end && *q != ' '; q++)
			;
		if (!profconv__parse_hex(&p, q, &a))
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: address '0x%.*s' does not fit in "
			    "64 bits",
			    (unsigned long long)r->in->lineno,
			    (int)(q - p < 32 ? q - p : 32), p);
		rc = PC_GROW(r->addrs, r->addrs_cap, *n, 1);
		if (rc < 0)
			return rc;
		r->addrs[(*n)++] = a - 1;
	}
	return 0;
}

/*
 * countRE, "\A(\d+) @(( 0x[0-9a-f]+)+)\z": the count, then the stack and
 * nothing else.  As in pprof, the shape is checked before the numbers.
 */
static int
parse_sample(struct count_reader *r, const char *line, size_t len)
{
	const char *end = line + len, *p = line;
	int64_t count;
	size_t n = 0;
	int rc;

	while (p < end && is_digit(*p))
		p++;
	if (p == line || end - p < 2 || p[0] != ' ' || p[1] != '@' ||
	    !is_stack(p + 2, end))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: malformed count profile sample, expected "
		    "'N @ 0x...'", (unsigned long long)r->in->lineno);
	rc = parse_count(r, line, p, &count);
	if (rc == 0)
		rc = parse_stack(r, p + 2, end, &n);
	if (rc < 0)
		return rc;
	return profconv__legacy_add_sample(&r->b, r->addrs, n, &count, NULL,
	    0);
}

/*
 * After a "---" line, pprof skips to a memory-map sentinel (the "---"
 * line itself may be one) and reads the map that follows.
 */
static int
read_map(struct count_reader *r, const char *line, size_t len)
{
	int rc = 1;

	while (rc == 1 && !profconv__maps_is_sentinel(line, len))
		rc = profconv__input_getline(r->in, &line, &len);
	if (rc == 1)
		rc = profconv__maps_parse_rest(&r->b.maps, r->in);
	return rc;
}

static int
read_samples(struct count_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		if (is_space_or_comment(line, len))
			continue;
		if (len >= 3 && memcmp(line, "---", 3) == 0)
			return read_map(r, line, len);
		rc = parse_sample(r, line, len);
		if (rc < 0)
			return rc;
	}
	return rc;
}

/* Skip leading blank and '#' lines; then the header names the type. */
static int
read_header(struct count_reader *r)
{
	const char *line;
	size_t len;
	char *type = NULL;
	int rc;

	do
		rc = profconv__input_getline(r->in, &line, &len);
	while (rc == 1 && is_space_or_comment(line, len));
	if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "no count profile header");
	if (rc == 1)
		rc = parse_header(r, line, len, &type);
	if (rc == 0)
		rc = profconv_profile_add_sample_type(r->b.prof, type, "count");
	if (rc == 0)
		rc = profconv_profile_set_period(r->b.prof, type, "count", 1);
	free(type);
	return rc;
}

int
profconv__read_gocount(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct count_reader r = { .in = in };
	int rc;

	(void)opts;
	*out = NULL;
	rc = profconv__legacy_init(&r.b);
	if (rc == 0)
		rc = read_header(&r);
	if (rc == 0)
		rc = read_samples(&r);
	if (rc == 0)
		rc = profconv__legacy_finish(&r.b, out);
	profconv__legacy_free(&r.b);
	free(r.addrs);
	return rc;
}
