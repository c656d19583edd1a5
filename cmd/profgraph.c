/* SPDX-License-Identifier: MIT */
/* profgraph.c - the call graph of a profile as pprof draws it: DOT, or
 * SVG, PNG or PDF drawn by Graphviz's library; differential with --base. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profgraph [options] IN\n"
	"\n"
	"Draw the call graph of IN (any format profconv reads) as pprof's\n"
	"graph outputs draw it: a box per function, sized by what it\n"
	"allocated itself, an arrow per call, as wide as what went through\n"
	"it; pprof's node and edge cutoffs, order, labels, colours and\n"
	"legend.  The stacks and names are the ones profflame and profconv\n"
	"show give for the same profile.\n"
	"\n";

enum {
	OPT_DOT = 256, OPT_SVG, OPT_PNG, OPT_PDF, OPT_NODECOUNT,
	OPT_NODEFRACTION, OPT_EDGEFRACTION, OPT_FUNCTIONS, OPT_LINES,
	OPT_TITLE, OPT_FILES, OPT_FILEFUNCTIONS, OPT_ADDRESSES,
	OPT_CALLGRIND, OPT_CALL_TREE
};

static const struct cmd_opt opts[] = {
	CMD_TYPE_COUNT_OPT,
	{ "base", 'b', required_argument, CMD_OWN,
	  "  -b, --base BASE       the graph of IN minus BASE (pprof's\n"
	  "                        -diff_base): red grew, green shrank, shares\n"
	  "                        of BASE's total\n" },
	{ "functions", OPT_FUNCTIONS, no_argument, CMD_OWN,
	  "      --functions       a node per function (default)\n" },
	{ "lines", OPT_LINES, no_argument, CMD_OWN,
	  "      --lines           a node per function and source line\n" },
	{ "files", OPT_FILES, no_argument, CMD_OWN,
	  "      --files           a node per source file (pprof -files)\n" },
	{ "filefunctions", OPT_FILEFUNCTIONS, no_argument, CMD_OWN,
	  "      --filefunctions   a node per function and source file\n" },
	{ "addresses", OPT_ADDRESSES, no_argument, CMD_OWN,
	  "      --addresses       a node per address, function and line\n"
	  "                        (pprof -addresses: inlined calls kept\n"
	  "                        unless --no-inline)\n" },
	{ "call-tree", OPT_CALL_TREE, no_argument, CMD_OWN,
	  "      --call-tree       a node per calling context (pprof\n"
	  "                        -call_tree): a function called from two\n"
	  "                        places is two nodes (DOT, pictures,\n"
	  "                        callgrind)\n" },
	CMD_VIEW_OPTS,
	CMD_PERCENT_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	{ "trim-path", CMD_OPT_TRIM_PATH, required_argument, CMD_OWN,
	  "      --trim-path PREFIXES\n"
	  "                        cut these ':'-separated prefixes from the\n"
	  "                        file names shown (pprof -trim_path)\n" },
	CMD_OUTPUT_OPT,
	{ NULL, 0, 0, CMD_OWN,
	  "\n"
	  "What to write (one of):\n" },
	{ "svg", OPT_SVG, no_argument, CMD_OWN,
	  "      --svg             SVG laid out by Graphviz's library, with pan\n"
	  "                        (drag) and zoom (wheel) (default)\n" },
	{ "png", OPT_PNG, no_argument, CMD_OWN,
	  "      --png             PNG image\n" },
	{ "pdf", OPT_PDF, no_argument, CMD_OWN,
	  "      --pdf             PDF document\n" },
	{ "dot", OPT_DOT, no_argument, CMD_OWN,
	  "      --dot             Graphviz DOT text, as go tool pprof -dot\n" },
	{ "callgrind", OPT_CALLGRIND, no_argument, CMD_OWN,
	  "      --callgrind       callgrind's format (KCachegrind,\n"
	  "                        callgrind_annotate), as go tool pprof\n"
	  "                        -callgrind: by address, inlined calls\n"
	  "                        kept, untrimmed\n" },
	{ NULL, 0, 0, CMD_OWN,
	  "\n"
	  "What to keep, as pprof's options of the same names:\n" },
	{ "nodecount", OPT_NODECOUNT, required_argument, CMD_OWN,
	  "      --nodecount N     at most N nodes, nodelets included (default\n"
	  "                        80; 0: all)\n" },
	{ "nodefraction", OPT_NODEFRACTION, required_argument, CMD_OWN,
	  "      --nodefraction F  drop nodes under F of the total (default\n"
	  "                        0.005)\n" },
	{ "edgefraction", OPT_EDGEFRACTION, required_argument, CMD_OWN,
	  "      --edgefraction F  drop edges under F of the total (default\n"
	  "                        0.001)\n" },
	{ "title", OPT_TITLE, required_argument, CMD_OWN,
	  "      --title TEXT      the graph's name (default: the program's)\n" },
	CMD_INPUT_OPTS,
	CMD_ADD_COMMENT_OPT,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"examples: profgraph heap.pb.gz -o heap.svg\n"
	"          profgraph --base old.heap --dot new.heap > growth.dot\n";

struct graph_args {
	struct profconv_graph_options graph;
	struct cmd_view view;
	const char *base_path, *out_path;
	const char *format_option;
};

static bool
set_format(struct graph_args *a, const char *option,
    enum profconv_graph_format f)
{
	if (a->format_option != NULL && strcmp(a->format_option, option) != 0) {
		cmd_usage_error("%s and %s exclude each other",
		    a->format_option, option);
		return false;
	}
	a->format_option = option;
	a->graph.format = f;
	return true;
}

/* One of profgraph's own options, C, into ARGS (its graph_args); false
 * after a usage message. */
