/* SPDX-License-Identifier: MIT */
/*
 * gzip_fixture.h - reading gzip output back with zlib, the reference,
 * one member at a time, for the tests of the gzip writer (test_gzout.c)
 * and of the pprof writer that uses it (test_encode.c).
 */
#ifndef PROFCONV_TEST_GZIP_FIXTURE_H
#define PROFCONV_TEST_GZIP_FIXTURE_H

#include <string.h>
#include <zlib.h>

#include "helpers.h"

/*
 * Inflate BUF member by member into OUT (room for CAP bytes): the
 * number of members, the size of each in SIZES (up to 8).
 */
static inline size_t
members(const unsigned char *buf, size_t len, unsigned char *out,
    size_t cap, size_t *sizes)
{
	z_stream z;
	size_t m = 0, at = 0;
	int zr;

	memset(&z, 0, sizeof(z));
	cr_assert(eq(int, inflateInit2(&z, 16 + MAX_WBITS), Z_OK));
	z.next_in = (unsigned char *)buf;
	z.avail_in = (uInt)len;
	while (z.avail_in != 0) {
		z.next_out = out + at;
		z.avail_out = (uInt)(cap - at);
		zr = inflate(&z, Z_NO_FLUSH);
		cr_assert(zr == Z_OK || zr == Z_STREAM_END, "inflate: %d", zr);
		if (m < 8)
			sizes[m] += cap - at - z.avail_out;
		at = cap - z.avail_out;
		if (zr == Z_STREAM_END) {
			m++;
			cr_assert(eq(int, inflateReset(&z), Z_OK));
		}
	}
	inflateEnd(&z);
	cr_assert(eq(sz, at, cap), "inflated %zu of %zu bytes", at, cap);
	return m;
}

#endif /* PROFCONV_TEST_GZIP_FIXTURE_H */
