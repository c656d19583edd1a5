/* SPDX-License-Identifier: MIT */
/*
 * view.c - what a profile shows: the one place that turns a profile into
 * the stacks, frame names and totals every writer prints.
 *
 * A view is built once per output.  Each location becomes one or more
 * frames (inline calls expanded, outermost first, unless no_inline); the
 * innermost lines that drop_frames removes, and whole allocator frames at
 * the leaf end, are cut off (prune.c); focus and ignore pick whole stacks;
 * names follow the demangle mode (names/simplify.c).  Frames are identified by
 * their text, so two locations of one function are one frame; stacks by
 * their frame sequence.  The summary, the diff table, folded stacks, SVG,
 * speedscope and the trend table all read this, and so agree.
 *
 * This file is the view's public face; its frames and names are made in
 * view_names.c, the view is built in view_build.c (passes 1 and 2) and
 * view_order.c (passes 3 and 4), with their shared state in
 * view_build.h.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names/names.h"
#include "view/delta.h"
#include "view/view.h"
#include "view/view_build.h"

/* --- the public view ------------------------------------------------------- */

static void
free_scratch(struct profconv_view *v)
{
	profconv__pruner_free(&v->pruner);
	if (v->has_focus)
		regfree(&v->focus);
	if (v->has_ignore)
		regfree(&v->ignore);
	if (v->has_hide)
		regfree(&v->hide);
	if (v->has_show)
		regfree(&v->show);
	if (v->has_show_from)
		regfree(&v->show_from);
	if (v->has_prune_from)
		regfree(&v->prune_from);
	v->has_focus = v->has_ignore = false;
	v->has_hide = v->has_show = v->has_show_from = false;
	v->has_prune_from = false;
	profconv__labels_free(v->labels);
	v->labels = NULL;
	free(v->pseudo);
	v->pseudo = NULL;
	free(v->loc_off);
	free(v->loc_n);
	free(v->loc_match);
	free(v->loc_frames);
	free(v->fn_name);
	free(v->keep_fn);
	v->keep_fn = NULL;
	v->has_keep = false;
	free(v->buf);
	profconv__namer_free(&v->namer);
	v->loc_off = NULL;
	v->loc_n = NULL;
	v->loc_match = NULL;
	v->loc_frames = NULL;
	v->fn_name = NULL;
	v->buf = NULL;
}

void
profconv_view_free(struct profconv_view *v)
{
	size_t i;

	if (v == NULL)
		return;
	if (v->borrowed != NULL) {
		free(v);
		return;
	}
	free_scratch(v);
	if (!v->borrows) {
		profconv__tagnames_free(&v->tagnames);
		profconv__strtab_free(&v->strs);
		free(v->stacks);
		free(v->sinline);
		free(v->vals);
		free(v->sample_stack);
	}
	profconv__suppress_free(v->supp);
	free(v->frame_of_text);
	free(v->frames);
	free(v->sframes);
	free(v->totals);
	for (i = 0; i < v->nlegend; i++)
		free(v->legend[i]);
	free(v);
}

/* OPTS's hide, show, show_from and prune_from into V. */
static int
compile_filters(struct profconv_view *v,
    const struct profconv_view_options *opts)
{
	int rc;

	rc = profconv__view_compile(&v->hide, opts->hide, &v->has_hide, "hide");
	if (rc == 0)
		rc = profconv__view_compile(&v->show, opts->show, &v->has_show,
		    "show");
	if (rc == 0)
		rc = profconv__view_compile(&v->show_from, opts->show_from,
		    &v->has_show_from, "show-from");
	if (rc == 0)
		rc = profconv__view_compile(&v->prune_from, opts->prune_from,
		    &v->has_prune_from, "prune-from");
	return rc;
}

static bool
given(const char *s)
{
	return s != NULL && *s != '\0';
}

/* The PROFCONV_FILTER_* bits of the filters OPTS asks for (an empty
 * expression is none, as pprof's). */
