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
	"\n";

enum {
	OPT_SVG = 256,
	OPT_SPEEDSCOPE, OPT_TITLE, OPT_SUBTITLE, OPT_COUNTNAME, OPT_COLORS,
	OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_INVERTED, OPT_REVERSE,
	OPT_NEGATE, OPT_HASH, OPT_RANDOM, OPT_CP, OPT_PALFILE, OPT_BGCOLORS,
	OPT_FONTTYPE, OPT_FONTSIZE, OPT_FONTWIDTH, OPT_NAMETYPE, OPT_NOTES,
	OPT_TOTAL, OPT_FACTOR, OPT_DIFF_WIDTH, OPT_SELF_DIFF, OPT_MIN_DELTA,
	OPT_SPLIT_THREADS
};

enum picture { FOLDED, SVG, SPEEDSCOPE };

struct flame_args {
	struct profconv_flame_options flame;
	struct cmd_view view;
	const char *base_path, *out_path;
	enum picture picture;
	struct profconv_svg_options svg;
	const char *svg_option;		/* an SVG option given, for messages */
	const char *diff_option;	/* a differential one, likewise */
	const char *palfile;		/* --cp, --palfile: the palette map */
	struct profconv_palette_map *map;
	const char *in;			/* IN, for messages */
};

#define CMD_ARGS struct flame_args

