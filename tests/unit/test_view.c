/* SPDX-License-Identifier: MIT */
/*
 * test_view.c - views (view.c, prune.c): what every writer shows of a
 * profile, checked exactly on profiles built by hand.
 */

#include "config.h"

#include "view/view.h"
#include "view_helpers.h"
#include "model/model.h"
#include "model/seams.h"

static struct profconv_profile *p;

static void
setup(void)
{
	cr_assert(eq(int, profconv_profile_new(&p), 0));
}

static void
teardown(void)
{
	profconv_profile_free(p);
	p = NULL;
}

TestSuite(view, .init = setup, .fini = teardown);

/* A heap profile: one sample type in bytes. */
static void
heap_types(void)
{
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
}

/*
 * drop_frames as pprof's Prune applies it: walking from the root, the
 * first matching frame after a frame of the program is cut with
 * everything beneath it; a match before any program frame stays.
 */
Test(view, drop_frames_cut_after_program_frame)
{
	uint32_t m, g, ma, je, lm, lg, lma, lje;
	int64_t v1 = 100, v2 = 7;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc|je_.*");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	ma = add_fn(p, "malloc", "");
	je = add_fn(p, "je_prof_backtrace", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	lma = LOC1(p, 0, 0x30, ma, 1);
	lje = LOC1(p, 0, 0x40, je, 1);
	SAMPLE(p, &v1, lje, lma, lg, lm);
	/* malloc at the root is no allocator frame under the program. */
	SAMPLE(p, &v2, lma, lm, lma);
	expect_view(p, NULL, "main;grow 100\nmalloc;main 7\n");
}

/* A frame that matches keep_frames as well is the program's. */
Test(view, keep_frames_survive)
{
	uint32_t m, ma, xm, lm, lma, lxm;
	int64_t v = 5;

	heap_types();
	profconv_profile_set_drop_frames(p, "x?malloc");
	profconv_profile_set_keep_frames(p, "xmalloc");
	m = add_fn(p, "main", "");
	ma = add_fn(p, "malloc", "");
	xm = add_fn(p, "xmalloc", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lma = LOC1(p, 0, 0x20, ma, 1);
	lxm = LOC1(p, 0, 0x30, xm, 1);
	SAMPLE(p, &v, lma, lxm, lm);
	expect_view(p, NULL, "main;xmalloc 5\n");
}

/* A match in the middle of a location's inline chain keeps only the
 * callers outside it. */
Test(view, drop_inside_inline_chain)
{
	uint32_t m, in, ma, out, lm, l;
	int64_t v = 3;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	m = add_fn(p, "main", "");
	in = add_fn(p, "inner", "");
	ma = add_fn(p, "malloc", "");
	out = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	l = LOCN(p, 0, 0x20, 1, in, ma, out);
	SAMPLE(p, &v, l, lm);
	expect_view(p, NULL, "main;outer 3\n");
}

/* Frames without symbols inside the allocator's own library are cut
 * from allocation profiles even without drop_frames, not from others. */
static void
allocator_library(const char *lib)
{
	uint32_t app, al, m, lm, la;
	int64_t v[2] = { 1, 64 };

	app = add_map(p, 0x1000, 0x2000, "/bin/app");
	al = add_map(p, 0x7000, 0x9000, lib);
	m = add_fn(p, "main", "");
	lm = LOC1(p, app, 0x1010, m, 1);
	la = add_loc(p, al, 0x7123, NULL, 0, 0);
	SAMPLE(p, v, la, lm);
}

Test(view, allocator_library_cut_in_heap_profile)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	allocator_library("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");
	expect_view(p, NULL, "main 1 64\n");
	o.keep_allocator_frames = 1;
	expect_view(p, &o, "main;libjemalloc.so.2+0x123 1 64\n");
}

Test(view, tcmalloc_library_cut_in_heap_profile)
{
	profconv_profile_add_sample_type(p, "space", "bytes");
	profconv_profile_add_sample_type(p, "objects", "count");
	allocator_library("/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4");
	expect_view(p, NULL, "main 1 64\n");
}

Test(view, allocator_library_kept_in_cpu_profile)
{
	profconv_profile_add_sample_type(p, "samples", "count");
	profconv_profile_add_sample_type(p, "cpu", "nanoseconds");
	allocator_library("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");
	expect_view(p, NULL, "main;libjemalloc.so.2+0x123 1 64\n");
}

/* Inline calls expand root first, the outermost line first; no_inline
 * keeps one frame per location, its outermost function. */
Test(view, inline_order_and_no_inline)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t m, a, b, c, lm, l;
	int64_t v = 9;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	a = add_fn(p, "leaf", "");
	b = add_fn(p, "middle", "");
	c = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	l = LOCN(p, 0, 0x20, 1, a, b, c);
	SAMPLE(p, &v, l, lm);
	expect_view(p, NULL, "main;outer;middle;leaf 9\n");
	o.no_inline = 1;
	expect_view(p, &o, "main;outer 9\n");
}

/* By line: "name file.c:12" with the file's base name; by address: one
 * frame per location, "outermost+0xaddress"; a location without lines
 * is "module+0xoffset", or its address without a mapping. */
