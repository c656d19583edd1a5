/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - C++ names made readable with libstdc++'s __cxa_demangle,
 * the way eu-addr2line -C and binutils addr2line -C show them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize.h"

/* The Itanium C++ ABI demangler; declared here to avoid a C++ header. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
    int *status);

const char *
profconv__demangle(struct pc_demangler *d, const char *name)
{
	size_t len = d->cap;
	char *out;
	int status = 0;

	/*
	 * Only Itanium names: anything else (C, Rust v0 "_R", D) would
	 * either fail or, worse, demangle as a type ("i" is "int").
	 */
	if (name == NULL || strncmp(name, "_Z", 2) != 0)
		return NULL;
	/* The buffer must come from malloc: __cxa_demangle may realloc it. */
	out = __cxa_demangle(name, d->buf, &len, &status);
	if (out == NULL)
		return NULL;	/* d->buf is untouched when it fails */
	/* On success it owns the buffer: ours, or a larger one that
	 * replaced it (ours then was freed) with its size in LEN. */
	d->buf = out;
	d->cap = len;
	return status == 0 ? out : NULL;
}

void
profconv__demangler_free(struct pc_demangler *d)
{
	free(d->buf);
	d->buf = NULL;
	d->cap = 0;
}
