/* SPDX-License-Identifier: MIT */
/*
 * fuzz_read.c - fuzz every reader through format detection, with a round
 * trip property: whatever reads must write as pprof and read back to the
 * very same profile (compared through the full text dump).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *
dump(const struct profconv_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL)
		abort();
	if (profconv_profile_print(p, fp, NULL) < 0)
		abort();
	fclose(fp);
	return buf;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *a = NULL, *b = NULL;
	char *wire = NULL, *da, *db;
	size_t wlen = 0;
	FILE *fp;

	/* Keep gzip bombs from eating the fuzzer's memory. */
	ro.max_input = 64 << 20;
	ro.threads = size != 0 && (data[size - 1] & 1);
	/* massif: the peak or the last snapshot. */
	ro.snapshot = size != 0 && (data[size - 1] & 2) ?
	    PROFCONV_SNAPSHOT_LAST : PROFCONV_SNAPSHOT_PEAK;
	if (profconv_profile_read_mem(&a, data, size, &ro, NULL) < 0)
		return 0;
	wo.level = 0;
	fp = open_memstream(&wire, &wlen);
	if (fp == NULL || profconv_profile_write(a, fp, &wo) < 0)
		abort();
	fclose(fp);
	if (profconv_profile_read_mem(&b, wire, wlen, NULL, NULL) < 0) {
		fprintf(stderr, "round trip failed: %s\n", profconv_errmsg());
		abort();
	}
	da = dump(a);
	db = dump(b);
	if (strcmp(da, db) != 0) {
		fprintf(stderr, "round trip changed the profile\n");
		abort();
	}
	free(da);
	free(db);
	free(wire);
	profconv_profile_free(a);
	profconv_profile_free(b);
	return 0;
}
