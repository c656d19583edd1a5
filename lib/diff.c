/* SPDX-License-Identifier: MIT */
/*
 * diff.c - the comparison table of two profiles and the leak filter.
 *
 * For heap profiles with alloc and inuse counters the table is the
 * memory debuggers' comparison view, per function (or line, or stack):
 * New = delta alloc_objects, Freed = New - delta inuse_objects, delta
 * objects = delta inuse_objects, and the same three for bytes.  Other
 * profiles get base, cur and delta for every sample type.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { HEAP_ALLOC_N, HEAP_ALLOC_B, HEAP_INUSE_N, HEAP_INUSE_B, HEAP_SLOTS };

/* One row: a name and, per sample type, the base and current sums. */
struct row {
	uint32_t name;		/* index in the scratch name table */
	size_t off;		/* base sums at vals[off], current after */
	int64_t key;		/* the sort column's value */
};

struct differ {
	const struct profconv_diff_options *opts;
	size_t ntypes;
	int heap[HEAP_SLOTS];	/* slot of each heap counter, or -1 */
	bool is_heap;
	struct pc_strtab names;
	uint32_t *row_of_name;	/* name index -> row + 1 */
	size_t row_of_name_cap;
	struct row *rows;
	size_t nrows, rows_cap;
	int64_t *vals;		/* row values: 2 * ntypes per row */
	size_t nvals, vals_cap;
	char *buf;		/* scratch for stack names */
	size_t buf_cap;
	struct pc_pruner pruner;	/* of the profile being added */
};

/*
 * The text a location shows in a row: its function name (or file:line),
 * after the innermost lines drop_frames removed from it.
 */
static const char *
location_text(struct differ *d, const struct profconv_profile *prof,
    uint32_t id, char *buf, size_t size)
{
	const struct pc_location *l = &prof->locations[id - 1];
	uint32_t skip = profconv__prune_skip(&d->pruner, id);
	const struct pc_line *ln;
	const struct pc_function *f;

	if (l->nlines <= skip)
		return profconv__frame_name(prof, id, buf, size);
	ln = &prof->lines[l->line_off + skip];
	f = &prof->functions[ln->function - 1];
	if (d->opts->by == PROFCONV_DIFF_BY_LINE && f->file != 0) {
		snprintf(buf, size, "%s:%" PRId64, profconv__pstr(prof, f->file),
		    ln->line);
		return buf;
	}
	if (f->name != 0 && skip != 0)
		return profconv__pstr(prof, f->name);
	return profconv__frame_name(prof, id, buf, size);
}

/* The row name of sample I: its first frame that is not dropped. */
static int
sample_name(struct differ *d, const struct profconv_profile *prof, size_t i,
    uint32_t *name)
{
	const struct pc_sample *s = &prof->samples[i];
	const uint32_t *stk = pc_sample_stack(prof, s);
	char tmp[256];
	size_t j, first = 0, len = 0, n;
	const char *t;
	int rc;

	first = profconv__prune_stack(&d->pruner, stk, s->nlocs);
	if (first >= s->nlocs)
		first = 0;
	if (s->nlocs == 0)
		return profconv__strtab_intern_cstr(&d->names, "<empty stack>",
		    name);
	if (d->opts->by != PROFCONV_DIFF_BY_STACK) {
		t = location_text(d, prof, stk[first], tmp, sizeof(tmp));
		return profconv__strtab_intern_cstr(&d->names, t, name);
	}
	/* A stack: root first, down to the first kept frame. */
	for (j = s->nlocs; j > first; j--) {
		t = location_text(d, prof, stk[j - 1], tmp, sizeof(tmp));
		n = strlen(t);
		rc = PC_GROW(d->buf, d->buf_cap, len, n + 2);
		if (rc < 0)
			return rc;
		if (len != 0)
			d->buf[len++] = ';';
		memcpy(d->buf + len, t, n);
		len += n;
	}
	return profconv__strtab_intern(&d->names, d->buf, len, name);
}

