/* SPDX-License-Identifier: MIT */
/* test_encode.c - tests for the pprof codec: round trips and validation. */

#include "config.h"

#include <stdlib.h>
#include <zlib.h>

#include "helpers.h"
#include "model/model.h"
#include "pprof/pprof.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile PbProfile;

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

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

Test(pb, round_trip_uncompressed_preserves_every_field)
{
	round_trip(0);
}

Test(pb, round_trip_gzip_preserves_every_field)
{
	round_trip(9);
	ASSERT_NO_LEAKS();
}

Test(pb, gzip_output_has_gzip_magic)
{
	struct profconv_profile *p = build_full();
	size_t len;
	unsigned char *buf = (unsigned char *)write_mem(p, -1, &len);

	cr_assert(eq(u8, buf[0], 0x1f));
	cr_assert(eq(u8, buf[1], 0x8b));
	free(buf);
	profconv_profile_free(p);
}

Test(pb, rejects_bad_level)
{
	struct profconv_profile *p = build_full();
	struct profconv_write_options o = { PROFCONV_WRITE_OPTIONS_VERSION, 10, 0 };

	cr_assert(eq(int, profconv_profile_write(p, stdout, &o), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "compression level 10 is not in 0..9"));
	profconv_profile_free(p);
}

Test(pb, many_samples_round_trip_across_batches)
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
}

/* --- validation: build wire bytes with protobuf-c, then decode ------------ */

struct wire {
	PbProfile p;
	char *strs[8];
	size_t lens[8];			/* 0: strlen(strs[i]) */
	ProtobufCBinaryData bstrs[8];	/* what is packed, from strs */
	Perftools__Profiles__ValueType vt, *vtp[1];
	Perftools__Profiles__Sample s, *sp[1];
	uint64_t sloc[1];
	int64_t sval[2];
	Perftools__Profiles__Location l[2], *lp[2];
	Perftools__Profiles__Line ln, *lnp[1];
	Perftools__Profiles__Function f, *fp[1];
	Perftools__Profiles__Mapping m, *mp[1];
	Perftools__Profiles__Label lab, *labp[1];
};

/* A valid profile: one of each object, all cross-referenced. */
static void
wire_init(struct wire *w)
{
	static char s0[] = "", s1[] = "samples", s2[] = "count", s3[] = "main";

	memset(w, 0, sizeof(*w));
	perftools__profiles__profile__init(&w->p);
	w->strs[0] = s0;
	w->strs[1] = s1;
	w->strs[2] = s2;
	w->strs[3] = s3;
	w->p.n_string_table = 4;
	w->p.string_table = w->bstrs;
	perftools__profiles__value_type__init(&w->vt);
	w->vt.type = 1;
	w->vt.unit = 2;
	w->vtp[0] = &w->vt;
	w->p.n_sample_type = 1;
	w->p.sample_type = w->vtp;
	perftools__profiles__mapping__init(&w->m);
	w->m.id = 1;
	w->mp[0] = &w->m;
	w->p.n_mapping = 1;
	w->p.mapping = w->mp;
	perftools__profiles__function__init(&w->f);
	w->f.id = 7;
	w->f.name = 3;
	w->fp[0] = &w->f;
	w->p.n_function = 1;
	w->p.function = w->fp;
	perftools__profiles__line__init(&w->ln);
	w->ln.function_id = 7;
	w->lnp[0] = &w->ln;
	perftools__profiles__location__init(&w->l[0]);
	w->l[0].id = 100;
	w->l[0].mapping_id = 1;
	w->l[0].n_line = 1;
	w->l[0].line = w->lnp;
	w->lp[0] = &w->l[0];
	w->p.n_location = 1;
	w->p.location = w->lp;
	perftools__profiles__label__init(&w->lab);
	w->lab.key = 1;
	w->lab.str = 3;
	w->labp[0] = &w->lab;
	perftools__profiles__sample__init(&w->s);
	w->sloc[0] = 100;
	w->s.n_location_id = 1;
	w->s.location_id = w->sloc;
	w->sval[0] = 5;
	w->s.n_value = 1;
	w->s.value = w->sval;
	w->s.n_label = 1;
	w->s.label = w->labp;
	w->sp[0] = &w->s;
	w->p.n_sample = 1;
	w->p.sample = w->sp;
}

