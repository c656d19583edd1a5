/* SPDX-License-Identifier: MIT */
/*
 * view.c - what a profile shows: the one place that turns a profile into
 * the stacks, frame names and totals every writer prints.
 *
 * A view is built once per output.  Each location becomes one or more
 * frames (inline calls expanded, outermost first, unless no_inline); the
 * innermost lines that drop_frames removes, and whole allocator frames at
 * the leaf end, are cut off (prune.c); focus and ignore pick whole stacks;
 * names follow the demangle mode (names.c).  Frames are identified by
 * their text, so two locations of one function are one frame; stacks by
 * their frame sequence.  The summary, the diff table, folded stacks, SVG,
 * speedscope and the trend table all read this, and so agree.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "symbolize.h"

struct vframe {
	uint32_t text, function, file, module;	/* indexes in view->strs */
	int64_t line;
};

struct vstack {
	size_t off;		/* into view->sframes */
	uint32_t n;
};

struct profconv_view {
	const struct profconv_profile *prof;
	struct profconv_view_options opts;
	size_t ntypes;

	struct pc_strtab strs;		/* frame texts and their parts */
	uint32_t *frame_of_text;	/* text index -> frame id */
	size_t frame_of_text_cap;
	struct vframe *frames;		/* frame id - 1 */
	size_t nframes, frames_cap;

	struct vstack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *sframes;		/* frame ids of all stacks, root first */
	size_t nsframes, sframes_cap;
	int64_t *vals;			/* nstacks * ntypes */
	size_t nvals, vals_cap;
	int64_t *totals;		/* ntypes */
	uint32_t *sample_stack;		/* sample -> stack + 1, 0: not shown */

	/* Scratch while building. */
	struct pc_pruner pruner;
	regex_t focus, ignore;
	bool has_focus, has_ignore;
	size_t *loc_off;		/* location id -> frames + 1 (0: unknown) */
	uint32_t *loc_n;
	uint8_t *loc_match;		/* 1 focus, 2 ignore, 4 known */
	uint32_t *loc_frames;
	size_t nloc_frames, loc_frames_cap;
	uint32_t *fn_name;		/* function id -> text index + 1 */
	struct pc_namer namer;
	char *buf;
	size_t buf_cap;
	uint32_t *path;
	size_t path_cap;
	struct pc_keymap stack_index;
};

static const char *frame_name(const struct profconv_profile *prof,
    uint32_t id, char *buf, size_t size);

/* --- names ----------------------------------------------------------------- */

/* The name of function FID in the view's demangle mode, interned. */
static int
function_name(struct profconv_view *v, uint32_t fid, uint32_t *out)
{
	const char *name;
	size_t len;
	int rc;

	if (v->fn_name[fid] != 0) {
		*out = v->fn_name[fid] - 1;
		return 0;
	}
	rc = profconv__namer_name(&v->namer, v->prof, fid, &name, &len);
	if (rc == 0)
		rc = profconv__strtab_intern(&v->strs, name, len, out);
	if (rc == 0)
		v->fn_name[fid] = *out + 1;
	return rc;
}

static int
append(struct profconv_view *v, size_t *len, const char *s, size_t n)
{
	int rc = PC_GROW(v->buf, v->buf_cap, *len, n + 1);

	if (rc == 0) {
		memcpy(v->buf + *len, s, n);
		*len += n;
	}
	return rc;
}

static const char *
base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b != NULL ? b + 1 : path;
}

/* Intern the frame whose text is V->buf[0, LEN); its parts go with it
 * the first time the text is seen. */
static int
intern_frame(struct profconv_view *v, size_t len, uint32_t function,
    uint32_t file, int64_t line, uint32_t module, uint32_t *id)
{
	size_t old = v->frame_of_text_cap;
	uint32_t t;
	int rc;

	rc = profconv__strtab_intern(&v->strs, v->buf, len, &t);
	if (rc == 0 && t >= v->frame_of_text_cap) {
		rc = PC_GROW(v->frame_of_text, v->frame_of_text_cap, 0, t + 1);
		if (rc == 0)
			memset(v->frame_of_text + old, 0,
			    (v->frame_of_text_cap - old) *
			    sizeof(*v->frame_of_text));
	}
	if (rc < 0)
		return rc;
	if (v->frame_of_text[t] == 0) {
		rc = PC_GROW(v->frames, v->frames_cap, v->nframes, 1);
		if (rc < 0)
			return rc;
		v->frames[v->nframes] = (struct vframe){ t, function, file,
			module, line };
		v->frame_of_text[t] = (uint32_t)++v->nframes;
	}
	*id = v->frame_of_text[t];
	return 0;
}

