/* SPDX-License-Identifier: MIT */
/*
 * traces.c - go tool pprof's label reports of a view: -traces, every
 * shown sample's labels and stack with its value, and -tags, each label
 * key's values with their totals (pprof's printTraces and printTags).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "names/names.h"
#include "view/graph.h"
#include "view/view.h"
#include "write/write.h"

#define T(s) profconv__text_safe(&r->tb, (s))
#define VALUE_SIZE 96

static const char separator[] =
    "-----------+-------------------------------------------------------\n";

struct report {
	const struct profconv_profile *prof;
	const struct profconv_view *view;
	FILE *fp;
	size_t ti;		/* the sample type */
	const char *unit;	/* its unit */
	const char *out_unit;	/* what values are shown in */
	const char **key_unit;	/* pprof's numLabelUnits, by key string */
	struct pc_tagnames tn;	/* --tagshow, --taghide */
	struct pc_textbuf tb;
	struct pc_namer namer;
	char **lab;		/* a sample's label lines */
	size_t nlab, lab_cap;
	char *line;		/* the one being built */
	size_t line_len, line_cap;
};

static int
add_line(struct report *r, char *s)
{
	int rc;

	if (s == NULL)
		return profconv__nomem();
	if ((rc = PC_GROW(r->lab, r->lab_cap, r->nlab, 1)) < 0) {
		free(s);
		return rc;
	}
	r->lab[r->nlab++] = s;
	return 0;
}

static void
drop_lines(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nlab; i++)
		free(r->lab[i]);
	r->nlab = 0;
}

/* S right-aligned in WIDTH characters (Go's %*s counts runes). */
static void
put_right(FILE *fp, const char *s, size_t width)
{
	size_t n = profconv__utf8_chars(s);

	for (; n < width; n++)
		fputc(' ', fp);
	fputs(s, fp);
}

/* Append LEN bytes of S to the line being built in R. */
static int
put_text(struct report *r, const char *s, size_t len)
{
	int rc = PC_GROW(r->line, r->line_cap, r->line_len, len + 1);

	if (rc < 0)
		return rc;
	memcpy(r->line + r->line_len, s, len);
	r->line_len += len;
	r->line[r->line_len] = '\0';
	return 0;
}

/* --- -traces ---------------------------------------------------------------- */

/* pprof's ProfileLabels. */
static void
profile_labels(struct report *r)
{
	FILE *fp = r->fp;
	const struct profconv_profile *prof = r->prof;
	char v[VALUE_SIZE], dv[VALUE_SIZE], pct[32], p[24];
	int64_t total = 0;
	const char *u;
	size_t i;

	if (prof->nmappings > 0) {
		const struct pc_mapping *m = pc_mapping(prof, 1);
		const char *f = profconv__pstr(prof, m->file);
		const char *b = strrchr(f, '/');

		if (*f != '\0')
			fprintf(fp, "File: %s\n", T(b != NULL ? b + 1 : f));
		if (*profconv__pstr(prof, m->build_id) != '\0')
			fprintf(fp, "Build ID: %s\n",
			    T(profconv__pstr(prof, m->build_id)));
	}
	for (i = 0; i < prof->ncomments; i++) {
		const char *c = profconv__pstr(prof, prof->comments[i]);

		if (c[0] != '#')
			fprintf(fp, "%s\n", T(c));
	}
	fprintf(fp, "Type: %s\n",
	    T(profconv__pstr(prof, prof->sample_types[r->ti].type)));
	if (prof->time_nanos != 0) {
		time_t secs = (time_t)(prof->time_nanos / 1000000000);
		struct tm tm;
		char when[64];

		/* Go's "Jan 2, 2006 at 3:04pm (MST)". */
		if (localtime_r(&secs, &tm) != NULL &&
		    strftime(when, sizeof(when), "%b %-d, %Y at %-I:%M%P (%Z)",
		    &tm) > 0)
			fprintf(fp, "Time: %s\n", when);
	}
	if (prof->duration_nanos != 0) {
		double ns;

		(void)profconv_view_percent_total(r->view, r->ti, &total);
		ns = profconv__measure_scale(total, r->unit, "nanoseconds", &u);
		pct[0] = '\0';
		if (strcmp(u, "ns") == 0 && ns != 0)
			snprintf(pct, sizeof(pct), "(%s)",
			    profconv__measure_percent_padded(p, sizeof(p),
			    (int64_t)ns, prof->duration_nanos));
		fprintf(fp, "Duration: %s, Total samples = %s %s\n",
		    profconv__measure_label(dv, sizeof(dv),
		    prof->duration_nanos, "nanoseconds", "auto"),
		    profconv__measure_label(v, sizeof(v), total, r->unit,
		    r->out_unit), pct);
	}
}

