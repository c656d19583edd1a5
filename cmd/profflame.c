/* SPDX-License-Identifier: MIT */
/* profflame.c - folded stacks for flame graphs, differential with --base. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "common.h"

static const char usage_text[] =
	"usage: profflame [options] IN\n"
	"\n"
	"Print IN (any format profconv reads) as folded stacks for\n"
	"flamegraph.pl, inferno or speedscope: \"root;...;leaf COUNT\" per\n"
	"distinct stack, sorted.  Allocator frames are cut off; inline frames\n"
	"are expanded, outermost first.  The stacks and names are the ones\n"
	"profconv show --summary and profdiff show for the same profile.\n"
	"\n"
	"  -t, --type TYPE       sample type to count (default: the profile's\n"
	"                        default, else the last one)\n"
	"  -b, --base BASE       differential output \"stack BASE CUR\"\n"
	"                        (flamegraph.pl colours what grew red)\n"
	"      --functions       name frames by function (default)\n"
	"      --lines           name frames by function, file and line\n"
	"      --addresses       name frames by function and address\n"
	CMD_VIEW_HELP
	"  -o, --output FILE     write to FILE instead of standard output\n"
	CMD_MAX_INPUT_HELP
	CMD_QUIET_HELP
	CMD_SNAPSHOT_HELP
	"  -h, --help            show this help and exit\n"
	"  -V, --version         show version information and exit\n"
	"\n"
	"example: profflame heap.pb.gz | flamegraph.pl --colors=mem "
	"--countname=bytes > heap.svg\n";

enum { OPT_FUNCTIONS = 256, OPT_LINES, OPT_ADDRESSES };

struct flame_args {
	struct profconv_flame_options flame;
	struct cmd_view view;
	const char *base_path, *out_path;
};

/* Returns EXIT_OK to go on, -1 after --help/--version, or an exit status. */
static int
parse_args(int argc, char **argv, struct flame_args *a)
{
	static const struct option longopts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'b' },
		{ "functions", no_argument, NULL, OPT_FUNCTIONS },
		{ "lines", no_argument, NULL, OPT_LINES },
		{ "addresses", no_argument, NULL, OPT_ADDRESSES },
		CMD_VIEW_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		CMD_MAX_INPUT_OPTION,
		CMD_QUIET_OPTION,
		CMD_SNAPSHOT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, taken;

	while ((c = getopt_long(argc, argv, "t:b:o:hV", longopts,
	    NULL)) != -1) {
		taken = cmd_view_option(&a->view, c, optarg);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken > 0)
			continue;
		switch (c) {
		case 't':
			a->flame.sample_type = optarg;
			break;
		case 'b':
			a->base_path = optarg;
			break;
		case OPT_FUNCTIONS:
			a->view.view.granularity = PROFCONV_BY_FUNCTION;
			break;
		case OPT_LINES:
			a->view.view.granularity = PROFCONV_BY_LINE;
			break;
		case OPT_ADDRESSES:
			a->view.view.granularity = PROFCONV_BY_ADDRESS;
			break;
		case 'o':
			a->out_path = optarg;
			break;
		case CMD_OPT_QUIET:
			cmd_quiet = true;
			break;
		case CMD_OPT_SNAPSHOT:
			if (!cmd_set_snapshot(optarg))
				return EXIT_USAGE;
			break;
		case CMD_OPT_MAX_INPUT:
			if (!cmd_set_max_input(optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		case 'V':
			cmd_version();
			return -1;
		default:
			return cmd_usage_hint();
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("expected one IN");
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct flame_args a = { PROFCONV_FLAME_OPTIONS_INIT, CMD_VIEW_INIT,
		NULL, "-" };
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct profconv_view *view[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	const char *in;
	int i, status;

	cmd_name = "profflame";
	status = parse_args(argc, argv, &a);
	if (status != EXIT_OK)
		return cmd_close_stdout(status < 0 ? EXIT_OK : status);
	in = argv[optind];
	status = cmd_load_profile(&a.view, in, &prof[1]);
	if (status == EXIT_OK && a.base_path != NULL) {
		status = cmd_load_profile(&a.view, a.base_path, &prof[0]);
		/* Folded counts of one type: both must have it. */
		if (status == EXIT_OK &&
		    profconv_profiles_compatibilize(prof, 2) < 0)
			status = cmd_error("cannot compare '%s' with '%s': %s",
			    a.base_path, in, profconv_errmsg());
	}
	for (i = 0; i < 2 && status == EXIT_OK; i++)
		if (prof[i] != NULL && profconv_view_new(&view[i], prof[i],
		    &a.view.view) < 0)
			status = cmd_error("%s", profconv_errmsg());
	if (status == EXIT_OK)
		status = cmd_output_open(&out, a.out_path);
	if (status == EXIT_OK) {
		status = profconv_flame_write(view[1], view[0], out.fp,
		    &a.flame);
		if (status < 0) {
			status = cmd_write_failed(a.out_path, status, errno, in);
			cmd_output_abort(&out);
		} else {
			status = cmd_output_commit(&out);
		}
	}
	for (i = 0; i < 2; i++) {
		profconv_view_free(view[i]);
		profconv_profile_free(prof[i]);
	}
	return cmd_close_stdout(status);
}
