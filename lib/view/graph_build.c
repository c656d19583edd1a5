/* SPDX-License-Identifier: MIT */
/*
 * graph_build.c - the call graph's nodes from the views' frames (keys), the
 * samples as the graph reads them, and one build of nodes, edges and tags
 * from those samples (graph.c has the whole; graph_trim.c the cuts).
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/delta.h"
#include "view/graph.h"
#include "view/graph_build.h"
#include "view/view.h"
/* --- keys: what each frame is as a node ------------------------------------- */

/* pprof's PrintableName: NameComponents joined by blanks (the address,
 * the name, then file:line, the file, or "[module]" without a name). */
static int
printable(struct gkey *k)
{
	size_t n = strlen(k->name) + strlen(k->file) + strlen(k->objfile) + 64;
	char *p = malloc(n);
	int at = 0;

	if (p == NULL)
		return profconv__nomem();
	if (k->address != 0)
		at = snprintf(p, n, "%016" PRIx64 " ", k->address);
	if (*k->name != '\0')
		at += snprintf(p + at, n - (size_t)at, "%s ", k->name);
	if (k->line != 0)
		snprintf(p + at, n - (size_t)at, "%s:%" PRId64, k->file,
		    k->line);
	else if (*k->file != '\0')
		snprintf(p + at, n - (size_t)at, "%s", k->file);
	else if (*k->name != '\0')
		p[at - 1] = '\0';	/* the name says it */
	else if (*k->objfile != '\0')
		snprintf(p + at, n - (size_t)at, "[%s]",
		    strrchr(k->objfile, '/') != NULL ?
		    strrchr(k->objfile, '/') + 1 : k->objfile);
	else
		snprintf(p + at, n - (size_t)at, "<unknown>");
	k->printable = p;
	return 0;
}

int
profconv__graph_intern_key(struct pc_graph_build *b, struct gkey *k,
    uint32_t *out)
{
	char *kb;
	size_t n;
	bool inserted;
	int rc;

	n = strlen(k->name) + strlen(k->file) + strlen(k->objfile) + 64;
	kb = malloc(n);
	if (kb == NULL)
		rc = profconv__nomem();
	else
		rc = 0;
	if (rc == 0) {
		n = (size_t)snprintf(kb, n, "%s%c%s%c%s%c%" PRId64 "%c%" PRIx64,
		    k->name, 0, k->file, 0, k->objfile, 0, k->line, 0,
		    k->address);
		rc = profconv__keymap_intern(&b->keymap, kb, n,
		    (uint32_t)b->nkeys, out, &inserted);
		free(kb);
	}
	if (rc == 0 && inserted) {
		rc = PC_GROW(b->keys, b->keys_cap, b->nkeys, 1);
		if (rc == 0)
			rc = printable(k);
		if (rc == 0) {
			b->keys[b->nkeys++] = *k;
			return 0;
		}
	}
	if (*k->file != '\0')
		free((char *)k->file);
	if (k->own_name)
		free((char *)k->name);
	return rc;
}

int
profconv__graph_file(const struct pc_graph_build *b, const char *path,
    const char **out)
{
	const char *t = *path != '\0' ?
	    profconv__trim_path(path, b->trim_path, NULL) : "";

	*out = "";
	if (*t != '\0' && (*out = profconv__clean_path(t)) == NULL)
		return profconv__nomem();
	return 0;
}

/* The key of frame F of a view, interned. */
static int
frame_key(struct pc_graph_build *b, const struct profconv_view_frame *f,
    enum profconv_granularity g, uint32_t *out)
{
	struct gkey k = { f->function, "", "", 0, NULL, 0, false, false, 0 };
	bool lines = g == PROFCONV_BY_LINE;
	const char *file = "";
	int rc;

