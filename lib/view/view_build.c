/* SPDX-License-Identifier: MIT */
/*
 * view_build.c - the first passes of building a view: its expressions,
 * focus and ignore on locations, which samples show and with which
 * frames (pass 1, on the job threads for the common view) and those
 * frames written root first (pass 2).  Part of the view (view.c);
 * view_build.h holds their shared state.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "names/names.h"
#include "view/view.h"
#include "view/view_build.h"

/* --- building --------------------------------------------------------------- */

int
profconv__view_compile(regex_t *re, const char *rx, bool *ok, const char *what)
{
	char msg[128], why[192];
	int err;

	*ok = false;
	if (rx == NULL)
		return 0;
	/* The bounds a profile's own drop_frames has (bounds.h): regcomp's
	 * time and memory follow counted repetitions, not the text. */
	if (profconv__rx_check(rx, why, sizeof(why)) < 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, why);
	err = regcomp(re, rx, REG_EXTENDED | REG_NOSUB);
	if (err != 0) {
		regerror(err, re, msg, sizeof(msg));
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, msg);
	}
	*ok = true;
	return 0;
}

/* By address, a location is one frame, its outermost line's: focus and
 * ignore also see the function and file of each line it keeps (not
 * pruned), inlined ones included, as pprof's matchesName does. */
static unsigned
address_lines_match(struct profconv_view *v, uint32_t id)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_line *ln = pc_location_lines(prof, l);
	uint32_t i = profconv__prune_skip(&v->pruner, id);
	unsigned m = 0;

	for (; i < l->nlines; i++) {
		const struct pc_function *f = pc_function(prof, ln[i].function);
		const char *name = profconv__pstr(prof, f->name);
		const char *file = profconv__pstr(prof, f->file);

		if (v->has_focus && (regexec(&v->focus, name, 0, NULL, 0) == 0 ||
		    regexec(&v->focus, file, 0, NULL, 0) == 0))
			m |= 1;
		if (v->has_ignore && (regexec(&v->ignore, name, 0, NULL,
		    0) == 0 || regexec(&v->ignore, file, 0, NULL, 0) == 0))
			m |= 2;
	}
	return m;
}

/* Is frame F's function one of the names the view keeps? */
static bool
kept_function(const struct profconv_view *v, const struct vframe *f)
{
	const char *name = profconv__str(&v->strs, f->function);

	return *name != '\0' && bsearch(&name, v->keep_fn, v->nkeep_fn,
	    sizeof(*v->keep_fn), profconv__by_str) != NULL;
}

/* Does any frame of location ID match focus (1) or ignore (2)?  Bit 1
 * is also a frame of a function the view keeps, which never comes with
 * focus. */
unsigned
profconv__view_location_match(struct profconv_view *v, uint32_t id)
{
	uint8_t *m = &v->loc_match[id];
	size_t i;

	if ((*m & 4) != 0)
		return *m & 3;
	*m |= 4;
	for (i = 0; i < v->loc_n[id]; i++) {
		const struct vframe *f =
		    &v->frames[v->loc_frames[v->loc_off[id] - 1 + i] - 1];
		const char *t = profconv__str(&v->strs, f->text);

		if (v->has_keep && kept_function(v, f))
			*m |= 1;
		if (v->has_focus && regexec(&v->focus, t, 0, NULL, 0) == 0)
			*m |= 1;
		if (v->has_ignore && regexec(&v->ignore, t, 0, NULL, 0) == 0)
			*m |= 2;
	}
	if (v->opts.granularity == PROFCONV_BY_ADDRESS)
		*m |= (uint8_t)address_lines_match(v, id);
	if ((*m & 1) != 0 && v->has_focus)
		v->matched |= PROFCONV_FILTER_FOCUS;
	if ((*m & 2) != 0)
		v->matched |= PROFCONV_FILTER_IGNORE;
	return *m & 3;
}