Test(view, granularity)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t map, m, a, b, l1, l2, l3, l4;
	int64_t v = 2, w = 3;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "/src/app/main.c");
	a = add_fn(p, "grow", "/src/app/pool.c");
	b = add_fn(p, "nofile", "");
	l1 = LOC1(p, map, 0x401000, m, 12);
	l2 = LOCN(p, map, 0x402000, 40, a, m);
	l3 = LOC1(p, map, 0x403000, b, 7);
	l4 = add_loc(p, map, 0x404abc, NULL, 0, 0);
	SAMPLE(p, &v, l2, l1);
	SAMPLE(p, &w, 0x0 + l4, l3, l1);
	expect_view(p, NULL, "main;main;grow 2\nmain;nofile;app+0x4abc 3\n");
	o.granularity = PROFCONV_BY_LINE;
	expect_view(p, &o, "main main.c:12;main main.c:41;grow pool.c:40 2\n"
	    "main main.c:12;nofile;app+0x4abc 3\n");
	o.granularity = PROFCONV_BY_ADDRESS;
	/* Where the functions start is not known: the module's address in
	 * brackets, never taken for an offset. */
	expect_view(p, &o, "main [app+0x1000];main [app+0x2000] 2\n"
	    "main [app+0x1000];nofile [app+0x3000];app+0x4abc 3\n");
	/* Known (the symbolizer found it): the offset into the function. */
	profconv__set_location_fn_offset(p, l1, 0x1f);
	profconv__set_location_fn_offset(p, l3, 0);
	expect_view(p, &o, "main+0x1f;main [app+0x2000] 2\n"
	    "main+0x1f;nofile+0x0;app+0x4abc 3\n");
}

/* pprof's -files and -filefunctions names: the file cleaned as Go's
 * filepath.Clean, "NAME FILE", and "[module]" or "<unknown>" for a frame
 * without a file, unsymbolized ones too. */
Test(view, granularity_files)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t map, m, a, h, b, l1, l2, l3, l4, l5;
	int64_t v = 2, w = 3, x = 5;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x400000, 0x500000, "/usr/bin/app");
	m = add_fn(p, "main", "/src/app/./main.c");
	a = add_fn(p, "grow", "/src/app/pool.c");
	h = add_fn(p, "helper", "/src/app/x/../pool.c");
	b = add_fn(p, "nofile", "");
	l1 = LOC1(p, map, 0x401000, m, 12);
	l2 = LOCN(p, map, 0x402000, 40, h, a, m);
	l3 = LOC1(p, map, 0x403000, b, 7);
	l4 = add_loc(p, map, 0x404abc, NULL, 0, 0);
	l5 = add_loc(p, 0, 0xdeadbeef, NULL, 0, 0);
	SAMPLE(p, &v, l2, l1);
	SAMPLE(p, &w, 0x0 + l4, l3, l1);
	SAMPLE(p, &x, l5);
	o.granularity = PROFCONV_BY_FILE;
	expect_view(p, &o, "/src/app/main.c;/src/app/main.c;/src/app/pool.c;"
	    "/src/app/pool.c 2\n/src/app/main.c;[app];[app] 3\n"
	    "<unknown> 5\n");
	o.granularity = PROFCONV_BY_FILE_FUNCTION;
	expect_view(p, &o, "<unknown> 5\nmain /src/app/main.c;"
	    "main /src/app/main.c;grow /src/app/pool.c;helper /src/app/pool.c"
	    " 2\nmain /src/app/main.c;nofile;[app] 3\n");
	o.granularity = (enum profconv_granularity)5;
	cr_expect(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
}

Test(view, unmapped_location_is_its_address)
{
	uint32_t l;
	int64_t v = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	l = add_loc(p, 0, 0xdeadbeef, NULL, 0, 0);
	SAMPLE(p, &v, l);
	expect_view(p, NULL, "0xdeadbeef 1\n");
}

/* focus keeps the stacks with a matching frame, ignore drops them; the
 * expressions are searched in the frame's text. */
Test(view, focus_and_ignore)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	uint32_t m, g, s, lm, lg, ls;
	int64_t a = 10, b = 20;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	g = add_fn(p, "Pool::grow", "");
	s = add_fn(p, "shrink", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg = LOC1(p, 0, 0x20, g, 1);
	ls = LOC1(p, 0, 0x30, s, 1);
	SAMPLE(p, &a, lg, lm);
	SAMPLE(p, &b, ls, lm);
	o.focus = "gro";
	expect_view(p, &o, "main;Pool::grow 10\n");
	o.focus = NULL;
	o.ignore = "^shr";
	expect_view(p, &o, "main;Pool::grow 10\n");
	o.focus = "main";
	o.ignore = "grow";
	expect_view(p, &o, "main;shrink 20\n");
	o.ignore = "(";
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	cr_assert(v == NULL);
	cr_assert(strncmp(ERRMSG, "invalid ignore expression '(': ", 31) == 0,
	    "%s", ERRMSG);
}

/* Samples whose values are all zero are left out; two samples that show
 * the same frames are one stack with their values added; the totals
 * are the profile's. */
Test(view, zeros_merges_and_totals)
{
	struct profconv_view *v = NULL;
	uint32_t m, g, lm, lg1, lg2;
	int64_t a[2] = { 1, 100 }, b[2] = { 2, 200 }, z[2] = { 0, 0 };
	int64_t half[2] = { 0, 5 }, t, want;
	size_t i;

	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	m = add_fn(p, "main", "");
	g = add_fn(p, "grow", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	lg1 = LOC1(p, 0, 0x20, g, 5);
	lg2 = LOC1(p, 0, 0x28, g, 6);
	SAMPLE(p, a, lg1, lm);
	SAMPLE(p, b, lg2, lm);
	SAMPLE(p, z, lm);
	SAMPLE(p, half, lm);
	expect_view(p, NULL, "main 0 5\nmain;grow 3 300\n");
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	for (i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_view_total(v, i, &t), 0));
		cr_assert(eq(int, profconv_profile_total(p, i, &want), 0));
		cr_expect(eq(i64, t, want), "type %zu", i);
	}
	cr_assert(eq(int, profconv_view_total(v, 2, &t), PROFCONV_EINVAL));
	profconv_view_free(v);
}

/*
 * Stacks sort by their folded text in byte order, ';' between frames:
 * ':' and '.' sort before it, '<' and letters after it.
 */
