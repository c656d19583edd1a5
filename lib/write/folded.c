/* SPDX-License-Identifier: MIT */
/*
 * folded.c - folded stacks for flame graphs (flamegraph.pl, inferno,
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

#include "view/view.h"
#include "write/write.h"

#define RANGE 8192		/* stacks per writing task */
#define FLUSH_AT (1 << 20)	/* bytes gathered before a write */

/* Output made in memory, written in large pieces. */
struct obuf {
	char *p;
	size_t len, cap;
	int rc;
};

static inline void
put(struct obuf *o, const char *s, size_t n)
{
	if (__builtin_expect(o->cap - o->len < n, 0) && o->rc == 0)
		o->rc = PC_GROW(o->p, o->cap, o->len, n);
	if (o->rc == 0) {
		memcpy(o->p + o->len, s, n);
		o->len += n;
	}
}

/* " COUNT" for each of V[0, N), and the line's end. */
static void
put_counts(struct obuf *o, const int64_t *v, size_t n)
{
	char tmp[24 * 2 + 2], *q = tmp;
	size_t i;

	for (i = 0; i < n; i++) {
		char d[21], *e = d + sizeof(d);
		uint64_t u = v[i] < 0 ? -(uint64_t)v[i] : (uint64_t)v[i];

		do {
			*--e = (char)('0' + u % 10);
			u /= 10;
		} while (u != 0);
		*q++ = ' ';
		if (v[i] < 0)
			*q++ = '-';
		memcpy(q, e, (size_t)(d + sizeof(d) - e));
		q += d + sizeof(d) - e;
	}
	*q++ = '\n';
	put(o, tmp, (size_t)(q - tmp));
}

/*
 * Every frame's name made safe for the folded format, once: no ';', no
 * line breaks, and no whitespace before a trailing number (flamegraph.pl
 * would read the number as a second count).  Frame F is
 * text[off[F - 1], off[F]), its name and the ';' after it; MAX is the
 * longest of them, and PAD bytes follow the last, so that a name can be
 * copied in whole blocks of COPY bytes.
 */
#define COPY 32
struct names {
	char *text;
	size_t *off;
	size_t max;
};

static void
names_free(struct names *nm)
{
	free(nm->text);
	free(nm->off);
}

/*
 * The bytes of the character at S (N > 0 left) that Perl's \s matches,
 * with or without Unicode rules, other than ' ' itself; 0 for any other.
 * flamegraph.pl splits a line at \s before its counts: \t \n \v \f \r;
 * U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000 in UTF-8; and 0x85 and 0xA0 as Latin-1 bytes, where
 * they are no part of UTF-8.  *LEN is the character's length either way.
 */
static size_t
perl_space(const unsigned char *s, size_t n, size_t *len)
{
	size_t k = *s < 0x80 ? 1 : *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 :
	    *s >= 0xc2 ? 2 : 0;
	uint32_t c;

	if (k == 0 || k > n || (k > 1 && !profconv__utf8_valid((const char *)s,
	    k))) {
		*len = 1;
		return *s == 0x85 || *s == 0xa0;
	}
	*len = k;
	if (k == 1)
		return *s == '\t' || *s == '\n' || *s == '\v' || *s == '\f' ||
		    *s == '\r';
	c = k == 2 ? (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f) :
	    k == 3 ? (uint32_t)(s[0] & 0x0f) << 12 |
	    (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f) : 0;
	return c == 0x85 || c == 0xa0 || c == 0x1680 ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
	    c == 0x202f || c == 0x205f || c == 0x3000 ? k : 0;
}

/*
 * Where the number at the end of NAME (N bytes) begins, as flamegraph.pl
 * reads counts (\d+(\.\d*)?); N when there is none.
 */
static size_t
trailing_number(const char *name, size_t n)
{
	size_t j = n, k;

	while (j > 0 && name[j - 1] >= '0' && name[j - 1] <= '9')
		j--;
	if (j > 0 && name[j - 1] == '.') {
		for (k = j - 1; k > 0 && name[k - 1] >= '0' &&
		    name[k - 1] <= '9'; k--)
			;
		if (k < j - 1)
			return k;
	}
	return j;
}

