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
	"\n";

enum { OPT_THREADS = 256, OPT_SYMBOLIZE, OPT_DEMANGLE };

struct text2pb_args {
	struct profconv_read_options ropts;
	struct profconv_symbolize_options sopts;
	const char *out_path;
};
#define CMD_ARGS struct text2pb_args

static const struct cmd_opt opts[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output OUT    write to OUT instead of standard output;\n"
	  "                      OUT appears whole or not at all\n",
	  CMD_TO_STRING(out_path) },
	{ "threads", OPT_THREADS, no_argument, CMD_OWN,
	  "      --threads       jemalloc: one sample per thread, labelled\n"
	  "                      'thread', a number (and 'thread_name' where\n"
	  "                      known)\n",
	  CMD_TO_SET(ropts.threads, 1) },
	{ "symbolize", OPT_SYMBOLIZE, no_argument, CMD_OWN,
	  "      --symbolize     add functions, files and lines from the mapped\n"
	  "                      binaries (see profconv symbolize)\n" },
	/* Not the view's --demangle: it says how names are written. */
	{ "demangle", OPT_DEMANGLE, required_argument, CMD_OWN,
	  "      --demangle MODE with --symbolize: function names as pprof\n"
	  "                      writes them: simple (default), templates,\n"
	  "                      full or none\n",
	  CMD_TO_PARSED(sopts.demangle, cmd_parse_demangle) },
	CMD_LEVEL_OPTS,
	CMD_INPUT_OPTS,
	CMD_ADD_COMMENT_OPT,
	{ "help", 'h', no_argument, CMD_HELP,
	  "  -h, --help          show this help and exit\n" },
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"IN and OUT may be '-' for standard input and output.\n"
	"example: profconv text2pb -o heap.pb.gz jeprof.1234.0.f.heap\n";

int
cmd_text2pb(int argc, char **argv)
{
	struct text2pb_args a = { PROFCONV_READ_OPTIONS_INIT,
		PROFCONV_SYMBOLIZE_OPTIONS_INIT, NULL };
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct cmd_parser parser = { opts, usage_text, footer, NULL, &wopts,
		&a };
	struct profconv_profile *prof = NULL;
	const char *out_path;
	bool symbolize = false;
	int c, status;

	/* --symbolize, the one option the table does not bind */
	while ((c = cmd_getopt(&parser, argc, argv)) > 0) {
		symbolize = true;
		a.sopts.strict = 1;
	}
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	out_path = a.out_path;
	if (argc - optind == 2 && cmd_is_program(argv[optind]))
		return cmd_usage_error("expected one input file, the profile; "
		    "'%s' is a program, and --symbolize finds binaries from the "
		    "profile's mappings (profconv symbolize --search-path or "
		    "--sysroot to look elsewhere)", argv[optind]);
	if (argc - optind != 1)
		return cmd_usage_error("expected one input file");
	if (out_path == NULL) {
		if (cmd_refuse_terminal() != EXIT_OK)
			return EXIT_USAGE;
		out_path = "-";
	}
	if (!symbolize)
		return cmd_convert_profile(argv[optind], &a.ropts, out_path,
		    &wopts);
	status = cmd_read_profile(argv[optind], &a.ropts, &prof);
	if (status == EXIT_OK && symbolize)
		status = cmd_symbolize_profile(prof, &a.sopts, argv[optind],
		    true);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
