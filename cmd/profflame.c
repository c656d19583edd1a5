/* SPDX-License-Identifier: MIT */
/* profflame.c - folded stacks, flame-graph SVG or speedscope JSON of a
 * profile, differential with --base. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include <profconv.h>
#include "cli.h"

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
	"\n"
	"Pictures instead of folded stacks:\n"
	"      --svg             a flame graph as one self-contained SVG (click\n"
	"                        to zoom, Ctrl-F to search); with --base, red\n"
	"                        where IN grew, blue where it shrank\n"
	"      --speedscope      speedscope's JSON file format, one profile per\n"
	"                        sample type (only TYPE's with -t)\n"
	"SVG options, as flamegraph.pl's:\n"
	"      --title TEXT      heading (default \"Flame Graph\")\n"
	"      --subtitle TEXT   second heading\n"
	"      --countname TEXT  word after values (default: from the unit)\n"
	"      --colors PALETTE  hot (default), mem, io, red, green, blue, aqua,\n"
	"                        yellow, purple, orange; by name: java, js,\n"
	"                        perl; wakeup, chain\n"
	"      --hash            shades from a hash of the name, not a seed\n"
	"      --random          random shades, new on every run\n"
	"      --cp              keep colours in palette.map (read, then\n"
	"                        written back with the new names)\n"
	"      --palfile FILE    the same with FILE instead of palette.map\n"
	"      --bgcolors BGCOLOR  yellow, blue, green, grey or #rrggbb\n"
	"                        (default: by palette)\n"
	"      --fonttype FONT   CSS font family (default Verdana)\n"
	"      --fontsize SIZE   font size in pixels (default 12)\n"
	"      --fontwidth WIDTH  mean glyph width / font size, to fit labels\n"
	"                        (default 0.59)\n"
	"      --nametype TEXT   before a frame's title on mouse-over\n"
	"                        (default \"Function:\")\n"
	"      --notes TEXT      a comment in the SVG\n"
	"      --total N         widths and shares out of N, not the total\n"
	"      --factor F        multiply the values shown by F\n"
	"      --width PIXELS    image width (default 1200)\n"
	"      --height PIXELS   height of one frame (default 16)\n"
	"      --minwidth N[%]   leave out frames narrower than N pixels or N%\n"
	"                        of the total (default 0.1)\n"
	"      --inverted        icicle graph: the root at the top\n"
	"      --reverse         merge stacks from the leaf end\n"
	"      --negate          differential: swap red and blue\n"
	CMD_MAX_INPUT_HELP
	CMD_JOBS_HELP
	CMD_QUIET_HELP
	CMD_SNAPSHOT_HELP
	"  -h, --help            show this help and exit\n"
	"  -V, --version         show version information and exit\n"
	"\n"
	"examples: profflame --svg --colors=mem heap.pb.gz -o heap.svg\n"
	"          profflame heap.pb.gz | flamegraph.pl --colors=mem > heap.svg\n";

enum {
	OPT_FUNCTIONS = 256, OPT_LINES, OPT_ADDRESSES, OPT_SVG,
	OPT_SPEEDSCOPE, OPT_TITLE, OPT_SUBTITLE, OPT_COUNTNAME, OPT_COLORS,
	OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_INVERTED, OPT_REVERSE,
	OPT_NEGATE, OPT_HASH, OPT_RANDOM, OPT_CP, OPT_PALFILE, OPT_BGCOLORS,
	OPT_FONTTYPE, OPT_FONTSIZE, OPT_FONTWIDTH, OPT_NAMETYPE, OPT_NOTES,
	OPT_TOTAL, OPT_FACTOR
};

enum picture { FOLDED, SVG, SPEEDSCOPE };

struct flame_args {
	struct profconv_flame_options flame;
	struct cmd_view view;
	const char *base_path, *out_path;
	enum picture picture;
	struct profconv_svg_options svg;
	const char *svg_option;		/* an SVG option given, for messages */
	const char *palfile;		/* --cp, --palfile: the palette map */
	struct profconv_palette_map *map;
};

/* A number from MIN to MAX for OPTION, or false after a usage message. */
static bool
parse_double(const char *option, const char *text, double min, double max,
    double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE || !(v >= min) ||
	    !(v <= max)) {
		cmd_usage_error("invalid %s value '%s' (expected %g..%g)",
		    option, text, min, max);
		return false;
	}
	*out = v;
	return true;
}

/* A seed for --random: new on every run. */
static uint64_t
random_seed(void)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return seed;
}