/* The module a location lies in, interned ("" when none). */
static int
module_of(struct profconv_view *v, const struct pc_location *l, uint32_t *out)
{
	const struct profconv_profile *prof = v->prof;
	const char *file = "";

	if (l->mapping != 0)
		file = base_name(profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file));
	return profconv__strtab_intern_cstr(&v->strs, file, out);
}

/* One frame for line LN of location L. */
static int
line_frame(struct profconv_view *v, const struct pc_location *l,
    const struct pc_line *ln, uint32_t module, uint32_t *id)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_function *f = pc_function(prof, ln->function);
	const char *fname, *file = profconv__pstr(prof, f->file);
	uint32_t name, filei;
	char tmp[64];
	size_t len = 0;
	int rc;

	rc = function_name(v, ln->function, &name);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&v->strs, file, &filei);
	if (rc < 0)
		return rc;
	fname = profconv__str(&v->strs, name);
	if (*fname == '\0') {
		snprintf(tmp, sizeof(tmp), "%#" PRIx64, l->address);
		fname = tmp;
	}
	rc = append(v, &len, fname, strlen(fname));
	if (rc == 0 && v->opts.granularity == PROFCONV_BY_LINE &&
	    *file != '\0') {
		snprintf(tmp, sizeof(tmp), ":%" PRId64, ln->line);
		rc = append(v, &len, " ", 1);
		if (rc == 0)
			rc = append(v, &len, base_name(file),
			    strlen(base_name(file)));
		if (rc == 0)
			rc = append(v, &len, tmp, strlen(tmp));
	}
	if (rc == 0)
		rc = intern_frame(v, len, name, filei, ln->line, module, id);
	return rc;
}

/* The frames of location ID, outermost first, computed once. */
static int
location_frames(struct profconv_view *v, uint32_t id)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_location *l = pc_location(prof, id);
	uint32_t skip = profconv__prune_skip(&v->pruner, id);
	uint32_t module, fid, empty;
	size_t i, first, len = 0, start = v->nloc_frames;
	char tmp[256];
	const char *t;
	int rc;

	if (v->loc_off[id] != 0)
		return 0;
	rc = module_of(v, l, &module);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
	first = v->opts.no_inline && l->nlines > skip ? l->nlines - 1 : skip;
	for (i = l->nlines; rc == 0 && i > first; i--) {
		rc = PC_GROW(v->loc_frames, v->loc_frames_cap, v->nloc_frames, 1);
		if (rc == 0)
			rc = line_frame(v, l, &pc_location_lines(prof, l)[i - 1],
			    module, &fid);
		if (rc == 0 && v->opts.granularity == PROFCONV_BY_ADDRESS) {
			/* One frame per location: "outermost+0xaddress". */
			struct vframe *f = &v->frames[fid - 1];

			len = 0;
			t = profconv__str(&v->strs, f->text);
			snprintf(tmp, sizeof(tmp), "+%#" PRIx64, l->address);
			rc = append(v, &len, t, strlen(t));
			if (rc == 0)
				rc = append(v, &len, tmp, strlen(tmp));
			if (rc == 0)
				rc = intern_frame(v, len, f->function, f->file,
				    f->line, module, &fid);
			i = first + 1;	/* the outermost line only */
		}
		if (rc == 0)
			v->loc_frames[v->nloc_frames++] = fid;
	}
	if (rc == 0 && l->nlines <= skip) {
		/* No lines (or all of them pruned): module+offset. */
		t = frame_name(prof, id, tmp, sizeof(tmp));
		rc = PC_GROW(v->loc_frames, v->loc_frames_cap, v->nloc_frames, 1);
		if (rc == 0)
			rc = append(v, &len, t, strlen(t));
		if (rc == 0)
			rc = intern_frame(v, len, empty, empty, 0, module, &fid);
		if (rc == 0)
			v->loc_frames[v->nloc_frames++] = fid;
	}
	if (rc == 0) {
		v->loc_off[id] = start + 1;
		v->loc_n[id] = (uint32_t)(v->nloc_frames - start);
	}
	return rc;
}