	/* By function, the node has no file. */
	if (g != PROFCONV_BY_FUNCTION &&
	    (rc = profconv__graph_file(b, f->file, &file)) < 0)
		return rc;
	/* pprof -files: no name, the file or else the module; its node
	 * key keeps the function's start line too, which would make a node
	 * per function: a node per file here, as the view has a frame per
	 * file. */
	if (g == PROFCONV_BY_FILE)
		k.name = "";
	if ((g == PROFCONV_BY_FILE || g == PROFCONV_BY_FILE_FUNCTION) &&
	    *file != '\0') {
		k.file = file;
	} else if (*k.name == '\0') {
		k.objfile = f->module;
	} else if (lines && *file != '\0') {
		k.file = file;
		k.line = f->line;
	} else if (lines) {
		k.line = f->line;
	}
	if (*file != '\0' && k.file != file)
		free((char *)file);
	return profconv__graph_intern_key(b, &k, out);
}

/* Whether two frames of view VI (N frames) have one key: then two of
 * its stacks can be one stack of keys (add_samples()). */
static int
note_shared_keys(struct pc_graph_build *b, int vi, size_t n)
{
	uint8_t *seen = calloc(b->nkeys + 1, 1);
	size_t i;

	if (seen == NULL)
		return profconv__nomem();
	b->shared_keys[vi] = b->by_address;
	for (i = 1; i <= n && !b->shared_keys[vi]; i++) {
		uint32_t k = b->frame_key[vi][i];

		b->shared_keys[vi] = seen[k];
		seen[k] = 1;
	}
	free(seen);
	return 0;
}

int
profconv__graph_map_frames(struct pc_graph_build *b,
    const struct profconv_view *v, int vi)
{
	size_t n = profconv_view_frame_count(v), i;
	struct profconv_view_frame f;
	enum profconv_granularity g = profconv__view_granularity(v);
	int rc = 0;

	b->frame_key[vi] = malloc((n + 1) * sizeof(uint32_t));
	if (b->frame_key[vi] == NULL)
		return profconv__nomem();
	for (i = 1; rc == 0 && i <= n; i++) {
		uint32_t first;

		/* By address, a location's frame is its lines' keys
		 * (graph_address.c). */
		if (g == PROFCONV_BY_ADDRESS &&
		    profconv__view_frame_location(v, (uint32_t)i, &first) != 0) {
			b->frame_key[vi][i] = NONE;
			continue;
		}
		profconv_view_frame(v, (uint32_t)i, &f);
		rc = frame_key(b, &f, g, &b->frame_key[vi][i]);
	}
	if (rc == 0 && g == PROFCONV_BY_ADDRESS) {
		b->by_address = true;
		rc = profconv__graph_address_stacks(b, v, vi);
	}
	if (rc == 0)
		rc = note_shared_keys(b, vi, n);
	return rc;
}

/* --- samples -------------------------------------------------------------- */

int
profconv__graph_intern_group(struct pc_graph_build *b, const char *s,
    size_t len,
    uint32_t *out)
{
	bool inserted;
	char *copy;
	int rc;

	rc = profconv__keymap_intern(&b->groupmap, s, len,
	    (uint32_t)b->ngroups, out, &inserted);
	if (rc < 0 || !inserted)
		return rc;
	if ((rc = PC_GROW(b->groups, b->groups_cap, b->ngroups, 1)) < 0)
		return rc;
	copy = malloc(len + 1);
	if (copy == NULL)
		return profconv__nomem();
	memcpy(copy, s, len);
	copy[len] = '\0';
	b->groups[b->ngroups++] = copy;
	return 0;
}

/* pprof's joinLabels: the string labels "key:value", sorted, joined by
 * "\n" (the two characters); only the keys --tagshow and --taghide
 * keep, as pprof removes the others from every sample first. */