/* What a label is to pprof: 0 a string, 1 a number, -1 nothing. */
static int
label_kind(const struct pc_label *lb)
{
	return lb->str != 0 ? 0 : profconv__label_numeric(lb) ? 1 : -1;
}

/* Label LB's value as shown: the string, or the number scaled in its
 * key's unit; escaped. */
static const char *
label_value(struct report *r, const struct pc_label *lb, char *num,
    size_t size)
{
	if (lb->str != 0)
		return T(profconv__pstr(r->prof, lb->str));
	return T(profconv__measure_label(num, size, lb->num,
	    r->key_unit[lb->key], "auto"));
}

/* Sample SI's label lines, as pprof's: "%10s:  " and the key's values
 * joined by blanks, the string keys' lines sorted, then the numeric
 * keys' sorted. */
static int
sample_labels(struct report *r, size_t si)
{
	const struct profconv_profile *prof = r->prof;
	const struct pc_sample *s = pc_sample(prof, si);
	const struct pc_label *lb = pc_sample_labels(prof, s);
	char num[VALUE_SIZE];
	const char *key, *v;
	size_t i, j, first, kc;
	int rc = 0, kind;

	drop_lines(r);
	for (kind = 0; rc == 0 && kind < 2; kind++) {
		first = r->nlab;
		for (i = 0; rc == 0 && i < s->nlabels; i++) {
			key = profconv__pstr(prof, lb[i].key);
			if (label_kind(&lb[i]) != kind ||
			    !profconv__tagnames_keep(&r->tn, key))
				continue;
			/* The key's first label gathers its values. */
			for (j = 0; j < i && (lb[j].key != lb[i].key ||
			    label_kind(&lb[j]) != kind); j++)
				;
			if (j < i)
				continue;
			key = T(key);
			r->line_len = 0;
			for (kc = profconv__utf8_chars(key); rc == 0 && kc < 10;
			    kc++)
				rc = put_text(r, " ", 1);
			if (rc == 0)
				rc = put_text(r, key, strlen(key));
			if (rc == 0)
				rc = put_text(r, ":  ", 3);
			for (j = i; rc == 0 && j < s->nlabels; j++) {
				if (lb[j].key != lb[i].key ||
				    label_kind(&lb[j]) != kind)
					continue;
				if (j > i)
					rc = put_text(r, " ", 1);
				v = label_value(r, &lb[j], num, sizeof(num));
				if (rc == 0)
					rc = put_text(r, v, strlen(v));
			}
			if (rc == 0)
				rc = add_line(r, strdup(r->line));
		}
		/* None at all: r->lab is NULL, and so is r->lab + 0 to
		 * qsort(). */
		if (rc == 0 && r->nlab - first > 1)
			qsort(r->lab + first, r->nlab - first,
			    sizeof(*r->lab), profconv__by_str);
	}
	return rc;
}

/* The location of a --addresses frame: a frame of the view names a
 * location by its outermost function and address suffix. */
