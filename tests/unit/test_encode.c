/* SPDX-License-Identifier: MIT */
/* test_encode.c - the pprof writer (lib/pprof/encode.c): round trips. */

#include "config.h"

#include <stdlib.h>
#include <zlib.h>

#include "model/model.h"
#include "pprof/pprof.h"
#include "gzip_fixture.h"
#include "pb_fixture.h"

TestSuite(pb, .fini = drop);

/* Serialize PROF with OPTS level into a malloc'd buffer. */
static char *
write_mem(const struct profconv_profile *p, int level, size_t *len)
{
	struct profconv_write_options o = PROFCONV_WRITE_OPTIONS_INIT;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	o.level = level;
	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(int, profconv_profile_write(p, fp, &o), 0), "%s",
	    profconv_errmsg());
	fclose(fp);
	return buf;
}

/* Print a profile to a string, for whole-profile comparisons. */
static char *
dump(const struct profconv_profile *p)
{
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert(eq(int, profconv_profile_print(p, fp, NULL), 0));
	fclose(fp);
	return buf;
}

static struct profconv_profile *
build_full(void)
{
	struct profconv_profile *p;
	struct profconv_mapping m = { 0x1000, 0x9000, 0x200, "/lib/x.so", "b1d",
		1, 1, 1, 1 };
	struct profconv_mapping m2 = { 0x10000, 0x20000, 0, "[vdso]", NULL,
		0, 0, 0, 0 };
	struct profconv_function f1 = { "inner", "_Z5innerv", "x.c", 4 };
	struct profconv_function f2 = { "outer", "outer", "x.c", 20 };
	struct profconv_line lines[2] = { { 1, 5, 7 }, { 2, 22, 0 } };
	struct profconv_label labs[3] = {
		{ .key = "bytes", .num = 32 },
		{ .key = "size", .num = -5, .unit = "kilobytes" },
		{ .key = "thread", .str = "t1" },
	};
	uint32_t locs[3];
	int64_t v1[2] = { 1, 32 }, v2[2] = { -4, INT64_MIN };

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 524288);
	profconv_profile_set_default_sample_type(p, "alloc_objects");
	/* With the wrappers the writer adds to allocation profiles, so
	 * that it adds nothing. */
	{
		char *drop = profconv__drop_with("malloc",
		    profconv__wrappers_rx, true);

		cr_assert(drop != NULL);
		profconv_profile_set_drop_frames(p, drop);
		free(drop);
	}
	profconv_profile_set_keep_frames(p, "keep");
	profconv_profile_set_doc_url(p, "https://example.org");
	profconv_profile_add_comment(p, "hello");
	profconv_profile_set_time(p, 1700000000000000000, 30000000000);
	profconv_profile_add_mapping(p, &m, NULL);
	profconv_profile_add_mapping(p, &m2, NULL);
	profconv_profile_add_function(p, &f1, NULL);
	profconv_profile_add_function(p, &f2, NULL);
	profconv_profile_add_location(p, 1, 0x1234, lines, 2, 1, &locs[0]);
	profconv_profile_add_location(p, 2, 0x10010, NULL, 0, 0, &locs[1]);
	profconv_profile_add_location(p, 0, 0xdead, NULL, 0, 0, &locs[2]);
	cr_assert(eq(int, profconv_profile_add_sample(p, locs, 3, v1, labs, 3), 0));
	cr_assert(eq(int, profconv_profile_add_sample(p, locs + 1, 2, v2, NULL, 0), 0));
	cr_assert(eq(int, profconv_profile_add_sample(p, NULL, 0, v1, labs, 1), 0));
	return p;
}

static void
round_trip(int level)
{
	struct profconv_profile *orig = build_full();
	size_t len;
	char *buf = write_mem(orig, level, &len);
	enum profconv_format fmt;
	char *a, *b;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, buf, len, NULL, &fmt), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_PPROF));
	a = dump(orig);
	b = dump(prof);
	cr_assert(eq(str, b, a));
	free(a);
	free(b);
	free(buf);
	profconv_profile_free(orig);
}