static int
sample_group(struct pc_graph_build *b, const struct profconv_profile *prof,
    const struct pc_sample *s, uint32_t *out)
{
	const struct pc_label *l = pc_sample_labels(prof, s);
	char **parts = NULL, *text = NULL;
	size_t i, n = 0, len = 0, at = 0;
	int rc = 0;

	for (i = 0; i < s->nlabels; i++)
		if (l[i].str != 0 && profconv__tagnames_keep(b->tn,
		    profconv__pstr(prof, l[i].key)))
			n++;
	if (n == 0) {
		*out = 0;	/* "", interned first (profconv__graph_new()) */
		return 0;
	}
	parts = calloc(n, sizeof(*parts));
	if (parts == NULL)
		return profconv__nomem();
	for (i = 0, n = 0; rc == 0 && i < s->nlabels; i++) {
		const char *k, *v;

		k = profconv__pstr(prof, l[i].key);
		if (l[i].str == 0 || !profconv__tagnames_keep(b->tn, k))
			continue;
		v = profconv__pstr(prof, l[i].str);
		parts[n] = malloc(strlen(k) + strlen(v) + 2);
		if (parts[n] == NULL) {
			rc = profconv__nomem();
			break;
		}
		snprintf(parts[n], strlen(k) + strlen(v) + 2, "%s:%s", k, v);
		len += strlen(parts[n]) + 2;
		n++;
	}
	if (rc == 0) {
		qsort(parts, n, sizeof(*parts), profconv__by_str);
		text = malloc(len + 1);
		if (text == NULL)
			rc = profconv__nomem();
	}
	for (i = 0; rc == 0 && i < n; i++) {
		if (i > 0) {
			memcpy(text + at, "\\n", 2);
			at += 2;
		}
		memcpy(text + at, parts[i], strlen(parts[i]));
		at += strlen(parts[i]);
	}
	if (rc == 0)
		rc = profconv__graph_intern_group(b, text, at, out);
	for (i = 0; i < n; i++)
		free(parts[i]);
	free(parts);
	free(text);
	return rc;
}

/* pprof's NumLabelUnits for "bytes": the first unit a sample gives it,
 * else "bytes". */
void
profconv__graph_find_num_unit(struct pc_graph_build *b,
    const struct profconv_profile *prof)
{
	size_t si, i;

	for (si = 0; b->num_unit == NULL && si < prof->nsamples; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const struct pc_label *l = pc_sample_labels(prof, s);

		for (i = 0; i < s->nlabels; i++)
			if (l[i].str == 0 && l[i].unit != 0 &&
			    strcmp(profconv__pstr(prof, l[i].key), "bytes") == 0 &&
			    profconv__tagnames_keep(b->tn, "bytes") &&
			    *profconv__pstr(prof, l[i].unit) != '\0') {
				b->num_unit = profconv__pstr(prof, l[i].unit);
				break;
			}
	}
}

/* The name of the numeric tag of value V into *OUT: its label, made and
 * interned once per value (a big profile has millions of samples and a
 * few dozen sizes). */
static int
num_name(struct pc_graph_build *b, int64_t v, uint32_t *out)
{
	char label[128];
	int rc;

	if (profconv__u64map_get(&b->num_names, (uint64_t)v, out))
		return 0;
	profconv__measure_label(label, sizeof(label), v, b->num_unit,
	    "minimum");
	rc = profconv__graph_intern_group(b, label, strlen(label), out);
	if (rc == 0)
		rc = profconv__u64map_put(&b->num_names, (uint64_t)v, *out);
	return rc;
}

/* S's numeric "bytes" labels, the numeric tags pprof shows, into
 * b->nums. */
static int
sample_nums(struct pc_graph_build *b, const struct profconv_profile *prof,
    const struct pc_sample *s, struct gsample *gs)
{
	const struct pc_label *l = pc_sample_labels(prof, s);
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < s->nlabels; i++) {
		struct gnum g;

		if (l[i].str != 0 ||
		    strcmp(profconv__pstr(prof, l[i].key), "bytes") != 0)
			continue;
		g.value = l[i].num;
		rc = num_name(b, l[i].num, &g.name);
		if (rc == 0)
			rc = PC_GROW(b->nums, b->nums_cap, b->nnums, 1);
		if (rc == 0) {
			b->nums[b->nnums++] = g;
			gs->nnum++;
		}
	}
	return rc;
}

/* The key of frame J of sample S. */
static uint32_t
key_of(const struct pc_graph_build *b, const struct gsample *s, size_t j)
{
	uint32_t f = pc_stack_at(gsample_frames(s), j);

	return b->by_address || b->tree ? f : b->frame_key[s->view][f];
}