Test(view, sorted_by_folded_text)
{
	const char *names[] = { "main", "main:x", "a", "main<x>", "a.b", "bc",
		"ab", "c" };
	uint32_t f[8], l[8];
	int64_t v = 1;
	size_t i;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < 8; i++) {
		f[i] = add_fn(p, names[i], "");
		l[i] = LOC1(p, 0, 0x100 + 16 * i, f[i], 1);
	}
	SAMPLE(p, &v, l[0]);		/* main */
	SAMPLE(p, &v, l[1]);		/* main:x */
	SAMPLE(p, &v, l[2], l[0]);	/* main;a */
	SAMPLE(p, &v, l[3]);		/* main<x> */
	SAMPLE(p, &v, l[4]);		/* a.b */
	SAMPLE(p, &v, l[5], l[2]);	/* a;bc */
	SAMPLE(p, &v, l[7], l[6]);	/* ab;c */
	expect_view(p, NULL, "a.b 1\na;bc 1\nab;c 1\nmain 1\nmain:x 1\n"
	    "main;a 1\nmain<x> 1\n");
}

/* A sample without locations is a stack without frames. */
Test(view, empty_stack)
{
	int64_t v = 4;

	profconv_profile_add_sample_type(p, "samples", "count");
	cr_assert(eq(int, profconv_profile_add_sample(p, NULL, 0, &v, NULL,
	    0), 0));
	expect_view(p, NULL, "- 4\n");
}

/* What a frame says of itself. */
Test(view, frame_fields)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view_frame fr;
	struct profconv_view_stack st;
	struct profconv_view *v = NULL;
	uint32_t map, g, l1, l2, l3;
	int64_t val = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	map = add_map(p, 0x1000, 0x9000, "/opt/lib/libpool.so");
	g = add_fn(p, "app::Pool<int>::grow(unsigned long)", "/src/pool.cc");
	l1 = LOC1(p, map, 0x1100, g, 42);
	l2 = LOC1(p, map, 0x1200, g, 43);
	l3 = add_loc(p, map, 0x1300, NULL, 0, 0);
	SAMPLE(p, &val, l1);
	SAMPLE(p, &val, l2);
	SAMPLE(p, &val, l3);
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0));
	cr_assert(eq(sz, profconv_view_frame_count(v), 2));
	cr_assert(eq(sz, profconv_view_stack_count(v), 2));
	cr_assert(eq(int, profconv_view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 1));
	cr_assert(eq(i64, st.values[0], 2));
	cr_assert(eq(int, profconv_view_frame(v, st.frames[0], &fr), 0));
	cr_expect(eq(str, (char *)fr.name, "app::Pool::grow"));
	cr_expect(eq(str, (char *)fr.function, "app::Pool::grow"));
	cr_expect(eq(str, (char *)fr.file, "/src/pool.cc"));
	cr_expect(eq(i64, fr.line, 42));
	cr_expect(eq(str, (char *)fr.module, "libpool.so"));
	cr_assert(eq(int, profconv_view_stack(v, 1, &st), 0));
	cr_assert(eq(int, profconv_view_frame(v, st.frames[0], &fr), 0));
	cr_expect(eq(str, (char *)fr.name, "libpool.so+0x300"));
	cr_expect(eq(str, (char *)fr.function, ""));
	cr_expect(eq(str, (char *)fr.file, ""));
	cr_expect(eq(i64, fr.line, 0));
	cr_expect(eq(str, (char *)fr.module, "libpool.so"));
	cr_assert(eq(int, profconv_view_frame(v, 0, &fr), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_view_frame(v, 3, &fr), PROFCONV_EINVAL));
	cr_assert(eq(int, profconv_view_stack(v, 2, &st), PROFCONV_EINVAL));
	cr_assert(profconv_view_profile(v) == p);
	profconv_view_free(v);
	o.demangle = PROFCONV_DEMANGLE_FULL;
	o.granularity = PROFCONV_BY_LINE;
	expect_view(p, &o, "app::Pool<int>::grow(unsigned long) pool.cc:42 1\n"
	    "app::Pool<int>::grow(unsigned long) pool.cc:43 1\n"
	    "libpool.so+0x300 1\n");
}

Test(view, sample_index_and_options)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	size_t i = 99;

	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	cr_assert(eq(int, profconv_view_new(&v, p, NULL), 0));
	cr_assert(eq(int, profconv_view_sample_index(v, NULL, &i), 0));
	cr_assert(eq(sz, i, 1));
	cr_assert(eq(int, profconv_view_sample_index(v, "alloc_space", &i),
	    0));
	cr_assert(eq(sz, i, 0));
	cr_assert(eq(int, profconv_view_sample_index(v, "cpu", &i),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG, "profile has no sample type 'cpu'"));
	profconv_view_free(v);
	profconv_view_free(NULL);
	o.version = 99;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	o.version = PROFCONV_VIEW_OPTIONS_VERSION;
	o.granularity = (enum profconv_granularity)7;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), PROFCONV_EINVAL));
	cr_assert(v == NULL);
}

/* The folded text of stack I of V, root first, ';' between frames. */
static char *
folded_text(const struct profconv_view *v, size_t i)
{
	struct profconv_view_stack st;
	struct profconv_view_frame fr;
	char *buf = NULL;
	size_t len = 0, k;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(fp != NULL);
	cr_assert(eq(int, profconv_view_stack(v, i, &st), 0));
	for (k = 0; k < st.nframes; k++) {
		cr_assert(eq(int, profconv_view_frame(v, st.frames[k], &fr), 0));
		fprintf(fp, "%s%s", k != 0 ? ";" : "", fr.name);
	}
	fclose(fp);
	return buf;
}

/*
 * Many stacks, deep enough that their frames' keys overflow a sort record
 * (so that ties on it are settled frame by frame), names one another's
 * prefixes ("f1", "f10", "f1+x", "f1:y"), samples that repeat a stack:
 * the view is in byte order of the folded text, sums repeated stacks, and
 * is the same with 1, 2, 3 and 8 threads.
 */
