/* SPDX-License-Identifier: MIT */
/* cli.h - what the commands share: entry points, messages, options, files. */
#ifndef PROFCONV_CMD_CLI_H
#define PROFCONV_CMD_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <profconv.h>

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2
};

/* --- messages.c ---------------------------------------------------------- */

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
/* cmd_warn() in the library's warning-callback form (PAYLOAD unused). */
void cmd_warn_fn(const char *msg, void *payload);
/* The view's wrappers_found callback (--find-wrappers): one line,
 * "NAME: cut as allocation wrappers: A, B (rule: ...)", once for each
 * list found, nothing under -q.  PAYLOAD unused. */
void cmd_wrappers_found(const char *const *names, size_t n, void *payload);

/*
 * Report RC, the failure of a library call writing to OUT_PATH ("-" or
 * NULL: standard output) what it read from INPUT, with ERR the errno
 * just after it: a write error names the output, once; a reader gone
 * away (EPIPE) is not reported (EXIT_OK); anything else names INPUT.
 */
int cmd_write_failed(const char *out_path, int rc, int err,
    const char *input);
/* Flush and check standard output at the end of a command (silent when
 * cmd_write_failed() reported it). */
int cmd_close_stdout(int status);

/* --- progress.c ---------------------------------------------------------- */

/*
 * --quiet: no progress line.  Progress shows on standard error only when
 * it is a terminal, and only for work that has run a second already.
 */
extern bool cmd_quiet;

/*
 * A one-line progress indicator, rewritten in place: begin a phase whose
 * units are UNITS ("bytes" prints sizes) with a label ("reading 'x'"),
 * report DONE of TOTAL (0: unknown), end it (erases the line).  Messages
 * erase it too.  Safe from two threads.
 */