static int
names_make(struct names *nm, const struct profconv_view *v)
{
	size_t nf = profconv_view_frame_count(v), f, i, n, num, k;
	size_t len = 0, cap = 0, tmp_cap = 0;
	struct pc_textbuf tb = { 0 };
	char *tmp = NULL, *t;
	const char *safe;
	int rc = 0;

	nm->text = NULL;
	nm->max = 0;
	nm->off = malloc((nf + 1) * sizeof(*nm->off));
	if (nm->off == NULL)
		return profconv__nomem();
	nm->off[0] = 0;
	for (f = 1; rc == 0 && f <= nf; f++) {
		const char *name = profconv__view_frame_text(v, (uint32_t)f);

		/* Every whitespace a space (never longer), then the control
		 * characters escaped as in every text output (write.h). */
		n = strlen(name);
		rc = PC_GROW(tmp, tmp_cap, 0, n + 1);
		for (i = 0, t = tmp; rc == 0 && i < n; i += k) {
			if (perl_space((const unsigned char *)name + i, n - i,
			    &k) != 0) {
				*t++ = ' ';
			} else {
				memcpy(t, name + i, k);
				t += k;
			}
		}
		if (rc < 0)
			break;
		*t = '\0';
		safe = profconv__text_safe(&tb, tmp);
		n = strlen(safe);
		rc = PC_GROW(nm->text, cap, len, n + 1);
		if (rc < 0)
			break;
		t = nm->text + len;
		memcpy(t, safe, n);
		num = trailing_number(t, n);
		for (i = 0; i < n; i++)
			if (t[i] == ';')
				t[i] = ':';
		if (num < n && num > 0 && t[num - 1] == ' ')
			t[num - 1] = '_';
		t[n] = ';';
		len += n + 1;
		nm->off[f] = len;
		if (n + 1 > nm->max)
			nm->max = n + 1;
	}
	free(tmp);
	profconv__textbuf_free(&tb);
	if (rc == 0)
		rc = PC_GROW(nm->text, cap, len, COPY);
	if (rc == 0)
		memset(nm->text + len, 0, COPY);
	return rc;
}

/* The frames of ST, ';' between them, room made once and each name
 * copied in blocks (the room and the names' padding allow it). */
static void
put_stack(struct obuf *o, const struct names *nm,
    const struct pc_view_stack *st)
{
	size_t i, n;
	char *q;

	if (st->nframes == 0) {
		put(o, PC_EMPTY_STACK, strlen(PC_EMPTY_STACK));
		return;
	}
	n = st->nframes * nm->max + COPY;
	if (o->cap - o->len < n && o->rc == 0)
		o->rc = PC_GROW(o->p, o->cap, o->len, n);
	if (o->rc != 0)
		return;
	q = o->p + o->len;
	for (i = 0; i < st->nframes; i++) {
		uint32_t f = pc_stack_at(st->frames, i);
		const char *s = nm->text + nm->off[f - 1];

		n = nm->off[f] - nm->off[f - 1];
		if (n <= COPY)
			memcpy(q, s, COPY);
		else
			memcpy(q, s, n);
		q += n;
	}
	o->len = (size_t)(q - o->p) - 1;	/* the last ';' */
}

/* Write O's bytes to FP and empty it; false on a write error. */
static bool
flush_obuf(struct obuf *o, FILE *fp)
{
	bool ok = o->len == 0 || fwrite(o->p, 1, o->len, fp) == o->len;

	o->len = 0;
	return ok;
}

/* Quote a stack for a message: its leaf end, which says the most. */
static const char *
stack_subject(const struct profconv_view *v,
    const struct pc_view_stack *st)
{
	return st->nframes == 0 ? PC_EMPTY_STACK :
	    profconv__view_frame_text(v,
	    pc_stack_at(st->frames, st->nframes - 1));
}

