/* SPDX-License-Identifier: MIT */
/*
 * gocount.c - reader of Go's count profiles ("goroutine profile: total N",
 * "threadcreate profile: total N", any "<type> profile: total N"), read
 * as google/pprof's parseGoCount does (pprof-reference.md section 2.3).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read/builder.h"
#include "read/lex.h"
#include "read/readers.h"

#define TOTAL_TAG " profile: total "

struct count_reader {
	struct pc_legacy b;
	struct pc_input *in;
	struct pc_addrs addrs;
};

bool
profconv__is_count_header(const char *line, size_t len)
{
	const char *end = line + len, *p = line, *q;
	size_t tag = strlen(TOTAL_TAG);

	while (p < end && !pc_is_re_space((unsigned char)*p))
		p++;
	if (p == line || (size_t)(end - p) <= tag ||
	    memcmp(p, TOTAL_TAG, tag) != 0)
		return false;
	for (q = p + tag; q < end && pc_is_digit(*q); q++)
		;
	return q == end;
}

/* The header's type word goes to *TYPE, a copy the caller frees. */
static int
parse_header(struct count_reader *r, const char *line, size_t len,
    char **type)
{
	const char *end = line + len, *p = line;

	*type = NULL;
	if (!profconv__is_count_header(line, len))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: malformed count profile header, expected "
		    "'TYPE profile: total N'", (unsigned long long)r->in->lineno);
	while (p < end && !pc_is_re_space((unsigned char)*p))
		p++;
	*type = strndup(line, (size_t)(p - line));
	return *type != NULL ? 0 : profconv__nomem();
}

/* The sample count, read as strconv.ParseInt(s, 0, 64) reads it. */
static int
parse_count(struct count_reader *r, const char *p, const char *end,
    int64_t *out)
{
	int rc = profconv__go_parse_int(p, (size_t)(end - p), out);

	/* Only digits get here: a syntax error is an 8 or 9 after a 0. */
	if (rc != 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    rc == PC_GO_ESYNTAX ?
		    "line %llu: invalid octal sample count '%.*s'" :
		    "line %llu: sample count '%.*s' out of range",
		    (unsigned long long)r->in->lineno,
		    (int)(end - p < 32 ? end - p : 32), p);
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
		    !pc_is_lower_hex(p[3]))
			return false;
		for (p += 4; p < end && pc_is_lower_hex(*p); p++)
			;
	}
	return true;
}

/*
 * countRE, "\A(\d+) @(( 0x[0-9a-f]+)*)\z": the count, then the stack and
 * nothing else.  As in pprof, the shape is checked before the numbers.
 * pprof wants one address at least; the Go runtime writes "1012 @" for
 * threads it has no stack of (threadcreate, goroutine debug=1), and those
 * are read as samples with an empty stack.
 */
static int
parse_sample(struct count_reader *r, const char *line, size_t len)
{
	const char *end = line + len, *p = line;
	int64_t count;
	int rc;

	while (p < end && pc_is_digit(*p))
		p++;
	if (p == line || end - p < 2 || p[0] != ' ' || p[1] != '@' ||
	    (p + 2 != end && !is_stack(p + 2, end)))
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: malformed count profile sample, expected "
		    "'N @ 0x...'", (unsigned long long)r->in->lineno);
	rc = parse_count(r, line, p, &count);
	/* Each address moved back onto its call. */
	r->addrs.n = 0;
	if (rc == 0)
		rc = profconv__harvest_addresses(&r->addrs, p + 2, end, 1,
		    r->in->lineno, 32);
	if (rc < 0)
		return rc;
	return profconv__legacy_add_sample(&r->b, r->addrs.v, r->addrs.n,
	    &count, NULL, 0);
}

static int
read_samples(struct count_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		if (profconv__is_space_or_comment(line, len))
			continue;
		/* After "---", skip to a map (this line may start it). */
		if (len >= 3 && memcmp(line, "---", 3) == 0)
			return profconv__maps_parse_after_sentinel(&r->b.maps,
			    r->in, line, len);
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
	while (rc == 1 && profconv__is_space_or_comment(line, len));
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

static int
read_all(void *arg)
{
	int rc = read_header(arg);

	return rc == 0 ? read_samples(arg) : rc;
}

/* The first line that is not blank or a comment is a count header. */
static bool
sniff_gocount(const unsigned char *head, size_t len, bool whole)
{
	const char *line;
	size_t n;

	(void)whole;
	return profconv__head_content_line(head, len, &line, &n) &&
	    profconv__is_count_header(line, n);
}

static int
read_gocount(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct count_reader r = { .in = in };
	int rc;

	(void)opts;
	rc = profconv__legacy_read(&r.b, out, read_all, &r);
	free(r.addrs.v);
	return rc;
}

/* "goroutine 1 [running]:": a debug=2 goroutine dump or runtime.Stack,
 * the same profile's other form, which this reader does not read. */
static int
explain_gocount(const unsigned char *head, size_t len, bool whole)
{
	const char *p = (const char *)head, *end = p + len;

	(void)whole;
	if (!pc_has_prefix(p, len, "goroutine "))
		return 0;
	p += strlen("goroutine ");
	if (p == end || *p < '0' || *p > '9')
		return 0;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (end - p < 2 || p[0] != ' ' || p[1] != '[')
		return 0;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "unsupported Go goroutine stack dump (debug=2 or "
	    "runtime.Stack): only the debug=1 count profile "
	    "('goroutine profile: total N') is read");
}

const struct pc_reader profconv__reader_gocount = {
	PROFCONV_FORMAT_GOCOUNT, "gocount", sniff_gocount, read_gocount,
	explain_gocount
};