/* The filters on frames' names. */
#define NAME_FILTERS (PROFCONV_FILTER_FOCUS | PROFCONV_FILTER_IGNORE | \
	PROFCONV_FILTER_HIDE | PROFCONV_FILTER_SHOW | \
	PROFCONV_FILTER_SHOW_FROM | PROFCONV_FILTER_PRUNE_FROM)

/* Bit of loc_match: the location was matched by dropped_match(). */
#define LOC_SEEN_DROPPED 32

/*
 * The name filters (focus, ignore, hide, show, show_from, prune_from)
 * that have not matched yet, matched against the locations of STK (N)
 * of a sample the label filters or suppressions left out: pprof applies
 * the name filters first and says which matched none, so that a label
 * filter keeping nothing is not blamed on them.  Names as pprof's
 * matchesName(): each line's function and file, the mapped file.  Only
 * the bits of v->matched change; no frame is made.
 */
static void
dropped_match(struct profconv_view *v, struct pc_stack stk, size_t n)
{
	const struct profconv_profile *prof = v->prof;
	const struct {
		bool has;
		const regex_t *re;
		unsigned bit;
	} f[] = {
		{ v->has_focus, &v->focus, PROFCONV_FILTER_FOCUS },
		{ v->has_ignore, &v->ignore, PROFCONV_FILTER_IGNORE },
		{ v->has_hide, &v->hide, PROFCONV_FILTER_HIDE },
		{ v->has_show, &v->show, PROFCONV_FILTER_SHOW },
		{ v->has_show_from, &v->show_from, PROFCONV_FILTER_SHOW_FROM },
		{ v->has_prune_from, &v->prune_from,
		    PROFCONV_FILTER_PRUNE_FROM },
	};
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		uint32_t id = pc_stack_at(stk, i);
		const struct pc_location *l = pc_location(prof, id);
		const struct pc_line *ln = pc_location_lines(prof, l);
		const char *mfile = l->mapping != 0 ? profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file) : "";

		if ((v->loc_match[id] & LOC_SEEN_DROPPED) != 0)
			continue;
		v->loc_match[id] |= LOC_SEEN_DROPPED;
		for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			if (!f[k].has || (v->matched & f[k].bit) != 0)
				continue;
			if (*mfile != '\0' && f[k].bit !=
			    PROFCONV_FILTER_PRUNE_FROM &&
			    regexec(f[k].re, mfile, 0, NULL, 0) == 0)
				v->matched |= f[k].bit;
			for (j = 0; j < l->nlines && (v->matched &
			    f[k].bit) == 0; j++) {
				const struct pc_function *fn;

				if (ln[j].function == 0)
					continue;
				fn = pc_function(prof, ln[j].function);
				if (regexec(f[k].re, profconv__pstr(prof,
				    fn->name), 0, NULL, 0) == 0 ||
				    (f[k].bit != PROFCONV_FILTER_PRUNE_FROM &&
				    regexec(f[k].re, profconv__pstr(prof,
				    fn->file), 0, NULL, 0) == 0))
					v->matched |= f[k].bit;
			}
		}
	}
}

/* --- building: which samples show, and their frames ------------------------ */

/* The frame at the root of a stack cut to PC_VIEW_MAX_DEPTH frames. */
static int
cut_frame(struct profconv_view *v)
{
	size_t len = 0;
	uint32_t empty;
	int rc;

	rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
	if (rc == 0)
		rc = profconv__view_append(v, &len, PC_VIEW_CUT_FRAME,
		    strlen(PC_VIEW_CUT_FRAME));
	if (rc == 0)
		rc = profconv__view_intern_frame(v, len, empty, empty, 0, 0,
		    empty, &v->cut_frame);
	return rc;
}

/* Does frame ID's text match focus (1) or ignore (2)? */
static unsigned
frame_match(struct profconv_view *v, uint32_t id)
{
	const char *t = profconv__str(&v->strs, v->frames[id - 1].text);
	unsigned m = 0;

	if (v->has_focus && regexec(&v->focus, t, 0, NULL, 0) == 0)
		m |= 1;
	if (v->has_keep && kept_function(v, &v->frames[id - 1]))
		m |= 1;
	if (v->has_ignore && regexec(&v->ignore, t, 0, NULL, 0) == 0)
		m |= 2;
	return m;
}