static const struct cmd_opt opts[] = {
	CMD_TYPE_COUNT_OPT(flame.sample_type),
	{ "base", 'b', required_argument, CMD_OWN,
	  "  -b, --base BASE       differential output \"stack BASE CUR\"\n"
	  "                        (difffolded.pl's, for flamegraph.pl)\n",
	  CMD_TO_STRING(base_path) },
	CMD_FUNCTIONS_OPT(
	  "      --functions       name frames by function (default)\n"),
	CMD_LINES_OPT(
	  "      --lines           name frames by function, file and line\n"),
	CMD_ADDRESSES_OPT(
	  "      --addresses       name frames by function and address\n"),
	CMD_FILES_OPT(
	  "      --files           name frames by source file (pprof -files)\n"),
	CMD_FILEFUNCTIONS_OPT(
	  "      --filefunctions   name frames by function and source file\n"),
	{ "split-threads", OPT_SPLIT_THREADS, no_argument, CMD_OWN,
	  "      --split-threads   one root per thread, \"thread N (NAME)\", from\n"
	  "                        the labels of profconv text2pb --threads\n" },
	CMD_VIEW_OPTS,
	CMD_FIND_OPTS,
	CMD_FILTER_OPTS,
	CMD_OUTPUT_OPT(out_path),
	{ NULL, 0, 0, CMD_OWN,
	  "\n"
	  "Pictures instead of folded stacks:\n" },
	{ "svg", OPT_SVG, no_argument, CMD_OWN,
	  "      --svg             a flame graph as one self-contained SVG (click\n"
	  "                        to zoom, Ctrl-F to search); with --base, red\n"
	  "                        where IN grew, blue where it shrank or was\n"
	  "                        freed, purple where it is new\n" },
	{ "speedscope", OPT_SPEEDSCOPE, no_argument, CMD_OWN,
	  "      --speedscope      speedscope's JSON file format, one profile per\n"
	  "                        sample type (only TYPE's with -t)\n" },
	{ NULL, 0, 0, CMD_OWN,
	  "Differential SVG options (--svg --base):\n" },
	{ "diff-width", OPT_DIFF_WIDTH, required_argument, CMD_OWN,
	  "      --diff-width WHAT  frame widths: max (default: the larger of\n"
	  "                        before and after), cur, base, or delta\n"
	  "                        (pprof's |increases| + |decreases|)\n" },
	{ "self-diff", OPT_SELF_DIFF, no_argument, CMD_OWN,
	  "      --self-diff       colour by a frame's own change, as\n"
	  "                        flamegraph.pl, not its whole change\n" },
	{ "min-delta", OPT_MIN_DELTA, required_argument, CMD_OWN,
	  "      --min-delta PCT   draw changes under PCT% of BASE's total white\n"
	  "                        (default 0)\n" },
	{ NULL, 0, 0, CMD_OWN,
	  "SVG options, as flamegraph.pl's:\n" },
	{ "title", OPT_TITLE, required_argument, CMD_OWN,
	  "      --title TEXT      heading (default \"Flame Graph\")\n",
	  CMD_TO_STRING(svg.title), CMD_NOTE(svg_option) },
	{ "subtitle", OPT_SUBTITLE, required_argument, CMD_OWN,
	  "      --subtitle TEXT   second heading (default: the sample type,\n"
	  "                        its total and the file)\n",
	  CMD_TO_STRING(svg.subtitle), CMD_NOTE(svg_option) },
	{ "countname", OPT_COUNTNAME, required_argument, CMD_OWN,
	  "      --countname TEXT  word after values (default: from the unit)\n",
	  CMD_TO_STRING(svg.countname), CMD_NOTE(svg_option) },
	{ "colors", OPT_COLORS, required_argument, CMD_OWN,
	  "      --colors PALETTE  hot (default), mem, io, red, green, blue, aqua,\n"
	  "                        yellow, purple, orange; by name: java, js,\n"
	  "                        perl; wakeup, chain\n",
	  CMD_TO_STRING(svg.colors), CMD_NOTE(svg_option) },
	/* --help lists these six last (see "geometry" below); here they keep
	 * the place they have always had in getopt's array. */
	{ "width", OPT_WIDTH, required_argument, CMD_OWN, NULL,
	  CMD_TO_NUMBER(svg.width, 30, 1000000), CMD_NOTE(svg_option) },
	{ "height", OPT_HEIGHT, required_argument, CMD_OWN, NULL,
	  CMD_TO_NUMBER(svg.frame_height, 2, 1000), CMD_NOTE(svg_option) },
	{ "minwidth", OPT_MINWIDTH, required_argument, CMD_OWN, NULL,
	  CMD_TO_PARSED(svg.minwidth, cmd_parse_minwidth),
	  CMD_NOTE(svg_option) },
	{ "inverted", OPT_INVERTED, no_argument, CMD_OWN, NULL,
	  CMD_TO_SET(svg.inverted, 1), CMD_NOTE(svg_option) },
	{ "reverse", OPT_REVERSE, no_argument, CMD_OWN, NULL,
	  CMD_TO_SET(svg.reverse, 1), CMD_NOTE(svg_option) },
	{ "negate", OPT_NEGATE, no_argument, CMD_OWN, NULL,
	  CMD_TO_SET(svg.negate, 1), CMD_NOTE(svg_option) },
	{ "hash", OPT_HASH, no_argument, CMD_OWN,
	  "      --hash            shades from a hash of the name, not a seed\n",
	  CMD_TO_SET(svg.hash, 1), CMD_NOTE(svg_option) },
	{ "random", OPT_RANDOM, no_argument, CMD_OWN,
	  "      --random          random shades, new on every run\n" },
	{ "cp", OPT_CP, no_argument, CMD_OWN,
	  "      --cp              keep colours in palette.map (read, then\n"
	  "                        written back with the new names)\n" },
	{ "palfile", OPT_PALFILE, required_argument, CMD_OWN,
	  "      --palfile FILE    the same with FILE instead of palette.map\n",
	  CMD_TO_STRING(palfile), CMD_NOTE(svg_option) },
	{ "bgcolors", OPT_BGCOLORS, required_argument, CMD_OWN,
	  "      --bgcolors BGCOLOR  yellow, blue, green, grey or #rrggbb\n"
	  "                        (default: by palette)\n",
	  CMD_TO_STRING(svg.bgcolors), CMD_NOTE(svg_option) },
	{ "fonttype", OPT_FONTTYPE, required_argument, CMD_OWN,
	  "      --fonttype FONT   CSS font family (default Verdana)\n",
	  CMD_TO_STRING(svg.font_type), CMD_NOTE(svg_option) },
	{ "fontsize", OPT_FONTSIZE, required_argument, CMD_OWN,
	  "      --fontsize SIZE   font size in pixels (default 12)\n",
	  CMD_TO_REAL(svg.font_size, 1, 1000), CMD_NOTE(svg_option) },
	{ "fontwidth", OPT_FONTWIDTH, required_argument, CMD_OWN,
	  "      --fontwidth WIDTH  mean glyph width / font size, to fit labels\n"
	  "                        (default 0.59)\n",
	  CMD_TO_REAL(svg.font_width, 0.01, 10), CMD_NOTE(svg_option) },
	{ "nametype", OPT_NAMETYPE, required_argument, CMD_OWN,
	  "      --nametype TEXT   before a frame's title on mouse-over\n"
	  "                        (default \"Function:\")\n",
	  CMD_TO_STRING(svg.nametype), CMD_NOTE(svg_option) },
	{ "notes", OPT_NOTES, required_argument, CMD_OWN,
	  "      --notes TEXT      a comment in the SVG\n",
	  CMD_TO_STRING(svg.notes), CMD_NOTE(svg_option) },
	{ "total", OPT_TOTAL, required_argument, CMD_OWN,
	  "      --total N         widths and shares out of N, not the total\n",
	  CMD_TO_NUMBER(svg.total, 1, LONG_MAX), CMD_NOTE(svg_option) },
	{ "factor", OPT_FACTOR, required_argument, CMD_OWN,
	  "      --factor F        multiply the values shown by F\n",
	  CMD_TO_REAL(svg.factor, 1e-12, 1e12), CMD_NOTE(svg_option) },
	/* The lines of the geometry options, --width to --negate (above). */
	{ NULL, 0, 0, CMD_OWN,
	  "      --width PIXELS    image width (default 1200)\n"
	  "      --height PIXELS   height of one frame (default 16)\n"
	  "      --minwidth N[%]   leave out frames narrower than N pixels or N%\n"
	  "                        of the total (default 0.1)\n"
	  "      --inverted        icicle graph: the root at the top\n"
	  "      --reverse         merge stacks from the leaf end\n"
	  "      --negate          differential: swap red and blue\n" },
	CMD_INPUT_OPTS,
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"examples: profflame --svg --colors=mem heap.pb.gz -o heap.svg\n"
	"          profflame --svg --base old.heap new.heap -o diff.svg\n"
	"          profflame heap.pb.gz | flamegraph.pl --colors=mem > heap.svg\n";

/* A seed for --random: new on every run. */
static uint64_t
random_seed(void)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return seed;
}

