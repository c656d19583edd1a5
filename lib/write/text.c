/* SPDX-License-Identifier: MIT */
/* text.c - the text writers: a full, diffable dump and a summary. */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "names/names.h"
#include "view/view.h"
#include "write/write.h"

/* A string of the profile as the terminal may be sent it (write.h). */
#define T(s) profconv__text_safe(tb, (s))

/* --- the full dump ----------------------------------------------------------- */

static void
print_header(const struct profconv_profile *prof, FILE *fp, bool brief,
    struct pc_textbuf *tb)
{
	int def = profconv_profile_default_sample_index(prof);
	size_t i;

	fputs("sample types:", fp);
	for (i = 0; i < prof->nsample_types; i++)
		fprintf(fp, " %s/%s%s",
		    T(profconv__pstr(prof, prof->sample_types[i].type)),
		    T(profconv__pstr(prof, prof->sample_types[i].unit)),
		    (int)i == def ? "[default]" : "");
	fputc('\n', fp);
	if (prof->period_type.type != 0 || prof->period != 0)
		fprintf(fp, "period: %" PRId64 " %s/%s\n", prof->period,
		    T(profconv__pstr(prof, prof->period_type.type)),
		    T(profconv__pstr(prof, prof->period_type.unit)));
	if (prof->time_nanos != 0)
		fprintf(fp, "time: %" PRId64 " ns\n", prof->time_nanos);
	if (prof->duration_nanos != 0)
		fprintf(fp, "duration: %" PRId64 " ns\n", prof->duration_nanos);
	for (i = 0; i < prof->ncomments; i++)
		fprintf(fp, "comment: %s\n",
		    T(profconv__pstr(prof, prof->comments[i])));
	if (brief)
		return;
	if (prof->drop_frames != 0)
		fprintf(fp, "drop frames: %s\n",
		    T(profconv__pstr(prof, prof->drop_frames)));
	if (prof->keep_frames != 0)
		fprintf(fp, "keep frames: %s\n",
		    T(profconv__pstr(prof, prof->keep_frames)));
	if (prof->doc_url != 0)
		fprintf(fp, "doc url: %s\n",
		    T(profconv__pstr(prof, prof->doc_url)));
}

static void
print_label(const struct profconv_profile *prof, const struct pc_label *l,
    FILE *fp, struct pc_textbuf *tb)
{
	fprintf(fp, " %s=", T(profconv__pstr(prof, l->key)));
	if (l->str != 0)
		fprintf(fp, "\"%s\"", T(profconv__pstr(prof, l->str)));
	else if (l->unit != 0 && strcmp(profconv__pstr(prof, l->unit),
	    profconv__pstr(prof, l->key)) != 0)
		/* A unit that is the key itself (text2pb --threads'
		 * "thread") is the one pprof gives a key without one. */
		fprintf(fp, "%" PRId64 "%s", l->num,
		    T(profconv__pstr(prof, l->unit)));
	else
		fprintf(fp, "%" PRId64, l->num);
}

static void
print_samples(const struct profconv_profile *prof, FILE *fp,
    const struct pc_tagnames *tn, struct pc_textbuf *tb)
{
	size_t i, j, nt = prof->nsample_types, shown;

	fprintf(fp, "samples: %zu\n", prof->nsamples);
	for (i = 0; i < prof->nsamples; i++) {
		const struct pc_sample *s = pc_sample(prof, i);
		const int64_t *v = pc_sample_values(prof, i);

		for (j = 0; j < nt; j++)
			fprintf(fp, " %10" PRId64, v[j]);
		fputs(":", fp);
		for (j = 0; j < s->nlocs; j++)
			fprintf(fp, " %" PRIu32,
			    pc_stack_at(pc_sample_stack(prof, s), j));
		fputc('\n', fp);
		/* The labels --tagshow and --taghide leave. */
		for (j = shown = 0; j < s->nlabels; j++) {
			const struct pc_label *l = &pc_sample_labels(prof,
			    s)[j];

			if (!profconv__tagnames_keep(tn, profconv__pstr(prof,
			    l->key)))
				continue;
			if (shown++ == 0)
				fputs("   labels:", fp);
			print_label(prof, l, fp, tb);
		}
		if (shown != 0)
			fputc('\n', fp);
	}
}

