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
	OPT_NODEFRACTION, OPT_EDGEFRACTION, OPT_TITLE, OPT_CALLGRIND,
	OPT_CALL_TREE
};

struct graph_args {
	struct profconv_graph_options graph;
	struct cmd_view view;
	const char *base_path, *out_path;
	const char *in;
};
#define CMD_ARGS struct graph_args

static const struct cmd_opt opts[] = {
	CMD_TYPE_COUNT_OPT(graph.sample_type),
	{ "base", 'b', required_argument, CMD_OWN,
	  "  -b, --base BASE       the graph of IN minus BASE (pprof's\n"
	  "                        -diff_base): red grew, green shrank, shares\n"
	  "                        of BASE's total\n",
	  CMD_TO_STRING(base_path) },
	CMD_FUNCTIONS_OPT(
	  "      --functions       a node per function (default)\n"),
	CMD_LINES_OPT(
	  "      --lines           a node per function and source line\n"),
	CMD_FILES_OPT(
	  "      --files           a node per source file (pprof -files)\n"),
	CMD_FILEFUNCTIONS_OPT(
	  "      --filefunctions   a node per function and source file\n"),
	CMD_ADDRESSES_OPT(
	  "      --addresses       a node per address, function and line\n"
	  "                        (pprof -addresses: inlined calls kept\n"
	  "                        unless --no-inline)\n"),
	{ "call-tree", OPT_CALL_TREE, no_argument, CMD_OWN,
	  "      --call-tree       a node per calling context (pprof\n"
	  "                        -call_tree): a function called from two\n"
	  "                        places is two nodes (DOT, pictures,\n"
	  "                        callgrind)\n",
	  CMD_TO_SET(graph.call_tree, 1) },
	CMD_VIEW_OPTS,
	CMD_PERCENT_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	{ "trim-path", CMD_OPT_TRIM_PATH, required_argument, CMD_OWN,
	  "      --trim-path PREFIXES\n"
	  "                        cut these ':'-separated prefixes from the\n"
	  "                        file names shown (pprof -trim_path)\n",
	  CMD_TO_STRING(graph.trim_path) },
	CMD_OUTPUT_OPT(out_path),
	{ NULL, 0, 0, CMD_OWN,
	  "\n"
	  "What to write (one of):\n" },
	{ "svg", OPT_SVG, no_argument, CMD_OWN,
	  "      --svg             SVG laid out by Graphviz's library, with pan\n"
	  "                        (drag) and zoom (wheel) (default)\n",
	  CMD_TO_MODE(graph.format, PROFCONV_GRAPH_SVG) },
	{ "png", OPT_PNG, no_argument, CMD_OWN,
	  "      --png             PNG image\n",
	  CMD_TO_MODE(graph.format, PROFCONV_GRAPH_PNG) },
	{ "pdf", OPT_PDF, no_argument, CMD_OWN,
	  "      --pdf             PDF document\n",
	  CMD_TO_MODE(graph.format, PROFCONV_GRAPH_PDF) },
	{ "dot", OPT_DOT, no_argument, CMD_OWN,
	  "      --dot             Graphviz DOT text, as go tool pprof -dot\n",
	  CMD_TO_MODE(graph.format, PROFCONV_GRAPH_DOT) },
	{ "callgrind", OPT_CALLGRIND, no_argument, CMD_OWN,
	  "      --callgrind       callgrind's format (KCachegrind,\n"
	  "                        callgrind_annotate), as go tool pprof\n"
	  "                        -callgrind: by address, inlined calls\n"
	  "                        kept, untrimmed\n",
	  CMD_TO_MODE(graph.format, PROFCONV_GRAPH_CALLGRIND) },
	{ NULL, 0, 0, CMD_OWN,
	  "\n"
	  "What to keep, as pprof's options of the same names:\n" },
	{ "nodecount", OPT_NODECOUNT, required_argument, CMD_OWN,
	  "      --nodecount N     at most N nodes, nodelets included (default\n"
	  "                        80; 0: all)\n",
	  CMD_TO_NUMBER(graph.nodecount, 0, INT_MAX) },
	{ "nodefraction", OPT_NODEFRACTION, required_argument, CMD_OWN,
	  "      --nodefraction F  drop nodes under F of the total (default\n"
	  "                        0.005)\n",
	  CMD_TO_REAL(graph.nodefraction, 0, 1) },
	{ "edgefraction", OPT_EDGEFRACTION, required_argument, CMD_OWN,
	  "      --edgefraction F  drop edges under F of the total (default\n"
	  "                        0.001)\n",
	  CMD_TO_REAL(graph.edgefraction, 0, 1) },
	{ "title", OPT_TITLE, required_argument, CMD_OWN,
	  "      --title TEXT      the graph's name (default: the program's)\n",
	  CMD_TO_STRING(graph.title) },
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

/* Returns EXIT_OK to go on, -1 after --help/--version, or an exit status. */
static int
parse_args(int argc, char **argv, struct graph_args *a)
{
	struct cmd_parser p = { opts, usage_text, footer, &a->view, NULL, a };
	int status = cmd_parse_options(&p, argc, argv, NULL, NULL);

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

/* The graph of VIEW[1] (minus VIEW[0]) to FP, as ARG (its graph_args)
 * says; an exit status. */
static int
draw(struct profconv_view *const *view, FILE *fp, void *arg)
{
	const struct graph_args *a = arg;

	return cmd_draw_failed(profconv_graph_write(view[1], view[0], fp,
	    &a->graph), a->out_path, a->in);
}

int
main(int argc, char **argv)
{
	struct graph_args a = { PROFCONV_GRAPH_OPTIONS_INIT, CMD_VIEW_INIT,
		NULL, "-", NULL };
	int status;

	cmd_name = "profgraph";
	a.graph.format = PROFCONV_GRAPH_SVG;
	status = parse_args(argc, argv, &a);
	if (status != EXIT_OK)
		return cmd_close_stdout(status < 0 ? EXIT_OK : status);
	a.in = argv[optind];
	a.view.view.jobs = cmd_jobs();
	status = cmd_draw(&a.view, a.in, a.base_path, a.out_path, draw, &a);
	return cmd_close_stdout(status);
}
