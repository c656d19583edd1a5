/* SPDX-License-Identifier: MIT */
/*
 * test_decode_samples.c - the samples of a pprof protobuf
 * (lib/pprof/decode_samples.c): location ids packed or not, values,
 * labels as pprof reads them, the bound on memory, and the first bad
 * sample named whatever the number of threads.  The wire bytes are
 * written here by hand, field by field, after profile.proto.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "model/model.h"
#include "pprof/pprof.h"

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(decode_samples, .fini = drop);

/* Wire bytes being written. */
struct wb {
	unsigned char *b;
	size_t n, cap;
};

static void
put(struct wb *w, const void *p, size_t len)
{
	if (w->n + len > w->cap) {
		w->cap = (w->n + len) * 2 + 64;
		w->b = realloc(w->b, w->cap);
		cr_assert(not(zero(ptr, w->b)));
	}
	memcpy(w->b + w->n, p, len);
	w->n += len;
}

static void
varint(struct wb *w, uint64_t v)
{
	unsigned char c;

	do {
		c = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			c |= 0x80;
		put(w, &c, 1);
	} while (v != 0);
}

/* Field NUM as varint V. */
static void
fvarint(struct wb *w, unsigned int num, uint64_t v)
{
	varint(w, (uint64_t)num << 3);
	varint(w, v);
}

/* Field NUM holding the bytes of INNER (which is freed). */
static void
fbytes(struct wb *w, unsigned int num, struct wb *inner)
{
	varint(w, (uint64_t)num << 3 | 2);
	varint(w, inner->n);
	put(w, inner->b, inner->n);
	free(inner->b);
	*inner = (struct wb){ 0 };
}

static void
fstring(struct wb *w, unsigned int num, const char *s)
{
	varint(w, (uint64_t)num << 3 | 2);
	varint(w, strlen(s));
	put(w, s, strlen(s));
}

/*
 * The head of a profile: strings "" samples count k v bytes (0-5), one
 * sample type samples/count, and locations 100 and 200 (model ids 1, 2).
 */
static void
head(struct wb *w)
{
	static const char *strs[] = { "", "samples", "count", "k", "v",
		"bytes" };
	struct wb in = { 0 };
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(strs); i++)
		fstring(w, 6, strs[i]);
	fvarint(&in, 1, 1);
	fvarint(&in, 2, 2);
	fbytes(w, 1, &in);
	fvarint(&in, 1, 100);
	fbytes(w, 4, &in);
	fvarint(&in, 1, 200);
	fbytes(w, 4, &in);
}

static int
decode(struct wb *w, uint64_t budget, unsigned int jobs)
{
	int rc = profconv__pb_decode(&prof, w->b, w->n, budget, jobs);

	free(w->b);
	*w = (struct wb){ 0 };
	return rc;
}

/* Location ids packed (field 1 as bytes) or one by one, values the
 * same: both read as the same stack, mapped to the model's ids. */
static void
location_ids_packed_or_not(void)
{
	struct wb w = { 0 }, s = { 0 }, ids = { 0 };
	struct profconv_sample got;

	head(&w);
	varint(&ids, 200);
	varint(&ids, 100);
	fbytes(&s, 1, &ids);
	fvarint(&s, 2, 7);
	fbytes(&w, 2, &s);
	fvarint(&s, 1, 200);
	fvarint(&s, 1, 100);
	varint(&ids, 5);
	fbytes(&s, 2, &ids);
	fbytes(&w, 2, &s);
	cr_assert(eq(int, decode(&w, 0, 1), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_profile_sample_count(prof), 2));
	for (size_t i = 0; i < 2; i++) {
		cr_assert(eq(int, profconv_profile_sample(prof, i, &got), 0));
		cr_assert(eq(sz, got.nlocations, 2));
		cr_assert(eq(u32, sample_location(prof, i, 0), 2));
		cr_assert(eq(u32, sample_location(prof, i, 1), 1));
		cr_assert(eq(i64, got.values[0], i == 0 ? 7 : 5));
	}
}

/* As in pprof, a label with a string value has no number and no unit;
 * a numeric one keeps both. */
