/* SPDX-License-Identifier: MIT */
/*
 * test_diff_table.c - the comparison's table and JSON (lib/report/
 * diff_table.c): the heap columns and the plain ones, sorting, top, the
 * stack-first name column, the value format, checked to the byte on
 * heap and plain profiles built by hand.
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/differ.h"
#include "diff_fixture.h"

TestSuite(diff_table, .fini = teardown);

/* grow grew, shrink freed 3 objects, newone is new, gone went away. */
static struct profconv_diff *
heap_diff(int leaks, enum profconv_diff_by by)
{
	static const char *const bleaf[] = { "grow", "shrink", "gone" };
	static const char *const cleaf[] = { "grow", "shrink", "newone" };
	static const int64_t bv[][4] = { { 10, 1000, 5, 500 },
		{ 4, 4096, 4, 4096 }, { 1, 64, 1, 64 } };
	static const int64_t cv[][4] = { { 30, 3000, 20, 2000 },
		{ 4, 4096, 1, 1024 }, { 2, 2097152, 2, 2097152 } };
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff *d = NULL;

	a = heap(bv, bleaf, 3);
	b = heap(cv, cleaf, 3);
	o.leaks = leaks;
	o.by = by;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	return d;
}

/* The table with rows by stack named in full, root first, last. */
static char *
wide_table(const struct profconv_diff *d)
{
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	char *text = NULL;

	po.wide = 1;
	CAPTURE(text, profconv_diff_print(d, fp, &po));
	return text;
}

static char *
table(const struct profconv_diff *d, const char *sort, size_t top, int exact)
{
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	char *text = NULL;

	po.sort = sort;
	po.top = top;
	po.exact = exact;
	CAPTURE(text, profconv_diff_print(d, fp, &po));
	return text;
}

#define HEAP_HEAD \
	"            New          Freed     Delta objs    Alloc bytes" \
	"    Freed bytes    Delta bytes  Name\n"
#define R(a, b, c, d, e, f, name) a b c d e f "  " name "\n"

/* The memory debuggers' comparison: New, Freed and Delta from the delta
 * profile; rows sorted by delta bytes; a TOTAL row. */
static void
heap_table(void)
{
	struct profconv_diff *d = heap_diff(0, PROFCONV_DIFF_BY_FUNCTION);

	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("              2", "              0", "              2",
	      "        2.00MiB", "             0B", "        2.00MiB", "newone")
	    R("             20", "              5", "             15",
	      "        1.95KiB", "           500B", "        1.46KiB", "grow")
	    R("             -1", "              0", "             -1",
	      "           -64B", "             0B", "           -64B", "gone")
	    R("              0", "              3", "             -3",
	      "             0B", "        3.00KiB", "       -3.00KiB", "shrink")
	    R("             21", "              8", "             13",
	      "        2.00MiB", "        3.49KiB", "        2.00MiB", "TOTAL")));
	free(out);
	out = table(d, "new", 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("              0", "              3", "             -3",
	      "              0", "           3072", "          -3072", "shrink")
	    R("             -1", "              0", "             -1",
	      "            -64", "              0", "            -64", "gone")
	    R("             21", "              8", "             13",
	      "        2099088", "           3572", "        2095516", "TOTAL")));
	free(out);
	/* By name, the first two rows. */
	out = table(d, "name", 2, 0);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             -1", "              0", "             -1",
	      "           -64B", "             0B", "           -64B", "gone")
	    R("             20", "              5", "             15",
	      "        1.95KiB", "           500B", "        1.46KiB", "grow")
	    "  ... 2 more rows\n"
	    R("             21", "              8", "             13",
	      "        2.00MiB", "        3.49KiB", "        2.00MiB", "TOTAL")));
	free(out);
	/* Ties in the sort column go by name. */
	out = table(d, "freed", 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("              0", "              3", "             -3",
	      "              0", "           3072", "          -3072", "shrink")
	    R("             -1", "              0", "             -1",
	      "            -64", "              0", "            -64", "gone")
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("             21", "              8", "             13",
	      "        2099088", "           3572", "        2095516", "TOTAL")));
	free(out);
	out = table(d, "delta-objects", 1, 1);
	cr_expect(strstr(out, "  grow\n  ... 3 more rows\n") != NULL, "%s", out);
	free(out);
	out = NULL;
	cr_assert(eq(int, profconv_diff_print(d, stdout,
	    &(struct profconv_diff_print_options){
	    PROFCONV_DIFF_PRINT_OPTIONS_VERSION, "bogus", 0, 0, 0 }),
	    PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "cannot sort by 'bogus': no such column"));
	profconv_diff_free(d);
}

/* The leak view keeps what grew in use (grow, newone) in the delta and
 * in the table, and totals what it shows. */
