/* SPDX-License-Identifier: MIT */
/* common.c - messages, number parsing, reading and writing profiles. */

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"

const char *cmd_name = "profconv";

/* 0: the library's default, PROFCONV_DEFAULT_MAX_INPUT. */
static uint64_t max_input;
static unsigned int jobs;
/* --snapshot, when given. */
static int64_t snapshot;
static bool snapshot_set;

bool cmd_quiet;
bool cmd_read_progress = true;

/* --- progress on a terminal ----------------------------------------------- */

/* Work shorter than this shows no progress at all. */
#define PROGRESS_DELAY 1.0
/* The line is rewritten at most this often. */
#define PROGRESS_EVERY 0.1

static pthread_mutex_t stderr_mu = PTHREAD_MUTEX_INITIALIZER;

static struct {
	bool on;		/* this phase shows progress */
	bool shown;		/* a progress line is on the terminal */
	bool bytes;		/* units are bytes */
	char units[16];
	char label[256];
	double start, last;
} prog;

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Erase the progress line; the caller holds stderr_mu. */
static void
erase_progress(void)
{
	if (prog.shown)
		fputs("\r\033[K", stderr);
	prog.shown = false;
}

void
cmd_progress_begin(const char *units, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&stderr_mu);
	erase_progress();
	prog.on = !cmd_quiet && isatty(STDERR_FILENO);
	prog.bytes = strcmp(units, "bytes") == 0;
	snprintf(prog.units, sizeof(prog.units), "%s", units);
	va_start(ap, fmt);
	vsnprintf(prog.label, sizeof(prog.label), fmt, ap);
	va_end(ap);
	prog.start = seconds();
	prog.last = 0;
	pthread_mutex_unlock(&stderr_mu);
}

static void
print_mib(uint64_t n)
{
	fprintf(stderr, "%.1f MiB", (double)n / (1024.0 * 1024.0));
}

void
cmd_progress(uint64_t done, uint64_t total)
{
	double now;

	if (!prog.on)
		return;
	now = seconds();
	pthread_mutex_lock(&stderr_mu);
	if (now - prog.start >= PROGRESS_DELAY &&
	    now - prog.last >= PROGRESS_EVERY) {
		prog.last = now;
		fprintf(stderr, "\r%s: %s: ", cmd_name, prog.label);
		if (prog.bytes && total != 0) {
			fprintf(stderr, "%d%% (", (int)(done * 100 / total));
			print_mib(done);
			fputs(" of ", stderr);
			print_mib(total);
			fputc(')', stderr);
		} else if (prog.bytes) {
			print_mib(done);
		} else if (total != 0) {
			fprintf(stderr, "%llu of %llu %s",
			    (unsigned long long)done,
			    (unsigned long long)total, prog.units);
		} else {
			fprintf(stderr, "%llu %s", (unsigned long long)done,
			    prog.units);
		}
		fputs("\033[K", stderr);
		fflush(stderr);
		prog.shown = true;
	}
	pthread_mutex_unlock(&stderr_mu);
}

void
cmd_progress_fn(uint64_t done, uint64_t total, void *payload)
{
	(void)payload;
	cmd_progress(done, total);
}

void
cmd_progress_end(void)
{
	pthread_mutex_lock(&stderr_mu);
	erase_progress();
	prog.on = false;
	pthread_mutex_unlock(&stderr_mu);
}

/* --- messages --------------------------------------------------------------- */

static void vmessage(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
vmessage(const char *prefix, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&stderr_mu);
	erase_progress();
	fprintf(stderr, "%s: %s", cmd_name, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&stderr_mu);
}

int
cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return EXIT_FAIL;
}

void
cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

int
cmd_error_lib(const char *subject)
{
	return cmd_error("'%s': %s", subject, profconv_errmsg());
}

int
cmd_usage_hint(void)
{
	fprintf(stderr, "Try '%s --help'.\n", cmd_name);
	return EXIT_USAGE;
}

