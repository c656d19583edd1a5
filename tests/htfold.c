/* SPDX-License-Identifier: MIT */
/*
 * htfold.c - print a profile's samples the way heaptrack_print -F writes
 * its flame graph lines, so that the heaptrack tests can compare stacks
 * with heaptrack_print one by one: "htfold PROFILE TYPE".  Public API
 * only.  Rules (heaptrack-massif.md A.12): operator new frames at the
 * leaf are skipped; a stack ends at the first frame (from the leaf)
 * whose first line is main, __libc_start_main or
 * __static_initialization_and_destruction_0; frames run outermost first,
 * each line as "function (file basename);", a frame without lines as
 * "0xADDRESS;"; then a space and the value.
 *
 * "htfold -m PROFILE" prints a massif profile's samples as massif prints
 * frames: every line as "fn (file:line)", "fn (in object)" or "???",
 * outermost first, ';'-joined, then the value; the massif tests render the
 * heap tree the same way.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

static const char *
first_name(const struct profconv_profile *p, uint32_t loc)
{
	struct profconv_location l;
	struct profconv_function f;

	if (profconv_profile_location(p, loc, &l) < 0 || l.nlines == 0 ||
	    profconv_profile_function(p, l.lines[0].function_id, &f) < 0)
		return "";
	return f.name;
}

static int
is_new(const char *name)
{
	return strcmp(name, "operator new(unsigned long)") == 0 ||
	    strcmp(name, "operator new[](unsigned long)") == 0 ||
	    strcmp(name, "operator new(unsigned int)") == 0 ||
	    strcmp(name, "operator new[](unsigned int)") == 0;
}

static int
is_stop(const char *name)
{
	return strcmp(name, "main") == 0 ||
	    strcmp(name, "__libc_start_main") == 0 ||
	    strcmp(name, "__static_initialization_and_destruction_0") == 0;
}

static void
print_frame(const struct profconv_profile *p, uint32_t loc)
{
	struct profconv_location l;
	struct profconv_function f;
	const char *base;
	size_t i;

	if (profconv_profile_location(p, loc, &l) < 0)
		return;
	if (l.nlines == 0)
		printf("0x%" PRIx64 ";", l.address);
	for (i = 0; i < l.nlines; i++) {
		if (profconv_profile_function(p, l.lines[i].function_id,
		    &f) < 0)
			continue;
		base = strrchr(f.file, '/');
		base = base != NULL ? base + 1 : f.file;
		if (*base != '\0')
			printf("%s (%s);", f.name, base);
		else
			printf("%s;", f.name);
	}
}

/* One location as massif's tree shows it, outermost line first. */
static void
print_massif_frame(const struct profconv_profile *p, uint32_t loc)
{
	struct profconv_location l;
	struct profconv_function f;
	struct profconv_mapping m = { 0 };
	size_t i;

	if (profconv_profile_location(p, loc, &l) < 0)
		return;
	if (l.mapping_id != 0)
		profconv_profile_mapping(p, l.mapping_id, &m);
	if (l.nlines == 0)
		printf(m.file != NULL ? "??? (in %s);" : "???;", m.file);
	for (i = l.nlines; i-- > 0;) {
		if (profconv_profile_function(p, l.lines[i].function_id,
		    &f) < 0)
			continue;
		if (*f.file != '\0')
			printf("%s (%s:%" PRId64 ");", f.name, f.file,
			    l.lines[i].line);
		else if (m.file != NULL)
			printf("%s (in %s);", f.name, m.file);
		else
			printf("%s;", f.name);
	}
}

/* The location ids of sample I of P, leaf first, into *IDS (grown as
 * needed; the caller frees it). */
static void
stack_of(const struct profconv_profile *p, size_t i, uint32_t **ids,
    size_t *cap)
{
	size_t n = 0;

	profconv_profile_sample_locations(p, i, NULL, 0, &n);
	if (n > *cap) {
		free(*ids);
		*cap = 2 * n;
		if ((*ids = malloc(*cap * sizeof(**ids))) == NULL) {
			fputs("htfold: out of memory\n", stderr);
			exit(1);
		}
	}
	profconv_profile_sample_locations(p, i, *ids, *cap, NULL);
}

static void
massif(const struct profconv_profile *p)
{
	struct profconv_sample s;
	uint32_t *ids = NULL;
	size_t i, k, cap = 0;

	for (i = 0; i < profconv_profile_sample_count(p); i++) {
		profconv_profile_sample(p, i, &s);
		stack_of(p, i, &ids, &cap);
		for (k = s.nlocations; k-- > 0;)
			print_massif_frame(p, ids[k]);
		printf(" %" PRId64 "\n", s.values[0]);
	}
	free(ids);
}

int
main(int argc, char **argv)
{
	struct profconv_profile *p = NULL;
	struct profconv_sample s;
	uint32_t *ids = NULL;
	size_t i, lo, hi, cap = 0;
	FILE *fp;
	int t;

	if (argc != 3) {
		fputs("usage: htfold PROFILE TYPE | htfold -m PROFILE\n",
		    stderr);
		return 2;
	}
	if (strcmp(argv[1], "-m") == 0) {
		argv[1] = argv[2];
		argv[2] = NULL;
	}
	fp = fopen(argv[1], "rb");
	if (fp == NULL || profconv_profile_read(&p, fp, NULL, NULL) < 0) {
		fprintf(stderr, "htfold: %s: %s\n", argv[1],
		    fp == NULL ? "cannot open" : profconv_errmsg());
		return 1;
	}
	fclose(fp);
	if (argv[2] == NULL) {
		massif(p);
		profconv_profile_free(p);
		return 0;
	}
	t = profconv_profile_sample_type_index(p, argv[2]);
	if (t < 0) {
		fprintf(stderr, "htfold: no sample type %s\n", argv[2]);
		return 1;
	}
	for (i = 0; i < profconv_profile_sample_count(p); i++) {
		profconv_profile_sample(p, i, &s);
		stack_of(p, i, &ids, &cap);
		for (lo = 0; lo < s.nlocations &&
		    is_new(first_name(p, ids[lo])); lo++)
			;
		for (hi = lo; hi < s.nlocations; hi++)
			if (is_stop(first_name(p, ids[hi]))) {
				hi++;
				break;
			}
		if (lo == hi)
			printf("??;");
		while (hi-- > lo)
			print_frame(p, ids[hi]);
		printf(" %" PRId64 "\n", s.values[t]);
	}
	free(ids);
	profconv_profile_free(p);
	return 0;
}
