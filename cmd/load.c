/* SPDX-License-Identifier: MIT */
/* load.c - reading, symbolizing and writing a profile for a command, with
 * one symbolizer kept for the whole command (profconv_profile_load()). */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

bool cmd_read_progress = true;

/* cmd_series_warnings(): the read warnings of a series, one line at the
 * end; the file named is the first by name, whatever order the reader
 * threads finish in. */
static bool series_on;
static size_t series_cut;
static char *series_subject, *series_msg;

void
cmd_series_warnings(bool on)
{
	series_on = on;
}

void
cmd_series_warnings_flush(void)
{
	if (series_cut == 1)
		cmd_warn("'%s': %s", series_subject, series_msg);
	else if (series_cut > 1)
		cmd_warn("%zu dumps were cut short; the first by name, '%s': %s",
		    series_cut, series_subject, series_msg);
	free(series_subject);
	free(series_msg);
	series_subject = series_msg = NULL;
	series_cut = 0;
}

/* Keep SUBJECT's warning CUT if it is the first by name; false when it
 * cannot be kept (then it is printed). */
static bool
series_keep(const char *subject, const char *cut)
{
	char *s, *m;
	bool ok = true;

	cmd_stderr_lock();
	series_cut++;
	if (series_subject == NULL || strcmp(subject, series_subject) < 0) {
		s = strdup(subject);
		m = strdup(cut);
		if (s != NULL && m != NULL) {
			free(series_subject);
			free(series_msg);
			series_subject = s;
			series_msg = m;
		} else {
			free(s);
			free(m);
			series_cut--;
			ok = false;
		}
	}
	cmd_stderr_unlock();
	return ok;
}

void
cmd_warn_repairs(const struct profconv_profile *prof, const char *subject)
{
	size_t n = profconv_profile_repaired_strings(prof);
	const char *cut = profconv_profile_read_warning(prof);

	if (n != 0)
		cmd_warn("'%s': %zu string%s not valid UTF-8, invalid bytes "
		    "replaced by U+FFFD", subject, n, n == 1 ? " was" :
		    "s were");
	if (cut != NULL && !(series_on && series_keep(subject, cut)))
		cmd_warn("'%s': %s", subject, cut);
}

/* The end of a read: its error, or the warnings its input deserves. */
static int
read_done(int rc, const struct profconv_profile *prof, const char *subject)
{
	if (rc < 0)
		return cmd_error_lib(subject);
	cmd_warn_repairs(prof, subject);
	return EXIT_OK;
}

/*
 * Open PATH ("-": standard input) into *FP, refusing a directory.
 * EXIT_OK or EXIT_FAIL (reported).
 */
static int
open_input(const char *path, FILE **fp)
{
	struct stat st;

	if (strcmp(path, "-") == 0) {
		*fp = stdin;
		return EXIT_OK;
	}
	*fp = fopen(path, "rb");
	if (*fp == NULL)
		return cmd_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(*fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(*fp);
		return cmd_error("cannot read '%s': Is a directory", path);
	}
	return EXIT_OK;
}

/* The symbolizer's progress names the input being loaded. */
static const char *load_subject;
static bool load_symbolizing;

static void
symbolize_progress(uint64_t done, uint64_t total, void *payload)
{
	(void)payload;
	if (!load_symbolizing) {
		cmd_progress_end();
		cmd_progress_begin("modules", "symbolizing '%s'", load_subject);
		load_symbolizing = true;
	}
	cmd_progress(done, total);
}

/*
 * Read PATH with GIVEN (NULL: the defaults) and, when SYM is not NULL,
 * symbolize it with SYM, counting into STATS (may be NULL):
 * profconv_profile_load(), with the command's
 * input options, its progress line and its messages.
 */
