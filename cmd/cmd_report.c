/* SPDX-License-Identifier: MIT */
/* cmd_report.c - "profconv report": every view in one HTML page. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <profconv.h>
#include "cli.h"

static const char usage_text[] =
	"usage: profconv report [options] PROFILE... -o FILE.html\n"
	"\n"
	"Write one self-contained HTML page holding every view: of one\n"
	"PROFILE, its summary, top functions (sortable), flame graph, call\n"
	"graph and the annotated source of its heaviest functions; with\n"
	"--base, the same views of the change and the comparison table; of\n"
	"two or more PROFILEs (snapshots of one program), or of one massif\n"
	"file's detailed snapshots, proftrend's picture and verdicts.\n"
	"Nothing in the page is fetched.\n"
	"\n";

enum {
	OPT_BASE = 'b', OPT_TOP = 'n', OPT_LIST_TOP = 0x2100, OPT_NODECOUNT,
	OPT_MINWIDTH, OPT_TITLE, OPT_SOURCE_PATH, OPT_NODEFRACTION,
	OPT_TREE_NODES
};

struct report_args {
	struct profconv_report_options ro;
	const char *base_path, *out_path;
};
#define CMD_ARGS struct report_args

static const struct cmd_opt opts[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output FILE     write the page to FILE (required)\n",
	  CMD_TO_STRING(out_path) },
	CMD_TYPE_SHOW_OPT(ro.sample_type),
	{ "base", OPT_BASE, required_argument, CMD_OWN,
	  "  -b, --base OLD        show the change from OLD to PROFILE\n",
	  CMD_TO_STRING(base_path) },
	{ "top", OPT_TOP, required_argument, CMD_OWN,
	  "  -n, --top N           rows of the tables (default 50)\n",
	  CMD_TO_NUMBER(ro.top, 1, 100000) },
	{ "list-top", OPT_LIST_TOP, required_argument, CMD_OWN,
	  "      --list-top N      functions whose source is shown (default 5)\n",
	  CMD_TO_NUMBER(ro.list_top, 1, 100000) },
	{ "nodecount", OPT_NODECOUNT, required_argument, CMD_OWN,
	  "      --nodecount N     call graph nodes at most (default 80)\n",
	  CMD_TO_NUMBER(ro.nodecount, 1, 100000) },
	{ "nodefraction", OPT_NODEFRACTION, required_argument, CMD_OWN,
	  "      --nodefraction F  the Explore tab's call tree leaves out nodes\n"
	  "                        at most F of the total (default 0: none)\n",
	  CMD_TO_REAL(ro.node_fraction, 0, 1) },
	{ "tree-nodes", OPT_TREE_NODES, required_argument, CMD_OWN,
	  "      --tree-nodes N    and keeps at most N nodes, the heaviest\n"
	  "                        (default 20000)\n",
	  CMD_TO_NUMBER(ro.tree_nodes, 1, 100000) },
	{ "minwidth", OPT_MINWIDTH, required_argument, CMD_OWN,
	  "      --minwidth W      flame graph frames narrower than W pixels\n"
	  "                        (\"0.1\") or W of the total (\"0.5%\") are\n"
	  "                        left out (default 0.1)\n",
	  CMD_TO_PARSED(ro.minwidth, cmd_parse_minwidth) },
	{ "title", OPT_TITLE, required_argument, CMD_OWN,
	  "      --title TEXT      the page's title (default: profconv report)\n",
	  CMD_TO_STRING(ro.title) },
	{ "source-path", OPT_SOURCE_PATH, required_argument, CMD_OWN,
	  "      --source-path DIRS\n"
	  "                        look for sources under these ':'-separated\n"
	  "                        directories and their parents\n",
	  CMD_TO_STRING(ro.source_path) },
	CMD_TRIM_PATH_OPT(ro.trim_path),
	CMD_SERIES_OPTS,
	CMD_VIEW_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_INPUT_OPTS,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"Tabs, the top table's sort, the flame graph's zoom and search and\n"
	"the call graph's pan and zoom run in the page.  Of one PROFILE, the\n"
	"Explore tab draws its top table (by function, line or file) and\n"
	"flame graph (zoom, search, icicle) from the call tree held in the\n"
	"page, and switches the sample type and focuses or ignores functions\n"
	"without writing the page again; of a series, a click on a snapshot\n"
	"or a verdict's row opens its flame graph there.\n"
	"examples: profconv report heap.pb.gz -o report.html\n"
	"          profconv report --base old.heap new.heap -o diff.html\n"
	"          profconv report prog.*.heap -o series.html\n";

/*
 * Where a series' snapshots go: the page's tree, in this thread, and
 * proftrend's rows, on a thread of their own that takes each snapshot
 * once the tree has it (profconv_trend_add() owns, and may free, the
 * profile), while this thread adds the next one to the tree.
 */
struct series_sink {
	struct profconv_trend *trend;
	struct profconv_report_series *series;
	pthread_t tid;
	bool running;		/* TID adds PROF to the trend */
	struct profconv_profile *prof;
	const char *path;
	int status;		/* of the trend's adds so far */
};

static void *
trend_add_task(void *arg)
{
	struct series_sink *to = arg;

	if (profconv_trend_add(to->trend, to->prof, to->path) < 0)
		to->status = cmd_error("%s: %s", to->path, profconv_errmsg());
	return NULL;
}

/* Wait for the trend's add of the snapshot before; its exit status. */
static int
trend_wait(struct series_sink *to)
{
	if (to->running)
		pthread_join(to->tid, NULL);
	to->running = false;
	return to->status;
}

