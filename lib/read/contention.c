/* SPDX-License-Identifier: MIT */
/*
 * contention.c - reader of legacy contention profiles ("--- contentionz",
 * "--- mutex:", "--- contention:") with google/pprof's parseContention
 * semantics (pprof-reference.md section 2.4).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read/builder.h"
#include "read/lex.h"
#include "read/readers.h"

/* Longest piece of input quoted in an error message. */
#define QUOTE_MAX 64

/* A contentionz or Go mutex/contention profile's first line starts so
 * (the sniff and the reader's check of it). */
static const char *const headers[] = {
	"--- contentionz ", "--- mutex:", "--- contention:", NULL
};

struct cont_state {
	struct pc_legacy b;
	struct pc_input *in;
	const char *line;		/* the current line, trimmed */
	size_t len;
	bool eof;			/* no current line: input exhausted */
	int64_t period, cpu_hz;
	struct pc_addrs addrs;		/* scratch for one stack */
};

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
	if (profconv__go_parse_int(val, vlen, &v) != 0)
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

	while ((rc = profconv__next_line(st->in, &st->line, &st->len,
	    &st->eof, true)) == 1) {
		if (st->len == 0 || st->line[0] == '#')
			continue;
		if (pc_has_prefix(st->line, st->len, "---"))
			break;
		eq = memchr(st->line, '=', st->len);
		if (eq == NULL)
			break;
		key = st->line;
		klen = (size_t)(eq - key);
		val = eq + 1;
		vlen = st->len - klen - 1;
		pc_trim(&key, &klen);
		pc_trim(&val, &vlen);
		rc = attribute(st, key, klen, val, vlen);
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

/* --- samples -------------------------------------------------------------- */

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
		if (!pc_is_digit(*p)) {
			r = p + 1;
			continue;
		}
		for (r = p; r < end && pc_is_digit(*r); r++)
			;
		for (s = r; s < end && *s == ' '; s++)
			;
		for (t = s; t < end && pc_is_digit(*t); t++)
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
		    pc_is_lower_hex(*r)); r++)
			;
		*addrs = t + 2;
		*addrs_end = r;
		return true;
	}
	return false;
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
			v[0] = pc_go_float_to_int64((double)v[0] *
			    (double)st->period / ((double)st->cpu_hz / 1e9));
		v[1] = (int64_t)((uint64_t)v[1] * (uint64_t)st->period);
	}
	/* Return addresses: step back into the call (wraps like Go). */
	st->addrs.n = 0;
	(void)a_end;	/* the stack runs to the end of the line */
	rc = profconv__parse_stack(&st->addrs, a, st->line + st->len, 1,
	    st->in->lineno);
	if (rc == 0) {
		int64_t values[2] = { v[1], v[0] };	/* count, delay */

		rc = profconv__legacy_add_sample(&st->b, st->addrs.v,
		    st->addrs.n, values, NULL, 0);
	}
	return rc;
}

/* Sample lines, from the current one up to a "---" line or the end. */
static int
read_samples(struct cont_state *st)
{
	int rc;

	while (!st->eof) {
		if (pc_has_prefix(st->line, st->len, "---"))
			return 0;
		if (st->len != 0 && st->line[0] != '#') {
			rc = sample(st);
			if (rc < 0)
				return rc;
		}
		rc = profconv__next_line(st->in, &st->line, &st->len,
		    &st->eof, true);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
read_all(void *arg)
{
	struct cont_state *st = arg;
	int rc;

	/* The header is matched untrimmed, as pprof does. */
	rc = profconv__input_getline(st->in, &st->line, &st->len);
	if (rc < 0)
		return rc;
	if (rc == 0 || !profconv__line_has(st->line, st->len, headers))
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
		rc = profconv__maps_parse_after_sentinel(&st->b.maps, st->in,
		    st->eof ? NULL : st->line, st->len);
	return rc;
}

/* A contentionz or Go mutex/contention header on the first line. */
static bool
sniff_contention(const unsigned char *head, size_t len, bool whole)
{
	(void)whole;
	return profconv__head_first_line_has(head, len, headers);
}

static int
read_contention(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct cont_state st = { .in = in, .period = 1 };
	int rc;

	(void)opts;
	rc = profconv__legacy_read(&st.b, out, read_all, &st);
	free(st.addrs.v);
	return rc;
}

const struct pc_reader profconv__reader_contention = {
	PROFCONV_FORMAT_CONTENTION, "contention", sniff_contention, read_contention,
	NULL
};