static bool
frame_is_location(struct report *r, const struct profconv_view_frame *f,
    uint32_t id)
{
	const struct pc_location *l = pc_location(r->prof, id);
	char tmp[PC_UNNAMED_MAX];
	size_t fl, sl;

	if (l->nlines == 0 || profconv__named_unnamed(r->prof, id))
		return strcmp(f->name, profconv__unnamed_frame(r->prof, id,
		    tmp, sizeof(tmp))) == 0;
	profconv__address_suffix(r->prof, id, tmp, sizeof(tmp));
	fl = strlen(f->name);
	sl = strlen(tmp);
	return fl >= sl && strcmp(f->name + fl - sl, tmp) == 0 &&
	    strncmp(f->name, f->function, fl - sl) == 0 &&
	    f->function[fl - sl] == '\0';
}

/* Location ID's lines as pprof -traces -addresses prints them: the
 * address, the function, file:line, innermost first, "(inline)" on all
 * but the outermost; without lines, the address and FRAME, the view's
 * name for it.  VS: the value on the first line ("" after). */
static int
put_location(struct report *r, uint32_t id, const char *frame,
    const char **vs)
{
	FILE *fp = r->fp;
	const struct profconv_profile *prof = r->prof;
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_line *ln = pc_location_lines(prof, l);
	const char *name, *file;
	char *clean;
	size_t i, len;
	int rc = 0;

	if (l->nlines == 0 || profconv__named_unnamed(prof, id)) {
		/* No function: the address and the view's name for it
		 * (pprof's "[module]"). */
		put_right(fp, *vs, 10);
		*vs = "";
		fputs("   ", fp);
		if (l->address != 0)
			fprintf(fp, "%016" PRIx64 " ", l->address);
		fprintf(fp, "%s\n", T(frame));
		return 0;
	}
	for (i = 0; rc == 0 && i < l->nlines; i++) {
		const struct pc_function *fn = pc_function(prof,
		    ln[i].function);

		put_right(fp, *vs, 10);
		*vs = "";
		fputs("   ", fp);
		if (l->address != 0)
			fprintf(fp, "%016" PRIx64 " ", l->address);
		rc = profconv__namer_name(&r->namer, prof, ln[i].function,
		    &name, &len);
		if (rc < 0)
			break;
		file = profconv__pstr(prof, fn->file);
		clean = *file != '\0' ? profconv__clean_path(file) : NULL;
		if (*file != '\0' && clean == NULL) {
			rc = profconv__nomem();
			break;
		}
		if (*name != '\0')
			fputs(T(name), fp);
		if (ln[i].line != 0)
			fprintf(fp, "%s%s:%" PRId64, *name != '\0' ? " " : "",
			    clean != NULL ? T(clean) : "", ln[i].line);
		else if (clean != NULL)
			fprintf(fp, "%s%s", *name != '\0' ? " " : "",
			    T(clean));
		free(clean);
		fprintf(fp, "%s\n", i + 1 < l->nlines ? " (inline)" : "");
	}
	return rc;
}