/* What profconv__graph_build() reads of a sample, apart from its weight: its view,
 * the keys of its frames and whether each is inline, its labels. */
static uint64_t
sample_hash(const struct pc_graph_build *b, const struct gsample *s)
{
	uint64_t h = profconv__hash_u64((uint64_t)s->view << 32 | s->group);
	size_t i;

	h = profconv__hash_u64(h ^ s->nframes);
	for (i = 0; i < s->nframes; i++)
		h = profconv__hash_u64(h ^ ((uint64_t)key_of(b, s, i) << 1 |
		    (s->inl != NULL && s->inl[i])));
	for (i = 0; i < s->nnum; i++) {
		const struct gnum *g = &b->nums[s->num_off + i];

		h = profconv__hash_u64(h ^ g->name);
		h = profconv__hash_u64(h ^ (uint64_t)g->value);
	}
	return h;
}

static bool
same_sample(const struct pc_graph_build *b, const struct gsample *x,
    const struct gsample *y)
{
	size_t i;

	if (x->view != y->view || x->group != y->group ||
	    x->nframes != y->nframes || x->nnum != y->nnum)
		return false;
	for (i = 0; i < x->nframes; i++)
		if (key_of(b, x, i) != key_of(b, y, i) ||
		    (x->inl != NULL && x->inl[i]) !=
		    (y->inl != NULL && y->inl[i]))
			return false;
	for (i = 0; i < x->nnum; i++)
		if (b->nums[x->num_off + i].name !=
		    b->nums[y->num_off + i].name ||
		    b->nums[x->num_off + i].value !=
		    b->nums[y->num_off + i].value)
			return false;
	return true;
}

/*
 * Add GS, or its weight to an earlier sample profconv__graph_build() cannot tell from
 * it.  Every build's nodes, edges and tags then come out as they would
 * from the samples one by one, in the same order (a later copy touches
 * nothing an earlier one did not), at a fraction of the work: a big
 * profile's millions of stacks by address are far fewer by key.  Two
 * samples whose hashes meet but differ stay apart.  1 when GS went into
 * an earlier sample, 0 when it was added, or an error.
 */
static int
add_sample(struct pc_graph_build *b, struct pc_u64map *seen,
    struct gsample *gs)
{
	uint64_t h = sample_hash(b, gs);
	uint32_t idx;
	int rc;

	if (profconv__u64map_get(seen, h, &idx) &&
	    same_sample(b, &b->gsamples[idx], gs)) {
		pc_add_sat(&b->gsamples[idx].w, gs->w);
		return 1;
	}
	rc = PC_GROW(b->gsamples, b->gsamples_cap, b->ngsamples, 1);
	if (rc == 0 && !profconv__u64map_get(seen, h, &idx))
		rc = profconv__u64map_put(seen, h, (uint32_t)b->ngsamples);
	if (rc == 0)
		b->gsamples[b->ngsamples++] = *gs;
	return rc;
}

/*
 * Add GS, of view stack ST, by its stack: when no two frames of its view
 * share a key, only samples of one stack can be one stack of keys, so an
 * earlier sample of ST (FIRST[ST]: its place + 1) with GS's labels takes
 * GS's weight, without hashing its frames.  One whose labels differ goes
 * to add_sample(), which finds those added by it.  (Which copies are
 * joined changes no build: each adds its weight once per sample.)  As
 * add_sample(), 1 when GS went into an earlier sample.
 */
static int
add_sample_of_stack(struct pc_graph_build *b, struct pc_u64map *seen,
    uint32_t *first, size_t st, struct gsample *gs)
{
	struct gsample *s;
	size_t i;
	int rc;

	if (first[st] == 0) {
		if ((rc = PC_GROW(b->gsamples, b->gsamples_cap, b->ngsamples,
		    1)) < 0)
			return rc;
		b->gsamples[b->ngsamples++] = *gs;
		first[st] = (uint32_t)b->ngsamples;
		return 0;
	}
	s = &b->gsamples[first[st] - 1];
	if (s->group != gs->group || s->nnum != gs->nnum)
		return add_sample(b, seen, gs);
	for (i = 0; s->num_off != gs->num_off && i < gs->nnum; i++)
		if (b->nums[s->num_off + i].name !=
		    b->nums[gs->num_off + i].name ||
		    b->nums[s->num_off + i].value !=
		    b->nums[gs->num_off + i].value)
			return add_sample(b, seen, gs);
	pc_add_sat(&s->w, gs->w);
	return 1;
}

