/* SPDX-License-Identifier: MIT */
/* proftrend.c - leak suspects across a series of snapshots of one program. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"

/* As profdiff: 0 nothing found, 1 suspects found, 2 trouble. */
enum { TREND_CLEAN = 0, TREND_SUSPECTS = 1, TREND_TROUBLE = 2 };

static const char usage_text[] =
	"usage: proftrend [options] SNAPSHOT SNAPSHOT...\n"
	"       proftrend [options] MASSIF-FILE\n"
	"\n"
	"Follow every function (line, stack) through two or more snapshots of\n"
	"one process (heap dumps in any format profconv reads, or the detailed\n"
	"snapshots of one Valgrind massif file) and give every row a verdict:\n"
	"leak, saturating, periodic, transient, freed-at-exit or stable.  The\n"
	"leaks are the suspects.  Snapshots are taken in natural order of\n"
	"their names (x.m2 before x.m10), or by collection time when every one\n"
	"has a time.\n"
	"\n";

enum {
	OPT_JSON = 256, OPT_BYTES, OPT_NO_SORT, OPT_MIN_GREW, OPT_MIN_GROWTH,
	OPT_MIN_SHARE, OPT_SVG, OPT_TITLE, OPT_SNAPSHOTS, OPT_WIDE
};

struct trend_args {
	struct profconv_trend_options trend;
	struct cmd_view view;
	struct profconv_write_options write;
	const char *out_path;
	const char *title;		/* --title */
	size_t top;
	bool json, exact, quiet, svg;
};

#define CMD_ARGS struct trend_args

static const struct cmd_opt opts[] = {
	CMD_BY_OPT(trend.by),
	CMD_SERIES_OPTS,
	{ "type", 't', required_argument, CMD_OWN,
	  "  -t, --type TYPE       sample type to follow (default inuse_space,\n"
	  "                        else space, else the default type)\n",
	  CMD_TO_STRING(trend.sample_type) },
	{ "json", OPT_JSON, no_argument, CMD_OWN,
	  "      --json            print the analysis as JSON, not a table\n",
	  CMD_TO_SET(json, true) },
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output FILE     write the last snapshot minus the first,\n"
	  "                        suspect rows only, as a pprof profile\n",
	  CMD_TO_STRING(out_path) },
	{ "svg", OPT_SVG, no_argument, CMD_OWN,
	  "      --svg             draw the series as one self-contained SVG:\n"
	  "                        to -o FILE (then not the profile), else to\n"
	  "                        standard output instead of the table\n",
	  CMD_TO_SET(svg, true) },
	{ "title", OPT_TITLE, required_argument, CMD_OWN,
	  "      --title TEXT      the SVG's heading (default \"Memory over\n"
	  "                        time\")\n",
	  CMD_TO_STRING(title) },
	{ "top", 'n', required_argument, CMD_OWN,
	  "  -n, --top N           print at most N rows; --svg: draw N rows\n"
	  "                        (1 to 40, default 19) and \"other\"\n",
	  CMD_TO_NUMBER(top, 0, 100000000) },
	{ "snapshots", OPT_SNAPSHOTS, no_argument, CMD_OWN,
	  "      --snapshots       after the table, a line per snapshot (not\n"
	  "                        the first, peak, high-water and last only)\n",
	  CMD_TO_SET(trend.list_snapshots, 1) },
	{ "wide", OPT_WIDE, no_argument, CMD_OWN,
	  "      --wide            --by stack: whole stacks, root first, last\n"
	  "                        (default: leaf first, 60 characters, first)\n",
	  CMD_TO_SET(trend.wide, 1) },
	{ "bytes", OPT_BYTES, no_argument, CMD_OWN,
	  "      --bytes           exact numbers instead of KiB/MiB/GiB\n",
	  CMD_TO_SET(exact, true) },
	{ "no-sort", OPT_NO_SORT, no_argument, CMD_OWN,
	  "      --no-sort         take the snapshots in the order given\n",
	  CMD_TO_SET(trend.keep_order, 1) },
	{ "min-grew", OPT_MIN_GREW, required_argument, CMD_OWN,
	  "      --min-grew FRAC   a leak went up in at least FRAC of the\n"
	  "                        intervals in which it changed (default 0: off)\n",
	  CMD_TO_REAL(trend.min_grew_fraction, 0, 1) },
	{ "min-growth", OPT_MIN_GROWTH, required_argument, CMD_OWN,
	  "      --min-growth SIZE the noise floor: changes below SIZE bytes\n"
	  "                        (suffix K, M or G; default 4K, or the\n"
	  "                        sampling period when larger) are noise\n" },
	{ "min-share", OPT_MIN_SHARE, required_argument, CMD_OWN,
	  "      --min-share FRAC  deprecated, ignored: size ranks rows, it\n"
	  "                        never hides a leak\n" },
	/* Not the input group's --quiet: this one prints nothing at all. */
	{ "quiet", 'q', no_argument, CMD_OWN,
	  "  -q, --quiet           print nothing; only the exit status\n" },
	CMD_VIEW_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_LEVEL_OPTS,
	CMD_MAX_INPUT_OPT,
	CMD_JOBS_OPT,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"Exit status: 0 no suspects, 1 suspects found, 2 trouble.\n"
	"examples: proftrend prog.*.heap\n"
	"          proftrend --svg -o trend.svg prog.*.heap\n";