int
cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return cmd_usage_hint();
}

int
cmd_version(void)
{
	/* GNU's form, "PROGRAM (PACKAGE) VERSION", then the libraries. */
	printf("%s (%s) %s\n%s\n", cmd_name, PACKAGE_NAME, PACKAGE_VERSION,
	    profconv_version_details());
	return EXIT_OK;
}

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
cmd_set_max_input(const char *text)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (end != text && end[0] != '\0' && end[1] == '\0') {
		shift = end[0] == 'K' ? 10 : end[0] == 'M' ? 20 :
		    end[0] == 'G' ? 30 : -1;
		end++;
	}
	if (end == text || *end != '\0' || errno == ERANGE || shift < 0 ||
	    v == 0 || v > (UINT64_MAX >> shift) || text[0] == '-') {
		cmd_usage_error("invalid --max-input value '%s' (a size such "
		    "as 512M or 4G)", text);
		return false;
	}
	max_input = (uint64_t)v << shift;
	return true;
}

bool
cmd_set_jobs(const char *text)
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

int
cmd_input_option(int c, const char *arg)
{
	bool ok;

	switch (c) {
	case CMD_OPT_QUIET:
		cmd_quiet = true;
		return 1;
	case CMD_OPT_SNAPSHOT:
		ok = cmd_set_snapshot(arg);
		break;
	case CMD_OPT_MAX_INPUT:
		ok = cmd_set_max_input(arg);
		break;
	case 'j':
		ok = cmd_set_jobs(arg);
		break;
	default:
		return 0;
	}
	return ok ? 1 : -1;
}

/* The end of a read: its error, or the one warning repairs deserve. */
static int
read_done(int rc, const struct profconv_profile *prof, const char *subject)
{
	size_t n;

	if (cmd_read_progress)
		cmd_progress_end();
	if (rc < 0)
		return cmd_error_lib(subject);
	n = profconv_profile_repaired_strings(prof);
	if (n != 0)
		cmd_warn("'%s': %zu string%s not valid UTF-8, invalid bytes "
		    "replaced by U+FFFD", subject, n, n == 1 ? " was" :
		    "s were");
	return EXIT_OK;
}

bool
cmd_set_snapshot(const char *text)
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

int
cmd_read_profile(const char *path, const struct profconv_read_options *given,
    struct profconv_profile **out)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct stat st;
	FILE *fp;
	int rc;

	if (given != NULL)
		opts = *given;
	if (opts.max_input == 0)
		opts.max_input = max_input;
	if (opts.jobs == 0)
		opts.jobs = jobs;
	if (cmd_read_progress) {
		opts.progress = cmd_progress_fn;
		cmd_progress_begin("bytes", "reading '%s'",
		    strcmp(path, "-") == 0 ? "<stdin>" : path);
	}
	if (snapshot_set)
		opts.snapshot = snapshot;

	if (strcmp(path, "-") == 0) {
		rc = profconv_profile_read(out, stdin, &opts, NULL);
		return read_done(rc, *out, "<stdin>");
	}
	fp = fopen(path, "rb");
	if (fp == NULL)
		return cmd_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		return cmd_error("cannot read '%s': Is a directory", path);
	}
	rc = profconv_profile_read(out, fp, &opts, NULL);
	fclose(fp);
	return read_done(rc, *out, path);
}

int
cmd_write_profile(const struct profconv_profile *prof, const char *out_path,
    const struct profconv_write_options *given)
{
	struct profconv_write_options opts = PROFCONV_WRITE_OPTIONS_INIT;
	struct cmd_output out;
	int status;

	if (given != NULL)
		opts = *given;
	if (opts.jobs == 0)
		opts.jobs = jobs;
	status = cmd_output_open(&out, out_path);
	if (status != EXIT_OK)
		return status;
	status = profconv_profile_write(prof, out.fp, &opts);
	if (status < 0) {
		status = cmd_write_failed(out_path, status, errno, out_path);
		cmd_output_abort(&out);
		return status;
	}
	return cmd_output_commit(&out);
}