static int
row_for(struct differ *d, uint32_t name, struct row **out)
{
	size_t old = d->row_of_name_cap, j;
	struct row *r;
	int rc;

	if (name >= d->row_of_name_cap) {
		rc = PC_GROW(d->row_of_name, d->row_of_name_cap, 0, name + 1);
		if (rc < 0)
			return rc;
		memset(d->row_of_name + old, 0,
		    (d->row_of_name_cap - old) * sizeof(*d->row_of_name));
	}
	if (d->row_of_name[name] != 0) {
		*out = &d->rows[d->row_of_name[name] - 1];
		return 0;
	}
	rc = PC_GROW(d->rows, d->rows_cap, d->nrows, 1);
	if (rc == 0)
		rc = PC_GROW(d->vals, d->vals_cap, d->nvals, 2 * d->ntypes);
	if (rc < 0)
		return rc;
	r = &d->rows[d->nrows];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->off = d->nvals;
	for (j = 0; j < 2 * d->ntypes; j++)
		d->vals[d->nvals + j] = 0;
	d->nvals += 2 * d->ntypes;
	d->row_of_name[name] = (uint32_t)++d->nrows;
	*out = r;
	return 0;
}

static int
add_profile(struct differ *d, const struct profconv_profile *prof, bool cur)
{
	struct row *r = NULL;
	uint32_t name;
	size_t i, t, off;
	int rc = 0;

	rc = profconv__pruner_init(&d->pruner, prof, true);
	for (i = 0; rc == 0 && i < prof->nsamples; i++) {
		rc = sample_name(d, prof, i, &name);
		if (rc == 0)
			rc = row_for(d, name, &r);
		if (rc < 0)
			break;
		off = r->off + (cur ? d->ntypes : 0);
		for (t = 0; t < d->ntypes; t++)
			pc_add_sat(&d->vals[off + t],
			    prof->values[i * d->ntypes + t]);
	}
	profconv__pruner_free(&d->pruner);
	return rc;
}

/* --- columns ------------------------------------------------------------------ */

static size_t
ncolumns(const struct differ *d)
{
	return d->is_heap ? 6 : 3 * d->ntypes;
}

static int64_t
column(const struct differ *d, const int64_t *base, const int64_t *cur,
    size_t c)
{
	int64_t dan, dab, din, dib;

	if (!d->is_heap) {
		size_t t = c / 3;

		return c % 3 == 0 ? base[t] : c % 3 == 1 ? cur[t] :
		    pc_sub_sat(cur[t], base[t]);
	}
	dan = pc_sub_sat(cur[d->heap[HEAP_ALLOC_N]], base[d->heap[HEAP_ALLOC_N]]);
	dab = pc_sub_sat(cur[d->heap[HEAP_ALLOC_B]], base[d->heap[HEAP_ALLOC_B]]);
	din = pc_sub_sat(cur[d->heap[HEAP_INUSE_N]], base[d->heap[HEAP_INUSE_N]]);
	dib = pc_sub_sat(cur[d->heap[HEAP_INUSE_B]], base[d->heap[HEAP_INUSE_B]]);
	switch (c) {
	case 0: return dan;
	case 1: return pc_sub_sat(dan, din);
	case 2: return din;
	case 3: return dab;
	case 4: return pc_sub_sat(dab, dib);
	default: return dib;
	}
}

static const char *const heap_columns[] = {
	"new", "freed", "delta-objects", "alloc-bytes", "freed-bytes",
	"delta-bytes",
};

static bool
column_is_bytes(const struct differ *d, const struct profconv_profile *p,
    size_t c)
{
	if (d->is_heap)
		return c >= 3;
	return strcmp(profconv__pstr(p, p->sample_types[c / 3].unit),
	    "bytes") == 0;
}

/* Sort column: by name from the options, else delta bytes or delta of the
 * default sample type.  -1 sorts by row name. */