/* The numeric SVG options; false after a usage message. */
static bool
svg_number(struct profconv_svg_options *o, int c)
{
	long v;

	switch (c) {
	case OPT_WIDTH:
		if (!cmd_parse_long("--width", optarg, 30, 1000000, &v))
			return false;
		o->width = (unsigned int)v;
		return true;
	case OPT_HEIGHT:
		if (!cmd_parse_long("--height", optarg, 2, 1000, &v))
			return false;
		o->frame_height = (unsigned int)v;
		return true;
	case OPT_TOTAL:
		if (!cmd_parse_long("--total", optarg, 1, LONG_MAX, &v))
			return false;
		o->total = v;
		return true;
	case OPT_FONTSIZE:
		return parse_double("--fontsize", optarg, 1, 1000,
		    &o->font_size);
	case OPT_FONTWIDTH:
		return parse_double("--fontwidth", optarg, 0.01, 10,
		    &o->font_width);
	case OPT_FACTOR:
		return parse_double("--factor", optarg, 1e-12, 1e12,
		    &o->factor);
	}
	return true;
}

/* One of flamegraph.pl's options, C, into A->svg; false after a usage
 * message. */
static bool
svg_option(struct flame_args *a, int c, const struct option *longopts)
{
	struct profconv_svg_options *o = &a->svg;

	for (; longopts->name != NULL; longopts++)
		if (longopts->val == c)
			a->svg_option = longopts->name;
	switch (c) {
	case OPT_TITLE: o->title = optarg; break;
	case OPT_SUBTITLE: o->subtitle = optarg; break;
	case OPT_COUNTNAME: o->countname = optarg; break;
	case OPT_COLORS: o->colors = optarg; break;
	case OPT_MINWIDTH: o->minwidth = optarg; break;
	case OPT_INVERTED: o->inverted = 1; break;
	case OPT_REVERSE: o->reverse = 1; break;
	case OPT_NEGATE: o->negate = 1; break;
	case OPT_HASH: o->hash = 1; break;
	case OPT_RANDOM: o->random = 1; o->random_seed = random_seed(); break;
	case OPT_CP: a->palfile = "palette.map"; break;
	case OPT_PALFILE: a->palfile = optarg; break;
	case OPT_BGCOLORS: o->bgcolors = optarg; break;
	case OPT_FONTTYPE: o->font_type = optarg; break;
	case OPT_NAMETYPE: o->nametype = optarg; break;
	case OPT_NOTES: o->notes = optarg; break;
	default: return svg_number(o, c);
	}
	return true;
}

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
		{ "svg", no_argument, NULL, OPT_SVG },
		{ "speedscope", no_argument, NULL, OPT_SPEEDSCOPE },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
		{ "countname", required_argument, NULL, OPT_COUNTNAME },
		{ "colors", required_argument, NULL, OPT_COLORS },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "height", required_argument, NULL, OPT_HEIGHT },
		{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "reverse", no_argument, NULL, OPT_REVERSE },
		{ "negate", no_argument, NULL, OPT_NEGATE },
		{ "hash", no_argument, NULL, OPT_HASH },
		{ "random", no_argument, NULL, OPT_RANDOM },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "palfile", required_argument, NULL, OPT_PALFILE },
		{ "bgcolors", required_argument, NULL, OPT_BGCOLORS },
		{ "fonttype", required_argument, NULL, OPT_FONTTYPE },
		{ "fontsize", required_argument, NULL, OPT_FONTSIZE },
		{ "fontwidth", required_argument, NULL, OPT_FONTWIDTH },
		{ "nametype", required_argument, NULL, OPT_NAMETYPE },
		{ "notes", required_argument, NULL, OPT_NOTES },
		{ "total", required_argument, NULL, OPT_TOTAL },
		{ "factor", required_argument, NULL, OPT_FACTOR },
		CMD_MAX_INPUT_OPTION,
		CMD_JOBS_OPTION,
		CMD_QUIET_OPTION,
		CMD_SNAPSHOT_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, taken;

	while ((c = getopt_long(argc, argv, "t:b:o:j:hV", longopts,
	    NULL)) != -1) {
		taken = cmd_view_option(&a->view, c, optarg);
		if (taken == 0)
			taken = cmd_input_option(c, optarg);
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
		case OPT_SVG:
		case OPT_SPEEDSCOPE:
			if (a->picture != FOLDED)
				return cmd_usage_error("--svg and --speedscope "
				    "exclude each other");
			a->picture = c == OPT_SVG ? SVG : SPEEDSCOPE;
			break;
		case OPT_TITLE: case OPT_SUBTITLE: case OPT_COUNTNAME:
		case OPT_COLORS: case OPT_WIDTH: case OPT_HEIGHT:
		case OPT_MINWIDTH: case OPT_INVERTED: case OPT_REVERSE:
		case OPT_NEGATE: case OPT_HASH: case OPT_RANDOM: case OPT_CP:
		case OPT_PALFILE: case OPT_BGCOLORS: case OPT_FONTTYPE:
		case OPT_FONTSIZE: case OPT_FONTWIDTH: case OPT_NAMETYPE:
		case OPT_NOTES: case OPT_TOTAL: case OPT_FACTOR:
			if (!svg_option(a, c, longopts))
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
	if (a->svg_option != NULL && a->picture != SVG)
		return cmd_usage_error("--%s draws SVG: add --svg",
		    a->svg_option);
	if (a->svg.hash && a->svg.random)
		return cmd_usage_error("--hash and --random exclude each other");
	if (a->picture == SPEEDSCOPE && a->base_path != NULL)
		return cmd_usage_error("--speedscope shows one profile: "
		    "use --svg for a differential picture");
	return EXIT_OK;
}

