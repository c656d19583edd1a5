/* SPDX-License-Identifier: MIT */
/*
 * types.h - what transform/'s files share about sample types, and only
 * they (the layers above see transform.h): merge.c checks that types
 * agree, compat.c selects and aliases them, scale.c uses both.
 */
#ifndef PROFCONV_TRANSFORM_TYPES_H
#define PROFCONV_TRANSFORM_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* --- merge.c ------------------------------------------------------------- */

/* Are X of A and Y of B the same type and unit (bytes, NULs included)? */
bool profconv__same_vtype(const struct profconv_profile *a,
    const struct pc_vtype *x, const struct profconv_profile *b,
    const struct pc_vtype *y);
/* Have A and B the same sample types, in the same order? */
bool profconv__same_types(const struct profconv_profile *a,
    const struct profconv_profile *b);
/* Fail unless B has A's period type; WHO names B in the message
 * ("profile 2", "the base profile"). */
int profconv__check_period(const struct profconv_profile *a,
    const struct profconv_profile *b, const char *who);

/* --- compat.c ------------------------------------------------------------ */

/* Keep in PROF only the sample types listed in KEEP (indexes, in order). */
int profconv__select_types(struct profconv_profile *prof, const size_t *keep,
    size_t nkeep);
/*
 * The slot of P that stands for the merged type, string TYPE of DST,
 * under pprof's other heap naming, or -1.
 */
int profconv__heap_alias(const struct profconv_profile *p,
    const struct profconv_profile *dst, uint32_t type);

#endif /* PROFCONV_TRANSFORM_TYPES_H */
