/* SPDX-License-Identifier: MIT */
/*
 * rows.c - the one aggregation engine: a view's stacks grouped into rows
 * by their leaf frame or by the whole stack, keyed by the text every
 * writer shows.  show --summary, the profdiff table and the trend table
 * are all made with it; several views (base and current, or a series of
 * snapshots) add into one table at different column offsets, so one name
 * is one row in all of them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"

struct row {
	uint32_t name;		/* index in r->names */
	size_t off;		/* into r->vals */
	size_t thread;		/* bytes of the name that name the thread
				 * (PC_ROWS_THREAD_*), else 0 */
};

struct pc_rows {
	size_t width;
	struct pc_strtab names;
	uint32_t *row_of_name;	/* name index -> row + 1 */
	size_t row_of_name_cap;
	struct row *rows;
	size_t nrows, rows_cap;
	int64_t *vals;
	size_t nvals, vals_cap;
	uint64_t *seen;		/* per row: last stack counted + 1 (cum) */
	size_t seen_cap;
	char *buf;
	size_t buf_cap;
};

int
profconv__rows_new(struct pc_rows **out, size_t width)
{
	struct pc_rows *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (r == NULL)
		return profconv__nomem();
	r->width = width;
	rc = profconv__strtab_init(&r->names);
	if (rc < 0) {
		free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void
profconv__rows_free(struct pc_rows *r)
{
	if (r == NULL)
		return;
	profconv__strtab_free(&r->names);
	free(r->row_of_name);
	free(r->rows);
	free(r->vals);
	free(r->seen);
	free(r->buf);
	free(r);
}

/* The row named TEXT (LEN bytes), made when new. */
static int
row_for(struct pc_rows *r, const char *text, size_t len, size_t *out)
{
	uint32_t name;
	int rc;

	rc = profconv__strtab_intern(&r->names, text, len, &name);
	if (rc == 0)
		rc = PC_GROW_ZEROED(r->row_of_name, r->row_of_name_cap,
		    (size_t)name + 1);
	if (rc < 0)
		return rc;
	if (r->row_of_name[name] == 0) {
		rc = PC_GROW(r->rows, r->rows_cap, r->nrows, 1);
		if (rc == 0)
			rc = PC_GROW(r->vals, r->vals_cap, r->nvals, r->width);
		if (rc == 0)
			rc = PC_GROW(r->seen, r->seen_cap, r->nrows, 1);
		if (rc < 0)
			return rc;
		r->rows[r->nrows] = (struct row){ name, r->nvals, 0 };
		r->seen[r->nrows] = 0;
		memset(r->vals + r->nvals, 0, r->width * sizeof(*r->vals));
		r->nvals += r->width;
		r->row_of_name[name] = (uint32_t)++r->nrows;
	}
	*out = r->row_of_name[name] - 1;
	return 0;
}

static void
add_values(struct pc_rows *r, size_t row, size_t col, const int64_t *v,
    size_t n)
{
	int64_t *dst = r->vals + r->rows[row].off + col;
	size_t t;

	for (t = 0; t < n; t++)
		pc_add_sat(&dst[t], v[t]);
}

/* The folded text of a stack ("root;...;leaf"), in r->buf. */
static int
stack_text(struct pc_rows *r, const struct profconv_view *view,
    const struct pc_view_stack *st, size_t *len)
{
	size_t i, n;
	const char *t;
	int rc;

	*len = 0;
	if (st->nframes == 0) {
		t = PC_EMPTY_STACK;
		n = strlen(t);
		rc = PC_GROW(r->buf, r->buf_cap, 0, n + 1);
		if (rc == 0)
			memcpy(r->buf, t, n);
		*len = n;
		return rc;
	}
	for (i = 0; i < st->nframes; i++) {
		t = profconv__view_frame_text(view,
		    pc_stack_at(st->frames, i));
		n = strlen(t);
		rc = PC_GROW(r->buf, r->buf_cap, *len, n + 2);
		if (rc < 0)
			return rc;
		if (i != 0)
			r->buf[(*len)++] = ';';
		memcpy(r->buf + *len, t, n);
		*len += n;
	}
	return 0;
}

/*
 * The key of stack ST by thread (BY a PC_ROWS_THREAD_* kind) in r->buf:
 * its root frame, the view's thread frame, then the whole stack below
 * it (";") or its leaf (": "), so that one function of two threads is
 * two rows; *THREAD is the length of the thread's part.
 */
static int
thread_key(struct pc_rows *r, const struct profconv_view *view,
    const struct pc_view_stack *st, enum pc_rows_by by, size_t *len,
    size_t *thread)
{
	const char *t, *leaf;
	size_t n, m;
	int rc;

	if (st->nframes == 0 || by == PC_ROWS_THREAD_STACK) {
		rc = stack_text(r, view, st, len);
		*thread = st->nframes == 0 ? 0 :
		    strlen(profconv__view_frame_text(view,
		    pc_stack_at(st->frames, 0)));
		return rc;
	}
	t = profconv__view_frame_text(view, pc_stack_at(st->frames, 0));
	leaf = st->nframes > 1 ? profconv__view_frame_text(view,
	    pc_stack_at(st->frames, st->nframes - 1)) : PC_EMPTY_STACK;
	n = strlen(t);
	m = strlen(leaf);
	rc = PC_GROW(r->buf, r->buf_cap, 0, n + m + 3);
	if (rc < 0)
		return rc;
	memcpy(r->buf, t, n);
	memcpy(r->buf + n, ": ", 2);
	memcpy(r->buf + n + 2, leaf, m);
	*len = n + 2 + m;
	*thread = n;
	return 0;
}

/* The row of stack ST by thread, made when new. */
static int
thread_row(struct pc_rows *r, const struct profconv_view *view,
    const struct pc_view_stack *st, enum pc_rows_by by, size_t *row)
{
	size_t len, thread;
	int rc;

	rc = thread_key(r, view, st, by, &len, &thread);
	if (rc == 0)
		rc = row_for(r, r->buf, len, row);
	if (rc == 0)
		r->rows[*row].thread = thread;
	return rc;
}

/* The row of frame F of VIEW by its text (F 0: the stacks without
 * frames), found once per frame: ROW_OF keeps each frame's row + 1 (the
 * hash of a name, once per frame and not once per stack it is in). */
static int
frame_row(struct pc_rows *r, const struct profconv_view *view,
    uint32_t *row_of, uint32_t f, size_t *out)
{
	const char *t;
	int rc;

	if (row_of[f] != 0) {
		*out = row_of[f] - 1;
		return 0;
	}
	t = f == 0 ? PC_EMPTY_STACK : profconv__view_frame_text(view, f);
	if ((rc = row_for(r, t, strlen(t), out)) < 0)
		return rc;
	row_of[f] = (uint32_t)*out + 1;
	return 0;
}

#define NO_COL SIZE_MAX

static int
check_cols(const struct pc_rows *r, size_t ntypes, size_t col)
{
	if (col != NO_COL && (col > r->width || ntypes > r->width - col))
		return profconv__fail(PROFCONV_EINVAL,
		    "row columns %zu..%zu out of %zu", col, col + ntypes,
		    r->width);
	return 0;
}

/* Whether every row has zeros in columns COL..COL+NTYPES-1. */
static bool
cols_empty(const struct pc_rows *r, size_t col, size_t ntypes)
{
	size_t i, t;

	for (i = 0; col != NO_COL && i < r->nrows; i++)
		for (t = 0; t < ntypes; t++)
			if (r->vals[r->rows[i].off + col + t] != 0)
				return false;
	return true;
}

/*
 * The function rows of VIEW, flat at FLAT_COL and cum at CUM_COL
 * (NO_COL: not that one), from its sums per frame (frame_totals.c): rows
 * are made in the order a walk of the stacks makes them, and each gets
 * its frame's sums.  Returns 1 when done; 0, having changed nothing,
 * when the sums could saturate or the columns already hold values (a
 * sum then depends on the order it is added in: the caller adds stack
 * by stack).
 */
static int
add_frame_totals(struct pc_rows *r, const struct profconv_view *view,
    size_t flat_col, size_t cum_col)
{
	struct pc_frame_totals fs;
	size_t i, row, nt = profconv_profile_sample_type_count(
	    profconv_view_profile(view));
	uint32_t *row_of;
	int rc;

	if (!cols_empty(r, flat_col, nt) || !cols_empty(r, cum_col, nt))
		return 0;
	rc = profconv__frame_totals(&fs, view, flat_col != NO_COL,
	    cum_col != NO_COL);
	if (rc <= 0)
		return rc;
	row_of = calloc(profconv_view_frame_count(view) + 1, sizeof(*row_of));
	rc = row_of == NULL ? profconv__nomem() : 0;
	for (i = 0; rc == 0 && i < fs.nleaves; i++)
		rc = frame_row(r, view, row_of, fs.leaves[i], &row);
	for (i = 0; rc == 0 && i < fs.nframes; i++)
		rc = frame_row(r, view, row_of, fs.frames[i], &row);
	for (i = 0; rc == 0 && i < fs.nleaves; i++)
		add_values(r, row_of[fs.leaves[i]] - 1, flat_col,
		    fs.flat + (size_t)fs.leaves[i] * nt, nt);
	for (i = 0; rc == 0 && i < fs.nframes; i++)
		add_values(r, row_of[fs.frames[i]] - 1, cum_col,
		    fs.cum + (size_t)fs.frames[i] * nt, nt);
	free(row_of);
	profconv__frame_totals_free(&fs);
	return rc < 0 ? rc : 1;
}

/* profconv__rows_add() a stack at a time. */
static int
add_stacks(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, bool cum, size_t col)
{
	size_t ntypes = profconv_profile_sample_type_count(
	    profconv_view_profile(view));
	size_t i, j, row, len, n = profconv_view_stack_count(view);
	struct pc_view_stack st;
	uint32_t *row_of;
	uint64_t stamp;
	int rc = 0;

	row_of = calloc(profconv_view_frame_count(view) + 1, sizeof(*row_of));
	if (row_of == NULL)
		return profconv__nomem();
	/* Each call counts its own stacks once per row: a fresh stamp. */
	for (i = 0; i < r->nrows; i++)
		r->seen[i] = 0;
	for (i = 0; rc == 0 && i < n; i++) {
		profconv__view_stack(view, i, &st);
		stamp = i + 1;
		if (by == PC_ROWS_THREAD_FUNCTION ||
		    by == PC_ROWS_THREAD_STACK) {
			rc = thread_row(r, view, &st, by, &row);
			if (rc == 0)
				add_values(r, row, col, st.values, ntypes);
			continue;
		}
		if (by == PC_ROWS_STACK || st.nframes == 0) {
			rc = stack_text(r, view, &st, &len);
			if (by != PC_ROWS_STACK && st.nframes == 0)
				len = strlen(PC_EMPTY_STACK);
			if (rc == 0)
				rc = row_for(r, r->buf, len, &row);
			if (rc == 0)
				add_values(r, row, col, st.values, ntypes);
			continue;
		}
		if (!cum) {
			rc = frame_row(r, view, row_of,
			    pc_stack_at(st.frames, st.nframes - 1), &row);
			if (rc == 0)
				add_values(r, row, col, st.values, ntypes);
			continue;
		}
		for (j = 0; rc == 0 && j < st.nframes; j++) {
			rc = frame_row(r, view, row_of,
			    pc_stack_at(st.frames, j), &row);
			if (rc < 0 || r->seen[row] == stamp)
				continue;	/* recursion: count once */
			r->seen[row] = stamp;
			add_values(r, row, col, st.values, ntypes);
		}
	}
	free(row_of);
	return rc;
}

int
profconv__rows_add(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, bool cum, size_t col)
{
	size_t nt = profconv_profile_sample_type_count(
	    profconv_view_profile(view));
	int rc;

	if ((rc = check_cols(r, nt, col)) < 0)
		return rc;
	if (profconv__view_is_leaves(view) && (cum || by != PC_ROWS_FUNCTION))
		return profconv__fail(PROFCONV_EINVAL, "a view of leaves has "
		    "no stacks to add up");
	if (by == PC_ROWS_FUNCTION &&
	    (rc = add_frame_totals(r, view, cum ? NO_COL : col,
	    cum ? col : NO_COL)) != 0)
		return rc < 0 ? rc : 0;
	return add_stacks(r, view, by, cum, col);
}

int
profconv__rows_add_functions(struct pc_rows *r,
    const struct profconv_view *view, size_t flat_col, size_t cum_col)
{
	size_t nt = profconv_profile_sample_type_count(
	    profconv_view_profile(view));
	int rc;

	if ((rc = check_cols(r, nt, flat_col)) < 0 ||
	    (rc = check_cols(r, nt, cum_col)) < 0)
		return rc;
	if (profconv__view_is_leaves(view) && cum_col != NO_COL)
		return profconv__fail(PROFCONV_EINVAL, "a view of leaves has "
		    "no stacks to add up");
	if ((rc = add_frame_totals(r, view, flat_col, cum_col)) != 0)
		return rc < 0 ? rc : 0;
	if (flat_col != NO_COL)
		rc = add_stacks(r, view, PC_ROWS_FUNCTION, false, flat_col);
	if (rc == 0 && cum_col != NO_COL)
		rc = add_stacks(r, view, PC_ROWS_FUNCTION, true, cum_col);
	return rc;
}

int
profconv__rows_row_of(struct pc_rows *r, const struct profconv_view *view,
    enum pc_rows_by by, size_t i, size_t *out)
{
	struct pc_view_stack st;
	const char *t;
	size_t len;
	int rc;

	rc = profconv__view_stack(view, i, &st);
	if (rc < 0)
		return rc;
	if (by == PC_ROWS_THREAD_FUNCTION || by == PC_ROWS_THREAD_STACK)
		return thread_row(r, view, &st, by, out);
	if (by == PC_ROWS_STACK || st.nframes == 0) {
		rc = stack_text(r, view, &st, &len);
		return rc < 0 ? rc : row_for(r, r->buf, len, out);
	}
	t = profconv__view_frame_text(view,
	    pc_stack_at(st.frames, st.nframes - 1));
	return row_for(r, t, strlen(t), out);
}

size_t
profconv__rows_count(const struct pc_rows *r)
{
	return r->nrows;
}

const char *
profconv__rows_name(const struct pc_rows *r, size_t i)
{
	return profconv__str(&r->names, r->rows[i].name);
}

size_t
profconv__rows_thread(const struct pc_rows *r, size_t i)
{
	return r->rows[i].thread;
}

int64_t *
profconv__rows_values(struct pc_rows *r, size_t i)
{
	return r->vals + r->rows[i].off;
}

struct sort_ctx {
	struct pc_rows *r;
	pc_rows_cmp *cmp;
	void *payload;
};

static int
row_cmp(const void *a, const void *b, void *payload)
{
	const struct sort_ctx *c = payload;
	const struct row *x = a, *y = b;

	return c->cmp(c->r->vals + x->off, profconv__str(&c->r->names, x->name),
	    c->r->vals + y->off, profconv__str(&c->r->names, y->name),
	    c->payload);
}

void
profconv__rows_sort(struct pc_rows *r, pc_rows_cmp *cmp, void *payload)
{
	struct sort_ctx c = { r, cmp, payload };
	size_t i;

	if (r->nrows > 1)
		qsort_r(r->rows, r->nrows, sizeof(*r->rows), row_cmp, &c);
	/* Names now point at other rows: rebuild the index. */
	for (i = 0; i < r->nrows; i++)
		r->row_of_name[r->rows[i].name] = (uint32_t)i + 1;
}

static uint64_t
magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

int
profconv__rows_by_magnitude(const int64_t *a, const char *an,
    const int64_t *b, const char *bn, void *payload)
{
	size_t col = *(const size_t *)payload;
	int c = PC_CMP(magnitude(b[col]), magnitude(a[col]));

	return c != 0 ? c : strcmp(an, bn);
}

/* --- stack labels ----------------------------------------------------------- */

struct label {
	char **buf;
	size_t *cap, len;
	int rc;
};

static void
put(struct label *l, const char *s, size_t n)
{
	if (l->rc == 0)
		l->rc = PC_GROW(*l->buf, *l->cap, l->len, n + 1);
	if (l->rc < 0)
		return;
	memcpy(*l->buf + l->len, s, n);
	l->len += n;
	(*l->buf)[l->len] = '\0';
}

/* Frame S (LEN bytes) in at most MAX characters, cut with "...". */
static void
put_frame(struct label *l, const char *s, size_t len, size_t max)
{
	if (profconv__utf8_count(s, len) <= max) {
		put(l, s, len);
		return;
	}
	put(l, s, profconv__utf8_prefix(s, len, max > 3 ? max - 3 : 0));
	put(l, "...", 3);
}

int
profconv__rows_stack_label(char **buf, size_t *cap, const char *folded,
    size_t width)
{
	static const char sep[] = " < ", gap[] = " < ... < ";
	struct label l = { buf, cap, 0, 0 };
	const char *end = folded + strlen(folded), *root_end, *p, *q;
	size_t total, used, n, root_chars, budget;

	put(&l, "", 0);
	/* The whole stack, leaf first, when it fits. */
	total = profconv__utf8_count(folded, (size_t)(end - folded));
	for (p = folded; *p != '\0'; p++)
		total += *p == ';' ? 2 : 0;	/* ";" becomes " < " */
	root_end = strchr(folded, ';');
	if (root_end == NULL || total <= width) {
		for (q = end; q > folded; q = p) {
			for (p = q; p > folded && p[-1] != ';'; p--)
				;
			if (q != end)
				put(&l, sep, sizeof(sep) - 1);
			put_frame(&l, p, (size_t)(q - p), width);
			if (p > folded)
				p--;	/* the ';' */
		}
		return l.rc;
	}
	/* The root in at most a third of the width, the leaf's side in the
	 * rest. */
	root_chars = profconv__utf8_count(folded, (size_t)(root_end - folded));
	if (root_chars > width / 3)
		root_chars = width / 3;
	budget = width - root_chars - (sizeof(gap) - 1);
	used = 0;
	for (q = end; q > root_end; q = p - 1) {
		for (p = q; p[-1] != ';'; p--)
			;
		n = profconv__utf8_count(p, (size_t)(q - p));
		if (q == end) {		/* the leaf, cut when it must be */
			if (p - 1 == root_end)	/* no middle to elide */
				budget += sizeof(gap) - sizeof(sep);
			n = n < budget ? n : budget;
		} else if (used + (sizeof(sep) - 1) + n > budget) {
			break;
		} else {
			put(&l, sep, sizeof(sep) - 1);
			used += sizeof(sep) - 1;
		}
		put_frame(&l, p, (size_t)(q - p), n);
		used += n;
	}
	/* Stopped before the root's child: elide. */
	put(&l, q > root_end ? gap : sep, q > root_end ? sizeof(gap) - 1 :
	    sizeof(sep) - 1);
	put_frame(&l, folded, (size_t)(root_end - folded), root_chars);
	return l.rc;
}

/* --- labels that tell rows apart ---------------------------------------------- */

/* One row's label; its frames, leaf first, once it has collided. */
struct slabel {
	const char *folded;
	char *text;
	size_t nf;		/* frames; 0 until parsed */
	const char **f;		/* frame I starts at f[I] ... */
	size_t *fl;		/* ... and is fl[I] bytes */
	size_t *extra;		/* frames shown past the leaf's side, sorted */
	size_t nextra;
	bool full;		/* every frame shown */
};

struct pc_stack_labels {
	struct slabel *l;
	size_t n, width;
};

static int
parse_frames(struct slabel *s)
{
	const char *end = s->folded + strlen(s->folded), *p, *q;
	size_t n = 1, i;

	for (p = s->folded; *p != '\0'; p++)
		n += *p == ';';
	s->f = malloc(n * sizeof(*s->f));
	s->fl = malloc(n * sizeof(*s->fl));
	s->extra = malloc(n * sizeof(*s->extra));
	if (s->f == NULL || s->fl == NULL || s->extra == NULL)
		return profconv__nomem();
	for (i = 0, q = end; i < n; i++, q = p - 1) {
		for (p = q; p > s->folded && p[-1] != ';'; p--)
			;
		s->f[i] = p;
		s->fl[i] = (size_t)(q - p);
	}
	s->nf = n;
	return 0;
}

/* The frames A and B have in common from the leaf. */
static size_t
common_leaf_side(const struct slabel *a, const struct slabel *b)
{
	size_t i;

	for (i = 0; i < a->nf && i < b->nf; i++)
		if (a->fl[i] != b->fl[i] ||
		    memcmp(a->f[i], b->f[i], a->fl[i]) != 0)
			break;
	return i;
}

static int
by_text(const void *x, const void *y, void *ctx)
{
	const struct slabel *l = ctx;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = strcmp(l[a].text, l[b].text);

	return c != 0 ? c : PC_CMP(a, b);
}

static int
by_frames(const void *x, const void *y, void *ctx)
{
	const struct slabel *l = ctx, *a = &l[*(const size_t *)x],
	    *b = &l[*(const size_t *)y];
	size_t i = common_leaf_side(a, b), n;
	int c;

	if (i == a->nf || i == b->nf)
		return PC_CMP(a->nf, b->nf);
	n = a->fl[i] < b->fl[i] ? a->fl[i] : b->fl[i];
	c = memcmp(a->f[i], b->f[i], n);
	return c != 0 ? c : PC_CMP(a->fl[i], b->fl[i]);
}

/* Is frame I of S shown by its widened label? */
static bool
extra_has(const struct slabel *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->nextra; k++)
		if (s->extra[k] == i)
			return true;
	return false;
}

/* Characters of S's label with the leaf's first M frames, the extra
 * ones and the root. */
static size_t
widened_chars(const struct slabel *s, size_t m)
{
	size_t i, last = 0, n = 0;
	bool any = false;

	for (i = 0; i < s->nf; i++) {
		if (!(s->full || i < m || i == s->nf - 1 || extra_has(s, i)))
			continue;
		if (any)
			n += i == last + 1 ? 3 : 9;	/* " < ", " < ... < " */
		n += profconv__utf8_count(s->f[i], s->fl[i]);
		last = i;
		any = true;
	}
	return n;
}

/* S's label again: the leaf and as many of its callers as fit in WIDTH
 * before the first extra frame (at least the leaf), each extra frame,
 * the root; frames whole, " < ... < " where frames are left out. */
static int
widen(struct slabel *s, size_t width)
{
	struct label l = { &s->text, NULL, 0, 0 };
	size_t cap = s->text != NULL ? strlen(s->text) + 1 : 0, m, i, last = 0;
	bool any = false;

	l.cap = &cap;
	m = s->full || s->nextra == 0 ? s->nf : s->extra[0];
	while (!s->full && m > 1 && widened_chars(s, m) > width)
		m--;
	put(&l, "", 0);
	for (i = 0; i < s->nf; i++) {
		if (!(s->full || i < m || i == s->nf - 1 || extra_has(s, i)))
			continue;
		if (any)
			put(&l, i == last + 1 ? " < " : " < ... < ",
			    i == last + 1 ? 3 : 9);
		put(&l, s->f[i], s->fl[i]);
		last = i;
		any = true;
	}
	return l.rc;
}

/* Widen the labels in ORDER[0..N-1] (equal, N >= 2) with the frame
 * where each first differs from the stack nearest it, or when that one
 * is shown, the next not shown toward the root; with every frame when
 * none is left.  Each label not whole gains a frame, so the rounds are
 * as many as the frames of the deepest stack at most.  *CHANGED is set
 * when a label changed. */
static int
part_group(struct pc_stack_labels *sl, size_t *order, size_t n,
    bool *changed)
{
	struct slabel *s;
	size_t i, d, e, k;
	int rc;

	for (i = 0; i < n; i++)
		if (sl->l[order[i]].nf == 0 &&
		    (rc = parse_frames(&sl->l[order[i]])) < 0)
			return rc;
	/* Leaf first in order: the stack sharing most frames with one is
	 * beside it. */
	qsort_r(order, n, sizeof(*order), by_frames, sl->l);
	for (i = 0; i < n; i++) {
		s = &sl->l[order[i]];
		if (s->full)
			continue;
		d = 0;
		if (i > 0)
			d = common_leaf_side(s, &sl->l[order[i - 1]]);
		if (i + 1 < n && (e = common_leaf_side(s,
		    &sl->l[order[i + 1]])) > d)
			d = e;
		/* Shown already (the other stack shows an equal frame
		 * elsewhere): the next frame toward the root not shown. */
		while (d + 1 < s->nf && extra_has(s, d))
			d++;
		if (d + 1 >= s->nf)
			s->full = true;
		else {
			for (k = s->nextra; k > 0 && s->extra[k - 1] > d; k--)
				s->extra[k] = s->extra[k - 1];
			s->extra[k] = d;
			s->nextra++;
		}
		if ((rc = widen(s, sl->width)) < 0)
			return rc;
		*changed = true;
	}
	return 0;
}

int
profconv__stack_labels_new(struct pc_stack_labels **out,
    const char *const *folded, size_t n, size_t width)
{
	struct pc_stack_labels *sl;
	size_t *order = NULL, i, j, cap;
	bool changed = true;
	int rc = 0;

	*out = NULL;
	sl = calloc(1, sizeof(*sl));
	if (sl == NULL || (sl->l = calloc(n ? n : 1, sizeof(*sl->l))) == NULL ||
	    (order = malloc((n ? n : 1) * sizeof(*order))) == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	sl->n = n;
	sl->width = width;
	for (i = 0; i < n; i++) {
		cap = 0;
		sl->l[i].folded = folded[i];
		if ((rc = profconv__rows_stack_label(&sl->l[i].text, &cap,
		    folded[i], width)) < 0)
			goto out;
	}
	/* Until no two labels are equal, or those that are show every
	 * frame: equal labels sort together; each round shows one more
	 * frame of each colliding label, or all of them. */
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++)
			order[i] = i;
		qsort_r(order, n, sizeof(*order), by_text, sl->l);
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && strcmp(sl->l[order[i]].text,
			    sl->l[order[j]].text) == 0; j++)
				;
			if (j - i > 1 && (rc = part_group(sl, order + i, j - i,
			    &changed)) < 0)
				goto out;
		}
	}
out:
	free(order);
	if (rc < 0) {
		profconv__stack_labels_free(sl);
		return rc;
	}
	*out = sl;
	return 0;
}

const char *
profconv__stack_labels_get(const struct pc_stack_labels *sl, size_t i)
{
	return sl->l[i].text;
}

void
profconv__stack_labels_free(struct pc_stack_labels *sl)
{
	size_t i;

	if (sl == NULL)
		return;
	for (i = 0; sl->l != NULL && i < sl->n; i++) {
		free(sl->l[i].text);
		free(sl->l[i].f);
		free(sl->l[i].fl);
		free(sl->l[i].extra);
	}
	free(sl->l);
	free(sl);
}