static void
labels_as_pprof_reads_them(void)
{
	struct wb w = { 0 }, s = { 0 }, l = { 0 };
	struct profconv_label lab;
	struct profconv_sample got;

	head(&w);
	fvarint(&s, 1, 100);
	fvarint(&s, 2, 1);
	fvarint(&l, 1, 3);
	fvarint(&l, 2, 4);
	fvarint(&l, 3, 9);
	fvarint(&l, 4, 5);
	fbytes(&s, 3, &l);
	fvarint(&l, 1, 5);
	fvarint(&l, 3, 64);
	fvarint(&l, 4, 5);
	fbytes(&s, 3, &l);
	fbytes(&w, 2, &s);
	cr_assert(eq(int, decode(&w, 0, 1), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_profile_sample(prof, 0, &got), 0));
	cr_assert(eq(sz, got.nlabels, 2));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 0, 0, &lab), 0));
	cr_assert(eq(str, (char *)lab.key, "k"));
	cr_assert(eq(str, (char *)lab.str, "v"));
	cr_assert(eq(i64, lab.num, 0));
	cr_assert(zero(ptr, (void *)lab.unit));
	cr_assert(eq(int, profconv_profile_sample_label(prof, 0, 1, &lab), 0));
	cr_assert(eq(str, (char *)lab.key, "bytes"));
	cr_assert(zero(ptr, (void *)lab.str));
	cr_assert(eq(i64, lab.num, 64));
	cr_assert(eq(str, (char *)lab.unit, "bytes"));
}

Test(decode_samples, samples_read_as_pprof_reads_them)
{
	location_ids_packed_or_not();
	drop();
	labels_as_pprof_reads_them();
}