/* The pseudo-frames --tagroot and --tagleaf give sample SI, which focus
 * and ignore see as pprof's do (added before they are applied). */
static int
pseudo_frames(struct profconv_view *v, size_t si, unsigned *match)
{
	uint32_t *ids = v->pseudo + si * v->npseudo, empty, key;
	const char *text, *k;
	size_t k_i, len;
	int rc = 0;

	for (k_i = 0; rc == 0 && k_i < v->npseudo; k_i++) {
		rc = profconv__labels_pseudo_text(v->labels, si, k_i, &text,
		    &len, &k);
		if (rc == 0)
			rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
		if (rc == 0)
			rc = profconv__strtab_intern_cstr(&v->strs, k, &key);
		if (rc == 0)
			rc = PC_GROW(v->buf, v->buf_cap, 0, len + 1);
		if (rc == 0) {
			memcpy(v->buf, text, len);
			rc = profconv__view_intern_frame(v, len, empty, key, 0,
			    0, empty, &ids[k_i]);
		}
		if (rc == 0 && (v->has_focus || v->has_ignore || v->has_keep))
			*match |= frame_match(v, ids[k_i]);
	}
	if ((*match & 1) != 0)
		v->matched |= PROFCONV_FILTER_FOCUS;
	if ((*match & 2) != 0)
		v->matched |= PROFCONV_FILTER_IGNORE;
	return rc;
}

/* Pass 1 for sample SI: is it shown, and with how many frames? */
static int
plan_sample(struct build *b, size_t si, size_t *at)
{
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	const struct pc_sample *s = pc_sample(prof, si);
	struct pc_stack stk = pc_sample_stack(prof, s);
	const int64_t *vals = pc_sample_values(prof, si);
	size_t i, n = 0, first, end = s->nlocs, t;
	unsigned match = 0;
	int rc = 0;

	b->first[si] = NOT_SHOWN;
	b->off[si] = *at;
	for (t = 0; t < v->ntypes && vals[t] == 0; t++)
		;
	if (t == v->ntypes)
		return 0;	/* all zero: nothing to show */
	if (!profconv__labels_keep(v->labels, si) ||
	    profconv__suppress_sample(v->supp, si)) {
		if ((v->filters & NAME_FILTERS & ~v->matched) != 0)
			dropped_match(v, stk, s->nlocs);
		return 0;
	}
	rc = pseudo_frames(v, si, &match);
	if (rc < 0)
		return rc;
	n = v->npseudo;
	first = profconv__prune_stack(&v->pruner, stk, s->nlocs);
	for (i = first; rc == 0 && i < s->nlocs; i++) {
		uint32_t id = pc_stack_at(stk, i);

		if (v->loc_off[id] == 0)
			rc = profconv__view_location_frames(v, id);
		if (rc == 0 && (v->has_focus || v->has_ignore || v->has_keep))
			match |= profconv__view_location_match(v, id);
	}
	if (rc < 0)
		return rc;
	if (((v->has_focus || v->has_keep) && (match & 1) == 0) ||
	    (match & 2) != 0)
		return 0;
	/* show_from: from the outermost match, or nothing; prune_from: from
	 * the innermost match. */
	if (v->has_show_from) {
		for (; end > first && (v->loc_match[pc_stack_at(stk, end - 1)] &
		    LOC_SHOW_FROM) == 0; end--)
			;
		if (end == first)
			return 0;
	}
	for (i = first; v->has_prune_from && i < end; i++)
		if ((v->loc_match[pc_stack_at(stk, i)] & LOC_PRUNE_FROM) != 0) {
			first = i;
			break;
		}
	for (i = first; i < end; i++)
		n += v->loc_n[pc_stack_at(stk, i)];
	/* As pprof: a stack whose frames were all hidden goes. */
	if (n == 0 && (v->has_hide || v->has_show))
		return 0;
	/* Too deep: the innermost frames under one that says so. */
	if (n > PC_VIEW_MAX_DEPTH) {
		n = PC_VIEW_MAX_DEPTH;
		if (v->cut_frame == 0)
			rc = cut_frame(v);
		if (rc < 0)
			return rc;
	}
	b->first[si] = (uint32_t)first;
	b->last[si] = (uint32_t)end;
	*at += n;
	for (t = 0; t < v->ntypes; t++)
		pc_add_sat(&v->totals[t], vals[t]);
	return 0;
}

