/* SPDX-License-Identifier: MIT */
/* messages.c - what the commands say on standard error: errors, warnings,
 * usage hints, and the checks on standard output at the end. */

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

const char *cmd_name = "profconv";

static void vmessage(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
vmessage(const char *prefix, const char *fmt, va_list ap)
{
	cmd_stderr_lock();
	fprintf(stderr, "%s: %s", cmd_name, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	cmd_stderr_unlock();
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

void
cmd_warn_fn(const char *msg, void *payload)
{
	(void)payload;
	cmd_warn("%s", msg);
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
		cmd_error("'<stdout>': write error: %s",
		    strerror(errno != 0 ? errno : EIO));
		return status == EXIT_OK ? EXIT_FAIL : status;
	}
	return status;
}
