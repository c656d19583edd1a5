/* SPDX-License-Identifier: MIT */
/* cmd_list.c - "profconv list": annotated source, as go tool pprof -list. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv list [options] REGEX PROFILE\n"
	"\n"
	"Print the source of every function whose name matches REGEX (a POSIX\n"
	"extended regex) with what each line holds, as go tool pprof -list:\n"
	"flat (the line itself) and cum (with what it calls) per line, and\n"
	"under a line that inlined calls, the inlined functions' lines.\n"
	"\n";

enum {
	OPT_BASE = 'b', OPT_SOURCE_PATH = 0x2000, OPT_HTML
};

struct list_args {
	struct profconv_list_options list;
	const char *base_path, *out_path;
};
#define CMD_ARGS struct list_args

static const struct cmd_opt opts[] = {
	CMD_TYPE_SHOW_OPT(list.sample_type),
	{ "base", OPT_BASE, required_argument, CMD_OWN,
	  "  -b, --base OLD        show the change from OLD per line, as pprof's\n"
	  "                        -diff_base (percentages of OLD's total)\n",
	  CMD_TO_STRING(base_path) },
	{ "source-path", OPT_SOURCE_PATH, required_argument, CMD_OWN,
	  "      --source-path DIRS\n"
	  "                        look for sources under these ':'-separated\n"
	  "                        directories and their parents (default: the\n"
	  "                        current directory)\n",
	  CMD_TO_STRING(list.source_path) },
	CMD_TRIM_PATH_OPT(list.trim_path),
	{ "html", OPT_HTML, no_argument, CMD_OWN,
	  "      --html            one self-contained HTML page instead of text\n",
	  CMD_TO_SET(list.html, 1) },
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output FILE     write to FILE (default: standard output)\n",
	  CMD_TO_STRING(out_path) },
	CMD_VIEW_OPTS,
	CMD_PERCENT_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_INPUT_OPTS,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"A source not found shows the lines that hold something and a note\n"
	"naming where it was looked for; with --debuginfod, the servers are\n"
	"asked for it last, by the binary's build id.\n"
	"examples: profconv list 'Cache::put' heap.pb.gz\n"
	"          profconv list --base old.pb.gz --html -o grow.html leak new.pb.gz\n";

int
cmd_list(int argc, char **argv)
{
	struct list_args a = { PROFCONV_LIST_OPTIONS_INIT, NULL, "-" };
	struct profconv_list_options *list = &a.list;
	struct cmd_view view = CMD_VIEW_INIT;
	struct cmd_parser parser = { opts, usage_text, footer, &view, NULL,
		&a };
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	const char *base_path, *out_path, *in;
	int c, rc, status, i;

	/* Every option is bound: none comes back. */
	c = cmd_getopt(&parser, argc, argv);
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	base_path = a.base_path;
	out_path = a.out_path;
	if (argc - optind != 2)
		return cmd_usage_error("expected REGEX and PROFILE");
	/* A REGEX that does not compile, or is beyond the bounds every
	 * regex has, is a usage error, found before any input is read (as
	 * --focus's is). */
	if (profconv_list_check(argv[optind], list) < 0)
		return cmd_usage_error("%s", profconv_errmsg());
	in = argv[optind + 1];
	view.view.jobs = cmd_jobs();
	list->view = &view.view;
	/* --debuginfod: for missing debug info, and last for sources. */
	if (view.debuginfod)
		list->find_source = profconv_debuginfod_find_source;
	status = cmd_load_pair(&view, in, base_path, prof);
	if (status == EXIT_OK)
		cmd_warn_unmatched_pair(&view, prof);
	if (status == EXIT_OK)
		status = cmd_output_open(&out, out_path);
	if (status == EXIT_OK) {
		/* The listing's views are the profiles' last use. */
		for (i = 0; i < 2; i++)
			if (prof[i] != NULL)
				profconv_profile_set_stacks_disposable(prof[i]);
		rc = profconv_list_write(prof[1], prof[0], argv[optind],
		    out.fp, list);
		if (rc == PROFCONV_EIO)
			status = cmd_write_failed(out_path, rc, errno, in);
		else if (rc < 0)
			status = cmd_error_lib(in);
		status = cmd_output_end(&out, status);
	}
	for (i = 0; i < 2; i++)
		profconv_profile_free(prof[i]);
	return status;
}