Test(view, many_deep_stacks_any_thread_count)
{
	static const char *const names[] = { "f1", "f10", "f1+x", "f1:y",
		"f2", "main", "g", "g<int>", "h", "h h", "z" };
	enum { NF = sizeof(names) / sizeof(names[0]), NS = 40000, DEPTH = 90 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v[4] = { NULL };
	static const unsigned int jobs[4] = { 1, 2, 3, 8 };
	uint32_t loc[NF], stk[DEPTH];
	uint64_t r;
	int64_t val, total = 0, sum = 0;
	size_t i, k, n, j;
	char *prev = NULL, *cur;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < NF; i++)
		loc[i] = LOC1(p, 0, 0x100 + 16 * i, add_fn(p, names[i], ""), 1);
	for (i = 0; i < NS; i++) {
		/* Deep shared roots, then a few varied frames at the leaf end;
		 * every fifth sample repeats an earlier stack. */
		uint64_t s = i % 5 == 4 ? (i - 4) * 7919 : i * 7919;

		n = DEPTH - 8 + s % 9;
		for (k = 0; k < n; k++) {
			r = s * 0x9e3779b97f4a7c15ULL + k;
			r = (r ^ (r >> 31)) * 0xbf58476d1ce4e5b9ULL;
			r ^= r >> 27;
			stk[n - 1 - k] = loc[k < n - 6 ? (k % 3 == 0 ? 5 : 6) :
			    r % NF];
		}
		val = (int64_t)(i % 7) + 1;
		total += val;
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, n, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 4; j++) {
		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&v[j], p, &o), 0), "%s",
		    ERRMSG);
	}
	n = profconv_view_stack_count(v[0]);
	cr_assert(gt(sz, n, NS / 2), "%zu stacks", n);
	cr_assert(lt(sz, n, NS));	/* repeated stacks are one */
	for (i = 0; i < n; i++) {
		struct profconv_view_stack st;

		cur = folded_text(v[0], i);
		if (prev != NULL)
			cr_assert(lt(int, strcmp(prev, cur), 0),
			    "stack %zu is not after the one before", i);
		free(prev);
		prev = cur;
		cr_assert(eq(int, profconv_view_stack(v[0], i, &st), 0));
		sum += st.values[0];
		for (j = 1; j < 4; j++) {
			char *other = folded_text(v[j], i);
			struct profconv_view_stack so;

			cr_assert(eq(str, other, cur), "-j %u, stack %zu",
			    jobs[j], i);
			cr_assert(eq(int, profconv_view_stack(v[j], i, &so), 0));
			cr_assert(eq(i64, so.values[0], st.values[0]));
			free(other);
		}
	}
	free(prev);
	cr_assert(eq(i64, sum, total));
	for (j = 0; j < 4; j++)
		profconv_view_free(v[j]);
}

/*
 * Few stacks, many samples (runs of one stack longer than a task's range
 * of places): each stack's values are the saturating sum of its samples
 * in sample order (large values of both signs, so that any other order
 * gives another sum), and each sample points at its stack, with 1, 2
 * and 3 threads.
 */
static int64_t
sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* Large values first, saturating each stack's sum, then small negative
 * ones: summed in another order, the sums are others. */
static int64_t
value_at(size_t i)
{
	if (i % 1000 == 999)
		return 0;
	return i < 50000 ? INT64_MAX / 4 + (int64_t)i : -(INT64_MAX / 100000);
}

Test(view, repeated_stacks_sum_in_sample_order)
{
	enum { NS = 100000, NSTK = 3 };
	static const char *const leaf[NSTK] = { "a", "b", "c" };
	static const unsigned int jobs[3] = { 1, 2, 3 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	static uint8_t which[NS];
	int64_t want[NSTK] = { 0 }, back[NSTK] = { 0 }, val;
	uint32_t root, loc[NSTK], stk[2];
	size_t i, j, k;

	profconv_profile_add_sample_type(p, "samples", "count");
	root = LOC1(p, 0, 0x10, add_fn(p, "main", ""), 1);
	for (k = 0; k < NSTK; k++)
		loc[k] = LOC1(p, 0, 0x20 + 16 * k, add_fn(p, leaf[k], ""), 2);
	for (i = 0; i < NS; i++) {
		/* Long runs of c, a and b mixed elsewhere; every 1,000th
		 * sample zero (not shown).  NS is value_at()'s 100,000. */
		which[i] = i >= NS / 4 && i < NS * 3 / 4 ? 2 :
		    (uint8_t)((i * i) % 2);
		val = value_at(i);
		stk[0] = loc[which[i]];
		stk[1] = root;
		want[which[i]] = sat_add(want[which[i]], val);
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, 2, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 3; j++) {
		struct profconv_view *v = NULL;
		struct profconv_view_stack st;
		struct profconv_view_frame fr;
		size_t place[NSTK];

		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_stack_count(v), NSTK));
		for (k = 0; k < NSTK; k++) {
			cr_assert(eq(int, profconv_view_stack(v, k, &st), 0));
			cr_assert(eq(sz, st.nframes, 2));
			cr_assert(eq(int, profconv_view_frame(v, st.frames[1],
			    &fr), 0));
			cr_assert(eq(str, (char *)fr.name, (char *)leaf[k]));
			cr_assert(eq(i64, st.values[0], want[k]),
			    "stack %s, -j %u", leaf[k], jobs[j]);
			place[k] = k;
		}
		for (i = 0; i < NS; i++)
			cr_assert(eq(sz, profconv__view_sample_stack(v, i),
			    i % 1000 == 999 ? 0 : place[which[i]] + 1),
			    "sample %zu, -j %u", i, jobs[j]);
		profconv_view_free(v);
	}
	/* Summed from the last sample back, no stack gives the same. */
	for (i = NS; i-- > 0;) {
		val = value_at(i);
		back[which[i]] = sat_add(back[which[i]], val);
	}
	for (k = 0; k < NSTK; k++)
		cr_assert(ne(i64, back[k], want[k]), "stack %s", leaf[k]);
}