/* --diff-width WHAT into O; false after a usage message. */
static bool
diff_width(struct profconv_svg_options *o, const char *what)
{
	static const char *const names[] = { "max", "cur", "base", "delta" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(what, names[i]) == 0) {
			o->diff_width = (enum profconv_diff_width)i;
			return true;
		}
	cmd_usage_error("invalid --diff-width '%s' (max, cur, base or delta)",
	    what);
	return false;
}

/* One of flamegraph.pl's options that the table does not bind, C, into
 * A->svg; false after a usage message.  The bound ones note their name
 * in A->svg_option; the differential ones, here, in A->diff_option too. */
static bool
svg_option(struct flame_args *a, int c)
{
	struct profconv_svg_options *o = &a->svg;
	const struct cmd_opt *opt;

	for (opt = opts; opt->name != NULL || opt->help != NULL; opt++)
		if (opt->name != NULL && opt->id == c)
			a->svg_option = opt->name;
	if (c == OPT_DIFF_WIDTH || c == OPT_SELF_DIFF || c == OPT_MIN_DELTA)
		a->diff_option = a->svg_option;
	switch (c) {
	case OPT_RANDOM: o->random = 1; o->random_seed = random_seed(); break;
	case OPT_CP: a->palfile = "palette.map"; break;
	case OPT_SELF_DIFF: o->self_diff = 1; break;
	case OPT_DIFF_WIDTH: return diff_width(o, optarg);
	case OPT_MIN_DELTA:
		return cmd_parse_double("--min-delta", optarg, 0, 100,
		    &o->min_delta);
	}
	return true;
}

/* One of profflame's own options, C, into ARGS (its flame_args); false
 * after a usage message. */
