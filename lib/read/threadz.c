/* SPDX-License-Identifier: MIT */
/*
 * threadz.c - reader of legacy threadz profiles (one stack per thread)
 * with google/pprof's parseThread semantics (pprof-reference.md 2.5).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read/builder.h"
#include "read/lex.h"
#include "read/readers.h"

/* Longest piece of input quoted in an error message. */
#define QUOTE_MAX 64

struct thread_state {
	struct pc_legacy b;
	struct pc_input *in;
	const char *line;		/* the current line */
	size_t len;
	bool eof;			/* no current line: input exhausted */
	struct pc_addrs addrs;		/* the stack of one thread */
};

/* Where LITERAL occurs in [P, END) at or after P, or NULL. */
static const char *
find(const char *p, const char *end, const char *literal)
{
	return memmem(p, (size_t)(end - p), literal, strlen(literal));
}

/* threadzStartRE, unanchored: "--- threadz <digits> ---". */
static bool
is_threadz_header(const char *p, size_t len)
{
	const char *end = p + len, *q;

	for (; (p = find(p, end, "--- threadz ")) != NULL; p++) {
		for (q = p + 12; q < end && pc_is_digit(*q); q++)
			;
		if (q > p + 12 && pc_has_prefix(q, (size_t)(end - q), " ---"))
			return true;
	}
	return false;
}

/*
 * threadStartRE, unanchored:
 * "--- Thread <xdigits> (name: <any>/<digits>) stack: ---".
 */
static bool
is_thread_header(const char *p, size_t len)
{
	const char *end = p + len, *q, *r;

	for (; (p = find(p, end, "--- Thread ")) != NULL; p++) {
		for (q = p + 11; q < end && pc_is_hex(*q); q++)
			;
		if (q == p + 11 ||
		    !pc_has_prefix(q, (size_t)(end - q), " (name: "))
			continue;
		/* The name may hold anything, even '/': any tail will do. */
		for (q += 8; (q = memchr(q, '/', (size_t)(end - q))) != NULL;
		    q++) {
			for (r = q + 1; r < end && pc_is_digit(*r); r++)
				;
			if (r > q + 1 && pc_has_prefix(r, (size_t)(end - r),
			    ") stack: ---"))
				return true;
		}
	}
	return false;
}

/*
 * The lines of one thread, up to the next "---" line (left current,
 * trimmed).  Every hex number on them joins one stack, so a "creator:"
 * stack extends the thread's own.  *SAME_OUT: the thread said it has
 * the previous thread's stack.
 */
