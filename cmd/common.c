/* SPDX-License-Identifier: MIT */
/* common.c - messages, number parsing and whole-or-nothing output files. */

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common.h"

const char *cmd_name = "profconv";

static void
vmessage(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", cmd_name, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	printf("%s %s\n%s\n", cmd_name, PACKAGE_VERSION,
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

int
cmd_read_profile(const char *path, struct profconv_profile **out)
{
	struct stat st;
	FILE *fp;
	int rc;

	if (strcmp(path, "-") == 0) {
		rc = profconv_profile_read(out, stdin, NULL, NULL);
		return rc < 0 ? cmd_error_lib("<stdin>") : EXIT_OK;
	}
	fp = fopen(path, "rb");
	if (fp == NULL)
		return cmd_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		return cmd_error("cannot read '%s': Is a directory", path);
	}
	rc = profconv_profile_read(out, fp, NULL, NULL);
	fclose(fp);
	return rc < 0 ? cmd_error_lib(path) : EXIT_OK;
}

int
cmd_output_open(struct cmd_output *o, const char *path)
{
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return EXIT_OK;
	}
	n = strlen(path) + sizeof(".tmpXXXXXX");
	o->tmp = malloc(n);
	if (o->tmp == NULL)
		return cmd_error("out of memory");
	snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		cmd_error("cannot create '%s': %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return EXIT_FAIL;
	}
	/* mkstemp makes 0600; give the file the usual umask-based mode. */
	{
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	o->fp = fdopen(fd, "wb");
	if (o->fp == NULL) {
		close(fd);
		cmd_output_abort(o);
		return cmd_error("cannot create '%s': %s", path,
		    strerror(errno));
	}
	return EXIT_OK;
}

void
cmd_output_abort(struct cmd_output *o)
{
	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

int
cmd_output_commit(struct cmd_output *o)
{
	int err = 0;

	if (o->fp == stdout) {
		o->fp = NULL;
		return EXIT_OK;		/* checked by cmd_close_stdout() */
	}
	if (fflush(o->fp) != 0 || ferror(o->fp))
		err = errno != 0 ? errno : EIO;
	if (fclose(o->fp) != 0 && err == 0)
		err = errno;
	o->fp = NULL;
	if (err == 0 && rename(o->tmp, o->path) != 0)
		err = errno;
	if (err != 0) {
		cmd_output_abort(o);
		return cmd_error("cannot write '%s': %s", o->path,
		    strerror(err));
	}
	free(o->tmp);
	o->tmp = NULL;
	return EXIT_OK;
}

int
cmd_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* A reader that went away is not our failure to report. */
		if (errno == EPIPE)
			return status;
		cmd_error("write error on standard output: %s",
		    strerror(errno != 0 ? errno : EIO));
		return status == EXIT_OK ? EXIT_FAIL : status;
	}
	return status;
}
