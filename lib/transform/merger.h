/* SPDX-License-Identifier: MIT */
/*
 * merger.h - the merger's state, shared by merge.c (identity of mappings,
 * functions and locations; the merger's sources, its end) and
 * merge_samples.c (samples by identity, a source's samples added, and
 * the census of what a subtraction cancels).  transform/ only.
 */
#ifndef PROFCONV_TRANSFORM_MERGER_H
#define PROFCONV_TRANSFORM_MERGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/*
 * The merged samples by identity (stack and labels): open addressing over
 * indexes into dst's samples, with each one's hash beside it, so a probe
 * compares a key with a sample only when the hashes agree, and no copy of
 * the key is kept.
 */
struct sample_set {
	uint32_t *slots;	/* dst sample index + 1; 0: empty */
	uint64_t *hashes;	/* per slot */
	size_t cap, n;		/* cap: a power of two, or 0 */
};

struct merger {
	struct profconv_profile *dst;
	struct pc_keymap mappings, functions, locations;
	struct sample_set samples;
	/* Per source: memoized translations of its ids (0 = not yet). */
	const struct profconv_profile *src;
	uint32_t *str;
	uint32_t *map_id;
	int64_t *map_delta;
	uint32_t *func_id;
	uint32_t *loc_id;
	size_t locs_left;	/* the source's locations not taken in */
	/* Scratch. */
	unsigned char *key;
	size_t key_cap;
	uint32_t *stack;
	size_t stack_cap;
	struct pc_label *labels;
	size_t labels_cap;
	struct pc_line *lines;
	size_t lines_cap;
	/* Sample types, kept by name: the first source's, in its order. */
	int *slot;		/* per type: the current source's slot, or -1 */
	bool *live;		/* per type: every source so far has it */
	int64_t *row;		/* one sample's values in the merged slots */
	size_t nsources;
	int sign;		/* of the source being added */
	bool mark_base;		/* label its samples pprof::base=true */
	size_t skipped;		/* samples that cancel, never made */
	uint32_t base_key, base_true;	/* those two strings in dst */
};

struct profconv_merger {
	struct merger m;
};

/* A string index of the current source, in the merged table. */
static inline uint32_t
dstr(const struct merger *m, uint32_t idx)
{
	return m->str[idx];
}

static inline bool
all_zero(const int64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

/* --- merge.c ------------------------------------------------------------- */

/* The merged mapping for the current source's mapping ID, and the
 * address shift from the one to the other. */
int profconv__merge_mapping(struct merger *m, uint32_t id, uint32_t *out,
    int64_t *delta);
/* The merged location for the current source's location ID. */
int profconv__merge_location(struct merger *m, uint32_t id, uint32_t *out);
/* CUR - BASE as profconv_profile_subtract() makes it, but with every
 * sample made, what cancels too (no census): the same profile, for
 * checking the one way against the other. */
int profconv__subtract_each(struct profconv_profile **out,
    const struct profconv_profile *cur, const struct profconv_profile *base);

/* --- merge_samples.c ----------------------------------------------------- */

/*
 * Add SRC's samples to M, each weighted by SIGN (1 or -1), but those
 * SKIP marks (NULL: none), whose stacks are only taken in, as they would
 * be, so that every location, function and mapping comes to be as it
 * would have.
 */
int profconv__merge_source(struct merger *m,
    const struct profconv_profile *src, int sign, const uint8_t *skip);
/* The current source's translations, freed. */
void profconv__merge_source_done(struct merger *m);
/* The merged samples' table, freed. */
void profconv__merge_samples_free(struct merger *m);

/*
 * What CUR - BASE cancels, found before it is made: a sample of CUR and
 * one of BASE that are one sample (stack and labels, as the merger
 * identifies them), with the same values, no other sample of either
 * being it too.  Their merged sample would be all zero, and go; so the
 * merger need never make it.  *SKIP_CUR and *SKIP_BASE get a byte per
 * sample of each, 1 for one that cancels (NULL both, and *N 0, when
 * none does or the two profiles' sample types differ); *N how many
 * pairs.  Errors: PROFCONV_ENOMEM.
 */
int profconv__merge_census(const struct profconv_profile *cur,
    const struct profconv_profile *base, uint8_t **skip_cur,
    uint8_t **skip_base, size_t *n);
/* Tests only: when not 0, the samples of BASE each of the census's
 * threads takes at a time (else a part per thread and more, from
 * 65,536 samples on). */
extern size_t profconv__test_census_chunk;

#endif /* PROFCONV_TRANSFORM_MERGER_H */
