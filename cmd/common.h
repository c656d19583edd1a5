/* SPDX-License-Identifier: MIT */
/* common.h - helpers every profconv command shares: messages, files, exits. */
#ifndef PROFCONV_CMD_COMMON_H
#define PROFCONV_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include <profconv.h>

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2
};

/* The program name for messages: "profconv text2pb", "profdiff". */
extern const char *cmd_name;

/* Print "NAME: message" to stderr; return EXIT_FAIL. */
int cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "NAME: warning: message" to stderr. */
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "NAME: 'SUBJECT': <profconv_errmsg()>"; return EXIT_FAIL. */
int cmd_error_lib(const char *subject);
/* Print the message and a "Try 'NAME --help'." line; return EXIT_USAGE. */
int cmd_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print only the "Try ..." line (getopt has complained); EXIT_USAGE. */
int cmd_usage_hint(void);
/* Print the version lines for --version; return EXIT_OK. */
int cmd_version(void);

/*
 * --max-input SIZE, which every reading command takes: the largest input
 * accepted once decompressed, a bound on gzip bombs.
 */
#define CMD_OPT_MAX_INPUT 0x1000
#define CMD_MAX_INPUT_OPTION \
	{ "max-input", required_argument, NULL, CMD_OPT_MAX_INPUT }
#define CMD_MAX_INPUT_HELP \
	"      --max-input SIZE  refuse inputs larger than SIZE decompressed\n" \
	"                        (suffix K, M or G; default 8G)\n"
/* Set the bound from TEXT; false (after a usage message) when invalid. */
bool cmd_set_max_input(const char *text);

/* Parse a whole decimal number in [MIN, MAX] for OPTION. */
bool cmd_parse_long(const char *option, const char *text, long min, long max,
    long *out);

/*
 * Read the profile at PATH ("-" is standard input) with OPTS (NULL: the
 * defaults) into *OUT; reports its own errors.  EXIT_OK or EXIT_FAIL.
 */
int cmd_read_profile(const char *path, const struct profconv_read_options *opts,
    struct profconv_profile **out);

/*
 * Write PROF as pprof to OUT_PATH ("-": standard output) through a
 * temporary file renamed when complete.  EXIT_OK or EXIT_FAIL.
 */
int cmd_write_profile(const struct profconv_profile *prof,
    const char *out_path, const struct profconv_write_options *opts);

/*
 * Symbolize PROF (read from SUBJECT) with OPTS (NULL: the defaults),
 * warnings on stderr; with SUMMARY, one line saying how many locations
 * got symbols and why the rest did not.  EXIT_OK or EXIT_FAIL.
 */
int cmd_symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary);

/*
 * An output that appears whole or not at all: a temporary file beside
 * PATH renamed over it on commit; "-" is standard output.
 */
struct cmd_output {
	const char *path;
	char *tmp;
	FILE *fp;
};

int cmd_output_open(struct cmd_output *o, const char *path);
/* Finish: flush, close and rename; reports errors.  EXIT_OK/EXIT_FAIL. */
int cmd_output_commit(struct cmd_output *o);
/* Give up: close and remove the temporary file. */
void cmd_output_abort(struct cmd_output *o);

/* Flush and check standard output at the end of a command. */
int cmd_close_stdout(int status);

#endif /* PROFCONV_CMD_COMMON_H */
