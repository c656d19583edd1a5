/* SPDX-License-Identifier: MIT */
/*
 * test_speedscope.c - a view in speedscope's file format
 * (lib/write/speedscope.c; https://www.speedscope.app/
 * file-format-schema.json): shared frames with file and line, one
 * "sampled" profile per sample type with its unit, stacks root first,
 * and the values it refuses.
 */

#include "config.h"

#include <stdlib.h>

#include "write/write.h"
#include "graph_view_fixture.h"

static void
setup(void)
{
	new_profile("objects", "count");
	cr_assert(eq(int, profconv_profile_add_sample_type(p, "space",
	    "bytes"), 0));
}

TestSuite(speedscope, .init = setup, .fini = teardown);

/* main (m.c:10) -> a (a.c:20) holding (2 objects, 20 bytes), main -> b
 * (no file, line 0) holding (0, 5). */
static void
two_stacks(int64_t b_space)
{
	uint32_t map = add_map(p, 0x1000, 0x2000, "/bin/x");
	uint32_t fm = add_fn(p, "main", "m.c"), fa = add_fn(p, "a", "a.c");
	uint32_t fb = add_fn(p, "b", "");
	uint32_t lm = LOC1(p, map, 0x1000, fm, 10);
	uint32_t la = LOC1(p, map, 0x1010, fa, 20);
	uint32_t lb = LOC1(p, map, 0x1020, fb, 0);
	int64_t va[2] = { 2, 20 }, vb[2] = { 0, b_space };

	SAMPLE(p, va, la, lm);
	SAMPLE(p, vb, lb, lm);
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0), "%s", ERRMSG);
}

/*
 * Frames in the view's order, 0 a, 1 main, 2 b (each with what it has
 * of file and line), each stack root first, main (1) then its callee; the
 * objects profile (unit "none": a count) leaves out b's stack, whose
 * value is 0, and ends at 2; the space profile ("bytes") ends at 25.
 * The active profile is the view's default type, the last (pprof's).
 */
Test(speedscope, every_type_shares_the_frames)
{
	struct profconv_speedscope_options o = PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	char *out = NULL;

	two_stacks(5);
	o.name = "x\"y";
	CAPTURE(out, profconv_speedscope_write(v, fp, &o));
	cr_expect(eq(str, out,
	    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
	    "\"name\":\"x\\\"y\",\n"
	    "\"exporter\":\"profconv@" PROFCONV_VERSION_STRING "\",\n"
	    "\"shared\":{\"frames\":[\n"
	    "{\"name\":\"a\",\"file\":\"a.c\",\"line\":20},\n"
	    "{\"name\":\"main\",\"file\":\"m.c\",\"line\":10},\n"
	    "{\"name\":\"b\"}]},\n"
	    "\"profiles\":["
	    "{\"type\":\"sampled\",\"name\":\"objects\",\"unit\":\"none\","
	    "\"startValue\":0,\"endValue\":2,\n"
	    "\"samples\":[\n[1,0]],\n\"weights\":[2]},\n"
	    "{\"type\":\"sampled\",\"name\":\"space\",\"unit\":\"bytes\","
	    "\"startValue\":0,\"endValue\":25,\n"
	    "\"samples\":[\n[1,0],\n[1,2]],\n\"weights\":[20,5]}],\n"
	    "\"activeProfileIndex\":1}\n"));
	free(out);
}

/* One type asked for: one profile, active at 0. */
Test(speedscope, one_type)
{
	struct profconv_speedscope_options o = PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	char *out = NULL;

	two_stacks(5);
	o.sample_type = "objects";
	CAPTURE(out, profconv_speedscope_write(v, fp, &o));
	cr_expect(not(zero(ptr, strstr(out, "\"profiles\":[{\"type\":"
	    "\"sampled\",\"name\":\"objects\","))), "%s", out);
	cr_expect(zero(ptr, strstr(out, "\"name\":\"space\"")), "%s", out);
	cr_expect(not(zero(ptr, strstr(out, "\"activeProfileIndex\":0}\n"))),
	    "%s", out);
	free(out);
}

/* A negative value (a delta profile) is refused before anything is
 * written; only the types written are checked. */
Test(speedscope, negative_values_refused)
{
	struct profconv_speedscope_options o = PROFCONV_SPEEDSCOPE_OPTIONS_INIT;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	two_stacks(-5);
	fp = open_memstream(&out, &len);
	cr_assert(fp != NULL);
	cr_expect(eq(int, profconv_speedscope_write(v, fp, NULL),
	    PROFCONV_EFORMAT));
	cr_expect(eq(str, ERRMSG, "sample type 'space' has a negative value "
	    "(a delta profile?); speedscope shows only positive weights"));
	fflush(fp);
	cr_expect(eq(sz, len, 0));
	o.sample_type = "objects";
	cr_expect(eq(int, profconv_speedscope_write(v, fp, &o), 0), "%s",
	    ERRMSG);
	o.sample_type = "nope";
	cr_expect(eq(int, profconv_speedscope_write(v, fp, &o),
	    PROFCONV_ENOTFOUND));
	cr_expect(eq(int, profconv_speedscope_write(NULL, fp, NULL),
	    PROFCONV_EINVAL));
	fclose(fp);
	free(out);
}
