/* SPDX-License-Identifier: MIT */
/* merge.c - "profconv merge": merge profiles of any format into one pprof. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <profconv.h>
#include "commands.h"
#include "common.h"

static const char usage_text[] =
	"usage: profconv merge [-o OUT] [--level N | --no-compress] IN...\n"
	"\n"
	"Merge profiles (any format profconv reads, mixed freely) into one\n"
	"pprof profile, as go tool pprof merges: only the sample types all\n"
	"inputs share are kept; identical stacks with identical labels add up,\n"
	"across runs of one binary too (addresses are compared relative to\n"
	"their mapping); samples that sum to zero are dropped.\n"
	"\n"
	"  -o, --output OUT   write to OUT instead of standard output\n"
	"  -l, --level N      gzip level 1..9 (default 6)\n"
	"  -n, --no-compress  write uncompressed protobuf\n"
	CMD_MAX_INPUT_HELP
	"  -h, --help         show this help and exit\n"
	"\n"
	"example: profconv merge -o all.pb.gz heap.0001.heap heap.0002.heap\n";

int
cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "level", required_argument, NULL, 'l' },
		{ "no-compress", no_argument, NULL, 'n' },
		CMD_MAX_INPUT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL, *merged = NULL;
	struct profconv_merger *mg = NULL;
	const char *out_path = "-";
	int c, i, n, status = EXIT_FAIL;
	long level;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "o:l:nh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'l':
			if (!cmd_parse_long("--level", optarg, 1, 9, &level))
				return EXIT_USAGE;
			wo.level = (int)level;
			break;
		case 'n':
			wo.level = 0;
			break;
		case CMD_OPT_MAX_INPUT:
			if (!cmd_set_max_input(optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_hint();
		}
	}
	n = argc - optind;
	if (n < 1)
		return cmd_usage_error("expected at least one IN");
	if (profconv_merger_new(&mg) < 0)
		return cmd_error("%s", profconv_errmsg());
	/* One input at a time: each is merged, then freed.  Every
	 * unreadable input is reported before giving up. */
	status = EXIT_OK;
	for (i = 0; i < n; i++) {
		if (cmd_read_profile(argv[optind + i], NULL, &prof) != EXIT_OK) {
			status = EXIT_FAIL;
			continue;
		}
		if (status == EXIT_OK && profconv_merger_add(mg, prof) < 0)
			status = cmd_error("cannot merge '%s': %s",
			    argv[optind + i], profconv_errmsg());
		profconv_profile_free(prof);
		prof = NULL;
	}
	if (status == EXIT_OK && profconv_merger_finish(mg, &merged) < 0)
		status = cmd_error("cannot merge: %s", profconv_errmsg());
	if (status == EXIT_OK)
		status = cmd_write_profile(merged, out_path, &wo);
	profconv_merger_free(mg);
	profconv_profile_free(merged);
	return status;
}