/* A snapshot to both (cmd_add_snapshots()). */
static int
add_snapshot(void *arg, struct profconv_profile *prof, const char *path)
{
	struct series_sink *to = arg;
	int rc = profconv_report_series_add(to->series, prof, path);

	if (rc < 0) {
		profconv_profile_free(prof);
		(void)trend_wait(to);
		return cmd_error("%s: %s", path, profconv_errmsg());
	}
	if (trend_wait(to) != EXIT_OK) {
		profconv_profile_free(prof);
		return EXIT_FAIL;
	}
	to->prof = prof;
	to->path = path;
	if (pthread_create(&to->tid, NULL, trend_add_task, to) == 0) {
		to->running = true;
		return EXIT_OK;		/* its status at the next wait */
	}
	(void)trend_add_task(to);	/* here, then */
	return to->status;
}

/* Snapshots read ahead while the one before is added, as proftrend. */
#define DEPTH 2

/*
 * The page of a series: the snapshots PATHS[0..N-1], or when N is 1, the
 * detailed snapshots of one massif file, as proftrend takes them; an exit
 * status, or -1 when the one file is no massif series (nothing written).
 * The rows are proftrend's for the same options TO and VIEW: the same
 * suppressions, filters and threads.
 */
static int
write_series(struct cmd_view *view, struct profconv_trend_options *to,
    char **paths, int n, struct profconv_report_options *ro,
    struct cmd_output *out, const char *out_path)
{
	struct profconv_trend *trend = NULL;
	struct profconv_report_series *series = NULL;
	struct series_sink sink;
	int rc, status = EXIT_OK;

	cmd_series_view(view, to);
	to->sample_type = ro->sample_type;
	/* Per thread, the Explore tab's tree too: a root frame per thread,
	 * the one proftrend --by-thread puts at the root of its rows. */
	if (to->by_thread)
		view->view.split_threads = 1;
	if (profconv_trend_new(&trend, to) < 0 ||
	    profconv_report_series_new(&series, ro) < 0) {
		profconv_trend_free(trend);
		return cmd_error("%s", profconv_errmsg());
	}
	ro->series = series;
	if (n == 1) {
		status = cmd_add_massif_series(view, trend, series, paths[0]);
		if (status == -1) {
			profconv_trend_free(trend);
			profconv_report_series_free(series);
			ro->series = NULL;
			/* One profile: no leak report. */
			view->view.default_suppressions = 0;
			return -1;
		}
	}
	sink = (struct series_sink){ .trend = trend, .series = series,
	    .status = EXIT_OK };
	if (n > 1) {
		status = cmd_add_snapshots(view, paths, n, DEPTH, add_snapshot,
		    &sink);
		if (trend_wait(&sink) != EXIT_OK)
			status = EXIT_FAIL;
	}
	if (status == EXIT_OK && profconv_trend_run(trend) < 0)
		status = cmd_error("cannot follow the snapshots: %s",
		    profconv_errmsg());
	if (status == EXIT_OK)
		status = cmd_output_open(out, out_path);
	if (status == EXIT_OK) {
		rc = profconv_report_write_trend(trend, out->fp, ro);
		if (rc == PROFCONV_EIO)
			status = cmd_write_failed(out_path, rc, errno, paths[0]);
		else if (rc < 0)
			status = cmd_error_lib(paths[0]);
		status = cmd_output_end(out, status);
	}
	profconv_trend_free(trend);
	profconv_report_series_free(series);
	ro->series = NULL;
	return status;
}

int
cmd_report(int argc, char **argv)
{
	struct report_args a = { PROFCONV_REPORT_OPTIONS_INIT, NULL, NULL };
	struct profconv_report_options *ro = &a.ro;
	struct profconv_trend_options to = PROFCONV_TREND_OPTIONS_INIT;
	struct cmd_view view = CMD_VIEW_INIT;
	struct cmd_parser parser = { opts, usage_text, footer, &view, NULL,
		&a };
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	const char *base_path, *out_path, *in;
	int c, rc, status, i;

	/* --by-thread is the one option the table does not bind. */
	while ((c = cmd_getopt(&parser, argc, argv)) > 0)
		cmd_series_option(c, &to);
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	base_path = a.base_path;
	out_path = a.out_path;
	if (argc - optind < 1)
		return cmd_usage_error("expected PROFILE");
	if (out_path == NULL)
		return cmd_usage_error("-o FILE.html is required");
	if (base_path != NULL && argc - optind != 1)
		return cmd_usage_error("--base takes one PROFILE");
	if (to.by_thread && argc - optind < 2)
		return cmd_usage_error("--by-thread splits the rows of a "
		    "series: give two PROFILEs or more");
	view.view.jobs = cmd_jobs();
	ro->view = &view.view;
	if (view.debuginfod)
		ro->find_source = profconv_debuginfod_find_source;
	if (argc - optind >= 2)
		return write_series(&view, &to, argv + optind, argc - optind,
		    ro, &out, out_path);
	/* One massif file is a series of its detailed snapshots, as
	 * proftrend takes it, unless --snapshot picks one. */
	if (base_path == NULL && !cmd_snapshot_given()) {
		status = write_series(&view, &to, argv + optind, 1, ro,
		    &out, out_path);
		if (status != -1)
			return status;
	}
	in = argv[optind];
	ro->cur_name = in;
	ro->base_name = base_path;
	status = cmd_load_pair(&view, in, base_path, prof);
	if (status == EXIT_OK)
		cmd_warn_unmatched_pair(&view, prof);
	if (status == EXIT_OK)
		status = cmd_output_open(&out, out_path);
	if (status == EXIT_OK) {
		/* The report is the profiles' last use: their stacks go
		 * once its last view has read them. */
		for (i = 0; i < 2; i++)
			if (prof[i] != NULL)
				profconv_profile_set_stacks_disposable(prof[i]);
		rc = profconv_report_write(prof[1], prof[0], out.fp, ro);
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