/* The name of a location without lines (or whose lines were all
 * pruned): "module+0xoffset", else its address. */
static const char *
frame_name(const struct profconv_profile *prof, uint32_t id,
    char *buf, size_t size)
{
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_mapping *m;
	const char *file, *base;

	if (l->mapping != 0) {
		m = pc_mapping(prof, l->mapping);
		file = profconv__pstr(prof, m->file);
		base = strrchr(file, '/');
		base = base != NULL ? base + 1 : file;
		if (*base != '\0' && l->address >= m->start) {
			snprintf(buf, size, "%s+%#" PRIx64, base,
			    l->address - m->start + m->offset);
			return buf;
		}
	}
	snprintf(buf, size, "%#" PRIx64, l->address);
	return buf;
}

/* --- building --------------------------------------------------------------- */

static int
compile(regex_t *re, const char *rx, bool *ok, const char *what)
{
	char msg[128];
	int err;

	*ok = false;
	if (rx == NULL)
		return 0;
	err = regcomp(re, rx, REG_EXTENDED | REG_NOSUB);
	if (err != 0) {
		regerror(err, re, msg, sizeof(msg));
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, msg);
	}
	*ok = true;
	return 0;
}

/* Does any frame of location ID match focus (1) or ignore (2)? */
static unsigned
location_match(struct profconv_view *v, uint32_t id)
{
	uint8_t *m = &v->loc_match[id];
	size_t i;

	if ((*m & 4) != 0)
		return *m & 3;
	*m = 4;
	for (i = 0; i < v->loc_n[id]; i++) {
		const char *t = profconv__str(&v->strs,
		    v->frames[v->loc_frames[v->loc_off[id] - 1 + i] - 1].text);

		if (v->has_focus && regexec(&v->focus, t, 0, NULL, 0) == 0)
			*m |= 1;
		if (v->has_ignore && regexec(&v->ignore, t, 0, NULL, 0) == 0)
			*m |= 2;
	}
	return *m & 3;
}

static int
add_sample(struct profconv_view *v, size_t si)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_sample *s = &prof->samples[si];
	const uint32_t *stk = pc_sample_stack(prof, s);
	const int64_t *vals = &prof->values[si * v->ntypes];
	size_t i, j, n = 0, first, t;
	unsigned match = 0;
	uint32_t idx;
	bool added;
	int rc = 0;

	for (t = 0; t < v->ntypes && vals[t] == 0; t++)
		;
	if (t == v->ntypes)
		return 0;	/* all zero: nothing to show */
	first = profconv__prune_stack(&v->pruner, stk, s->nlocs);
	for (i = first; rc == 0 && i < s->nlocs; i++) {
		rc = location_frames(v, stk[i]);
		if (rc == 0 && (v->has_focus || v->has_ignore))
			match |= location_match(v, stk[i]);
		if (rc == 0)
			n += v->loc_n[stk[i]];
	}
	if (rc < 0)
		return rc;
	if ((v->has_focus && (match & 1) == 0) || (match & 2) != 0)
		return 0;
	rc = PC_GROW(v->path, v->path_cap, 0, n + 1);
	if (rc < 0)
		return rc;
	n = 0;
	for (i = s->nlocs; i > first; i--) {
		uint32_t id = stk[i - 1];

		for (j = 0; j < v->loc_n[id]; j++)
			v->path[n++] = v->loc_frames[v->loc_off[id] - 1 + j];
	}
	rc = profconv__keymap_intern(&v->stack_index, v->path,
	    n * sizeof(*v->path), (uint32_t)v->nstacks, &idx, &added);
	if (rc == 0 && added) {
		rc = PC_GROW(v->stacks, v->stacks_cap, v->nstacks, 1);
		if (rc == 0)
			rc = PC_GROW(v->sframes, v->sframes_cap, v->nsframes,
			    n + 1);
		if (rc == 0)
			rc = PC_GROW(v->vals, v->vals_cap, v->nvals, v->ntypes);
		if (rc < 0)
			return rc;
		v->stacks[v->nstacks++] = (struct vstack){ v->nsframes,
			(uint32_t)n };
		if (n != 0)
			memcpy(v->sframes + v->nsframes, v->path,
			    n * sizeof(*v->path));
		v->nsframes += n;
		memset(v->vals + v->nvals, 0, v->ntypes * sizeof(*v->vals));
		v->nvals += v->ntypes;
	}
	if (rc == 0)
		v->sample_stack[si] = idx + 1;
	for (t = 0; rc == 0 && t < v->ntypes; t++) {
		pc_add_sat(&v->vals[(size_t)idx * v->ntypes + t], vals[t]);
		pc_add_sat(&v->totals[t], vals[t]);
	}
	return rc;
}

