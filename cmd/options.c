/* SPDX-License-Identifier: MIT */
/* options.c - the options the commands share, and the number parsers
 * every option value goes through. */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* 0: the library's default, PROFCONV_DEFAULT_MAX_INPUT. */
static uint64_t max_input;
static unsigned int jobs;
/* --snapshot, when given. */
static int64_t snapshot;
static bool snapshot_set;
static bool read_threads;	/* cmd_read_threads() */
/* --add-comment's texts, in order (argv's strings). */
static const char **comments;
static size_t ncomments;

bool
cmd_parse_long(const char *option, const char *text, long min, long max,
    long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || *end != '\0' || errno == ERANGE || v < min ||
	    v > max) {
		cmd_usage_error("invalid %s value '%s' (expected %ld..%ld)",
		    option, text, min, max);
		return false;
	}
	*out = v;
	return true;
}

bool
cmd_parse_double(const char *option, const char *text, double min,
    double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	/* !(v >= min) and !(v <= max) refuse NaN too; ERANGE, infinities
	 * and 1e400. */
	if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v) ||
	    !(v >= min) || !(v <= max)) {
		cmd_usage_error("invalid %s value '%s' (expected %g..%g)",
		    option, text, min, max);
		return false;
	}
	*out = v;
	return true;
}

bool
cmd_parse_minwidth(const char *option, const char *text, void *to)
{
	size_t n = strlen(text), digits = strspn(text, "0123456789.");
	bool pct = n > 0 && text[n - 1] == '%';
	char *end;
	double v;

	errno = 0;
	v = digits > 0 ? strtod(text, &end) : 0;
	if (digits == 0 || digits != n - (pct ? 1 : 0) ||
	    end != text + digits || errno == ERANGE || !isfinite(v) ||
	    (pct && v > 100)) {
		cmd_usage_error("invalid %s value '%s' (pixels, or a "
		    "percentage such as 0.5%%)", option, text);
		return false;
	}
	memcpy(to, &text, sizeof(text));
	return true;
}

bool
cmd_parse_demangle(const char *option, const char *text, void *to)
{
	enum profconv_demangle d;

	if (profconv_demangle_parse(text, &d) < 0) {
		cmd_usage_error("invalid %s value '%s' (use simple, templates, "
		    "full or none)", option, text);
		return false;
	}
	memcpy(to, &d, sizeof(d));
	return true;
}

bool
cmd_parse_size(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	static const char suffixes[] = "KkMmGg";
	const char *p = text, *u;
	unsigned long long v;
	char *end;
	int shift = 0;

	/* Blanks and a '+' first are strtoull()'s, and --max-input has
	 * always taken them; a '-' it would wrap round to a huge size. */
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno == ERANGE)
		return false;
	if (*end != '\0' && (u = strchr(suffixes, *end)) != NULL) {
		shift = 10 * (int)((u - suffixes) / 2 + 1);
		end++;
	}
	if (*end != '\0' || v > (max >> shift) || ((uint64_t)v << shift) < min)
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

/* The --max-input, -j and --snapshot values: false after a usage message. */
static bool
set_max_input(const char *text)
{
	if (!cmd_parse_size(text, 1, UINT64_MAX, &max_input)) {
		cmd_usage_error("invalid --max-input value '%s' (a size such "
		    "as 512M or 4G)", text);
		return false;
	}
	return true;
}

static bool
set_jobs(const char *text)
{
	long v;

	if (!cmd_parse_long("--jobs", text, 1, PROFCONV_MAX_JOBS, &v))
		return false;
	jobs = (unsigned int)v;
	return true;
}

unsigned int
cmd_jobs(void)
{
	return jobs;
}

bool
cmd_snapshot_given(void)
{
	return snapshot_set;
}

static bool
set_snapshot(const char *text)
{
	unsigned long long v;
	char *end;

	snapshot_set = true;
	if (strcmp(text, "peak") == 0 || strcmp(text, "last") == 0) {
		snapshot = text[0] == 'p' ? PROFCONV_SNAPSHOT_PEAK :
		    PROFCONV_SNAPSHOT_LAST;
		return true;
	}
	errno = 0;
	v = strtoull(text, &end, 10);
	if (end == text || *end != '\0' || errno == ERANGE || v > INT64_MAX ||
	    text[0] < '0' || text[0] > '9') {
		cmd_usage_error("invalid --snapshot value '%s' (peak, last or "
		    "a snapshot number)", text);
		return false;
	}
	snapshot = (int64_t)v;
	return true;
}

