/* SPDX-License-Identifier: MIT */
/*
 * test_error.c - tests for the per-thread failure message, the
 * quoting of subjects in it and the one write-error message
 * (base/error.c).
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "base/base.h"

/* A message longer than the buffer keeps its head and its tail. */
static void
long_messages_keep_their_reason(void)
{
	char subject[3000];
	const char *msg;

	memset(subject, 'x', sizeof(subject) - 1);
	subject[sizeof(subject) - 1] = '\0';
	profconv__fail(PROFCONV_EFORMAT, "stack '%s' has a negative count",
	    subject);
	msg = profconv_errmsg();
	cr_assert(strncmp(msg, "stack 'xxx", 10) == 0);
	cr_assert(strstr(msg, "...") != NULL);
	cr_assert(strlen(msg) < 1024);
	cr_assert(eq(str, (char *)msg + strlen(msg) - 23,
	    "x' has a negative count"));
}

static void
quote_elides_the_middle_and_hides_control_bytes(void)
{
	char buf[PC_QUOTE_SIZE], in[200];

	cr_assert(eq(str, (char *)profconv__quote(buf, "a\0b\n", 4), "a?b?"));
	memset(in, 'a', 100);
	memset(in + 100, 'b', 100);
	profconv__quote(buf, in, sizeof(in));
	cr_assert(eq(sz, strlen(buf), PC_QUOTE_SIZE - 1));
	cr_assert(strncmp(buf, "aaaa", 4) == 0);
	cr_assert(strstr(buf, "a...b") != NULL);
}

/* errno's reason (glibc's text), or EIO's when errno is 0: never
 * "write error: Success". */
static void
write_error_names_the_reason(void)
{
	errno = ENOSPC;
	cr_assert(eq(int, profconv__write_error(), PROFCONV_EIO));
	cr_assert(eq(str, (char *)profconv_errmsg(),
	    "write error: No space left on device"));
	errno = 0;
	cr_assert(eq(int, profconv__write_error(), PROFCONV_EIO));
	cr_assert(eq(str, (char *)profconv_errmsg(),
	    "write error: Input/output error"));
}

/* The failure message: shortened, quoted and written with its reason. */
Test(error, messages_keep_their_reason)
{
	long_messages_keep_their_reason();
	quote_elides_the_middle_and_hides_control_bytes();
	write_error_names_the_reason();
}