/*
 * Two deep stacks (longer than a sort record holds) that differ only at
 * the leaf, each repeated by tens of thousands of samples (more than one
 * thread sorts alone), interleaved: two stacks, each the sum of its
 * samples, at 1 and 3 threads.
 */
Test(view, repeated_deep_stacks_apart)
{
	enum { NS = 70000, DEPTH = 100 };
	static uint32_t stk[DEPTH + 1];
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t loc[DEPTH + 1];
	int64_t val = 1, want[2] = { 0, 0 };
	size_t i, j;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i <= DEPTH; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%zu", i);
		loc[i] = LOC1(p, 0, 0x100 + 16 * i, add_fn(p, name, ""), 1);
	}
	for (i = 0; i < NS; i++) {
		size_t which = (i * 7 / 3) % 2;

		/* Leaf first: f0 or f100, then the same 99 callers. */
		stk[0] = loc[which != 0 ? DEPTH : 0];
		for (j = 1; j < DEPTH; j++)
			stk[j] = loc[j];
		val = (int64_t)(i % 5) + 1;
		want[which] += val;
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, DEPTH,
		    &val, NULL, 0), 0), "%s", ERRMSG);
	}
	for (j = 0; j < 2; j++) {
		struct profconv_view *v = NULL;
		struct profconv_view_stack st;
		struct profconv_view_frame fr;
		size_t k;

		o.jobs = j == 0 ? 1 : 3;
		cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_stack_count(v), 2));
		for (k = 0; k < 2; k++) {
			cr_assert(eq(int, profconv_view_stack(v, k, &st), 0));
			cr_assert(eq(sz, st.nframes, DEPTH));
			cr_assert(eq(int, profconv_view_frame(v,
			    st.frames[DEPTH - 1], &fr), 0));
			/* "f0" sorts before "f100". */
			cr_assert(eq(str, (char *)fr.name, k == 0 ? "f0" :
			    "f100"));
			cr_assert(eq(i64, st.values[0], want[k]), "-j %u",
			    o.jobs);
		}
		for (i = 0; i < NS; i++)
			cr_assert(eq(sz, profconv__view_sample_stack(v, i),
			    (i * 7 / 3) % 2 + 1), "sample %zu", i);
		profconv_view_free(v);
	}
}

/* The command line's expressions have the bounds a profile's own
 * drop_frames has (bounds.h): '((a{1000}){1000}){1000}', 23 bytes,
 * took 16 GB and 44 s in regcomp.  Refused, by profconv_view_new() and
 * profconv_view_options_check() alike, for every one of them. */
Test(view, command_line_expressions_bounded)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	const char *rx = "((a{1000}){1000}){1000}";
	const char **fields[] = { &o.focus, &o.ignore, &o.hide, &o.show,
	    &o.show_from, &o.prune_from, &o.tagfocus, &o.tagignore,
	    &o.tagshow, &o.taghide };
	size_t i;

	profconv_profile_add_sample_type(p, "samples", "count");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		/* Beyond the bound yet cheap to compile: fails fast without
		 * the bound, before the costly one below is tried. */
		*fields[i] = "(a{1000}){2}";
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		*fields[i] = rx;
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		cr_assert(strstr(ERRMSG, "counted repetitions multiply to "
		    "more than 1000") != NULL, "%s", ERRMSG);
		/* tagshow and taghide are for show's dump, not views. */
		if (fields[i] != &o.tagshow && fields[i] != &o.taghide) {
			cr_assert(eq(int, profconv_view_new(&v, p, &o),
			    PROFCONV_EINVAL), "field %zu", i);
			cr_assert(v == NULL);
		}
		*fields[i] = "(a{10}){10}";
		cr_assert(eq(int, profconv_view_options_check(&o), 0),
		    "field %zu: %s", i, ERRMSG);
		*fields[i] = "(a)\\1";
		cr_assert(eq(int, profconv_view_options_check(&o),
		    PROFCONV_EINVAL), "field %zu", i);
		*fields[i] = NULL;
	}
}

Test(view, options_check_without_a_profile)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;

	cr_assert(eq(int, profconv_view_options_check(NULL), 0));
	o.focus = "a|b";
	o.ignore = "^c$";
	cr_assert(eq(int, profconv_view_options_check(&o), 0), "%s", ERRMSG);
	o.focus = "(";
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "invalid focus expression '(': Unmatched ( "
	    "or \\("));
	o.focus = NULL;
	o.ignore = "x[";
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	o.ignore = NULL;
	o.demangle = (enum profconv_demangle)9;
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
	o.demangle = PROFCONV_DEMANGLE_SIMPLE;
	o.version = 99;
	cr_assert(eq(int, profconv_view_options_check(&o), PROFCONV_EINVAL));
}

/* The well-known allocation wrappers are cut like malloc in allocation
 * profiles, unless no_wrappers, even when drop_frames names them (as
 * the pprof files profconv writes do); CPU profiles keep them. */
Test(view, wrappers_cut_like_malloc)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t m, pa, x, ma;
	int64_t v = 5;
	char *written;

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	m = add_fn(p, "main", "");
	pa = add_fn(p, "parse", "");
	x = add_fn(p, "xmalloc", "");
	ma = add_fn(p, "malloc", "");
	SAMPLE(p, &v, LOC1(p, 0, 0x40, ma, 1), LOC1(p, 0, 0x30, x, 1),
	    LOC1(p, 0, 0x20, pa, 1), LOC1(p, 0, 0x10, m, 1));
	expect_view(p, NULL, "main;parse 5\n");
	o.no_wrappers = 1;
	expect_view(p, &o, "main;parse;xmalloc 5\n");
	written = profconv__drop_with("malloc", profconv__wrappers_rx, true);
	cr_assert(written != NULL);
	profconv_profile_set_drop_frames(p, written);
	free(written);
	expect_view(p, NULL, "main;parse 5\n");
	expect_view(p, &o, "main;parse;xmalloc 5\n");
}

