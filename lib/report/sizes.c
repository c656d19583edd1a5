/* SPDX-License-Identifier: MIT */
/*
 * sizes.c - "is it many small blocks or a few big ones?": a log2
 * histogram of each stack's average block size (bytes / objects) in a
 * view, weighted by objects and by bytes.
 *
 * A heap dump keeps, per stack, only how many objects and how many
 * bytes are live (or were allocated): never the size of one block.  So
 * the histogram is of averages per stack (per sample of the profile,
 * which is a dump's stack, or one thread's share of it, before the view
 * merges samples with equal frames), as the table says; a stack
 * that allocates 16 bytes and 1 MiB from one call site shows one
 * average between them.  jemalloc, moreover, counts the usable bytes of
 * its size classes, not the bytes asked for.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "model/model.h"
#include "view/view.h"

#define NBUCKETS 64

/* The objects type that goes with bytes type NAME: "X_space" ->
 * "X_objects", "space" -> "objects"; -1 when the profile has none. */
static int
objects_type(const struct profconv_profile *prof, const char *name)
{
	char buf[128];
	size_t n = strlen(name);

	if (n >= 5 && strcmp(name + n - 5, "space") == 0 &&
	    n - 5 + 8 < sizeof(buf)) {
		memcpy(buf, name, n - 5);
		memcpy(buf + n - 5, "objects", 8);
		return profconv_profile_sample_type_index(prof, buf);
	}
	return -1;
}

/* V, a power of two, for people: exact in its unit ("512 KiB"). */
static void
human(char *buf, size_t size, uint64_t v)
{
	unsigned k = profconv__bytes_power((double)v);

	snprintf(buf, size, "%" PRIu64 " %s", v >> (10 * k),
	    profconv__bytes_unit_name(k));
}

int
profconv_sizes_print(const struct profconv_view *view, FILE *fp,
    const char *type)
{
	const struct profconv_profile *prof = profconv_view_profile(view);
	int64_t objs[NBUCKETS] = { 0 }, bytes[NBUCKETS] = { 0 };
	size_t stacks[NBUCKETS] = { 0 }, i, b, bt, lo = NBUCKETS, hi = 0;
	int64_t tot_o = 0, tot_b = 0;
	size_t skipped = 0;
	const char *bname;
	char l[32], h[32], range[72];
	int ot, rc;

	if (type == NULL) {
		int t = profconv_profile_sample_type_index(prof,
		    "inuse_space");

		if (t < 0)
			t = profconv_profile_sample_type_index(prof, "space");
		if (t < 0)
			return profconv__fail(PROFCONV_ENOTFOUND, "profile has "
			    "no inuse_space or space sample type: --sizes "
			    "needs bytes and objects per stack");
		bt = (size_t)t;
	} else {
		rc = profconv_view_sample_index(view, type, &bt);
		if (rc < 0)
			return rc;
	}
	bname = profconv__pstr(prof, prof->sample_types[bt].type);
	ot = objects_type(prof, bname);
	if (ot < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "sample type '%s' "
		    "has no objects type beside it (--sizes needs X_space and "
		    "X_objects)", bname);
	/* Each sample the view shows: a dump's stack, or one thread's part
	 * of it, before the view merges equal frames. */
	for (i = 0; i < prof->nsamples; i++) {
		const int64_t *v = pc_sample_values(prof, i);
		int64_t by, ob;
		uint64_t avg;

		if (profconv__view_sample_stack(view, i) == 0)
			continue;
		by = v[bt];
		ob = v[ot];
		if (by <= 0 || ob <= 0) {
			skipped += by != 0 || ob != 0;
			continue;
		}
		avg = (uint64_t)by / (uint64_t)ob;
		for (b = 0; b + 1 < NBUCKETS && (avg >> (b + 1)) != 0; b++)
			;
		stacks[b]++;
		pc_add_sat(&objs[b], ob);
		pc_add_sat(&bytes[b], by);
		pc_add_sat(&tot_o, ob);
		pc_add_sat(&tot_b, by);
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	errno = 0;
	fprintf(fp, "average block size per stack, %s / %s:\n", bname,
	    profconv__pstr(prof, prof->sample_types[ot].type));
	fputs("a dump keeps only each stack's bytes and objects, not the "
	    "size of any one\nblock: each stack counts at its average "
	    "(bytes / objects); jemalloc counts\nthe bytes of its size "
	    "classes, not the bytes asked for\n\n", fp);
	fprintf(fp, "%25s %8s %12s %7s %16s %7s\n", "average size", "stacks",
	    "objects", "objs%", "bytes", "bytes%");
	for (b = lo; tot_o > 0 && b <= hi; b++) {
		double po = 100.0 * (double)objs[b] / (double)tot_o;
		double pb = 100.0 * (double)bytes[b] / (double)tot_b;
		size_t k, bar = (size_t)(pb / 5 + 0.5);

		human(l, sizeof(l), (uint64_t)1 << b);
		if (b + 1 < NBUCKETS)
			human(h, sizeof(h), (uint64_t)1 << (b + 1));
		else
			snprintf(h, sizeof(h), "more");
		snprintf(range, sizeof(range), "[%s, %s)", l, h);
		fprintf(fp, "%25s %8zu %12" PRId64 " %6.2f%% %16" PRId64
		    " %6.2f%% ", range, stacks[b], objs[b], po, bytes[b], pb);
		for (k = 0; k < bar; k++)
			putc('#', fp);
		putc('\n', fp);
	}
	fprintf(fp, "%25s %8s %12" PRId64 " %7s %16" PRId64 "\n", "total", "",
	    tot_o, "", tot_b);
	if (skipped != 0)
		fprintf(fp, "(%zu stack%s with bytes but no objects, or the "
		    "reverse, left out)\n", skipped, skipped == 1 ? "" : "s");
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__write_error();
	return 0;
}