void cmd_progress_begin(const char *units, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cmd_progress(uint64_t done, uint64_t total);
void cmd_progress_end(void);
/* cmd_progress() in the library's profconv_progress_fn form. */
void cmd_progress_fn(uint64_t done, uint64_t total, void *payload);
/* Messages hold standard error between these; the progress line is
 * erased first. */
void cmd_stderr_lock(void);
void cmd_stderr_unlock(void);

/* --- options.c ----------------------------------------------------------- */

/*
 * Each command declares its options once, in a table, as libgit2's cli
 * does with cli_opt_spec: an entry gives the long NAME, the ID getopt
 * returns for it (a letter is also its short option; other IDs are 256
 * or more), whether it takes an argument, the GROUP that takes it,
 * HELP, its lines in --help exactly as printed, and its binding: the
 * KIND of its value and where it goes.  The shared groups come
 * as the CMD_*_OPTS entries below, with their own help, so a command
 * names the groups it takes and lists only what is its own.
 *
 * An entry with HELP and no NAME is a heading in --help.  An entry with
 * a NAME and NULL HELP prints nothing: a later heading entry holds its
 * lines (getopt's messages about an ambiguous abbreviation list the
 * candidates in table order, so the table keeps that order even where
 * --help lists them in another).  An entry of zeros ends the table.
 */
enum cmd_opt_group {
	CMD_GROUP_OWN,		/* into cmd_parser.args, or returned */
	CMD_GROUP_INPUT,	/* --max-input, -j, --quiet, --snapshot */
	CMD_GROUP_VIEW,		/* into cmd_parser.view */
	CMD_GROUP_LEVEL,	/* into cmd_parser.write */
	CMD_GROUP_HELP,		/* -h prints --help, -V the version */
};
/*
 * A table names an entry's group by these, which are designators: an
 * entry is then a designated initializer, and the binding fields after
 * HELP (CMD_TO_* below) may be left out of one that has none (the
 * compiler's missing-initializer warning is for positional ones).
 */
#define CMD_OWN .group = CMD_GROUP_OWN
#define CMD_INPUT .group = CMD_GROUP_INPUT
#define CMD_VIEW .group = CMD_GROUP_VIEW
#define CMD_LEVEL .group = CMD_GROUP_LEVEL
#define CMD_HELP .group = CMD_GROUP_HELP

/*
 * What cmd_getopt() does with an option's value itself.  The destination
 * is DEST bytes into the group's struct: cmd_parser.args for the
 * command's own options, cmd_parser.view for CMD_VIEW, .write for
 * CMD_LEVEL.  CMD_SPECIAL, the default, stores nothing: an own option is
 * returned to the command's switch, a shared one is its group's.
 */
enum cmd_opt_kind {
	CMD_SPECIAL,
	CMD_SET,	/* no argument: the integer becomes VALUE */
	CMD_STRING,	/* the const char * becomes the argument */
	CMD_NUMBER,	/* a whole number in [LO, HI] (cmd_parse_long()) */
	CMD_REAL,	/* a double in [MIN, MAX] (cmd_parse_double()) */
	CMD_MODE,	/* CMD_SET, and two options setting the same DEST
			 * with different names "exclude each other" */
	CMD_CHOICE,	/* one of CHOICES' names: the integer becomes
			 * its value */
	CMD_SIZE,	/* a uint64_t byte count in [LO, HI]
			 * (cmd_parse_size()); EXPECTED: one, for the
			 * message */
	CMD_PARSED,	/* PARSE(OPTION, ARG, DEST) stores it, or says
			 * why not */
};

/* A word CMD_CHOICE takes, and its value; a NULL NAME ends the list. */
struct cmd_choice {
	const char *name;
	int value;
};

struct cmd_opt {
	const char *name;
	int id;
	int has_arg;	/* getopt's no_argument or required_argument */
	enum cmd_opt_group group;
	const char *help;
	/* The binding: the CMD_TO_* macros fill these. */
	enum cmd_opt_kind kind;
	size_t dest, size;	/* offset and size of the destination */
	long value;		/* CMD_SET, CMD_MODE */
	long lo, hi;		/* CMD_NUMBER's bounds */
	double min, max;	/* CMD_REAL's bounds */
	/* NOTED: the option's name goes into the const char * at NOTE too
	 * (CMD_NOTE(); a command that says which option needs another). */
	bool noted;
	size_t note;
	const struct cmd_choice *choices;	/* CMD_CHOICE */
	const char *expected;	/* CMD_CHOICE's words, CMD_SIZE's example */
	/* CMD_PARSED: false after a usage message naming OPTION ("--x") */
	bool (*parse)(const char *option, const char *arg, void *to);
};

/*
 * The binding of an entry, after its HELP: the field F of CMD_ARGS,
 * which the file defines as the type its own options go into (or of
 * struct cmd_view, for CMD_VIEW entries: the *_VIEW_* forms).  A string
 * or double field of another type is a compile error.
 */
#define CMD_DEST_(T, f) .dest = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define CMD_TO_SET_(T, f, v) .kind = CMD_SET, .value = (v), CMD_DEST_(T, f)
#define CMD_TO_STRING_(T, f) .kind = CMD_STRING, \
	CMD_DEST_(T, f) + 0 * sizeof(*(const char ***)0 = &((T *)0)->f)
#define CMD_TO_SET(f, v) CMD_TO_SET_(CMD_ARGS, f, v)
#define CMD_TO_STRING(f) CMD_TO_STRING_(CMD_ARGS, f)
#define CMD_TO_NUMBER(f, l, h) .kind = CMD_NUMBER, .lo = (l), .hi = (h), \
	CMD_DEST_(CMD_ARGS, f)
#define CMD_TO_REAL(f, lo, hi) .kind = CMD_REAL, .min = (lo), .max = (hi), \
	CMD_DEST_(CMD_ARGS, f) + 0 * sizeof(*(double **)0 = &((CMD_ARGS *)0)->f)
#define CMD_TO_MODE(f, v) .kind = CMD_MODE, .value = (v), \
	CMD_DEST_(CMD_ARGS, f)
#define CMD_TO_CHOICE(f, table, words) .kind = CMD_CHOICE, \
	.choices = (table), .expected = (words), CMD_DEST_(CMD_ARGS, f)
#define CMD_TO_SIZE(f, l, h, example) .kind = CMD_SIZE, .lo = (l), \
	.hi = (h), .expected = (example), CMD_DEST_(CMD_ARGS, f) + \
	0 * sizeof(*(uint64_t **)0 = &((CMD_ARGS *)0)->f)
#define CMD_TO_PARSED(f, fn) .kind = CMD_PARSED, .parse = (fn), \
	CMD_DEST_(CMD_ARGS, f)
#define CMD_NOTE(f) .noted = true, .note = offsetof(CMD_ARGS, f) + \
	0 * sizeof(*(const char ***)0 = &((CMD_ARGS *)0)->f)
#define CMD_VIEW_TO_SET(f, v) CMD_TO_SET_(struct cmd_view, f, v)
#define CMD_VIEW_TO_STRING(f) CMD_TO_STRING_(struct cmd_view, f)
#define CMD_VIEW_TO_PARSED(f, fn) .kind = CMD_PARSED, .parse = (fn), \
	CMD_DEST_(struct cmd_view, f)

/*
 * The granularity options, what a row, frame or node is (show, profflame,
 * profgraph): --functions (the default), --lines, --addresses, --files,
 * --filefunctions, each into the view's granularity.  Their help says
 * what they mean in the command, so the command gives it.
 */
enum {
	CMD_OPT_FUNCTIONS = 0x1600, CMD_OPT_LINES, CMD_OPT_ADDRESSES,
	CMD_OPT_FILES, CMD_OPT_FILEFUNCTIONS
};
#define CMD_BY_OPT_(name, id, by, help) { name, id, no_argument, CMD_VIEW, \
	help, CMD_VIEW_TO_SET(view.granularity, by) }
#define CMD_FUNCTIONS_OPT(help) CMD_BY_OPT_("functions", CMD_OPT_FUNCTIONS, \
	PROFCONV_BY_FUNCTION, help)
#define CMD_LINES_OPT(help) CMD_BY_OPT_("lines", CMD_OPT_LINES, \
	PROFCONV_BY_LINE, help)
#define CMD_ADDRESSES_OPT(help) CMD_BY_OPT_("addresses", CMD_OPT_ADDRESSES, \
	PROFCONV_BY_ADDRESS, help)