Test(view, wrappers_kept_in_cpu_profile)
{
	uint32_t m, x;
	int64_t v = 3;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	x = add_fn(p, "xmalloc", "");
	SAMPLE(p, &v, LOC1(p, 0, 0x20, x, 1), LOC1(p, 0, 0x10, m, 1));
	expect_view(p, NULL, "main;xmalloc 3\n");
}

/* A drop_frames alternative added or taken out whole. */
Test(view, drop_with_whole_alternatives)
{
	static const struct { const char *drop, *alt; bool with;
	    const char *want; } c[] = {
		{ "a|W|b", "W", false, "a|b" },
		{ "W|b", "W", false, "b" },
		{ "a|W", "W", false, "a" },
		{ "W", "W", false, "" },
		{ "aW|b", "W", false, "aW|b" },
		{ "a|Wb", "W", false, "a|Wb" },
		{ "a", "W", true, "a|W" },
		{ "", "W", true, "W" },
		{ "a|W", "W", true, "a|W" },
		{ "aW", "W", true, "aW|W" },
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(c); i++) {
		char *got = profconv__drop_with(c[i].drop, c[i].alt,
		    c[i].with);

		cr_assert(got != NULL);
		cr_expect(eq(str, got, (char *)c[i].want), "case %zu", i);
		free(got);
	}
}

/*
 * pprof's -show_from and -prune_from, on the stack of its PruneFrom
 * example (profile/prune.go): [A,B,C,B,D] leaf first, "D;B;C;B;A" root
 * first.  show_from keeps the frames from the root-most match down, and
 * drops a stack without one; prune_from the frames down to the match
 * nearest the leaf.
 */
Test(view, show_from_and_prune_from_as_pprof)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t a, b, c, d, la, lb, lc, ld;
	int64_t v = 1;

	profconv_profile_add_sample_type(p, "samples", "count");
	a = add_fn(p, "A", "");
	b = add_fn(p, "B", "");
	c = add_fn(p, "C", "");
	d = add_fn(p, "D", "");
	la = LOC1(p, 0, 0x10, a, 1);
	lb = LOC1(p, 0, 0x20, b, 1);
	lc = LOC1(p, 0, 0x30, c, 1);
	ld = LOC1(p, 0, 0x40, d, 1);
	SAMPLE(p, &v, la, lb, lc, lb, ld);
	o.show_from = "A";
	expect_view(p, &o, "A 1\n");
	o.show_from = "B";
	expect_view(p, &o, "B;C;B;A 1\n");
	o.show_from = "C";
	expect_view(p, &o, "C;B;A 1\n");
	o.show_from = "E";
	expect_view(p, &o, "");
	o.show_from = NULL;
	o.prune_from = "A";
	expect_view(p, &o, "D;B;C;B;A 1\n");
	o.prune_from = "B";
	expect_view(p, &o, "D;B;C;B 1\n");
	o.prune_from = "^D$";
	expect_view(p, &o, "D 1\n");
}

/*
 * -hide and -show work on lines: inlined calls go one by one, a location
 * whose lines all go leaves the stack, and a mapped file that matches
 * takes (hide) or keeps (show) the whole location.  -show_from cuts
 * inside an inline chain at its outermost match, -prune_from at its
 * innermost.
 */
Test(view, hide_show_on_inline_chains)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t lib, m, in1, in2, f, l1, l2, l3;
	int64_t v = 2;

	profconv_profile_add_sample_type(p, "samples", "count");
	lib = add_map(p, 0x7000, 0x8000, "/usr/lib/libz.so.1");
	m = add_fn(p, "main", "main.c");
	in1 = add_fn(p, "inner", "x.h");
	in2 = add_fn(p, "outer", "x.c");
	f = add_fn(p, "deflate", "z.c");
	l1 = LOC1(p, 0, 0x10, m, 1);
	l2 = LOCN(p, 0, 0x20, 1, in1, in2);	/* outer inlines inner */
	l3 = LOC1(p, lib, 0x7100, f, 1);
	SAMPLE(p, &v, l3, l2, l1);
	expect_view(p, NULL, "main;outer;inner;deflate 2\n");
	o.hide = "inner";
	expect_view(p, &o, "main;outer;deflate 2\n");
	o.hide = "x\\.[ch]$";
	expect_view(p, &o, "main;deflate 2\n");
	o.hide = "libz";
	expect_view(p, &o, "main;outer;inner 2\n");
	o.hide = "main|outer|inner|deflate";
	expect_view(p, &o, "");
	o.hide = NULL;
	o.show = "outer|libz";
	expect_view(p, &o, "outer;deflate 2\n");
	o.show = NULL;
	o.show_from = "inner|outer";
	expect_view(p, &o, "outer;inner;deflate 2\n");
	o.show_from = "inner";
	expect_view(p, &o, "inner;deflate 2\n");
	o.show_from = NULL;
	o.prune_from = "inner|outer";
	expect_view(p, &o, "main;outer;inner 2\n");
	o.prune_from = "outer";
	expect_view(p, &o, "main;outer 2\n");
}

/* Marks (for the annotated source): a frame inlined into the one before
 * it in its location is marked; a location's outermost frame is not;
 * with no_inline there are none. */