#define FIRST_AHEAD 16

/*
 * A sample's labels as a build reads them (its group and numeric tags),
 * kept for the last set of labels seen in each of LABEL_MEMO slots: the
 * model gives equal sets one place (profconv__add_sample_raw()), and a
 * heap profile's millions of samples have a few dozen sets, which then
 * share one copy of their tags in b->nums.
 */
#define LABEL_MEMO 64

struct label_memo {
	size_t off;		/* the set's place in the profile's labels */
	uint32_t n;		/* how many labels it has */
	uint32_t group, num_off, nnum;
	bool used;		/* false: an empty slot */
};

/* S's group and numeric tags into GS, from MEMO or made (NUMS: whether
 * the build shows "bytes"); *MADE: the slot of MEMO that keeps them
 * when they were made, into the end of b->nums, else NULL. */
static int
sample_labels(struct pc_graph_build *b, struct label_memo *memo,
    const struct profconv_profile *prof, const struct pc_sample *s,
    bool nums, struct gsample *gs, struct label_memo **made)
{
	struct label_memo *m = &memo[profconv__hash_u64(s->label_off ^
	    (uint64_t)s->nlabels << 48) & (LABEL_MEMO - 1)];
	int rc;

	*made = NULL;
	if (m->used && m->off == s->label_off && m->n == s->nlabels) {
		gs->group = m->group;
		gs->num_off = m->num_off;
		gs->nnum = m->nnum;
		return 0;
	}
	gs->num_off = (uint32_t)b->nnums;
	rc = sample_group(b, prof, s, &gs->group);
	if (rc == 0 && nums)
		rc = sample_nums(b, prof, s, gs);
	if (rc < 0)
		return rc;
	*made = m;
	*m = (struct label_memo){ s->label_off, s->nlabels, gs->group,
		gs->num_off, gs->nnum, true };
	return 0;
}

