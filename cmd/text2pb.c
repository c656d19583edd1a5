/* SPDX-License-Identifier: MIT */
/* text2pb.c - "profconv text2pb": convert any readable profile to pprof. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "commands.h"
#include "common.h"

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
	"  -t, --threads       jemalloc: one sample per thread, labelled\n"
	"                      'thread' (and 'thread_name' where known)\n"
	"  -s, --symbolize     add functions, files and lines from the mapped\n"
	"                      binaries (see profconv symbolize)\n"
	"  -n, --no-compress   write the protobuf without gzip (level 0)\n"
	"  -l, --level N       gzip level 0..9 (default 6)\n"
	CMD_MAX_INPUT_HELP
	"  -h, --help          show this help and exit\n"
	"\n"
	"IN and OUT may be '-' for standard input and output.\n"
	"example: profconv text2pb -o heap.pb.gz jeprof.1234.0.f.heap\n";

int
cmd_text2pb(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "threads", no_argument, NULL, 't' },
		{ "symbolize", no_argument, NULL, 's' },
		{ "no-compress", no_argument, NULL, 'n' },
		{ "level", required_argument, NULL, 'l' },
		CMD_MAX_INPUT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_read_options ropts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_symbolize_options sopts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	const char *out_path = "-";
	bool no_compress = false, symbolize = false;
	long level = 6;
	int c, status;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "o:tsnl:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 't':
			ropts.threads = 1;
			break;
		case 's':
			symbolize = true;
			sopts.strict = 1;
			break;
		case 'n':
			no_compress = true;
			break;
		case 'l':
			if (!cmd_parse_long("--level", optarg, 0, 9, &level))
				return EXIT_USAGE;
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
		return cmd_usage_error("expected one input file");
	wopts.level = no_compress ? 0 : (int)level;
	status = cmd_read_profile(argv[optind], &ropts, &prof);
	if (status == EXIT_OK && symbolize)
		status = cmd_symbolize_profile(prof, &sopts, argv[optind], true);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
