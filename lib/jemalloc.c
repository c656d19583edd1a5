/* SPDX-License-Identifier: MIT */
/* jemalloc.c - reader of the legacy jemalloc format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_jemalloc(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "jemalloc profiles are not supported yet");
}