#define CMD_FILES_OPT(help) CMD_BY_OPT_("files", CMD_OPT_FILES, \
	PROFCONV_BY_FILE, help)
#define CMD_FILEFUNCTIONS_OPT(help) CMD_BY_OPT_("filefunctions", \
	CMD_OPT_FILEFUNCTIONS, PROFCONV_BY_FILE_FUNCTION, help)

/* A command's options: its table, the text of --help around the
 * options' lines, where the CMD_VIEW and CMD_LEVEL groups go (NULL
 * when the table has none of them), and ARGS, the CMD_ARGS the own
 * options' bindings go into. */
struct cmd_parser {
	const struct cmd_opt *opts;
	const char *usage;
	const char *footer;
	struct cmd_view *view;
	struct profconv_write_options *write;
	void *args;
};

enum {
	CMD_OPTS_END = 0,	/* no more options: optind is the first operand */
	CMD_OPTS_EXIT = -1,	/* --help or --version printed: exit 0 */
	CMD_OPTS_USAGE = -2	/* a usage message printed: exit 2 */
};

/*
 * The next option in ARGV that is the command's own (CMD_OWN) and
 * CMD_SPECIAL: its ID, with its argument in optarg.  Bound options and
 * those of the shared groups are taken on the way; otherwise
 * CMD_OPTS_END, CMD_OPTS_EXIT or CMD_OPTS_USAGE.  The first call starts
 * ARGV afresh (optind = 0), as a subcommand must.
 */
int cmd_getopt(const struct cmd_parser *p, int argc, char **argv);

/* -h and -V as most commands print them (show, profdiff, profflame,
 * proftrend); a command whose help has another column writes its own. */
#define CMD_HELP_OPT { "help", 'h', no_argument, CMD_HELP, \
	"  -h, --help            show this help and exit\n" }
#define CMD_VERSION_OPT { "version", 'V', no_argument, CMD_HELP, \
	"  -V, --version         show version information and exit\n" }

/*
 * Own options that several commands word alike, each bound to the
 * command's field F: -t as profflame and profgraph count a type, -t as
 * list and report show one, -o to a file instead of standard output
 * (profflame, profgraph), --trim-path (list, report).
 */
enum { CMD_OPT_TRIM_PATH = 0x1400 };
#define CMD_TYPE_COUNT_OPT(f) { "type", 't', required_argument, CMD_OWN, \
	"  -t, --type TYPE       sample type to count (default: the profile's\n" \
	"                        default, else the last one)\n", \
	CMD_TO_STRING(f) }
#define CMD_TYPE_SHOW_OPT(f) { "type", 't', required_argument, CMD_OWN, \
	"  -t, --type TYPE       sample type to show (default: the profile's\n" \
	"                        default)\n", CMD_TO_STRING(f) }
#define CMD_OUTPUT_OPT(f) { "output", 'o', required_argument, CMD_OWN, \
	"  -o, --output FILE     write to FILE instead of standard output\n", \
	CMD_TO_STRING(f) }
#define CMD_TRIM_PATH_OPT(f) { "trim-path", CMD_OPT_TRIM_PATH, \
	required_argument, CMD_OWN, \
	"      --trim-path PREFIXES\n" \
	"                        cut these ':'-separated prefixes from the\n" \
	"                        profile's file names before looking\n", \
	CMD_TO_STRING(f) }

/*
 * cmd_getopt() over ARGV, each of the command's own CMD_SPECIAL options
 * given to OWN(ARGS, ID) (false: it printed a usage message; NULL when
 * there are none).  EXIT_OK with
 * optind at the first operand, -1 after --help or --version, or
 * EXIT_USAGE.
 */
int cmd_parse_options(const struct cmd_parser *p, int argc, char **argv,
    bool (*own)(void *args, int id), void *args);

/*
 * The input group, options of every command that reads profiles:
 * --max-input SIZE, the largest input accepted once decompressed (a
 * bound on gzip bombs); -j N, threads for reading, symbolizing, writing
 * and drawing (default: one per online CPU; the output is the same
 * whatever N is); --quiet (progress.c); --snapshot peak|last|N, which
 * snapshot of a series (Valgrind massif) becomes the profile.
 */
enum {
	CMD_OPT_MAX_INPUT = 0x1000, CMD_OPT_QUIET, CMD_OPT_SNAPSHOT,
	CMD_OPT_ADD_COMMENT
};
#define CMD_MAX_INPUT_OPT { "max-input", CMD_OPT_MAX_INPUT, \
	required_argument, CMD_INPUT, \
	"      --max-input SIZE  refuse inputs larger than SIZE decompressed\n" \
	"                        (suffix K, M or G; default 8G)\n" }
#define CMD_JOBS_OPT { "jobs", 'j', required_argument, CMD_INPUT, \
	"  -j, --jobs N          use N threads (default: one per CPU); the\n" \
	"                        output is the same for every N\n" }
#define CMD_QUIET_OPT { "quiet", CMD_OPT_QUIET, no_argument, CMD_INPUT, \
	"      --quiet           show no progress on a terminal\n" }