/* What a sample may not hold, each named with the sample's number. */
static void
refuses_bad_samples(void)
{
	struct wb w = { 0 }, s = { 0 }, l = { 0 };

	head(&w);
	fvarint(&s, 1, 300);
	fvarint(&s, 2, 1);
	fbytes(&w, 2, &s);
	cr_assert(eq(int, decode(&w, 0, 1), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 1 refers to unknown location 300"));
	drop();
	head(&w);
	fvarint(&s, 2, 1);
	fbytes(&w, 2, &s);
	fvarint(&s, 1, 100);
	fbytes(&w, 2, &s);
	cr_assert(eq(int, decode(&w, 0, 1), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "sample 2 has 0 values, but there are 1 "
	    "sample types"));
	drop();
	head(&w);
	fvarint(&s, 2, 1);
	fvarint(&l, 1, 6);
	fbytes(&s, 3, &l);
	fbytes(&w, 2, &s);
	cr_assert(eq(int, decode(&w, 0, 1), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "label key: string index 6 out of range "
	    "(string table has 6 entries)"));
}

/* A label (field 3) given as a varint is no label: the wire is bad. */
static void
refuses_a_label_of_the_wrong_wire_type(void)
{
	struct wb w = { 0 }, s = { 0 };
	char want[96];
	size_t n;

	head(&w);
	fvarint(&s, 2, 1);
	fvarint(&s, 3, 1);
	fbytes(&w, 2, &s);
	n = w.n;
	cr_assert(eq(int, decode(&w, 0, 1), PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "not a valid pprof protobuf (%zu bytes)",
	    n);
	cr_assert(eq(str, ERRMSG, want));
}

/* Beyond the bound, refused before the room is taken; 0 is no bound. */
static void
refuses_samples_beyond_the_bound(void)
{
	struct wb w = { 0 }, s = { 0 };
	char want[160];
	size_t i, n;

	for (uint64_t bound = 1000; bound <= 1 << 20; bound <<= 10) {
		head(&w);
		for (i = 0; i < 1000; i++) {
			fvarint(&s, 1, 100);
			fvarint(&s, 2, 1);
			fbytes(&w, 2, &s);
		}
		n = w.n;
		if (bound > 1000) {
			/* 1000 samples of a value and a location: far less */
			cr_assert(eq(int, decode(&w, bound, 1), 0), "%s", ERRMSG);
			continue;
		}
		cr_assert(eq(int, decode(&w, bound, 1), PROFCONV_EFORMAT));
		snprintf(want, sizeof(want), "decoding this pprof protobuf "
		    "(%zu bytes) needs more than the input bound, 0 MiB, of "
		    "memory", n);
		cr_assert(eq(str, ERRMSG, want));
	}
}

Test(decode_samples, refuses_malformed_samples)
{
	refuses_bad_samples();
	drop();
	refuses_a_label_of_the_wrong_wire_type();
	drop();
	refuses_samples_beyond_the_bound();
}

/*
 * Three chunks of 4096 samples and more, on 1 to 8 threads: all kept in
 * order (sample I has value I), and of two bad samples in different
 * chunks the first is the one named.
 */
Test(decode_samples, same_samples_and_first_error_on_any_threads)
{
	static const unsigned int jobs[] = { 1, 2, 3, 8 };
	struct wb w = { 0 }, s = { 0 };
	struct profconv_sample got;
	size_t i, j, n = 3 * 4096 + 17;
	int64_t sum;

	for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
		for (int bad = 0; bad < 2; bad++) {
			head(&w);
			for (i = 0; i < n; i++) {
				fvarint(&s, 1, bad && i == 5000 ? 7 : 100);
				if (!(bad && i == 9000))
					fvarint(&s, 2, i);
				fbytes(&w, 2, &s);
			}
			if (bad) {
				cr_assert(eq(int, decode(&w, 0, jobs[j]),
				    PROFCONV_EFORMAT));
				cr_assert(eq(str, ERRMSG, "sample 5001 refers "
				    "to unknown location 7"), "-j %u", jobs[j]);
				continue;
			}
			cr_assert(eq(int, decode(&w, 0, jobs[j]), 0), "%s",
			    ERRMSG);
			cr_assert(eq(sz, profconv_profile_sample_count(prof), n));
			for (i = 0, sum = 0; i < n; i++) {
				profconv_profile_sample(prof, i, &got);
				sum += got.values[0] == (int64_t)i;
			}
			cr_assert(eq(i64, sum, (int64_t)n), "-j %u", jobs[j]);
			drop();
		}
	}
}

/* A release that spoils what it is given (0xff: no field starts so):
 * bytes the decoder read after giving them back would show. */
struct given {
	unsigned char *b;
	size_t upto, calls;
};

static void
spoil_given(void *arg, size_t n)
{
	struct given *g = arg;

	cr_assert(gt(sz, n, g->upto), "given back twice: %zu", n);
	memset(g->b + g->upto, 0xff, n - g->upto);
	g->upto = n;
	g->calls++;
}

/*
 * Bytes given back as the samples are decoded: the same samples, and
 * the same first error whatever was given back before it (a bad id, or
 * a wire error, whose message walks the top-level fields again), on 1
 * to 3 threads.
 */
Test(decode_samples, bytes_given_back_as_decoded)
{
	static const unsigned int jobs[] = { 1, 3 };
	struct wb w = { 0 }, s = { 0 };
	struct profconv_profile *want = NULL;
	struct profconv_sample a, b;
	struct given g;
	size_t i, j, n = 9 * 4096 + 5;
	char msg[256];
	int bad, rc;

	for (j = 0; j < PC_ARRAY_LEN(jobs); j++) {
		for (bad = 0; bad < 3; bad++) {
			head(&w);
			for (i = 0; i < n; i++) {
				fvarint(&s, 1, bad == 1 && i == 30000 ? 7 :
				    i % 2 ? 100 : 200);
				fvarint(&s, 2, i);
				if (bad == 2 && i == 33000)
					fvarint(&s, 3, 1);
				fbytes(&w, 2, &s);
			}
			rc = profconv__pb_decode(&want, w.b, w.n, 0, jobs[j]);
			snprintf(msg, sizeof(msg), "%s", ERRMSG);
			g = (struct given){ w.b, 0, 0 };
			cr_assert(eq(int, profconv__pb_decode_releasing(&prof,
			    w.b, w.n, 0, jobs[j], spoil_given, &g), rc));
			cr_expect(gt(sz, g.calls, 1), "-j %u", jobs[j]);
			free(w.b);
			w = (struct wb){ 0 };
			if (bad) {
				cr_expect(eq(str, ERRMSG, msg), "-j %u", jobs[j]);
				cr_expect(not(zero(ptr, strstr(msg, bad == 1 ?
				    "sample 30001" : "not a valid pprof"))),
				    "%s", msg);
				continue;
			}
			cr_assert(eq(int, rc, 0), "%s", msg);
			cr_assert(eq(sz, profconv_profile_sample_count(prof), n));
			for (i = 0; i < n; i++) {
				uint32_t x[4], y[4];
				size_t nx, ny;

				profconv_profile_sample(prof, i, &a);
				profconv_profile_sample(want, i, &b);
				cr_assert(eq(i64, a.values[0], b.values[0]));
				profconv_profile_sample_locations(prof, i, x, 4,
				    &nx);
				profconv_profile_sample_locations(want, i, y, 4,
				    &ny);
				cr_assert(eq(sz, nx, ny));
				cr_assert(eq(u32, x[0], y[0]), "sample %zu", i);
			}
			profconv_profile_free(want);
			want = NULL;
			drop();
		}
	}
}