/* Function FID's name in the dump's demangle mode. */
static const char *
fname(struct pc_namer *n, const struct profconv_profile *prof, uint32_t fid,
    int *rc)
{
	const char *name;
	size_t len;

	if (*rc == 0)
		*rc = profconv__namer_name(n, prof, fid, &name, &len);
	return *rc == 0 ? name : "";
}

static int
print_locations(const struct profconv_profile *prof, FILE *fp,
    struct pc_namer *n, struct pc_textbuf *tb)
{
	int rc = 0;
	size_t i, j;

	fprintf(fp, "locations: %zu\n", prof->nlocations);
	for (i = 0; i < prof->nlocations; i++) {
		const struct pc_location *l = pc_location(prof,
		    (uint32_t)i + 1);

		fprintf(fp, " %6zu: %#" PRIx64 " M=%" PRIu32 "%s\n", i + 1,
		    l->address, l->mapping, l->is_folded ? " [folded]" : "");
		for (j = 0; j < l->nlines; j++) {
			const struct pc_line *ln = &pc_location_lines(prof, l)[j];
			const struct pc_function *f =
			    pc_function(prof, ln->function);

			fprintf(fp, "         F=%" PRIu32 " %s %s:%" PRId64
			    ":%" PRId64 "\n", ln->function,
			    T(fname(n, prof, ln->function, &rc)),
			    T(profconv__pstr(prof, f->file)), ln->line,
			    ln->column);
		}
	}
	return rc;
}

static int
print_functions(const struct profconv_profile *prof, FILE *fp,
    struct pc_namer *n, struct pc_textbuf *tb)
{
	size_t i;
	int rc = 0;

	fprintf(fp, "functions: %zu\n", prof->nfunctions);
	for (i = 0; i < prof->nfunctions; i++) {
		const struct pc_function *f = pc_function(prof,
		    (uint32_t)i + 1);

		fprintf(fp, " %6zu: %s [%s] %s s=%" PRId64 "\n", i + 1,
		    T(fname(n, prof, (uint32_t)i + 1, &rc)),
		    T(profconv__pstr(prof, f->system_name)),
		    T(profconv__pstr(prof, f->file)), f->start_line);
	}
	return rc;
}

static void
print_mappings(const struct profconv_profile *prof, FILE *fp,
    struct pc_textbuf *tb)
{
	size_t i;

	fprintf(fp, "mappings: %zu\n", prof->nmappings);
	for (i = 0; i < prof->nmappings; i++) {
		const struct pc_mapping *m = pc_mapping(prof, (uint32_t)i + 1);

		fprintf(fp, " %6zu: %#" PRIx64 "/%#" PRIx64 "/%#" PRIx64
		    " %s %s%s%s%s%s\n", i + 1, m->start, m->limit, m->offset,
		    T(profconv__pstr(prof, m->file)),
		    T(profconv__pstr(prof, m->build_id)),
		    m->flags & PC_MAP_HAS_FUNCTIONS ? " [FN]" : "",
		    m->flags & PC_MAP_HAS_FILENAMES ? " [FL]" : "",
		    m->flags & PC_MAP_HAS_LINE_NUMBERS ? " [LN]" : "",
		    m->flags & PC_MAP_HAS_INLINE_FRAMES ? " [IN]" : "");
	}
}

/* --- the summary: the view's top stacks and functions ------------------------ */

