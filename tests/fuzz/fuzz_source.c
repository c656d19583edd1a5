/* SPDX-License-Identifier: MIT */
/*
 * fuzz_source.c - fuzz the annotated source listing (report/source.c's
 * text index, list.c's text writer, listhtml.c's page) with arbitrary
 * bytes as a source file.  The input is written as "src.c" under a
 * temporary directory, the one source root; a profile made here names
 * it in two functions: "f" starting at a line the first byte picks, and
 * one named by the input's first bytes (up to a NUL or a line break,
 * at most 40), with samples on lines the input's bytes pick (mod 64,
 * and one far past the end).  Both listings are written; neither may
 * hold a control byte but a line break or a tab.  The page's '<' must
 * all be its own markup: the page of the input with every '<' made '|'
 * (the same lines, the same byte mod 64) has as many.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <profconv.h>

#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAX_SAMPLES 16
#define MAX_NAME 40

static const char *src;

static void
check(bool ok)
{
	if (!ok)
		abort();
}

/* No control byte but "\n" and "\t", no DEL. */
static void
check_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		check(c >= 0x20 || c == '\n' || c == '\t');
		check(c != 0x7f);
	}
}

/* How many '<' S holds. */
static size_t
count_lt(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += s[i] == '<';
	return k;
}

/* The listing of DATA as src.c, text or HTML, into *OUT (*LEN bytes);
 * 0, or the listing's error. */
static int
listing(const unsigned char *data, size_t size, bool html, char **out,
    size_t *len)
{
	struct profconv_list_options lo = PROFCONV_LIST_OPTIONS_INIT;
	struct profconv_profile *p = NULL;
	uint32_t mid, fid[2], loc[MAX_SAMPLES];
	char name[MAX_NAME + 3];
	size_t n = 0, i;
	FILE *fp;
	int rc;

	fp = fopen(src, "wb");
	check(fp != NULL);
	check(size == 0 || fwrite(data, 1, size, fp) == size);
	check(fclose(fp) == 0);

	/* The second function's name: "g " and the input's first bytes. */
	memcpy(name, "g ", 2);
	while (n < size && n < MAX_NAME && data[n] != '\0' &&
	    data[n] != '\n')
		n++;
	memcpy(name + 2, data, n);
	name[2 + n] = '\0';

	check(profconv_profile_new(&p) == 0);
	check(profconv_profile_add_sample_type(p, "space", "bytes") == 0);
	check(profconv_profile_add_mapping(p, &(struct profconv_mapping){
	    0x1000, 0x100000, 0, "prog", NULL, 1, 1, 1, 0 }, &mid) == 0);
	check(profconv_profile_add_function(p, &(struct profconv_function){
	    "f", NULL, "src.c", 1 + (size > 0 ? data[0] % 8 : 0) }, &fid[0])
	    == 0);
	check(profconv_profile_add_function(p, &(struct profconv_function){
	    name, NULL, "src.c", 1 }, &fid[1]) == 0);
	for (i = 0; i < MAX_SAMPLES; i++) {
		struct profconv_line line = { fid[i % 2], 0, 0 };
		int64_t val = 16 + (int64_t)i;

		/* The last one far past any line the file has. */
		line.line = i == MAX_SAMPLES - 1 ? 100000 :
		    1 + (i < size ? data[size - 1 - i] % 64 : (int64_t)i);
		check(profconv_profile_add_location(p, mid,
		    0x1000 + 16 * i, &line, 1, 0, &loc[i]) == 0);
		check(profconv_profile_add_sample(p, &loc[i], 1, &val, NULL,
		    0) == 0);
	}

	lo.source_path = fuzz_scratch_dir();
	lo.html = html;
	*out = NULL;
	*len = 0;
	fp = open_memstream(out, len);
	check(fp != NULL);
	rc = profconv_list_write(p, NULL, ".", fp, &lo);
	check(fclose(fp) == 0);
	profconv_profile_free(p);
	return rc;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	unsigned char *tame;
	char *out, *out2;
	size_t len, len2, i;
	int rc;

	src = fuzz_scratch_file("fuzz_source", "src.c");

	rc = listing(data, size, false, &out, &len);
	check(rc == 0 || rc == PROFCONV_ENOTFOUND);
	check_text(out, len);
	free(out);

	rc = listing(data, size, true, &out, &len);
	check(rc == 0 || rc == PROFCONV_ENOTFOUND);
	check_text(out, len);
	if (rc == 0) {
		tame = malloc(size + 1);
		check(tame != NULL);
		for (i = 0; i < size; i++)
			tame[i] = data[i] == '<' ? '|' : data[i];
		check(listing(tame, size, true, &out2, &len2) == 0);
		check(count_lt(out, len) == count_lt(out2, len2));
		free(out2);
		free(tame);
	}
	free(out);
	return 0;
}