static bool
own_option(void *args, int c)
{
	struct graph_args *a = args;
	long v;

	switch (c) {
	case 't': a->graph.sample_type = optarg; return true;
	case 'b': a->base_path = optarg; return true;
	case 'o': a->out_path = optarg; return true;
	case OPT_TITLE: a->graph.title = optarg; return true;
	case OPT_FUNCTIONS:
		a->view.view.granularity = PROFCONV_BY_FUNCTION;
		return true;
	case OPT_LINES:
		a->view.view.granularity = PROFCONV_BY_LINE;
		return true;
	case OPT_FILES:
		a->view.view.granularity = PROFCONV_BY_FILE;
		return true;
	case OPT_FILEFUNCTIONS:
		a->view.view.granularity = PROFCONV_BY_FILE_FUNCTION;
		return true;
	case OPT_ADDRESSES:
		a->view.view.granularity = PROFCONV_BY_ADDRESS;
		return true;
	case CMD_OPT_TRIM_PATH: a->graph.trim_path = optarg; return true;
	case OPT_CALL_TREE:
		a->graph.call_tree = 1;
		return true;
	case OPT_DOT: return set_format(a, "--dot", PROFCONV_GRAPH_DOT);
	case OPT_SVG: return set_format(a, "--svg", PROFCONV_GRAPH_SVG);
	case OPT_PNG: return set_format(a, "--png", PROFCONV_GRAPH_PNG);
	case OPT_PDF: return set_format(a, "--pdf", PROFCONV_GRAPH_PDF);
	case OPT_CALLGRIND:
		return set_format(a, "--callgrind", PROFCONV_GRAPH_CALLGRIND);
	case OPT_NODECOUNT:
		if (!cmd_parse_long("--nodecount", optarg, 0, INT_MAX, &v))
			return false;
		a->graph.nodecount = (size_t)v;
		return true;
	case OPT_NODEFRACTION:
		return cmd_parse_double("--nodefraction", optarg, 0, 1,
		    &a->graph.nodefraction);
	case OPT_EDGEFRACTION:
		return cmd_parse_double("--edgefraction", optarg, 0, 1,
		    &a->graph.edgefraction);
	}
	return true;
}

/* Returns EXIT_OK to go on, -1 after --help/--version, or an exit status. */
static int
parse_args(int argc, char **argv, struct graph_args *a)
{
	struct cmd_parser p = { opts, usage_text, footer, &a->view, NULL };
	int status = cmd_parse_options(&p, argc, argv, own_option, a);

	if (status != EXIT_OK)
		return status;
	if (cmd_program_given("expected one IN", argc - optind, argv + optind) >= 0)
		return EXIT_USAGE;
	if (argc - optind != 1)
		return cmd_usage_error("expected one IN");
	/* pprof's callgrind is by address with inlined calls, whatever
	 * the granularity options say. */
	if (a->graph.format == PROFCONV_GRAPH_CALLGRIND) {
		a->view.view.granularity = PROFCONV_BY_ADDRESS;
		a->view.view.no_inline = 0;
	}
	/* A picture that cannot be drawn fails before any input is read. */
	if (profconv_graph_options_check(&a->graph) < 0)
		return cmd_error("%s", profconv_errmsg());
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct graph_args a = { PROFCONV_GRAPH_OPTIONS_INIT, CMD_VIEW_INIT,
		NULL, "-", NULL };
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct profconv_view *view[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	const char *in;
	int rc, status;

	cmd_name = "profgraph";
	a.graph.format = PROFCONV_GRAPH_SVG;
	status = parse_args(argc, argv, &a);
	if (status != EXIT_OK)
		return cmd_close_stdout(status < 0 ? EXIT_OK : status);
	in = argv[optind];
	a.view.view.jobs = cmd_jobs();
	status = cmd_load_pair(&a.view, in, a.base_path, prof);
	if (status == EXIT_OK)
		status = cmd_new_views(&a.view, prof, view);
	if (status == EXIT_OK)
		status = cmd_output_open(&out, a.out_path);
	if (status == EXIT_OK) {
		rc = profconv_graph_write(view[1], view[0], out.fp, &a.graph);
		if (rc == PROFCONV_EINVAL) {
			cmd_error("%s", profconv_errmsg());
			status = EXIT_USAGE;
		} else if (rc < 0) {
			status = cmd_write_failed(a.out_path, rc, errno, in);
		}
		status = cmd_output_end(&out, status);
	}
	cmd_free_views(prof, view);
	return cmd_close_stdout(status);
}