static void
print_warning(const char *msg, void *payload)
{
	(void)payload;
	cmd_warn("%s", msg);
}

/* One line: how many locations got symbols, and why the rest did not. */
static void
print_summary(const struct profconv_symbolize_stats *st)
{
	size_t todo = st->locations - st->already_symbolized;

	fprintf(stderr, "%s: symbolized %zu of %zu locations", cmd_name,
	    st->symbolized, todo);
	if (st->already_symbolized != 0)
		fprintf(stderr, " (%zu had symbols)", st->already_symbolized);
	if (st->no_binary != 0)
		fprintf(stderr, "; %zu: binary not found", st->no_binary);
	if (st->build_id_mismatch != 0)
		fprintf(stderr, "; %zu: build id mismatch",
		    st->build_id_mismatch);
	if (st->no_debuginfo != 0)
		fprintf(stderr, "; %zu: no debug info", st->no_debuginfo);
	if (st->unusable != 0)
		fprintf(stderr, "; %zu: file not usable", st->unusable);
	if (st->unsymbolizable != 0)
		fprintf(stderr, "; %zu: not symbolizable", st->unsymbolizable);
	fputc('\n', stderr);
}

/*
 * One symbolizer for the whole command, so that the profiles of one
 * program (profdiff's two, proftrend's series, merge's inputs) open and
 * decode each binary once; made again when the options change.
 */
static struct profconv_symbolizer *symbolizer;
static struct profconv_symbolize_options symbolizer_opts;

static bool
same_string(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_symbolize_options(const struct profconv_symbolize_options *a,
    const struct profconv_symbolize_options *b)
{
	return same_string(a->sysroot, b->sysroot) &&
	    same_string(a->search_path, b->search_path) &&
	    same_string(a->debuginfo_path, b->debuginfo_path) &&
	    same_string(a->maps_file, b->maps_file) && a->pid == b->pid &&
	    a->debuginfod == b->debuginfod && a->strict == b->strict &&
	    a->demangle == b->demangle && a->jobs == b->jobs;
}

static char *symbolizer_strs[4];

static void
free_symbolizer(void)
{
	size_t i;

	profconv_symbolizer_free(symbolizer);
	symbolizer = NULL;
	for (i = 0; i < 4; i++) {
		free(symbolizer_strs[i]);
		symbolizer_strs[i] = NULL;
	}
}

/* A copy of the string option *FIELD that outlives the caller's. */
static bool
keep_string(const char **field, size_t slot)
{
	if (*field == NULL)
		return true;
	symbolizer_strs[slot] = strdup(*field);
	*field = symbolizer_strs[slot];
	return *field != NULL;
}

static int
get_symbolizer(const struct profconv_symbolize_options *opts)
{
	static bool registered;

	if (symbolizer != NULL && same_symbolize_options(&symbolizer_opts,
	    opts))
		return 0;
	free_symbolizer();
	if (!registered && atexit(free_symbolizer) == 0)
		registered = true;
	symbolizer_opts = *opts;
	if (!keep_string(&symbolizer_opts.sysroot, 0) ||
	    !keep_string(&symbolizer_opts.search_path, 1) ||
	    !keep_string(&symbolizer_opts.debuginfo_path, 2) ||
	    !keep_string(&symbolizer_opts.maps_file, 3))
		return PROFCONV_ENOMEM;
	return profconv_symbolizer_new(&symbolizer, opts);
}

int
cmd_symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary)
{
	struct profconv_symbolize_options def = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats stats;
	int rc;

	if (opts == NULL)
		opts = &def;
	opts->warn = print_warning;
	opts->progress = cmd_progress_fn;
	opts->jobs = cmd_jobs();
	cmd_progress_begin("modules", "symbolizing '%s'", subject);
	rc = get_symbolizer(opts);
	if (rc == 0)
		rc = profconv_symbolizer_run(symbolizer, prof, &stats);
	cmd_progress_end();
	if (rc < 0)
		return cmd_error_lib(subject);
	if (summary)
		print_summary(&stats);
	return EXIT_OK;
}

