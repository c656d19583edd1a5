/* SPDX-License-Identifier: MIT */
/* load.c - reading, symbolizing and writing a profile for a command, with
 * one symbolizer kept for the whole command. */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

bool cmd_read_progress = true;

/* The end of a read: its error, or the one warning repairs deserve. */
static int
read_done(int rc, const struct profconv_profile *prof, const char *subject)
{
	size_t n;

	if (cmd_read_progress)
		cmd_progress_end();
	if (rc < 0)
		return cmd_error_lib(subject);
	n = profconv_profile_repaired_strings(prof);
	if (n != 0)
		cmd_warn("'%s': %zu string%s not valid UTF-8, invalid bytes "
		    "replaced by U+FFFD", subject, n, n == 1 ? " was" :
		    "s were");
	return EXIT_OK;
}

int
cmd_read_profile(const char *path, const struct profconv_read_options *given,
    struct profconv_profile **out)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct stat st;
	FILE *fp;
	int rc;

	if (given != NULL)
		opts = *given;
	cmd_apply_input_options(&opts);
	if (cmd_read_progress) {
		opts.progress = cmd_progress_fn;
		cmd_progress_begin("bytes", "reading '%s'",
		    strcmp(path, "-") == 0 ? "<stdin>" : path);
	}

	if (strcmp(path, "-") == 0) {
		rc = profconv_profile_read(out, stdin, &opts, NULL);
		return read_done(rc, *out, "<stdin>");
	}
	fp = fopen(path, "rb");
	if (fp == NULL)
		return cmd_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		return cmd_error("cannot read '%s': Is a directory", path);
	}
	rc = profconv_profile_read(out, fp, &opts, NULL);
	fclose(fp);
	return read_done(rc, *out, path);
}

int
cmd_write_profile(const struct profconv_profile *prof, const char *out_path,
    const struct profconv_write_options *given)
{
	struct profconv_write_options opts = PROFCONV_WRITE_OPTIONS_INIT;
	struct cmd_output out;
	int status;

	if (given != NULL)
		opts = *given;
	if (opts.jobs == 0)
		opts.jobs = cmd_jobs();
	status = cmd_output_open(&out, out_path);
	if (status != EXIT_OK)
		return status;
	status = profconv_profile_write(prof, out.fp, &opts);
	if (status < 0) {
		status = cmd_write_failed(out_path, status, errno, out_path);
		cmd_output_abort(&out);
		return status;
	}
	return cmd_output_commit(&out);
}

/* One line: how many locations got symbols, and why the rest did not. */
static void
print_summary(const struct profconv_symbolize_stats *st)
{
	size_t todo = st->locations - st->already_symbolized;

	fprintf(stderr, "%s: symbolized %zu of %zu locations", cmd_name,
	    st->symbolized, todo);
	if (st->already_symbolized != 0)
		fprintf(stderr, " (%zu had symbols)", st->already_symbolized);
	if (st->no_binary != 0)
		fprintf(stderr, "; %zu: binary not found", st->no_binary);
	if (st->build_id_mismatch != 0)
		fprintf(stderr, "; %zu: build id mismatch",
		    st->build_id_mismatch);
	if (st->no_debuginfo != 0)
		fprintf(stderr, "; %zu: no debug info", st->no_debuginfo);
	if (st->unusable != 0)
		fprintf(stderr, "; %zu: file not usable", st->unusable);
	if (st->unsymbolizable != 0)
		fprintf(stderr, "; %zu: not symbolizable", st->unsymbolizable);
	fputc('\n', stderr);
}

/*
 * One symbolizer for the whole command, so that the profiles of one
 * program (profdiff's two, proftrend's series, merge's inputs) open and
 * decode each binary once; made again when the options change.
 */
static struct profconv_symbolizer *symbolizer;
static struct profconv_symbolize_options symbolizer_opts;

static bool
same_string(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_symbolize_options(const struct profconv_symbolize_options *a,
    const struct profconv_symbolize_options *b)
{
	return same_string(a->sysroot, b->sysroot) &&
	    same_string(a->search_path, b->search_path) &&
	    same_string(a->debuginfo_path, b->debuginfo_path) &&
	    same_string(a->maps_file, b->maps_file) && a->pid == b->pid &&
	    a->debuginfod == b->debuginfod && a->strict == b->strict &&
	    a->demangle == b->demangle && a->jobs == b->jobs;
}

static char *symbolizer_strs[4];

static void
free_symbolizer(void)
{
	size_t i;

	profconv_symbolizer_free(symbolizer);
	symbolizer = NULL;
	for (i = 0; i < 4; i++) {
		free(symbolizer_strs[i]);
		symbolizer_strs[i] = NULL;
	}
}

/* A copy of the string option *FIELD that outlives the caller's. */
static bool
keep_string(const char **field, size_t slot)
{
	if (*field == NULL)
		return true;
	symbolizer_strs[slot] = strdup(*field);
	*field = symbolizer_strs[slot];
	return *field != NULL;
}

static int
get_symbolizer(const struct profconv_symbolize_options *opts)
{
	static bool registered;

	if (symbolizer != NULL && same_symbolize_options(&symbolizer_opts,
	    opts))
		return 0;
	free_symbolizer();
	if (!registered && atexit(free_symbolizer) == 0)
		registered = true;
	symbolizer_opts = *opts;
	if (!keep_string(&symbolizer_opts.sysroot, 0) ||
	    !keep_string(&symbolizer_opts.search_path, 1) ||
	    !keep_string(&symbolizer_opts.debuginfo_path, 2) ||
	    !keep_string(&symbolizer_opts.maps_file, 3))
		return PROFCONV_ENOMEM;
	return profconv_symbolizer_new(&symbolizer, opts);
}

int
cmd_symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary)
{
	struct profconv_symbolize_options def = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats stats;
	int rc;

	if (opts == NULL)
		opts = &def;
	opts->warn = cmd_warn_fn;
	opts->progress = cmd_progress_fn;
	opts->jobs = cmd_jobs();
	cmd_progress_begin("modules", "symbolizing '%s'", subject);
	rc = get_symbolizer(opts);
	if (rc == 0)
		rc = profconv_symbolizer_run(symbolizer, prof, &stats);
	cmd_progress_end();
	if (rc < 0)
		return cmd_error_lib(subject);
	if (summary)
		print_summary(&stats);
	return EXIT_OK;
}

int
cmd_load_profile(const struct cmd_view *v, const char *path,
    struct profconv_profile **out)
{
	struct profconv_symbolize_options sym = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	int status = cmd_read_profile(path, NULL, out);

	sym.demangle = v->view.demangle;
	if (status == EXIT_OK && !v->no_symbolize)
		status = cmd_symbolize_profile(*out, &sym,
		    strcmp(path, "-") == 0 ? "<stdin>" : path, false);
	return status;
}