/* One more --add-comment TEXT; false after a usage message. */
static bool
add_comment(const char *text)
{
	const char **c;

	if (ncomments >= 1000) {
		cmd_usage_error("more than 1000 --add-comment options");
		return false;
	}
	c = realloc(comments, (ncomments + 1) * sizeof(*c));
	if (c == NULL) {
		cmd_usage_error("--add-comment: %s", strerror(ENOMEM));
		return false;
	}
	comments = c;
	comments[ncomments++] = text;
	return true;
}

/*
 * The input group's option C with its argument ARG: 1 when taken, -1
 * after a usage message for a bad value.
 */
static int
input_option(int c, const char *arg)
{
	bool ok;

	switch (c) {
	case CMD_OPT_QUIET:
		cmd_quiet = true;
		return 1;
	case CMD_OPT_SNAPSHOT:
		ok = set_snapshot(arg);
		break;
	case CMD_OPT_MAX_INPUT:
		ok = set_max_input(arg);
		break;
	case 'j':
		ok = set_jobs(arg);
		break;
	case CMD_OPT_ADD_COMMENT:
		ok = add_comment(arg);
		break;
	default:
		return 0;
	}
	return ok ? 1 : -1;
}

bool
cmd_comments_given(void)
{
	return ncomments > 0;
}

int
cmd_add_comments(struct profconv_profile *prof)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < ncomments; i++)
		rc = profconv_profile_add_comment(prof, comments[i]);
	return rc;
}

void
cmd_apply_input_options(struct profconv_read_options *opts)
{
	if (opts->max_input == 0)
		opts->max_input = max_input;
	if (opts->jobs == 0)
		opts->jobs = jobs;
	if (snapshot_set)
		opts->snapshot = snapshot;
	if (read_threads)
		opts->threads = 1;
}

void
cmd_read_threads(void)
{
	read_threads = true;
}

/* The last suppressions file's text, kept to the end of the process. */
static char *suppressions_text;

/*
 * The text of suppressions file PATH into V; false after a message.  A
 * regular file or a pipe (a shell's <(...)) of at most
 * PROFCONV_MAX_SUPPRESSIONS bytes: a device such as /dev/zero, a
 * directory or a larger file is refused before it is read whole.
 */