static int
decode_wire(struct wire *w)
{
	size_t i, n;
	uint8_t *buf;
	int rc;

	for (i = 0; i < w->p.n_string_table && w->p.string_table == w->bstrs;
	    i++) {
		w->bstrs[i].data = (uint8_t *)w->strs[i];
		w->bstrs[i].len = w->lens[i] != 0 ? w->lens[i] :
		    strlen(w->strs[i]);
	}
	n = perftools__profiles__profile__get_packed_size(&w->p);
	buf = malloc(n + 1);
	perftools__profiles__profile__pack(&w->p, buf);
	rc = profconv_profile_read_mem(&prof, buf, n, NULL, NULL);
	free(buf);
	return rc;
}

Test(pb, valid_wire_profile_decodes_with_dense_ids)
{
	struct wire w;
	struct profconv_sample s;
	struct profconv_location l;

	wire_init(&w);
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	profconv_profile_sample(prof, 0, &s);
	cr_assert(eq(u32, s.location_ids[0], 1));
	profconv_profile_location(prof, 1, &l);
	cr_assert(eq(u32, l.lines[0].function_id, 1));
}

Test(pb, rejects_nonempty_first_string)
{
	struct wire w;
	static char x[] = "x";

	wire_init(&w);
	w.strs[0] = x;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "string_table[0] must be \"\""));
}

/* Each byte that starts no well-formed sequence becomes U+FFFD, and the
 * repair is counted; the rest of the string is kept. */
Test(pb, repairs_invalid_utf8)
{
	struct wire w;
	static char bad[] = "ma\xc3\x28in", overlong[] = "\xc0\xaf";
	struct profconv_function f;

	wire_init(&w);
	w.strs[3] = bad;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	profconv_profile_function(prof, 1, &f);
	cr_assert(eq(str, (char *)f.name, "ma\xef\xbf\xbd(in"));
	cr_assert(eq(sz, profconv_profile_repaired_strings(prof), 1));
	drop();
	wire_init(&w);
	w.strs[2] = overlong;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	{
		struct profconv_value_type vt;

		profconv_profile_sample_type(prof, 0, &vt);
		cr_assert(eq(str, (char *)vt.unit,
		    "\xef\xbf\xbd\xef\xbf\xbd"));
	}
	cr_assert(eq(sz, profconv_profile_repaired_strings(prof), 1));
}

/* A NUL inside a string is kept, and "ma\0in" is not "ma". */
Test(pb, keeps_strings_with_nul)
{
	struct wire w;
	static char nul[] = "ma\0in", ma[] = "ma";
	struct profconv_function f;
	struct profconv_label l;

	wire_init(&w);
	w.strs[3] = nul;
	w.lens[3] = 5;
	w.strs[4] = ma;
	w.p.n_string_table = 5;
	w.lab.str = 4;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_repaired_strings(prof), 0));
	profconv_profile_function(prof, 1, &f);
	cr_assert(eq(sz, profconv_string_len(f.name), 5));
	cr_assert(eq(int, memcmp(f.name, "ma\0in", 6), 0));
	profconv_profile_sample_label(prof, 0, 0, &l);
	cr_assert(eq(sz, profconv_string_len(l.str), 2));
	cr_assert(eq(sz, profconv_string_len(NULL), 0));
}

/* Written and read back, then merged with a profile naming "ma": the
 * NUL stays, and the two functions stay two. */
