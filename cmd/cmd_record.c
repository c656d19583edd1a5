/* SPDX-License-Identifier: MIT */
/* cmd_record.c - "profconv record": run a program under its allocator's
 * heap profiler, then symbolize, report and judge its dumps. */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <profconv.h>
#include "cli.h"
#include "record.h"

static const char usage_text[] =
	"usage: profconv record [options] [-o DIR] -- PROG [ARGS...]\n"
	"       profconv record --dump DIR\n"
	"\n"
	"Run PROG under an allocator's sampling heap profiler (jemalloc by\n"
	"default, or the jemalloc or tcmalloc PROG already uses) with its\n"
	"dumps going to DIR; when PROG exits, symbolize the last dump, write\n"
	"DIR/report.html of the series and print the summary and proftrend's\n"
	"verdicts.  PROG's input, output and exit status are its own.\n"
	"\n";

enum {
	OPT_ALLOCATOR = 0x2200, OPT_EVERY, OPT_SAMPLE_RATE, OPT_INTERVAL,
	OPT_DUMP
};

struct record_args {
	const char *dir;
	const char *dump_dir;
	enum allocator alloc;
	uint64_t every, sample_rate;
	long interval_ms;
	struct profconv_trend_options trend;	/* --by-thread */
};

#define CMD_ARGS struct record_args

/* --interval TEXT as milliseconds into the long at TO: a number,
 * optionally with ms, s or m, from 1 ms to a day; false after a usage
 * message. */
static bool
parse_interval(const char *option, const char *text, void *to)
{
	char *end;
	double v, scale = 1000;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno != 0 || !(v > 0))
		goto bad;
	if (strcmp(end, "ms") == 0)
		scale = 1;
	else if (strcmp(end, "m") == 0)
		scale = 60000;
	else if (*end != '\0' && strcmp(end, "s") != 0)
		goto bad;
	v *= scale;
	if (v < 1 || v > 86400000.0)
		goto bad;
	*(long *)to = (long)v;
	return true;
bad:
	cmd_usage_error("invalid %s value '%s' (a time such as 10s, 500ms or "
	    "2m)", option, text);
	return false;
}

static const struct cmd_choice allocators[] = {
	{ "jemalloc", ALLOC_JEMALLOC }, { "tcmalloc", ALLOC_TCMALLOC },
	{ NULL, 0 }
};

static const struct cmd_opt opts_table[] = {
	{ "output", 'o', required_argument, CMD_OWN,
	  "  -o, --output DIR      put the dumps and the report in DIR (default:\n"
	  "                        PROG-YYYYmmdd-HHMMSS; an existing DIR must be\n"
	  "                        empty)\n",
	  CMD_TO_STRING(dir) },
	{ "allocator", OPT_ALLOCATOR, required_argument, CMD_OWN,
	  "      --allocator ALLOCATOR\n"
	  "                        jemalloc (default) or tcmalloc, preloaded\n"
	  "                        unless PROG already uses one\n",
	  CMD_TO_CHOICE(alloc, allocators, "jemalloc or tcmalloc") },
	{ "every", OPT_EVERY, required_argument, CMD_OWN,
	  "      --every SIZE      dump each time PROG has allocated SIZE more\n"
	  "                        bytes (suffix K, M or G; jemalloc: rounded to\n"
	  "                        a power of two)\n",
	  CMD_TO_SIZE(every, 1, (long)1 << 60, "64M") },
	{ "interval", OPT_INTERVAL, required_argument, CMD_OWN,
	  "      --interval TIME   dump every TIME (seconds, or suffix ms, s,\n"
	  "                        m)\n",
	  CMD_TO_PARSED(interval_ms, parse_interval) },
	{ "sample-rate", OPT_SAMPLE_RATE, required_argument, CMD_OWN,
	  "      --sample-rate SIZE\n"
	  "                        jemalloc: sample one allocation every SIZE\n"
	  "                        bytes on average (rounded to a power of two;\n"
	  "                        default 512K)\n",
	  CMD_TO_SIZE(sample_rate, 1, (long)1 << 40, "512K") },
	CMD_SERIES_OPTS,
	{ "dump", OPT_DUMP, required_argument, CMD_OWN,
	  "      --dump DIR        ask the program recording into DIR for a dump\n"
	  "                        now and wait for it\n",
	  CMD_TO_STRING(dump_dir) },
	CMD_HELP_OPT,
	CMD_VERSION_OPT,
	{ NULL, 0, 0, CMD_OWN, NULL }
};

