/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - C++ names made readable with libstdc++'s __cxa_demangle,
 * the way eu-addr2line -C and binutils addr2line -C show them, and Rust's
 * legacy names (Itanium-mangled with a hash and $-escapes) as rustfilt
 * shows them.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize.h"

/* The Itanium C++ ABI demangler; declared here to avoid a C++ header. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
    int *status);

/* Does NAME end in Rust's legacy hash, "::h" and 16 hex digits? */
static size_t
rust_hash_at(const char *name)
{
	size_t n = strlen(name), i;

	if (n < 19 || strncmp(name + n - 19, "::h", 3) != 0)
		return 0;
	for (i = n - 16; i < n; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return n - 19;
}

/* Rust's legacy escapes: $LT$ is '<', $u20$ is ' ', ".." is "::". */
static size_t
rust_unescape(const char *p, char *out)
{
	static const struct { const char *esc; char c; } table[] = {
		{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' },
		{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' },
		{ "$RP$", ')' }, { "$C$", ',' },
	};
	size_t i;
	unsigned v;

	if (p[0] == '.' && p[1] == '.') {
		out[0] = out[1] = ':';
		return 2;
	}
	for (i = 0; p[0] == '$' && i < sizeof(table) / sizeof(table[0]); i++)
		if (strncmp(p, table[i].esc, strlen(table[i].esc)) == 0) {
			out[0] = table[i].c;
			return strlen(table[i].esc);
		}
	/* $uXX$: one ASCII character by its hex code. */
	if (p[0] == '$' && p[1] == 'u' && sscanf(p + 2, "%2x", &v) == 1 &&
	    p[4] == '$' && v >= 0x20 && v < 0x7f) {
		out[0] = (char)v;
		return 5;
	}
	out[0] = p[0];
	return 1;
}

/* Make a demangled Rust legacy name readable, in place: drop the hash,
 * undo the escapes ("main::keep_some", not "main::keep_some::h3f..."). */
static void
rust_legacy(char *name)
{
	size_t end = rust_hash_at(name), i = 0, o = 0;
	char c[2];

	if (end == 0)
		return;
	while (i < end) {
		size_t k;

		/* A path component "_$..." stands for "$...". */
		if (name[i] == '_' && name[i + 1] == '$' && (i == 0 ||
		    (i >= 2 && name[i - 1] == ':' && name[i - 2] == ':')))
			i++;
		k = rust_unescape(name + i, c);

		/* Escapes only ever shrink the text: write behind reading. */
		name[o++] = c[0];
		if (k == 2 && c[0] == ':')
			name[o++] = ':';
		i += k;
	}
	name[o] = '\0';
}

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
	if (status != 0)
		return NULL;
	rust_legacy(out);
	return out;
}

void
profconv__demangler_free(struct pc_demangler *d)
{
	free(d->buf);
	d->buf = NULL;
	d->cap = 0;
}