static int
load(const char *path, const struct profconv_read_options *given,
    struct profconv_symbolizer *sym, struct profconv_profile **out,
    struct profconv_symbolize_stats *stats)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	const char *subject = strcmp(path, "-") == 0 ? "<stdin>" : path;
	FILE *fp;
	int rc;

	*out = NULL;
	if (given != NULL)
		opts = *given;
	cmd_apply_input_options(&opts);
	if (open_input(path, &fp) != EXIT_OK)
		return EXIT_FAIL;
	if (cmd_read_progress) {
		opts.progress = cmd_progress_fn;
		cmd_progress_begin("bytes", "reading '%s'", subject);
	}
	/* Reader threads (readahead.c) come here too, but without SYM:
	 * only the command's own thread touches what the symbolizer's
	 * progress reads. */
	if (sym != NULL) {
		load_subject = subject;
		load_symbolizing = false;
	}
	rc = profconv_profile_load(out, fp, &opts, sym, stats);
	if (fp != stdin)
		fclose(fp);
	if (cmd_read_progress || (sym != NULL && load_symbolizing))
		cmd_progress_end();
	if (rc == 0 && (rc = cmd_add_comments(*out)) < 0) {
		profconv_profile_free(*out);
		*out = NULL;
	}
	return read_done(rc, *out, subject);
}

int
cmd_read_profile(const char *path, const struct profconv_read_options *given,
    struct profconv_profile **out)
{
	return load(path, given, NULL, out, NULL);
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
		opts.jobs = cmd_jobs();
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

int
cmd_convert_profile(const char *path, const struct profconv_read_options *given,
    const char *out_path, const struct profconv_write_options *wgiven)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wopts = PROFCONV_WRITE_OPTIONS_INIT;
	const char *subject = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct profconv_profile *prof = NULL;
	struct cmd_output out;
	bool write_failed;
	FILE *fp;
	int rc, err, status;

	if (given != NULL)
		opts = *given;
	cmd_apply_input_options(&opts);
	if (wgiven != NULL)
		wopts = *wgiven;
	if (wopts.jobs == 0)
		wopts.jobs = cmd_jobs();
	if (open_input(path, &fp) != EXIT_OK)
		return EXIT_FAIL;
	status = cmd_output_open(&out, out_path);
	if (status != EXIT_OK) {
		if (fp != stdin)
			fclose(fp);
		return status;
	}
	if (cmd_read_progress) {
		opts.progress = cmd_progress_fn;
		cmd_progress_begin("bytes", "reading '%s'", subject);
	}
	/* Written while read only where a failure leaves nothing behind:
	 * a temporary file, renamed when complete; and only as read (no
	 * comment to add). */
	if (out.tmp != NULL && !cmd_comments_given()) {
		rc = profconv_profile_convert(fp, out.fp, &opts, &wopts, &prof,
		    NULL);
		write_failed = rc < 0 && ferror(out.fp);
	} else {
		rc = profconv_profile_read(&prof, fp, &opts, NULL);
		write_failed = false;
		if (rc == 0)
			rc = cmd_add_comments(prof);
		if (rc == 0) {
			rc = profconv_profile_write(prof, out.fp, &wopts);
			write_failed = rc < 0;
		}
	}
	err = errno;
	if (fp != stdin)
		fclose(fp);
	if (cmd_read_progress)
		cmd_progress_end();
	if (rc < 0) {
		status = write_failed ? cmd_write_failed(out_path, rc, err,
		    out_path) : cmd_error_lib(subject);
		profconv_profile_free(prof);
		cmd_output_abort(&out);
		return status;
	}
	cmd_warn_repairs(prof, subject);
	profconv_profile_free(prof);
	return cmd_output_commit(&out);
}

bool
cmd_is_program(const char *path)
{
	unsigned char h[18];
	struct stat st;
	FILE *fp;
	size_t n;
	unsigned int type;

	/* Only a regular file: a FIFO given by mistake is not read here. */
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (fp = fopen(path, "rb")) == NULL)
		return false;
	n = fread(h, 1, sizeof(h), fp);
	fclose(fp);
	if (n != sizeof(h) || memcmp(h, "\177ELF", 4) != 0)
		return false;
	/* e_type, in the byte order EI_DATA says: ET_EXEC 2 or ET_DYN 3. */
	type = h[5] == 2 ? (unsigned int)h[16] << 8 | h[17] :
	    (unsigned int)h[17] << 8 | h[16];
	return type == 2 || type == 3;
}

