/* SPDX-License-Identifier: MIT */
/* cmd_text2pb.c - "profconv text2pb": convert any readable profile to pprof. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv text2pb [-o OUT] [--threads] [--symbolize]\n"
	"                        [--no-compress | --level N] IN\n"
	"\n"
	"Convert a profile in any format profconv reads (legacy gperftools,\n"
	"jemalloc and Go text or binary profiles, or pprof itself) into a\n"
	"pprof protobuf, gzip-compressed unless --no-compress is given.\n"
	"\n"
	"  -o, --output OUT    write to OUT instead of standard output;\n"
	"                      OUT appears whole or not at all\n"
	"      --threads       jemalloc: one sample per thread, labelled\n"
	"                      'thread' (and 'thread_name' where known)\n"
	"      --symbolize     add functions, files and lines from the mapped\n"
	"                      binaries (see profconv symbolize)\n"
	"      --demangle MODE with --symbolize: function names as pprof\n"
	"                      writes them: simple (default), templates,\n"
	"                      full or none\n"
	CMD_LEVEL_HELP
	CMD_MAX_INPUT_HELP
	CMD_JOBS_HELP
	CMD_QUIET_HELP
	CMD_SNAPSHOT_HELP
	"  -h, --help          show this help and exit\n"
	"\n"
	"IN and OUT may be '-' for standard input and output.\n"
	"example: profconv text2pb -o heap.pb.gz jeprof.1234.0.f.heap\n";

enum { OPT_THREADS = 256, OPT_SYMBOLIZE };

int
cmd_text2pb(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "threads", no_argument, NULL, OPT_THREADS },
		{ "symbolize", no_argument, NULL, OPT_SYMBOLIZE },
		{ "demangle", required_argument, NULL, CMD_OPT_DEMANGLE },
		CMD_LEVEL_OPTIONS,
		CMD_MAX_INPUT_OPTION,
		CMD_JOBS_OPTION,
		CMD_QUIET_OPTION,
		CMD_SNAPSHOT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_read_options ropts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_symbolize_options sopts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	const char *out_path = "-";
	bool symbolize = false;
	int c, status, taken;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "o:l:j:h", longopts, NULL)) != -1) {
		taken = cmd_level_option(&wopts, c, optarg);
		if (taken == 0)
			taken = cmd_input_option(c, optarg);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken > 0)
			continue;
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case OPT_THREADS:
			ropts.threads = 1;
			break;
		case OPT_SYMBOLIZE:
			symbolize = true;
			sopts.strict = 1;
			break;
		case CMD_OPT_DEMANGLE:
			if (profconv_demangle_parse(optarg, &sopts.demangle) < 0)
				return cmd_usage_error("invalid --demangle value "
				    "'%s' (use simple, templates, full or none)",
				    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_hint();
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("expected one input file");
	status = cmd_read_profile(argv[optind], &ropts, &prof);
	if (status == EXIT_OK && symbolize)
		status = cmd_symbolize_profile(prof, &sopts, argv[optind], true);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