/*
 * Pass 1 on the threads, for the common view (no pseudo-frames, label
 * filters, show_from or prune_from, nor suppressions beside focus,
 * ignore, hide or show; stacks too short to be cut): the same result as
 * plan_sample() in sample order.
 *  a. per range of samples: which pass the values, the suppressions and
 *     the allocator cut, and the locations the range meets, in the order
 *     it first meets them (the pruner's classes and each location's
 *     suppression are made beforehand);
 *  b. in range order: each location's frames, made as the serial pass
 *     would first meet them, so that frames are numbered the same;
 *  c. per range: focus and ignore, the frame count of each sample;
 *  d. in sample order: totals and what each suppression hid (saturating
 *     sums depend on the order), and where each sample's frames go.
 */
struct plan_range {
	uint32_t *met;		/* locations first met in the range */
	size_t nmet;
	uint32_t maxlocs;	/* most locations in a sample kept */
	int rc;
};

struct plan_par {
	struct build *b;
	struct plan_range *ranges;
	size_t nlocations;
};

static int
plan_meet_task(void *arg, size_t r)
{
	struct plan_par *pp = arg;
	struct build *b = pp->b;
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	struct plan_range *pr = &pp->ranges[r];
	size_t si, i, t, k, lo = r * RANGE, hi = lo + RANGE, cap = 0;
	uint8_t *seen;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	seen = calloc(pp->nlocations / 8 + 1, 1);
	if (seen == NULL)
		return profconv__nomem();
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		struct pc_stack stk = pc_sample_stack(prof, s);
		const int64_t *vals = pc_sample_values(prof, si);
		size_t first;

		b->first[si] = NOT_SHOWN;
		b->last[si] = 0;
		for (t = 0; t < v->ntypes && vals[t] == 0; t++)
			;
		if (t == v->ntypes)
			continue;
		/* Hidden by suppression K - 1: counted in sample order. */
		if ((k = profconv__suppress_find(v->supp, si)) != 0) {
			b->last[si] = (uint32_t)k;
			continue;
		}
		first = profconv__prune_stack(&v->pruner, stk, s->nlocs);
		b->first[si] = (uint32_t)first;
		if (s->nlocs - first > pr->maxlocs)
			pr->maxlocs = (uint32_t)(s->nlocs - first);
		for (i = first; i < s->nlocs; i++) {
			uint32_t id = pc_stack_at(stk, i);

			if ((seen[id / 8] & (1u << (id % 8))) != 0)
				continue;
			seen[id / 8] |= (uint8_t)(1u << (id % 8));
			if (pr->nmet == cap && PC_GROW(pr->met, cap, pr->nmet,
			    1) < 0) {
				free(seen);
				return PROFCONV_ENOMEM;
			}
			pr->met[pr->nmet++] = id;
		}
	}
	free(seen);
	return 0;
}

static int
plan_count_task(void *arg, size_t r)
{
	struct plan_par *pp = arg;
	struct build *b = pp->b;
	const struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	size_t si, i, lo = r * RANGE, hi = lo + RANGE;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		struct pc_stack stk = pc_sample_stack(prof, s);
		unsigned match = 0;
		size_t n = 0;

		if (b->first[si] == NOT_SHOWN)
			continue;
		for (i = b->first[si]; i < s->nlocs; i++) {
			uint32_t id = pc_stack_at(stk, i);

			n += v->loc_n[id];
			match |= v->loc_match[id] & 3;
		}
		if (((v->has_focus || v->has_keep) && (match & 1) == 0) ||
		    (match & 2) != 0 ||
		    (n == 0 && (v->has_hide || v->has_show))) {
			b->first[si] = NOT_SHOWN;
			continue;
		}
		b->last[si] = s->nlocs;
		b->off[si] = n;
	}
	return 0;
}

