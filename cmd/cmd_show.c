/* SPDX-License-Identifier: MIT */
/* cmd_show.c - "profconv show": print any readable profile as text. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"

enum { CMD_OPT_SIZES = 0x2000 };

static const char usage_text[] =
	"usage: profconv show [options] FILE\n"
	"\n"
	"Print a profile in any format profconv reads as stable, diffable\n"
	"text: header, samples with values, labels and stacks (location ids,\n"
	"leaf first), locations with their lines, functions and mappings.\n"
	"\n";

enum { OPT_SORT = 256, OPT_TRACES, OPT_TAGS, OPT_UNIT, OPT_TREE, OPT_PEEK,
	OPT_NODECOUNT, OPT_NODEFRACTION, OPT_EDGEFRACTION, OPT_COMMENTS,
	OPT_TEXT, OPT_TOPPROTO };

struct show_args {
	struct profconv_print_options print;
	const char *out_path;
	bool sizes, topproto;
	/* --nodecount, and --nodefraction or --edgefraction, when given */
	const char *nodecount, *fraction;
};
#define CMD_ARGS struct show_args

static const struct cmd_choice sort_orders[] = {
	{ "cum", 1 }, { "flat", 0 }, { NULL, 0 }
};

static const struct cmd_opt opts[] = {
	{ "summary", 's', no_argument, CMD_OWN,
	  "  -s, --summary         print totals per sample type, then the top\n"
	  "                        stacks and functions (the stacks profflame\n"
	  "                        prints and the names profdiff shows); an\n"
	  "                        unsymbolized profile is symbolized first\n",
	  CMD_TO_SET(print.summary, 1) },
	{ "top", 'n', required_argument, CMD_OWN,
	  "  -n, --top N           how many stacks and functions --summary lists\n"
	  "                        (default 10)\n",
	  CMD_TO_NUMBER(print.top, 0, 1000000) },
	{ "type", 't', required_argument, CMD_OWN,
	  "  -t, --type TYPE       sample type --summary ranks by (default: the\n"
	  "                        profile's default)\n",
	  CMD_TO_STRING(print.sample_type) },
	{ "sizes", CMD_OPT_SIZES, no_argument, CMD_OWN,
	  "      --sizes           a log2 histogram of each stack's average block\n"
	  "                        size (bytes / objects of -t TYPE, default\n"
	  "                        inuse_space), weighted by objects and bytes\n",
	  CMD_TO_SET(sizes, true) },
	{ "sort", OPT_SORT, required_argument, CMD_OWN,
	  "      --sort ORDER      rank --summary's functions by flat, their\n"
	  "                        own value (default; pprof -top), or cum,\n"
	  "                        their cumulative one (pprof -top -cum)\n",
	  CMD_TO_CHOICE(print.by_cum, sort_orders, "cum or flat") },
	{ "traces", OPT_TRACES, no_argument, CMD_OWN,
	  "      --traces          every sample's labels and stack, leaf first,\n"
	  "                        with its value of -t TYPE (pprof -traces)\n",
	  CMD_TO_SET(print.traces, 1) },
	{ "tags", OPT_TAGS, no_argument, CMD_OWN,
	  "      --tags            each label key's values with their totals of\n"
	  "                        -t TYPE and shares (pprof -tags)\n",
	  CMD_TO_SET(print.tags, 1) },
	{ "comments", OPT_COMMENTS, no_argument, CMD_OWN,
	  "      --comments        the profile's comments, one a line (pprof\n"
	  "                        -comments)\n",
	  CMD_TO_SET(print.comments, 1) },
	{ "tree", OPT_TREE, no_argument, CMD_OWN,
	  "      --tree            each function of the call graph of -t TYPE\n"
	  "                        with its callers above and its callees below\n"
	  "                        (pprof -tree; by flat value, --sort cum: by\n"
	  "                        cum)\n",
	  CMD_TO_SET(print.tree, 1) },
	{ "text", OPT_TEXT, no_argument, CMD_OWN,
	  "      --text            a row per function of the call graph of -t\n"
	  "                        TYPE: flat, flat%, sum%, cum, cum% (pprof\n"
	  "                        -text and -top; by flat value, --sort cum:\n"
	  "                        by cum)\n",
	  CMD_TO_SET(print.text, 1) },
	{ "topproto", OPT_TOPPROTO, no_argument, CMD_OWN,
	  "      --topproto        --text's rows as a pprof profile (sample\n"
	  "                        types cum and flat; pprof -topproto), to -o\n"
	  "                        FILE or a pipe\n",
	  CMD_TO_SET(topproto, true) },
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output FILE     --topproto: write to FILE instead of\n"
	  "                        standard output\n",
	  CMD_TO_STRING(out_path) },
	{ "peek", OPT_PEEK, required_argument, CMD_OWN,
	  "      --peek RE         --tree of the functions matching RE only, the\n"
	  "                        graph untrimmed (pprof -peek)\n",
	  CMD_TO_STRING(print.peek) },
	{ "nodecount", OPT_NODECOUNT, required_argument, CMD_OWN,
	  "      --nodecount N     --tree, --text: at most N functions (--tree's\n"
	  "                        default 80, --text's 0: all)\n",
	  CMD_TO_NUMBER(print.nodecount, 0, INT_MAX),
	  CMD_NOTE(nodecount) },
	{ "nodefraction", OPT_NODEFRACTION, required_argument, CMD_OWN,
	  "      --nodefraction F  --tree, --text: drop functions under F of the\n"
	  "                        total (default 0.005)\n",
	  CMD_TO_REAL(print.nodefraction, 0, 1),
	  CMD_NOTE(fraction) },
	{ "edgefraction", OPT_EDGEFRACTION, required_argument, CMD_OWN,
	  "      --edgefraction F  --tree, --text: drop calls under F of the\n"
	  "                        total (default 0.001)\n",
	  CMD_TO_REAL(print.edgefraction, 0, 1),
	  CMD_NOTE(fraction) },
	{ "unit", OPT_UNIT, required_argument, CMD_OWN,
	  "      --unit UNIT       --traces and --tags: show values and numeric\n"
	  "                        labels in UNIT (pprof -unit; default minimum)\n",
	  CMD_TO_STRING(print.unit) },
	CMD_FUNCTIONS_OPT(
	  "      --functions       --summary: a row per function (default)\n"),
	CMD_LINES_OPT(
	  "      --lines           --summary: per function, file and line\n"),
	CMD_ADDRESSES_OPT(
	  "      --addresses       --summary: per function and address;\n"
	  "                        --tree: per address, function and line\n"),
	CMD_FILES_OPT(
	  "      --files           --summary: per source file (pprof -files)\n"),
	CMD_FILEFUNCTIONS_OPT(
	  "      --filefunctions   --summary: per function and source file\n"),
	CMD_VIEW_OPTS,
	CMD_PERCENT_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_INPUT_OPTS,
	CMD_ADD_COMMENT_OPT,
	CMD_HELP_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"FILE may be '-' for standard input.\n"
	"example: profconv show --summary heap.pb.gz\n";