Test(view, inline_marks)
{
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_view *v = NULL;
	struct profconv_view_stack st;
	const uint8_t *mk;
	uint32_t m, a, b, c, lm, l;
	int64_t val = 9;

	profconv_profile_add_sample_type(p, "samples", "count");
	m = add_fn(p, "main", "");
	a = add_fn(p, "leaf", "");
	b = add_fn(p, "middle", "");
	c = add_fn(p, "outer", "");
	lm = LOC1(p, 0, 0x10, m, 1);
	l = LOCN(p, 0, 0x20, 1, a, b, c);
	SAMPLE(p, &val, l, lm);
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 4));
	mk = profconv__view_stack_inline(v, 0);
	cr_assert(not(zero(ptr, (void *)mk)));
	cr_expect(eq(u8, mk[0], 0));	/* main */
	cr_expect(eq(u8, mk[1], 0));	/* outer: its location's outermost */
	cr_expect(eq(u8, mk[2], 1));	/* middle, inlined into outer */
	cr_expect(eq(u8, mk[3], 1));	/* leaf, inlined into middle */
	cr_expect(eq(i64, profconv__view_frame_start_line(v, st.frames[1]), 1));
	profconv_view_free(v);
	o.no_inline = 1;
	cr_assert(eq(int, profconv_view_new(&v, p, &o), 0));
	cr_assert(eq(int, profconv_view_stack(v, 0, &st), 0));
	cr_assert(eq(sz, st.nframes, 2));
	/* No frame of the view is inlined: no marks at all. */
	cr_expect(zero(ptr, (void *)profconv__view_stack_inline(v, 0)));
	profconv_view_free(v);
}

/* profconv__seqsort (stacksort.c) against a plain comparison sort of the
 * same items: short and long sequences, shared prefixes, repeats (by
 * item number; thousands of copies of one short and one long sequence
 * among them), read forwards and backwards, on 1 to 3 threads; and
 * whether each place has the keys of the one before.  Enough of them
 * (200,000) that the threads split them, and that the group of the most
 * shared first frame (5 in 6) is split on the threads again. */
#define SQ_N 200000
static uint32_t sq_frames[SQ_N][40];
static size_t sq_len[SQ_N];
static uint32_t sq_cont[300], sq_end[300];
static bool sq_reverse;

static const uint32_t *
sq_seq(const void *arg, size_t k, size_t *len)
{
	(void)arg;
	*len = sq_len[k];
	return sq_frames[k];
}

static int
sq_keys_cmp(uint32_t x, uint32_t y)
{
	size_t nx = sq_len[x], ny = sq_len[y], i;

	for (i = 0; i < nx && i < ny; i++) {
		uint32_t fx = sq_frames[x][sq_reverse ? nx - 1 - i : i];
		uint32_t fy = sq_frames[y][sq_reverse ? ny - 1 - i : i];
		uint32_t kx = i + 1 < nx ? sq_cont[fx] : sq_end[fx];
		uint32_t ky = i + 1 < ny ? sq_cont[fy] : sq_end[fy];

		if (kx != ky)
			return kx < ky ? -1 : 1;
	}
	return nx < ny ? -1 : nx > ny;
}

static int
sq_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = sq_keys_cmp(x, y);

	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

Test(view, seqsort_matches_a_comparison_sort)
{
	enum { N = SQ_N, NFR = 150 };
	static uint32_t want[N], got[N], lens[N];
	static uint8_t same[N];
	struct pc_seqsort s = { 0 };
	uint64_t r = 88172645463325252ULL;
	size_t i, k, round, longest = 0, nsame = 0;

	for (i = 1; i <= NFR; i++) {
		/* Keys 1..2 * NFR, each once. */
		sq_cont[i] = (uint32_t)(2 * ((i * 37) % NFR) + 1);
		sq_end[i] = (uint32_t)(2 * ((i * 91) % NFR) + 2 -
		    (i % 2));
		if (sq_end[i] == sq_cont[i])
			sq_end[i] = (uint32_t)(2 * ((i * 37) % NFR) + 2);
	}
	for (i = 0; i < N; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		if (i % 7 == 6 || i % 13 == 12) {
			/* A repeat of an earlier item; every 13th of the
			 * longest of the first 100 or of item 1, or the
			 * longest with its first or last frame another
			 * (the same keys as far as a record holds). */
			size_t from = i % 7 == 6 ? r % i :
			    (i / 13) % 4 == 0 ? 1 : longest;

			sq_len[i] = sq_len[from];
			memcpy(sq_frames[i], sq_frames[from],
			    sizeof(sq_frames[i]));
			if (i % 7 != 6 && (i / 13) % 4 == 2)
				sq_frames[i][0] = sq_frames[i][0] % NFR + 1;
			if (i % 7 != 6 && (i / 13) % 4 == 3)
				sq_frames[i][sq_len[i] - 1] =
				    sq_frames[i][sq_len[i] - 1] % NFR + 1;
			continue;
		}
		sq_len[i] = i % 11 == 0 ? 25 + r % 15 : 1 + r % 12;
		for (k = 0; k < sq_len[i]; k++)
			sq_frames[i][k] = k < (r >> 20) % 6 ? (uint32_t)(1 + k) :
			    (uint32_t)(1 + (r >> (k % 40)) % (k < 8 ? 4 : NFR));
		if (i < 100 && sq_len[i] > sq_len[longest])
			longest = i;
	}
	/* Longer than a record of 9-bit keys holds (28). */
	cr_assert(gt(sz, sq_len[longest], 28));
	for (round = 0; round < 6; round++) {
		sq_reverse = round >= 3;
		s.n = N;
		s.seq = sq_seq;
		s.cont = sq_cont;
		s.end = sq_end;
		s.maxkey = 2 * NFR;
		s.reverse = sq_reverse;
		s.jobs = (unsigned int)(1 + round % 3);
		for (i = 0; i < N; i++)
			want[i] = (uint32_t)i;
		qsort(want, N, sizeof(*want), sq_cmp);
		cr_assert(eq(int, profconv__seqsort(&s, got, lens,
		    round % 2 ? same : NULL), 0), "%s", ERRMSG);
		for (i = 0; i < N; i++) {
			cr_assert(eq(u32, got[i], want[i]),
			    "place %zu (-j %u, reverse %d)", i, s.jobs,
			    sq_reverse);
			cr_assert(eq(u32, lens[i], (uint32_t)sq_len[got[i]]));
			if (round % 2 == 0)
				continue;
			cr_assert(eq(u8, same[i], i > 0 &&
			    sq_keys_cmp(got[i - 1], got[i]) == 0),
			    "place %zu (-j %u, reverse %d)", i, s.jobs,
			    sq_reverse);
			nsame += same[i];
		}
	}
	/* The copies above, at the least, in each of the 3 rounds. */
	cr_assert(gt(sz, nsame, 3 * (N / 13)));
}