static const char footer[] =
	"\n"
	"Exit status: PROG's (128 + N when signal N killed it); 2 for a usage\n"
	"error or a PROG that cannot be recorded; 1 when --dump failed.\n"
	"examples: profconv record -- ./server --port 8080\n"
	"          profconv record --every 64M -o run1 -- ./batch input.txt\n"
	"          profconv record --dump run1\n";

static const char *const alloc_name[] = { "none", "jemalloc", "tcmalloc" };
static const char *const alloc_soname[] = {
	NULL, "libjemalloc.so.2", "libtcmalloc.so.4"
};

/* --- options ------------------------------------------------------------- */

/* log2 of V rounded to the nearest power of two. */
static int
lg_round(uint64_t v)
{
	int lg = 0;

	while (lg < 63 && ((uint64_t)1 << (lg + 1)) <= v)
		lg++;
	/* Nearer the next power? (v - 2^lg > 2^(lg+1) - v) */
	if (lg < 62 && v - ((uint64_t)1 << lg) > ((uint64_t)2 << lg) - v)
		lg++;
	return lg;
}

/* --- the program --------------------------------------------------------- */

/* PROG as execvp() finds it, into BUF; false when it finds none. */
static bool
find_program(const char *prog, char *buf, size_t n)
{
	const char *path = getenv("PATH"), *p, *colon;
	size_t len;

	if (strchr(prog, '/') != NULL) {
		snprintf(buf, n, "%s", prog);
		return access(buf, X_OK) == 0;
	}
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = colon + 1) {
		struct stat st;

		colon = strchr(p, ':');
		len = colon != NULL ? (size_t)(colon - p) : strlen(p);
		if (len == 0)
			snprintf(buf, n, "%s", prog);
		else
			snprintf(buf, n, "%.*s/%s", (int)len, p, prog);
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(buf, X_OK) == 0)
			return true;
		if (colon == NULL)
			return false;
	}
}

/* The allocator PROG links (DT_NEEDED), and whether it links
 * tcmalloc_minimal, which has no heap profiler. */
struct linked {
	bool tcmalloc_minimal;
	enum allocator alloc;
};

/* The allocator named by a DT_NEEDED or LD_PRELOAD entry NAME. */
static enum allocator
allocator_of(const char *name, bool *minimal)
{
	const char *base = strrchr(name, '/');

	base = base != NULL ? base + 1 : name;
	if (strncmp(base, "libjemalloc.so", 14) == 0)
		return ALLOC_JEMALLOC;
	if (strncmp(base, "libtcmalloc_minimal", 19) == 0) {
		*minimal = true;
		return ALLOC_NONE;
	}
	if (strncmp(base, "libtcmalloc", 11) == 0)
		return ALLOC_TCMALLOC;
	return ALLOC_NONE;
}

/* The allocator LD_PRELOAD already names, if any. */
static enum allocator
preloaded_allocator(bool *minimal)
{
	const char *env = getenv("LD_PRELOAD");
	char buf[4096], *tok, *save;
	enum allocator a;

	if (env == NULL || strlen(env) >= sizeof(buf))
		return ALLOC_NONE;
	memcpy(buf, env, strlen(env) + 1);
	for (tok = strtok_r(buf, ": ", &save); tok != NULL;
	    tok = strtok_r(NULL, ": ", &save))
		if ((a = allocator_of(tok, minimal)) != ALLOC_NONE)
			return a;
	return ALLOC_NONE;
}