int
cmd_refuse_terminal(void)
{
	if (!isatty(STDOUT_FILENO))
		return EXIT_OK;
	return cmd_usage_error("not writing a pprof profile to a terminal: "
	    "use -o FILE or a pipe");
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
 * One symbolizer for the whole command, made with the options of its
 * first use (a command symbolizes every input the same way), so that the
 * profiles of one program (profdiff's two, proftrend's series, merge's
 * inputs) open and decode each binary once.
 */
static struct profconv_symbolizer *symbolizer;

static void
free_symbolizer(void)
{
	profconv_symbolizer_free(symbolizer);
	symbolizer = NULL;
}

static int
get_symbolizer(struct profconv_symbolize_options *opts)
{
	if (symbolizer != NULL)
		return 0;
	opts->warn = cmd_warn_fn;
	opts->progress = symbolize_progress;
	opts->jobs = cmd_jobs();
	if (atexit(free_symbolizer) != 0)
		return PROFCONV_ENOMEM;
	/* Our SIGBUS handler names a file truncated while it is mapped:
	 * the library may map files in place rather than copy them. */
	opts->handles_sigbus = cmd_catch_sigbus();
	return profconv_symbolizer_new(&symbolizer, opts);
}

/* cmd_symbolize_profile(), its counts into *STATS. */
static int
symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary, struct profconv_symbolize_stats *stats)
{
	struct profconv_symbolize_options def = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	int rc;

	rc = get_symbolizer(opts != NULL ? opts : &def);
	load_subject = subject;
	load_symbolizing = false;
	if (rc == 0)
		rc = profconv_symbolizer_run(symbolizer, prof, stats);
	if (load_symbolizing)
		cmd_progress_end();
	if (rc < 0)
		return cmd_error_lib(subject);
	if (summary)
		print_summary(stats);
	return EXIT_OK;
}

int
cmd_symbolize_profile(struct profconv_profile *prof,
    struct profconv_symbolize_options *opts, const char *subject,
    bool summary)
{
	struct profconv_symbolize_stats stats;

	return symbolize_profile(prof, opts, subject, summary, &stats);
}

/*
 * What the symbolizer could not name, over every profile the command
 * loads: locations without a name, and per file and problem how many
 * (struct profconv_binary_report), said in one line at exit.
 */
struct unnamed_file {
	char *path;
	enum profconv_binary_problem problem;
	size_t locations;
};
static struct {
	size_t locations, unnamed;
	struct unnamed_file *files;
	size_t nfiles, cap;
	bool armed;
} unnamed;

static void
note_binary(const struct profconv_binary_report *r, void *payload)
{
	struct unnamed_file *f;
	size_t i;

	(void)payload;
	for (i = 0; i < unnamed.nfiles; i++)
		if (unnamed.files[i].problem == r->problem &&
		    strcmp(unnamed.files[i].path, r->path) == 0) {
			unnamed.files[i].locations += r->locations;
			return;
		}
	if (unnamed.nfiles == unnamed.cap) {
		size_t cap = unnamed.cap != 0 ? 2 * unnamed.cap : 8;
		void *p = realloc(unnamed.files, cap * sizeof(*unnamed.files));

		if (p == NULL)
			return;		/* a line less on stderr */
		unnamed.files = p;
		unnamed.cap = cap;
	}
	f = &unnamed.files[unnamed.nfiles];
	f->path = strdup(r->path);
	if (f->path == NULL)
		return;
	f->problem = r->problem;
	f->locations = r->locations;
	unnamed.nfiles++;
}

static const char *
problem_text(enum profconv_binary_problem p)
{
	switch (p) {
	case PROFCONV_BINARY_MISSING:
		return "not found";
	case PROFCONV_BINARY_OTHER_BUILD:
		return "only another build id found";
	case PROFCONV_BINARY_UNUSABLE:
		return "not a usable ELF file";
	case PROFCONV_BINARY_NO_SYMBOLS:
		return "no symbols there; stripped?";
	case PROFCONV_BINARY_LAYOUT:
		return "its segments do not match the mapping; another build?";
	}
	return "?";
}

