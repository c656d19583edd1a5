/* SPDX-License-Identifier: MIT */
/*
 * list.c - annotated source: what each line of a function holds, as go
 * tool pprof -list prints it, with inlined calls nested under the line
 * that made them.
 *
 * The values come from views at line granularity (one frame per function
 * and line, inlined calls expanded), so a listing shows the frames, names
 * and filters every other writer shows.  pprof's rules (report/source.go,
 * graph/graph.go at go 1.19's vendored copy): a frame's cum counts each
 * stack once however often the frame recurs in it, its flat the stacks it
 * ends; a function's range runs from its first line (or 5 lines before
 * its first sampled line) to 5 lines after its last sampled one, cut at
 * the end of the file; the total is the sum of the samples' magnitudes
 * before focus and ignore, or with a base, the base's.  With a base every value is CUR - BASE.
 * The sign of a base's samples, the totals and the reference come from
 * the rules every comparison shares (view/delta.c).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "model/model.h"
#include "view/graph.h"
#include "report/list.h"
#include "view/delta.h"
#include "view/view.h"
#include "write/write.h"
#include "report/lister.h"

/* --- pprof's numbers: one implementation, view/graph_measure.c's --------- */

const char profconv__list_full[] = "the listing's bound is reached "
    "(rows, or the page's size)";

const char *
profconv__list_value(char buf[48], int64_t v, const char *unit)
{
	return profconv__measure_label(buf, 48, v, unit, "minimum");
}

const char *
profconv__list_percent(char buf[32], int64_t v, int64_t total)
{
	return profconv__measure_percent_padded(buf, 32, v, total);
}

/* --- text ------------------------------------------------------------------- */

/*
 * LEN bytes of source at S for a terminal: tabs kept (pprof keeps them),
 * every other control byte, DEL, bad UTF-8 and the controls a terminal
 * obeys escaped (profconv__text_safe()); cut at PC_SOURCE_MAX_LINE bytes.
 */
static void
put_source(FILE *fp, struct pc_textbuf *tb, const char *s, size_t len)
{
	size_t i = 0, j, show = len;
	char *chunk;

	if (show > PC_SOURCE_MAX_LINE) {
		show = PC_SOURCE_MAX_LINE;
		while (show > 0 && ((unsigned char)s[show] & 0xc0) == 0x80)
			show--;
	}
	chunk = malloc(show + 1);
	if (chunk == NULL) {
		fputs("[out of memory]", fp);
		return;
	}
	while (i < show) {
		if (s[i] == '\t') {
			fputc('\t', fp);
			i++;
			continue;
		}
		if (s[i] == '\0') {
			fputs("\\x00", fp);
			i++;
			continue;
		}
		for (j = i; j < show && s[j] != '\t' && s[j] != '\0'; j++)
			;
		memcpy(chunk, s + i, j - i);
		chunk[j - i] = '\0';
		fputs(profconv__text_safe(tb, chunk), fp);
		i = j;
	}
	free(chunk);
	if (show < len)
		fprintf(fp, " [... %zu more bytes]", len - show);
}

static const char *
value_or_dot(char buf[48], const struct pc_listing *l, int64_t v)
{
	return v == 0 ? "." : profconv__list_value(buf, v, l->unit);
}

static void
put_row(FILE *fp, struct pc_textbuf *tb, const struct pc_listing *l,
    const struct pc_list_row *row)
{
	char a[48], b[48];
	const char *text, *base;
	size_t len;

	fprintf(fp, "%10s %10s ", value_or_dot(a, l, row->flat),
	    value_or_dot(b, l, row->cum));
	if (row->gap != 0) {
		fprintf(fp, "%6s  [%" PRId64 " line%s not shown: far from "
		    "every line that holds something]\n", "...", row->gap,
		    row->gap != 1 ? "s" : "");
		return;
	}
	if (row->depth == 0) {
		fprintf(fp, "%6" PRId64 ":", row->line);
	} else {
		base = strrchr(row->file, '/');
		base = base != NULL ? base + 1 : row->file;
		fprintf(fp, "%*s+ %s %s:%" PRId64 ":", (int)(6 + 2 * row->depth),
		    "", profconv__text_safe(tb, row->function),
		    profconv__text_safe(tb, base), row->line);
	}
	if (profconv__source_line(row->src, row->line, &text, &len)) {
		if (row->depth != 0) {
			/* Inlined lines show their code, not its indent. */
			while (len > 0 && (*text == ' ' || *text == '\t')) {
				text++;
				len--;
			}
			fputc(' ', fp);
		}
		put_source(fp, tb, text, len);
	}
	fputc('\n', fp);
}

