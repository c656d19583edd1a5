/* SPDX-License-Identifier: MIT */
/* cmd_show.c - "profconv show": print any readable profile as text. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv show [options] FILE\n"
	"\n"
	"Print a profile in any format profconv reads as stable, diffable\n"
	"text: header, samples with values, labels and stacks (location ids,\n"
	"leaf first), locations with their lines, functions and mappings.\n"
	"\n"
	"  -s, --summary         print totals per sample type, then the top\n"
	"                        stacks and functions (the stacks profflame\n"
	"                        prints and the names profdiff shows); an\n"
	"                        unsymbolized profile is symbolized first\n"
	"  -n, --top N           how many stacks and functions --summary lists\n"
	"                        (default 10)\n"
	"  -t, --type TYPE       sample type --summary ranks by (default: the\n"
	"                        profile's default)\n"
	CMD_VIEW_HELP
	CMD_MAX_INPUT_HELP
	CMD_JOBS_HELP
	CMD_QUIET_HELP
	CMD_SNAPSHOT_HELP
	"  -h, --help            show this help and exit\n"
	"\n"
	"FILE may be '-' for standard input.\n"
	"example: profconv show --summary heap.pb.gz\n";

int
cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		{ "type", required_argument, NULL, 't' },
		CMD_VIEW_OPTIONS,
		CMD_MAX_INPUT_OPTION,
		CMD_JOBS_OPTION,
		CMD_QUIET_OPTION,
		CMD_SNAPSHOT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_print_options opts = PROFCONV_PRINT_OPTIONS_INIT;
	struct cmd_view view = CMD_VIEW_INIT;
	struct profconv_profile *prof = NULL;
	long top;
	int c, status, taken;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "sn:t:j:h", longopts, NULL)) != -1) {
		taken = cmd_view_option(&view, c, optarg);
		if (taken == 0)
			taken = cmd_input_option(c, optarg);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken > 0)
			continue;
		switch (c) {
		case 's':
			opts.summary = 1;
			break;
		case 'n':
			if (!cmd_parse_long("--top", optarg, 0, 1000000, &top))
				return EXIT_USAGE;
			opts.top = (size_t)top;
			break;
		case 't':
			opts.sample_type = optarg;
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
	view.view.jobs = cmd_jobs();
	/* The dump shows the file as it is; the summary shows what the
	 * other commands show, so it symbolizes like them. */
	if (!opts.summary)
		view.no_symbolize = true;
	opts.view = &view.view;
	status = cmd_load_profile(&view, argv[optind], &prof);
	if (status == EXIT_OK) {
		int rc = profconv_profile_print(prof, stdout, &opts);

		if (rc < 0)
			status = cmd_write_failed("-", rc, errno, argv[optind]);
	}
	profconv_profile_free(prof);
	return status;
}
