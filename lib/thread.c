/* SPDX-License-Identifier: MIT */
/* thread.c - reader of the legacy thread format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_thread(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "thread profiles are not supported yet");
}