static void
round_trip_uncompressed_preserves_every_field(void)
{
	round_trip(0);
	drop();
}

static void
round_trip_gzip_preserves_every_field(void)
{
	round_trip(9);
	ASSERT_NO_LEAKS();
	drop();
}

static void
gzip_output_has_gzip_magic(void)
{
	struct profconv_profile *p = build_full();
	size_t len;
	unsigned char *buf = (unsigned char *)write_mem(p, -1, &len);

	cr_assert(eq(u8, buf[0], 0x1f));
	cr_assert(eq(u8, buf[1], 0x8b));
	free(buf);
	profconv_profile_free(p);
}

static void
rejects_bad_level(void)
{
	struct profconv_profile *p = build_full();
	struct profconv_write_options o = { PROFCONV_WRITE_OPTIONS_VERSION, 10, 0 };

	cr_assert(eq(int, profconv_profile_write(p, stdout, &o), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "compression level 10 is not in 0..9"));
	profconv_profile_free(p);
}

static void
many_samples_round_trip_across_batches(void)
{
	struct profconv_profile *p;
	size_t i, len;
	uint32_t loc[2];
	int64_t v[1], t;
	char *buf;

	profconv_profile_new(&p);
	profconv_profile_add_sample_type(p, "samples", "count");
	profconv_profile_add_location(p, 0, 1, NULL, 0, 0, &loc[0]);
	profconv_profile_add_location(p, 0, 2, NULL, 0, 0, &loc[1]);
	for (i = 0; i < 10000; i++) {
		v[0] = (int64_t)i;
		profconv_profile_add_sample(p, loc, 1 + i % 2, v, NULL, 0);
	}
	buf = write_mem(p, 1, &len);
	cr_assert(eq(int, profconv_profile_read_mem(&prof, buf, len, NULL, NULL), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 10000));
	profconv_profile_total(prof, 0, &t);
	cr_assert(eq(i64, t, 49995000));
	free(buf);
	profconv_profile_free(p);
	drop();
}

Test(pb, round_trips_at_every_level)
{
	round_trip_uncompressed_preserves_every_field();
	round_trip_gzip_preserves_every_field();
	gzip_output_has_gzip_magic();
	many_samples_round_trip_across_batches();
}

static void
rejects_empty_input(void)
{
	cr_assert(eq(int, profconv_profile_read_mem(&prof, "", 0, NULL, NULL),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "empty input"));
	drop();
}

Test(pb, rejects_bad_level_and_empty_input)
{
	rejects_bad_level();
	rejects_empty_input();
}

/* --- the hand-made wire format against protobuf-c ------------------------ */

/* A profile with PER_TYPE-valued samples over many stacks, labels and
 * lines: a few MiB of pprof, so several gzip members. */
static struct profconv_profile *
build_large(size_t nsamples)
{
	struct profconv_profile *p;
	struct profconv_mapping m = { 0x400000, 0x800000, 0, "/bin/big",
		"0123abcd", 1, 1, 1, 0 };
	struct profconv_line ln[2];
	struct profconv_label lab[2] = {
		{ .key = "thread", .str = "worker" },
		{ .key = "bytes", .num = 0, .unit = "bytes" },
	};
	uint32_t locs[600], stack[40];
	int64_t v[3];
	char name[32];
	size_t i, k;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "alloc_objects", "count");
	profconv_profile_add_sample_type(p, "alloc_space", "bytes");
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_period(p, "space", "bytes", 524288);
	profconv_profile_set_drop_frames(p, profconv__wrappers_rx);
	profconv_profile_add_mapping(p, &m, NULL);
	for (i = 0; i < 300; i++) {
		struct profconv_function f = { name, name, "big.c",
			(int64_t)i * 10 };

		snprintf(name, sizeof(name), "fn%zu", i);
		profconv_profile_add_function(p, &f, NULL);
	}
	for (i = 0; i < 600; i++) {
		ln[0] = (struct profconv_line){ (uint32_t)(i % 300) + 1,
			(int64_t)i, 0 };
		ln[1] = (struct profconv_line){ (uint32_t)((i * 7) % 300) + 1,
			(int64_t)i * 3, 5 };
		profconv_profile_add_location(p, i % 50 ? 1 : 0,
		    0x400000 + i * 0x40, ln, 1 + i % 2, 0, &locs[i]);
	}
	for (i = 0; i < nsamples; i++) {
		for (k = 0; k < 40; k++)
			stack[k] = locs[(i * 31 + k * k * 17 + (i >> k % 16)) % 600];
		v[0] = (int64_t)(i % 9) + 1;
		v[1] = (int64_t)(i * 4099 % 1000003);
		v[2] = i % 5 == 0 ? -v[1] : 0;
		lab[1].num = (int64_t)i;
		cr_assert(eq(int, profconv_profile_add_sample(p, stack,
		    5 + i % 36, v, lab, i % 3), 0));
	}
	return p;
}

