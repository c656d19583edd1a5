/* SPDX-License-Identifier: MIT */
/* profflame.c - folded stacks for flame graphs, differential with --base. */

#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include <profconv.h>
#include "common.h"

static const char usage_text[] =
	"usage: profflame [options] IN\n"
	"\n"
	"Print IN (any format profconv reads) as folded stacks for\n"
	"flamegraph.pl, inferno or speedscope: \"root;...;leaf COUNT\" per\n"
	"distinct stack, sorted.  Allocator frames (the profile's drop frames)\n"
	"are cut off; inline frames are expanded, outermost first.\n"
	"\n"
	"  -t, --type TYPE          sample type to count (default: the\n"
	"                           profile's default, else the last one)\n"
	"  -b, --base BASE          differential output \"stack BASE CUR\"\n"
	"                           (flamegraph.pl colours what grew red)\n"
	"  -f, --functions          name frames by function (default)\n"
	"  -l, --lines              name frames by function, file and line\n"
	"  -a, --addresses          name frames by function and address\n"
	"      --no-inline          one frame per location, no inlined calls\n"
	"      --focus RE           keep only stacks with a frame matching RE\n"
	"      --ignore RE          drop stacks with a frame matching RE\n"
	"      --keep-allocator-frames  keep malloc, operator new and the like\n"
	"      --no-symbolize       do not look up symbols in the mapped binaries\n"
	"  -o, --output FILE        write to FILE instead of standard output\n"
	CMD_MAX_INPUT_HELP
	"  -h, --help               show this help and exit\n"
	"  -V, --version            show version information and exit\n"
	"\n"
	"example: profflame heap.pb.gz | flamegraph.pl --colors=mem "
	"--countname=bytes > heap.svg\n";

enum {
	OPT_NO_INLINE = 256, OPT_FOCUS, OPT_IGNORE, OPT_KEEP_ALLOC,
	OPT_NO_SYMBOLIZE
};

struct flame_args {
	struct profconv_flame_options flame;
	const char *base_path, *out_path;
	bool no_symbolize;
};

/* Returns EXIT_OK to go on, -1 after --help/--version, or an exit status. */
static int
parse_args(int argc, char **argv, struct flame_args *a)
{
	static const struct option longopts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'b' },
		{ "functions", no_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "addresses", no_argument, NULL, 'a' },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		{ "focus", required_argument, NULL, OPT_FOCUS },
		{ "ignore", required_argument, NULL, OPT_IGNORE },
		{ "keep-allocator-frames", no_argument, NULL, OPT_KEEP_ALLOC },
		{ "no-symbolize", no_argument, NULL, OPT_NO_SYMBOLIZE },
		{ "output", required_argument, NULL, 'o' },
		CMD_MAX_INPUT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "t:b:flao:hV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 't':
			a->flame.sample_type = optarg;
			break;
		case 'b':
			a->base_path = optarg;
			break;
		case 'f':
			a->flame.names = PROFCONV_FLAME_FUNCTIONS;
			break;
		case 'l':
			a->flame.names = PROFCONV_FLAME_LINES;
			break;
		case 'a':
			a->flame.names = PROFCONV_FLAME_ADDRESSES;
			break;
		case OPT_NO_INLINE:
			a->flame.no_inline = 1;
			break;
		case OPT_FOCUS:
			a->flame.focus = optarg;
			break;
		case OPT_IGNORE:
			a->flame.ignore = optarg;
			break;
		case OPT_KEEP_ALLOC:
			a->flame.keep_allocator_frames = 1;
			break;
		case OPT_NO_SYMBOLIZE:
			a->no_symbolize = true;
			break;
		case 'o':
			a->out_path = optarg;
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

/* Read PATH and, unless told not to, symbolize it from its binaries. */
static int
load(const struct flame_args *a, const char *path,
    struct profconv_profile **out)
{
	int status = cmd_read_profile(path, NULL, out);

	if (status == EXIT_OK && !a->no_symbolize)
		status = cmd_symbolize_profile(*out, NULL, path, false);
	return status;
}

int
main(int argc, char **argv)
{
	struct flame_args a = { PROFCONV_FLAME_OPTIONS_INIT, NULL, "-", false };
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	int status;

	cmd_name = "profflame";
	status = parse_args(argc, argv, &a);
	if (status != EXIT_OK)
		return cmd_close_stdout(status < 0 ? EXIT_OK : status);
	status = load(&a, argv[optind], &prof[1]);
	if (status == EXIT_OK && a.base_path != NULL) {
		status = load(&a, a.base_path, &prof[0]);
		/* Folded counts of one type: both must have it. */
		if (status == EXIT_OK &&
		    profconv_profiles_compatibilize(prof, 2) < 0)
			status = cmd_error("cannot compare '%s' with '%s': %s",
			    a.base_path, argv[optind], profconv_errmsg());
	}
	if (status == EXIT_OK)
		status = cmd_output_open(&out, a.out_path);
	if (status == EXIT_OK) {
		if (profconv_flame_write(prof[1], prof[0], out.fp,
		    &a.flame) < 0) {
			status = cmd_error_lib(argv[optind]);
			cmd_output_abort(&out);
		} else {
			status = cmd_output_commit(&out);
		}
	}
	profconv_profile_free(prof[0]);
	profconv_profile_free(prof[1]);
	return cmd_close_stdout(status);
}
