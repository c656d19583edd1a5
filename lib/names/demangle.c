/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - symbol names made readable: C++ (Itanium) names through
 * libstdc++'s __cxa_demangle, Rust's legacy names (Itanium-like with a
 * hash and $-escapes) by their own parser here, and Rust's v0 names
 * ("_R...", RFC 2603) by rust_v0.c.  This file holds the output buffer
 * both parsers write through and the entry point that picks one.
 *
 * The full form is the text GNU c++filt 2.40 prints, down to its quirks
 * (crate disambiguators in brackets, ": type" after const generic
 * values, characters escaped as it does), so that what profconv shows
 * can be compared with c++filt, jeprof and pprof one to one.
 * PC_DEMANGLE_NO_HASH leaves out what only tells builds apart: the
 * legacy "::h<hash>" and v0's crate disambiguators, as rustfilt does.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names/demangle.h"
#include "names/names.h"

/* The Itanium C++ ABI demangler; declared here to avoid a C++ header. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
    int *status);

/* Hostile names must not make output explode (rust_v0.c bounds the
 * recursion). */
#define MAX_OUTPUT (1u << 20)

/* --- the output buffer ---------------------------------------------------- */

void
profconv__dm_put(struct pc_dm_out *o, const char *s, size_t n)
{
	size_t cap;
	char *p;

	if (o->err)
		return;
	if (o->len + n + 1 > MAX_OUTPUT) {
		o->err = true;
		return;
	}
	if (o->len + n + 1 > o->d->cap) {
		cap = o->d->cap != 0 ? o->d->cap : 256;
		while (cap < o->len + n + 1)
			cap *= 2;
		p = realloc(o->d->buf, cap);
		if (p == NULL) {
			o->err = true;
			return;
		}
		o->d->buf = p;
		o->d->cap = cap;
	}
	memcpy(o->d->buf + o->len, s, n);
	o->len += n;
	o->d->buf[o->len] = '\0';
}

void
profconv__dm_puts(struct pc_dm_out *o, const char *s)
{
	profconv__dm_put(o, s, strlen(s));
}

void
profconv__dm_putu(struct pc_dm_out *o, uint64_t v, bool hex)
{
	char buf[24];

	snprintf(buf, sizeof(buf), hex ? "%" PRIx64 : "%" PRIu64, v);
	profconv__dm_puts(o, buf);
}

int
profconv__dm_hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* --- Rust legacy names ---------------------------------------------------- */

