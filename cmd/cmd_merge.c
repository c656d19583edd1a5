/* SPDX-License-Identifier: MIT */
/* cmd_merge.c - "profconv merge": merge profiles of any format into one
 * pprof. */

#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv merge [-o OUT] [--level N | --no-compress] IN...\n"
	"\n"
	"Merge profiles (any format profconv reads, mixed freely) into one\n"
	"pprof profile, as go tool pprof merges: only the sample types all\n"
	"inputs share are kept; identical stacks with identical labels add up,\n"
	"across runs of one binary too (addresses are compared relative to\n"
	"their mapping); samples that sum to zero are dropped.\n"
	"\n";

struct merge_args {
	const char *out_path;
};
#define CMD_ARGS struct merge_args

static const struct cmd_opt opts[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output OUT   write to OUT instead of standard output\n",
	  CMD_TO_STRING(out_path) },
	CMD_LEVEL_OPTS,
	CMD_MAX_INPUT_OPT,
	CMD_JOBS_OPT,
	CMD_QUIET_OPT,
	CMD_ADD_COMMENT_OPT,
	{ "help", 'h', no_argument, CMD_HELP,
	  "  -h, --help         show this help and exit\n" },
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"example: profconv merge -o all.pb.gz heap.0001.heap heap.0002.heap\n";

/*
 * Reading an input (inflate, decode, parse) costs far more than merging
 * it, so reader threads (-j) read ahead while this one merges, in input
 * order, at most DEPTH inputs (or one per reader) in front: memory stays
 * bounded whatever the number of inputs, and the output is the same
 * whatever the number of threads.
 */
#define DEPTH 2

/* Merge every input, reading ahead; EXIT_OK or EXIT_FAIL. */
static int
merge_all(struct profconv_merger *mg, char **paths, int n)
{
	struct cmd_readahead *ra;
	struct profconv_profile *prof;
	int i, status = EXIT_OK;

	/* Progress counts files; reading each one shows none (set before
	 * the readers start: they read it). */
	cmd_read_progress = false;
	if (cmd_readahead_start(&ra, paths, n, DEPTH) != EXIT_OK)
		return EXIT_FAIL;
	cmd_progress_begin("files", "merging");
	for (i = 0; i < n; i++) {
		cmd_progress((uint64_t)i, (uint64_t)n);
		prof = cmd_readahead_take(ra, i);
		/* Every unreadable input is reported before giving up. */
		if (prof == NULL)
			status = EXIT_FAIL;
		else if (status == EXIT_OK && profconv_merger_add(mg, prof) < 0)
			status = cmd_error("cannot merge '%s': %s", paths[i],
			    profconv_errmsg());
		profconv_profile_free(prof);
	}
	cmd_progress((uint64_t)n, (uint64_t)n);
	cmd_progress_end();
	cmd_readahead_finish(ra);
	return status;
}

int
cmd_merge(int argc, char **argv)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct merge_args a = { NULL };
	struct cmd_parser parser = { opts, usage_text, footer, NULL, &wo, &a };
	struct profconv_profile *merged = NULL;
	struct profconv_merger *mg = NULL;
	const char *out_path;
	int c, n, status;

	/* Every option is bound: none comes back. */
	c = cmd_getopt(&parser, argc, argv);
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	out_path = a.out_path;
	n = argc - optind;
	if (n < 1)
		return cmd_usage_error("expected at least one IN");
	if (out_path == NULL) {
		if (cmd_refuse_terminal() != EXIT_OK)
			return EXIT_USAGE;
		out_path = "-";
	}
	if (profconv_merger_new(&mg) < 0)
		return cmd_error("%s", profconv_errmsg());
	status = merge_all(mg, argv + optind, n);
	if (status == EXIT_OK && profconv_merger_finish(&merged, mg) < 0)
		status = cmd_error("cannot merge: %s", profconv_errmsg());
	if (status == EXIT_OK)
		status = cmd_write_profile(merged, out_path, &wo);
	profconv_merger_free(mg);
	profconv_profile_free(merged);
	return status;
}
