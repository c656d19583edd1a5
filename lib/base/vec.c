/* SPDX-License-Identifier: MIT */
/* vec.c - geometric growth for the library's flat arrays. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int
profconv__grow(void **ptr, size_t *cap, size_t len, size_t n, size_t size)
{
	size_t want, newcap;
	void *p;

	if (n > SIZE_MAX - len)
		return profconv__nomem();
	want = len + n;
	if (want <= *cap)
		return 0;
	newcap = *cap != 0 ? *cap : 16;
	while (newcap < want) {
		if (newcap > SIZE_MAX / 2)
			return profconv__nomem();
		newcap *= 2;
	}
	if (newcap > SIZE_MAX / size)
		return profconv__nomem();
	p = realloc(*ptr, newcap * size);
	if (p == NULL)
		return profconv__nomem();
	*ptr = p;
	*cap = newcap;
	return 0;
}

int
profconv__grow_zeroed(void **ptr, size_t *cap, size_t n, size_t size)
{
	size_t old = *cap;
	int rc = pc_grow(ptr, cap, 0, n, size);

	if (rc == 0 && *cap > old)
		memset((char *)*ptr + old * size, 0, (*cap - old) * size);
	return rc;
}
