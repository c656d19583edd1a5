/* SPDX-License-Identifier: MIT */
/* profdiff.c - compare two profiles: a table, a delta profile, a leak view. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"

/* diff(1)'s contract: 0 same, 1 different, 2 trouble. */
enum { DIFF_SAME = 0, DIFF_DIFFERENT = 1, DIFF_TROUBLE = 2 };

static const char usage_text[] =
	"usage: profdiff [options] BASE CUR\n"
	"       profdiff [options] --still-at LATER BASE CUR\n"
	"\n"
	"Compare two profiles (any formats profconv reads): print a table of\n"
	"what changed from BASE to CUR, per function, line or stack.  Heap\n"
	"profiles get New, Freed, Delta objs, Alloc bytes, Freed bytes and\n"
	"Delta bytes; other profiles get base, cur and delta per sample type.\n"
	"The table is made from the delta profile -o writes, with the names\n"
	"and stacks profconv show --summary and profflame show.\n"
	"\n";

enum { OPT_BYTES = 256, OPT_SORT, OPT_JSON, OPT_DIFF_BASE,
	OPT_STILL_AT, OPT_WIDE };

struct diff_args {
	struct profconv_diff_options diff;
	struct profconv_diff_print_options table;
	struct cmd_view view;
	const char *out_path;
	bool normalize, quiet, json;
	bool diff_base;		/* -o in pprof's -diff_base form */
	const char *still_at;	/* --still-at LATER */
};

#define CMD_ARGS struct diff_args

static const struct cmd_opt opts[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output DELTA    also write CUR - BASE as a pprof profile\n",
	  CMD_TO_STRING(out_path) },
	{ "diff-base", OPT_DIFF_BASE, no_argument, CMD_OWN,
	  "      --diff-base       write DELTA as go tool pprof -diff_base makes it:\n"
	  "                        BASE negated and labelled pprof::base=true\n"
	  "                        (percentages of BASE, pprof's diff view)\n",
	  CMD_TO_SET(diff_base, true) },
	{ "leaks", 'L', no_argument, CMD_OWN,
	  "  -L, --leaks           only what grew: stacks whose in-use objects or\n"
	  "                        bytes went up (in the table and in DELTA)\n",
	  CMD_TO_SET(diff.leaks, 1) },
	{ "normalize", 'N', no_argument, CMD_OWN,
	  "  -N, --normalize       scale BASE to CUR's totals first; with\n"
	  "                        --diff-base, CUR to BASE's (as pprof does)\n",
	  CMD_TO_SET(normalize, true) },
	CMD_BY_OPT(diff.by),
	{ "sort", OPT_SORT, required_argument, CMD_OWN,
	  "      --sort COLUMN     new, freed, delta-objects, alloc-bytes,\n"
	  "                        freed-bytes, delta-bytes (default), name, or a\n"
	  "                        sample type name for other profiles\n",
	  CMD_TO_STRING(table.sort) },
	{ "top", 'n', required_argument, CMD_OWN,
	  "  -n, --top N           print at most N rows\n",
	  CMD_TO_NUMBER(table.top, 0, 100000000) },
	{ "bytes", OPT_BYTES, no_argument, CMD_OWN,
	  "      --bytes           exact numbers instead of KiB/MiB/GiB\n",
	  CMD_TO_SET(table.exact, 1) },
	{ "wide", OPT_WIDE, no_argument, CMD_OWN,
	  "      --wide            --by stack: whole stacks, root first, last\n"
	  "                        (default: leaf first, 60 characters, first)\n",
	  CMD_TO_SET(table.wide, 1) },
	{ "json", OPT_JSON, no_argument, CMD_OWN,
	  "      --json            print the comparison as JSON instead\n",
	  CMD_TO_SET(json, true) },
	{ "still-at", OPT_STILL_AT, required_argument, CMD_OWN,
	  "      --still-at LATER  per row, what grew from BASE to CUR and is\n"
	  "                        still held in the later dump LATER\n",
	  CMD_TO_STRING(still_at) },
	/* Not the input group's --quiet: this one prints no table either. */
	{ "quiet", 'q', no_argument, CMD_OWN,
	  "  -q, --quiet           print no table (nor progress); only the exit\n"
	  "                        status\n" },
	CMD_VIEW_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_MAX_INPUT_OPT,
	CMD_JOBS_OPT,
	CMD_SNAPSHOT_OPT,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"Exit status: 0 no differences, 1 differences, 2 trouble.\n"
	"example: profdiff --leaks prog.0001.heap prog.0009.heap\n";