static void
leaks(void)
{
	struct profconv_diff *d = heap_diff(1, PROFCONV_DIFF_BY_FUNCTION);
	const struct profconv_profile *delta = profconv_diff_delta(d);

	cr_assert(eq(sz, profconv_profile_sample_count(delta), 2));
	out = table(d, NULL, 0, 1);
	cr_expect(eq(str, out, HEAP_HEAD
	    R("              2", "              0", "              2",
	      "        2097152", "              0", "        2097152", "newone")
	    R("             20", "              5", "             15",
	      "           2000", "            500", "           1500", "grow")
	    R("             22", "              5", "             17",
	      "        2099152", "            500", "        2098652", "TOTAL")));
	profconv_diff_free(d);
}

/* The JSON form: totals before, after and delta, and rows as the table
 * sorts them, with the DevTools comparison names. */
static void
json(void)
{
	struct profconv_diff *d = heap_diff(1, PROFCONV_DIFF_BY_FUNCTION);
	struct profconv_diff_print_options po =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	const char *want[] = {
		"{\"kind\":\"heap\",\"leaks\":true,\"before\":{"
		"\"alloc_objects\":10,\"alloc_space\":1000,"
		"\"inuse_objects\":5,\"inuse_space\":500},",
		"\"after\":{\"alloc_objects\":32,\"alloc_space\":2100152,"
		"\"inuse_objects\":22,\"inuse_space\":2099152},",
		"\"delta\":{\"alloc_objects\":22,\"alloc_space\":2099152,"
		"\"inuse_objects\":17,\"inuse_space\":2098652},",
		"\"total\":{\"name\":\"TOTAL\",\"newCount\":22,"
		"\"deletedCount\":5,\"countDelta\":17,\"allocatedSize\":2099152,"
		"\"freedSize\":500,\"sizeDelta\":2098652,",
		"\"rows\":[\n{\"name\":\"newone\",\"newCount\":2,"
		"\"deletedCount\":0,\"countDelta\":2,\"allocatedSize\":2097152,"
		"\"freedSize\":0,\"sizeDelta\":2097152,\"values\":{"
		"\"alloc_objects\":{\"base\":0,\"cur\":2,\"delta\":2,\"change\":\"new\"},",
		"},\n{\"name\":\"grow\",\"newCount\":20,\"deletedCount\":5,"
		"\"countDelta\":15,\"allocatedSize\":2000,\"freedSize\":500,"
		"\"sizeDelta\":1500,\"values\":{\"alloc_objects\":{\"base\":10,"
		"\"cur\":30,\"delta\":20,\"change\":\"grew\"},\"alloc_space\":{\"base\":1000,"
		"\"cur\":3000,\"delta\":2000,\"change\":\"grew\"},\"inuse_objects\":{\"base\":5,"
		"\"cur\":20,\"delta\":15,\"change\":\"grew\"},\"inuse_space\":{\"base\":500,"
		"\"cur\":2000,\"delta\":1500,\"change\":\"grew\"}}}]}\n",
	};
	const char *at;
	size_t i;

	CAPTURE(out, profconv_diff_write_json(d, fp, NULL));
	cr_assert(strncmp(out, want[0], strlen(want[0])) == 0, "%s", out);
	for (i = 1, at = out; i < sizeof(want) / sizeof(want[0]); i++) {
		at = strstr(at, want[i]);
		cr_assert(at != NULL, "missing, in order: %s", want[i]);
	}
	cr_expect(eq(str, (char *)at, (char *)want[i - 1]), "ends the text");
	free(out);
	po.top = 1;
	po.sort = "name";
	CAPTURE(out, profconv_diff_write_json(d, fp, &po));
	cr_expect(strstr(out, "\"rows\":[\n{\"name\":\"grow\"") != NULL);
	cr_expect(strstr(out, "newone") == NULL, "top 1 of the rows");
	profconv_diff_free(d);
}

Test(diff_table, heap_diff_as_table_and_json)
{
	heap_table();
	teardown();
	leaks();
	teardown();
	json();
}

#define PLAIN_HEAD \
	" base contentions cur contentions delta contentions     base delay" \
	"      cur delay    delta delay  Name\n"
#define GOPARK_NUMBERS "                2               5                 3" \
	"             50           2050           2000"
#define GOPARK GOPARK_NUMBERS "  "
#define LOCK_NUMBERS "                5               9                 4" \
	"           1000           1500            500"
#define LOCK LOCK_NUMBERS "  "
#define PLAIN_TOTAL_NUMBERS "                7              14                 7" \
	"           1050           3550           2500"
#define PLAIN_TOTAL PLAIN_TOTAL_NUMBERS "  TOTAL\n"
/* The columns with the name first (rows by stack). */
#define PLAIN_COLUMNS \
	" base contentions cur contentions delta contentions     base delay" \
	"      cur delay    delta delay"

/* Other profiles get base, cur and delta per sample type, headers never
 * cut; rows by function, by line or by stack; sorted by the default
 * type's delta or by the type named. */
