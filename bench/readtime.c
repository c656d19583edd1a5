/* SPDX-License-Identifier: MIT */
/*
 * readtime.c - the read side alone, for bench/legacy.sh: read one
 * profile with libprofconv's public API on N threads (0: one per CPU)
 * and print what the model holds, without writing anything.
 *
 * usage: readtime FILE [JOBS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "profconv.h"

int
main(int argc, char **argv)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *prof;
	FILE *fp;

	if (argc < 2 || argc > 3) {
		fputs("usage: readtime FILE [JOBS]\n", stderr);
		return 2;
	}
	opts.jobs = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 0;
	fp = fopen(argv[1], "rb");
	if (fp == NULL) {
		perror(argv[1]);
		return 1;
	}
	if (profconv_profile_read(&prof, fp, &opts, NULL) < 0) {
		fprintf(stderr, "readtime: %s: %s\n", argv[1], profconv_errmsg());
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