/* -q, the one option of profdiff's own the table does not bind: it
 * quiets the progress too. */
static bool
own_option(void *args, int c)
{
	struct diff_args *a = args;

	a->quiet = true;
	cmd_quiet = true;
	return true;
}

/* DIFF_SAME to go on, -1 after --help/--version, or DIFF_TROUBLE. */
static int
parse_args(int argc, char **argv, struct diff_args *a)
{
	struct cmd_parser p = { opts, usage_text, footer, &a->view, NULL, a };
	int status = cmd_parse_options(&p, argc, argv, own_option, a);

	if (status != EXIT_OK)
		return status < 0 ? -1 : DIFF_TROUBLE;
	if (argc - optind != 2) {
		cmd_usage_error("expected BASE and CUR");
		return DIFF_TROUBLE;
	}
	if (a->diff_base && (a->out_path == NULL || a->diff.leaks)) {
		cmd_usage_error(a->out_path == NULL ? "--diff-base needs -o" :
		    "--diff-base writes both profiles whole: not with --leaks");
		return DIFF_TROUBLE;
	}
	if (a->still_at != NULL && (a->out_path != NULL || a->diff.leaks ||
	    a->normalize || a->table.sort != NULL)) {
		cmd_usage_error("--still-at takes none of -o, --leaks, "
		    "--normalize and --sort");
		return DIFF_TROUBLE;
	}
	a->view.view.jobs = cmd_jobs();
	/* The leak report hides the runtime's one-time allocations. */
	a->view.view.default_suppressions = a->diff.leaks &&
	    !a->view.no_default_suppressions;
	return DIFF_SAME;
}

/*
 * --still-at LATER: BASE, CUR and LATER, made comparable, and per row
 * what grew from BASE to CUR and is still held at LATER.  Exit 1 when
 * something is, 0 when nothing, 2 on trouble.
 */
static int
still_at(struct diff_args *a, char *base, char *cur)
{
	char *paths[3] = { base, cur, (char *)a->still_at };
	struct profconv_profile *in[3] = { NULL, NULL, NULL };
	struct profconv_retention *ret = NULL;
	unsigned unmatched = ~0u;	/* the filters that matched nowhere */
	int i, rc, status = DIFF_TROUBLE;

	for (i = 0; i < 3; i++)
		if (cmd_load_profile(&a->view, paths[i], &in[i]) != EXIT_OK)
			goto out;
	for (i = 0; i < 3 && unmatched != 0; i++)
		unmatched &= cmd_unmatched(&a->view, in[i]);
	cmd_warn_unmatched(&a->view, unmatched);
	if (profconv_profiles_compatibilize(in, 3) < 0 ||
	    profconv_retention_new(&ret, in[0], in[1], in[2], &a->diff) < 0) {
		cmd_error("cannot compare '%s', '%s' and '%s': %s", base, cur,
		    a->still_at, profconv_errmsg());
		goto out;
	}
	if (!a->quiet) {
		rc = a->json ? profconv_retention_write_json(ret, stdout,
		    &a->table) : profconv_retention_print(ret, stdout,
		    &a->table);
		if (rc < 0 && rc != PROFCONV_EIO) {
			cmd_error("%s", profconv_errmsg());
			goto out;
		}
		if (rc < 0 && cmd_write_failed("-", rc, errno, NULL) != EXIT_OK)
			goto out;
	}
	status = profconv_retention_held(ret) != 0 ? DIFF_DIFFERENT :
	    DIFF_SAME;
out:
	profconv_retention_free(ret);
	for (i = 0; i < 3; i++)
		profconv_profile_free(in[i]);
	return cmd_close_stdout(EXIT_OK) != EXIT_OK ? DIFF_TROUBLE : status;
}

