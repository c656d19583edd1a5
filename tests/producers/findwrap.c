/* SPDX-License-Identifier: MIT */
/*
 * findwrap.c - a program with allocation wrappers of its own that no
 * built-in list knows: app_alloc, called from many functions, and
 * app_strdup on top of it (a wrapper of a wrapper); and functions that
 * are not wrappers though they allocate: build_table allocates in a
 * loop for its one caller, and app_node both allocates directly and
 * calls functions that allocate.  tests/cli/find-wrappers.sh runs it
 * under the allocator's heap profiler.  Usage: findwrap [ROUNDS]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static void *keep[1 << 18];
static size_t nkeep;

static void
hold(void *p)
{
	if (nkeep < sizeof(keep) / sizeof(keep[0]))
		keep[nkeep++] = p;
}

NOINLINE void *
app_alloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL)
		abort();
	memset(p, 0, n);
	return p;
}

NOINLINE char *
app_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(app_alloc(n), s, n);
}

/* Callers of app_alloc and app_strdup, each its own share. */
NOINLINE static void
load_config(int i)
{
	hold(app_alloc(400 + (size_t)(i % 7) * 16));
}

NOINLINE static void
open_session(int i)
{
	hold(app_alloc(700 + (size_t)(i % 3) * 32));
}

NOINLINE static void
parse_header(int i)
{
	hold(app_alloc(300 + (size_t)(i % 5) * 8));
}

NOINLINE static void
add_route(int i)
{
	hold(app_alloc(500));
	(void)i;
}

NOINLINE static void
name_user(int i)
{
	char buf[600];

	memset(buf, 'u', sizeof(buf) - 1);
	buf[sizeof(buf) - 1 - (size_t)(i % 9)] = '\0';
	hold(app_strdup(buf));
}

NOINLINE static void
name_host(int i)
{
	char buf[500];

	memset(buf, 'h', sizeof(buf) - 1);
	buf[sizeof(buf) - 1 - (size_t)(i % 4)] = '\0';
	hold(app_strdup(buf));
}

NOINLINE static void
name_file(int i)
{
	char buf[450];

	memset(buf, 'f', sizeof(buf) - 1);
	buf[sizeof(buf) - 1 - (size_t)(i % 3)] = '\0';
	hold(app_strdup(buf));
}

NOINLINE static void
name_group(int i)
{
	char buf[350];

	memset(buf, 'g', sizeof(buf) - 1);
	buf[sizeof(buf) - 1 - (size_t)(i % 5)] = '\0';
	hold(app_strdup(buf));
}

/* Hot, but no wrapper: allocates in a loop for its one caller. */
NOINLINE static void
build_table(int n)
{
	int i;

	for (i = 0; i < n; i++)
		hold(malloc(1024));
}

/* Allocates itself and calls functions that allocate: no wrapper. */
NOINLINE static void
app_node(int i)
{
	hold(malloc(800));
	if (i % 2 == 0)
		load_config(i);
	else
		name_group(i);
}

NOINLINE static void
node_a(int i)
{
	app_node(i);
}

NOINLINE static void
node_b(int i)
{
	app_node(i + 1);
}

NOINLINE static void
node_c(int i)
{
	app_node(i);
}

NOINLINE static void
node_d(int i)
{
	app_node(i + 1);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000, i;

	for (i = 0; i < rounds; i++) {
		load_config(i);
		open_session(i);
		parse_header(i);
		add_route(i);
		name_user(i);
		name_host(i);
		name_file(i);
		name_group(i);
		node_a(i);
		node_b(i);
		node_c(i);
		node_d(i);
	}
	build_table(rounds * 3);
	printf("%zu\n", nkeep);
	return 0;
}