int
profconv__graph_add_samples(struct pc_graph_build *b,
    const struct profconv_view *v, int vi,
    size_t type)
{
	const struct profconv_profile *prof = profconv_view_profile(v);
	size_t si, st, nt = prof->nsample_types;
	struct pc_view_stack stack;
	struct pc_u64map seen = { 0 };
	bool nums = profconv__tagnames_keep(b->tn, "bytes");
	struct label_memo memo[LABEL_MEMO];
	uint32_t *first = NULL;
	int rc = 0;

	if (!b->shared_keys[vi] && (first = calloc(
	    profconv_view_stack_count(v) + 1, sizeof(*first))) == NULL)
		return profconv__nomem();
	/* Room for a sample per stack at once, which most views come to:
	 * grown a sample at a time, the array was copied and its pages
	 * made anew at each doubling, and held twice at the last (48 B a
	 * stack: 160 MB of the 1.27 GB profile's 3.4M). */
	if ((rc = PC_GROW(b->gsamples, b->gsamples_cap, b->ngsamples,
	    profconv_view_stack_count(v))) < 0) {
		free(first);
		return rc;
	}
	memset(memo, 0, sizeof(memo));

	for (si = 0; rc == 0 && si < prof->nsamples; si++) {
		struct gsample gs = { 0 };
		struct label_memo *made;
		int64_t w = prof->values[si * nt + type];

		/* The stacks (their place, then their frames) and FIRST
		 * are read in the samples' order, at random: a cache miss
		 * each on a big profile, unless asked for ahead. */
		if (si + 2 * FIRST_AHEAD < prof->nsamples &&
		    (st = profconv__view_sample_stack(v,
		    si + 2 * FIRST_AHEAD)) != 0)
			profconv__view_prefetch_stack(v, st - 1);
		if (si + FIRST_AHEAD < prof->nsamples &&
		    (st = profconv__view_sample_stack(v,
		    si + FIRST_AHEAD)) != 0) {
			if (!b->by_address)
				profconv__view_prefetch_frames(v, st - 1);
			if (first != NULL)
				__builtin_prefetch(&first[st]);
		}
		st = profconv__view_sample_stack(v, si);
		if (st == 0 || w == 0)
			continue;
		if (b->by_address) {
			size_t at = b->xoff[vi][st - 1];

			gs.frames = b->xkeys[vi] + at;
			gs.wide = true;
			gs.inl = b->xinl[vi] + at;
			gs.nframes = (uint32_t)(b->xoff[vi][st] - at);
		} else {
			profconv__view_stack_at(v, st - 1, &stack);
			gsample_set_frames(&gs, stack.frames);
			gs.inl = profconv__view_stack_inline(v, st - 1);
			gs.nframes = (uint32_t)stack.nframes;
		}
		gs.view = (uint8_t)vi;
		gs.w = profconv__delta_part(w, vi == 1);
		rc = sample_labels(b, memo, prof, pc_sample(prof, si), nums,
		    &gs, &made);
		if (rc == 0 && first != NULL)
			rc = add_sample_of_stack(b, &seen, first, st, &gs);
		else if (rc == 0)
			rc = add_sample(b, &seen, &gs);
		/* Tags just made for a sample that went into another are
		 * that one's copy: taken back, and forgotten. */
		if (rc == 1 && made != NULL) {
			b->nnums = gs.num_off;
			made->used = false;
		}
		if (rc > 0)
			rc = 0;
	}
	free(first);
	profconv__u64map_free(&seen);
	return rc;
}

/* --- calling contexts ---------------------------------------------------------- */

/* The context of key K called from context CALLER (NONE: a root) into
 * *OUT, interned in MAP: a key of its own that borrows K's texts. */
static int
context_of(struct pc_graph_build *b, struct pc_u64map *map, uint32_t caller,
    uint32_t k, uint32_t *out)
{
	uint64_t id = (uint64_t)(caller == NONE ? 0 : caller + 1) << 32 | k;
	struct gkey c;
	int rc;

	if (profconv__u64map_get(map, id, out))
		return 0;
	if ((rc = PC_GROW(b->keys, b->keys_cap, b->nkeys, 1)) < 0 ||
	    (rc = profconv__u64map_put(map, id, (uint32_t)b->nkeys)) < 0)
		return rc;
	c = b->keys[k];
	c.borrowed = true;
	c.caller = caller == NONE ? 0 : caller + 1;
	*out = (uint32_t)b->nkeys;
	b->keys[b->nkeys++] = c;
	return 0;
}

/*
 * pprof's newTree: a sample's frame, root to leaf, is the context of its
 * key under the context of the frame before, so a function called from
 * two places is two nodes.  The samples keep their order and weights
 * (those add_sample() joined share every context, as they share every
 * key); only their frames change, to contexts in b->tkeys.
 */
int
profconv__graph_contexts(struct pc_graph_build *b)
{
	struct pc_u64map map = { 0 };
	size_t si, j, n = 0, at = 0;
	int rc = 0;

	for (si = 0; si < b->ngsamples; si++)
		n += b->gsamples[si].nframes;
	b->tkeys = malloc((n + 1) * sizeof(*b->tkeys));
	if (b->tkeys == NULL)
		return profconv__nomem();
	for (si = 0; rc == 0 && si < b->ngsamples; si++) {
		struct gsample *s = &b->gsamples[si];
		uint32_t caller = NONE;

		for (j = 0; rc == 0 && j < s->nframes; j++) {
			rc = context_of(b, &map, caller, key_of(b, s, j),
			    &caller);
			b->tkeys[at + j] = caller;
		}
		s->frames = b->tkeys + at;
		s->wide = true;
		at += s->nframes;
	}
	profconv__u64map_free(&map);
	b->tree = true;
	return rc;
}