int
main(int argc, char **argv)
{
	struct diff_args a = { PROFCONV_DIFF_OPTIONS_INIT,
		PROFCONV_DIFF_PRINT_OPTIONS_INIT, CMD_VIEW_INIT, NULL, false,
		false, false, false, NULL };
	struct profconv_profile *in[2] = { NULL, NULL };
	struct profconv_diff *diff = NULL;
	struct profconv_profile *pprof_diff = NULL;
	const struct profconv_profile *delta;
	int i, rc, status;

	cmd_name = "profdiff";
	status = parse_args(argc, argv, &a);
	if (status < 0)		/* --help, --version */
		return cmd_close_stdout(EXIT_OK) != EXIT_OK ? DIFF_TROUBLE : 0;
	if (status != DIFF_SAME)
		return status;
	status = DIFF_TROUBLE;
	a.diff.view = &a.view.view;
	a.diff.warn = cmd_warn_fn;
	a.diff.base_name = argv[optind];
	a.diff.cur_name = argv[optind + 1];
	a.diff.later_name = a.still_at;
	if (a.still_at != NULL)
		return still_at(&a, argv[optind], argv[optind + 1]);
	for (i = 0; i < 2; i++)
		if (cmd_load_profile(&a.view, argv[optind + i], &in[i]) !=
		    EXIT_OK)
			goto out;
	cmd_warn_unmatched_pair(&a.view, in);
	/* The table's views are the last to read the stacks, unless
	 * pprof's form of the difference is made from them after. */
	for (i = 0; i < 2 && !a.diff_base; i++)
		profconv_profile_set_stacks_disposable(in[i]);
	/* pprof's -normalize scales the source to the base; ours the base
	 * to CUR, but pprof's way where the output is pprof's form. */
	if (profconv_profiles_compatibilize(in, 2) < 0 ||
	    (a.normalize && (a.diff_base ?
	    profconv_profile_normalize(in[1], in[0]) :
	    profconv_profile_normalize(in[0], in[1])) < 0) ||
	    profconv_diff_new(&diff, in[0], in[1], &a.diff) < 0 ||
	    (a.diff_base &&
	    profconv_profile_diff_base(&pprof_diff, in[1], in[0]) < 0)) {
		cmd_error("cannot compare '%s' with '%s': %s", argv[optind],
		    argv[optind + 1], profconv_errmsg());
		goto out;
	}
	delta = profconv_diff_delta(diff);
	if (!a.quiet) {
		rc = a.json ? profconv_diff_write_json(diff, stdout, &a.table) :
		    profconv_diff_print(diff, stdout, &a.table);
		if (rc < 0 && rc != PROFCONV_EIO) {
			cmd_error("%s", profconv_errmsg());
			goto out;
		}
		/* A reader gone away (EPIPE) is no trouble. */
		if (rc < 0 && cmd_write_failed("-", rc, errno, NULL) != EXIT_OK)
			goto out;
	}
	if (a.out_path != NULL && cmd_write_profile(pprof_diff != NULL ?
	    pprof_diff : delta, a.out_path, NULL) != EXIT_OK)
		goto out;
	status = profconv_profile_sample_count(delta) != 0 ?
	    DIFF_DIFFERENT : DIFF_SAME;
out:
	profconv_diff_free(diff);
	profconv_profile_free(pprof_diff);
	profconv_profile_free(in[0]);
	profconv_profile_free(in[1]);
	/* A failed table write is trouble, not "different". */
	return cmd_close_stdout(EXIT_OK) != EXIT_OK ? DIFF_TROUBLE : status;
}