#define CMD_SNAPSHOT_OPT { "snapshot", CMD_OPT_SNAPSHOT, \
	required_argument, CMD_INPUT, \
	"      --snapshot WHICH  massif: the snapshot to read, peak (default),\n" \
	"                        last, or a snapshot number\n" }
/* pprof's -add_comment, in the commands that write or print a profile's
 * comments (text2pb, merge, symbolize, show, profgraph). */
#define CMD_ADD_COMMENT_OPT { "add-comment", CMD_OPT_ADD_COMMENT, \
	required_argument, CMD_INPUT, \
	"      --add-comment TEXT\n" \
	"                        add TEXT to the comments of every profile\n" \
	"                        read (pprof -add_comment; may be repeated)\n" }
/* All four, for a command that takes them all. */
#define CMD_INPUT_OPTS CMD_MAX_INPUT_OPT, CMD_JOBS_OPT, CMD_QUIET_OPT, \
	CMD_SNAPSHOT_OPT

/* The thread count -j asked for; 0: the library's default (one per CPU). */
unsigned int cmd_jobs(void);
/* Whether --snapshot was given. */
bool cmd_snapshot_given(void);
/* Whether --add-comment was given. */
bool cmd_comments_given(void);
/* Append the --add-comment texts to PROF's comments: 0, or the
 * library's error code (not reported). */
int cmd_add_comments(struct profconv_profile *prof);
/* Put what --max-input, -j and --snapshot said into OPTS where it leaves
 * them to the command line, and the threads cmd_read_threads() asked
 * for. */
void cmd_apply_input_options(struct profconv_read_options *opts);
/* Read jemalloc dumps per thread from now on (profconv_read_options'
 * threads), for a command that shows threads. */
void cmd_read_threads(void);

/*
 * The view group, the options that say what a profile shows, the same
 * in every command that shows stacks or names (show, profdiff,
 * profflame, proftrend): --demangle, --no-inline, --focus, --ignore,
 * --keep-allocator-frames, --no-symbolize, --no-wrappers,
 * --find-wrappers, and pprof's
 * --hide, --show, --show-from, --prune-from.
 */
enum {
	CMD_OPT_DEMANGLE = 0x1100, CMD_OPT_NO_INLINE, CMD_OPT_FOCUS,
	CMD_OPT_IGNORE, CMD_OPT_KEEP_ALLOC, CMD_OPT_NO_SYMBOLIZE,
	CMD_OPT_NO_WRAPPERS, CMD_OPT_HIDE, CMD_OPT_SHOW, CMD_OPT_SHOW_FROM,
	CMD_OPT_PRUNE_FROM, CMD_OPT_FIND_WRAPPERS
};
#define CMD_VIEW_OPTS \
	{ "demangle", CMD_OPT_DEMANGLE, required_argument, CMD_VIEW, \
	  "      --demangle MODE   names as pprof shows them: simple (default;\n" \
	  "                        no parameters or template arguments),\n" \
	  "                        templates, full, or none (linker names)\n", \
	  CMD_VIEW_TO_PARSED(view.demangle, cmd_parse_demangle) }, \
	{ "no-inline", CMD_OPT_NO_INLINE, no_argument, CMD_VIEW, \
	  "      --no-inline       one frame per location, no inlined calls\n", \
	  CMD_VIEW_TO_SET(view.no_inline, 1) }, \
	{ "focus", CMD_OPT_FOCUS, required_argument, CMD_VIEW, \
	  "      --focus RE        keep only stacks with a frame matching RE\n", \
	  CMD_VIEW_TO_STRING(view.focus) }, \
	{ "ignore", CMD_OPT_IGNORE, required_argument, CMD_VIEW, \
	  "      --ignore RE       drop stacks with a frame matching RE\n", \
	  CMD_VIEW_TO_STRING(view.ignore) }, \
	{ "keep-allocator-frames", CMD_OPT_KEEP_ALLOC, no_argument, CMD_VIEW, \
	  "      --keep-allocator-frames\n" \
	  "                        keep malloc, operator new, and frames inside\n" \
	  "                        the allocator's library\n", \
	  CMD_VIEW_TO_SET(view.keep_allocator_frames, 1) }, \
	{ "no-wrappers", CMD_OPT_NO_WRAPPERS, no_argument, CMD_VIEW, \
	  "      --no-wrappers     keep the well-known allocation wrappers\n" \
	  "                        (xmalloc, zmalloc, PyObject_Malloc, g_malloc,\n" \
	  "                        ...), which are cut like malloc by default\n", \
	  CMD_VIEW_TO_SET(view.no_wrappers, 1) }, \
	{ "find-wrappers", CMD_OPT_FIND_WRAPPERS, no_argument, CMD_VIEW, \
	  "      --find-wrappers   also cut the functions that look like\n" \
	  "                        allocation wrappers in the profile: almost\n" \
	  "                        only ever directly above the allocator,\n" \
	  "                        from many callers; says which on stderr\n" }, \
	{ "hide", CMD_OPT_HIDE, required_argument, CMD_VIEW, \
	  "      --hide RE         remove frames matching RE (pprof's -hide)\n", \
	  CMD_VIEW_TO_STRING(view.hide) }, \
	{ "show", CMD_OPT_SHOW, required_argument, CMD_VIEW, \
	  "      --show RE         keep only frames matching RE (pprof's -show)\n", \
	  CMD_VIEW_TO_STRING(view.show) }, \
	{ "show-from", CMD_OPT_SHOW_FROM, required_argument, CMD_VIEW, \
	  "      --show-from RE    drop frames above the outermost match of RE\n" \
	  "                        (pprof's -show_from)\n", \
	  CMD_VIEW_TO_STRING(view.show_from) }, \
	{ "prune-from", CMD_OPT_PRUNE_FROM, required_argument, CMD_VIEW, \
	  "      --prune-from RE   drop frames below the innermost function\n" \
	  "                        matching RE (pprof's -prune_from)\n", \
	  CMD_VIEW_TO_STRING(view.prune_from) }, \
	{ "no-symbolize", CMD_OPT_NO_SYMBOLIZE, no_argument, CMD_VIEW, \
	  "      --no-symbolize    do not look up symbols in the mapped binaries\n", \
	  CMD_VIEW_TO_SET(no_symbolize, true) }