Test(pb, nul_survives_write_and_merge)
{
	struct wire w;
	static char nul[] = "ma\0in", ma[] = "ma";
	struct profconv_profile *a, *b, *m, *back, *pair[2];
	struct profconv_function f;
	char *buf;
	size_t len, i, nul_names = 0;
	FILE *fp;

	wire_init(&w);
	w.strs[3] = nul;
	w.lens[3] = 5;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	a = prof;
	prof = NULL;
	wire_init(&w);
	w.strs[3] = ma;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	b = prof;
	prof = NULL;
	pair[0] = a;
	pair[1] = b;
	cr_assert(eq(int, profconv_profile_merge(&m, pair, 2), 0));
	cr_assert(eq(sz, profconv_profile_function_count(m), 2));
	fp = open_memstream(&buf, &len);
	cr_assert(eq(int, profconv_profile_write(m, fp, NULL), 0));
	fclose(fp);
	cr_assert(eq(int, profconv_profile_read_mem(&back, buf, len, NULL,
	    NULL), 0), "%s", profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_function_count(back), 2));
	for (i = 1; i <= 2; i++) {
		profconv_profile_function(back, (uint32_t)i, &f);
		if (profconv_string_len(f.name) == 5 &&
		    memcmp(f.name, "ma\0in", 5) == 0)
			nul_names++;
	}
	cr_assert(eq(sz, nul_names, 1));
	free(buf);
	profconv_profile_free(a);
	profconv_profile_free(b);
	profconv_profile_free(m);
	profconv_profile_free(back);
}

Test(pb, accepts_multibyte_utf8)
{
	struct wire w;
	static char ok[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5";

	wire_init(&w);
	w.strs[3] = ok;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
}

Test(pb, rejects_string_index_out_of_range)
{
	struct wire w;

	wire_init(&w);
	w.f.name = 4;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "function name: string index 4 out of range "
	    "(string table has 4 entries)"));
}

Test(pb, rejects_negative_string_index)
{
	struct wire w;

	wire_init(&w);
	w.lab.key = -1;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "label key: string index -1 out of range "
	    "(string table has 4 entries)"));
}

Test(pb, rejects_value_count_mismatch)
{
	struct wire w;

	wire_init(&w);
	w.s.n_value = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 1 has 2 values, but there are 1 sample types"));
}

Test(pb, rejects_dangling_location)
{
	struct wire w;

	wire_init(&w);
	w.sloc[0] = 101;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 1 refers to unknown location 101"));
}

Test(pb, rejects_dangling_mapping)
{
	struct wire w;

	wire_init(&w);
	w.l[0].mapping_id = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location 100 refers to unknown mapping 2"));
}

Test(pb, rejects_dangling_function)
{
	struct wire w;

	wire_init(&w);
	w.ln.function_id = 8;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location 100 refers to unknown function 8"));
}

Test(pb, rejects_duplicate_location_id)
{
	struct wire w;

	wire_init(&w);
	w.l[1] = w.l[0];
	w.lp[1] = &w.l[1];
	w.p.n_location = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "duplicate location id 100 (location[0] and [1])"));
}

Test(pb, rejects_zero_ids)
{
	struct wire w;

	wire_init(&w);
	w.m.id = 0;
	w.l[0].mapping_id = 0;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "mapping[0] has id 0"));
	drop();
	wire_init(&w);
	w.f.id = 0;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "function[0] has id 0"));
}

Test(pb, rejects_samples_without_sample_types)
{
	struct wire w;

	wire_init(&w);
	w.p.n_sample_type = 0;
	w.s.n_value = 0;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "profile has samples but no sample types"));
}

