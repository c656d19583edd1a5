/* SPDX-License-Identifier: MIT */
/* text2pb.c - "profconv text2pb": convert any readable profile to pprof. */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <profconv.h>
#include "commands.h"
#include "common.h"

static const char usage_text[] =
	"usage: profconv text2pb [-o OUT] [--threads] [--no-compress]\n"
	"                        [--level N] IN\n"
	"\n"
	"Convert a profile in any format profconv reads (legacy gperftools,\n"
	"jemalloc and Go text or binary profiles, or pprof itself) into a\n"
	"pprof protobuf, gzip-compressed unless --no-compress is given.\n"
	"\n"
	"  -o, --output OUT    write to OUT instead of standard output;\n"
	"                      OUT appears whole or not at all\n"
	"  -t, --threads       jemalloc: one sample per thread, labelled\n"
	"                      'thread' (and 'thread_name' where known)\n"
	"  -n, --no-compress   write the protobuf without gzip (level 0)\n"
	"  -l, --level N       gzip level 0..9 (default 6)\n"
	"  -h, --help          show this help and exit\n"
	"\n"
	"IN and OUT may be '-' for standard input and output.\n"
	"example: profconv text2pb -o heap.pb.gz jeprof.1234.0.f.heap\n";

/* Read IN ("-": standard input) with OPTS; reports its own errors. */
static int
read_input(const char *path, const struct profconv_read_options *opts,
    struct profconv_profile **out)
{
	struct stat st;
	FILE *fp;
	int rc;

	if (strcmp(path, "-") == 0) {
		rc = profconv_profile_read(out, stdin, opts, NULL);
		return rc < 0 ? cmd_error_lib("<stdin>") : EXIT_OK;
	}
	fp = fopen(path, "rb");
	if (fp == NULL)
		return cmd_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		return cmd_error("cannot read '%s': Is a directory", path);
	}
	rc = profconv_profile_read(out, fp, opts, NULL);
	fclose(fp);
	return rc < 0 ? cmd_error_lib(path) : EXIT_OK;
}

/* Write PROF to OUT_PATH through a temporary file renamed on success. */
static int
write_output(const struct profconv_profile *prof, const char *out_path,
    const struct profconv_write_options *wopts)
{
	struct cmd_output out;
	int status;

	status = cmd_output_open(&out, out_path);
	if (status != EXIT_OK)
		return status;
	if (profconv_profile_write(prof, out.fp, wopts) < 0) {
		status = cmd_error_lib(strcmp(out_path, "-") == 0 ?
		    "<stdout>" : out_path);
		cmd_output_abort(&out);
		return status;
	}
	return cmd_output_commit(&out);
}

int
cmd_text2pb(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "threads", no_argument, NULL, 't' },
		{ "no-compress", no_argument, NULL, 'n' },
		{ "level", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct profconv_read_options ropts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	const char *out_path = "-";
	bool no_compress = false;
	long level = 6;
	int c, status;

	optind = 0;	/* glibc: a full reset for this argv */
	while ((c = getopt_long(argc, argv, "o:tnl:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 't':
			ropts.threads = 1;
			break;
		case 'n':
			no_compress = true;
			break;
		case 'l':
			if (!cmd_parse_long("--level", optarg, 0, 9, &level))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_hint();
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("expected one input file");
	wopts.level = no_compress ? 0 : (int)level;
	status = read_input(argv[optind], &ropts, &prof);
	if (status == EXIT_OK)
		status = write_output(prof, out_path, &wopts);
	profconv_profile_free(prof);
	return status;
}