/*
 * The percent group, in the view group too, for the commands that print
 * shares of a total (show, list, profgraph): --relative-percentages.
 */
enum { CMD_OPT_RELATIVE = 0x11c0 };
#define CMD_PERCENT_OPTS \
	{ "relative-percentages", CMD_OPT_RELATIVE, no_argument, CMD_VIEW, \
	  "      --relative-percentages\n" \
	  "                        percentages of what the filters keep, not of\n" \
	  "                        the whole profile (pprof's\n" \
	  "                        -relative_percentages)\n", \
	  CMD_VIEW_TO_SET(view.relative_percentages, 1) }

/*
 * Where a command that symbolizes on the fly finds binaries, in the
 * view group: --sysroot, --search-path, --debuginfo-path, --debuginfod,
 * as profconv symbolize takes them.
 */
enum {
	CMD_OPT_SYSROOT = 0x1180, CMD_OPT_SEARCH_PATH, CMD_OPT_DEBUGINFO_PATH,
	CMD_OPT_DEBUGINFOD
};
#define CMD_FIND_OPTS \
	{ "sysroot", CMD_OPT_SYSROOT, required_argument, CMD_VIEW, \
	  "      --sysroot DIR     look for mapped files under DIR\n", \
	  CMD_VIEW_TO_STRING(sysroot) }, \
	{ "search-path", CMD_OPT_SEARCH_PATH, required_argument, CMD_VIEW, \
	  "      --search-path DIRS\n" \
	  "                        colon-separated directories to search for\n" \
	  "                        binaries by build id, path and base name\n", \
	  CMD_VIEW_TO_STRING(search_path) }, \
	{ "debuginfo-path", CMD_OPT_DEBUGINFO_PATH, required_argument, \
	  CMD_VIEW, \
	  "      --debuginfo-path PATH\n" \
	  "                        colon-separated directories to search for\n" \
	  "                        separate debug info first\n", \
	  CMD_VIEW_TO_STRING(debuginfo_path) }, \
	{ "debuginfod", CMD_OPT_DEBUGINFOD, no_argument, CMD_VIEW, \
	  "      --debuginfod      ask the servers in $DEBUGINFOD_URLS for\n" \
	  "                        missing debug info\n", \
	  CMD_VIEW_TO_SET(debuginfod, true) }

/*
 * The filter group, in the view group too: go tool pprof's label
 * filters --tagfocus, --tagignore, --tagroot, --tagleaf, --tagshow,
 * --taghide, and leak
 * suppressions, --suppressions FILE (read whole when the option is
 * taken) and --no-default-suppressions.
 */
enum {
	CMD_OPT_TAGFOCUS = 0x1300, CMD_OPT_TAGIGNORE, CMD_OPT_TAGROOT,
	CMD_OPT_TAGLEAF, CMD_OPT_SUPPRESSIONS, CMD_OPT_NO_DEFAULT_SUPP,
	CMD_OPT_TAGSHOW, CMD_OPT_TAGHIDE
};
#define CMD_FILTER_OPTS \
	{ "tagfocus", CMD_OPT_TAGFOCUS, required_argument, CMD_VIEW, \
	  "      --tagfocus [KEY=]VALUE\n" \
	  "                        keep only samples with a label matching\n" \
	  "                        VALUE, as go tool pprof -tagfocus: a range\n" \
	  "                        (16kb, 8kb:, :1mb, 1kb:64kb) for numbers,\n" \
	  "                        else regular expressions split at ','\n" }, \
	{ "tagignore", CMD_OPT_TAGIGNORE, required_argument, CMD_VIEW, \
	  "      --tagignore [KEY=]VALUE\n" \
	  "                        drop samples with a label matching VALUE\n" }, \
	{ "tagroot", CMD_OPT_TAGROOT, required_argument, CMD_VIEW, \
	  "      --tagroot KEYS    a frame per label key (split at ',') at the\n" \
	  "                        root of each stack, named by its values\n" }, \
	{ "tagleaf", CMD_OPT_TAGLEAF, required_argument, CMD_VIEW, \
	  "      --tagleaf KEYS    the same at the leaf of each stack\n" }, \
	{ "tagshow", CMD_OPT_TAGSHOW, required_argument, CMD_VIEW, \
	  "      --tagshow RE      print only labels whose key matches RE\n" \
	  "                        (profconv show's dump; no sample dropped)\n", \
	  CMD_VIEW_TO_STRING(view.tagshow) }, \
	{ "taghide", CMD_OPT_TAGHIDE, required_argument, CMD_VIEW, \
	  "      --taghide RE      print no label whose key matches RE\n", \
	  CMD_VIEW_TO_STRING(view.taghide) }, \
	{ "suppressions", CMD_OPT_SUPPRESSIONS, required_argument, CMD_VIEW, \
	  "      --suppressions FILE\n" \
	  "                        hide stacks a leak:PATTERN line of FILE\n" \
	  "                        (LeakSanitizer's format) matches\n" }, \
	{ "no-default-suppressions", CMD_OPT_NO_DEFAULT_SUPP, no_argument, \
	  CMD_VIEW, \
	  "      --no-default-suppressions\n" \
	  "                        leak reports keep the one-time runtime\n" \
	  "                        allocations they hide by default\n", \
	  CMD_VIEW_TO_SET(no_default_suppressions, true) }

