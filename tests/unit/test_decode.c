/* SPDX-License-Identifier: MIT */
/*
 * test_decode.c - pprof bytes into the model (lib/pprof/decode.c): wire
 * profiles packed by protobuf-c, the reference codec, are decoded or
 * refused with the message that names what is wrong.
 */

#include "config.h"

#include <stdlib.h>

#include "model/model.h"
#include "pprof/pprof.h"
#include "pb_fixture.h"

TestSuite(decode, .fini = drop);

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

Test(decode, valid_wire_profile_decodes_with_dense_ids)
{
	struct wire w;
	struct profconv_sample s;
	struct profconv_location l;

	wire_init(&w);
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	profconv_profile_sample(prof, 0, &s);
	cr_assert(eq(u32, sample_location(prof, 0, 0), 1));
	profconv_profile_location(prof, 1, &l);
	cr_assert(eq(u32, l.lines[0].function_id, 1));
}

static void
rejects_nonempty_first_string(void)
{
	struct wire w;
	static char x[] = "x";

	wire_init(&w);
	w.strs[0] = x;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "string_table[0] must be \"\""));
	drop();
}

/* Each byte that starts no well-formed sequence becomes U+FFFD, and the
 * repair is counted; the rest of the string is kept. */
static void
repairs_invalid_utf8(void)
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
	drop();
}

/* A NUL inside a string is kept, and "ma\0in" is not "ma". */
static void
keeps_strings_with_nul(void)
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
	drop();
}

/* Written and read back, then merged with a profile naming "ma": the
 * NUL stays, and the two functions stay two. */
static void
nul_survives_write_and_merge(void)
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
	drop();
}

static void
accepts_multibyte_utf8(void)
{
	struct wire w;
	static char ok[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5";

	wire_init(&w);
	w.strs[3] = ok;
	cr_assert(eq(int, decode_wire(&w), 0), "%s", profconv_errmsg());
	drop();
}

static void
rejects_string_index_out_of_range(void)
{
	struct wire w;

	wire_init(&w);
	w.f.name = 4;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "function name: string index 4 out of range "
	    "(string table has 4 entries)"));
	drop();
}

static void
rejects_negative_string_index(void)
{
	struct wire w;

	wire_init(&w);
	w.lab.key = -1;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "label key: string index -1 out of range "
	    "(string table has 4 entries)"));
	drop();
}

static void
rejects_value_count_mismatch(void)
{
	struct wire w;

	wire_init(&w);
	w.s.n_value = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 1 has 2 values, but there are 1 sample types"));
	drop();
}

static void
rejects_dangling_location(void)
{
	struct wire w;

	wire_init(&w);
	w.sloc[0] = 101;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 1 refers to unknown location 101"));
	drop();
}

static void
rejects_dangling_mapping(void)
{
	struct wire w;

	wire_init(&w);
	w.l[0].mapping_id = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location 100 refers to unknown mapping 2"));
	drop();
}

static void
rejects_dangling_function(void)
{
	struct wire w;

	wire_init(&w);
	w.ln.function_id = 8;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location 100 refers to unknown function 8"));
	drop();
}

static void
rejects_duplicate_location_id(void)
{
	struct wire w;

	wire_init(&w);
	w.l[1] = w.l[0];
	w.lp[1] = &w.l[1];
	w.p.n_location = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "duplicate location id 100 (location[0] and [1])"));
	drop();
}

static void
rejects_zero_ids(void)
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
	drop();
}

static void
rejects_samples_without_sample_types(void)
{
	struct wire w;

	wire_init(&w);
	w.p.n_sample_type = 0;
	w.s.n_value = 0;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "profile has samples but no sample types"));
	drop();
}

static void
says_which_location_has_id_0(void)
{
	struct wire w;

	wire_init(&w);
	w.l[1] = w.l[0];
	w.lp[1] = &w.l[1];
	w.l[1].id = 0;
	w.p.n_location = 2;
	cr_assert(eq(int, decode_wire(&w), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "location[1] has id 0"));
	drop();
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
static void
decodes_unpacked_split_and_unknown_fields(void)
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
	cr_assert(eq(u32, sample_location(prof, 1, 0), 1));
	cr_assert(eq(u32, sample_location(prof, 1, 1), 1));
	cr_assert(eq(i64, s.values[0], 7));
	drop();
}

/*
 * NUL padding after a profile reads as go tool pprof reads it: two zero
 * bytes are field 0, varint 0, which pprof's decoder skips as any field
 * it does not know (in any wire type); an odd count ends cut off.
 */
static void
skips_nul_padding_as_pprof_does(void)
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
	drop();
}

/* A known field with another wire type inside a message is refused. */
static void
refuses_known_fields_of_the_wrong_wire_type(void)
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
	drop();
}

/* --- the cases above, one test per behaviour ------------------------------ */

/* Strings: repaired, kept with NULs, or taken as they are. */
Test(decode, decodes_strings)
{
	repairs_invalid_utf8();
	keeps_strings_with_nul();
	nul_survives_write_and_merge();
	accepts_multibyte_utf8();
}

/* A string table or string index that is no good. */
Test(decode, rejects_bad_strings)
{
	rejects_nonempty_first_string();
	rejects_string_index_out_of_range();
	rejects_negative_string_index();
}

/* Samples that do not fit the sample types. */
Test(decode, rejects_bad_samples)
{
	rejects_value_count_mismatch();
	rejects_samples_without_sample_types();
}

/* Ids that are 0 or repeated, references to no object. */
Test(decode, rejects_bad_ids_and_references)
{
	rejects_dangling_location();
	rejects_dangling_mapping();
	rejects_dangling_function();
	rejects_duplicate_location_id();
	rejects_zero_ids();
	says_which_location_has_id_0();
}

/* Wire forms beyond protobuf-c's packing. */
Test(decode, takes_what_protobuf_c_takes)
{
	decodes_unpacked_split_and_unknown_fields();
	skips_nul_padding_as_pprof_does();
	refuses_known_fields_of_the_wrong_wire_type();
}