/* --cp, --palfile: the palette map as the file holds it (empty when
 * there is no file yet); an exit status. */
static int
load_palette(struct flame_args *a)
{
	FILE *fp;
	int rc;

	if (profconv_palette_map_new(&a->map) < 0)
		return cmd_error("%s", profconv_errmsg());
	fp = fopen(a->palfile, "r");
	if (fp == NULL && errno == ENOENT)
		return EXIT_OK;
	if (fp == NULL)
		return cmd_error("'%s': %s", a->palfile, strerror(errno));
	rc = profconv_palette_map_read(a->map, fp);
	fclose(fp);
	return rc < 0 ? cmd_error_lib(a->palfile) : EXIT_OK;
}

/* The palette map with the names the picture added, written whole or
 * not at all; an exit status. */
static int
save_palette(const struct flame_args *a)
{
	struct cmd_output out = { 0 };
	int status = cmd_output_open(&out, a->palfile);

	if (status != EXIT_OK)
		return status;
	if (profconv_palette_map_write(a->map, out.fp) < 0) {
		cmd_output_abort(&out);
		return cmd_error_lib(a->palfile);
	}
	return cmd_output_commit(&out);
}

/* The SVG or speedscope picture of VIEW[1] (and VIEW[0]) to FP; an exit
 * status.  A writer's EINVAL is a bad option (exit 2). */
static int
write_picture(const struct flame_args *a,
    struct profconv_view *const *view, const char *in, FILE *fp)
{
	struct profconv_speedscope_options so =
	    PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	struct profconv_svg_options svg = a->svg;
	const char *slash = strrchr(in, '/');
	int rc;

	svg.sample_type = a->flame.sample_type;
	svg.palette_map = a->map;
	so.sample_type = a->flame.sample_type;
	so.name = slash != NULL ? slash + 1 : in;
	rc = a->picture == SVG ?
	    profconv_svg_write(view[1], view[0], fp, &svg) :
	    profconv_speedscope_write(view[1], fp, &so);
	if (rc == PROFCONV_EINVAL) {
		cmd_error("%s", profconv_errmsg());
		return EXIT_USAGE;
	}
	return rc < 0 ? cmd_write_failed(a->out_path, rc, errno, in) : EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct flame_args a = { PROFCONV_FLAME_OPTIONS_INIT, CMD_VIEW_INIT,
		NULL, "-", FOLDED, PROFCONV_SVG_OPTIONS_INIT, NULL, NULL,
		NULL };
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
	a.view.view.jobs = cmd_jobs();
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
	if (status == EXIT_OK && a.palfile != NULL)
		status = load_palette(&a);
	if (status == EXIT_OK)
		status = cmd_output_open(&out, a.out_path);
	if (status == EXIT_OK) {
		if (a.picture != FOLDED) {
			status = write_picture(&a, view, in, out.fp);
		} else {
			status = profconv_flame_write(view[1], view[0], out.fp,
			    &a.flame);
			if (status < 0)
				status = cmd_write_failed(a.out_path, status,
				    errno, in);
		}
		if (status != EXIT_OK)
			cmd_output_abort(&out);
		else
			status = cmd_output_commit(&out);
		if (status == EXIT_OK && a.map != NULL)
			status = save_palette(&a);
	}
	profconv_palette_map_free(a.map);
	for (i = 0; i < 2; i++) {
		profconv_view_free(view[i]);
		profconv_profile_free(prof[i]);
	}
	return cmd_close_stdout(status);
}