/* One of legacy Rust's "$..$" escapes at P (N bytes): its length, or 0. */
static size_t
legacy_escape(const char *p, size_t n, char *c)
{
	static const struct { const char *esc; char c; } table[] = {
		{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' },
		{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' },
		{ "$RP$", ')' }, { "$C$", ',' },
	};
	size_t i, k;
	int hi, lo;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		k = strlen(table[i].esc);
		if (n >= k && memcmp(p, table[i].esc, k) == 0) {
			*c = table[i].c;
			return k;
		}
	}
	/* $uXX$: a printable ASCII character by its code. */
	if (n >= 5 && p[1] == 'u' && p[4] == '$') {
		hi = profconv__dm_hex_nibble(p[2]);
		lo = profconv__dm_hex_nibble(p[3]);
		if (hi >= 0 && hi < 8 && lo >= 0 && (hi << 4 | lo) >= 0x20) {
			*c = (char)(hi << 4 | lo);
			return 5;
		}
	}
	return 0;
}

static void
legacy_ident(struct pc_dm_out *o, const char *p, size_t n)
{
	size_t k;
	char c;

	/* The mangler puts "_" before a leading escape. */
	if (n >= 2 && p[0] == '_' && p[1] == '$') {
		p++;
		n--;
	}
	while (n > 0) {
		if (p[0] == '$') {
			k = legacy_escape(p, n, &c);
			if (k == 0) {
				/* Unknown: the rest as is. */
				profconv__dm_put(o, p, n);
				return;
			}
			profconv__dm_put(o, &c, 1);
		} else if (p[0] == '.') {
			k = n >= 2 && p[1] == '.' ? 2 : 1;
			profconv__dm_puts(o, k == 2 ? "::" : ".");
		} else {
			for (k = 0; k < n && p[k] != '$' && p[k] != '.'; k++)
				;
			profconv__dm_put(o, p, k);
		}
		p += k;
		n -= k;
	}
}

/* Is the identifier P (N bytes) a legacy hash, "h" and 16 hex digits
 * with at least 5 different ones? */
static bool
legacy_hash(const char *p, size_t n)
{
	unsigned seen = 0, count = 0;
	size_t i;
	int v;

	if (n != 17 || p[0] != 'h')
		return false;
	for (i = 1; i < 17; i++) {
		if ((v = profconv__dm_hex_nibble(p[i])) < 0)
			return false;
		seen |= 1u << v;
	}
	for (; seen != 0; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

/*
 * The identifiers of "_ZN...E": their count, or -1 when NAME is no
 * legacy Rust name.  A ".suffix" after the final E (".llvm.NNN") is
 * ignored, as c++filt does.
 */
static int
rust_legacy(struct pc_dm_out *o, const char *name, bool hash)
{
	const char *p = name + 3, *end = name + strlen(name), *last = NULL;
	size_t n, lastn = 0;
	int pass, count;

	/* Cut ".suffix" parts until the name ends with E. */
	while (end > p && end[-1] != 'E') {
		const char *dot = end - 1;

		while (dot > p && *dot != '.')
			dot--;
		if (*dot != '.')
			return -1;
		end = dot;
	}
	if (end <= p)
		return -1;
	end--;			/* the E */
	for (pass = 0; pass < 2; pass++) {
		const char *q = p;

		for (count = 0; q < end; count++) {
			for (n = 0; q < end && *q >= '0' && *q <= '9'; q++) {
				if (n > (size_t)(end - p))
					return -1;
				n = n * 10 + (size_t)(*q - '0');
			}
			if (n == 0 || n > (size_t)(end - q))
				return -1;
			if (pass == 0) {
				last = q;
				lastn = n;
			} else if (hash || q != last) {
				if (count > 0)
					profconv__dm_puts(o, "::");
				legacy_ident(o, q, n);
			}
			q += n;
		}
		if (pass == 0 && (count < 2 || !legacy_hash(last, lastn)))
			return -1;
	}
	return count;
}

/* Only [_0-9a-zA-Z$.:] occur in legacy Rust names, up to a suffix. */
static bool
legacy_chars(const char *name)
{
	for (; *name != '\0'; name++)
		if (!(*name == '_' || *name == '$' || *name == '.' ||
		    *name == ':' || *name == '@' ||
		    (*name >= '0' && *name <= '9') ||
		    (*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z')))
			return false;
	return true;
}

/* --- the entry point ------------------------------------------------------ */

static const char *
cxx(struct pc_demangler *d, const char *name)
{
	size_t len = d->cap;
	char *out;
	int status = 0;

	/* The buffer must come from malloc: __cxa_demangle may realloc it. */
	out = __cxa_demangle(name, d->buf, &len, &status);
	if (out == NULL)
		return NULL;	/* d->buf is untouched when it fails */
	/* On success it owns the buffer: ours, or a larger one that
	 * replaced it (ours then was freed); LEN is its size. */
	d->buf = out;
	d->cap = len;
	return status == 0 ? out : NULL;
}

const char *
profconv__demangle(const char *name, struct pc_demangler *d, unsigned flags)
{
	struct pc_dm_out o = { d, 0, false };
	bool hash = (flags & PC_DEMANGLE_NO_HASH) == 0;

	/*
	 * Only names with a known prefix: anything else (a C name, D)
	 * would either fail or, worse, demangle as a type ("i" is "int").
	 */
	if (name == NULL)
		return NULL;
	if (strncmp(name, "_R", 2) == 0)
		return profconv__demangle_rust_v0(&o, name, hash) ? d->buf :
		    NULL;
	if (strncmp(name, "_ZN", 3) == 0 && legacy_chars(name) &&
	    rust_legacy(&o, name, hash) > 0 && !o.err)
		return d->buf;
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	return cxx(d, name);
}

void
profconv__demangler_free(struct pc_demangler *d)
{
	free(d->buf);
	d->buf = NULL;
	d->cap = 0;
}