/* Our packing is protobuf-c's: unpack what we wrote and pack it again. */
static void
assert_canonical(const struct profconv_profile *p)
{
	size_t len, n;
	unsigned char *buf = (unsigned char *)write_mem(p, 0, &len), *again;
	PbProfile *pb = perftools__profiles__profile__unpack(NULL, len, buf);

	cr_assert(not(zero(ptr, pb)), "protobuf-c cannot unpack our output");
	n = perftools__profiles__profile__get_packed_size(pb);
	cr_assert(eq(sz, n, len));
	again = malloc(n + 1);
	perftools__profiles__profile__pack(pb, again);
	cr_assert(eq(int, memcmp(again, buf, len), 0),
	    "protobuf-c packs the message into other bytes");
	perftools__profiles__profile__free_unpacked(pb, NULL);
	free(again);
	free(buf);
}

Test(pb, packing_is_protobuf_c_packing)
{
	struct profconv_profile *p = build_full();

	assert_canonical(p);
	profconv_profile_free(p);
	p = build_large(20000);
	assert_canonical(p);
	profconv_profile_free(p);
}

/* Write P with BACKEND at LEVEL on JOBS threads into memory. */
static unsigned char *
write_with(const struct profconv_profile *p, int level, unsigned int jobs,
    enum pc_gz_backend backend, size_t *len)
{
	char *buf;
	FILE *fp = mem_stream(&buf, len);

	cr_assert(eq(int, profconv__pb_write(p, fp, level, jobs, backend), 0),
	    "%s", profconv_errmsg());
	fclose(fp);
	return (unsigned char *)buf;
}

/* Count the gzip members: each starts 1f 8b 08 at a member boundary,
 * which inflating finds; what they hold must be the RAWLEN bytes of
 * RAW. */
static size_t
gzip_members(const unsigned char *buf, size_t len,
    const unsigned char *raw, size_t rawlen)
{
	unsigned char *out = malloc(rawlen);
	size_t sizes[8] = { 0 }, m;

	cr_assert(not(zero(ptr, out)));
	m = members(buf, len, out, rawlen, sizes);
	cr_assert(eq(int, memcmp(out, raw, rawlen), 0),
	    "inflated bytes differ");
	free(out);
	return m;
}

/* Every backend this build has, every level and thread count: the same
 * bytes for every count, gzip members of 1 MiB holding the uncompressed
 * bytes, the same profile back. */