static int
write_text(const struct pc_listing *l, FILE *fp)
{
	struct pc_textbuf tb = { 0 };
	char a[48], b[48], p[32];
	size_t i, k;

	fprintf(fp, "Total: %s\n", profconv__list_value(a, l->total, l->unit));
	for (i = 0; i < l->nroutines; i++) {
		const struct pc_list_routine *r = &l->routines[i];

		if (r->file == NULL) {
			fprintf(fp, "No source information for %s\n",
			    profconv__text_safe(&tb, r->name));
			continue;
		}
		fprintf(fp, "ROUTINE ======================== %s in %s\n",
		    profconv__text_safe(&tb, r->name),
		    profconv__text_safe(&tb, r->file));
		fprintf(fp, "%10s %10s (flat, cum) %s of Total\n",
		    profconv__list_value(a, r->flat, l->unit),
		    profconv__list_value(b, r->cum, l->unit),
		    profconv__list_percent(p, r->cum, l->total));
		if (r->src->text == NULL)
			fprintf(fp, " Note: source %s; tried %s\n",
			    r->src->withheld ? "withheld" : "not found",
			    profconv__text_safe(&tb, r->src->note));
		for (k = 0; k < r->nrows; k++)
			put_row(fp, &tb, l, &r->rows[k]);
		if (r->cut)
			fprintf(fp, " Note: cut here: %s\n", profconv__list_full);
	}
	if (l->more != 0)
		fprintf(fp, "Note: %zu more function%s not listed: %s\n",
		    l->more, l->more != 1 ? "s" : "", profconv__list_full);
	profconv__textbuf_free(&tb);
	return 0;
}

/* --- the entry point ------------------------------------------------------- */

static void
lister_free(struct lister *l)
{
	size_t i;

	if (l->have_rx)
		regfree(&l->rx);
	free(l->names);
	for (i = 0; l->displays != NULL && i < l->nnodes; i++)
		free(l->displays[i]);
	free(l->displays);
	for (i = 0; i < l->out.nroutines; i++)
		free(l->out.routines[i].rows);
	free(l->out.routines);
	free(l->nodes);
	profconv__keymap_free(&l->keys);
	profconv__sources_free(l->sources);
}

/*
 * The samples of PROF that a view by function with focus and ignore
 * (VO's) keeps, added up per stack of LV's line view: focus and ignore
 * match function names, as in every other command, not the line view's
 * "name file:line" frames.
 */
static int
filter_values(const struct profconv_profile *prof,
    const struct profconv_view_options *vo, struct lview *lv, bool take)
{
	struct profconv_view_options fo = *vo;
	struct profconv_view *fv = NULL;
	size_t i, k;
	int rc;

	fo.granularity = PROFCONV_BY_FUNCTION;
	rc = profconv__view_new_unmerged(&fv, prof, &fo, take);
	if (rc < 0)
		return rc;
	lv->vals = calloc(profconv_view_stack_count(lv->v) + 1,
	    sizeof(*lv->vals));
	if (lv->vals == NULL) {
		profconv_view_free(fv);
		return profconv__nomem();
	}
	for (i = 0; i < prof->nsamples; i++) {
		k = profconv__view_sample_stack(lv->v, i);
		if (k != 0 && profconv__view_sample_stack(fv, i) != 0)
			pc_add_sat(&lv->vals[k - 1],
			    pc_sample_values(prof, i)[lv->ti]);
	}
	profconv_view_free(fv);
	return 0;
}

/* The total the listing's shares of LV are of: the whole profile's
 * (profconv_view_percent_total()), or when relative what the filters
 * keep, focus and ignore included (LV's values when they applied). */
static int
list_total(const struct lview *lv, int64_t *out)
{
	size_t i, n = profconv_view_stack_count(lv->v);
	int64_t v;

	if (!lv->relative || lv->vals == NULL)
		return profconv_view_percent_total(lv->v, lv->ti, out);
	*out = 0;
	for (i = 0; i < n; i++) {
		v = lv->vals[i];
		pc_add_sat(out, v < 0 ? pc_sub_sat(0, v) : v);
	}
	return 0;
}

