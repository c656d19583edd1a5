/* SPDX-License-Identifier: MIT */
/* error.c - the per-thread failure message of libprofconv. */

#include "config.h"

#include <stdio.h>

#include "internal.h"

static _Thread_local char last_msg[512];

int
profconv__vfail(int code, const char *fmt, va_list ap)
{
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
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

const char *
profconv_errmsg(void)
{
	return last_msg[0] != '\0' ? last_msg : "no error";
}