static int
check_counts(const struct profconv_view *v, size_t ti)
{
	struct pc_view_stack st;
	size_t i, n = profconv_view_stack_count(v);
	char q[PC_QUOTE_SIZE];
	const char *leaf;

	for (i = 0; i < n; i++) {
		if (profconv__view_stack_values(v, i)[ti] >= 0)
			continue;
		profconv__view_stack(v, i, &st);
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
cmp_stacks(const struct profconv_view *a, const struct pc_view_stack *x,
    const struct profconv_view *b, const struct pc_view_stack *y)
{
	size_t i;
	int c;

	for (i = 0; i < x->nframes && i < y->nframes; i++) {
		const char *s = profconv__view_frame_text(a,
		    pc_stack_at(x->frames, i));
		const char *t = profconv__view_frame_text(b,
		    pc_stack_at(y->frames, i));

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
static int
write_diff(const struct profconv_view *cur, const struct profconv_view *base,
    size_t ti, size_t bti, FILE *fp)
{
	size_t i = 0, j = 0, n = profconv_view_stack_count(cur);
	size_t m = profconv_view_stack_count(base);
	struct pc_view_stack x, y;
	struct names nc, nb;
	struct obuf o = { 0 };
	bool ok = true;
	int c, rc;

	rc = names_make(&nc, cur);
	if (rc == 0)
		rc = names_make(&nb, base);
	else
		nb = (struct names){ NULL, NULL, 0 };
	while (rc == 0 && ok && (i < n || j < m)) {
		int64_t bv[2];

		if (i < n)
			profconv__view_stack(cur, i, &x);
		if (j < m)
			profconv__view_stack(base, j, &y);
		c = i == n ? 1 : j == m ? -1 : cmp_stacks(cur, &x, base, &y);
		bv[0] = c >= 0 ? y.values[bti] : 0;
		bv[1] = c <= 0 ? x.values[ti] : 0;
		if (bv[0] != 0 || bv[1] != 0) {
			put_stack(&o, c <= 0 ? &nc : &nb, c <= 0 ? &x : &y);
			put_counts(&o, bv, 2);
		}
		i += c <= 0;
		j += c >= 0;
		if (o.len >= FLUSH_AT)
			ok = flush_obuf(&o, fp);
		rc = o.rc;
	}
	if (rc == 0 && ok)
		ok = flush_obuf(&o, fp);
	names_free(&nc);
	names_free(&nb);
	free(o.p);
	return rc < 0 ? rc : ok ? 0 : profconv__write_error();
}

/* One writer's job: the lines of stacks [R * RANGE, ...) in BUF[R % W].
 * Windows of W ranges alternate between two halves of BUF: one is
 * written (by task 0) while the next is made. */
struct folded {
	const struct profconv_view *v;
	const struct names *nm;
	FILE *fp;
	size_t ti, n, first;	/* first: the window's first range */
	struct obuf *buf, *made; /* MADE: the window made last, to write */
	size_t nmade;
	bool ok;		/* no write failed */
	int err;		/* errno of the failed write */
};

static int
format_task(void *arg, size_t k)
{
	struct folded *f = arg;
	struct obuf *o;
	struct pc_view_stack st;
	size_t i, lo, hi;

	if (f->made != NULL && k-- == 0) {
		for (i = 0; f->ok && i < f->nmade; i++)
			if (!flush_obuf(&f->made[i], f->fp)) {
				f->ok = false;
				f->err = errno;
			}
		return 0;
	}
	o = &f->buf[k];
	lo = (f->first + k) * RANGE;
	hi = lo + RANGE;
	if (hi > f->n)
		hi = f->n;
	for (i = lo; i < hi && o->rc == 0; i++) {
		profconv__view_stack(f->v, i, &st);
		if (st.values[f->ti] == 0)
			continue;
		put_stack(o, f->nm, &st);
		put_counts(o, &st.values[f->ti], 1);
	}
	return o->rc;
}

/* The lines of every stack, made by ranges on the view's threads, a
 * window of ranges at a time, and written in order, each window while
 * the next is made. */
static int
write_folded(const struct profconv_view *v, size_t ti, FILE *fp)
{
	unsigned int jobs = profconv__jobs_count(profconv__view_jobs(v));
	size_t nranges, k, w = (size_t)jobs * 4, now;
	struct names nm;
	struct folded f = { v, &nm, fp, ti, profconv_view_stack_count(v), 0,
		NULL, NULL, 0, true, 0 };
	struct obuf *all = NULL;
	int rc;

	nranges = (f.n + RANGE - 1) / RANGE;
	rc = names_make(&nm, v);
	if (rc == 0 && (all = calloc(2 * w, sizeof(*all))) == NULL)
		rc = profconv__nomem();
	for (; rc == 0 && f.ok && f.first < nranges; f.first += w) {
		now = nranges - f.first < w ? nranges - f.first : w;
		f.buf = all + (f.first / w % 2) * w;
		rc = profconv__jobs_run(jobs, now + (f.made != NULL),
		    format_task, &f);
		f.made = f.buf;
		f.nmade = now;
	}
	for (k = 0; rc == 0 && f.ok && f.made != NULL && k < f.nmade; k++)
		if (!flush_obuf(&f.made[k], fp)) {
			f.ok = false;
			f.err = errno;
		}
	for (k = 0; all != NULL && k < 2 * w; k++)
		free(all[k].p);
	free(all);
	names_free(&nm);
	if (rc == 0 && !f.ok) {
		errno = f.err;
		rc = profconv__write_error();
	}
	return rc;
}

int
profconv_flame_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_flame_options *opts)
{
	struct profconv_flame_options o;
	size_t ti, bti = 0;
	int rc;

	if (cur == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no view or no file");
	if ((rc = profconv__options_take(&o, opts, &profconv__options_flame)) < 0)
		return rc;
	opts = &o;
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
	rc = base != NULL ? write_diff(cur, base, ti, bti, fp) :
	    write_folded(cur, ti, fp);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	return rc;
}
