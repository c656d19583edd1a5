/* SPDX-License-Identifier: MIT */
/*
 * graph_tags.c - the call graph's tags while it is built: pprof's
 * Node.addSample's labels, one tag per node and label kind, counted per
 * sample or, for the many samples of a big profile, per class of labels
 * (graph_build.c walks the samples).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/graph_build.h"

/* --- tags, one sample at a time ---------------------------------------------- */

void
profconv__graph_reset_tags(struct pc_graph_build *b)
{
	size_t i;

	b->ntags = 0;
	profconv__u64map_free(&b->tagmap);
	memset(&b->tagmap, 0, sizeof(b->tagmap));
	for (i = 0; i < b->ntagrows; i++)
		if (b->tagrows[i] != NULL)
			memset(b->tagrows[i], 0,
			    (b->nkeys + 1) * sizeof(*b->tagrows[i]));
}

/* The number of tag kind (NUMERIC, GROUP, NAME) into *OUT. */
static int
tag_kind(struct pc_graph_build *b, bool numeric, uint32_t group,
    uint32_t name, uint32_t *out)
{
	uint32_t kb[3] = { numeric, group, name };
	bool inserted;

	return profconv__keymap_intern(&b->tagkinds, kb, sizeof(kb),
	    (uint32_t)b->tagkinds.n, out, &inserted);
}

int
profconv__graph_sample_kinds(struct pc_graph_build *b, const struct gsample *s)
{
	size_t i, n = 0;
	int rc;

	if ((rc = PC_GROW(b->kinds, b->kinds_cap, 0, s->nnum + 1)) < 0)
		return rc;
	if (*b->groups[s->group] != '\0' &&
	    (rc = tag_kind(b, false, s->group, s->group, &b->kinds[n++])) < 0)
		return rc;
	for (i = 0; i < s->nnum; i++)
		if ((rc = tag_kind(b, true, s->group,
		    b->nums[s->num_off + i].name, &b->kinds[n++])) < 0)
			return rc;
	return 0;
}

/*
 * Where the tag of (KEY, KIND) is kept: *CELL, the tag's index + 1 (0:
 * none yet), in a row of every key for KIND while those rows fit in
 * TAG_ROWS_MAX cells; NULL for kinds past that, whose tags are in
 * b->tagmap.  A build adds to a tag once per frame of every sample (56
 * million times on a big profile): a row is one read where the map's
 * probe is several.
 */
#define TAG_ROWS_MAX ((size_t)1 << 22)

static int
tag_cell(struct pc_graph_build *b, uint32_t key, uint32_t kind,
    uint32_t **cell)
{
	size_t n;
	int rc;

	*cell = NULL;
	if (kind >= b->ntagrows) {
		if ((kind + 1) * (b->nkeys + 1) > TAG_ROWS_MAX)
			return 0;
		n = b->ntagrows;
		if ((rc = PC_GROW(b->tagrows, b->tagrows_cap, n,
		    kind + 1 - n)) < 0)
			return rc;
		memset(b->tagrows + n, 0, (kind + 1 - n) *
		    sizeof(*b->tagrows));
		b->ntagrows = kind + 1;
	}
	if (b->tagrows[kind] == NULL &&
	    (b->tagrows[kind] = calloc(b->nkeys + 1,
	    sizeof(*b->tagrows[kind]))) == NULL)
		return profconv__nomem();
	*cell = &b->tagrows[kind][key];
	return 0;
}

static int
tag_add(struct pc_graph_build *b, uint32_t key, uint32_t kind, bool numeric,
    uint32_t group, uint32_t name, int64_t value, int64_t w, bool flat)
{
	uint64_t kk = (uint64_t)key << 32 | kind;
	uint32_t idx, *cell;
	struct btag *t;
	int rc;

	if ((rc = tag_cell(b, key, kind, &cell)) < 0)
		return rc;
	if (cell != NULL ? *cell == 0 :
	    !profconv__u64map_get(&b->tagmap, kk, &idx)) {
		idx = (uint32_t)b->ntags;
		rc = PC_GROW(b->tags, b->tags_cap, b->ntags, 1);
		if (rc == 0 && cell != NULL)
			*cell = idx + 1;
		else if (rc == 0)
			rc = profconv__u64map_put(&b->tagmap, kk, idx);
		if (rc < 0)
			return rc;
		b->tags[b->ntags++] = (struct btag){ key, group, name,
		    numeric, false, value, 0, 0 };
	} else if (cell != NULL) {
		idx = *cell - 1;
	}
	t = &b->tags[idx];
	pc_add_sat(flat ? &t->flat : &t->cum, w);
	return 0;
}