static bool prepend_env(const char *name, const char *entry,
    const char *sep);

/*
 * Whether the dynamic loader preloads SONAME into the program at PATH:
 * it lists what it would load (LD_TRACE_LOADED_OBJECTS, as ldd asks it)
 * without running the program.  A dlopen() here would not tell:
 * jemalloc's initial-exec TLS refuses to be opened late.
 */
static bool
loadable(const char *path, const char *soname)
{
	char buf[8192], want[128];
	size_t len = 0;
	ssize_t n;
	int fds[2], st, devnull;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return true;	/* cannot tell: the loader will say */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return true;
	}
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		dup2(fds[1], STDOUT_FILENO);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDERR_FILENO);
		}
		if (setenv("LD_TRACE_LOADED_OBJECTS", "1", 1) == 0 &&
		    prepend_env("LD_PRELOAD", soname, ":"))
			execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (len < sizeof(buf) - 1 && ((n = read(fds[0], buf + len,
	    sizeof(buf) - 1 - len)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	buf[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	snprintf(want, sizeof(want), "\t%s => /", soname);
	return strstr(buf, want) != NULL;
}

/*
 * The helper module that dumps by time and on request: the one
 * $PROFCONV_RECORD_HELPER names (the build tree's, for the tests), else
 * the one installed beside this command (bindir's way to libdir, then
 * profconv/, as libprofconv.so is found), else the configured pkglibdir's.
 */
static const char *
helper_path(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("PROFCONV_RECORD_HELPER");
#ifdef PROFCONV_BIN_TO_LIBDIR
	char exe[PATH_MAX], *slash;
	ssize_t n;
#endif

	if (env != NULL && *env != '\0')
		return env;
	if (buf[0] != '\0')
		return buf;
#ifdef PROFCONV_BIN_TO_LIBDIR
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (snprintf(buf, sizeof(buf), "%s/%s/%s/profconv-record.so",
			    exe, PROFCONV_BIN_TO_LIBDIR, PACKAGE) <
			    (int)sizeof(buf) && access(buf, R_OK) == 0)
				return buf;
		}
	}
#endif
	snprintf(buf, sizeof(buf), "%s/profconv-record.so", PROFCONV_PKGLIBDIR);
	return buf;
}

/* --- the run ------------------------------------------------------------- */

static volatile sig_atomic_t child_pid;
/* PROG's process id, once it ran: its dumps carry it. */
static pid_t last_child;

/* A signal another process sent record goes on to PROG; one from the
 * terminal (Ctrl-C, hangup) reached PROG's process group already. */
static void
forward(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (child_pid > 0 && si != NULL && si->si_code <= 0)
		kill((pid_t)child_pid, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void
catch_signals(bool on)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (on) {
		sa.sa_sigaction = forward;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
	} else {
		sa.sa_handler = SIG_DFL;
	}
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
}

/* Prepend ENTRY to the ':'-list in variable NAME; false without memory. */
static bool
prepend_env(const char *name, const char *entry, const char *sep)
{
	const char *old = getenv(name);
	char *v;
	int rc;

	if (old == NULL || *old == '\0')
		return setenv(name, entry, 1) == 0;
	if (asprintf(&v, "%s%s%s", entry, sep, old) < 0)
		return false;
	rc = setenv(name, v, 1);
	free(v);
	return rc == 0;
}

/* The environment of PROG: the preloads, the profiler's settings, the
 * helper's.  In the child, before exec. */
static bool
child_env(const struct record_args *a, enum allocator alloc, bool preload,
    const char *prefix)
{
	char buf[PATH_MAX + 256], *conf;
	const char *old;
	int rc;

	if (preload && !prepend_env("LD_PRELOAD", alloc_soname[alloc], ":"))
		return false;
	if (access(helper_path(), R_OK) == 0) {
		if (!prepend_env("LD_PRELOAD", helper_path(), ":"))
			return false;
		snprintf(buf, sizeof(buf), "%ld", a->interval_ms);
		if (setenv("PROFCONV_RECORD_DIR", a->dir, 1) != 0 ||
		    setenv("PROFCONV_RECORD_INTERVAL_MS", buf, 1) != 0)
			return false;
	}
	if (alloc == ALLOC_JEMALLOC) {
		int len = snprintf(buf, sizeof(buf), "prof:true,prof_active:true,"
		    "prof_accum:true,prof_final:true,prof_sys_thread_name:true,"
		    "prof_prefix:%s", prefix);

		if (a->every != 0)
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
			    ",lg_prof_interval:%d", lg_round(a->every));
		if (a->sample_rate != 0)
			snprintf(buf + len, sizeof(buf) - (size_t)len,
			    ",lg_prof_sample:%d", lg_round(a->sample_rate));
		/* The user's settings first: ours, later, win. */
		old = getenv("MALLOC_CONF");
		if (old != NULL && *old != '\0') {
			if (asprintf(&conf, "%s,%s", old, buf) < 0)
				return false;
			rc = setenv("MALLOC_CONF", conf, 1);
			free(conf);
			return rc == 0;
		}
		return setenv("MALLOC_CONF", buf, 1) == 0;
	}
	if (setenv("HEAPPROFILE", prefix, 1) != 0)
		return false;
	if (a->every != 0) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)a->every);
		if (setenv("HEAP_PROFILE_ALLOCATION_INTERVAL", buf, 1) != 0)
			return false;
	}
	return true;
}

