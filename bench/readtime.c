/* SPDX-License-Identifier: MIT */
/*
 * readtime.c - the read side alone, for bench/legacy.sh and
 * bench/trend.sh: read profiles with libprofconv's public API on N
 * threads (0: one per CPU), one after the other, each freed before the
 * next, and print what each model holds, without writing anything.
 *
 * usage: readtime FILE [JOBS]
 *        readtime -j JOBS FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profconv.h"

static int
read_one(const char *path, unsigned int jobs)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *prof;
	FILE *fp;

	opts.jobs = jobs;
	fp = fopen(path, "rb");
	if (fp == NULL) {
		perror(path);
		return 1;
	}
	if (profconv_profile_read(&prof, fp, &opts, NULL) < 0) {
		fprintf(stderr, "readtime: %s: %s\n", path, profconv_errmsg());
		fclose(fp);
		return 1;
	}
	printf("samples %zu locations %zu mappings %zu\n",
	    profconv_profile_sample_count(prof),
	    profconv_profile_location_count(prof),
	    profconv_profile_mapping_count(prof));
	profconv_profile_free(prof);
	fclose(fp);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int jobs;
	int i;

	if (argc >= 4 && strcmp(argv[1], "-j") == 0) {
		jobs = (unsigned int)strtoul(argv[2], NULL, 10);
		for (i = 3; i < argc; i++)
			if (read_one(argv[i], jobs) != 0)
				return 1;
		return 0;
	}
	if (argc < 2 || argc > 3) {
		fputs("usage: readtime FILE [JOBS]\n"
		    "       readtime -j JOBS FILE...\n", stderr);
		return 2;
	}
	return read_one(argv[1], argc > 2 ?
	    (unsigned int)strtoul(argv[2], NULL, 10) : 0);
}
