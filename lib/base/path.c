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
