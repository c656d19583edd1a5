/* SPDX-License-Identifier: MIT */
/* profconv.c - the profconv front end: a table of subcommands. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "list", cmd_list, "annotated source: what each line of code holds" },
	{ "merge", cmd_merge, "merge profiles into one pprof profile" },
	{ "record", cmd_record,
	  "run a program under a heap profiler; report its dumps" },
	{ "report", cmd_report,
	  "every view of a profile, a change or a series in one HTML page" },
	{ "show", cmd_show, "print a profile as text, or its summary" },
	{ "symbolize", cmd_symbolize,
	    "add functions, files, lines and inlined calls" },
	{ "text2pb", cmd_text2pb, "convert any readable profile to pprof" },
};

static void
print_help(void)
{
	size_t i;

	fputs("usage: profconv [-h | -V] COMMAND [ARGS...]\n"
	    "\n"
	    "Read, convert and inspect heap and CPU profiles: pprof protobuf\n"
	    "(raw or gzipped) and the legacy gperftools, jemalloc and Go formats.\n"
	    "\n"
	    "commands:\n", stdout);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		printf("  %-12s %s\n", subcommands[i].name,
		    subcommands[i].summary);
	fputs("\n"
	    "options:\n"
	    "  -h, --help      show this help and exit\n"
	    "  -V, --version   show version information and exit\n"
	    "\n"
	    "Run 'profconv COMMAND --help' for a command's options.\n"
	    "example: profconv show --summary heap.pb.gz\n", stdout);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static char name_buf[64];
	size_t i;
	int c;

	/* "+": stop at the subcommand; its options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_help();
			return cmd_close_stdout(EXIT_OK);
		case 'V':
			return cmd_close_stdout(cmd_version());
		default:
			return cmd_usage_hint();
		}
	}
	if (optind >= argc)
		return cmd_usage_error("no command given");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[optind], subcommands[i].name) != 0)
			continue;
		snprintf(name_buf, sizeof(name_buf), "profconv %s",
		    subcommands[i].name);
		cmd_name = name_buf;
		return cmd_close_stdout(subcommands[i].fn(argc - optind,
		    argv + optind));
	}
	return cmd_usage_error("'%s' is not a profconv command",
	    argv[optind]);
}
