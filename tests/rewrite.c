/* SPDX-License-Identifier: MIT */
/*
 * rewrite.c - read a profile with libprofconv and write it back as pprof:
 * "rewrite IN OUT LEVEL".  The interop tests use it to check that go tool
 * pprof reads what the library writes; it is also the smallest example of
 * a program built on the public API alone.
 */

#include <stdio.h>
#include <stdlib.h>

#include <profconv.h>

int
main(int argc, char **argv)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	FILE *in, *out;
	int rc;

	if (argc != 4) {
		fputs("usage: rewrite IN OUT LEVEL\n", stderr);
		return 2;
	}
	wo.level = (int)strtol(argv[3], NULL, 10);
	in = fopen(argv[1], "rb");
	if (in == NULL) {
		perror(argv[1]);
		return 1;
	}
	rc = profconv_profile_read(&prof, in, NULL, NULL);
	fclose(in);
	if (rc < 0) {
		fprintf(stderr, "rewrite: '%s': %s\n", argv[1], profconv_errmsg());
		return 1;
	}
	out = fopen(argv[2], "wb");
	if (out == NULL) {
		perror(argv[2]);
		profconv_profile_free(prof);
		return 1;
	}
	rc = profconv_profile_write(prof, out, &wo);
	if (fclose(out) != 0 && rc == 0)
		rc = -1;
	profconv_profile_free(prof);
	if (rc < 0) {
		fprintf(stderr, "rewrite: '%s': %s\n", argv[2], profconv_errmsg());
		return 1;
	}
	return 0;
}
