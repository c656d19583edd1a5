/* SPDX-License-Identifier: MIT */
/*
 * test_suppressed.c - what leak suppressions hid (lib/report/suppressed.c),
 * as the footer of a table and as a JSON member: only the suppressions
 * that hid something, bytes for people or units as counted, the growth
 * from the first snapshot to the last.
 */

#include "config.h"

#include <stdlib.h>

#include "report/trend.h"
#include "view_helpers.h"

/* Three suppressions: one from a file that hid two stacks, one that hid
 * nothing, one built in that hid a stack. */
static void
three(struct pc_hidden_list *l)
{
	static const struct { const char *pattern, *file; size_t line,
	    stacks; int64_t first, last; } h[] = {
		{ "malloc_in_x", "supp.txt", 3, 2, 1000, 3072 },
		{ "zlib", "supp.txt", 4, 0, 0, 0 },
		{ "x", "", 0, 1, 10, 4 },
	};
	size_t i;

	l->n = 3;
	l->h = calloc(3, sizeof(*l->h));
	cr_assert(l->h != NULL);
	for (i = 0; i < 3; i++) {
		l->h[i].pattern = strdup(h[i].pattern);
		l->h[i].file = strdup(h[i].file);
		l->h[i].line = h[i].line;
		l->h[i].stacks = h[i].stacks;
		l->h[i].first = h[i].first;
		l->h[i].last = h[i].last;
	}
}

static char *
printed(const struct pc_hidden_list *l, bool bytes, bool growth)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	profconv__hidden_print(fp, l, bytes, growth);
	fclose(fp);
	return buf;
}

static char *
json(const struct pc_hidden_list *l, bool growth)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	profconv__hidden_json(fp, l, growth);
	fclose(fp);
	return buf;
}

/* 3072 bytes are 3.00 KiB, a growth of 3072 - 1000 = 2072 is 2.02 KiB;
 * 4 and 4 - 10 = -6 stay bytes (under 1024 either way). */
static void
footer_in_bytes_with_growth(void)
{
	struct pc_hidden_list l = { 0 };
	char *t;

	three(&l);
	t = printed(&l, true, true);
	cr_expect(eq(str, t, "\nsuppressed: 3 stacks, by 2 suppressions "
	    "(--suppressions, --no-default-suppressions):\n"
	    "  2 stacks, 3.00 KiB (growth 2.02 KiB): leak:malloc_in_x "
	    "(supp.txt:3)\n"
	    "  1 stack, 4 B (growth -6 B): leak:x (built-in)\n"));
	free(t);
	t = printed(&l, false, false);
	cr_expect(eq(str, t, "\nsuppressed: 3 stacks, by 2 suppressions "
	    "(--suppressions, --no-default-suppressions):\n"
	    "  2 stacks, 3072: leak:malloc_in_x (supp.txt:3)\n"
	    "  1 stack, 4: leak:x (built-in)\n"));
	free(t);
	profconv__hidden_free(&l);
	cr_expect(zero(ptr, l.h));
	cr_expect(eq(sz, l.n, 0));
}

static void
json_member(void)
{
	struct pc_hidden_list l = { 0 };
	char *t;

	three(&l);
	t = json(&l, true);
	cr_expect(eq(str, t, ",\n\"suppressed\":[\n"
	    "{\"pattern\":\"malloc_in_x\",\"file\":\"supp.txt\",\"line\":3,"
	    "\"stacks\":2,\"value\":3072,\"growth\":2072},\n"
	    "{\"pattern\":\"x\",\"file\":null,\"line\":0,\"stacks\":1,"
	    "\"value\":4,\"growth\":-6}]"));
	free(t);
	t = json(&l, false);
	cr_expect(zero(ptr, strstr(t, "growth")), "%s", t);
	free(t);
	profconv__hidden_free(&l);
}

/* Suppressions that hid nothing: no footer, an empty JSON list; no
 * suppressions at all: no member either. */
static void
nothing_hidden(void)
{
	struct pc_hidden_list l = { 0 };
	char *t;

	t = printed(&l, true, true);
	cr_expect(eq(str, t, ""));
	free(t);
	t = json(&l, true);
	cr_expect(eq(str, t, ""));
	free(t);
	three(&l);
	l.h[0].stacks = l.h[2].stacks = 0;
	t = printed(&l, true, true);
	cr_expect(eq(str, t, ""));
	free(t);
	t = json(&l, true);
	cr_expect(eq(str, t, ",\n\"suppressed\":[]"));
	free(t);
	profconv__hidden_free(&l);
}

/* What the suppressions hid: footer and JSON member, or nothing. */
Test(suppressed, reports_what_was_hidden)
{
	footer_in_bytes_with_growth();
	json_member();
	nothing_hidden();
}