static unsigned
given_filters(const struct profconv_view_options *o)
{
	return (given(o->focus) ? PROFCONV_FILTER_FOCUS : 0) |
	    (given(o->ignore) ? PROFCONV_FILTER_IGNORE : 0) |
	    (given(o->hide) ? PROFCONV_FILTER_HIDE : 0) |
	    (given(o->show) ? PROFCONV_FILTER_SHOW : 0) |
	    (given(o->show_from) ? PROFCONV_FILTER_SHOW_FROM : 0) |
	    (given(o->prune_from) ? PROFCONV_FILTER_PRUNE_FROM : 0) |
	    (given(o->tagfocus) ? PROFCONV_FILTER_TAGFOCUS : 0) |
	    (given(o->tagignore) ? PROFCONV_FILTER_TAGIGNORE : 0) |
	    (given(o->tagroot) ? PROFCONV_FILTER_TAGROOT : 0) |
	    (given(o->tagleaf) ? PROFCONV_FILTER_TAGLEAF : 0) |
	    (given(o->tagshow) ? PROFCONV_FILTER_TAGSHOW : 0) |
	    (given(o->taghide) ? PROFCONV_FILTER_TAGHIDE : 0);
}

/*
 * The bits of --tagshow and --taghide that matched, as pprof's -tagshow
 * and -taghide do: when some label key (string or numeric) of a sample
 * the view shows matches them.  Keys are few: each is tried once.
 */
static int
tagnames_matched(const struct profconv_view *v,
    const struct profconv_view_options *o, unsigned *bits)
{
	enum { SEEN = 32 };
	const struct profconv_profile *prof = v->prof;
	struct pc_tagnames t;
	unsigned want = given_filters(o) &
	    (PROFCONV_FILTER_TAGSHOW | PROFCONV_FILTER_TAGHIDE);
	uint32_t seen[SEEN];
	size_t nseen = 0, si, j, k;
	int rc;

	*bits = 0;
	if (want == 0 || (rc = profconv__tagnames_init(&t, o)) < 0)
		return want == 0 ? 0 : rc;
	for (si = 0; si < prof->nsamples && *bits != want; si++) {
		const struct pc_sample *s = pc_sample(prof, si);

		if (v->sample_stack[si] == 0)
			continue;
		for (j = 0; j < s->nlabels; j++) {
			uint32_t key = pc_sample_labels(prof, s)[j].key;
			const char *name = profconv__pstr(prof, key);

			for (k = 0; k < nseen && seen[k] != key; k++)
				continue;
			if (k < nseen)
				continue;
			if (nseen < SEEN)
				seen[nseen++] = key;
			if (t.has_show && regexec(&t.show, name, 0, NULL, 0) == 0)
				*bits |= PROFCONV_FILTER_TAGSHOW;
			if (t.has_hide && regexec(&t.hide, name, 0, NULL, 0) == 0)
				*bits |= PROFCONV_FILTER_TAGHIDE;
		}
	}
	profconv__tagnames_free(&t);
	return 0;
}

/* The modes of OPTS are ones this library knows. */
static int
check_modes(const struct profconv_view_options *opts)
{
	if ((unsigned)opts->granularity > PROFCONV_BY_FILE_FUNCTION ||
	    (unsigned)opts->demangle > PROFCONV_DEMANGLE_NONE)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid view granularity or demangle mode");
	return 0;
}

int
profconv_view_options_check(const struct profconv_view_options *opts)
{
	struct profconv_view_options o;
	struct pc_labels *labels = NULL;
	struct pc_suppress *supp = NULL;
	struct pc_tagnames names;
	regex_t re;
	bool ok;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_view)) < 0)
		return rc;
	rc = check_modes(&o);
	if (rc == 0)
		rc = profconv__view_compile(&re, o.focus, &ok, "focus");
	if (rc == 0 && ok)
		regfree(&re);
	if (rc == 0)
		rc = profconv__view_compile(&re, o.ignore, &ok, "ignore");
	if (rc == 0 && ok)
		regfree(&re);
	if (rc == 0)
		rc = profconv__labels_new(&labels, NULL, &o);
	profconv__labels_free(labels);
	if (rc == 0 && (rc = profconv__tagnames_init(&names, &o)) == 0)
		profconv__tagnames_free(&names);
	if (rc == 0)
		rc = profconv__suppress_new(&supp, NULL, &o);
	profconv__suppress_free(supp);
	if (rc == 0) {
		struct profconv_view v;

		memset(&v, 0, sizeof(v));
		rc = compile_filters(&v, &o);
		free_scratch(&v);
	}
	return rc;
}

/* The allocation wrappers of the profile found by their shape: cut
 * from now on, and named to the caller. */
