/* SPDX-License-Identifier: MIT */
/*
 * builder.h - the builder the legacy-format readers share: it turns
 * stacks of raw addresses into the model the way google/pprof's legacy
 * parsers do (pprof-reference.md section 2): addresses to locations,
 * map entries to mappings, and pprof's finishing heuristics.  The
 * lexing of their text is lex.h's.
 */
#ifndef PROFCONV_BUILDER_H
#define PROFCONV_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/seams.h"
#include "read/maps.h"

/*
 * Builds a profile from samples whose stacks are raw addresses.  Locations
 * are deduplicated by address and numbered in first-use order, which is
 * pprof's remapLocationIDs order.  Samples are never merged.
 */
struct pc_legacy {
	struct profconv_profile *prof;
	struct pc_u64map loc_by_addr;
	uint32_t *stack;		/* scratch for one stack */
	size_t stack_cap;
	struct pc_maps maps;
};

int profconv__legacy_init(struct pc_legacy *b);
void profconv__legacy_free(struct pc_legacy *b);
/*
 * A reader's whole use of B: init, BODY(ARG) reads the input into B,
 * finish into *OUT (NULL on failure), free.
 */
int profconv__legacy_read(struct pc_legacy *b, struct profconv_profile **out,
    int (*body)(void *arg), void *arg);

/* The location id for ADDRESS (already adjusted by the reader). */
int profconv__legacy_location(struct pc_legacy *b, uint64_t address,
    uint32_t *id_out);

/*
 * Add a sample with the NADDRS addresses ADDRS, leaf first, each already
 * adjusted, the values (one per sample type) and labels.
 */
int profconv__legacy_add_sample(struct pc_legacy *b, const uint64_t *addrs,
    size_t naddrs, const int64_t *values, const struct pc_label *labels,
    size_t nlabels);

/*
 * Finish: turn b->maps into mappings (merge adjacent entries, move the
 * main binary first, drop a leading /anon_hugepage, fix a main binary at
 * 0x400000), attach every location to its mapping (making a fake one when
 * none fits), and set drop/keep frames from the sample types as pprof's
 * addLegacyFrameInfo does.  Moves the profile to *OUT.
 */
int profconv__legacy_finish(struct pc_legacy *b,
    struct profconv_profile **out);

#endif /* PROFCONV_BUILDER_H */
