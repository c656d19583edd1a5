/* SPDX-License-Identifier: MIT */
/* error.c - the per-thread failure message of libprofconv. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "base/base.h"

#define MSG_SIZE 1024

static _Thread_local char last_msg[MSG_SIZE];

/*
 * A message too long for the buffer keeps its head and its tail with
 * "..." between: whether the reason comes first or after a long quoted
 * subject, it survives.
 */
static void
keep_ends(const char *full, size_t len)
{
	size_t half = (MSG_SIZE - 4) / 2;

	memcpy(last_msg, full, half);
	memcpy(last_msg + half, "...", 3);
	memcpy(last_msg + half + 3, full + len - (MSG_SIZE - 4 - half),
	    MSG_SIZE - 4 - half);
	last_msg[MSG_SIZE - 1] = '\0';
}

int
profconv__vfail(int code, const char *fmt, va_list ap)
{
	va_list again;
	char *full;
	int n;

	va_copy(again, ap);
	n = vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	if (n >= (int)sizeof(last_msg)) {
		full = malloc((size_t)n + 1);
		if (full != NULL) {
			vsnprintf(full, (size_t)n + 1, fmt, again);
			keep_ends(full, (size_t)n);
			free(full);
		}
	}
	va_end(again);
	return code;
}

int
profconv__fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	profconv__vfail(code, fmt, ap);
	va_end(ap);
	return code;
}

int
profconv__nomem(void)
{
	return profconv__fail(PROFCONV_ENOMEM, "out of memory");
}

int
profconv__write_error(void)
{
	return profconv__fail(PROFCONV_EIO, "write error: %s",
	    strerror(errno != 0 ? errno : EIO));
}

const char *
profconv__quote(char *buf, const char *s, size_t len)
{
	size_t i, o = 0, head = (PC_QUOTE_SIZE - 4) / 2;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (len > PC_QUOTE_SIZE - 1 && i == head) {
			memcpy(buf + o, "...", 3);
			o += 3;
			i = len - (PC_QUOTE_SIZE - 4 - head);
			c = (unsigned char)s[i];
		}
		buf[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[o] = '\0';
	return buf;
}

const char *
profconv_errmsg(void)
{
	return last_msg[0] != '\0' ? last_msg : "no error";
}

int
profconv__fail_line(uint64_t lineno, const char *fmt, ...)
{
	char msg[MSG_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return profconv__fail(PROFCONV_EFORMAT, "line %llu: %s",
	    (unsigned long long)lineno, msg);
}