/*
 * Pass 1 on the threads (40,000 samples: enough ranges) numbers frames
 * as the one-thread pass does and shows the same stacks, totals and
 * frames: allocator frames cut (a location met first only beneath the
 * cut, later above it), zero samples, inline chains, with and without
 * focus, ignore, hide and show; and with stacks that could be cut at
 * PC_VIEW_MAX_DEPTH (the serial pass then runs on any thread count).
 */
static void
expect_same_views(const struct profconv_view_options *base, const char *what)
{
	static const unsigned int jobs[] = { 2, 3, 8 };
	struct profconv_view_options o = *base;
	struct profconv_view *v1 = NULL, *vj = NULL;
	size_t j, i, k;

	o.jobs = 1;
	cr_assert(eq(int, profconv_view_new(&v1, p, &o), 0), "%s", ERRMSG);
	for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
		int64_t t1, tj;

		o.jobs = jobs[j];
		cr_assert(eq(int, profconv_view_new(&vj, p, &o), 0), "%s",
		    ERRMSG);
		cr_assert(eq(sz, profconv_view_frame_count(vj),
		    profconv_view_frame_count(v1)), "%s -j%u", what, jobs[j]);
		for (i = 1; i <= profconv_view_frame_count(v1); i++) {
			struct profconv_view_frame f1, fj;

			cr_assert(eq(int, profconv_view_frame(v1, (uint32_t)i,
			    &f1), 0));
			cr_assert(eq(int, profconv_view_frame(vj, (uint32_t)i,
			    &fj), 0));
			cr_assert(eq(str, (char *)fj.name, (char *)f1.name),
			    "%s -j%u: frame %zu", what, jobs[j], i);
		}
		cr_assert(eq(sz, profconv_view_stack_count(vj),
		    profconv_view_stack_count(v1)), "%s -j%u", what, jobs[j]);
		for (i = 0; i < profconv_view_stack_count(v1); i++) {
			struct profconv_view_stack s1, sj;

			profconv_view_stack(v1, i, &s1);
			profconv_view_stack(vj, i, &sj);
			cr_assert(eq(sz, sj.nframes, s1.nframes));
			for (k = 0; k < s1.nframes; k++)
				cr_assert(eq(u32, sj.frames[k], s1.frames[k]),
				    "%s -j%u: stack %zu", what, jobs[j], i);
			cr_assert(eq(i64, sj.values[0], s1.values[0]));
		}
		cr_assert(eq(int, profconv_view_total(v1, 0, &t1), 0));
		cr_assert(eq(int, profconv_view_total(vj, 0, &tj), 0));
		cr_assert(eq(i64, tj, t1), "%s -j%u", what, jobs[j]);
		profconv_view_free(vj);
		vj = NULL;
	}
	profconv_view_free(v1);
}

Test(view, plan_on_threads_as_on_one)
{
	enum { NF = 24, NS = 40000 };
	struct profconv_view_options o = PROFCONV_VIEW_OPTIONS_INIT;
	uint32_t fn[NF], loc[NF], stk[40], deep[1100], ma, lma;
	uint64_t r = 0x2545F4914F6CDD1DULL;
	size_t i, k, n;
	int64_t val;
	char name[16];

	heap_types();
	profconv_profile_set_drop_frames(p, "malloc");
	ma = add_fn(p, "malloc", "");
	for (i = 0; i < NF; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		fn[i] = add_fn(p, name, "a.c");
	}
	lma = LOC1(p, 0, 0x10, ma, 1);
	for (i = 0; i < NF; i++)
		loc[i] = i % 5 == 4 ? LOCN(p, 0, 0x100 + 16 * i, 3,
		    fn[i], fn[(i + 1) % NF], fn[(i + 7) % NF]) :
		    LOC1(p, 0, 0x100 + 16 * i, fn[i], 2);
	for (i = 0; i < NS; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		n = 3 + r % 30;
		/* Leaf first: malloc, then (for a few early samples) f23
		 * beneath the cut, then program frames. */
		stk[0] = lma;
		k = 1;
		if (i < 50)
			stk[k++] = loc[NF - 1];
		for (; k < n; k++)
			stk[k] = loc[(r >> (k % 50)) % (i < 20000 ? NF - 1 :
			    NF)];
		/* Some stacks of f3 alone, which hide and show empty. */
		if (i % 1000 == 999)
			for (k = 1, n = 3; k < n; k++)
				stk[k] = loc[3];
		val = i % 9 == 0 ? 0 : (int64_t)(r % 1000);
		cr_assert(eq(int, profconv_profile_add_sample(p, stk, n, &val,
		    NULL, 0), 0), "%s", ERRMSG);
	}
	expect_same_views(&o, "plain");
	o.focus = "f1$|f2";
	o.ignore = "f7";
	expect_same_views(&o, "focus and ignore");
	o.focus = o.ignore = NULL;
	o.hide = "f3";
	expect_same_views(&o, "hide");
	o.hide = NULL;
	o.show = "f[0-24-9]$";
	expect_same_views(&o, "show");
	o.hide = "f3";
	o.show = "f[0-9]$";
	expect_same_views(&o, "hide and show");
	o.hide = o.show = NULL;
	o.no_inline = 1;
	expect_same_views(&o, "no inline");
	o.no_inline = 0;
	/* One sample deeper than PC_VIEW_MAX_DEPTH: cut, a frame made. */
	for (i = 0; i < PC_ARRAY_LEN(deep); i++)
		deep[i] = loc[i % (NF - 1)];
	val = 5;
	cr_assert(eq(int, profconv_profile_add_sample(p, deep,
	    PC_ARRAY_LEN(deep), &val, NULL, 0), 0), "%s", ERRMSG);
	expect_same_views(&o, "deep");
}
