/* SPDX-License-Identifier: MIT */
/*
 * shorten.c - pprof's ShortenFunctionName (internal/graph/graph.go), the
 * one short form of a function name that the call graph's boxes, the
 * flame graph's labels and the report's pictures show (the full name
 * stays in their tooltips).  pprof's rule, its regular expressions
 * written out by hand, in its order:
 *
 *   1. a leading "(anonymous namespace)::" goes;
 *   2. a Go module's major version "/vN" (N 2-9, or two or more digits
 *      not starting with 0, followed by "." or "/") goes, the first one,
 *      when the name is one line;
 *   3. the first of these that matches gives its capture:
 *      Go    ^(?:[\w\-\.]+\/)+(.+)                  the package path goes
 *      Java  ^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*))
 *            (?:\(|$)                                packages, arguments go
 *      C++   ^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?)
 *                                                    namespaces go, and
 *            whatever follows "Class::method<...>" (arguments, a lambda
 *            inside it): the last "Class::member" whose class starts with
 *            a capital is kept, templates kept;
 *   4. else the name as it is.
 *
 * So it is not "the last two components": "std::vector<int>::push_back"
 * and "ns::detail::run" (no capitalised class) stay whole, as in pprof.
 * "\w" is ASCII, "." stops at a newline.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "names/names.h"

static bool
is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 2: the first "/vN" of a major version removed, in place. */
static void
drop_go_version(char *s)
{
	size_t i, j, n;

	if (strchr(s, '\n') != NULL)
		return;
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] != '/' || s[i + 1] != 'v')
			continue;
		for (j = i + 2; is_digit(s[j]); j++)
			;
		n = j - (i + 2);
		if ((s[j] == '.' || s[j] == '/') &&
		    ((n == 1 && s[i + 2] >= '2') || (n >= 2 && s[i + 2] != '0'))) {
			memmove(s + i, s + j, strlen(s + j) + 1);
			return;
		}
	}
}

/* The end of a capture that runs to the end of the line. */
static size_t
line_end(const char *s, size_t from)
{
	while (s[from] != '\0' && s[from] != '\n')
		from++;
	return from;
}

/* Go: as many "path/" components as there are, but something after. */
static bool
go_name(const char *s, size_t *from, size_t *to)
{
	size_t i = 0, j, last = 0, prev = 0;
	bool any = false;

	for (;;) {
		for (j = i; is_word(s[j]) || s[j] == '-' || s[j] == '.'; j++)
			;
		if (j == i || s[j] != '/')
			break;
		prev = last;
		last = i = j + 1;
		any = true;
	}
	if (!any)
		return false;
	/* (.+) needs a character; else one component less, if any. */
	if (s[last] == '\0' || s[last] == '\n') {
		if (prev == 0)
			return false;
		last = prev;
	}
	*from = last;
	*to = line_end(s, last);
	return true;
}

/* Java: "pkg.pkg.Class.method" before "(" or the end. */
static bool
java_name(const char *s, size_t *from, size_t *to)
{
	size_t i = 0, j;

	while (s[i] >= 'a' && s[i] <= 'z') {
		for (j = i + 1; is_word(s[j]); j++)
			;
		if (s[j] != '.')
			break;
		i = j + 1;
	}
	if (!(s[i] >= 'A' && s[i] <= 'Z'))
		return false;
	for (j = i + 1; is_word(s[j]) || s[j] == '$'; j++)
		;
	if (s[j] != '.')
		return false;
	j++;
	if (strncmp(s + j, "<init>", 6) == 0) {
		j += 6;
	} else if (s[j] >= 'a' && s[j] <= 'z') {
		for (j++; is_word(s[j]) || s[j] == '$'; j++)
			;
	} else {
		return false;
	}
	if (s[j] != '(' && s[j] != '\0')
		return false;
	*from = i;
	*to = j;
	return true;
}

/* "Class::member" at S + I, its end in *TO: a component whose first
 * letter after underscores is a capital, "::", "~" perhaps, a member. */
static bool
cpp_pair(const char *s, size_t i, size_t *to)
{
	size_t j = i;

	while (s[j] == '_')
		j++;
	if (!(s[j] >= 'A' && s[j] <= 'Z'))
		return false;
	while (is_word(s[j]))
		j++;
	if (s[j] != ':' || s[j + 1] != ':')
		return false;
	j += 2;
	if (s[j] == '~')
		j++;
	if (!(is_word(s[j]) && !is_digit(s[j])))
		return false;
	for (j++; is_word(s[j]); j++)
		;
	*to = j;
	return true;
}

/* C++: namespaces before "Class::member<...>"; the greedy prefix makes
 * it the last such pair with at least one component before it. */
static bool
cpp_name(const char *s, size_t *from, size_t *to)
{
	size_t i = 0, j, end, gt = 0;
	bool first = true, found = false;

	for (;;) {
		if (!(is_word(s[i]) && !is_digit(s[i])))
			break;
		if (!first && cpp_pair(s, i, &end)) {
			*from = i;
			*to = end;
			found = true;
		}
		for (j = i + 1; is_word(s[j]); j++)
			;
		if (s[j] != ':' || s[j + 1] != ':')
			break;
		first = false;
		i = j + 2;
	}
	/* (?:<.*>)?: from a "<" right after it to the line's last ">". */
	if (found && s[*to] == '<') {
		for (j = *to + 1; s[j] != '\0' && s[j] != '\n'; j++)
			if (s[j] == '>')
				gt = j;
		if (gt != 0)
			*to = gt + 1;
	}
	return found;
}

char *
profconv__name_shorten(const char *name)
{
	static const char anon[] = "(anonymous namespace)::";
	char *s = strdup(name);
	size_t from, to;

	if (s == NULL)
		return NULL;
	if (strncmp(s, anon, sizeof(anon) - 1) == 0)
		memmove(s, s + sizeof(anon) - 1,
		    strlen(s) - (sizeof(anon) - 1) + 1);
	drop_go_version(s);
	if (go_name(s, &from, &to) || java_name(s, &from, &to) ||
	    cpp_name(s, &from, &to)) {
		memmove(s, s + from, to - from);
		s[to - from] = '\0';
	}
	return s;
}