static int
list_scale(struct lister *l, const struct lview *vc,
    const struct lview *vb)
{
	int64_t cur = 0, base = 0;
	int rc;

	rc = list_total(vc, &cur);
	if (rc == 0 && vb != NULL)
		rc = list_total(vb, &base);
	if (rc == 0)
		profconv__delta_scale(&l->scale, base, cur, 0);
	return rc;
}

/* The listing's view of PROF, and the index of its sample type; of the
 * samples with a frame of one of the N functions NAMES when NAMES is not
 * NULL and no share is of what the filters keep (the other samples add
 * nothing to the listing, and its total is the profile's).  TAKE: its
 * last view of PROF of every sample takes PROF's stacks when they may go
 * (profconv__view_new_last()); a view of some samples never does (only
 * the report's Source tab makes one, and the report gives the stacks
 * back itself). */
static int
list_view(const struct profconv_profile *prof,
    const struct profconv_list_options *o, const char *const *names,
    size_t n, struct lview *lv, bool take)
{
	struct profconv_view_options vo, lo;
	bool filtered;
	int rc;

	rc = profconv__options_take(&vo, o->view, &profconv__options_view);
	if (rc < 0)
		return rc;
	lv->relative = vo.relative_percentages != 0;
	lo = vo;
	lo.granularity = PROFCONV_BY_LINE;
	lo.focus = lo.ignore = NULL;
	filtered = vo.focus != NULL || vo.ignore != NULL;
	/* The listing adds its stacks up: they need not be merged. */
	if (names != NULL && !lv->relative)
		rc = profconv__view_new_unmerged_with(&lv->v, prof, &lo, names,
		    n);
	else
		rc = profconv__view_new_unmerged(&lv->v, prof, &lo,
		    take && !filtered);
	if (rc == 0)
		rc = profconv_view_sample_index(lv->v, o->sample_type, &lv->ti);
	if (rc == 0 && filtered)
		rc = filter_values(prof, &vo, lv, take);
	return rc;
}

/* What to list: functions matching a regex, or named exactly. */
struct what {
	const char *regex;
	const char *const *names;
	size_t nnames;
	bool fragment;		/* the HTML fragment, not as OPTS->html says */
	size_t budget;
	bool take;		/* the public call: the profiles' stacks go
				 * with its last views when they may */
	/* The view of CUR the listing would make, when its caller has it
	 * (NULL: made here); not freed. */
	const struct profconv_view *view;
};

int
profconv_list_check(const char *regex, const struct profconv_list_options *opts)
{
	struct profconv_list_options o;
	regex_t rx;
	bool ok;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_list)) < 0)
		return rc;
	if (regex == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no regex");
	if ((rc = profconv__view_compile(&rx, regex, &ok, "REGEX")) < 0)
		return rc;
	regfree(&rx);
	return 0;
}

/* The base's sample type must be the profile's: a value of one is no
 * change of the other. */
static int
same_type(const struct profconv_profile *cur, size_t ci,
    const struct profconv_profile *base, size_t bi)
{
	const char *ct = profconv__pstr(cur, cur->sample_types[ci].type);
	const char *cu = profconv__pstr(cur, cur->sample_types[ci].unit);
	const char *bt = profconv__pstr(base, base->sample_types[bi].type);
	const char *bu = profconv__pstr(base, base->sample_types[bi].unit);

	if (strcmp(ct, bt) == 0 && strcmp(cu, bu) == 0)
		return 0;
	return profconv__fail(PROFCONV_EINVAL, "list: the base's sample type "
	    "'%s' (%s) is not the profile's '%s' (%s)", bt, bu, ct, cu);
}