/*
 * Run PROG (ARGV) with its environment set and wait for it; its status
 * as a shell gives it: the exit status, or 128 + the signal.  -1 when it
 * could not be started (said).
 */
static int
run_program(const struct record_args *a, enum allocator alloc, bool preload,
    const char *prefix, char **argv)
{
	int fds[2], st, err = 0;
	char *mark = NULL;
	FILE *fp;
	pid_t pid;
	ssize_t n;

	/* A pipe closed on exec says whether exec failed, and why. */
	if (pipe2(fds, O_CLOEXEC) != 0)
		return cmd_error("cannot run '%s': %s", argv[0],
		    strerror(errno)), -1;
	catch_signals(true);
	pid = fork();
	if (pid < 0) {
		catch_signals(false);
		close(fds[0]);
		close(fds[1]);
		return cmd_error("cannot run '%s': %s", argv[0],
		    strerror(errno)), -1;
	}
	if (pid == 0) {
		close(fds[0]);
		catch_signals(false);
		if (child_env(a, alloc, preload, prefix))
			execvp(argv[0], argv);
		err = errno;
		(void)!write(fds[1], &err, sizeof(err));
		_exit(127);
	}
	child_pid = pid;
	last_child = pid;
	close(fds[1]);
	/* For --dump: who records here. */
	if (asprintf(&mark, "%s/%s", a->dir, RECORD_MARK_FILE) >= 0 &&
	    (fp = fopen(mark, "w")) != NULL) {
		fprintf(fp, "%d\n", (int)pid);
		fclose(fp);
	}
	while ((n = read(fds[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = 0;
			break;
		}
	child_pid = 0;
	catch_signals(false);
	if (mark != NULL)
		unlink(mark);
	free(mark);
	record_dump_cleanup(a->dir);
	if (n == (ssize_t)sizeof(err))
		return cmd_error("cannot run '%s': %s", argv[0],
		    strerror(err)), -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* --- the output directory ------------------------------------------------ */

/* Make DIR (or take an empty one); its absolute path in *ABS. */
static int
make_dir(const char *dir, char **abs)
{
	struct dirent *de;
	DIR *d;

	if (mkdir(dir, 0777) != 0) {
		if (errno != EEXIST)
			return cmd_error("cannot create '%s': %s", dir,
			    strerror(errno));
		d = opendir(dir);
		if (d == NULL)
			return cmd_error("cannot open '%s': %s", dir,
			    strerror(errno));
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0)
				break;
		closedir(d);
		if (de != NULL)
			return cmd_usage_error("'%s' is not empty: record into "
			    "a new or empty directory", dir);
	}
	*abs = realpath(dir, NULL);
	if (*abs == NULL)
		return cmd_error("cannot resolve '%s': %s", dir,
		    strerror(errno));
	return EXIT_OK;
}

/* --- the command --------------------------------------------------------- */

/* The allocator to record with, from --allocator, what PROG links and
 * what LD_PRELOAD holds; *PRELOAD when it must be preloaded.  EXIT_OK or
 * EXIT_USAGE (said). */
static int
choose_allocator(const struct record_args *a, const char *prog,
    const char *path, const struct linked *l, enum allocator *alloc,
    bool *preload)
{
	bool minimal = l->tcmalloc_minimal;
	enum allocator have = l->alloc;

	if (have == ALLOC_NONE)
		have = preloaded_allocator(&minimal);
	if (have == ALLOC_NONE && minimal)
		return cmd_usage_error("'%s' uses tcmalloc_minimal, which has "
		    "no heap profiler: link it with -ltcmalloc instead", prog);
	if (have != ALLOC_NONE && a->alloc != ALLOC_NONE && a->alloc != have)
		return cmd_usage_error("'%s' already uses %s: --allocator %s "
		    "cannot replace it", prog, alloc_name[have],
		    alloc_name[a->alloc]);
	*preload = have == ALLOC_NONE;
	*alloc = have != ALLOC_NONE ? have :
	    a->alloc != ALLOC_NONE ? a->alloc : ALLOC_JEMALLOC;
	if (*preload && !loadable(path, alloc_soname[*alloc]))
		return cmd_usage_error("cannot find %s (%s) to preload "
		    "(Debian: %s)", alloc_name[*alloc], alloc_soname[*alloc],
		    *alloc == ALLOC_JEMALLOC ? "libjemalloc2" :
		    "libgoogle-perftools4");
	return EXIT_OK;
}

/*
 * PROG refused when LD_PRELOAD cannot reach it (what the loader runs for
 * it, a script's interpreter too, is set-ID or static); the allocator it
 * links into *L.  EXIT_OK or EXIT_USAGE.
 */
static int
check_program(const char *prog, const char *path, struct linked *l)
{
	struct profconv_elf_facts *f;
	char who[2 * PATH_MAX + 64];
	enum allocator a;
	int status = EXIT_OK;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (profconv_elf_facts_read(&f, path) < 0)
		return cmd_usage_error("cannot record '%s': %s", prog,
		    profconv_errmsg());
	/* A script's set-ID bits do nothing: its interpreter's count. */
	if (f->script_interpreter != NULL)
		snprintf(who, sizeof(who), "'%s', the interpreter of '%s',",
		    f->path, prog);
	else
		snprintf(who, sizeof(who), "'%s'", prog);
	if (f->set_id)
		status = cmd_usage_error("%s is set-user-ID or set-group-ID: "
		    "the loader ignores LD_PRELOAD for it; record a copy "
		    "without that bit", who);
	else if (f->interpreter == NULL)
		status = cmd_usage_error("%s is statically linked: LD_PRELOAD "
		    "cannot put a heap profiler into it; link it dynamically, "
		    "or with a profiling jemalloc and MALLOC_CONF=prof:true",
		    who);
	for (i = 0; i < f->nneeded; i++)
		if ((a = allocator_of(f->needed[i], &l->tcmalloc_minimal)) !=
		    ALLOC_NONE && l->alloc == ALLOC_NONE)
			l->alloc = a;
	profconv_elf_facts_free(f);
	return status;
}

int
cmd_record(int argc, char **argv)
{
	struct record_args a = { NULL, NULL, ALLOC_NONE, 0, 0, 0,
		PROFCONV_TREND_OPTIONS_INIT };
	struct cmd_parser parser = { opts_table, usage_text, footer, NULL,
		NULL, &a };
	struct linked linked;
	char path[PATH_MAX], defdir[PATH_MAX], *abs = NULL, *prefix = NULL;
	const char *base;
	enum allocator alloc = ALLOC_NONE;
	bool preload = false, posixly;
	int c, status;

	/* Stop at PROG: its options are its own.  (PROG gets the variable
	 * as the user had it.) */
	posixly = getenv("POSIXLY_CORRECT") != NULL;
	if (!posixly)
		setenv("POSIXLY_CORRECT", "1", 1);
	/* --by-thread is the one option the table does not bind. */
	while ((c = cmd_getopt(&parser, argc, argv)) > 0)
		cmd_series_option(c, &a.trend);
	if (!posixly)
		unsetenv("POSIXLY_CORRECT");
	if (c != CMD_OPTS_END)
		return c == CMD_OPTS_EXIT ? EXIT_OK : EXIT_USAGE;
	if (a.dump_dir != NULL) {
		if (argc - optind != 0)
			return cmd_usage_error("--dump DIR takes no PROG");
		return record_dump(a.dump_dir);
	}
	if (argc - optind < 1)
		return cmd_usage_error("expected PROG to run");
	argv += optind;
	if (!find_program(argv[0], path, sizeof(path)))
		return cmd_usage_error("cannot run '%s': %s", argv[0],
		    strchr(argv[0], '/') != NULL ? strerror(errno) :
		    "not found in PATH");
	status = check_program(argv[0], path, &linked);
	if (status == EXIT_OK)
		status = choose_allocator(&a, argv[0], path, &linked, &alloc,
		    &preload);
	if (status != EXIT_OK)
		return status;
	if (a.interval_ms != 0 && access(helper_path(), R_OK) != 0)
		return cmd_error("cannot dump by time without '%s': %s",
		    helper_path(), strerror(errno));
	if (a.sample_rate != 0 && alloc == ALLOC_TCMALLOC)
		cmd_warn("--sample-rate is for jemalloc: tcmalloc's heap "
		    "profiler records every allocation");
	if (a.every != 0 && alloc == ALLOC_JEMALLOC &&
	    (a.every & (a.every - 1)) != 0) {
		int lg = lg_round(a.every);

		cmd_warn("--every: jemalloc dumps every 2^%d bytes (%llu), a "
		    "power of two", lg, (unsigned long long)1 << lg);
	}
	base = strrchr(argv[0], '/');
	base = base != NULL ? base + 1 : argv[0];
	if (a.dir == NULL) {
		time_t now = time(NULL);
		struct tm tm;
		char stamp[32];

		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(defdir, sizeof(defdir), "%s-%s", base, stamp);
		a.dir = defdir;
	}
	if (alloc == ALLOC_JEMALLOC && (strchr(a.dir, ',') != NULL ||
	    (a.dir[0] != '/' && getcwd(path, sizeof(path)) != NULL &&
	    strchr(path, ',') != NULL)))
		return cmd_usage_error("the path of '%s' holds a ',', which "
		    "jemalloc's MALLOC_CONF cannot take: record into another "
		    "directory", a.dir);
	status = make_dir(a.dir, &abs);
	if (status != EXIT_OK)
		return status;
	if (asprintf(&prefix, "%s/%s", abs, base) < 0) {
		free(abs);
		return cmd_error("out of memory");
	}
	a.dir = abs;
	fflush(stdout);
	fflush(stderr);
	status = run_program(&a, alloc, preload, prefix, argv);
	if (status >= 0) {
		record_after_run(abs, base, alloc, last_child, argv[0], status,
		    a.trend.by_thread != 0);
	} else {
		/* PROG never ran: no directory left behind (if empty). */
		(void)rmdir(abs);
		status = EXIT_USAGE;
	}
	free(prefix);
	free(abs);
	return status;
}