/* What a command shows, and whether and how it symbolizes on the fly. */
struct cmd_view {
	struct profconv_view_options view;
	bool no_symbolize;
	const char *sysroot, *search_path, *debuginfo_path;
	bool debuginfod;
	/* --suppressions FILE's text (kept until exit), and
	 * --no-default-suppressions. */
	char *suppressions;
	bool no_default_suppressions;
};
#define CMD_VIEW_INIT { { PROFCONV_VIEW_OPTIONS_VERSION, \
	PROFCONV_BY_FUNCTION, PROFCONV_DEMANGLE_SIMPLE, 0, 0, NULL, NULL, \
	cmd_warn_fn, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
	NULL, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, 0 }, false, NULL, NULL, \
	NULL, \
	false, NULL, false }

/*
 * The level group, options of every command that writes pprof (text2pb,
 * symbolize, merge, proftrend -o): -l/--level 0..9 (0: uncompressed)
 * and --no-compress, the same as --level 0.
 */
enum { CMD_OPT_NO_COMPRESS = 0x1200 };
#define CMD_LEVEL_OPTS \
	{ "level", 'l', required_argument, CMD_LEVEL, \
	  "  -l, --level N         gzip level 0..9 (default 6; 0: uncompressed)\n", \
	  .kind = CMD_NUMBER, .lo = 0, .hi = 9, \
	  CMD_DEST_(struct profconv_write_options, level) }, \
	{ "no-compress", CMD_OPT_NO_COMPRESS, no_argument, CMD_LEVEL, \
	  "      --no-compress     write the protobuf without gzip (--level 0)\n", \
	  CMD_TO_SET_(struct profconv_write_options, level, 0) }

/* Parse a whole decimal number in [MIN, MAX] for OPTION. */
bool cmd_parse_long(const char *option, const char *text, long min, long max,
    long *out);

/*
 * A finite number in [MIN, MAX] for OPTION into *OUT (every float option
 * of every command: NaN, infinities and out-of-range values are usage
 * errors, said before any input is read); false after a usage message.
 */
bool cmd_parse_double(const char *option, const char *text, double min,
    double max, double *out);
/*
 * CMD_PARSED's parsers.  A flame graph's --minwidth, as
 * profconv_svg_options takes it: pixels or a percentage of at most 100
 * ("0.1", "2.5%"), into the const char * at TO.  A demangling mode
 * (--demangle) into the enum profconv_demangle at TO.
 */
bool cmd_parse_minwidth(const char *option, const char *text, void *to);
bool cmd_parse_demangle(const char *option, const char *text, void *to);

/*
 * TEXT as a byte count into *OUT: decimal digits and an optional suffix
 * K, M or G in either case (KiB, MiB, GiB), from MIN to MAX bytes.
 * False, and no message, when it is not: each option words its own.
 */
bool cmd_parse_size(const char *text, uint64_t min, uint64_t max,
    uint64_t *out);

/*
 * --by function|line|stack (profdiff, proftrend), bound to the command's
 * enum profconv_diff_by F.
 */
enum { CMD_OPT_BY = 0x1700 };
extern const struct cmd_choice cmd_by_choices[];
#define CMD_BY_OPT(f) { "by", CMD_OPT_BY, required_argument, CMD_OWN, \
	"      --by KIND         rows per function (default), line or stack\n", \
	CMD_TO_CHOICE(f, cmd_by_choices, "function, line or stack") }

/* --- load.c -------------------------------------------------------------- */

/* Whether cmd_read_profile() shows reading progress (merge shows files). */
extern bool cmd_read_progress;

/*
 * Read PATH and, unless V says not to, symbolize it from its binaries
 * with V's demangle mode and places to look (missing binaries are not
 * errors: at exit, one warning line says how many locations of the
 * command's profiles stayed unnamed, and which binaries were missing,
 * without symbols, of another build or not matching their mappings).
 * EXIT_OK or EXIT_FAIL.
 */
