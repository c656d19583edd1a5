/* SPDX-License-Identifier: MIT */
/*
 * profile_load.c - profconv_profile_load(): a profile read and symbolized
 * in one call, the way every profconv command takes its inputs.  Reading
 * and symbolizing stay two steps of the library; this is the order they
 * go in, with the caller's symbolizer kept across profiles so that the
 * binaries of one program are opened and indexed once.
 */

#include "config.h"

#include "base/base.h"

int
profconv_profile_load(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, struct profconv_symbolizer *sym,
    struct profconv_symbolize_stats *stats)
{
	struct profconv_profile *prof;
	int rc;

	*out = NULL;
	rc = profconv_profile_read(&prof, fp, opts, NULL);
	if (rc == 0 && sym != NULL)
		rc = profconv_symbolizer_run(sym, prof, stats);
	if (rc < 0) {
		profconv_profile_free(prof);
		return rc;
	}
	*out = prof;
	return 0;
}
