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
	"\n";

enum {
	OPT_SYSROOT = 256,
	OPT_SEARCH_PATH,
	OPT_DEBUGINFO_PATH,
	OPT_DEBUGINFOD,
	OPT_DEMANGLE
};

struct symbolize_args {
	struct profconv_symbolize_options opts;
	const char *out_path;
};
#define CMD_ARGS struct symbolize_args

static const struct cmd_opt opts_table[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output FILE        write to FILE (default: standard output)\n",
	  CMD_TO_STRING(out_path) },
	{ "pid", 'p', required_argument, CMD_OWN,
	  "  -p, --pid PID            map addresses with /proc/PID/maps of a\n"
	  "                           running process\n",
	  CMD_TO_NUMBER(opts.pid, 1, 0x7fffffff) },
	{ "maps", 'm', required_argument, CMD_OWN,
	  "  -m, --maps FILE          map addresses with a saved memory map\n",
	  CMD_TO_STRING(opts.maps_file) },
	{ "sysroot", OPT_SYSROOT, required_argument, CMD_OWN,
	  "      --sysroot DIR        look for mapped files under DIR\n",
	  CMD_TO_STRING(opts.sysroot) },
	{ "search-path", OPT_SEARCH_PATH, required_argument, CMD_OWN,
	  "      --search-path DIRS   colon-separated directories to search for\n"
	  "                           binaries by build id, path and base name\n",
	  CMD_TO_STRING(opts.search_path) },
	{ "debuginfo-path", OPT_DEBUGINFO_PATH, required_argument, CMD_OWN,
	  "      --debuginfo-path PATH  colon-separated directories to search\n"
	  "                           for separate debug info first\n",
	  CMD_TO_STRING(opts.debuginfo_path) },
	{ "debuginfod", OPT_DEBUGINFOD, no_argument, CMD_OWN,
	  "      --debuginfod         ask the servers in $DEBUGINFOD_URLS for\n"
	  "                           missing debug info\n",
	  CMD_TO_SET(opts.debuginfod, 1) },
	/* Not the view's --demangle: it says how names are written. */
	{ "demangle", OPT_DEMANGLE, required_argument, CMD_OWN,
	  "      --demangle MODE      function names as pprof writes them:\n"
	  "                           simple (default; no parameters or\n"
	  "                           template arguments), templates, full,\n"
	  "                           or none (linker names)\n",
	  CMD_TO_PARSED(opts.demangle, cmd_parse_demangle) },
	CMD_LEVEL_OPTS,
	CMD_MAX_INPUT_OPT,
	CMD_JOBS_OPT,
	CMD_QUIET_OPT,
	CMD_ADD_COMMENT_OPT,
	{ "help", 'h', no_argument, CMD_HELP,
	  "  -h, --help               show this help and exit\n" },
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"INPUT may be '-' for standard input.  A summary goes to standard error.\n"
	"example: profconv symbolize -o heap.pb.gz heap.prof\n";

int
cmd_symbolize(int argc, char **argv)
{
	struct symbolize_args a = { PROFCONV_SYMBOLIZE_OPTIONS_INIT, NULL };
	struct profconv_symbolize_options *opts = &a.opts;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct cmd_parser parser = { opts_table, usage_text, footer, NULL,
		&wopts, &a };
	struct profconv_profile *prof = NULL;
	const char *out_path;
	int c, status;

	/* Every option is bound: none comes back. */
	c = cmd_getopt(&parser, argc, argv);
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	out_path = a.out_path;
	if (opts->pid != 0 && opts->maps_file != NULL)
		return cmd_usage_error("--pid and --maps cannot be combined");
	if (argc - optind == 2 && cmd_is_program(argv[optind]))
		return cmd_usage_error("expected one INPUT, the profile; '%s' "
		    "is a program, and binaries are found from the profile's "
		    "mappings (--search-path or --sysroot to look elsewhere)",
		    argv[optind]);
	if (argc - optind != 1)
		return cmd_usage_error("expected one INPUT");
	if (out_path == NULL) {
		if (cmd_refuse_terminal() != EXIT_OK)
			return EXIT_USAGE;
		out_path = "-";
	}
	/* Asked to symbolize: a mapped file that is no ELF is an error. */
	opts->strict = 1;
	status = cmd_read_profile(argv[optind], NULL, &prof);
	if (status == EXIT_OK)
		status = cmd_symbolize_profile(prof, opts, argv[optind], true);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
