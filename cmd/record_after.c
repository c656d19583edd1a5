/* SPDX-License-Identifier: MIT */
/* record_after.c - "profconv record" once PROG has exited: its dumps
 * found, the last symbolized, the series reported and judged. */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>
#include "cli.h"
#include "record.h"

/* --- after the run ------------------------------------------------------- */

/* Natural order of names, digits as numbers: x.9.heap before x.10.heap. */
static int
natural_cmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			unsigned long long x = strtoull(a, (char **)&a, 10);
			unsigned long long y = strtoull(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/*
 * The dumps of process PID in DIR, named from PREFIX's base BASE: the
 * jemalloc ones BASE.PID.SEQ.KIND.heap, the tcmalloc ones BASE.NNNN.heap
 * of the MAIN process, BASE_PID.NNNN.heap of a forked one.  Paths in
 * *OUT, in natural order (so the last is the last dump); their number,
 * or -1.
 */
static int
list_dumps(const char *dir, const char *base, enum allocator alloc,
    pid_t pid, bool main, char ***out)
{
	char want[PATH_MAX], **v = NULL, **nv;
	size_t wlen, len;
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (alloc == ALLOC_JEMALLOC)
		snprintf(want, sizeof(want), "%s.%d.", base, (int)pid);
	else if (main)
		snprintf(want, sizeof(want), "%s.", base);
	else
		snprintf(want, sizeof(want), "%s_%d.", base, (int)pid);
	wlen = strlen(want);
	d = opendir(dir);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		const char *rest = de->d_name + wlen;

		len = strlen(de->d_name);
		if (strncmp(de->d_name, want, wlen) != 0 || len < wlen + 5 ||
		    strcmp(de->d_name + len - 5, ".heap") != 0)
			continue;
		/* tcmalloc: only digits between the prefix and .heap. */
		if (alloc == ALLOC_TCMALLOC &&
		    strspn(rest, "0123456789") != len - wlen - 5)
			continue;
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (nv == NULL)
			break;
		v = nv;
		if (asprintf(&v[n], "%s/%s", dir, de->d_name) < 0)
			break;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), natural_cmp);
	*out = v;
	return n;
}

/* The processes other than MAIN with dumps in DIR (BASE.PID. for
 * jemalloc, BASE_PID. for tcmalloc), at most MAX into PIDS, in order;
 * their number. */
static int
other_processes(const char *dir, const char *base, enum allocator alloc,
    pid_t main, pid_t *pids, int max)
{
	size_t blen = strlen(base), len;
	struct dirent *de;
	int n = 0, i, j;
	long pid;
	char *end;
	DIR *d = opendir(dir);

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && n < max) {
		len = strlen(de->d_name);
		if (strncmp(de->d_name, base, blen) != 0 || len < blen + 7 ||
		    strcmp(de->d_name + len - 5, ".heap") != 0 ||
		    de->d_name[blen] != (alloc == ALLOC_JEMALLOC ? '.' : '_'))
			continue;
		pid = strtol(de->d_name + blen + 1, &end, 10);
		if (*end != '.' || pid <= 0 || pid == (long)main)
			continue;
		for (i = 0; i < n && pids[i] != (pid_t)pid; i++)
			;
		if (i == n)
			pids[n++] = (pid_t)pid;
	}
	closedir(d);
	/* In order of process id (a few: insertion sort). */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && pids[j - 1] > pids[j]; j--) {
			pid_t t = pids[j];

			pids[j] = pids[j - 1];
			pids[j - 1] = t;
		}
	return n;
}

/* A jemalloc dump's global sequence number (BASE.PID.SEQ.KIND.heap): the
 * dumps are numbered in the order written, whatever their kind. */
static unsigned long long
je_seq(const char *path)
{
	const char *p = strrchr(path, '/');
	const char *dot;
	int dots = 0;

	/* From the end: .heap, .KIND, .SEQ */
	for (dot = path + strlen(path); dot > (p ? p : path); dot--)
		if (*dot == '.' && ++dots == 3)
			return strtoull(dot + 1, NULL, 10);
	return 0;
}

/* The last dump written: jemalloc's highest sequence number, tcmalloc's
 * highest count (the natural order's last). */
static const char *
last_dump(char **dumps, int n, enum allocator alloc)
{
	int i, best = n - 1;

	if (alloc == ALLOC_JEMALLOC)
		for (i = 0, best = 0; i < n; i++)
			if (je_seq(dumps[i]) > je_seq(dumps[best]))
				best = i;
	return dumps[best];
}