/* --min-growth: a byte count, as --max-input's, that fits in an int64_t. */
static bool
parse_growth(const char *option, const char *s, int64_t *out)
{
	uint64_t v;

	if (!cmd_parse_size(s, 0, INT64_MAX, &v))
		return cmd_usage_error("invalid %s value '%s' (bytes, with "
		    "an optional K, M or G)", option, s), false;
	*out = (int64_t)v;
	return true;
}

/* One option the table does not bind; false after a usage error. */
static bool
parse_option(int c, struct trend_args *a)
{
	if (cmd_series_option(c, &a->trend))
		return true;
	switch (c) {
	case 'q':
		a->quiet = true;
		cmd_no_warnings = true;
		return true;
	case OPT_MIN_GROWTH:
		return parse_growth("--min-growth", optarg,
		    &a->trend.min_growth);
	case OPT_MIN_SHARE:
		if (!cmd_parse_double("--min-share", optarg, 0, 1,
		    &a->trend.min_growth_share))
			return false;
		cmd_warn("--min-share is deprecated and ignored: a leak is a "
		    "leak whatever its share of the growth");
		return true;
	}
	return true;
}

/*
 * Whether the user's locale writes UTF-8, for the table's sparklines;
 * LC_CTYPE is put back to "C" after asking, so nothing else changes.
 */
static int
utf8_locale(void)
{
	const char *cs;
	int yes;

	if (setlocale(LC_CTYPE, "") == NULL)
		return 0;
	cs = nl_langinfo(CODESET);
	yes = cs != NULL && (strcmp(cs, "UTF-8") == 0 ||
	    strcmp(cs, "utf8") == 0);
	setlocale(LC_CTYPE, "C");
	return yes;
}

/* Returns TREND_CLEAN to go on, -1 after --help/--version, or 2. */
static int
parse_args(int argc, char **argv, struct trend_args *a)
{
	struct cmd_parser p = { opts, usage_text, footer, &a->view, &a->write,
		a };
	int c;

	while ((c = cmd_getopt(&p, argc, argv)) > 0)
		if (!parse_option(c, a))
			return TREND_TROUBLE;
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? -1 : TREND_TROUBLE;
	if (argc - optind < 1) {
		cmd_usage_error("expected two SNAPSHOTs or more, or a "
		    "massif file with two detailed snapshots");
		return TREND_TROUBLE;
	}
	if (a->title != NULL && !a->svg)
		return cmd_usage_error("--title names the SVG: add --svg");
	if (a->svg && a->json && a->out_path == NULL)
		return cmd_usage_error("--svg without -o and --json both "
		    "write to standard output: give the SVG a file with -o");
	if (a->svg && a->write.level != -1)
		return cmd_usage_error("--level and --no-compress are for the "
		    "pprof output, which --svg replaces");
	if (a->svg && a->top > 40)
		return cmd_usage_error("--svg draws at most 40 rows of their "
		    "own, not %zu (--top)", a->top);
	a->view.view.jobs = cmd_jobs();
	a->trend.unicode = utf8_locale();
	cmd_series_view(&a->view, &a->trend);
	return TREND_CLEAN;
}

/*
 * Reading and symbolizing are most of the time: reader threads read
 * ahead while this one symbolizes.  Every snapshot goes through the one
 * symbolizer cmd_symbolize_profile() keeps, so each binary of the
 * program is opened and its debug info decoded once for the series.
 */
#define DEPTH 2

/* A snapshot to the trend (cmd_add_snapshots()). */
static int
add_snapshot(void *arg, struct profconv_profile *prof, const char *path)
{
	if (profconv_trend_add(arg, prof, path) < 0)
		return cmd_error("%s", profconv_errmsg());
	return EXIT_OK;
}