/* --- order: folded text, byte order ------------------------------------------ */

/*
 * The byte of a folded text after frame I of N ends: ';' when another
 * frame follows, -1 at the end of the stack.
 */
static int
after_frame(size_t i, size_t n)
{
	return i + 1 < n ? ';' : -1;
}

/*
 * Order stack indexes A and B by their folded text ("a;b;c", byte
 * order; qsort_r).  One frame id is one text, and two ids two texts: the
 * common root frames are skipped whole, and the first frame that differs
 * (or the end of one stack) decides.
 */
static int
by_text(const void *a, const void *b, void *payload)
{
	const struct profconv_view *v = payload;
	const struct vstack *x = &v->stacks[*(const size_t *)a];
	const struct vstack *y = &v->stacks[*(const size_t *)b];
	const uint32_t *fx = v->sframes + x->off, *fy = v->sframes + y->off;
	size_t i = 0, n = x->n < y->n ? x->n : y->n;
	const unsigned char *tx, *ty;
	int bx, by;

	while (i < n && fx[i] == fy[i])
		i++;
	if (i == n)		/* one is the other's prefix, or equal */
		return (x->n > n) - (y->n > n);
	tx = (const unsigned char *)profconv__str(&v->strs,
	    v->frames[fx[i] - 1].text);
	ty = (const unsigned char *)profconv__str(&v->strs,
	    v->frames[fy[i] - 1].text);
	while (*tx != '\0' && *tx == *ty) {
		tx++;
		ty++;
	}
	bx = *tx != '\0' ? *tx : after_frame(i, x->n);
	by = *ty != '\0' ? *ty : after_frame(i, y->n);
	return bx < by ? -1 : bx > by;
}

/* Samples follow their stacks: stack IDX[I] is now stack I. */
static int
renumber_samples(struct profconv_view *v, const size_t *idx)
{
	uint32_t *now = malloc(v->nstacks * sizeof(*now));
	size_t i;

	if (now == NULL)
		return profconv__nomem();
	for (i = 0; i < v->nstacks; i++)
		now[idx[i]] = (uint32_t)i;
	for (i = 0; i < v->prof->nsamples; i++)
		if (v->sample_stack[i] != 0)
			v->sample_stack[i] = now[v->sample_stack[i] - 1] + 1;
	free(now);
	return 0;
}

