/* SPDX-License-Identifier: MIT */
/*
 * path.c - file paths as Go's path/filepath treats them on Unix, so that
 * the names profconv prints from a profile's paths are pprof's.
 */

#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

char *
profconv__clean_path(const char *path)
{
	size_t n = strlen(path), r = 0, w = 0, dotdot = 0;
	bool rooted = n > 0 && path[0] == '/';
	char *out = malloc(n + 2);

	if (out == NULL)
		return NULL;
	if (n == 0) {
		out[0] = '.';
		out[1] = '\0';
		return out;
	}
	if (rooted) {
		out[w++] = '/';
		r = dotdot = 1;
	}
	while (r < n) {
		if (path[r] == '/') {
			r++;
		} else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
			r++;
		} else if (path[r] == '.' && path[r + 1] == '.' &&
		    (r + 2 == n || path[r + 2] == '/')) {
			r += 2;
			if (w > dotdot) {
				for (w--; w > dotdot && out[w] != '/'; w--)
					;
			} else if (!rooted) {
				if (w > 0)
					out[w++] = '/';
				out[w++] = '.';
				out[w++] = '.';
				dotdot = w;
			}
		} else {
			if ((rooted && w != 1) || (!rooted && w != 0))
				out[w++] = '/';
			for (; r < n && path[r] != '/'; r++)
				out[w++] = path[r];
		}
	}
	if (w == 0)
		out[w++] = '.';
	out[w] = '\0';
	return out;
}

/* Go's filepath.Base of DIR (LEN bytes): where its last component starts
 * and its length, "/" and "." for the special cases. */
static void
go_base(const char *dir, size_t len, const char **b, size_t *blen)
{
	size_t i;

	if (len == 0) {
		*b = ".";
		*blen = 1;
		return;
	}
	while (len > 0 && dir[len - 1] == '/')
		len--;
	if (len == 0) {
		*b = "/";
		*blen = 1;
		return;
	}
	for (i = len; i > 0 && dir[i - 1] != '/'; i--)
		;
	*b = dir + i;
	*blen = len - i;
}

/* The next element of a ':'-separated LIST (Go's SplitList: "" has none,
 * "a::b" has an empty one) into *EL and *LEN; false at the end. */
bool
profconv__path_next_elem(const char **list, const char **el, size_t *len)
{
	const char *p = *list, *c;

	if (p == NULL)
		return false;
	c = strchr(p, ':');
	*el = p;
	*len = c != NULL ? (size_t)(c - p) : strlen(p);
	*list = c != NULL ? c + 1 : NULL;
	return true;
}

/* pprof's trimPath: where in PATH the name to look for starts. */
const char *
profconv__trim_path(const char *path, const char *trim,
    const char *search)
{
	static const char *const builtin[] = {
		"/proc/self/cwd/./", "/proc/self/cwd/"
	};
	const char *list, *el, *b, *hit;
	size_t len, blen, i, plen = strlen(path);
	char want[4096];

	if (trim == NULL || *trim == '\0') {
		list = search != NULL && *search != '\0' ? search : NULL;
		while (profconv__path_next_elem(&list, &el, &len)) {
			go_base(el, len, &b, &blen);
			if (blen + 3 > sizeof(want))
				continue;
			want[0] = '/';
			memcpy(want + 1, b, blen);
			memcpy(want + 1 + blen, "/", 2);
			hit = strstr(path, want);
			if (hit != NULL)
				return hit + blen + 2;
		}
	}
	list = trim != NULL && *trim != '\0' ? trim : NULL;
	while (profconv__path_next_elem(&list, &el, &len)) {
		if (len > plen)
			continue;
		if (strncmp(path, el, len) != 0)
			continue;
		if (len > 0 && el[len - 1] == '/')
			return path + len;
		if (path[len] == '/')
			return path + len + 1;
	}
	for (i = 0; i < PC_ARRAY_LEN(builtin); i++)
		if (strncmp(path, builtin[i], strlen(builtin[i])) == 0)
			return path + strlen(builtin[i]);
	return path;
}