static int
found_wrappers(struct profconv_view *v)
{
	uint32_t *names;
	const char **text;
	size_t n, i;
	int rc;

	rc = profconv__find_wrappers(&v->pruner, &names, &n);
	if (rc < 0 || n == 0 || v->opts.wrappers_found == NULL) {
		free(names);
		return rc;
	}
	text = malloc(n * sizeof(*text));
	if (text == NULL) {
		free(names);
		return profconv__nomem();
	}
	for (i = 0; i < n; i++)
		text[i] = profconv__pstr(v->prof, names[i]);
	v->opts.wrappers_found(text, n, v->opts.payload);
	free(text);
	free(names);
	return 0;
}

/* The "key=value" of every filter OPTS gives, for legends (pprof's
 * ActiveFilters: an empty expression is none). */
static int
copy_legend(struct profconv_view *v, const struct profconv_view_options *o)
{
	const struct {
		const char *key, *value;
	} f[PC_VIEW_FILTERS] = {
		{ "focus", o->focus }, { "ignore", o->ignore },
		{ "hide", o->hide }, { "show", o->show },
		{ "show_from", o->show_from }, { "tagfocus", o->tagfocus },
		{ "tagignore", o->tagignore }, { "tagshow", o->tagshow },
		{ "taghide", o->taghide }
	};
	size_t i, n;

	for (i = 0; i < PC_VIEW_FILTERS; i++) {
		if (f[i].value == NULL || f[i].value[0] == '\0')
			continue;
		n = strlen(f[i].key) + strlen(f[i].value) + 2;
		if ((v->legend[v->nlegend] = malloc(n)) == NULL)
			return profconv__nomem();
		snprintf(v->legend[v->nlegend++], n, "%s=%s", f[i].key,
		    f[i].value);
	}
	return 0;
}

/* Whether each sample type's values, as magnitudes, add up below
 * INT64_MAX: then any sum of them comes out the same whatever the order
 * or grouping it is taken in. */
static bool
values_fit(const struct profconv_profile *prof)
{
	size_t i, t, nt = prof->nsample_types;
	uint64_t *sum = calloc(nt + 1, sizeof(*sum));
	bool fit = sum != NULL;

	for (i = 0; fit && i < prof->nsamples * nt; i++) {
		int64_t v = prof->values[i];
		uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

		t = i % nt;
		sum[t] += m;
		fit = m < (uint64_t)INT64_MAX && sum[t] < (uint64_t)INT64_MAX;
	}
	free(sum);
	return fit;
}

/* V's copy of the N names KEEP, sorted (view_new()). */
static int
keep_names(struct profconv_view *v, const char *const *keep, size_t n)
{
	size_t i;

	if ((v->keep_fn = malloc((n + 1) * sizeof(*v->keep_fn))) == NULL)
		return profconv__nomem();
	for (i = 0; i < n; i++)
		v->keep_fn[i] = keep[i];
	qsort(v->keep_fn, n, sizeof(*v->keep_fn), profconv__by_str);
	v->nkeep_fn = n;
	v->has_keep = true;
	return 0;
}

/* A view of PROF as OPTS say: merged or not (UNMERGED), of leaves
 * (LEAVES), of the samples with a function of KEEP's N only (KEEP
 * NULL: every sample); LINES: profconv__view_new_by_line()'s. */