Test(pb, rejects_garbage)
{
	/* Field 8 (keep_frames) is a varint, never a fixed64. */
	static const unsigned char junk[] = { 0x41, 0x41, 0x41, 0x41, 0x41,
		0x41, 0x41, 0x41, 0x41, 0x41 };

	cr_assert(eq(int, profconv_profile_read_mem(&prof, junk, sizeof(junk),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG, "unrecognized profile format (text); "
	    "expected pprof protobuf, gperftools/Go heap or CPU, jemalloc "
	    "heap_v2, contention, Go goroutine/threadcreate, heaptrack or "
	    "massif"));
}

Test(pb, says_where_it_is_truncated)
{
	/* sample_type claiming 4 GB, then two bytes. */
	static const unsigned char cut[] = { 0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2 };
	static const unsigned char bad[] = { 0x60, 0x01, 0x0b, 0x01 };

	cr_assert(eq(int, profconv_profile_read_mem(&prof, cut, sizeof(cut),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "truncated pprof protobuf: field 1 at offset "
	    "0 runs past the end (7 bytes)"));
	/* period 1, then a group tag: pprof never writes groups. */
	cr_assert(eq(int, profconv_profile_read_mem(&prof, bad, sizeof(bad),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "unrecognized profile format (binary data); "
	    "expected pprof protobuf, gperftools/Go heap or CPU, jemalloc "
	    "heap_v2, contention, Go goroutine/threadcreate, heaptrack or "
	    "massif"));
}

Test(pb, rejects_empty_input)
{
	cr_assert(eq(int, profconv_profile_read_mem(&prof, "", 0, NULL, NULL),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "empty input"));
}

Test(pb, says_which_location_has_id_0)
{
	struct wire w;

	wire_init(&w);
	w.l[1] = w.l[0];
	w.lp[1] = &w.l[1];
	w.l[1].id = 0;
	w.p.n_location = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location[1] has id 0"));
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
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(int, profconv__pb_write(p, fp, level, jobs, backend), 0),
	    "%s", profconv_errmsg());
	fclose(fp);
	return (unsigned char *)buf;
}

/* Count the gzip members: each starts 1f 8b 08 at a member boundary,
 * which inflating finds. */
static size_t
gzip_members(const unsigned char *buf, size_t len, size_t *raw)
{
	z_stream z;
	unsigned char out[65536];
	size_t members = 0;
	int zr;

	memset(&z, 0, sizeof(z));
	cr_assert(eq(int, inflateInit2(&z, 16 + MAX_WBITS), Z_OK));
	z.next_in = (unsigned char *)buf;
	z.avail_in = (uInt)len;
	*raw = 0;
	while (z.avail_in != 0) {
		z.next_out = out;
		z.avail_out = sizeof(out);
		zr = inflate(&z, Z_NO_FLUSH);
		cr_assert(zr == Z_OK || zr == Z_STREAM_END, "inflate: %d", zr);
		*raw += sizeof(out) - z.avail_out;
		if (zr == Z_STREAM_END) {
			members++;
			cr_assert(eq(int, inflateReset(&z), Z_OK));
		}
	}
	inflateEnd(&z);
	return members;
}

/* Every backend this build has, every level and thread count: the same
 * bytes for every count, gzip members of 1 MiB, the same profile back. */
Test(pb, output_does_not_depend_on_threads)
{
	static const enum pc_gz_backend backends[] = { PC_GZ_ZLIB,
		PC_GZ_LIBDEFLATE };
	static const unsigned int jobs[] = { 2, 3, 8 };
	static const int levels[] = { 0, 1, 6, -1 };
	struct profconv_profile *p = build_large(60000), *back;
	unsigned char *one, *many, *plain;
	size_t b, l, j, len1, len, plen, raw, tested = 0;
	char *a, *d;

	plain = write_with(p, 0, 1, PC_GZ_BEST, &plen);
	cr_assert(gt(sz, plen, 3 * PC_GZ_BLOCK), "only %zu bytes", plen);
	a = dump(p);
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
			if (levels[l] != 0) {
				cr_assert(eq(sz, gzip_members(one, len1, &raw),
				    (plen + PC_GZ_BLOCK - 1) / PC_GZ_BLOCK));
				cr_assert(eq(sz, raw, plen));
			}
			cr_assert(eq(int, profconv_profile_read_mem(&back, one,
			    len1, NULL, NULL), 0), "%s", profconv_errmsg());
			d = dump(back);
			cr_assert(eq(str, d, a));
			free(d);
			profconv_profile_free(back);
			free(one);
		}
	}
	cr_assert(ge(sz, tested, 1));
	free(a);
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

/* --- the decoder takes what protobuf-c took ------------------------------ */

/* The valid wire profile, then the LEN bytes MORE. */
static int
decode_wire_plus(const unsigned char *more, size_t len, size_t *total)
{
	struct wire w;
	size_t i, n;
	uint8_t *buf;
	int rc;

	wire_init(&w);
	for (i = 0; i < w.p.n_string_table; i++) {
		w.bstrs[i].data = (uint8_t *)w.strs[i];
		w.bstrs[i].len = strlen(w.strs[i]);
	}
	n = perftools__profiles__profile__get_packed_size(&w.p);
	buf = malloc(n + len);
	perftools__profiles__profile__pack(&w.p, buf);
	memcpy(buf + n, more, len);
	*total = n + len;
	rc = profconv_profile_read_mem(&prof, buf, n + len, NULL, NULL);
	free(buf);
	return rc;
}

/* A second Profile message after the first adds to it (a sample with
 * its location id and value unpacked); unknown fields of any wire type
 * inside a message are skipped (at the top, detection refuses them). */
Test(pb, decodes_unpacked_split_and_unknown_fields)
{
	static const unsigned char more[] = {
		0x12, 0x14, 0x08, 0x64,
		0x48, 0x01,					/* field 9 */
		0x10, 0x07, 0x08, 0x64,
		0xa0, 0x01, 0x05,				/* field 20 */
		0xad, 0x01, 1, 2, 3, 4,				/* field 21 */
		0xb2, 0x01, 0x00,				/* field 22 */
	};
	struct profconv_sample s;
	size_t n;

	cr_assert(eq(int, decode_wire_plus(more, sizeof(more), &n), 0), "%s",
	    profconv_errmsg());
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	profconv_profile_sample(prof, 1, &s);
	cr_assert(eq(sz, s.nlocations, 2));
	cr_assert(eq(u32, s.location_ids[0], 1));
	cr_assert(eq(u32, s.location_ids[1], 1));
	cr_assert(eq(i64, s.values[0], 7));
}

/*
 * NUL padding after a profile reads as go tool pprof reads it: two zero
 * bytes are field 0, varint 0, which pprof's decoder skips as any field
 * it does not know (in any wire type); an odd count ends cut off.
 */
Test(pb, skips_nul_padding_as_pprof_does)
{
	static unsigned char pad[4096];
	static const unsigned char field0[] = {
		0x00, 0x05, 0x01, 1, 2, 3, 4, 5, 6, 7, 8,	/* 0: varint, fixed64 */
		0x02, 0x02, 0xff, 0xff, 0x05, 1, 2, 3, 4,	/* 0: bytes, fixed32 */
	};
	char want[128];
	size_t n;

	cr_assert(eq(int, decode_wire_plus(pad, 2, &n), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 1));
	drop();
	cr_assert(eq(int, decode_wire_plus(pad, sizeof(pad), &n), 0), "%s",
	    ERRMSG);
	drop();
	cr_assert(eq(int, decode_wire_plus(field0, sizeof(field0), &n), 0),
	    "%s", ERRMSG);
	drop();
	cr_assert(eq(int, decode_wire_plus(pad, 3, &n), PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "truncated pprof protobuf: field 0 at "
	    "offset %zu runs past the end (%zu bytes)", n - 1, n);
	cr_assert(eq(str, ERRMSG, want));
}

/* A known field with another wire type inside a message is refused. */
Test(pb, refuses_known_fields_of_the_wrong_wire_type)
{
	static const unsigned char ids_fixed[] = { 0x12, 0x09, 0x09, 1, 2, 3,
		4, 5, 6, 7, 8 };
	char want[128];
	size_t n;

	cr_assert(eq(int, decode_wire_plus(ids_fixed, sizeof(ids_fixed), &n),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "not a valid pprof protobuf (%zu bytes)",
	    n);
	cr_assert(eq(str, ERRMSG, want));
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
