/* SPDX-License-Identifier: MIT */
/*
 * gzout.c - gzip output compressed on several threads, the same bytes
 * whatever their number.
 *
 * The uncompressed stream is cut into blocks of PC_GZ_BLOCK bytes, and
 * each block becomes a gzip member of its own (RFC 1952 allows any
 * number of members in a row; gzip -d, zlib's gzread, Go's gzip.Reader
 * and our own reader read them as one stream).  Block boundaries depend
 * on the stream alone, so threads only change who compresses which
 * block.  A member per block loses about 0.2% of size to the headers and
 * to matches that cannot reach back across a boundary.
 *
 * zlib is always there; libdeflate, when configure found it, compresses
 * the same level about twice as fast and as small.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "pprof/pprof.h"

/* Blocks compressed per round: a few per thread, so that threads stay
 * busy while memory stays bounded (round * block bound). */
#define ROUND_PER_JOB 4

struct gz_block {
	unsigned char *out;
	size_t len;
	unsigned char *in;	/* the block's bytes when they span pieces */
};

struct gz_round {
	const struct pc_piece *pieces;
	const size_t *starts;	/* offset of each piece in the stream */
	size_t npieces;
	size_t len;		/* of the stream */
	size_t first;		/* block number of blocks[0] */
	struct gz_block *blocks;
	int level;
	enum pc_gz_backend backend;
};

static int
zlib_block(const unsigned char *in, size_t len, int level,
    struct gz_block *b)
{
	z_stream z;
	size_t bound;
	int zr;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip wrapper (mtime 0, so no clock in it). */
	if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return profconv__nomem();
	bound = deflateBound(&z, (uLong)len);
	b->out = malloc(bound);
	if (b->out == NULL) {
		deflateEnd(&z);
		return profconv__nomem();
	}
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = b->out;
	z.avail_out = (uInt)bound;
	zr = deflate(&z, Z_FINISH);
	b->len = bound - z.avail_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END)
		return profconv__fail(PROFCONV_EIO, "deflate failed (%d)", zr);
	return 0;
}

#ifdef HAVE_LIBDEFLATE
static int
libdeflate_block(const unsigned char *in, size_t len, int level,
    struct gz_block *b)
{
	struct libdeflate_compressor *c;
	size_t bound;

	c = libdeflate_alloc_compressor(level);
	if (c == NULL)
		return profconv__nomem();
	bound = libdeflate_gzip_compress_bound(c, len);
	b->out = malloc(bound);
	if (b->out != NULL)
		b->len = libdeflate_gzip_compress(c, in, len, b->out, bound);
	libdeflate_free_compressor(c);
	if (b->out == NULL)
		return profconv__nomem();
	if (b->len == 0)
		return profconv__fail(PROFCONV_EIO, "libdeflate failed");
	return 0;
}
#endif

/* The piece that holds stream offset OFF (< the stream's length). */
static size_t
piece_at(const struct gz_round *r, size_t off)
{
	size_t lo = 0, hi = r->npieces, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The N bytes of the stream at OFF: in place when one piece holds them,
 * else copied into B->in. */
static const unsigned char *
block_bytes(const struct gz_round *r, size_t off, size_t n,
    struct gz_block *b)
{
	size_t k, at, take, done;

	if (n == 0)
		return (const unsigned char *)"";
	k = piece_at(r, off);
	at = off - r->starts[k];
	if (r->pieces[k].len - at >= n)
		return r->pieces[k].p + at;
	b->in = malloc(n);
	if (b->in == NULL)
		return NULL;
	for (done = 0; done < n; k++, at = 0) {
		take = r->pieces[k].len - at;
		if (take > n - done)
			take = n - done;
		if (take != 0)
			memcpy(b->in + done, r->pieces[k].p + at, take);
		done += take;
	}
	return b->in;
}

static int
compress_task(void *arg, size_t i)
{
	struct gz_round *r = arg;
	struct gz_block *b = &r->blocks[i];
	size_t off = (r->first + i) * PC_GZ_BLOCK;
	size_t n = r->len - off < PC_GZ_BLOCK ? r->len - off : PC_GZ_BLOCK;
	const unsigned char *in = block_bytes(r, off, n, b);
	int rc;

	if (in == NULL)
		return profconv__nomem();
#ifdef HAVE_LIBDEFLATE
	if (r->backend == PC_GZ_LIBDEFLATE)
		rc = libdeflate_block(in, n, r->level, b);
	else
#endif
		rc = zlib_block(in, n, r->level, b);
	free(b->in);
	b->in = NULL;
	return rc;
}

bool
profconv__gz_has(enum pc_gz_backend backend)
{
#ifdef HAVE_LIBDEFLATE
	if (backend == PC_GZ_LIBDEFLATE)
		return true;
#endif
	return backend == PC_GZ_ZLIB || backend == PC_GZ_BEST;
}

int
profconv__gz_write_some(FILE *fp, const struct pc_piece *pieces, size_t n,
    int level, unsigned int jobs, enum pc_gz_backend backend, bool last,
    size_t *used)
{
	struct gz_round r = { pieces, NULL, n, 0, 0, NULL, level, backend };
	size_t nblocks, per_round, k, i, len = 0;
	size_t *starts;
	int rc = 0;

	*used = 0;
	if (!profconv__gz_has(backend))
		return profconv__fail(PROFCONV_EINVAL,
		    "this build has no such compressor (%d)", (int)backend);
	starts = malloc((n + 1) * sizeof(*starts));
	if (starts == NULL)
		return profconv__nomem();
	for (i = 0; i < n; i++) {
		starts[i] = len;
		len += pieces[i].len;
	}
	r.starts = starts;
	r.len = len;
	if (backend == PC_GZ_BEST)
		r.backend = profconv__gz_has(PC_GZ_LIBDEFLATE) ?
		    PC_GZ_LIBDEFLATE : PC_GZ_ZLIB;
	/* An empty stream is still one (empty) member; before the last
	 * call, only whole blocks. */
	if (!last)
		nblocks = len / PC_GZ_BLOCK;
	else
		nblocks = len == 0 ? 1 : (len - 1) / PC_GZ_BLOCK + 1;
	per_round = (size_t)profconv__jobs_count(jobs) * ROUND_PER_JOB;
	r.blocks = calloc(per_round, sizeof(*r.blocks));
	if (r.blocks == NULL) {
		free(starts);
		return profconv__nomem();
	}
	errno = 0;
	for (r.first = 0; rc == 0 && r.first < nblocks; r.first += k) {
		k = nblocks - r.first < per_round ? nblocks - r.first :
		    per_round;
		rc = profconv__jobs_run(jobs, k, compress_task, &r);
		for (i = 0; rc == 0 && i < k; i++)
			if (fwrite(r.blocks[i].out, 1, r.blocks[i].len, fp) !=
			    r.blocks[i].len)
				rc = profconv__write_error();
		for (i = 0; i < k; i++) {
			free(r.blocks[i].out);
			r.blocks[i].out = NULL;
		}
	}
	free(r.blocks);
	free(starts);
	if (rc == 0)
		*used = last ? len : nblocks * PC_GZ_BLOCK;
	return rc;
}

int
profconv__gz_write(FILE *fp, const struct pc_piece *pieces, size_t n,
    int level, unsigned int jobs, enum pc_gz_backend backend)
{
	size_t used;

	return profconv__gz_write_some(fp, pieces, n, level, jobs, backend,
	    true, &used);
}
