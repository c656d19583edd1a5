/* SPDX-License-Identifier: MIT */
/* gocount.c - reader of the legacy gocount format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_gocount(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "gocount profiles are not supported yet");
}
