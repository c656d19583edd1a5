/* SPDX-License-Identifier: MIT */
/*
 * flame.c - folded stacks for flame graphs (flamegraph.pl, inferno,
 * speedscope): "root;...;leaf COUNT", one line per stack of the view, in
 * the view's order, and the two-count differential form "stack BASE CUR".
 * The stacks, names and counts are the view's (view.c); this file only
 * formats them.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Write NAME made safe for the folded format: no ';', no line breaks, and
 * no whitespace before a trailing number (flamegraph.pl would read the
 * number as a second count). */
static void
put_name(FILE *fp, const char *name)
{
	size_t n = strlen(name), i, digits = n;

	while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
		digits--;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (c == ';')
			c = ':';
		else if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == ' ' && i + 1 == digits && digits < n && i > 0)
			c = '_';
		putc(c, fp);
	}
}

static void
put_stack(FILE *fp, const struct profconv_view *v,
    const struct profconv_view_stack *st)
{
	size_t i;

	if (st->nframes == 0)
		fputs(PC_EMPTY_STACK, fp);
	for (i = 0; i < st->nframes; i++) {
		if (i != 0)
			putc(';', fp);
		put_name(fp, profconv__view_frame_text(v, st->frames[i]));
	}
}

/* Quote a stack for a message: its leaf end, which says the most. */
static const char *
stack_subject(const struct profconv_view *v,
    const struct profconv_view_stack *st)
{
	return st->nframes == 0 ? PC_EMPTY_STACK :
	    profconv__view_frame_text(v, st->frames[st->nframes - 1]);
}

static int
check_counts(const struct profconv_view *v, size_t ti)
{
	struct profconv_view_stack st;
	size_t i, n = profconv_view_stack_count(v);
	char q[PC_QUOTE_SIZE];
	const char *leaf;

	for (i = 0; i < n; i++) {
		profconv_view_stack(v, i, &st);
		if (st.values[ti] >= 0)
			continue;
		leaf = stack_subject(v, &st);
		return profconv__fail(PROFCONV_EFORMAT,
		    "negative count in a stack ending in '%s' (a delta "
		    "profile?): compare with a base instead",
		    profconv__quote(q, leaf, strlen(leaf)));
	}
	return 0;
}

/* Compare stack I of A with stack J of B by folded text. */
static int
cmp_stacks(const struct profconv_view *a, const struct profconv_view_stack *x,
    const struct profconv_view *b, const struct profconv_view_stack *y)
{
	size_t i;
	int c;

	for (i = 0; i < x->nframes && i < y->nframes; i++) {
		const char *s = profconv__view_frame_text(a, x->frames[i]);
		const char *t = profconv__view_frame_text(b, y->frames[i]);

		/* Frame ends count as ';' (the folded text's order). */
		while (*s != '\0' && *s == *t) {
			s++;
			t++;
		}
		if (*s != *t) {
			int cs = *s != '\0' ? (unsigned char)*s :
			    i + 1 < x->nframes ? ';' : -1;
			int ct = *t != '\0' ? (unsigned char)*t :
			    i + 1 < y->nframes ? ';' : -1;

			return cs < ct ? -1 : 1;
		}
	}
	c = (x->nframes > i) - (y->nframes > i);
	return c;
}

/* The two-count form: merge the two sorted views' stacks. */
static void
write_diff(const struct profconv_view *cur, const struct profconv_view *base,
    size_t ti, size_t bti, FILE *fp)
{
	size_t i = 0, j = 0, n = profconv_view_stack_count(cur);
	size_t m = profconv_view_stack_count(base);
	struct profconv_view_stack x, y;
	int c;

	while (i < n || j < m) {
		int64_t bv, cv;

		if (i < n)
			profconv_view_stack(cur, i, &x);
		if (j < m)
			profconv_view_stack(base, j, &y);
		c = i == n ? 1 : j == m ? -1 : cmp_stacks(cur, &x, base, &y);
		bv = c >= 0 ? y.values[bti] : 0;
		cv = c <= 0 ? x.values[ti] : 0;
		if (bv != 0 || cv != 0) {
			put_stack(fp, c <= 0 ? cur : base, c <= 0 ? &x : &y);
			fprintf(fp, " %" PRId64 " %" PRId64 "\n", bv, cv);
		}
		i += c <= 0;
		j += c >= 0;
	}
}

int
profconv_flame_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_flame_options *opts)
{
	struct profconv_flame_options def = PROFCONV_FLAME_OPTIONS_INIT;
	struct profconv_view_stack st;
	size_t ti, bti = 0, i, n;
	int rc;

	if (opts == NULL)
		opts = &def;
	if (opts->version != PROFCONV_FLAME_OPTIONS_VERSION)
		return profconv__fail(PROFCONV_EINVAL,
		    "flame options version %u is not %u", opts->version,
		    PROFCONV_FLAME_OPTIONS_VERSION);
	rc = profconv_view_sample_index(cur, opts->sample_type, &ti);
	if (rc == 0 && base != NULL)
		rc = profconv_view_sample_index(base, opts->sample_type != NULL ?
		    opts->sample_type : profconv__pstr(
		    profconv_view_profile(cur),
		    profconv_view_profile(cur)->sample_types[ti].type), &bti);
	if (rc == 0)
		rc = check_counts(cur, ti);
	if (rc == 0 && base != NULL)
		rc = check_counts(base, bti);
	if (rc < 0)
		return rc;
	errno = 0;
	if (base != NULL) {
		write_diff(cur, base, ti, bti, fp);
	} else {
		n = profconv_view_stack_count(cur);
		for (i = 0; i < n; i++) {
			profconv_view_stack(cur, i, &st);
			if (st.values[ti] == 0)
				continue;
			put_stack(fp, cur, &st);
			fprintf(fp, " %" PRId64 "\n", st.values[ti]);
		}
	}
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return 0;
}
