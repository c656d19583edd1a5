/* SPDX-License-Identifier: MIT */
/*
 * test_convert_stream.c - profconv_profile_convert()
 * (lib/pprof/convert_stream.c): the bytes of a read then a write, with
 * heap text drained round by round (tiny chunks make many rounds), the
 * profile handed back without samples, and refusals that hand back none.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "read/chunked.h"

static void
reset_chunks(void)
{
	profconv__test_chunk_bytes = 0;
}

TestSuite(convert_stream, .fini = reset_chunks);

/* A gperftools heap profile of N samples on distinct two-frame stacks:
 * sample I is I+1 objects of 16 bytes each. */
static char *
heap_text(size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	cr_assert(not(zero(ptr, fp)));
	fprintf(fp, "heap profile: 1: 16 [ 1: 16] @ heapprofile\n");
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%zu: %zu [%zu: %zu] @ 0x%zx 0x400000\n", i + 1,
		    16 * (i + 1), i + 1, 16 * (i + 1), 0x401000 + 16 * i);
	fclose(fp);
	return buf;
}

/* What profconv_profile_read() then profconv_profile_write() make. */
static char *
read_write(const char *text, size_t len, const struct profconv_write_options
    *wo, size_t *outlen)
{
	struct profconv_profile *p;
	char *buf = NULL;
	FILE *fp;

	cr_assert(eq(int, profconv_profile_read_mem(&p, text, len, NULL, NULL),
	    0), "%s", ERRMSG);
	fp = open_memstream(&buf, outlen);
	cr_assert(eq(int, profconv_profile_write(p, fp, wo), 0), "%s", ERRMSG);
	fclose(fp);
	profconv_profile_free(p);
	return buf;
}

/* The converted bytes of TEXT, the profile without samples, the format. */
static char *
convert(const char *text, size_t len, unsigned int jobs,
    const struct profconv_write_options *wo, size_t *outlen,
    struct profconv_profile **prof, enum profconv_format *fmt)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	FILE *in = fmemopen((void *)text, len, "r");
	char *buf = NULL;
	FILE *out = open_memstream(&buf, outlen);

	ro.jobs = jobs;
	cr_assert(not(zero(ptr, in)));
	cr_assert(eq(int, profconv_profile_convert(in, out, &ro, wo, prof,
	    fmt), 0), "%s", ERRMSG);
	fclose(in);
	fclose(out);
	return buf;
}

/* Heap text in many rounds, on 1 and 3 threads, plain and gzipped: the
 * same bytes as reading it whole and writing it. */
static void
drained_heap_text_is_read_then_write(void)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	static const int levels[] = { 0, 1 };
	size_t tlen, wlen, clen, i, n = 3000;
	char *text = heap_text(n, &tlen), *want, *got;
	struct profconv_profile *p, *back;
	enum profconv_format fmt;
	int64_t total;

	profconv__test_chunk_bytes = 512;
	for (i = 0; i < PC_ARRAY_LEN(levels); i++) {
		wo.level = levels[i];
		want = read_write(text, tlen, &wo, &wlen);
		for (unsigned int jobs = 1; jobs <= 3; jobs += 2) {
			got = convert(text, tlen, jobs, &wo, &clen, &p, &fmt);
			cr_assert(eq(int, fmt, PROFCONV_FORMAT_HEAP));
			cr_assert(eq(sz, profconv_profile_sample_count(p), 0));
			cr_assert(eq(sz, clen, wlen), "level %d -j %u",
			    levels[i], jobs);
			cr_assert(eq(int, memcmp(got, want, wlen), 0));
			profconv_profile_free(p);
			if (i == 0 && jobs == 3) {
				/* all 3000 samples, 1+2+...+3000 objects */
				cr_assert(eq(int, profconv_profile_read_mem(
				    &back, got, clen, NULL, NULL), 0));
				cr_assert(eq(sz, profconv_profile_sample_count(
				    back), n));
				profconv_profile_total(back, 0, &total);
				cr_assert(eq(i64, total, 3000 * 3001 / 2));
				profconv_profile_free(back);
			}
			free(got);
		}
		free(want);
	}
	free(text);
}

/* pprof is read whole, never drained: still the same bytes. */
static void
pprof_input_is_read_then_write(void)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	size_t tlen, plen, wlen, clen;
	char *text = heap_text(50, &tlen), *pb, *want, *got;
	enum profconv_format fmt;

	wo.level = 0;
	pb = read_write(text, tlen, &wo, &plen);
	want = read_write(pb, plen, &wo, &wlen);
	got = convert(pb, plen, 2, &wo, &clen, NULL, &fmt);
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_PPROF));
	cr_assert(eq(sz, clen, wlen));
	cr_assert(eq(int, memcmp(got, want, wlen), 0));
	free(got);
	free(want);
	free(pb);
	free(text);
}

/* A refused option or input hands back no profile. */
static void
refusals_hand_back_nothing(void)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *p = (struct profconv_profile *)&wo;
	enum profconv_format fmt = PROFCONV_FORMAT_PPROF;
	static char junk[] = "no profile here\n";
	char *buf = NULL;
	size_t len;
	FILE *in = fmemopen(junk, strlen(junk), "r"), *out;

	out = open_memstream(&buf, &len);
	wo.level = 10;
	cr_assert(eq(int, profconv_profile_convert(in, out, NULL, &wo, &p,
	    &fmt), PROFCONV_EINVAL));
	cr_assert(zero(ptr, p));
	cr_assert(eq(int, fmt, PROFCONV_FORMAT_UNKNOWN));
	wo.level = 0;
	p = (struct profconv_profile *)&wo;
	cr_assert(eq(int, profconv_profile_convert(in, out, NULL, &wo, &p,
	    &fmt), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, p));
	fclose(in);
	fclose(out);
	free(buf);
}

/* The bytes of a read then a write, drained or whole, and no profile
 * when refused; the chunk size is reset after each case. */
Test(convert_stream, read_then_write_or_nothing)
{
	drained_heap_text_is_read_then_write();
	reset_chunks();
	pprof_input_is_read_then_write();
	reset_chunks();
	refusals_hand_back_nothing();
}