/* A write error on standard output was reported already. */
static bool stdout_reported;

int
cmd_write_failed(const char *out_path, int rc, int err, const char *input)
{
	bool to_stdout = out_path == NULL || strcmp(out_path, "-") == 0;

	if (rc != PROFCONV_EIO)
		return cmd_error_lib(input);
	if (to_stdout)
		stdout_reported = true;
	/* A reader that went away (SIGPIPE ignored) is not our failure to
	 * report, as in cmd_close_stdout(). */
	if (err == EPIPE)
		return EXIT_OK;
	return cmd_error_lib(to_stdout ? "<stdout>" : out_path);
}

int
cmd_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* A reader that went away is not our failure to report;
		 * cmd_write_failed() reported (and set STATUS) already. */
		if (errno == EPIPE || stdout_reported)
			return status;
		cmd_error("write error on standard output: %s",
		    strerror(errno != 0 ? errno : EIO));
		return status == EXIT_OK ? EXIT_FAIL : status;
	}
	return status;
}

int
cmd_view_option(struct cmd_view *v, int c, const char *arg)
{
	switch (c) {
	case CMD_OPT_DEMANGLE:
		if (profconv_demangle_parse(arg, &v->view.demangle) < 0) {
			cmd_usage_error("invalid --demangle value '%s' (use "
			    "simple, templates, full or none)", arg);
			return -1;
		}
		return 1;
	case CMD_OPT_NO_INLINE:
		v->view.no_inline = 1;
		return 1;
	case CMD_OPT_FOCUS:
		v->view.focus = arg;
		return 1;
	case CMD_OPT_IGNORE:
		v->view.ignore = arg;
		return 1;
	case CMD_OPT_KEEP_ALLOC:
		v->view.keep_allocator_frames = 1;
		return 1;
	case CMD_OPT_NO_SYMBOLIZE:
		v->no_symbolize = true;
		return 1;
	default:
		return 0;
	}
}

void
cmd_view_warn(const char *msg, void *payload)
{
	(void)payload;
	cmd_warn("%s", msg);
}

int
cmd_load_profile(const struct cmd_view *v, const char *path,
    struct profconv_profile **out)
{
	struct profconv_symbolize_options sym = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	int status = cmd_read_profile(path, NULL, out);

	sym.demangle = v->view.demangle;
	if (status == EXIT_OK && !v->no_symbolize)
		status = cmd_symbolize_profile(*out, &sym,
		    strcmp(path, "-") == 0 ? "<stdin>" : path, false);
	return status;
}

int
cmd_level_option(struct profconv_write_options *w, int c, const char *arg)
{
	long level;

	switch (c) {
	case 'l':
		if (!cmd_parse_long("--level", arg, 0, 9, &level))
			return -1;
		w->level = (int)level;
		return 1;
	case CMD_OPT_NO_COMPRESS:
		w->level = 0;
		return 1;
	default:
		return 0;
	}
}

bool
cmd_parse_by(const char *s, enum profconv_diff_by *by)
{
	if (strcmp(s, "function") == 0)
		*by = PROFCONV_DIFF_BY_FUNCTION;
	else if (strcmp(s, "line") == 0)
		*by = PROFCONV_DIFF_BY_LINE;
	else if (strcmp(s, "stack") == 0)
		*by = PROFCONV_DIFF_BY_STACK;
	else {
		cmd_usage_error("invalid --by value '%s' (use function, line "
		    "or stack)", s);
		return false;
	}
	return true;
}
