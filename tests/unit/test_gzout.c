/* SPDX-License-Identifier: MIT */
/*
 * test_gzout.c - gzip output on threads (lib/pprof/gzout.c): one member
 * per PC_GZ_BLOCK bytes of the stream, the same bytes whatever the
 * threads and however the stream is cut into pieces or parts; checked
 * by inflating with zlib, the reference.
 */

#include "config.h"

#include <stdlib.h>

#include "gzip_fixture.h"
#include "pprof/pprof.h"

static const enum pc_gz_backend backends[] = { PC_GZ_ZLIB, PC_GZ_LIBDEFLATE };

/* LEN bytes of text-like data, compressible but not trivially. */
static unsigned char *
stream(size_t len)
{
	unsigned char *p = malloc(len);
	uint32_t x = 12345;

	cr_assert(not(zero(ptr, p)));
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245 + 12345;
		p[i] = (unsigned char)('a' + (x >> 16) % 8);
	}
	return p;
}

/* Write the N pieces gzipped into memory. */
static unsigned char *
gz(const struct pc_piece *pieces, size_t n, unsigned int jobs,
    enum pc_gz_backend backend, size_t *len)
{
	char *buf;
	FILE *fp = mem_stream(&buf, len);

	cr_assert(eq(int, profconv__gz_write(fp, pieces, n, 1, jobs,
	    backend), 0), "%s", ERRMSG);
	fclose(fp);
	return (unsigned char *)buf;
}

/* 2.5 blocks in three pieces that do not fall on block boundaries:
 * three members of 1 MiB, 1 MiB and the rest, with no clock in them. */
Test(gzout, one_member_per_block)
{
	size_t len = 5 * PC_GZ_BLOCK / 2, glen, b;
	unsigned char *in = stream(len), *out = malloc(len), *g;
	struct pc_piece pieces[3] = { { in, 1000 },
		{ in + 1000, PC_GZ_BLOCK + 7 },
		{ in + PC_GZ_BLOCK + 1007, len - PC_GZ_BLOCK - 1007 } };

	for (b = 0; b < PC_ARRAY_LEN(backends); b++) {
		size_t sizes[8] = { 0 };

		if (!profconv__gz_has(backends[b]))
			continue;	/* configured without libdeflate */
		g = gz(pieces, 3, 1, backends[b], &glen);
		/* RFC 1952: ID1 ID2 CM=8, then MTIME 0 */
		cr_assert(eq(int, memcmp(g, "\x1f\x8b\x08", 3), 0));
		cr_assert(eq(int, memcmp(g + 4, "\0\0\0\0", 4), 0));
		memset(out, 0, len);
		cr_assert(eq(sz, members(g, glen, out, len, sizes), 3));
		cr_assert(eq(sz, sizes[0], PC_GZ_BLOCK));
		cr_assert(eq(sz, sizes[1], PC_GZ_BLOCK));
		cr_assert(eq(sz, sizes[2], PC_GZ_BLOCK / 2));
		cr_assert(eq(int, memcmp(out, in, len), 0));
		free(g);
	}
	free(out);
	free(in);
}

/* The same bytes on 1, 2 or 5 threads, from one piece or many. */
Test(gzout, same_bytes_whatever_threads_and_pieces)
{
	size_t len = 3 * PC_GZ_BLOCK + 99, l1, l2, l3;
	unsigned char *in = stream(len), *one, *two, *five;
	struct pc_piece whole = { in, len };
	struct pc_piece cut[4] = { { in, 1 }, { in + 1, 0 },
		{ in + 1, 2 * PC_GZ_BLOCK }, { in + 1 + 2 * PC_GZ_BLOCK,
		len - 1 - 2 * PC_GZ_BLOCK } };

	one = gz(&whole, 1, 1, PC_GZ_ZLIB, &l1);
	two = gz(cut, 4, 2, PC_GZ_ZLIB, &l2);
	five = gz(cut, 4, 5, PC_GZ_ZLIB, &l3);
	cr_assert(eq(sz, l2, l1));
	cr_assert(eq(sz, l3, l1));
	cr_assert(eq(int, memcmp(one, two, l1), 0));
	cr_assert(eq(int, memcmp(one, five, l1), 0));
	free(one);
	free(two);
	free(five);
	free(in);
}

/* An empty stream is one empty member, as gzip makes of an empty file. */
Test(gzout, empty_stream_is_one_empty_member)
{
	size_t glen, sizes[8] = { 0 };
	unsigned char *g, out[1];

	g = gz(NULL, 0, 1, PC_GZ_ZLIB, &glen);
	cr_assert(gt(sz, glen, 18));	/* header 10 + trailer 8 + data */
	cr_assert(eq(sz, members(g, glen, out, 0, sizes), 1));
	cr_assert(eq(sz, sizes[0], 0));
	free(g);
}

/*
 * Written in parts: before the last, only whole blocks go out and *USED
 * says so; the caller gives the rest again, and the members are those of
 * one call with the whole stream.
 */
Test(gzout, parts_write_whole_blocks_until_the_last)
{
	size_t len = 2 * PC_GZ_BLOCK + 5000, used, wlen, plen;
	unsigned char *in = stream(len), *whole;
	struct pc_piece p1 = { in, PC_GZ_BLOCK + PC_GZ_BLOCK / 2 }, p2;
	char *buf = NULL;
	FILE *fp;

	whole = gz(&(struct pc_piece){ in, len }, 1, 1, PC_GZ_ZLIB, &wlen);
	fp = open_memstream(&buf, &plen);
	cr_assert(eq(int, profconv__gz_write_some(fp, &p1, 1, 1, 2,
	    PC_GZ_ZLIB, false, &used), 0), "%s", ERRMSG);
	cr_assert(eq(sz, used, PC_GZ_BLOCK));
	fflush(fp);
	cr_assert(lt(sz, plen, wlen));
	p2 = (struct pc_piece){ in + used, len - used };
	cr_assert(eq(int, profconv__gz_write_some(fp, &p2, 1, 1, 2,
	    PC_GZ_ZLIB, true, &used), 0), "%s", ERRMSG);
	cr_assert(eq(sz, used, len - PC_GZ_BLOCK));
	fclose(fp);
	cr_assert(eq(sz, plen, wlen));
	cr_assert(eq(int, memcmp(buf, whole, wlen), 0));
	free(buf);
	free(whole);
	free(in);
}

/* A compressor this build lacks, and a stream that cannot be written. */
Test(gzout, refuses_unknown_backend_and_reports_write_errors)
{
	unsigned char in[16] = "0123456789abcdef";
	struct pc_piece p = { in, sizeof(in) };
	FILE *fp = fopen("/dev/null", "r");

	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(int, profconv__gz_write(fp, &p, 1, 1, 1,
	    (enum pc_gz_backend)7), PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "this build has no such compressor (7)"));
	cr_assert(not(profconv__gz_has((enum pc_gz_backend)7)));
	cr_assert(profconv__gz_has(PC_GZ_ZLIB));
	cr_assert(eq(int, profconv__gz_write(fp, &p, 1, 1, 1, PC_GZ_ZLIB),
	    PROFCONV_EIO));
	cr_assert(eq(str, ERRMSG, "write error: Bad file descriptor"));
	fclose(fp);
}