/* The most files one line names; the rest are counted. */
#define UNNAMED_FILES_SHOWN 4

static void
print_unnamed(void)
{
	char line[4096];
	size_t len, i, shown = 0;
	bool any = false;

	for (i = 0; i < unnamed.nfiles; i++)
		any |= unnamed.files[i].locations != 0;
	if (!any)
		goto out;
	/* The files with the most unnamed locations first. */
	for (size_t a = 1; a < unnamed.nfiles; a++)
		for (size_t b = a; b > 0 && unnamed.files[b].locations >
		    unnamed.files[b - 1].locations; b--) {
			struct unnamed_file t = unnamed.files[b];

			unnamed.files[b] = unnamed.files[b - 1];
			unnamed.files[b - 1] = t;
		}
	len = (size_t)snprintf(line, sizeof(line), "%zu of %zu locations "
	    "have no name", unnamed.unnamed, unnamed.locations);
	for (i = 0; i < unnamed.nfiles && len < sizeof(line); i++) {
		const struct unnamed_file *f = &unnamed.files[i];

		if (shown == UNNAMED_FILES_SHOWN)
			break;
		len += (size_t)snprintf(line + len, sizeof(line) - len,
		    "%s %zu in '%s' (%s)", shown == 0 ? ":" : ";",
		    f->locations, f->path, problem_text(f->problem));
		shown++;
	}
	if (i < unnamed.nfiles && len < sizeof(line))
		len += (size_t)snprintf(line + len, sizeof(line) - len,
		    "; and %zu more file%s", unnamed.nfiles - i,
		    unnamed.nfiles - i == 1 ? "" : "s");
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "; --search-path, "
		    "--sysroot or --debuginfo-path say where to look");
	cmd_warn("%s", line);
out:
	for (i = 0; i < unnamed.nfiles; i++)
		free(unnamed.files[i].path);
	free(unnamed.files);
	memset(&unnamed, 0, sizeof(unnamed));
}

/*
 * The symbolizer options of view V, whose runs report unnamed locations
 * into UNNAMED (armed to print at exit).  False after an error.
 */
static bool
view_symbolize_options(const struct cmd_view *v,
    struct profconv_symbolize_options *sym)
{
	sym->demangle = v->view.demangle;
	sym->sysroot = v->sysroot;
	sym->search_path = v->search_path;
	sym->debuginfo_path = v->debuginfo_path;
	sym->debuginfod = v->debuginfod;
	sym->binary_report = note_binary;
	if (!unnamed.armed) {
		if (atexit(print_unnamed) != 0)
			return false;
		unnamed.armed = true;
	}
	return true;
}

static void
count_unnamed(const struct profconv_symbolize_stats *st)
{
	unnamed.locations += st->locations;
	unnamed.unnamed += st->no_binary + st->build_id_mismatch +
	    st->no_debuginfo + st->unusable;
}

int
cmd_program_given(const char *expected, int argc, char **argv)
{
	if (argc != 2 || !cmd_is_program(argv[0]))
		return -1;
	return cmd_usage_error("%s, the profile; '%s' is a program, and "
	    "binaries are found from the profile's mappings (--search-path "
	    "or --sysroot to look elsewhere)", expected, argv[0]);
}

int
cmd_load_profile(const struct cmd_view *v, const char *path,
    struct profconv_profile **out)
{
	struct profconv_symbolize_options sym = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats stats;
	const char *subject = strcmp(path, "-") == 0 ? "<stdin>" : path;
	int status;

	if (v->no_symbolize)
		return load(path, NULL, NULL, out, NULL);
	if (!view_symbolize_options(v, &sym) || get_symbolizer(&sym) < 0)
		return cmd_error_lib(subject);
	status = load(path, NULL, symbolizer, out, &stats);
	if (status == EXIT_OK)
		count_unnamed(&stats);
	return status;
}

