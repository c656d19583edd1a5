/* SPDX-License-Identifier: MIT */
/* show.c - "profconv show": print any readable profile as text. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "commands.h"
#include "common.h"

static const char usage_text[] =
	"usage: profconv show [--summary] [--top N] FILE\n"
	"\n"
	"Print a profile in any format profconv reads as stable, diffable\n"
	"text: header, samples with values, labels and stacks (location ids,\n"
	"leaf first), locations with their lines, functions and mappings.\n"
	"\n"
	"  -s, --summary   print totals per sample type, object counts and the\n"
	"                  top stacks and functions by the default sample type\n"
	"  -n, --top N     how many stacks and functions --summary lists\n"
	"                  (default 10)\n"
	CMD_MAX_INPUT_HELP
	"  -h, --help      show this help and exit\n"
	"\n"
	"FILE may be '-' for standard input.\n"
	"example: profconv show --summary heap.pb.gz\n";

int
cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		CMD_MAX_INPUT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_print_options opts = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	long top;
	int c, status;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "sn:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			opts.summary = 1;
			break;
		case 'n':
			if (!cmd_parse_long("--top", optarg, 0, 1000000, &top))
				return EXIT_USAGE;
			opts.top = (size_t)top;
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
	if (argc - optind != 1)
		return cmd_usage_error("expected one FILE");
	status = cmd_read_profile(argv[optind], NULL, &prof);
	if (status == EXIT_OK && profconv_profile_print(prof, stdout,
	    &opts) < 0)
		status = cmd_error_lib("<stdout>");
	profconv_profile_free(prof);
	return status;
}