/* The summary's total in use and top functions, on stderr. */
static void
print_summary(const struct profconv_profile *prof,
    const struct profconv_print_options *po, const char *subject)
{
	char *text = NULL, *line, *save;
	size_t len = 0;
	bool top = false;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		return;
	if (profconv_profile_print(prof, fp, po) < 0) {
		fclose(fp);
		free(text);
		cmd_warn("cannot summarize '%s': %s", subject,
		    profconv_errmsg());
		return;
	}
	fclose(fp);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "top ", 4) == 0)
			top = strstr(line, " functions ") != NULL;
		if (top || (strncmp(line, "total ", 6) == 0 &&
		    strstr(line, "[default]") != NULL))
			fprintf(stderr, "%s\n", line);
	}
	free(text);
}

/* DIR/NAME-of-LAST.sym.pb.gz: LAST symbolized while its binaries are
 * the ones that ran; the summary's top lines on stderr unless QUIET. */
static int
symbolize_last(const char *last, char **sym_out, bool quiet)
{
	struct profconv_symbolize_options so = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	struct profconv_profile *prof = NULL;
	size_t len = strlen(last);
	int status;

	if (asprintf(sym_out, "%.*s.sym.pb.gz", (int)(len - 5), last) < 0)
		return cmd_error("out of memory");
	status = cmd_read_profile(last, NULL, &prof);
	if (status == EXIT_OK)
		status = cmd_symbolize_profile(prof, &so, last, false);
	if (status == EXIT_OK)
		status = cmd_write_profile(prof, *sym_out, &wo);
	if (status == EXIT_OK && !quiet) {
		po.summary = 1;
		po.top = 3;
		print_summary(prof, &po, last);
	}
	profconv_profile_free(prof);
	return status;
}

/* proftrend's verdicts of TREND (run) over N dumps, a line each for
 * the leaks (at most five), else for the row that moved most. */
static void
print_verdicts(const struct profconv_trend *trend, int n)
{
	struct profconv_trend_row row;
	size_t i, shown = 0, suspects;

	suspects = profconv_trend_suspect_count(trend);
	fprintf(stderr, "verdicts of %d dumps (in-use bytes, first -> last): "
	    "%zu leak suspect%s\n", n, suspects, suspects == 1 ? "" : "s");
	for (i = 0; i < profconv_trend_row_count(trend) && shown < 5; i++) {
		if (profconv_trend_row(trend, i, &row) < 0)
			break;
		if (suspects != 0 && !row.suspect)
			continue;
		fprintf(stderr, "  %-13s %12lld -> %-12lld %s\n",
		    profconv_trend_verdict_name(row.verdict),
		    (long long)row.first_bytes, (long long)row.last_bytes,
		    row.name);
		shown++;
		if (suspects == 0)
			break;
	}
}

/*
 * The page of the series DUMPS[0..N-1] (N >= 2) at PATH, as profconv
 * report writes one, and the verdicts on stderr: each dump read and
 * symbolized once, for the page and the analysis both.
 */
static int
report_series(char **dumps, int n, const char *path, bool by_thread)
{
	struct profconv_report_options ro = PROFCONV_REPORT_OPTIONS_INIT;
	struct profconv_trend_options to = PROFCONV_TREND_OPTIONS_INIT;
	struct cmd_view view = CMD_VIEW_INIT;
	struct profconv_trend *trend = NULL;
	struct profconv_report_series *series = NULL;
	struct profconv_profile *prof;
	struct cmd_output out = { 0 };
	int k, rc, status = EXIT_OK;

	cmd_series_view(&view, &to);
	view.view.jobs = cmd_jobs();
	ro.view = &view.view;
	/* As profconv report --by-thread: the rows and the page's tree. */
	to.by_thread = by_thread;
	view.view.split_threads = by_thread;
	if (profconv_trend_new(&trend, &to) < 0 ||
	    profconv_report_series_new(&series, &ro) < 0) {
		profconv_trend_free(trend);
		return cmd_error("%s", profconv_errmsg());
	}
	ro.series = series;
	for (k = 0; k < n && status == EXIT_OK; k++) {
		/* Named in the page as in DIR, where the page is. */
		const char *name = strrchr(dumps[k], '/');

		name = name != NULL ? name + 1 : dumps[k];
		status = cmd_load_profile(&view, dumps[k], &prof);
		if (status != EXIT_OK)
			break;
		if (profconv_report_series_add(series, prof, name) < 0) {
			profconv_profile_free(prof);
			status = cmd_error("%s: %s", dumps[k], profconv_errmsg());
		} else if (profconv_trend_add(trend, prof, name) < 0) {
			status = cmd_error("%s: %s", dumps[k], profconv_errmsg());
		}
	}
	if (status == EXIT_OK && profconv_trend_run(trend) < 0)
		status = cmd_error("cannot follow the dumps: %s",
		    profconv_errmsg());
	if (status == EXIT_OK)
		status = cmd_output_open(&out, path);
	if (status == EXIT_OK) {
		rc = profconv_report_write_trend(trend, out.fp, &ro);
		if (rc == PROFCONV_EIO)
			status = cmd_write_failed(path, rc, errno, dumps[0]);
		else if (rc < 0)
			status = cmd_error_lib(dumps[0]);
		status = cmd_output_end(&out, status);
		if (status == EXIT_OK)
			fprintf(stderr, "%s: the report: '%s'\n", cmd_name,
			    path);
		print_verdicts(trend, n);
	}
	profconv_trend_free(trend);
	profconv_report_series_free(series);
	return status;
}