/* |V| without overflow: INT64_MIN has no positive int64. */
static uint64_t
magnitude(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

static void
pct(FILE *fp, int64_t v, int64_t total)
{
	if (total != 0)
		fprintf(fp, " %6.2f%%", 100.0 * (double)v / (double)total);
	else
		fputs("       -", fp);
}

/* The top rows by TI's flat value, or with CUM columns by its cumulative
 * one when BY_CUM. */
static int
print_top(struct pc_rows *rows, FILE *fp, const char *what,
    const char *type, size_t ti, size_t nt, int64_t total, size_t top,
    bool cum, bool by_cum, struct pc_textbuf *tb)
{
	size_t i, n = profconv__rows_count(rows), shown = 0;
	size_t col = cum && by_cum ? nt + ti : ti;

	profconv__rows_sort(rows, profconv__rows_by_magnitude, &col);
	for (i = 0; i < n; i++)
		shown += profconv__rows_values(rows, i)[ti] != 0 ||
		    (cum && profconv__rows_values(rows, i)[nt + ti] != 0);
	fprintf(fp, "top %zu %s by %s%s%s (of %zu):\n",
	    top < shown ? top : shown, what, T(type),
	    cum && by_cum ? " cum" : "",
	    cum ? " (flat, flat%, cum, cum%)" : "", shown);
	for (i = 0; i < n && top > 0; i++) {
		const int64_t *v = profconv__rows_values(rows, i);

		if (v[ti] == 0 && !(cum && v[nt + ti] != 0))
			continue;
		fprintf(fp, " %14" PRId64, v[ti]);
		pct(fp, v[ti], total);
		if (cum) {
			fprintf(fp, " %14" PRId64, v[nt + ti]);
			pct(fp, v[nt + ti], total);
		}
		fprintf(fp, " %s\n", T(profconv__rows_name(rows, i)));
		top--;
	}
	return 0;
}

/* Stack I ranks after stack J in the top list: a smaller magnitude of
 * TI, or the same and a later name, which is a later index as the
 * view's stacks are in their folded text's byte order. */
static bool
stack_after(const struct profconv_view *view, size_t ti, size_t i, size_t j)
{
	uint64_t x = magnitude(profconv__view_stack_values(view, i)[ti]);
	uint64_t y = magnitude(profconv__view_stack_values(view, j)[ti]);

	return x != y ? x < y : i > j;
}

/* Restore the heap H (N entries, the entry that ranks last at the top)
 * from K down. */
static void
sift_down(const struct profconv_view *view, size_t ti, size_t *h, size_t n,
    size_t k)
{
	for (;;) {
		size_t c = 2 * k + 1, t;

		if (c >= n)
			return;
		if (c + 1 < n && stack_after(view, ti, h[c + 1], h[c]))
			c++;
		if (!stack_after(view, ti, h[c], h[k]))
			return;
		t = h[c];
		h[c] = h[k];
		h[k] = t;
		k = c;
	}
}

static int
by_rank(const void *a, const void *b, void *payload)
{
	const struct profconv_view *view = ((const void **)payload)[0];
	size_t ti = *(const size_t *)((const void **)payload)[1];
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	return stack_after(view, ti, i, j) ? 1 : stack_after(view, ti, j, i) ?
	    -1 : 0;
}

/* Whether the top stacks can be picked without naming every stack: no
 * frame's text holds a ';' (two stacks could then have one text, one
 * row) and no stack without frames has a value ("[no stack]" sorts by
 * its name, not by its place). */
static bool
stacks_unnamed_ok(const struct profconv_view *view, size_t ti)
{
	size_t i, n = profconv_view_frame_count(view);

	for (i = 1; i <= n; i++)
		if (strchr(profconv__view_frame_text(view, (uint32_t)i), ';'))
			return false;
	n = profconv_view_stack_count(view);
	for (i = 0; i < n; i++)
		if (profconv__view_stack_depth(view, i) == 0 &&
		    profconv__view_stack_values(view, i)[ti] != 0)
			return false;
	return true;
}

/*
 * The top stacks by TI as print_top() lists a row per stack, without
 * the rows: the view's stacks are distinct and in their folded text's
 * order, so only the TOP that are shown are named (a heap of them,
 * the last in rank at its root).
 */
static int
print_top_stacks(const struct profconv_view *view, FILE *fp,
    const char *type, size_t ti, int64_t total, size_t top,
    struct pc_textbuf *tb)
{
	size_t i, j, k = 0, shown = 0, n = profconv_view_stack_count(view);
	size_t *h = malloc((top < n ? top : n) * sizeof(*h) + 1);
	const void *ctx[2] = { view, &ti };
	struct pc_view_stack st;
	char *buf = NULL;
	size_t cap = 0, len;
	int rc = 0;

	if (h == NULL)
		return profconv__nomem();
	for (i = 0; i < n; i++) {
		if (profconv__view_stack_values(view, i)[ti] == 0)
			continue;
		shown++;
		if (k < top) {
			/* Sift up. */
			for (j = k++, h[j] = i; j > 0 && stack_after(view, ti,
			    h[j], h[(j - 1) / 2]); j = (j - 1) / 2) {
				size_t t = h[j];

				h[j] = h[(j - 1) / 2];
				h[(j - 1) / 2] = t;
			}
		} else if (k > 0 && stack_after(view, ti, h[0], i)) {
			h[0] = i;
			sift_down(view, ti, h, k, 0);
		}
	}
	qsort_r(h, k, sizeof(*h), by_rank, ctx);
	fprintf(fp, "top %zu stacks by %s (of %zu):\n", k, T(type), shown);
	for (i = 0; rc == 0 && i < k; i++) {
		profconv__view_stack(view, h[i], &st);
		for (j = 0, len = 0; rc == 0 && j < st.nframes; j++) {
			const char *t = profconv__view_frame_text(view,
			    pc_stack_at(st.frames, j));
			size_t m = strlen(t);

			rc = PC_GROW(buf, cap, len, m + 2);
			if (rc < 0)
				break;
			if (j != 0)
				buf[len++] = ';';
			memcpy(buf + len, t, m);
			len += m;
			buf[len] = '\0';
		}
		if (rc < 0)
			break;
		fprintf(fp, " %14" PRId64, st.values[ti]);
		pct(fp, st.values[ti], total);
		fprintf(fp, " %s\n", T(buf));
	}
	free(buf);
	free(h);
	return rc;
}

static int
print_summary(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts,
    const struct profconv_view_options *vopts, struct pc_textbuf *tb)
{
	size_t top = opts->top;
	struct profconv_view *view = NULL;
	struct pc_rows *stacks = NULL, *funcs = NULL;
	size_t ti = 0, nt = prof->nsample_types, i;
	int64_t total = 0, sum;
	const char *type;
	int def = profconv_profile_default_sample_index(prof);
	int rc;

	fprintf(fp, "samples: %zu  locations: %zu  functions: %zu  "
	    "mappings: %zu\n", prof->nsamples, prof->nlocations,
	    prof->nfunctions, prof->nmappings);
	rc = profconv__view_new_last(&view, prof, vopts, false, true);
	if (rc < 0)
		return rc;
	for (i = 0; i < nt; i++) {
		profconv_view_total(view, i, &sum);
		fprintf(fp, "total %s/%s: %" PRId64 "%s\n",
		    T(profconv__pstr(prof, prof->sample_types[i].type)),
		    T(profconv__pstr(prof, prof->sample_types[i].unit)), sum,
		    (int)i == def ? " [default]" : "");
	}
	if (def < 0 || profconv_view_stack_count(view) == 0 || top == 0)
		goto out;
	rc = profconv_view_sample_index(view, opts->sample_type, &ti);
	if (rc < 0)
		goto out;
	profconv_view_total(view, ti, &sum);
	profconv_view_percent_total(view, ti, &total);
	type = profconv__pstr(prof, prof->sample_types[ti].type);
	/* Filters took something away, or values of both signs: the
	 * shares are of every sample's magnitude, as pprof's; say so. */
	if (total != sum)
		fprintf(fp, "percentages of %" PRId64 " %s/%s: every sample's "
		    "magnitude, before filters\n", total, T(type),
		    T(profconv__pstr(prof, prof->sample_types[ti].unit)));
	if (stacks_unnamed_ok(view, ti)) {
		rc = print_top_stacks(view, fp, type, ti, total, top, tb);
	} else {
		rc = profconv__rows_new(&stacks, nt);
		if (rc == 0)
			rc = profconv__rows_add(stacks, view, PC_ROWS_STACK,
			    false, 0);
		if (rc == 0)
			rc = print_top(stacks, fp, "stacks", type, ti, nt,
			    total, top, false, false, tb);
	}
	if (rc == 0)
		rc = profconv__rows_new(&funcs, 2 * nt);
	if (rc == 0)
		rc = profconv__rows_add_functions(funcs, view, 0, nt);
	if (rc == 0)
		rc = print_top(funcs, fp, profconv__view_granularity(view) ==
		    PROFCONV_BY_FILE ? "files" : "functions", type, ti, nt,
		    total, top, true, opts->by_cum != 0, tb);
out:
	profconv__rows_free(stacks);
	profconv__rows_free(funcs);
	profconv_view_free(view);
	return rc;
}

/* pprof's -comments: every comment, one a line. */
static void
print_comments(const struct profconv_profile *prof, FILE *fp,
    struct pc_textbuf *tb)
{
	size_t i;

	for (i = 0; i < prof->ncomments; i++)
		fprintf(fp, "%s\n", T(profconv__pstr(prof, prof->comments[i])));
}

int
profconv_profile_print(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts)
{
	struct profconv_print_options o;
	struct profconv_view_options vdef;
	const struct profconv_view_options *vopts;
	struct pc_textbuf tb = { 0 };
	struct pc_namer namer;
	struct pc_tagnames tn;
	int rc = 0;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_print)) < 0)
		return rc;
	if ((rc = profconv__need_stacks(prof, "printing")) < 0)
		return rc;
	opts = &o;
	if ((rc = profconv__options_take(&vdef, opts->view,
	    &profconv__options_view)) < 0)
		return rc;
	vopts = &vdef;
	if ((opts->traces != 0) + (opts->tags != 0) + (opts->summary != 0) +
	    (opts->tree != 0 || opts->peek != NULL) + (opts->comments != 0) +
	    (opts->text != 0) > 1)
		return profconv__fail(PROFCONV_EINVAL, "summary, traces, "
		    "tags, tree, text and comments are six reports: ask for "
		    "one");
	if (!(opts->nodefraction >= 0 && opts->nodefraction <= 1 &&
	    opts->edgefraction >= 0 && opts->edgefraction <= 1))
		return profconv__fail(PROFCONV_EINVAL, "node and edge "
		    "fractions are between 0 and 1");
	/* Refuse a bad sample type before anything is written. */
	if ((opts->summary || opts->traces || opts->tags || opts->tree ||
	    opts->peek != NULL || opts->text) &&
	    opts->sample_type != NULL &&
	    profconv_profile_sample_type_index(prof, opts->sample_type) < 0)
		return profconv__fail(PROFCONV_ENOTFOUND,
		    "profile has no sample type '%s'", opts->sample_type);
	errno = 0;
	if (opts->comments) {
		print_comments(prof, fp, &tb);
		profconv__textbuf_free(&tb);
		goto flush;
	}
	if (opts->traces || opts->tags) {
		rc = profconv__print_label_report(prof, fp, opts, vopts);
		goto flush;
	}
	if (opts->tree || opts->peek != NULL || opts->text) {
		rc = profconv__print_tree(prof, fp, opts, vopts);
		goto flush;
	}
	memset(&namer, 0, sizeof(namer));
	namer.mode = vopts->demangle;
	print_header(prof, fp, opts->summary != 0, &tb);
	if (opts->summary) {
		rc = print_summary(prof, fp, opts, vopts, &tb);
	} else if ((rc = profconv__tagnames_init(&tn, vopts)) == 0) {
		print_samples(prof, fp, &tn, &tb);
		profconv__tagnames_free(&tn);
		rc = print_locations(prof, fp, &namer, &tb);
		if (rc == 0)
			rc = print_functions(prof, fp, &namer, &tb);
		print_mappings(prof, fp, &tb);
	}
	profconv__namer_free(&namer);
	profconv__textbuf_free(&tb);
flush:
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__write_error();
	return rc;
}