int
cmd_symbolize_view(const struct cmd_view *v, struct profconv_profile *prof,
    const char *path)
{
	struct profconv_symbolize_options sym = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats stats;
	const char *subject = strcmp(path, "-") == 0 ? "<stdin>" : path;
	int status;

	if (v->no_symbolize)
		return EXIT_OK;
	if (!view_symbolize_options(v, &sym))
		return cmd_error_lib(subject);
	status = symbolize_profile(prof, &sym, subject, false, &stats);
	if (status == EXIT_OK)
		count_unnamed(&stats);
	return status;
}

unsigned
cmd_unmatched(const struct cmd_view *v, const struct profconv_profile *prof)
{
	unsigned out;

	return profconv_filters_unmatched(prof, &v->view, &out) == 0 ?
	    out : 0;
}

void
cmd_warn_unmatched(const struct cmd_view *v, unsigned unmatched)
{
	const struct profconv_view_options *o = &v->view;
	const struct {
		unsigned bit;
		const char *option, *value;
	} f[] = {
		{ PROFCONV_FILTER_FOCUS, "--focus", o->focus },
		{ PROFCONV_FILTER_IGNORE, "--ignore", o->ignore },
		{ PROFCONV_FILTER_HIDE, "--hide", o->hide },
		{ PROFCONV_FILTER_SHOW, "--show", o->show },
		{ PROFCONV_FILTER_SHOW_FROM, "--show-from", o->show_from },
		{ PROFCONV_FILTER_PRUNE_FROM, "--prune-from", o->prune_from },
		{ PROFCONV_FILTER_TAGFOCUS, "--tagfocus", o->tagfocus },
		{ PROFCONV_FILTER_TAGIGNORE, "--tagignore", o->tagignore },
		{ PROFCONV_FILTER_TAGROOT, "--tagroot", o->tagroot },
		{ PROFCONV_FILTER_TAGLEAF, "--tagleaf", o->tagleaf },
		{ PROFCONV_FILTER_TAGSHOW, "--tagshow", o->tagshow },
		{ PROFCONV_FILTER_TAGHIDE, "--taghide", o->taghide },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if ((unmatched & f[i].bit) != 0 && f[i].value != NULL)
			cmd_warn("%s expression '%s' matched no samples",
			    f[i].option, f[i].value);
}

int
cmd_load_pair(const struct cmd_view *v, const char *in,
    const char *base_path, struct profconv_profile **prof)
{
	int status;

	status = cmd_load_profile(v, in, &prof[1]);
	if (status == EXIT_OK && base_path != NULL) {
		status = cmd_load_profile(v, base_path, &prof[0]);
		if (status == EXIT_OK &&
		    profconv_profiles_compatibilize(prof, 2) < 0)
			status = cmd_error("cannot compare '%s' with '%s': %s",
			    base_path, in, profconv_errmsg());
	}
	return status;
}

int
cmd_new_views(const struct cmd_view *v, struct profconv_profile **prof,
    struct profconv_view **view)
{
	unsigned unmatched = ~0u;
	int i;

	/* Each profile's one view: its stacks are given to it, and go as
	 * soon as it has read them. */
	for (i = 0; i < 2; i++) {
		if (prof[i] != NULL && profconv_view_new_taking(&view[i],
		    prof[i], &v->view) < 0)
			return cmd_error("%s", profconv_errmsg());
		if (view[i] != NULL)
			unmatched &= profconv_view_unmatched(view[i]);
	}
	cmd_warn_unmatched(v, unmatched);
	return EXIT_OK;
}

void
cmd_warn_unmatched_pair(const struct cmd_view *v,
    struct profconv_profile *const *prof)
{
	unsigned unmatched = ~0u;
	int i;

	for (i = 0; i < 2; i++)
		if (prof[i] != NULL && unmatched != 0)
			unmatched &= cmd_unmatched(v, prof[i]);
	cmd_warn_unmatched(v, unmatched);
}

static void *
free_profiles(void *arg)
{
	struct profconv_profile **prof = arg;

	profconv_profile_free(prof[0]);
	profconv_profile_free(prof[1]);
	return NULL;
}

void
cmd_free_views(struct profconv_profile **prof, struct profconv_view **view)
{
	pthread_t t;
	bool beside;
	int i;

	/* Giving back the pages of a large profile and of its view takes
	 * the kernel a while each: the two at once. */
	beside = pthread_create(&t, NULL, free_profiles, prof) == 0;
	for (i = 0; i < 2; i++)
		profconv_view_free(view[i]);
	if (beside)
		pthread_join(t, NULL);
	else
		free_profiles(prof);
	for (i = 0; i < 2; i++) {
		prof[i] = NULL;
		view[i] = NULL;
	}
}

int
cmd_draw(const struct cmd_view *v, const char *in, const char *base_path,
    const char *out_path, cmd_draw_fn *draw, void *arg)
{
	struct profconv_profile *prof[2] = { NULL, NULL };
	struct profconv_view *view[2] = { NULL, NULL };
	struct cmd_output out = { 0 };
	int status;

	status = cmd_load_pair(v, in, base_path, prof);
	if (status == EXIT_OK)
		status = cmd_new_views(v, prof, view);
	if (status == EXIT_OK)
		status = cmd_output_open(&out, out_path);
	if (status == EXIT_OK)
		status = cmd_output_end(&out, draw(view, out.fp, arg));
	cmd_free_views(prof, view);
	return status;
}

int
cmd_draw_failed(int rc, const char *out_path, const char *in)
{
	if (rc == PROFCONV_EINVAL) {
		cmd_error("%s", profconv_errmsg());
		return EXIT_USAGE;
	}
	return rc < 0 ? cmd_write_failed(out_path, rc, errno, in) : EXIT_OK;
}

int
cmd_add_massif_series(const struct cmd_view *v, struct profconv_trend *trend,
    struct profconv_report_series *series, const char *path)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_snapshot *snaps = NULL;
	struct profconv_profile **profs = NULL, *prof;
	size_t i, n = 0, detailed = 0;
	char name[4096];
	FILE *fp;
	int status = EXIT_OK;

	fp = strcmp(path, "-") != 0 ? fopen(path, "rb") : NULL;
	if (fp == NULL)
		return -1;
	cmd_apply_input_options(&ro);
	if (profconv_snapshots_read_profiles(&snaps, &profs, &n, fp, &ro) < 0)
		n = 0;
	fclose(fp);
	for (i = 0; i < n; i++)
		detailed += profs[i] != NULL;
	if (detailed < 2) {
		profconv_snapshot_profiles_free(profs, n);
		profconv_snapshots_free(snaps);
		return -1;
	}
	for (i = 0; i < n && status == EXIT_OK; i++) {
		if (profs[i] == NULL)
			continue;
		prof = profs[i];
		profs[i] = NULL;
		cmd_warn_repairs(prof, path);
		snprintf(name, sizeof(name), "%s#%llu", path,
		    (unsigned long long)snaps[i].number);
		if (cmd_symbolize_view(v, prof, path) != EXIT_OK) {
			profconv_profile_free(prof);
			status = EXIT_FAIL;
		} else if (series != NULL &&
		    profconv_report_series_add(series, prof, name) < 0) {
			profconv_profile_free(prof);
			status = cmd_error("%s: %s", path, profconv_errmsg());
		} else if (profconv_trend_add(trend, prof, name) < 0) {
			status = cmd_error("%s", profconv_errmsg());
		}
	}
	profconv_snapshot_profiles_free(profs, n);
	profconv_snapshots_free(snaps);
	return status;
}

bool
cmd_series_option(int c, struct profconv_trend_options *to)
{
	if (c != CMD_OPT_BY_THREAD)
		return false;
	to->by_thread = 1;
	/* jemalloc's dumps give their threads when asked. */
	cmd_read_threads();
	return true;
}

void
cmd_series_view(struct cmd_view *v, struct profconv_trend_options *to)
{
	/* The leak report hides the runtime's one-time allocations. */
	v->view.default_suppressions = !v->no_default_suppressions;
	to->view = &v->view;
}