static int
sort_column(const struct differ *d, const struct profconv_profile *cur)
{
	const char *s = d->opts->sort;
	size_t c;
	int t;

	if (s == NULL)
		return d->is_heap ? 5 :
		    3 * profconv_profile_default_sample_index(cur) + 2;
	if (strcmp(s, "name") == 0)
		return -1;
	if (d->is_heap) {
		for (c = 0; c < PC_ARRAY_LEN(heap_columns); c++)
			if (strcmp(s, heap_columns[c]) == 0)
				return (int)c;
		return -2;
	}
	t = profconv_profile_sample_type_index(cur, s);
	return t < 0 ? -2 : 3 * t + 2;
}

static const struct differ *sort_ctx;
static int sort_col;

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (sort_col >= 0 && x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return strcmp(profconv__str(&sort_ctx->names, x->name),
	    profconv__str(&sort_ctx->names, y->name));
}

static void
print_value(FILE *fp, int64_t v, bool bytes, bool exact)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double x = (double)v;
	size_t u = 0;

	if (!bytes || exact || (v > -1024 && v < 1024)) {
		fprintf(fp, " %14" PRId64 "%s", v, bytes && !exact ? "B" : "");
		return;
	}
	while ((x >= 1024 || x <= -1024) && u + 1 < PC_ARRAY_LEN(units)) {
		x /= 1024;
		u++;
	}
	fprintf(fp, " %11.2f%s", x, units[u]);
}

static void
print_header(const struct differ *d, const struct profconv_profile *cur,
    FILE *fp)
{
	static const char *const heap_titles[] = {
		"New", "Freed", "Delta objs", "Alloc bytes", "Freed bytes",
		"Delta bytes",
	};
	char title[64];
	size_t c;

	for (c = 0; c < ncolumns(d); c++) {
		if (d->is_heap) {
			fprintf(fp, " %14s", heap_titles[c]);
			continue;
		}
		snprintf(title, sizeof(title), "%s %s",
		    c % 3 == 0 ? "base" : c % 3 == 1 ? "cur" : "delta",
		    profconv__pstr(cur, cur->sample_types[c / 3].type));
		fprintf(fp, " %14.14s", title);
	}
	fputs("  Name\n", fp);
}

static void
print_row(const struct differ *d, const struct profconv_profile *cur,
    FILE *fp, const int64_t *base, const int64_t *now, const char *name)
{
	size_t c;

	for (c = 0; c < ncolumns(d); c++)
		print_value(fp, column(d, base, now, c),
		    column_is_bytes(d, cur, c), d->opts->exact != 0);
	fprintf(fp, "  %s\n", name);
}

static bool
row_shown(const struct differ *d, const int64_t *base, const int64_t *cur)
{
	size_t t;
	bool changed = false;

	for (t = 0; t < d->ntypes; t++)
		changed = changed || base[t] != cur[t];
	if (!changed)
		return false;
	if (!d->opts->leaks)
		return true;
	if (d->is_heap)
		return column(d, base, cur, 2) > 0 || column(d, base, cur, 5) > 0;
	for (t = 0; t < d->ntypes; t++)
		if (cur[t] > base[t])
			return true;
	return false;
}