static int
view_new(struct profconv_view **out, const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool unmerged, bool leaves,
    const char *const *keep, size_t nkeep, struct profconv_profile *take,
    bool lines)
{
	struct profconv_view_options o;
	struct profconv_view *v;
	size_t nloc;
	unsigned tagbits;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_view)) < 0)
		return rc;
	opts = &o;
	if ((rc = check_modes(opts)) < 0)
		return rc;
	if ((rc = profconv__need_stacks(prof, "a view")) < 0)
		return rc;
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return profconv__nomem();
	v->prof = prof;
	v->take = take;
	v->opts = *opts;
	v->opts.focus = v->opts.ignore = NULL;	/* not kept: caller's */
	v->opts.hide = v->opts.show = NULL;
	v->opts.show_from = v->opts.prune_from = NULL;
	v->opts.tagfocus = v->opts.tagignore = NULL;
	v->opts.tagroot = v->opts.tagleaf = NULL;
	v->opts.suppressions = v->opts.suppressions_name = NULL;
	v->opts.tagshow = v->opts.taghide = NULL;
	v->jobs = opts->jobs;
	v->unmerged = unmerged && values_fit(prof);
	v->leaves = leaves && v->unmerged;
	v->lines_asked = lines;
	/* Made whole by function from the view by line: not when a
	 * filter matches names, which differ between the two. */
	v->coarse = lines && !unmerged && !leaves && keep == NULL &&
	    (given_filters(opts) & (PROFCONV_FILTER_FOCUS |
	    PROFCONV_FILTER_IGNORE | PROFCONV_FILTER_HIDE |
	    PROFCONV_FILTER_SHOW | PROFCONV_FILTER_SHOW_FROM |
	    PROFCONV_FILTER_PRUNE_FROM)) == 0 && values_fit(prof);
	v->ntypes = prof->nsample_types;
	v->namer.mode = opts->demangle;
	nloc = prof->nlocations + 1;
	rc = profconv__strtab_init(&v->strs);
	if (rc == 0 && keep != NULL)
		rc = keep_names(v, keep, nkeep);
	if (rc == 0)
		rc = profconv__view_compile(&v->focus, opts->focus,
		    &v->has_focus, "focus");
	if (rc == 0)
		rc = profconv__view_compile(&v->ignore, opts->ignore,
		    &v->has_ignore, "ignore");
	if (rc == 0)
		rc = copy_legend(v, opts);
	if (rc == 0)
		rc = compile_filters(v, opts);
	if (rc == 0)
		rc = profconv__pruner_init(&v->pruner, prof,
		    !opts->keep_allocator_frames, !opts->no_wrappers);
	if (rc == 0 && opts->find_wrappers)
		rc = found_wrappers(v);
	if (rc == 0)
		rc = profconv__labels_new(&v->labels, prof, opts);
	if (rc == 0)
		rc = profconv__suppress_new(&v->supp, prof, opts);
	if (rc == 0)
		rc = profconv__tagnames_init(&v->tagnames, opts);
	v->npseudo = profconv__labels_pseudo(v->labels, &v->nroot);
	if (rc == 0) {
		v->totals = calloc(v->ntypes + 1, sizeof(*v->totals));
		v->loc_off = calloc(nloc, sizeof(*v->loc_off));
		v->loc_n = calloc(nloc, sizeof(*v->loc_n));
		v->loc_match = calloc(nloc, 1);
		v->fn_name = calloc(prof->nfunctions + 1, sizeof(*v->fn_name));
		v->sample_stack = calloc(prof->nsamples + 1,
		    sizeof(*v->sample_stack));
		if (v->totals == NULL || v->loc_off == NULL ||
		    v->sample_stack == NULL ||
		    v->loc_n == NULL || v->loc_match == NULL ||
		    v->fn_name == NULL)
			rc = profconv__nomem();
	}
	if (rc == 0 && v->pruner.refused[0] != '\0' && opts->warn != NULL)
		opts->warn(v->pruner.refused, opts->payload);
	v->filters = given_filters(opts);
	if (rc == 0)
		rc = profconv__view_build(v, v->jobs);
	v->matched |= profconv__labels_matched(v->labels);
	if (rc == 0 && (rc = tagnames_matched(v, opts, &tagbits)) == 0)
		v->matched |= tagbits;
	free_scratch(v);
	if (rc < 0) {
		profconv_view_free(v);
		return rc;
	}
	*out = v;
	return 0;
}

int
profconv_view_new(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts)
{
	return view_new(out, prof, opts, false, false, NULL, 0, NULL, false);
}

int
profconv_view_new_taking(struct profconv_view **out,
    struct profconv_profile *prof, const struct profconv_view_options *opts)
{
	int rc;

	*out = NULL;
	if (prof == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no profile");
	rc = view_new(out, prof, opts, false, false, NULL, 0, prof, false);
	/* Given back in the build, unless it stopped before. */
	profconv_profile_drop_stacks(prof);
	return rc;
}

int
profconv__view_new_unmerged(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool take)
{
	return view_new(out, prof, opts, true, false, NULL, 0,
	    take ? profconv__disposable(prof) : NULL, false);
}

int
profconv__view_new_unmerged_with(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, const char *const *names,
    size_t n)
{
	*out = NULL;
	if (opts != NULL && opts->focus != NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "a view of some functions' samples takes no focus");
	if (names == NULL && n != 0)
		return profconv__fail(PROFCONV_EINVAL, "no names");
	return view_new(out, prof, opts, true, false,
	    names != NULL ? names : (const char *const[]){ NULL }, n, NULL,
	    false);
}

int
profconv__view_new_last(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool leaves, bool take)
{
	return view_new(out, prof, opts, leaves, leaves, NULL, 0,
	    take ? profconv__disposable(prof) : NULL, false);
}

int
profconv__view_new_by_line(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts, bool take)
{
	struct profconv_view_options o;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_view)) < 0)
		return rc;
	if (o.granularity != PROFCONV_BY_LINE)
		return profconv__fail(PROFCONV_EINVAL, "not a view by line");
	return view_new(out, prof, &o, false, false, NULL, 0,
	    take ? profconv__disposable(prof) : NULL, true);
}