/* --sizes: the histogram of the view of PROF, read from PATH. */
static int
show_sizes(const struct profconv_profile *prof, const struct cmd_view *v,
    const char *type, const char *path)
{
	struct profconv_view *view = NULL;
	int rc;

	rc = profconv_view_new(&view, prof, &v->view);
	if (rc < 0)
		return cmd_error_lib(path);
	rc = profconv_sizes_print(view, stdout, type);
	profconv_view_free(view);
	if (rc == PROFCONV_ENOTFOUND)
		return cmd_error_lib(path);
	return rc < 0 ? cmd_write_failed("-", rc, errno, path) : EXIT_OK;
}

/* --topproto: the rows of --text as a profile, written to OUT_PATH. */
static int
show_topproto(const struct profconv_profile *prof,
    const struct profconv_print_options *print, const char *path,
    const char *out_path)
{
	struct profconv_profile *top = NULL;
	int status;

	if (profconv_profile_top(&top, prof, print) < 0)
		return cmd_error_lib(path);
	status = cmd_write_profile(top, out_path, NULL);
	profconv_profile_free(top);
	return status;
}

int
cmd_show(int argc, char **argv)
{
	struct show_args a = { PROFCONV_PRINT_OPTIONS_INIT, NULL, false,
		false, NULL, NULL };
	struct profconv_print_options *print = &a.print;
	struct cmd_view view = CMD_VIEW_INIT;
	struct cmd_parser parser = { opts, usage_text, footer, &view, NULL,
		&a };
	struct profconv_profile *prof = NULL;
	const char *out_path;
	bool sizes, trims, topproto;
	bool tree;
	int c, status;

	/* Every option is bound: none comes back. */
	c = cmd_getopt(&parser, argc, argv);
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	out_path = a.out_path;
	sizes = a.sizes;
	topproto = a.topproto;
	trims = a.nodecount != NULL || a.fraction != NULL;
	if (cmd_program_given("expected one FILE", argc - optind, argv + optind) >= 0)
		return EXIT_USAGE;
	if (argc - optind != 1)
		return cmd_usage_error("expected one FILE");
	view.view.jobs = cmd_jobs();
	tree = print->tree || print->peek != NULL || print->text || topproto;
	/* The dump shows the file as it is; the summary shows what the
	 * other commands show, so it symbolizes like them. */
	if (!print->summary && !sizes && !print->traces && !print->tags &&
	    !tree)
		view.no_symbolize = true;
	if (sizes + print->summary + print->traces + print->tags +
	    print->comments + print->text + topproto +
	    (print->tree || print->peek) > 1)
		return cmd_usage_error("--sizes, --summary, --traces, --tags, "
		    "--comments, --text, --topproto and --tree or --peek are "
		    "reports of their own: give one");
	if (trims && !print->tree && !print->text && !topproto)
		return cmd_usage_error("--nodecount, --nodefraction and "
		    "--edgefraction need --tree, --text or --topproto");
	/* pprof's -text and -topproto show every node unless told
	 * otherwise. */
	if ((print->text || topproto) && a.nodecount == NULL)
		print->nodecount = 0;
	if (out_path != NULL && !topproto)
		return cmd_usage_error("-o needs --topproto");
	if (topproto && out_path == NULL) {
		if (cmd_refuse_terminal() != EXIT_OK)
			return EXIT_USAGE;
		out_path = "-";
	}
	if (print->unit != NULL && !print->traces && !print->tags)
		return cmd_usage_error("--unit needs --traces or --tags");
	print->view = &view.view;
	status = cmd_load_profile(&view, argv[optind], &prof);
	/* The dump shows the whole profile: only views filter. */
	if (status == EXIT_OK && (sizes || print->summary || print->traces ||
	    print->tags || tree))
		cmd_warn_unmatched(&view, cmd_unmatched(&view, prof));
	if (status == EXIT_OK && sizes) {
		status = show_sizes(prof, &view, print->sample_type,
		    argv[optind]);
	} else if (status == EXIT_OK && topproto) {
		status = show_topproto(prof, print, argv[optind], out_path);
	} else if (status == EXIT_OK) {
		int rc;

		/* The summary and the tree make one view, the last use of
		 * the profile's stacks: they go once it has read them. */
		if (print->summary || tree)
			profconv_profile_set_stacks_disposable(prof);
		rc = profconv_profile_print(prof, stdout, print);

		if (rc == PROFCONV_ENOTFOUND || rc == PROFCONV_EINVAL)
			status = cmd_error_lib(argv[optind]);
		else if (rc < 0)
			status = cmd_write_failed("-", rc, errno, argv[optind]);
	}
	profconv_profile_free(prof);
	return status;
}