static int
print_table(struct differ *d, const struct profconv_profile *cur, FILE *fp)
{
	int64_t *tb = NULL, *tc = NULL;
	size_t i, t, shown = 0, n = 0;
	int col = sort_column(d, cur);

	if (col == -2)
		return profconv__fail(PROFCONV_EINVAL,
		    "cannot sort by '%s': no such column", d->opts->sort);
	tb = calloc(2 * d->ntypes + 1, sizeof(*tb));
	if (tb == NULL)
		return profconv__nomem();
	tc = tb + d->ntypes;
	for (i = 0; i < d->nrows; i++) {
		struct row *r = &d->rows[i];
		const int64_t *b = &d->vals[r->off], *c = b + d->ntypes;
		bool visible = row_shown(d, b, c);

		/* The leak view totals what it shows; else everything. */
		for (t = 0; (visible || !d->opts->leaks) && t < d->ntypes; t++) {
			pc_add_sat(&tb[t], b[t]);
			pc_add_sat(&tc[t], c[t]);
		}
		if (!visible)
			continue;
		r->key = col >= 0 ? column(d, b, c, (size_t)col) : 0;
		d->rows[n++] = *r;
	}
	sort_ctx = d;
	sort_col = col;
	if (n > 1)
		qsort(d->rows, n, sizeof(*d->rows), row_cmp);
	print_header(d, cur, fp);
	for (i = 0; i < n && (d->opts->top == 0 || shown < d->opts->top); i++) {
		const int64_t *b = &d->vals[d->rows[i].off];

		print_row(d, cur, fp, b, b + d->ntypes,
		    profconv__str(&d->names, d->rows[i].name));
		shown++;
	}
	if (shown < n)
		fprintf(fp, "  ... %zu more rows\n", n - shown);
	print_row(d, cur, fp, tb, tc, "TOTAL");
	free(tb);
	return 0;
}

static void
find_heap_slots(struct differ *d, const struct profconv_profile *cur)
{
	static const char *const names[HEAP_SLOTS] = {
		"alloc_objects", "alloc_space", "inuse_objects", "inuse_space",
	};
	size_t i;

	d->is_heap = true;
	for (i = 0; i < HEAP_SLOTS; i++) {
		d->heap[i] = profconv_profile_sample_type_index(cur, names[i]);
		d->is_heap = d->is_heap && d->heap[i] >= 0;
	}
}

int
profconv_diff_print(const struct profconv_profile *base,
    const struct profconv_profile *cur, FILE *fp,
    const struct profconv_diff_options *opts)
{
	struct profconv_diff_options def = PROFCONV_DIFF_OPTIONS_INIT;
	struct differ d;
	int rc;

	if (opts == NULL)
		opts = &def;
	memset(&d, 0, sizeof(d));
	d.opts = opts;
	d.ntypes = cur->nsample_types;
	if (base->nsample_types != d.ntypes)
		return profconv__fail(PROFCONV_EINVAL,
		    "profiles have different sample types");
	find_heap_slots(&d, cur);
	rc = profconv__strtab_init(&d.names);
	if (rc == 0)
		rc = add_profile(&d, base, false);
	if (rc == 0)
		rc = add_profile(&d, cur, true);
	if (rc == 0)
		rc = print_table(&d, cur, fp);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__fail(PROFCONV_EIO, "write error");
	profconv__strtab_free(&d.names);
	free(d.row_of_name);
	free(d.rows);
	free(d.vals);
	free(d.buf);
	return rc;
}

/* --- the leak view of a delta profile ----------------------------------------- */

int
profconv_profile_keep_growth(struct profconv_profile *prof)
{
	int inuse_n = profconv_profile_sample_type_index(prof, "inuse_objects");
	int inuse_b = profconv_profile_sample_type_index(prof, "inuse_space");
	size_t i, t, nt = prof->nsample_types, kept = 0;
	bool grew;

	if (inuse_n < 0 && inuse_b < 0) {
		inuse_n = profconv_profile_sample_type_index(prof, "objects");
		inuse_b = profconv_profile_sample_type_index(prof, "space");
	}
	for (i = 0; i < prof->nsamples; i++) {
		const int64_t *v = &prof->values[i * nt];

		if (inuse_n >= 0 || inuse_b >= 0)
			grew = (inuse_n >= 0 && v[inuse_n] > 0) ||
			    (inuse_b >= 0 && v[inuse_b] > 0);
		else
			for (t = 0, grew = false; t < nt; t++)
				grew = grew || v[t] > 0;
		if (!grew)
			continue;
		if (kept != i) {
			prof->samples[kept] = prof->samples[i];
			memmove(&prof->values[kept * nt], v, nt * sizeof(*v));
		}
		kept++;
	}
	prof->nsamples = kept;
	prof->nvalues = kept * nt;
	return 0;
}
