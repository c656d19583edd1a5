/* SPDX-License-Identifier: MIT */
/*
 * convert_stream.c - profconv_profile_convert(): a profile read and written as
 * pprof, its samples written while the rest is read.  A reader that can
 * hands each round of merged samples to the drain below (read/input.h);
 * the drain packs and compresses them on one thread while the reader's
 * other threads parse the next round, so that reading and compressing
 * overlap and the samples are never all held.  The bytes are those of
 * profconv_profile_read() then profconv_profile_write().
 */

#include "config.h"

#include <stdlib.h>

#include "model/seams.h"
#include "pprof/pprof.h"
#include "read/input.h"
#include "read/readers.h"

struct conv_drain {
	struct pc_drain d;		/* first: the reader sees only it */
	struct pc_pb_out *out;
	struct profconv_profile *held;	/* the samples taken, only they */
};

/* The sample types are final once a sample is read: the head goes
 * first, then the samples as they are taken. */
static int
drain_take(struct pc_drain *d, struct profconv_profile *prof)
{
	struct conv_drain *cd = (struct conv_drain *)d;
	int rc;

	rc = profconv__pb_out_head(cd->out, prof);
	if (rc < 0)
		return rc;
	d->taken += profconv_profile_sample_count(prof);
	profconv__samples_handoff(prof, cd->held);
	return 0;
}

/* One thread: the reader's others parse meanwhile. */
static int
drain_run(struct pc_drain *d)
{
	struct conv_drain *cd = (struct conv_drain *)d;

	return profconv__pb_out_samples(cd->out, cd->held, 1);
}

int
profconv_profile_convert(FILE *in, FILE *out,
    const struct profconv_read_options *ropts,
    const struct profconv_write_options *wopts,
    struct profconv_profile **prof_out, enum profconv_format *format_out)
{
	struct conv_drain cd = { { drain_take, drain_run, 0 }, NULL, NULL };
	struct profconv_write_options wo;
	struct profconv_profile *prof = NULL;
	int rc;

	if (prof_out != NULL)
		*prof_out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	rc = profconv__options_take(&wo, wopts, &profconv__options_write);
	if (rc == 0)
		rc = profconv__pb_out_open(&cd.out, out, wo.level, wo.jobs,
		    PC_GZ_BEST);
	if (rc == 0)
		rc = profconv_profile_new(&cd.held);
	if (rc == 0)
		rc = profconv__read_draining(&prof, in, ropts, format_out,
		    &cd.d);
	/* What no round took: all of a profile read whole. */
	if (rc == 0)
		rc = profconv__pb_out_head(cd.out, prof);
	if (rc == 0)
		rc = profconv__pb_out_samples(cd.out, prof, wo.jobs);
	if (rc == 0)
		rc = profconv__pb_out_close(cd.out, prof);
	profconv__pb_out_free(cd.out);
	if (rc == 0 && prof_out != NULL) {
		/* The caller gets the profile without samples, always. */
		profconv__samples_handoff(prof, cd.held);
		*prof_out = prof;
		prof = NULL;
	}
	profconv_profile_free(cd.held);
	profconv_profile_free(prof);
	return rc;
}