Test(pb, output_does_not_depend_on_threads)
{
	static const enum pc_gz_backend backends[] = { PC_GZ_ZLIB,
		PC_GZ_LIBDEFLATE };
	static const unsigned int jobs[] = { 3, 8 };	/* uneven cuts; idle threads */
	static const int levels[] = { 0, 1, 6, -1 };
	struct profconv_profile *p = build_large(60000), *back;
	unsigned char *one, *many, *plain;
	size_t b, l, j, len1, len, plen, tested = 0;
	char *a, *d;

	plain = write_with(p, 0, 1, PC_GZ_BEST, &plen);
	cr_assert(gt(sz, plen, 3 * PC_GZ_BLOCK), "only %zu bytes", plen);
	/* The same profile back from the uncompressed bytes; the members
	 * of every level must hold those bytes. */
	cr_assert(eq(int, profconv_profile_read_mem(&back, plain, plen, NULL,
	    NULL), 0), "%s", profconv_errmsg());
	a = dump(p);
	d = dump(back);
	cr_assert(eq(str, d, a));
	free(d);
	free(a);
	profconv_profile_free(back);
	for (b = 0; b < PC_ARRAY_LEN(backends); b++) {
		if (!profconv__gz_has(backends[b]))
			continue;	/* configured without libdeflate */
		tested++;
		for (l = 0; l < PC_ARRAY_LEN(levels); l++) {
			one = write_with(p, levels[l], 1, backends[b], &len1);
			for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
				many = write_with(p, levels[l], jobs[j],
				    backends[b], &len);
				cr_assert(eq(sz, len, len1));
				cr_assert(eq(int, memcmp(one, many, len), 0),
				    "backend %zu level %d: -j %u differs",
				    b, levels[l], jobs[j]);
				free(many);
			}
			if (levels[l] != 0)
				cr_assert(eq(sz, gzip_members(one, len1, plain,
				    plen), (plen + PC_GZ_BLOCK - 1) / PC_GZ_BLOCK));
			else
				cr_assert(eq(int, len1 == plen &&
				    memcmp(one, plain, plen) == 0, 1));
			free(one);
		}
	}
	cr_assert(ge(sz, tested, 1));
	free(plain);
	profconv_profile_free(p);
}

/*
 * A profile of many rounds of sample chunks is written as it is packed,
 * a part at a time: the bytes are those of the whole stream, packed
 * uncompressed, then compressed in one call; and a stream given in parts
 * of odd sizes to profconv__gz_write_some() makes the same members.
 */
Test(pb, written_in_parts_as_one_stream)
{
	struct profconv_profile *p = build_large(150000);
	unsigned char *plain, *parts, *whole;
	size_t plen, len, wlen, at, used, carry, cut;
	struct pc_piece piece;
	unsigned int jobs;
	char *buf = NULL;
	FILE *fp;

	plain = write_with(p, 0, 1, PC_GZ_BEST, &plen);
	cr_assert(gt(sz, plen, 4 * PC_GZ_BLOCK), "only %zu bytes", plen);
	fp = open_memstream(&buf, &wlen);
	piece = (struct pc_piece){ plain, plen };
	cr_assert(eq(int, profconv__gz_write(fp, &piece, 1, 1, 1,
	    PC_GZ_BEST), 0));
	fclose(fp);
	whole = (unsigned char *)buf;
	for (jobs = 1; jobs <= 3; jobs++) {
		parts = write_with(p, 1, jobs, PC_GZ_BEST, &len);
		cr_assert(eq(sz, len, wlen));
		cr_assert(eq(int, memcmp(parts, whole, len), 0), "-j %u", jobs);
		free(parts);
	}
	/* Parts of odd sizes, the rest of each given again. */
	buf = NULL;
	fp = open_memstream(&buf, &len);
	for (at = 0, carry = 0; at < plen; at += cut) {
		cut = plen - at < 777777 ? plen - at : 777777;
		piece = (struct pc_piece){ plain + at - carry, carry + cut };
		cr_assert(eq(int, profconv__gz_write_some(fp, &piece, 1, 1, 2,
		    PC_GZ_BEST, at + cut == plen, &used), 0));
		cr_assert(eq(sz, used % PC_GZ_BLOCK == 0 || at + cut == plen,
		    1));
		carry = carry + cut - used;
	}
	fclose(fp);
	cr_assert(eq(sz, carry, 0));
	cr_assert(eq(sz, len, wlen));
	cr_assert(eq(int, memcmp(buf, whole, len), 0));
	free(buf);
	free(whole);
	free(plain);
	profconv_profile_free(p);
}

/* Samples are decoded in chunks on the threads: the same profile, and
 * the same first error, whatever their number. */