static int
read_block(struct thread_state *st, bool *same_out)
{
	int rc;

	st->addrs.n = 0;
	*same_out = false;
	while ((rc = profconv__next_line(st->in, &st->line, &st->len,
	    &st->eof, false)) == 1) {
		pc_trim(&st->line, &st->len);
		if (st->len == 0)
			continue;
		if (pc_has_prefix(st->line, st->len, "---"))
			break;
		if (memmem(st->line, st->len, "same as previous thread", 23)) {
			*same_out = true;
			continue;
		}
		rc = profconv__harvest_addresses(&st->addrs, st->line,
		    st->line + st->len, 0, st->in->lineno, QUOTE_MAX);
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

/*
 * Add the stack just read.  The leaf is the thread's PC; the callers are
 * return addresses, stepped back into their calls.  pprof numbers the
 * locations before it drops a duplicated leaf (cleanupDuplicateLocations),
 * so every address gets its location first.
 */
static int
add_stack(struct thread_state *st)
{
	static const int64_t one = 1;
	uint64_t *a = st->addrs.v;
	size_t i, n = st->addrs.n;
	uint32_t id;
	int rc = 0;

	for (i = 1; i < n; i++)
		a[i]--;
	for (i = 0; rc == 0 && i < n; i++)
		rc = profconv__legacy_location(&st->b, a[i], &id);
	if (rc < 0)
		return rc;
	if (n > 1 && a[0] == a[1] + 1) {
		memmove(&a[1], &a[2], (n - 2) * sizeof(*a));
		n--;
	}
	return profconv__legacy_add_sample(&st->b, a, n, &one, NULL, 0);
}

static int
not_a_thread_header(const struct thread_state *st)
{
	return profconv__fail(PROFCONV_EFORMAT,
	    "line %llu: expected '--- Thread ID (name: NAME/TID) stack: ---', "
	    "got '%.*s'", (unsigned long long)st->in->lineno,
	    (int)(st->len < QUOTE_MAX ? st->len : QUOTE_MAX), st->line);
}

/*
 * The thread blocks, from the current line to a memory-map sentinel or
 * "---- no stack trace for".
 */
static int
read_threads(struct thread_state *st)
{
	struct profconv_profile *prof = st->b.prof;
	bool same;
	int rc;

	while (st->eof || !profconv__maps_is_sentinel(st->line, st->len)) {
		/* As in pprof: the last thread must be followed by the map
		 * (or the "no stack trace" line); a file cut short fails. */
		if (st->eof)
			return profconv__fail(PROFCONV_EFORMAT, "line %llu: "
			    "thread profile ends without a memory map",
			    (unsigned long long)st->in->lineno);
		if (pc_has_prefix(st->line, st->len, "---- no stack trace for"))
			return 0;
		if (!is_thread_header(st->line, st->len))
			return not_a_thread_header(st);
		rc = read_block(st, &same);
		if (rc < 0)
			return rc;
		/* No stack of its own: count it with the previous thread. */
		if (same || st->addrs.n == 0) {
			if (prof->nsamples != 0)
				pc_sample_values_mut(prof,
				    prof->nsamples - 1)[0]++;
			continue;
		}
		rc = add_stack(st);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Find the header; a "--- threadz N ---" one is followed by free text. */
static int
read_header(struct thread_state *st)
{
	int rc;

	while ((rc = profconv__next_line(st->in, &st->line, &st->len,
	    &st->eof, false)) == 1 &&
	    profconv__is_space_or_comment(st->line, st->len))
		;
	if (rc < 0)
		return rc;
	if (rc == 1 && is_threadz_header(st->line, st->len)) {
		while ((rc = profconv__next_line(st->in, &st->line,
		    &st->len, &st->eof, false)) == 1 &&
		    !profconv__maps_is_sentinel(st->line, st->len) &&
		    !pc_has_prefix(st->line, st->len, "-"))
			;
		return rc < 0 ? rc : 0;
	}
	if (rc == 1 && is_thread_header(st->line, st->len))
		return 0;
	return profconv__fail(PROFCONV_EFORMAT,
	    "line %llu: expected a '--- threadz N ---' or '--- Thread' header",
	    (unsigned long long)st->in->lineno);
}

static int
read_all(void *arg)
{
	struct thread_state *st = arg;
	int rc = read_header(st);

	if (rc == 0)
		rc = profconv_profile_add_sample_type(st->b.prof, "thread",
		    "count");
	if (rc == 0)
		rc = profconv_profile_set_period(st->b.prof, "thread", "count",
		    1);
	if (rc == 0)
		rc = read_threads(st);
	if (rc == 0)
		rc = profconv__maps_parse_after_sentinel(&st->b.maps, st->in,
		    st->eof ? NULL : st->line, st->len);
	return rc;
}

/* The first line that is not blank or a comment is a threadz header. */
static bool
sniff_thread(const unsigned char *head, size_t len, bool whole)
{
	(void)whole;
	return profconv__head_content_line_has(head, len, (const char *const[]){
	    "--- threadz ", "--- Thread ", NULL });
}

static int
read_thread(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct thread_state st = { .in = in };
	int rc;

	(void)opts;
	rc = profconv__legacy_read(&st.b, out, read_all, &st);
	free(st.addrs.v);
	return rc;
}

const struct pc_reader profconv__reader_thread = {
	PROFCONV_FORMAT_THREAD, "thread", sniff_thread, read_thread, NULL
};