int
profconv__graph_node_tags(struct pc_graph_build *b, uint32_t k,
    const struct gsample *s, bool flat)
{
	size_t i, n = 0;
	int rc = 0;

	if (*b->groups[s->group] != '\0')
		rc = tag_add(b, k, b->kinds[n++], false, s->group, s->group,
		    0, s->w, flat);
	for (i = 0; rc == 0 && i < s->nnum; i++) {
		const struct gnum *g = &b->nums[s->num_off + i];

		rc = tag_add(b, k, b->kinds[n++], true, s->group, g->name,
		    g->value, s->w, flat);
	}
	return rc;
}

/* --- tags by class ------------------------------------------------------------- */

/*
 * A big profile's samples have few distinct labels (a numeric "bytes"
 * of a few dozen sizes), and a build adds to a tag for every frame of
 * every sample: one cell of (key, class) per frame, then each tag once
 * from its cells, is the same sum at a fraction of the memory traffic.
 * The tags come out in the same order (the cells are read in the order
 * the samples first reached them, and a class's first sample has its
 * exact labels) with the same values, as long as no sum can saturate:
 * classes are used only when the samples' weights, all added up as
 * magnitudes, stay below INT64_MAX, and the cells fit CLASS_CELLS_MAX.
 */
#define CLASS_CELLS_MAX ((size_t)1 << 20)

/* Sample S (number SI) into its class, s->cls: NONE when it has no
 * tags; 1 when it has too many labels to be given one. */
#define CLASS_NUMS_MAX 15

static int
sample_class(struct pc_graph_build *b, struct gsample *s, size_t si)
{
	unsigned char kb[sizeof(uint32_t) + CLASS_NUMS_MAX *
	    (sizeof(uint32_t) + sizeof(int64_t))];
	size_t i, at = sizeof(uint32_t);
	bool inserted;
	int rc;

	s->cls = NONE;
	if (*b->groups[s->group] == '\0' && s->nnum == 0)
		return 0;
	if (s->nnum > CLASS_NUMS_MAX)
		return 1;
	memcpy(kb, &s->group, sizeof(uint32_t));
	for (i = 0; i < s->nnum; i++) {
		const struct gnum *g = &b->nums[s->num_off + i];

		memcpy(kb + at, &g->name, sizeof(g->name));
		memcpy(kb + at + sizeof(g->name), &g->value, sizeof(g->value));
		at += sizeof(g->name) + sizeof(g->value);
	}
	if ((rc = profconv__keymap_intern(&b->classmap, kb, at,
	    (uint32_t)b->nclasses, &s->cls, &inserted)) < 0)
		return rc;
	if (inserted) {
		if ((rc = PC_GROW(b->class_rep, b->class_rep_cap, b->nclasses,
		    1)) < 0)
			return rc;
		b->class_rep[b->nclasses++] = (uint32_t)si;
	}
	return 0;
}

int
profconv__graph_classes(struct pc_graph_build *b)
{
	size_t si, n;
	int rc = 0;

	b->classes_done = true;
	if (!b->sums_fit || b->ngsamples > UINT32_MAX)
		return 0;
	for (si = 0; si < b->ngsamples; si++)
		if ((rc = sample_class(b, &b->gsamples[si], si)) != 0)
			return rc < 0 ? rc : 0;
	n = b->nclasses * (b->nkeys + 1);
	if (b->nclasses == 0 || n > CLASS_CELLS_MAX)
		return 0;
	if ((b->ccum = calloc(n, sizeof(*b->ccum))) == NULL ||
	    (b->cflat = calloc(n, sizeof(*b->cflat))) == NULL ||
	    (b->cseen = calloc(n / 64 + 1, sizeof(*b->cseen))) == NULL ||
	    (b->ctouched = malloc(n * sizeof(*b->ctouched))) == NULL)
		return profconv__nomem();
	b->by_class = true;
	return 0;
}

int
profconv__graph_class_tags(struct pc_graph_build *b)
{
	size_t i, j, n, pass;
	int rc = 0;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; rc == 0 && i < b->nctouched; i++) {
			uint32_t cell = b->ctouched[i];
			uint32_t k = (uint32_t)(cell / b->nclasses);
			const struct gsample *s =
			    &b->gsamples[b->class_rep[cell % b->nclasses]];
			int64_t w = pass == 0 ? b->ccum[cell] : b->cflat[cell];

			if ((rc = profconv__graph_sample_kinds(b, s)) < 0)
				return rc;
			n = 0;
			if (*b->groups[s->group] != '\0')
				rc = tag_add(b, k, b->kinds[n++], false,
				    s->group, s->group, 0, w, pass == 1);
			for (j = 0; rc == 0 && j < s->nnum; j++) {
				const struct gnum *g =
				    &b->nums[s->num_off + j];

				rc = tag_add(b, k, b->kinds[n++], true,
				    s->group, g->name, g->value, w,
				    pass == 1);
			}
		}
	return rc;
}