Test(pb, reading_does_not_depend_on_threads)
{
	static const unsigned int jobs[] = { 1, 2, 3, 8 };
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *p = build_large(30000), *back;
	size_t len, j, n;
	unsigned char *buf = (unsigned char *)write_mem(p, 0, &len);
	unsigned char *bad = malloc(len + 32);
	char *want = dump(p), *got;
	/* Two bad samples after all the others: the first one is named. */
	static const unsigned char tail[] = {
		0x12, 0x06, 0x0a, 0x02, 0xd0, 0x0f, 0x10, 0x01,	/* 2000 */
		0x12, 0x02, 0x10, 0x01,				/* 1 value */
	};

	memcpy(bad, buf, len);
	memcpy(bad + len, tail, sizeof(tail));
	n = len + sizeof(tail);
	for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
		ro.jobs = jobs[j];
		cr_assert(eq(int, profconv_profile_read_mem(&back, buf, len, &ro,
		    NULL), 0), "%s", profconv_errmsg());
		got = dump(back);
		cr_assert(eq(str, got, want), "-j %u", jobs[j]);
		free(got);
		profconv_profile_free(back);
		cr_assert(eq(int, profconv_profile_read_mem(&back, bad, n, &ro,
		    NULL), PROFCONV_EFORMAT));
		cr_assert(eq(str, ERRMSG, "sample 30001 refers to unknown "
		    "location 2000"), "-j %u", jobs[j]);
	}
	free(want);
	free(bad);
	free(buf);
	profconv_profile_free(p);
}

/*
 * In an allocation profile the writer names the locations without
 * symbols inside an allocator's library as the view does, and adds the
 * allocation wrappers and those names to drop_frames, once; reading the
 * file back shows the same view, and writing it again changes nothing.
 */
Test(pb, writer_names_allocator_frames)
{
	struct profconv_mapping app = { 0x1000, 0x2000, 0, "/bin/app", NULL,
		1, 0, 0, 0 };
	struct profconv_mapping je = { 0x7000, 0x9000, 0x1000,
		"/usr/lib/libjemalloc.so.2", NULL, 0, 0, 0, 0 };
	struct profconv_function fm = { "main", "main", "", 0 };
	struct profconv_line ln = { 1, 3, 0 };
	struct profconv_profile *p, *back, *again;
	uint32_t locs[2];
	int64_t v = 64;
	char *buf, *buf2, *want;
	size_t len, len2;
	const char *drop;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "inuse_space", "bytes");
	profconv_profile_set_drop_frames(p, "malloc");
	profconv_profile_add_mapping(p, &app, NULL);
	profconv_profile_add_mapping(p, &je, NULL);
	profconv_profile_add_function(p, &fm, NULL);
	profconv_profile_add_location(p, 2, 0x7123, NULL, 0, 0, &locs[0]);
	profconv_profile_add_location(p, 1, 0x1010, &ln, 1, 0, &locs[1]);
	cr_assert(eq(int, profconv_profile_add_sample(p, locs, 2, &v, NULL,
	    0), 0));
	buf = write_mem(p, 0, &len);
	cr_assert(eq(int, profconv_profile_read_mem(&back, buf, len, NULL,
	    NULL), 0), "%s", profconv_errmsg());
	cr_expect(eq(sz, back->nfunctions, 2));
	cr_expect(eq(str, (char *)profconv__pstr(back,
	    pc_function(back, 2)->name), "libjemalloc.so.2+0x1123"));
	cr_expect(profconv__named_unnamed(back, 1));
	drop = profconv_profile_drop_frames(back);
	want = profconv__drop_with("malloc", profconv__wrappers_rx, true);
	cr_assert(want != NULL);
	cr_expect(eq(int, strncmp(drop, want, strlen(want)), 0), "%s", drop);
	cr_expect(eq(str, (char *)drop + strlen(want) + 1,
	    (char *)profconv__allocator_library_rx));
	free(want);
	buf2 = write_mem(back, 0, &len2);
	cr_assert(eq(int, profconv_profile_read_mem(&again, buf2, len2, NULL,
	    NULL), 0), "%s", profconv_errmsg());
	cr_expect(eq(str, (char *)profconv_profile_drop_frames(again),
	    (char *)drop));
	cr_expect(eq(sz, again->nfunctions, 2));
	free(buf);
	free(buf2);
	profconv_profile_free(p);
	profconv_profile_free(back);
	profconv_profile_free(again);
}