/* Sort the stacks by their folded text; their values move with them. */
static int
sort_stacks(struct profconv_view *v)
{
	struct vstack *stacks;
	int64_t *vals;
	size_t *idx, i, k;
	int rc = 0;

	if (v->nstacks < 2)
		return 0;
	idx = malloc(v->nstacks * sizeof(*idx));
	stacks = malloc(v->nstacks * sizeof(*stacks));
	vals = malloc(v->nvals * sizeof(*vals) + 1);
	if (idx == NULL || stacks == NULL || vals == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	for (i = 0; i < v->nstacks; i++)
		idx[i] = i;
	qsort_r(idx, v->nstacks, sizeof(*idx), by_text, v);
	for (i = 0; i < v->nstacks; i++) {
		k = idx[i];
		stacks[i] = v->stacks[k];
		memcpy(vals + i * v->ntypes, v->vals + k * v->ntypes,
		    v->ntypes * sizeof(*vals));
	}
	memcpy(v->stacks, stacks, v->nstacks * sizeof(*stacks));
	memcpy(v->vals, vals, v->nvals * sizeof(*vals));
	rc = renumber_samples(v, idx);
out:
	free(idx);
	free(stacks);
	free(vals);
	return rc;
}

/* --- the public view ------------------------------------------------------- */

static void
free_scratch(struct profconv_view *v)
{
	profconv__pruner_free(&v->pruner);
	if (v->has_focus)
		regfree(&v->focus);
	if (v->has_ignore)
		regfree(&v->ignore);
	v->has_focus = v->has_ignore = false;
	free(v->loc_off);
	free(v->loc_n);
	free(v->loc_match);
	free(v->loc_frames);
	free(v->fn_name);
	free(v->buf);
	free(v->path);
	profconv__namer_free(&v->namer);
	profconv__keymap_free(&v->stack_index);
	v->loc_off = NULL;
	v->loc_n = NULL;
	v->loc_match = NULL;
	v->loc_frames = NULL;
	v->fn_name = NULL;
	v->buf = NULL;
	v->path = NULL;
}

void
profconv_view_free(struct profconv_view *v)
{
	if (v == NULL)
		return;
	free_scratch(v);
	profconv__strtab_free(&v->strs);
	free(v->frame_of_text);
	free(v->frames);
	free(v->stacks);
	free(v->sframes);
	free(v->vals);
	free(v->totals);
	free(v->sample_stack);
	free(v);
}

int
profconv_view_new(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts)
{
	struct profconv_view_options def = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v;
	size_t i, nloc;
	int rc;

	*out = NULL;
	if (opts == NULL)
		opts = &def;
	if (opts->version != PROFCONV_VIEW_OPTIONS_VERSION)
		return profconv__fail(PROFCONV_EINVAL,
		    "view options version %u is not %u", opts->version,
		    PROFCONV_VIEW_OPTIONS_VERSION);
	if ((unsigned)opts->granularity > PROFCONV_BY_ADDRESS ||
	    (unsigned)opts->demangle > PROFCONV_DEMANGLE_NONE)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid view granularity or demangle mode");
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return profconv__nomem();
	v->prof = prof;
	v->opts = *opts;
	v->opts.focus = v->opts.ignore = NULL;	/* not kept: caller's */
	v->ntypes = prof->nsample_types;
	v->namer.mode = opts->demangle;
	nloc = prof->nlocations + 1;
	rc = profconv__strtab_init(&v->strs);
	if (rc == 0)
		rc = compile(&v->focus, opts->focus, &v->has_focus, "focus");
	if (rc == 0)
		rc = compile(&v->ignore, opts->ignore, &v->has_ignore,
		    "ignore");
	if (rc == 0)
		rc = profconv__pruner_init(&v->pruner, prof,
		    !opts->keep_allocator_frames);
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
	for (i = 0; rc == 0 && i < prof->nsamples; i++)
		rc = add_sample(v, i);
	if (rc == 0)
		rc = sort_stacks(v);
	free_scratch(v);
	if (rc < 0) {
		profconv_view_free(v);
		return rc;
	}
	*out = v;
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
profconv_view_stack(const struct profconv_view *v, size_t i,
    struct profconv_view_stack *out)
{
	if (i >= v->nstacks)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no stack %zu", i);
	out->frames = v->stacks[i].n != 0 ? v->sframes + v->stacks[i].off :
	    NULL;
	out->nframes = v->stacks[i].n;
	out->values = v->ntypes != 0 ? v->vals + i * v->ntypes : NULL;
	return 0;
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
profconv_view_sample_index(const struct profconv_view *v, const char *type,
    size_t *out)
{
	int ti;

	if (type == NULL) {
		ti = profconv_profile_default_sample_index(v->prof);
		if (ti < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "profile has no sample types");
	} else {
		ti = profconv_profile_sample_type_index(v->prof, type);
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

size_t
profconv__view_sample_stack(const struct profconv_view *v, size_t i)
{
	return i < v->prof->nsamples ? v->sample_stack[i] : 0;
}