static bool
own_option(void *args, int c)
{
	struct flame_args *a = args;

	switch (c) {
	case OPT_SPLIT_THREADS:
		a->view.view.split_threads = 1;
		cmd_read_threads();	/* jemalloc's dumps: per thread */
		break;
	case OPT_SVG:
	case OPT_SPEEDSCOPE:
		if (a->picture != FOLDED) {
			cmd_usage_error("--svg and --speedscope exclude each "
			    "other");
			return false;
		}
		a->picture = c == OPT_SVG ? SVG : SPEEDSCOPE;
		break;
	default:	/* the rest are flamegraph.pl's */
		return svg_option(a, c);
	}
	return true;
}

/* Returns EXIT_OK to go on, -1 after --help/--version, or an exit status. */
static int
parse_args(int argc, char **argv, struct flame_args *a)
{
	struct cmd_parser p = { opts, usage_text, footer, &a->view, NULL, a };
	int status = cmd_parse_options(&p, argc, argv, own_option, a);

	if (status != EXIT_OK)
		return status;
	if (cmd_program_given("expected one IN", argc - optind, argv + optind) >= 0)
		return EXIT_USAGE;
	if (argc - optind != 1)
		return cmd_usage_error("expected one IN");
	if (a->svg_option != NULL && a->picture != SVG)
		return cmd_usage_error("--%s draws SVG: add --svg",
		    a->svg_option);
	if (a->base_path == NULL && a->diff_option != NULL)
		return cmd_usage_error("--%s draws a differential graph: add "
		    "--base", a->diff_option);
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

/* The picture of VIEW[1] (and VIEW[0]) to FP as ARG (its flame_args)
 * says, folded stacks, SVG or speedscope; an exit status.  A writer's
 * EINVAL is a bad option (exit 2). */
static int
draw(struct profconv_view *const *view, FILE *fp, void *arg)
{
	struct flame_args *a = arg;
	struct profconv_speedscope_options so =
	    PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	struct profconv_svg_options svg = a->svg;
	const char *slash = strrchr(a->in, '/'), *bslash;
	char *source = NULL;
	int rc;

	if (a->palfile != NULL && load_palette(a) != EXIT_OK)
		return EXIT_FAIL;
	if (a->picture == FOLDED) {
		rc = profconv_flame_write(view[1], view[0], fp, &a->flame);
		return rc < 0 ? cmd_write_failed(a->out_path, rc, errno,
		    a->in) : EXIT_OK;
	}
	svg.sample_type = a->flame.sample_type;
	svg.palette_map = a->map;
	/* The subtitle says what the picture shows, unless given. */
	svg.facts = svg.subtitle == NULL;
	svg.source = slash != NULL ? slash + 1 : a->in;
	if (a->base_path != NULL) {
		bslash = strrchr(a->base_path, '/');
		if (asprintf(&source, "%s \xe2\x86\x92 %s", bslash != NULL ?
		    bslash + 1 : a->base_path, svg.source) < 0)
			source = NULL;
		svg.source = source;
	}
	so.sample_type = a->flame.sample_type;
	so.name = slash != NULL ? slash + 1 : a->in;
	rc = a->picture == SVG ?
	    profconv_svg_write(view[1], view[0], fp, &svg) :
	    profconv_speedscope_write(view[1], fp, &so);
	free(source);
	return cmd_draw_failed(rc, a->out_path, a->in);
}

int
main(int argc, char **argv)
{
	struct flame_args a = { PROFCONV_FLAME_OPTIONS_INIT, CMD_VIEW_INIT,
		NULL, "-", FOLDED, PROFCONV_SVG_OPTIONS_INIT, NULL, NULL, NULL,
		NULL, NULL };
	int status;

	cmd_name = "profflame";
	status = parse_args(argc, argv, &a);
	if (status != EXIT_OK)
		return cmd_close_stdout(status < 0 ? EXIT_OK : status);
	a.in = argv[optind];
	a.view.view.jobs = cmd_jobs();
	/* Folded counts of one type: both must have it. */
	status = cmd_draw(&a.view, a.in, a.base_path, a.out_path, draw, &a);
	if (status == EXIT_OK && a.map != NULL)
		status = save_palette(&a);
	profconv_palette_map_free(a.map);
	return cmd_close_stdout(status);
}