int cmd_load_profile(const struct cmd_view *v, const char *path,
    struct profconv_profile **out);
/*
 * The filters of V's view options that match nothing in PROF
 * (PROFCONV_FILTER_* bits, see profconv_filters_unmatched()); 0 when
 * that cannot be told (it is only a warning).  Commands with several
 * profiles keep the bits of the filters that matched in none (&).
 */
unsigned cmd_unmatched(const struct cmd_view *v,
    const struct profconv_profile *prof);
/* One warning line for each filter of V in UNMATCHED, in the order of
 * the options: "--tagfocus expression 'x=1' matched no samples". */
void cmd_warn_unmatched(const struct cmd_view *v, unsigned unmatched);
/* cmd_warn_unmatched() of the filters that match in neither of
 * PROF[0..1] (either may be NULL). */
void cmd_warn_unmatched_pair(const struct cmd_view *v,
    struct profconv_profile *const *prof);
/* Symbolize PROF, read from PATH, as cmd_load_profile() would have. */
int cmd_symbolize_view(const struct cmd_view *v, struct profconv_profile *prof,
    const char *path);

/*
 * PROF[1] from IN and, when BASE_PATH is not NULL, PROF[0] from it, as
 * cmd_load_profile() reads them, made comparable (the same sample
 * types); the caller frees both.  EXIT_OK or EXIT_FAIL.
 */
int cmd_load_pair(const struct cmd_view *v, const char *in,
    const char *base_path, struct profconv_profile **prof);
/*
 * One massif file is a series by itself: its detailed snapshots, in
 * order, named "FILE#N", read in one pass, symbolized as V says and
 * added to TREND (proftrend and report of one massif file), and to
 * SERIES first when it is not NULL (report's Explore tab).  EXIT_OK,
 * EXIT_FAIL, or -1 when PATH is no massif file with two detailed
 * snapshots (then read it as a profile).
 */
int cmd_add_massif_series(const struct cmd_view *v,
    struct profconv_trend *trend, struct profconv_report_series *series,
    const char *path);
/* VIEW[i] of each PROF[i] that is not NULL (i < 2), with V's view
 * options, given PROF[i]'s stacks (profconv_view_new_taking()): no
 * other view can be made of PROF[i] after; the caller frees them; a
 * warning for each filter that matched in neither
 * (cmd_warn_unmatched()).  EXIT_OK or EXIT_FAIL. */
int cmd_new_views(const struct cmd_view *v, struct profconv_profile **prof,
    struct profconv_view **view);
/* Free PROF[0..1] and VIEW[0..1] (any may be NULL), the profiles on a
 * thread of their own while the views are freed, and set them NULL. */
void cmd_free_views(struct profconv_profile **prof,
    struct profconv_view **view);

/*
 * The skeleton of the picture commands (profflame, profgraph): the views
 * of IN and of BASE_PATH (NULL: none) as cmd_load_pair() and
 * cmd_new_views() make them, VIEW[1] and VIEW[0], drawn by DRAW(VIEW,
 * FP, ARG) into OUT_PATH, which appears whole or not at all (output.c).
 * DRAW returns an exit status (cmd_draw_failed()); so does cmd_draw().
 */
typedef int cmd_draw_fn(struct profconv_view *const *view, FILE *fp,
    void *arg);
int cmd_draw(const struct cmd_view *v, const char *in, const char *base_path,
    const char *out_path, cmd_draw_fn *draw, void *arg);
/* The exit status of RC, what a library writer returned drawing IN to
 * OUT_PATH: EXIT_USAGE after its message for EINVAL (a bad option),
 * else as cmd_write_failed() says; EXIT_OK for 0. */
int cmd_draw_failed(int rc, const char *out_path, const char *in);

/* Warn once that PROF, read from SUBJECT, had text that was not UTF-8,
 * and once more if its reader found the input cut short. */
void cmd_warn_repairs(const struct profconv_profile *prof,
    const char *subject);

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
 * Read the profile at PATH with OPTS and write it as pprof to OUT_PATH
 * with WOPTS (either NULL: the defaults), as cmd_read_profile() then
 * cmd_write_profile() do, the same bytes; into a temporary file the
 * samples of large legacy text are written while it is read
 * (profconv_profile_convert()).  Reports its own errors.  EXIT_OK or
 * EXIT_FAIL.
 */
int cmd_convert_profile(const char *path,
    const struct profconv_read_options *opts, const char *out_path,
    const struct profconv_write_options *wopts);

/*
 * Whether PATH names an ELF executable or shared object (a program
 * given where a profile was expected, as jeprof takes it).
 */
bool cmd_is_program(const char *path);

/*
 * The series group, what proftrend and profconv report of a series
 * share: --by-thread, every row split per thread.
 */
enum { CMD_OPT_BY_THREAD = 0x1500 };
#define CMD_SERIES_OPTS \
	{ "by-thread", CMD_OPT_BY_THREAD, no_argument, CMD_OWN, \
	  "      --by-thread       every row split per thread, \"thread N\n" \
	  "                        (NAME)\", from jemalloc's per-thread samples\n" \
	  "                        or profconv text2pb --threads' labels\n" }
