/* SPDX-License-Identifier: MIT */
/* messages.c - what the commands say on standard error: errors, warnings,
 * usage hints, and the checks on standard output at the end. */

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cmd_name = "profconv";

/* Length of the well-formed UTF-8 sequence at P (NUL-terminated), 0 when
 * there is none; its code point in *CP. */
static size_t
utf8_at(const unsigned char *p, uint32_t *cp)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xf5 ? 0 : *p >= 0xf0 ? 4 :
	    *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
	size_t i;

	*cp = n == 1 ? *p : *p & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong, surrogate or beyond U+10FFFF: not UTF-8. */
	if ((n == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return n;
}

/*
 * MSG to standard error as the library's text writers write names
 * (lib/write/write.h, profconv__text_safe()): a message can carry a
 * profile's paths and names, so C0 controls, DEL and bytes that are not
 * UTF-8 are written "\xNN", C1, bidi and line separator characters
 * "\uNNNN", and a terminal obeys none of them.
 */
static void
put_escaped(const char *msg)
{
	const unsigned char *p = (const unsigned char *)msg;
	uint32_t c;
	size_t n;

	for (; *p != '\0'; p += n) {
		n = utf8_at(p, &c);
		if (*p < 0x20 || *p == 0x7f || n == 0) {
			fprintf(stderr, "\\x%02x", *p);
			n = 1;
		} else if ((c >= 0x80 && c <= 0x9f) || c == 0x61c ||
		    c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
		    (c >= 0x2066 && c <= 0x2069)) {
			fprintf(stderr, "\\u%04x", (unsigned)c);
		} else {
			fwrite(p, 1, n, stderr);
		}
	}
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	cmd_stderr_lock();
	fprintf(stderr, "%s: %s", cmd_name, prefix);
	put_escaped(msg != NULL ? msg : "out of memory");
	fputc('\n', stderr);
	cmd_stderr_unlock();
	free(msg);
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

bool cmd_no_warnings;

void
cmd_warn(const char *fmt, ...)
{
	va_list ap;

	if (cmd_no_warnings)
		return;
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

/* The lists of wrappers said so far, one line each. */
static char **wrapper_lines;
static size_t nwrapper_lines;

void
cmd_wrappers_found(const char *const *names, size_t n, void *payload)
{
	char *line = NULL, *list = NULL, **grown;
	size_t len = 0, i;
	FILE *fp;
	bool said = false;

	(void)payload;
	if (cmd_quiet || cmd_no_warnings || n == 0)
		return;
	fp = open_memstream(&list, &len);
	if (fp == NULL)
		return;
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i > 0 ? ", " : "", names[i]);
	if (fclose(fp) != 0 || asprintf(&line, "cut as allocation wrappers: "
	    "%s (rule: %s)", list, profconv_wrapper_rule()) < 0) {
		free(list);
		return;
	}
	free(list);
	cmd_stderr_lock();
	for (i = 0; i < nwrapper_lines && !said; i++)
		said = strcmp(wrapper_lines[i], line) == 0;
	if (!said) {
		fprintf(stderr, "%s: ", cmd_name);
		put_escaped(line);
		fputc('\n', stderr);
		grown = realloc(wrapper_lines, (nwrapper_lines + 1) *
		    sizeof(*grown));
		if (grown != NULL) {
			wrapper_lines = grown;
			wrapper_lines[nwrapper_lines++] = line;
			line = NULL;
		}
	}
	cmd_stderr_unlock();
	free(line);
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