Test(diff_table, plain_table)
{
	struct profconv_diff_options o = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff *d = NULL;

	a = plain("contentions", "delay", 5, 1000, 2, 50);
	b = plain("contentions", "delay", 9, 1500, 5, 2050);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), 0), "%s", ERRMSG);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "runtime.gopark\n"
	    LOCK "sync.(*Mutex).Lock\n" PLAIN_TOTAL));
	free(out);
	out = table(d, "contentions", 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD LOCK "sync.(*Mutex).Lock\n"
	    GOPARK "runtime.gopark\n" PLAIN_TOTAL));
	profconv_diff_free(d);
	o.by = PROFCONV_DIFF_BY_STACK;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	free(out);
	out = wide_table(d);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "main;runtime.gopark\n"
	    LOCK "main;sync.(*Mutex).Lock\n" PLAIN_TOTAL));
	free(out);
	/* Not wide: the stack first, leaf first, padded to the longest. */
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out,
	    "Stack                     " PLAIN_COLUMNS "\n"
	    "runtime.gopark < main     " GOPARK_NUMBERS "\n"
	    "sync.(*Mutex).Lock < main " LOCK_NUMBERS "\n"
	    "TOTAL                     " PLAIN_TOTAL_NUMBERS "\n"));
	profconv_diff_free(d);
	o.by = PROFCONV_DIFF_BY_LINE;
	cr_assert(eq(int, profconv_diff_new(&d, a, b, &o), 0), "%s", ERRMSG);
	free(out);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out, PLAIN_HEAD GOPARK "runtime.gopark proc.go:363\n"
	    LOCK "sync.(*Mutex).Lock mutex.go:81\n" PLAIN_TOTAL));
	free(out);
	CAPTURE(out, profconv_diff_write_json(d, fp, NULL));
	cr_expect(eq(str, out, "{\"kind\":\"values\",\"leaks\":false,"
	    "\"before\":{\"contentions\":7,\"delay\":1050},"
	    "\"after\":{\"contentions\":14,\"delay\":3550},"
	    "\"delta\":{\"contentions\":7,\"delay\":2500},"
	    "\"total\":{\"name\":\"TOTAL\",\"values\":{\"contentions\":"
	    "{\"base\":7,\"cur\":14,\"delta\":7,\"change\":\"grew\"},\"delay\":{\"base\":1050,"
	    "\"cur\":3550,\"delta\":2500,\"change\":\"grew\"}}},\"rows\":[\n"
	    "{\"name\":\"runtime.gopark proc.go:363\",\"values\":{"
	    "\"contentions\":{\"base\":2,\"cur\":5,\"delta\":3,\"change\":\"grew\"},\"delay\":"
	    "{\"base\":50,\"cur\":2050,\"delta\":2000,\"change\":\"grew\"}}},\n"
	    "{\"name\":\"sync.(*Mutex).Lock mutex.go:81\",\"values\":{"
	    "\"contentions\":{\"base\":5,\"cur\":9,\"delta\":4,\"change\":\"grew\"},\"delay\":"
	    "{\"base\":1000,\"cur\":1500,\"delta\":500,\"change\":\"grew\"}}}]}\n"));
	profconv_diff_free(d);
	profconv_profile_free(a);
	profconv_profile_free(b);
	a = plain("goroutine", NULL, 3, 0, 1, 0);
	b = plain("goroutine", NULL, 1, 0, 4, 0);
	cr_assert(eq(int, profconv_diff_new(&d, a, b, NULL), 0), "%s", ERRMSG);
	free(out);
	out = table(d, NULL, 0, 0);
	cr_expect(eq(str, out,
	    " base goroutine  cur goroutine delta goroutine  Name\n"
	    "              1              4               3  runtime.gopark\n"
	    "              3              1              -2  "
	    "sync.(*Mutex).Lock\n"
	    "              4              5               1  TOTAL\n"));
	profconv_diff_free(d);
}

/* One value in a column 14 wide, as the table and the retention table
 * print it. */
static char *
value(int64_t v, bool bytes, bool exact)
{
	char *text = NULL;

	CAPTURE(text, (profconv__diff_print_value(fp, 14, v, bytes, exact), 0));
	return text;
}

/*
 * Counts are plain integers; bytes under 1 KiB keep a "B" in the same
 * width; from 1024 up (or down) they are in powers of 1024 with two
 * decimals; exact bytes are integers.  Each field is a space and 14 characters.
 */
Test(diff_table, value_format)
{
	struct {
		int64_t v;
		bool bytes, exact;
		const char *want;
	} c[] = {
		{ 42, false, false, "             42" },
		{ -7, false, false, "             -7" },
		{ 1023, true, false, "          1023B" },
		{ -1023, true, false, "         -1023B" },
		{ 1024, true, false, "        1.00KiB" },
		{ -1536, true, false, "       -1.50KiB" },
		{ 3 * 1048576 / 2, true, false, "        1.50MiB" },
		{ (int64_t)5 << 30, true, false, "        5.00GiB" },
		{ 1536, true, true, "           1536" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		free(out);
		out = value(c[i].v, c[i].bytes, c[i].exact);
		cr_expect(eq(sz, strlen(out), 15), "%" PRId64, c[i].v);
		cr_expect(eq(str, out, (char *)c[i].want), "%" PRId64, c[i].v);
	}
}