/* The SVG to -o FILE, or standard output; an exit status. */
static int
write_svg(const struct trend_args *a, const struct profconv_trend *trend)
{
	struct profconv_trend_svg_options so =
	    PROFCONV_TREND_SVG_OPTIONS_INIT;
	const char *path = a->out_path != NULL ? a->out_path : "-";
	struct cmd_output out = { 0 };
	int rc, status;

	so.title = a->title;
	so.top = a->top;
	status = cmd_output_open(&out, path);
	if (status != EXIT_OK)
		return status;
	rc = profconv_trend_write_svg(trend, out.fp, &so);
	if (rc < 0) {
		cmd_output_abort(&out);
		if (rc == PROFCONV_EIO)
			return cmd_write_failed(path, rc, errno, NULL);
		return cmd_error("cannot draw '%s': %s", path,
		    profconv_errmsg());
	}
	return cmd_output_commit(&out);
}

/* The table or JSON, and the suspects' profile or the SVG. */
static int
report(const struct trend_args *a, const struct profconv_trend *trend)
{
	struct profconv_profile *suspects = NULL;
	int rc = 0, status;

	/* --svg without -o: the picture instead of the table. */
	if (a->svg && a->out_path == NULL)
		return a->quiet ? EXIT_OK : write_svg(a, trend);
	if (a->json && !a->quiet)
		rc = profconv_trend_write_json(trend, stdout);
	else if (!a->quiet)
		rc = profconv_trend_print(trend, stdout, a->top, a->exact);
	if (rc < 0 && rc != PROFCONV_EIO)
		return cmd_error("%s", profconv_errmsg());
	/* A reader gone away (EPIPE) is no trouble. */
	if (rc < 0 && cmd_write_failed("-", rc, errno, NULL) != EXIT_OK)
		return EXIT_FAIL;
	if (a->out_path == NULL)
		return EXIT_OK;
	if (a->svg)
		return write_svg(a, trend);
	if (profconv_trend_suspects(trend, &suspects) < 0)
		return cmd_error("cannot make '%s': %s", a->out_path,
		    profconv_errmsg());
	status = cmd_write_profile(suspects, a->out_path, &a->write);
	profconv_profile_free(suspects);
	return status;
}

int
main(int argc, char **argv)
{
	struct trend_args a = { PROFCONV_TREND_OPTIONS_INIT, CMD_VIEW_INIT,
		PROFCONV_WRITE_OPTIONS_INIT, NULL, NULL, 0, false, false, false,
		false };
	struct profconv_trend *trend = NULL;
	int status;

	cmd_name = "proftrend";
	a.trend.view = &a.view.view;
	status = parse_args(argc, argv, &a);
	if (status < 0)		/* --help, --version */
		return cmd_close_stdout(EXIT_OK) != EXIT_OK ? TREND_TROUBLE : 0;
	if (status != TREND_CLEAN)
		return status;
	status = TREND_TROUBLE;
	cmd_series_warnings(true);
	if (profconv_trend_new(&trend, &a.trend) < 0) {
		cmd_error("%s", profconv_errmsg());
		goto out;
	}
	/* One massif file: its detailed snapshots are the series. */
	if (argc - optind == 1) {
		status = cmd_add_massif_series(&a.view, trend, NULL, argv[optind]);
		if (status == -1)
			cmd_usage_error("expected two SNAPSHOTs or more, or a "
			    "massif file with two detailed snapshots");
		if (status != EXIT_OK) {
			status = TREND_TROUBLE;
			goto out;
		}
	}
	if (status == -1 || argc - optind != 1) {
		status = TREND_TROUBLE;
		if (cmd_add_snapshots(&a.view, argv + optind, argc - optind,
		    DEPTH, add_snapshot, trend) != EXIT_OK)
			goto out;
	}
	cmd_series_warnings_flush();
	status = TREND_TROUBLE;
	if (profconv_trend_run(trend) < 0) {
		cmd_error("cannot follow the snapshots: %s", profconv_errmsg());
		goto out;
	}
	if (report(&a, trend) != EXIT_OK)
		goto out;
	status = profconv_trend_suspect_count(trend) != 0 ? TREND_SUSPECTS :
	    TREND_CLEAN;
out:
	cmd_series_warnings_flush();
	profconv_trend_free(trend);
	/* A failed write of the table is trouble, not "suspects". */
	return cmd_close_stdout(EXIT_OK) != EXIT_OK ? TREND_TROUBLE : status;
}
