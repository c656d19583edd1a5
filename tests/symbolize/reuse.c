/* SPDX-License-Identifier: MIT */
/*
 * reuse.c - one symbolizer over several profiles gives what a fresh
 * profconv_symbolize() gives each time, and reads a binary again once it
 * changed on disk.
 *
 * usage: reuse PROFILE BINARY OTHER JOBS
 *   PROFILE maps BINARY; OTHER is another build to put in BINARY's place.
 *   Prints "ok" and exits 0, or says what differs and exits 1.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profconv.h"

static const char *profile_path;
static unsigned int jobs;

static void
die(const char *what)
{
	fprintf(stderr, "reuse: %s: %s\n", what, profconv_errmsg());
	exit(1);
}

/* PROFILE symbolized by SYM (NULL: a fresh profconv_symbolize()), as text. */
static char *
symbolized(struct profconv_symbolizer *sym, size_t *len)
{
	struct profconv_symbolize_options so = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats st;
	struct profconv_profile *prof;
	char *text = NULL;
	FILE *fp, *out;

	so.jobs = jobs;
	if ((fp = fopen(profile_path, "rb")) == NULL) {
		perror(profile_path);
		exit(1);
	}
	if (profconv_profile_read(&prof, fp, NULL, NULL) < 0)
		die("read");
	fclose(fp);
	if ((sym != NULL ? profconv_symbolizer_run(sym, prof, &st) :
	    profconv_symbolize(prof, &so, &st)) < 0)
		die("symbolize");
	if (st.symbolized == 0) {
		fprintf(stderr, "reuse: nothing symbolized\n");
		exit(1);
	}
	out = open_memstream(&text, len);
	if (out == NULL || profconv_profile_print(prof, out, NULL) < 0)
		die("print");
	fclose(out);
	profconv_profile_free(prof);
	return text;
}

static void
same(const char *a, size_t alen, const char *b, size_t blen, const char *what)
{
	if (alen != blen || memcmp(a, b, alen) != 0) {
		fprintf(stderr, "reuse: %s differ\n", what);
		exit(1);
	}
}

/* Put a copy of OTHER in PATH's place, as a rebuild would. */
static void
replace(const char *path, const char *other)
{
	char tmp[4096], buf[65536];
	FILE *in, *out;
	size_t n;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	in = fopen(other, "rb");
	out = fopen(tmp, "wb");
	if (in == NULL || out == NULL) {
		perror("replace");
		exit(1);
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	if (fclose(out) != 0 || rename(tmp, path) != 0) {
		perror("replace");
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	struct profconv_symbolize_options so = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolizer *sym;
	char *fresh, *first, *again, *changed, *fresh2;
	size_t lf, l1, l2, lc, lf2;

	if (argc != 5) {
		fprintf(stderr, "usage: reuse PROFILE BINARY OTHER JOBS\n");
		return 2;
	}
	profile_path = argv[1];
	jobs = (unsigned int)atoi(argv[4]);
	so.jobs = jobs;
	if (profconv_symbolizer_new(&sym, &so) < 0)
		die("new");
	fresh = symbolized(NULL, &lf);
	first = symbolized(sym, &l1);
	again = symbolized(sym, &l2);
	same(fresh, lf, first, l1, "profconv_symbolize and a new symbolizer");
	same(first, l1, again, l2, "a symbolizer's first and second runs");
	replace(argv[2], argv[3]);
	changed = symbolized(sym, &lc);
	fresh2 = symbolized(NULL, &lf2);
	same(fresh2, lf2, changed, lc,
	    "the symbolizer after the binary changed and a fresh one");
	if (lc == l1 && memcmp(changed, first, l1) == 0) {
		fprintf(stderr, "reuse: the changed binary gave the old result\n");
		return 1;
	}
	profconv_symbolizer_free(sym);
	free(fresh);
	free(first);
	free(again);
	free(changed);
	free(fresh2);
	puts("ok");
	return 0;
}