/* Option C of the series group into TO: true when it was one. */
bool cmd_series_option(int c, struct profconv_trend_options *to);
/*
 * V and TO as a leak report of a series takes them (proftrend, profconv
 * report of a series): the built-in suppressions of the runtime's
 * one-time allocations unless --no-default-suppressions, TO's view V's.
 */
void cmd_series_view(struct cmd_view *v, struct profconv_trend_options *to);

/* A series' read warnings ("the dump was cut short") as one line, printed
 * by cmd_series_warnings_flush(), instead of one a file. */
void cmd_series_warnings(bool on);
void cmd_series_warnings_flush(void);
/* True: cmd_warn() prints nothing (proftrend -q). */
extern bool cmd_no_warnings;
/* The usage error for a program given before the profile, as jeprof
 * takes them ("show /usr/bin/prog x.heap"): EXPECTED, then why one
 * file is enough; -1 when ARGV[0] of the 2 ARGC left is no program. */
int cmd_program_given(const char *expected, int argc, char **argv);

/*
 * The usage error of a pprof writer given no -o while standard output is
 * a terminal, as gzip refuses one: EXIT_USAGE after one line saying to
 * use -o FILE or a pipe, or EXIT_OK when standard output is no terminal.
 */
int cmd_refuse_terminal(void);

/*
 * Symbolize PROF (read from SUBJECT) with OPTS (NULL: the defaults),
 * warnings on stderr; with SUMMARY, one line saying how many locations
 * got symbols and why the rest did not.  EXIT_OK or EXIT_FAIL.
 */
int cmd_symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary);

/* --- output.c ------------------------------------------------------------ */

/*
 * An output that appears whole or not at all: a temporary file beside
 * PATH renamed over it on commit; "-" is standard output.  The rules for
 * links, descriptors, devices, attributes and signals are in output.c.
 */
struct cmd_output {
	const char *path;	/* as the user gave it, for messages */
	char *target;		/* the file written, links followed */
	char *tmp;		/* the temporary file, or NULL */
	FILE *fp;
	bool in_place;		/* hard-linked: copy into target on commit */
};

int cmd_output_open(struct cmd_output *o, const char *path);
/* Finish: flush, close and rename; reports errors.  EXIT_OK/EXIT_FAIL. */
int cmd_output_commit(struct cmd_output *o);
/* Give up: close and remove the temporary file. */
void cmd_output_abort(struct cmd_output *o);
/* Commit O when STATUS is EXIT_OK, else abort it; the exit status. */
int cmd_output_end(struct cmd_output *o, int status);
/* Remove the temporary file of the output being written, if any, from
 * a signal handler (async-signal-safe); the process is about to end. */
void cmd_output_abandon(void);

/* --- sigbus.c ------------------------------------------------------------ */

/*
 * While symbolizing: SIGBUS on an address in a mapped file (truncated
 * while it is read) prints one line naming the file and offset, removes
 * the temporary output file and exits EXIT_FAIL.  Idempotent; leaves a
 * handler someone else installed.  Returns whether ours is installed
 * (then the symbolizer may map files in place: handles_sigbus).
 */
bool cmd_catch_sigbus(void);

/* --- readahead.c --------------------------------------------------------- */

/*
 * Reading ahead (readahead.c): reader threads read PATHS[0..N-1], claimed
 * in order, at most DEPTH inputs (or one per reader, if more) ahead of
 * what the caller has taken, reporting unreadable ones themselves (with
 * several readers, messages about different inputs may come in any
 * order).  The -j threads go to up to 4 concurrent reads, the rest (and
 * at the end, those of idle readers) to each read; with more than one
 * reader, reads show no progress of their own (cmd_read_progress is false
 * until finish).  Take each input in order; the caller owns it (NULL:
 * unreadable).  Finish to stop early or at the end.
 */
struct cmd_readahead;
int cmd_readahead_start(struct cmd_readahead **out, char **paths, int n,
    int depth);
struct profconv_profile *cmd_readahead_take(struct cmd_readahead *ra, int i);
void cmd_readahead_finish(struct cmd_readahead *ra);
/*
 * A series' snapshots PATHS[0..N-1] (proftrend, profconv report): read
 * ahead, DEPTH at a time, each symbolized as V says in the caller's
 * thread and handed over in order to ADD(ARG, PROF, PATH), which owns
 * PROF and returns an exit status.  Every unreadable input is reported
 * before giving up; at the end, the filters of V that matched in no
 * snapshot are warned about.  An exit status.
 */
typedef int cmd_add_fn(void *arg, struct profconv_profile *prof,
    const char *path);
int cmd_add_snapshots(const struct cmd_view *v, char **paths, int n,
    int depth, cmd_add_fn *add, void *arg);

/* --- cmd_*.c ------------------------------------------------------------- */

/* The entry points of the profconv subcommands (profconv.c's table). */
int cmd_list(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_text2pb(int argc, char **argv);

#endif /* PROFCONV_CMD_CLI_H */