static int
print_traces(struct report *r)
{
	FILE *fp = r->fp;
	const struct profconv_profile *prof = r->prof;
	bool by_address = profconv__view_granularity(r->view) ==
	    PROFCONV_BY_ADDRESS;
	struct pc_view_stack st;
	struct profconv_view_frame f;
	char v[VALUE_SIZE];
	const uint8_t *inl;
	struct pc_stack locs;
	const char *vs;
	size_t si, k, j, loc;
	int rc = 0;

	profile_labels(r);
	for (si = 0; rc == 0 && si < prof->nsamples; si++) {
		size_t sk = profconv__view_sample_stack(r->view, si);

		if (sk == 0 || profconv__view_stack(r->view, sk - 1, &st) < 0 ||
		    st.nframes == 0)
			continue;
		fputs(separator, fp);
		if ((rc = sample_labels(r, si)) < 0)
			break;
		for (k = 0; k < r->nlab; k++)
			fprintf(fp, "%s\n", r->lab[k]);
		vs = profconv__measure_label(v, sizeof(v),
		    pc_sample_values(prof, si)[r->ti], r->unit, r->out_unit);
		inl = profconv__view_stack_inline(r->view, sk - 1);
		locs = pc_sample_stack(prof, pc_sample(prof, si));
		loc = 0;
		/* Leaf first, as pprof lists a stack. */
		for (k = st.nframes; rc == 0 && k > 0; k--) {
			if (profconv_view_frame(r->view,
			    pc_stack_at(st.frames, k - 1), &f) < 0)
				continue;
			if (by_address) {
				/* The sample's location this frame shows. */
				for (j = loc; j < pc_sample(prof, si)->nlocs &&
				    !frame_is_location(r, &f,
				    pc_stack_at(locs, j)); j++)
					;
				if (j < pc_sample(prof, si)->nlocs) {
					rc = put_location(r,
					    pc_stack_at(locs, j), f.name, &vs);
					loc = j + 1;
					continue;
				}
			}
			put_right(fp, vs, 10);
			vs = "";
			fprintf(fp, "   %s%s\n", T(f.name),
			    inl != NULL && inl[k - 1] ? " (inline)" : "");
		}
	}
	drop_lines(r);
	fputs(separator, fp);
	return rc;
}

/* --- -tags ------------------------------------------------------------------ */

/* A label value of a key and what the samples that have it add up to. */
struct tag {
	char *key, *name;
	int64_t value;
};

static int
cmp_tag_key(const void *a, const void *b)
{
	const struct tag *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : strcmp(x->name, y->name);
}

