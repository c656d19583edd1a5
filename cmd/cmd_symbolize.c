/* SPDX-License-Identifier: MIT */
/* cmd_symbolize.c - "profconv symbolize": add functions, files and lines. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv symbolize [-o FILE] [--pid PID | --maps FILE]\n"
	"                          [--sysroot DIR] [--search-path DIRS]\n"
	"                          [--debuginfo-path PATH] [--debuginfod]\n"
	"                          [--level N | --no-compress] INPUT\n"
	"\n"
	"Give every location of a profile its function, file, line, column and\n"
	"inlined calls from the ELF binaries and DWARF debug info of its\n"
	"mappings, and write it as a pprof protobuf.\n"
	"\n"
	"  -o, --output FILE        write to FILE (default: standard output)\n"
	"  -p, --pid PID            map addresses with /proc/PID/maps of a\n"
	"                           running process\n"
	"  -m, --maps FILE          map addresses with a saved memory map\n"
	"      --sysroot DIR        look for mapped files under DIR\n"
	"      --search-path DIRS   colon-separated directories to search for\n"
	"                           binaries by build id, path and base name\n"
	"      --debuginfo-path PATH  colon-separated directories to search\n"
	"                           for separate debug info first\n"
	"      --debuginfod         ask the servers in $DEBUGINFOD_URLS for\n"
	"                           missing debug info\n"
	"      --demangle MODE      function names as pprof writes them:\n"
	"                           simple (default; no parameters or\n"
	"                           template arguments), templates, full,\n"
	"                           or none (linker names)\n"
	CMD_LEVEL_HELP
	CMD_MAX_INPUT_HELP
	CMD_JOBS_HELP
	CMD_QUIET_HELP
	"  -h, --help               show this help and exit\n"
	"\n"
	"INPUT may be '-' for standard input.  A summary goes to standard error.\n"
	"example: profconv symbolize -o heap.pb.gz heap.prof\n";

enum {
	OPT_SYSROOT = 256,
	OPT_SEARCH_PATH,
	OPT_DEBUGINFO_PATH,
	OPT_DEBUGINFOD
};

static int
parse_options(int argc, char **argv,
    struct profconv_symbolize_options *opts,
    struct profconv_write_options *wopts, const char **out_path)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "maps", required_argument, NULL, 'm' },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "search-path", required_argument, NULL, OPT_SEARCH_PATH },
		{ "debuginfo-path", required_argument, NULL,
		    OPT_DEBUGINFO_PATH },
		{ "debuginfod", no_argument, NULL, OPT_DEBUGINFOD },
		{ "demangle", required_argument, NULL, CMD_OPT_DEMANGLE },
		CMD_LEVEL_OPTIONS,
		CMD_MAX_INPUT_OPTION,
		CMD_JOBS_OPTION,
		CMD_QUIET_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	int c, taken;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "o:p:m:l:j:h", longopts,
	    NULL)) != -1) {
		taken = cmd_level_option(wopts, c, optarg);
		if (taken == 0)
			taken = cmd_input_option(c, optarg);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken > 0)
			continue;
		switch (c) {
		case 'o':
			*out_path = optarg;
			break;
		case 'p':
			if (!cmd_parse_long("--pid", optarg, 1, 0x7fffffff, &v))
				return EXIT_USAGE;
			opts->pid = (int)v;
			break;
		case 'm':
			opts->maps_file = optarg;
			break;
		case OPT_SYSROOT:
			opts->sysroot = optarg;
			break;
		case OPT_SEARCH_PATH:
			opts->search_path = optarg;
			break;
		case OPT_DEBUGINFO_PATH:
			opts->debuginfo_path = optarg;
			break;
		case OPT_DEBUGINFOD:
			opts->debuginfod = 1;
			break;
		case CMD_OPT_DEMANGLE:
			if (profconv_demangle_parse(optarg, &opts->demangle) < 0)
				return cmd_usage_error("invalid --demangle value "
				    "'%s' (use simple, templates, full or none)",
				    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return cmd_usage_hint();
		}
	}
	if (opts->pid != 0 && opts->maps_file != NULL)
		return cmd_usage_error("--pid and --maps cannot be combined");
	if (argc - optind != 1)
		return cmd_usage_error("expected one INPUT");
	return EXIT_OK;
}

int
cmd_symbolize(int argc, char **argv)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	const char *out_path = "-";
	int status;

	status = parse_options(argc, argv, &opts, &wopts, &out_path);
	if (status != EXIT_OK)
		return status < 0 ? EXIT_OK : status;
	/* Asked to symbolize: a mapped file that is no ELF is an error. */
	opts.strict = 1;
	status = cmd_read_profile(argv[optind], NULL, &prof);
	if (status == EXIT_OK)
		status = cmd_symbolize_profile(prof, &opts, argv[optind], true);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
