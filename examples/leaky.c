/* SPDX-License-Identifier: MIT */
/*
 * leaky.c - the quick start's example: a small program that leaks from one
 * call path, keeps a growing cache on another and frees its temporaries,
 * so its heap profile has something to find.
 */

#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	char payload[240];
};

static struct node *cache;

/* Leaks: the caller forgets what this returns. */
__attribute__((noinline)) static char *
make_request_buffer(size_t n)
{
	char *p = malloc(n);

	if (p != NULL)
		memset(p, 'r', n);
	return p;
}

/* Keeps: a cache that only grows. */
__attribute__((noinline)) static void
remember(int i)
{
	struct node *n = malloc(sizeof(*n));

	if (n == NULL)
		return;
	memset(n->payload, i & 0xff, sizeof(n->payload));
	n->next = cache;
	cache = n;
}

/* Frees: temporaries that come and go. */
__attribute__((noinline)) static void
scratch_work(int i)
{
	char *tmp = malloc(4096 + (size_t)(i % 7) * 512);

	if (tmp == NULL)
		return;
	memset(tmp, 0, 4096);
	free(tmp);
}

__attribute__((noinline)) static void
handle_request(int i)
{
	scratch_work(i);
	if (i % 3 == 0)
		remember(i);
	if (i % 10 == 0)
		(void)make_request_buffer(1024);	/* the leak */
}

int
main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 20000;

	for (i = 0; i < n; i++)
		handle_request(i);
	return cache != NULL ? 0 : 1;
}