int
profconv__view_by_function(struct profconv_view **out,
    const struct profconv_view *lv)
{
	struct profconv_view *v;

	*out = NULL;
	if (lv == NULL || !lv->lines_asked || lv->line_texts)
		return profconv__fail(PROFCONV_EINVAL, "the view by line is "
		    "not the view by function");
	if ((v = malloc(sizeof(*v))) == NULL)
		return profconv__nomem();
	*v = *lv;
	v->opts.granularity = PROFCONV_BY_FUNCTION;
	v->borrowed = lv;
	v->take = NULL;
	*out = v;
	return 0;
}

bool
profconv__view_is_by_function(const struct profconv_view *v)
{
	return v->lines_asked && !v->line_texts;
}

bool
profconv__view_is_leaves(const struct profconv_view *v)
{
	return v->leaves;
}

bool
profconv__view_is_unmerged(const struct profconv_view *v)
{
	return v->unmerged;
}

int
profconv__view_new_leaves(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts)
{
	return view_new(out, prof, opts, true, true, NULL, 0, NULL, false);
}


unsigned
profconv_view_unmatched(const struct profconv_view *v)
{
	return v->filters & ~v->matched;
}

int
profconv_filters_unmatched(const struct profconv_profile *prof,
    const struct profconv_view_options *opts, unsigned *out)
{
	struct profconv_view_options o;
	struct profconv_view *v;
	int rc;

	*out = 0;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_view)) < 0)
		return rc;
	if (given_filters(&o) == 0)
		return 0;
	/* The view's own warnings are its caller's, said once. */
	o.warn = NULL;
	o.wrappers_found = NULL;
	if ((rc = profconv_view_new(&v, prof, &o)) < 0)
		return rc;
	*out = profconv_view_unmatched(v);
	profconv_view_free(v);
	return 0;
}

const struct profconv_profile *
profconv_view_profile(const struct profconv_view *v)
{
	return v->prof;
}

size_t
profconv_view_frame_count(const struct profconv_view *v)
{
	return v->nframes;
}

int
profconv_view_frame(const struct profconv_view *v, uint32_t id,
    struct profconv_view_frame *out)
{
	const struct vframe *f;

	if (id == 0 || id > v->nframes)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no frame %" PRIu32, id);
	f = &v->frames[id - 1];
	out->name = profconv__str(&v->strs, f->text);
	out->function = profconv__str(&v->strs, f->function);
	out->file = profconv__str(&v->strs, f->file);
	out->line = f->line;
	out->module = profconv__str(&v->strs, f->module);
	return 0;
}

size_t
profconv_view_stack_count(const struct profconv_view *v)
{
	return v->nstacks;
}

int
profconv__view_stack(const struct profconv_view *v, size_t i,
    struct pc_view_stack *out)
{
	if (i >= v->nstacks)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no stack %zu", i);
	/* Stacks are read in order, and each one's frames lie where its
	 * first sample's were: ask for those of a stack further on now. */
	if (i + PREFETCH_AHEAD < v->nstacks)
		profconv__view_prefetch_frames(v, i + PREFETCH_AHEAD);
	profconv__view_stack_at(v, i, out);
	return 0;
}

void
profconv__view_stack_at(const struct profconv_view *v, size_t i,
    struct pc_view_stack *out)
{
	out->frames = pc_stack_make(v->sframes, v->sframes_wide,
	    v->stacks[i].off, v->stacks[i].n);
	out->nframes = v->stacks[i].n;
	out->values = v->ntypes != 0 ? v->vals + i * v->ntypes : NULL;
}

int
profconv_view_stack(const struct profconv_view *v, size_t i,
    struct profconv_view_stack *out)
{
	struct pc_view_stack s = { { NULL, NULL }, 0, NULL };
	int rc = profconv__view_stack(v, i, &s);

	if (rc < 0)
		return rc;
	out->nframes = s.nframes;
	out->values = s.values;
	return 0;
}

int
profconv_view_stack_frames(const struct profconv_view *v, size_t i,
    uint32_t *ids, size_t cap, size_t *nframes)
{
	struct pc_view_stack s;
	size_t k;

	if (i >= v->nstacks)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no stack %zu", i);
	profconv__view_stack_at(v, i, &s);
	for (k = 0; k < s.nframes && k < cap; k++)
		ids[k] = pc_stack_at(s.frames, k);
	if (nframes != NULL)
		*nframes = s.nframes;
	return 0;
}