/* Can pass 1 run on the threads for V's samples? */
static bool
plan_on_threads(const struct build *b)
{
	const struct profconv_view *v = b->v;

	return profconv__jobs_count(b->jobs) > 1 &&
	    v->prof->nsamples >= 2 * RANGE && v->npseudo == 0 &&
	    !profconv__labels_filter(v->labels) &&
	    (profconv__suppress_count(v->supp) == 0 ||
	    (v->filters & NAME_FILTERS) == 0) &&
	    !v->has_show_from && !v->has_prune_from;
}

/* Pass 1 on the threads: 1 when done, 0 when the stacks may be too
 * deep for it (nothing made yet: the serial pass takes over). */
static int
plan_threads(struct build *b, size_t *at)
{
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	struct plan_par pp = { b, NULL, prof->nlocations + 1 };
	size_t nranges = (prof->nsamples + RANGE - 1) / RANGE, r, i, t;
	uint32_t maxlocs = 0, maxlines = 1, id;
	int rc = 0;

	/* The allocator cut and the suppression of every location, made
	 * once, here. */
	profconv__suppress_prepare(v->supp);
	for (id = 1; id <= prof->nlocations; id++) {
		(void)profconv__prune_skip(&v->pruner, id);
		if (pc_location(prof, id)->nlines > maxlines)
			maxlines = pc_location(prof, id)->nlines;
	}
	pp.ranges = calloc(nranges, sizeof(*pp.ranges));
	if (pp.ranges == NULL)
		return profconv__nomem();
	rc = profconv__jobs_run(b->jobs, nranges, plan_meet_task, &pp);
	if (rc == PROFCONV_ENOMEM)
		rc = profconv__nomem();
	for (r = 0; rc == 0 && r < nranges; r++)
		if (pp.ranges[r].maxlocs > maxlocs)
			maxlocs = pp.ranges[r].maxlocs;
	/* A location gives at most MAXLINES frames: no stack reaches the
	 * depth that makes the serial pass cut it (and make a frame). */
	if (rc == 0 && (uint64_t)maxlocs * maxlines > PC_VIEW_MAX_DEPTH) {
		for (r = 0; r < nranges; r++)
			free(pp.ranges[r].met);
		free(pp.ranges);
		return 0;
	}
	for (r = 0; rc == 0 && r < nranges; r++)
		for (i = 0; rc == 0 && i < pp.ranges[r].nmet; i++)
			if (v->loc_off[pp.ranges[r].met[i]] == 0)
				rc = profconv__view_location_frames(v,
				    pp.ranges[r].met[i]);
	for (r = 0; r < nranges; r++)
		free(pp.ranges[r].met);
	free(pp.ranges);
	if (rc == 0)
		rc = profconv__jobs_run(b->jobs, nranges, plan_count_task,
		    &pp);
	if (rc < 0)
		return rc;
	for (i = 0; i < prof->nsamples; i++) {
		size_t n;

		if (b->first[i] == NOT_SHOWN) {
			if (b->last[i] != 0)
				profconv__suppress_hit(v->supp, b->last[i], i);
			b->off[i] = *at;
			continue;
		}
		n = b->off[i];
		b->off[i] = *at;
		*at += n;
		for (t = 0; t < v->ntypes; t++)
			pc_add_sat(&v->totals[t], pc_sample_values(prof, i)[t]);
	}
	return 1;
}

