/* SPDX-License-Identifier: MIT */
/* contention.c - reader of the legacy contention format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_contention(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "contention profiles are not supported yet");
}