static uint64_t
mag(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* pprof's SortTags(flat): largest magnitude first, then by name. */
static int
cmp_tag_value(const void *a, const void *b)
{
	const struct tag *x = a, *y = b;
	int c = PC_CMP(mag(y->value), mag(x->value));

	return c != 0 ? c : strcmp(x->name, y->name);
}

static int
add_tag(struct tag **t, size_t *n, size_t *cap, const char *key,
    const char *name, int64_t value)
{
	int rc = PC_GROW(*t, *cap, *n, 1);

	if (rc < 0)
		return rc;
	(*t)[*n].key = strdup(key);
	(*t)[*n].name = strdup(name);
	(*t)[*n].value = value;
	if ((*t)[*n].key == NULL || (*t)[*n].name == NULL) {
		free((*t)[*n].key);
		free((*t)[*n].name);
		return profconv__nomem();
	}
	(*n)++;
	return 0;
}

/*
 * One key's block as Go's tabwriter (padding 1, aligned right) draws
 * "KEY:\t Total X" and " \tV (P):\t NAME" lines: each column as wide as
 * its widest cell and one more.
 */
static void
put_key(struct report *r, struct tag *t, size_t n)
{
	FILE *fp = r->fp;
	char buf[VALUE_SIZE], pct[32], (*cell)[VALUE_SIZE + 40];
	size_t i, w0, w1 = 0, c;
	int64_t total = 0;
	const char *u;
	double x;

	for (i = 0; i < n; i++)
		total += t[i].value;
	qsort(t, n, sizeof(*t), cmp_tag_value);
	cell = malloc(n * sizeof(*cell));
	/* "KEY:" and the padding; never under " " and the padding. */
	w0 = profconv__utf8_chars(t[0].key) + 2;
	for (i = 0; cell != NULL && i < n; i++) {
		x = profconv__measure_scale(t[i].value, r->unit, r->out_unit,
		    &u);
		if (total > 0)
			snprintf(cell[i], sizeof(cell[i]), "%.1f%s (%s):", x, u,
			    profconv__measure_percent_padded(pct, sizeof(pct),
			    t[i].value, total));
		else
			snprintf(cell[i], sizeof(cell[i]), "%.1f%s:", x, u);
		if ((c = strlen(cell[i]) + 1) > w1)
			w1 = c;
	}
	x = profconv__measure_scale(total, r->unit, r->out_unit, &u);
	snprintf(buf, sizeof(buf), "%s:", t[0].key);
	put_right(fp, buf, w0);
	fprintf(fp, " Total %.1f%s\n", x, u);
	for (i = 0; cell != NULL && i < n; i++) {
		put_right(fp, " ", w0);
		put_right(fp, cell[i], w1);
		fprintf(fp, " %s\n", t[i].name);
	}
	fputc('\n', fp);
	free(cell);
}

static int
print_tags(struct report *r)
{
	const struct profconv_profile *prof = r->prof;
	struct tag *t = NULL;
	size_t si, i, j, n = 0, cap = 0;
	char num[VALUE_SIZE];
	int rc = 0;

	for (si = 0; rc == 0 && si < prof->nsamples; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const struct pc_label *lb = pc_sample_labels(prof, s);
		int64_t v = pc_sample_values(prof, si)[r->ti];

		if (profconv__view_sample_stack(r->view, si) == 0)
			continue;
		for (i = 0; rc == 0 && i < s->nlabels; i++) {
			const char *key = profconv__pstr(prof, lb[i].key);
			const char *name;

			if (!profconv__tagnames_keep(&r->tn, key))
				continue;
			if (lb[i].str != 0)
				name = profconv__pstr(prof, lb[i].str);
			else if (profconv__label_numeric(&lb[i]))
				name = profconv__measure_label(num, sizeof(num),
				    lb[i].num, r->key_unit[lb[i].key],
				    r->out_unit);
			else
				continue;
			/* Escaped here: the widths are of what is shown. */
			key = T(key);
			name = T(name);
			rc = add_tag(&t, &n, &cap, key, name, v);
		}
	}
	if (rc == 0 && n > 0) {
		/* Sum the values of each key and name. */
		qsort(t, n, sizeof(*t), cmp_tag_key);
		for (i = 0, j = 0; i < n; i++) {
			if (j > 0 && strcmp(t[j - 1].key, t[i].key) == 0 &&
			    strcmp(t[j - 1].name, t[i].name) == 0) {
				t[j - 1].value = (int64_t)((uint64_t)
				    t[j - 1].value + (uint64_t)t[i].value);
				free(t[i].key);
				free(t[i].name);
				continue;
			}
			t[j++] = t[i];
		}
		n = j;
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && strcmp(t[j].key, t[i].key) ==
			    0; j++)
				;
			put_key(r, t + i, j - i);
		}
	}
	for (i = 0; i < n; i++) {
		free(t[i].key);
		free(t[i].name);
	}
	free(t);
	return rc;
}

int
profconv__print_label_report(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts)
{
	struct report r;
	struct profconv_view *view = NULL;
	int rc;

	memset(&r, 0, sizeof(r));
	r.prof = prof;
	r.fp = fp;
	r.out_unit = opts->unit != NULL && *opts->unit != '\0' ? opts->unit :
	    "minimum";
	r.namer.mode = vopts->demangle;
	if ((rc = profconv__tagnames_init(&r.tn, vopts)) < 0)
		return rc;
	rc = profconv_view_new(&view, prof, vopts);
	if (rc == 0)
		rc = profconv_view_sample_index(view, opts->sample_type, &r.ti);
	if (rc == 0)
		rc = profconv__label_units(prof, &r.key_unit);
	if (rc == 0) {
		r.view = view;
		r.unit = profconv__pstr(prof, prof->sample_types[r.ti].unit);
		rc = opts->traces ? print_traces(&r) : print_tags(&r);
	}
	free(r.lab);
	free(r.line);
	free(r.key_unit);
	profconv__tagnames_free(&r.tn);
	profconv__namer_free(&r.namer);
	profconv__textbuf_free(&r.tb);
	profconv_view_free(view);
	return rc;
}