static bool
read_suppressions(struct cmd_view *v, const char *path)
{
	size_t len = 0, cap = PROFCONV_MAX_SUPPRESSIONS + 2;
	const char *why = NULL;
	struct stat st;
	char *buf;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		cmd_usage_error("cannot read suppressions file '%s': %s", path,
		    strerror(errno));
		return false;
	}
	if (fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		why = S_ISDIR(st.st_mode) ? "a directory" :
		    "not a regular file or a pipe";
	else if (S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > PROFCONV_MAX_SUPPRESSIONS)
		why = "larger than 1 MiB";
	buf = why == NULL ? malloc(cap) : NULL;
	if (why == NULL && buf == NULL) {
		close(fd);
		cmd_error("out of memory");
		return false;
	}
	while (why == NULL && len < cap - 1) {
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			why = strerror(errno);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (why == NULL && len > PROFCONV_MAX_SUPPRESSIONS)
		why = "larger than 1 MiB";
	else if (why == NULL && memchr(buf, '\0', len) != NULL)
		why = "not text (a NUL byte)";
	if (why != NULL) {
		cmd_usage_error("cannot read suppressions file '%s': %s", path,
		    why);
		free(buf);
		return false;
	}
	buf[len] = '\0';
	free(suppressions_text);
	suppressions_text = buf;
	v->suppressions = buf;
	v->view.suppressions = buf;
	v->view.suppressions_name = path;
	return true;
}

/* The view group's option C that its table entry does not bind, with
 * its argument ARG, into V: 1 when taken, -1 after a usage message. */
static int
view_option(struct cmd_view *v, int c, const char *arg)
{
	/* The label filters and frames see jemalloc's threads: its dumps
	 * are read a sample per thread line, as text2pb --threads does. */
	switch (c) {
	case CMD_OPT_TAGFOCUS:
		v->view.tagfocus = arg;
		cmd_read_threads();
		return 1;
	case CMD_OPT_TAGIGNORE:
		v->view.tagignore = arg;
		cmd_read_threads();
		return 1;
	case CMD_OPT_TAGROOT:
		v->view.tagroot = arg;
		cmd_read_threads();
		return 1;
	case CMD_OPT_TAGLEAF:
		v->view.tagleaf = arg;
		cmd_read_threads();
		return 1;
	case CMD_OPT_SUPPRESSIONS:
		return read_suppressions(v, arg) ? 1 : -1;
	case CMD_OPT_FIND_WRAPPERS:
		v->view.find_wrappers = 1;
		v->view.wrappers_found = cmd_wrappers_found;
		return 1;
	default:
		return 0;
	}
}

const struct cmd_choice cmd_by_choices[] = {
	{ "function", PROFCONV_DIFF_BY_FUNCTION },
	{ "line", PROFCONV_DIFF_BY_LINE },
	{ "stack", PROFCONV_DIFF_BY_STACK },
	{ NULL, 0 }
};

/* --- the option tables ------------------------------------------------ */

/* The most options a table may have (profflame has 46). */
#define MAX_OPTS 128

/* getopt_long()'s arrays for the table they were made from. */
static const struct cmd_opt *built_for;
static struct option longopts[MAX_OPTS + 1];
static char shortopts[2 * MAX_OPTS + 1];

/* Make getopt_long()'s arrays from OPTS, in table order: that order is
 * the one getopt lists the candidates of an ambiguous abbreviation in. */
static void
build(const struct cmd_opt *opts)
{
	size_t n = 0, k = 0;

	for (; opts->name != NULL || opts->help != NULL; opts++) {
		if (opts->name == NULL)
			continue;	/* a heading */
		if (n == MAX_OPTS)
			abort();	/* a table larger than MAX_OPTS */
		longopts[n].name = opts->name;
		longopts[n].has_arg = opts->has_arg;
		longopts[n].flag = NULL;
		longopts[n].val = opts->id;
		n++;
		if (opts->id < 256) {
			shortopts[k++] = (char)opts->id;
			if (opts->has_arg == required_argument)
				shortopts[k++] = ':';
		}
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[k] = '\0';
}

/* The entry of OPTS whose ID getopt returned as C, or NULL for '?'. */
static const struct cmd_opt *
find(const struct cmd_opt *opts, int c)
{
	for (; opts->name != NULL || opts->help != NULL; opts++)
		if (opts->name != NULL && opts->id == c)
			return opts;
	return NULL;
}

static void
print_help(const struct cmd_parser *p)
{
	const struct cmd_opt *o;

	fputs(p->usage, stdout);
	for (o = p->opts; o->name != NULL || o->help != NULL; o++)
		if (o->help != NULL)
			fputs(o->help, stdout);
	fputs(p->footer, stdout);
}

/* The CMD_MODE option that set each destination so far (the command's
 * own), to say which two exclude each other. */
static const struct cmd_opt *modes[16];
static size_t nmodes;

/* Whether mode option O may set its destination: no other option set it
 * before; false after a usage message. */
static bool
take_mode(const struct cmd_opt *o)
{
	size_t i;

	for (i = 0; i < nmodes; i++) {
		if (modes[i]->dest != o->dest)
			continue;
		if (strcmp(modes[i]->name, o->name) == 0)
			return true;
		cmd_usage_error("--%s and --%s exclude each other",
		    modes[i]->name, o->name);
		return false;
	}
	if (nmodes == sizeof(modes) / sizeof(modes[0]))
		abort();	/* more mode destinations than a table has */
	modes[nmodes++] = o;
	return true;
}

/* V into the integer of SIZE bytes at TO. */
static void
store_int(void *to, size_t size, long v)
{
	int8_t i8 = (int8_t)v;
	int32_t i32 = (int32_t)v;
	int64_t i64 = v;

	switch (size) {
	case 1: memcpy(to, &i8, 1); break;
	case 4: memcpy(to, &i32, 4); break;
	case 8: memcpy(to, &i64, 8); break;
	default: abort();	/* a binding of another size */
	}
}

/* ARG, the argument of O, as O's kind says, into O's destination in
 * BASE: 1, or -1 after a usage message. */
static int
store(const struct cmd_opt *o, char *base, const char *arg)
{
	char option[64];
	const struct cmd_choice *ch;
	uint64_t u;
	double d;
	long v;

	snprintf(option, sizeof(option), "--%s", o->name);
	if (o->noted)
		memcpy(base + o->note, &o->name, sizeof(o->name));
	switch (o->kind) {
	case CMD_MODE:
		if (!take_mode(o))
			return -1;
		/* fall through */
	case CMD_SET:
		store_int(base + o->dest, o->size, o->value);
		return 1;
	case CMD_STRING:
		memcpy(base + o->dest, &arg, sizeof(arg));
		return 1;
	case CMD_NUMBER:
		if (!cmd_parse_long(option, arg, o->lo, o->hi, &v))
			return -1;
		store_int(base + o->dest, o->size, v);
		return 1;
	case CMD_REAL:
		if (!cmd_parse_double(option, arg, o->min, o->max, &d))
			return -1;
		memcpy(base + o->dest, &d, sizeof(d));
		return 1;
	case CMD_CHOICE:
		for (ch = o->choices; ch->name != NULL; ch++)
			if (strcmp(ch->name, arg) == 0) {
				store_int(base + o->dest, o->size, ch->value);
				return 1;
			}
		cmd_usage_error("invalid %s value '%s' (use %s)", option, arg,
		    o->expected);
		return -1;
	case CMD_SIZE:
		if (!cmd_parse_size(arg, (uint64_t)o->lo, (uint64_t)o->hi,
		    &u)) {
			cmd_usage_error("invalid %s value '%s' (a size such as "
			    "%s)", option, arg, o->expected);
			return -1;
		}
		memcpy(base + o->dest, &u, sizeof(u));
		return 1;
	case CMD_PARSED:
		return o->parse(option, arg, base + o->dest) ? 1 : -1;
	case CMD_SPECIAL:
		break;
	}
	return 0;
}

/* Take O, a bound option or a shared group's, with its argument ARG: 0,
 * or CMD_OPTS_EXIT or CMD_OPTS_USAGE. */
static int
take(const struct cmd_parser *p, const struct cmd_opt *o, const char *arg)
{
	int taken = 1;

	switch (o->group) {
	case CMD_GROUP_INPUT:
		taken = input_option(o->id, arg);
		break;
	case CMD_GROUP_VIEW:
		taken = store(o, (char *)p->view, arg);
		if (taken == 0)
			taken = view_option(p->view, o->id, arg);
		break;
	case CMD_GROUP_LEVEL:	/* all bound */
		taken = store(o, (char *)p->write, arg);
		break;
	case CMD_GROUP_HELP:
		if (o->id == 'V')
			cmd_version();
		else
			print_help(p);
		return CMD_OPTS_EXIT;
	case CMD_GROUP_OWN:
		taken = store(o, p->args, arg);
		break;
	}
	return taken < 0 ? CMD_OPTS_USAGE : 0;
}

int
cmd_getopt(const struct cmd_parser *p, int argc, char **argv)
{
	const struct cmd_opt *o;
	int c, rc;

	if (built_for != p->opts) {
		build(p->opts);
		built_for = p->opts;
		nmodes = 0;
		optind = 0;	/* glibc: a full reset for this argv */
	}
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		o = find(p->opts, c);
		if (o == NULL) {	/* getopt has said what was wrong */
			cmd_usage_hint();
			return CMD_OPTS_USAGE;
		}
		if (o->group == CMD_GROUP_OWN && o->kind == CMD_SPECIAL)
			return c;
		rc = take(p, o, optarg);
		if (rc != 0)
			return rc;
	}
	/* A --focus or --ignore that cannot compile is a usage error, said
	 * before any input is read. */
	if (p->view != NULL && profconv_view_options_check(&p->view->view) < 0) {
		cmd_usage_error("%s", profconv_errmsg());
		return CMD_OPTS_USAGE;
	}
	return CMD_OPTS_END;
}

int
cmd_parse_options(const struct cmd_parser *p, int argc, char **argv,
    bool (*own)(void *args, int id), void *args)
{
	int c;

	while ((c = cmd_getopt(p, argc, argv)) > 0)
		if (own == NULL || !own(args, c))
			return EXIT_USAGE;
	if (c == CMD_OPTS_END)
		return EXIT_OK;
	return c == CMD_OPTS_EXIT ? -1 : EXIT_USAGE;
}