int
profconv__view_plan(struct build *b)
{
	size_t i, at = 0, n = b->v->prof->nsamples;
	int rc = 0;

	if (n >= UINT32_MAX)
		return profconv__fail(PROFCONV_ENOMEM, "too many samples to "
		    "show: %zu", n);
	b->first = profconv__malloc_big((n + 1) * sizeof(*b->first));
	b->last = profconv__malloc_big((n + 1) * sizeof(*b->last));
	b->off = profconv__malloc_big((n + 1) * sizeof(*b->off));
	b->v->pseudo = malloc((n * b->v->npseudo + 1) *
	    sizeof(*b->v->pseudo));
	if (b->first == NULL || b->last == NULL || b->off == NULL ||
	    b->v->pseudo == NULL)
		return profconv__nomem();
	if (plan_on_threads(b))
		rc = plan_threads(b, &at);
	for (i = 0; rc == 0 && i < n; i++)
		rc = plan_sample(b, i, &at);
	if (rc < 0)
		return rc;
	b->off[n] = at;
	/* Every frame is numbered by now: two bytes a frame while their
	 * ids fit.  A view of leaves keeps one frame per sample, and no
	 * marks. */
	b->wide = b->v->nframes > UINT16_MAX;
	b->path = profconv__malloc_big(((b->v->leaves ? n : at) + 1) *
	    (b->wide ? sizeof(uint32_t) : sizeof(uint16_t)));
	if (b->path == NULL)
		return profconv__nomem();
	/* Inline marks only where a location has more than one frame:
	 * zero pages, written where a mark is 1. */
	for (i = 1; !b->v->leaves && i <= b->v->prof->nlocations; i++)
		if (b->v->loc_n[i] > 1) {
			b->pinl = profconv__calloc_big(at + 1, 1);
			return b->pinl == NULL ? profconv__nomem() : 0;
		}
	return 0;
}

/* Store the N frames at F as those of path entries [AT, AT + N). */
static void
path_put(struct build *b, size_t at, const uint32_t *f, size_t n)
{
	size_t i;

	if (b->wide) {
		memcpy((uint32_t *)b->path + at, f, n * sizeof(*f));
		return;
	}
	for (i = 0; i < n; i++)
		((uint16_t *)b->path)[at + i] = (uint16_t)f[i];
}

/* Pass 2: the frames of samples [R * RANGE, ...), root first, made in
 * ONE and stored in the path's width. */
int
profconv__view_path_task(void *arg, size_t r)
{
	struct build *b = arg;
	const struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	size_t si, i, j, lo = r * RANGE, hi = lo + RANGE, cap = 0;
	uint32_t *one = NULL;	/* a sample's frames */
	int rc = 0;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		struct pc_stack stk = pc_sample_stack(prof, s);
		size_t n = b->off[si + 1] - b->off[si], all = 0, skip = 0;
		uint32_t *p;

		if (b->first[si] == NOT_SHOWN || n == 0)
			continue;
		if (n > cap) {
			free(one);
			cap = 2 * n;
			if ((one = malloc(cap * sizeof(*one))) == NULL) {
				rc = profconv__nomem();
				break;
			}
		}
		p = one;
		const uint32_t *ps = v->pseudo + si * v->npseudo;

		/* A stack cut by plan_sample() (when any was): the frames
		 * nearest the root give way to the one that says so. */
		for (i = b->first[si]; v->cut_frame != 0 && i < b->last[si];
		    i++)
			all += v->loc_n[pc_stack_at(stk, i)];
		all += v->npseudo;
		if (v->cut_frame != 0 && all > n) {
			skip = all - n + 1;
			*p++ = v->cut_frame;
		}
		for (j = 0; j < v->nroot; j++) {
			if (skip != 0)
				skip--;
			else
				*p++ = ps[j];
		}
		for (i = b->last[si]; i > b->first[si]; i--) {
			uint32_t id = pc_stack_at(stk, i - 1);
			const uint32_t *lf = v->loc_frames + v->loc_off[id] - 1;

			for (j = 0; j < v->loc_n[id]; j++) {
				if (skip != 0) {
					skip--;
					continue;
				}
				if (j != 0 && b->pinl != NULL)
					b->pinl[b->off[si] + (size_t)(p -
					    one)] = 1;
				*p++ = lf[j];
			}
		}
		for (j = v->nroot; j < v->npseudo; j++)
			*p++ = ps[j];
		if (v->leaves)
			path_put(b, si, one + n - 1, 1);
		else
			path_put(b, b->off[si], one, n);
	}
	free(one);
	return rc;
}