/* The report of the one dump, as profconv report writes it. */
static int
write_report(char **dumps, int n, const char *path)
{
	char **argv = calloc((size_t)n + 6, sizeof(*argv));
	int argc = 0, i, status;

	if (argv == NULL)
		return cmd_error("out of memory");
	argv[argc++] = (char *)"report";
	argv[argc++] = (char *)"--quiet";
	argv[argc++] = (char *)"-o";
	argv[argc++] = (char *)path;
	argv[argc++] = (char *)"--";
	for (i = 0; i < n; i++)
		argv[argc++] = dumps[i];
	/* A fresh parse: getopt keeps its place between calls of one
	 * table, and this may be the second report of a run with forks. */
	optind = 0;
	status = cmd_report(argc, argv);
	free(argv);
	return status;
}

/*
 * Symbolize, report and judge the dumps of process PID (MAIN: PROG's
 * own, reported in DIR/report.html; another: report-PID.html).  A
 * forked process with one dump, which has no trend (a shell a script
 * runs, say), is done without a word: true when it was.
 */
static bool
report_process(const char *dir, const char *base, enum allocator alloc,
    pid_t pid, bool main, bool by_thread)
{
	char **dumps = NULL, *sym = NULL, *report = NULL;
	const char *last;
	bool quiet;
	int n, i, rc;

	n = list_dumps(dir, base, alloc, pid, main, &dumps);
	if (n <= 0) {
		free(dumps);
		return false;
	}
	quiet = !main && n == 1;
	if (!main && !quiet)
		fprintf(stderr, "%s: process %d, forked: %d dumps\n", cmd_name,
		    (int)pid, n);
	last = last_dump(dumps, n, alloc);
	if (symbolize_last(last, &sym, quiet) == EXIT_OK && !quiet)
		fprintf(stderr, "%s: the last dump, symbolized: '%s'\n",
		    cmd_name, sym);
	rc = main ? asprintf(&report, "%s/report.html", dir) :
	    asprintf(&report, "%s/report-%d.html", dir, (int)pid);
	if (rc >= 0 && n >= 2)
		(void)report_series(dumps, n, report, by_thread);
	else if (rc >= 0 && write_report(dumps, n, report) == EXIT_OK &&
	    !quiet) {
		fprintf(stderr, "%s: the report: '%s'\n", cmd_name, report);
		if (main)
			fprintf(stderr, "%s: one dump, no trend to judge: "
			    "--every SIZE or --interval TIME dump while it "
			    "runs\n", cmd_name);
	}
	free(report);
	free(sym);
	for (i = 0; i < n; i++)
		free(dumps[i]);
	free(dumps);
	return quiet;
}

void
record_after_run(const char *dir, const char *base, enum allocator alloc,
    pid_t pid, const char *prog, int status, bool by_thread)
{
	pid_t others[RECORD_MAX_PROCESSES];
	char **dumps = NULL;
	int n, k, i, quiet = 0;

	n = list_dumps(dir, base, alloc, pid, true, &dumps);
	for (i = 0; i < n; i++)
		free(dumps[i]);
	free(dumps);
	k = other_processes(dir, base, alloc, pid, others,
	    RECORD_MAX_PROCESSES);
	if (status >= 128)
		cmd_warn("'%s' was killed by signal %d", prog, status - 128);
	if (n <= 0 && k == 0) {
		cmd_warn("no heap dump of '%s' in '%s'", prog, dir);
		return;
	}
	fprintf(stderr, "%s: '%s' exited with status %d; %d dump%s in '%s'",
	    cmd_name, prog, status, n > 0 ? n : 0, n == 1 ? "" : "s", dir);
	if (k > 0)
		fprintf(stderr, ", and dumps of %d forked process%s", k,
		    k == 1 ? "" : "es");
	fputc('\n', stderr);
	(void)report_process(dir, base, alloc, pid, true, by_thread);
	for (i = 0; i < k; i++)
		quiet += report_process(dir, base, alloc, others[i], false,
		    by_thread);
	if (quiet > 0)
		fprintf(stderr, "%s: %d forked process%s with one dump each: "
		    "symbolized, and a report-PID.html each, in '%s'\n",
		    cmd_name, quiet, quiet == 1 ? "" : "es", dir);
}
