/* SPDX-License-Identifier: MIT */
/* cpu.c - reader of the legacy cpu format (being written). */

#include "config.h"

#include "legacy.h"

int
profconv__read_cpu(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	(void)in;
	(void)opts;
	*out = NULL;
	return profconv__fail(PROFCONV_EUNSUPPORTED,
	    "cpu profiles are not supported yet");
}
