/* SPDX-License-Identifier: MIT */
/* heap.c - reader of the legacy heap format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_heap(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "heap profiles are not supported yet");
}