void
profconv__view_prefetch_stack(const struct profconv_view *v, size_t i)
{
	__builtin_prefetch(&v->stacks[i]);
}

void
profconv__view_prefetch_frames(const struct profconv_view *v, size_t i)
{
	const struct vstack *s = &v->stacks[i];

	struct pc_stack f;

	if (s->n == 0)
		return;
	f = pc_stack_make(v->sframes, v->sframes_wide, s->off, s->n);
	__builtin_prefetch(pc_stack_addr(f, 0));
	__builtin_prefetch(pc_stack_addr(f, s->n - 1));
	if (v->sinline != NULL)
		__builtin_prefetch(v->sinline + s->off);
}

int
profconv_view_total(const struct profconv_view *v, size_t type_index,
    int64_t *out)
{
	if (type_index >= v->ntypes)
		return profconv__fail(PROFCONV_EINVAL,
		    "profile has no sample type %zu", type_index);
	*out = v->totals[type_index];
	return 0;
}

int
profconv_view_percent_total(const struct profconv_view *v, size_t type_index,
    int64_t *out)
{
	if (type_index >= v->ntypes)
		return profconv__fail(PROFCONV_EINVAL,
		    "profile has no sample type %zu", type_index);
	*out = v->opts.relative_percentages ? v->totals[type_index] :
	    profconv__delta_total(v->prof, type_index);
	return 0;
}

int
profconv_view_sample_index(const struct profconv_view *v, const char *type,
    size_t *out)
{
	return profconv__sample_index(v->prof, type, out);
}

int
profconv__sample_index(const struct profconv_profile *prof, const char *type,
    size_t *out)
{
	int ti;

	if (type == NULL) {
		ti = profconv_profile_default_sample_index(prof);
		if (ti < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "profile has no sample types");
	} else {
		ti = profconv_profile_sample_type_index(prof, type);
		if (ti < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "profile has no sample type '%s'", type);
	}
	*out = (size_t)ti;
	return 0;
}

/* Text of frame ID; for the row engine and writers inside the library. */
const char *
profconv__view_frame_text(const struct profconv_view *v, uint32_t id)
{
	return profconv__str(&v->strs, v->frames[id - 1].text);
}

const int64_t *
profconv__view_stack_values(const struct profconv_view *v, size_t i)
{
	return v->vals + i * v->ntypes;
}

size_t
profconv__view_stack_depth(const struct profconv_view *v, size_t i)
{
	return v->stacks[i].n;
}

size_t
profconv__view_sample_stack(const struct profconv_view *v, size_t i)
{
	return i < v->prof->nsamples ? v->sample_stack[i] : 0;
}

const uint8_t *
profconv__view_stack_inline(const struct profconv_view *v, size_t i)
{
	return i < v->nstacks && v->stacks[i].n != 0 && v->sinline != NULL ?
	    v->sinline + v->stacks[i].off : NULL;
}

size_t
profconv__view_filters(const struct profconv_view *v, const char *const **out)
{
	*out = (const char *const *)v->legend;
	return v->nlegend;
}

const struct pc_tagnames *
profconv__view_tagnames(const struct profconv_view *v)
{
	return &v->tagnames;
}

enum profconv_granularity
profconv__view_granularity(const struct profconv_view *v)
{
	return v->opts.granularity;
}

unsigned int
profconv__view_jobs(const struct profconv_view *v)
{
	return v->jobs;
}

size_t
profconv_view_suppression_count(const struct profconv_view *v)
{
	return profconv__suppress_count(v->supp);
}

int
profconv_view_suppression(const struct profconv_view *v, size_t i,
    struct profconv_suppression *out)
{
	if (i >= profconv__suppress_count(v->supp))
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no suppression %zu", i);
	profconv__suppress_get(v->supp, i, out);
	return 0;
}

int64_t
profconv__view_frame_start_line(const struct profconv_view *v, uint32_t id)
{
	return v->frames[id - 1].start_line;
}

uint32_t
profconv__view_frame_location(const struct profconv_view *v, uint32_t id,
    uint32_t *first)
{
	*first = v->frames[id - 1].loc_first;
	return v->frames[id - 1].loc;
}

enum profconv_demangle
profconv__view_demangle(const struct profconv_view *v)
{
	return v->opts.demangle;
}

