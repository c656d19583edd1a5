/* SPDX-License-Identifier: MIT */
/*
 * driver.c - runs a fuzz harness without libFuzzer: every file named on
 * the command line (directories: every file in them) is one input.  make
 * check replays the committed corpus this way.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int
run_file(const char *path)
{
	unsigned char *buf;
	struct stat st;
	FILE *fp;
	size_t n;

	fp = fopen(path, "rb");
	if (fp == NULL || fstat(fileno(fp), &st) != 0) {
		perror(path);
		return 1;
	}
	buf = malloc((size_t)st.st_size + 1);
	n = buf != NULL ? fread(buf, 1, (size_t)st.st_size, fp) : 0;
	fclose(fp);
	if (buf == NULL || n != (size_t)st.st_size) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int
run_path(const char *path, size_t *count)
{
	char sub[4096];
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int rc = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	dir = opendir(path);
	if (dir == NULL) {
		perror(path);
		return 1;
	}
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		rc |= run_path(sub, count);
	}
	closedir(dir);
	return rc;
}

int
main(int argc, char **argv)
{
	size_t count = 0;
	int i, rc = 0;

	for (i = 1; i < argc; i++)
		rc |= run_path(argv[i], &count);
	printf("%s: %zu inputs replayed\n", argv[0], count);
	return rc;
}
