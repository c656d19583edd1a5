/* SPDX-License-Identifier: MIT */
/*
 * transform.h - what the transforms share with the layers above them.
 * May include: base/, model/.
 */
#ifndef PROFCONV_TRANSFORM_H
#define PROFCONV_TRANSFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/*
 * The one definition of "grew" (a leak candidate), for DELTA, values
 * laid out as PROF's sample types: in-use objects or bytes went up
 * (inuse_objects/inuse_space, else objects/space); in profiles without
 * in-use counters, any value went up.
 */
bool profconv__grew(const struct profconv_profile *prof, const int64_t *delta);

/* Keep only the samples I of PROF for which KEEP[I] is true (KEEP has
 * one entry per sample), in order.  Cannot fail. */
void profconv__keep_marked(struct profconv_profile *prof, const bool *keep);

#endif /* PROFCONV_TRANSFORM_H */