/* The listing of W's functions. */
static int
list_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, const struct what *w, FILE *fp,
    const struct profconv_list_options *opts)
{
	struct profconv_list_options o;
	struct lview vc = { 0 }, vb = { 0 };
	struct lister l = { 0 };
	size_t i;
	bool ok;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_list)) < 0)
		return rc;
	if (cur == NULL || (w->regex == NULL && w->names == NULL) ||
	    fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no profile, "
		    "regex or output");
	if (w->regex != NULL) {
		rc = profconv__view_compile(&l.rx, w->regex, &ok, "REGEX");
		if (rc < 0)
			return rc;
		l.have_rx = true;
	} else {
		l.names = malloc((w->nnames + 1) * sizeof(*l.names));
		if (l.names == NULL)
			return profconv__nomem();
		for (i = 0; i < w->nnames; i++)
			l.names[i] = w->names[i];
		l.nnames = w->nnames;
		qsort(l.names, l.nnames, sizeof(*l.names), profconv__by_str);
	}
	l.o = &o;
	l.budget = w->budget;
	if (w->view != NULL) {
		struct profconv_view_options vo;

		vc.v = (struct profconv_view *)w->view;
		rc = profconv__options_take(&vo, o.view,
		    &profconv__options_view);
		vc.relative = vo.relative_percentages != 0;
		if (rc == 0)
			rc = profconv_view_sample_index(vc.v, o.sample_type,
			    &vc.ti);
	} else {
		rc = list_view(cur, &o, l.names, l.nnames, &vc, w->take);
	}
	if (rc == 0 && base != NULL)
		rc = list_view(base, &o, l.names, l.nnames, &vb, w->take);
	if (rc == 0 && base != NULL)
		rc = same_type(cur, vc.ti, base, vb.ti);
	if (rc == 0)
		rc = profconv__list_add_view(&l, &vc, false);
	if (rc == 0 && vb.v != NULL)
		rc = profconv__list_add_view(&l, &vb, true);
	if (rc == 0)
		rc = list_scale(&l, &vc, base != NULL ? &vb : NULL);
	if (rc == 0)
		rc = profconv__sources_new(&l.sources, &o);
	if (rc == 0)
		rc = profconv__list_build_dirs(l.sources, cur);
	if (rc == 0 && base != NULL)
		rc = profconv__list_build_dirs(l.sources, base);
	if (rc == 0) {
		l.out.total = l.scale.reference;
		l.out.unit = profconv__pstr(cur,
		    cur->sample_types[vc.ti].unit);
		l.out.type = profconv__pstr(cur,
		    cur->sample_types[vc.ti].type);
		l.out.diff = base != NULL;
		rc = profconv__list_make_listing(&l, cur);
	}
	if (rc == 0 && l.out.nroutines == 0)
		rc = w->regex != NULL ? profconv__fail(PROFCONV_ENOTFOUND,
		    "no matches found for regexp: %s", w->regex) :
		    profconv__fail(PROFCONV_ENOTFOUND, "no source information "
		    "for %s of the %zu functions (no file or line in the "
		    "profile)", w->nnames != 1 ? "any" : "the one",
		    w->nnames);
	if (rc == 0)
		rc = w->fragment ?
		    profconv__list_write_html_fragment(&l.out, fp) :
		    o.html ? profconv__list_write_html(&l.out, fp, w->regex) :
		    write_text(&l.out, fp);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	lister_free(&l);
	if (w->view == NULL)
		profconv_view_free(vc.v);
	profconv_view_free(vb.v);
	free(vc.vals);
	free(vb.vals);
	return rc;
}

int
profconv_list_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *regex, FILE *fp,
    const struct profconv_list_options *opts)
{
	struct what w = { 0 };

	w.regex = regex;
	w.take = true;
	if (regex == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no profile, "
		    "regex or output");
	return list_write(cur, base, &w, fp, opts);
}

int
profconv__list_write_fragment(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *const *names,
    size_t n, FILE *fp, const struct profconv_list_options *opts,
    size_t budget)
{
	struct what w = { NULL, names, n, true, budget, false, NULL };

	if (names == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no names");
	return list_write(cur, base, &w, fp, opts);
}

int
profconv__list_write_fragment_view(const struct profconv_view *view,
    const char *const *names, size_t n, FILE *fp,
    const struct profconv_list_options *opts, size_t budget)
{
	struct what w = { NULL, names, n, true, budget, false, view };
	struct profconv_view_options vo;
	int rc;

	if (names == NULL || view == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no names");
	/* Only the view list_view() would make: by line, no focus or
	 * ignore (which match functions, not its lines). */
	if ((rc = profconv__options_take(&vo, opts != NULL ? opts->view :
	    NULL, &profconv__options_view)) < 0)
		return rc;
	if (vo.focus != NULL || vo.ignore != NULL ||
	    profconv__view_granularity(view) != PROFCONV_BY_LINE)
		return profconv__fail(PROFCONV_EINVAL, "list: not the "
		    "listing's view");
	return list_write(profconv_view_profile(view), NULL, &w, fp, opts);
}
