/* SPDX-License-Identifier: MIT */
/*
 * fuzz_read.c - fuzz every reader through format detection, with round
 * trip properties: whatever reads must write as pprof and read back to a
 * profile that shows the same (the summary: totals, stacks, functions);
 * the pprof writer adds only what lets other readers cut the allocator
 * frames profconv cuts (names for frames without symbols inside the
 * allocator's library, drop_frames alternatives).  That profile writes
 * and reads back to the very same profile (the full text dump).  And
 * profconv_profile_convert() of the same bytes, read from a FILE and
 * writing samples while it reads, fails as the read fails or writes the
 * very bytes profconv_profile_write() writes.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *
dump(const struct profconv_profile *p, int summary)
{
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL)
		abort();
	po.summary = summary;
	po.top = 1000;
	if (profconv_profile_print(p, fp, &po) < 0)
		abort();
	fclose(fp);
	return buf;
}

/* P written as pprof and read back, into *OUT. */
static void
round_trip(const struct profconv_profile *p, struct profconv_profile **out)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	char *wire = NULL;
	size_t wlen = 0;
	FILE *fp;

	wo.level = 0;
	fp = open_memstream(&wire, &wlen);
	if (fp == NULL || profconv_profile_write(p, fp, &wo) < 0)
		abort();
	fclose(fp);
	if (profconv_profile_read_mem(out, wire, wlen, NULL, NULL) < 0) {
		fprintf(stderr, "round trip failed: %s\n", profconv_errmsg());
		abort();
	}
	free(wire);
}

/* The line of a summary that counts the model's functions (the written
 * names add some), taken out. */
static void
blank_counts(char *d)
{
	char *p = strstr(d, "\nsamples: "), *e;

	if (p != NULL && (e = strchr(p + 1, '\n')) != NULL)
		memmove(p, e, strlen(e) + 1);
}

/* A and B print the same (SUMMARY: their summaries but for the counts
 * of functions), or abort. */
static void
same(const struct profconv_profile *a, const struct profconv_profile *b,
    int summary)
{
	char *da = dump(a, summary), *db = dump(b, summary);

	if (summary) {
		blank_counts(da);
		blank_counts(db);
	}
	if (strcmp(da, db) != 0) {
		fprintf(stderr, "round trip changed the %s\n",
		    summary ? "summary" : "profile");
		abort();
	}
	free(da);
	free(db);
}

/* DATA converted from a FILE: the bytes of writing A (NULL: it failed
 * to read, with message MSG), or abort. */
static void
same_convert(const unsigned char *data, size_t size,
    const struct profconv_read_options *ro,
    const struct profconv_profile *a, const char *msg)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	char *want = NULL, *got = NULL;
	size_t nwant = 0, ngot = 0;
	FILE *in, *fp;
	int rc;

	wo.level = 0;
	if (size == 0)
		return;		/* fmemopen() takes no empty buffer */
	in = fmemopen((void *)data, size, "r");
	fp = open_memstream(&got, &ngot);
	if (in == NULL || fp == NULL)
		abort();
	rc = profconv_profile_convert(in, fp, ro, &wo, NULL, NULL);
	fclose(fp);
	fclose(in);
	if (a == NULL) {
		if (rc == 0 || strcmp(profconv_errmsg(), msg) != 0) {
			fprintf(stderr, "convert: '%s' where the read "
			    "failed with '%s'\n", rc == 0 ? "success" :
			    profconv_errmsg(), msg);
			abort();
		}
		free(got);
		return;
	}
	if (rc < 0) {
		fprintf(stderr, "convert failed: %s\n", profconv_errmsg());
		abort();
	}
	fp = open_memstream(&want, &nwant);
	if (fp == NULL || profconv_profile_write(a, fp, &wo) < 0)
		abort();
	fclose(fp);
	if (nwant != ngot || memcmp(want, got, ngot) != 0) {
		fprintf(stderr, "convert wrote other bytes\n");
		abort();
	}
	free(want);
	free(got);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *a = NULL, *b = NULL, *c = NULL;

	/* Keep gzip bombs from eating the fuzzer's memory. */
	ro.max_input = 64 << 20;
	ro.threads = size != 0 && (data[size - 1] & 1);
	/* massif: the peak or the last snapshot. */
	ro.snapshot = size != 0 && (data[size - 1] & 2) ?
	    PROFCONV_SNAPSHOT_LAST : PROFCONV_SNAPSHOT_PEAK;
	if (profconv_profile_read_mem(&a, data, size, &ro, NULL) < 0) {
		char *msg = strdup(profconv_errmsg());

		if (msg == NULL)
			abort();
		same_convert(data, size, &ro, NULL, msg);
		free(msg);
		return 0;
	}
	same_convert(data, size, &ro, a, NULL);
	round_trip(a, &b);
	same(a, b, 1);
	round_trip(b, &c);
	same(b, c, 0);
	profconv_profile_free(a);
	profconv_profile_free(b);
	profconv_profile_free(c);
	return 0;
}
